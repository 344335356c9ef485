// The health area: GET /v1/health and /v1/health/deep.
#pragma once

#include "areas/health/app/health.h"
#include "modules/module.h"

namespace service::modules {

class HealthModule final : public Module {
 public:
  std::string_view name() const override { return "health"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

 private:
  app::health::HealthDeps deps_;
  std::string service_name_;
};

}  // namespace service::modules
