// The SQL repositories of store/: one factory per ports/ interface. Only the
// composition (modules/, service.cpp) and store tests create them; app/
// sees the interfaces alone.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <memory>

#include "ports/account_data_repository.h"
#include "ports/bug_insight_repository.h"
#include "ports/bug_read_repository.h"
#include "ports/bug_search_repository.h"
#include "ports/bug_status_repository.h"
#include "ports/bug_write_repository.h"
#include "ports/capture_bug_repository.h"
#include "ports/duplicate_candidate_repository.h"
#include "ports/email_token_repository.h"
#include "ports/end_user_repository.h"
#include "ports/integration_repository.h"
#include "ports/invitation_repository.h"
#include "ports/occurrence_repository.h"
#include "ports/org_repository.h"
#include "ports/outbox_repository.h"
#include "ports/presence_repository.h"
#include "ports/project_repository.h"
#include "ports/session_repository.h"
#include "ports/settings_repository.h"
#include "ports/triage_repository.h"
#include "ports/usage_repository.h"
#include "ports/user_repository.h"
#include "ports/waitlist_repository.h"

namespace service::store {

std::unique_ptr<ports::AccountDataRepository> NewSqlAccountDataRepository();
std::unique_ptr<ports::BugReadRepository> NewSqlBugReadRepository();
std::unique_ptr<ports::BugInsightRepository> NewSqlBugInsightRepository();
// PostgreSQL's fuzzy trigram leg (store/bug_search_repository.cpp): it
// first looks among the `fuzzy_walk` newest bugs, and asks the index for
// older ones only while the trigrams it would ask for are held by at most
// one in `fuzzy_dense_divisor` of those. Tests shrink the walk.
struct SearchTuning {
  int64_t fuzzy_walk = 1000;
  int64_t fuzzy_dense_divisor = 50;
};
std::unique_ptr<ports::BugSearchRepository> NewSqlBugSearchRepository(SearchTuning tuning = {});
std::unique_ptr<ports::BugStatusRepository> NewSqlBugStatusRepository();
std::unique_ptr<ports::CaptureBugRepository> NewSqlCaptureBugRepository();
std::unique_ptr<ports::DuplicateCandidateRepository> NewSqlDuplicateCandidateRepository();
std::unique_ptr<ports::EmailTokenRepository> NewSqlEmailTokenRepository();
std::unique_ptr<ports::EndUserRepository> NewSqlEndUserRepository();
std::unique_ptr<ports::InvitationRepository> NewSqlInvitationRepository();
std::unique_ptr<ports::OccurrenceRepository> NewSqlOccurrenceRepository();
std::unique_ptr<ports::OrgRepository> NewSqlOrgRepository();
std::unique_ptr<ports::MembershipRepository> NewSqlMembershipRepository();
std::unique_ptr<ports::OutboxRepository> NewSqlOutboxRepository();
std::unique_ptr<ports::PresenceRepository> NewSqlPresenceRepository();
std::unique_ptr<ports::ProjectRepository> NewSqlProjectRepository();
std::unique_ptr<ports::CaptureKeyRepository> NewSqlCaptureKeyRepository();
std::unique_ptr<ports::SessionRepository> NewSqlSessionRepository();
std::unique_ptr<ports::SettingsRepository> NewSqlSettingsRepository();
std::unique_ptr<ports::TriageRepository> NewSqlTriageRepository();
std::unique_ptr<ports::IntegrationRepository> NewSqlIntegrationRepository();
std::unique_ptr<ports::BugWriteRepository> NewSqlBugWriteRepository();
std::unique_ptr<ports::UsageRepository> NewSqlUsageRepository();
std::unique_ptr<ports::UserRepository> NewSqlUserRepository();
std::unique_ptr<ports::WaitlistRepository> NewSqlWaitlistRepository();

}  // namespace service::store
