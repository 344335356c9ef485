// The accounts area's SQL repositories: one factory per port of areas/accounts/ports/.
// Only the composition (its module, service.cpp) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/accounts/ports/account_data_repository.h"
#include "areas/accounts/ports/email_token_repository.h"
#include "areas/accounts/ports/invitation_repository.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/session_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/ports/waitlist_repository.h"

namespace service::store {

std::unique_ptr<ports::AccountDataRepository> NewSqlAccountDataRepository();
std::unique_ptr<ports::SessionRepository> NewSqlSessionRepository();
std::unique_ptr<ports::EmailTokenRepository> NewSqlEmailTokenRepository();
std::unique_ptr<ports::InvitationRepository> NewSqlInvitationRepository();
std::unique_ptr<ports::WaitlistRepository> NewSqlWaitlistRepository();
std::unique_ptr<ports::OrgRepository> NewSqlOrgRepository();
std::unique_ptr<ports::MembershipRepository> NewSqlMembershipRepository();
std::unique_ptr<ports::UserRepository> NewSqlUserRepository();

}  // namespace service::store
