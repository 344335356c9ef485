// The operations area: plans (areas/operations/domain/plans.h) and the
// monthly usage counters every area that meters something counts against.
// The superadmin, billing and support routes of Spec 2 join it.
#pragma once

#include "modules/module.h"

namespace service::modules {

class OperationsModule final : public Module {
 public:
  std::string_view name() const override { return "operations"; }
  // usage.
  void Provide(Platform& platform) override;
  // SERVICE_SUPERADMIN_EMAILS, SERVICE_PLAN_LIMITS.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
};

}  // namespace service::modules
