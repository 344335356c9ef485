// The admin area: the superadmin routes (/v1/admin/*, Spec 2 "Superadmin").
// It sits at the top of the areas and reads across all of them: its reads
// are one read-only SQL read model over other areas' tables
// (store/admin_read_model.cpp); every write goes through the owning area's
// use case or port (accounts: customers' organizations, members, plans, the
// waitlist, deletion with every area's hooks; capture: the signature
// backfill). Its own table is customer_profiles (migration 0022).
#pragma once

#include <memory>

#include "areas/admin/app/admin.h"
#include "areas/admin/ports/admin_read_model.h"
#include "areas/admin/ports/customer_profile_repository.h"
#include "areas/capture/ports/signature_repository.h"
#include "modules/module.h"

namespace service::modules {

class AccountsModule;

class AdminModule final : public Module {
 public:
  explicit AdminModule(AccountsModule& accounts) : accounts_(accounts) {}
  std::string_view name() const override { return "admin"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

 private:
  AccountsModule& accounts_;
  std::unique_ptr<ports::AdminReadModel> read_;
  std::unique_ptr<ports::CustomerProfileRepository> profiles_;
  std::unique_ptr<ports::SignatureRepository> signatures_;
  app::admin::AdminDeps deps_;
};

}  // namespace service::modules
