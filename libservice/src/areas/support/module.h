// The support area: support sessions (Spec 2 "Superadmin" POST
// /v1/admin/support/session, server contract "Support sessions"). It hands
// the accounts area's bearer authenticator the check of a request under a
// session (AccountsModule::SetSupportSessions) and logs those requests for
// the organization's admins. It needs accounts only (the organizations).
#pragma once

#include <memory>

#include "areas/accounts/module.h"
#include "areas/support/app/support.h"
#include "areas/support/ports/support_session_repository.h"
#include "modules/module.h"

namespace service::modules {

class SupportModule final : public Module {
 public:
  explicit SupportModule(AccountsModule& accounts) : accounts_(accounts) {}
  std::string_view name() const override { return "support"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

 private:
  AccountsModule& accounts_;
  std::unique_ptr<ports::SupportSessionRepository> sessions_;
  app::support::SupportDeps deps_;
};

}  // namespace service::modules
