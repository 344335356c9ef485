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

  const app::accounts::AccountsDeps& deps() const { return deps_; }
  // scrypt cost for new password hashes (and the login timing decoy).
  // Default: domain::accounts::ScryptParams{} (N = 2^15). Tests lower it after Open.
  domain::accounts::ScryptParams& password_params() { return password_params_; }
  // Set by the projects area while it opens: signup's default project.
  void SetFirstProject(app::accounts::CreateFirstProject create) {
    deps_.create_first_project = std::move(create);
  }
  // Set by the support area while it opens: the bearer authenticator's
  // check of a request under a support session.
  void SetSupportSessions(app::accounts::CheckSupportSession check) {
    deps_.check_support_session = std::move(check);
  }
  // Set by the agent tokens area while it opens: the bearer authenticator's
  // check of an sv_pat_ token.
  void SetAgentTokens(app::accounts::CheckAgentToken check) { deps_.check_agent_token = std::move(check); }

 private:
  std::unique_ptr<ports::SessionRepository> sessions_;
  std::unique_ptr<ports::EmailTokenRepository> email_tokens_;
  std::unique_ptr<ports::InvitationRepository> invitations_;
  std::unique_ptr<ports::WaitlistRepository> waitlist_;
  std::unique_ptr<ports::AccountDataRepository> account_data_;
  app::accounts::AccountsDeps deps_;
  domain::accounts::ScryptParams password_params_;
  bool production_ = false;
};

}  // namespace service::modules
