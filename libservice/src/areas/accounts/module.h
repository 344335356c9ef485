// The account areas: auth (/v1/auth/*, bearer authentication) and team
// (/v1/team/*). They share one dependencies struct: team invitations issue
// the same emailed tokens and mails as auth.
#pragma once

#include <memory>

#include "areas/accounts/app/accounts.h"
#include "areas/accounts/ports/account_data_repository.h"
#include "areas/accounts/ports/email_token_repository.h"
#include "areas/accounts/ports/invitation_repository.h"
#include "areas/accounts/ports/session_repository.h"
#include "areas/accounts/ports/waitlist_repository.h"
#include "modules/module.h"

namespace service::modules {

class AccountsModule final : public Module {
 public:
  std::string_view name() const override { return "accounts"; }
  // users, orgs, memberships.
  void Provide(Platform& platform) override;
  // SERVICE_JWT_SECRET.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  const app::AccountsDeps& deps() const { return deps_; }

 private:
  std::unique_ptr<ports::SessionRepository> sessions_;
  std::unique_ptr<ports::EmailTokenRepository> email_tokens_;
  std::unique_ptr<ports::InvitationRepository> invitations_;
  std::unique_ptr<ports::WaitlistRepository> waitlist_;
  std::unique_ptr<ports::AccountDataRepository> account_data_;
  app::AccountsDeps deps_;
  bool production_ = false;
};

}  // namespace service::modules
