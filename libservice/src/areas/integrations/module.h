// The integrations area (Spec 2 "Integrations", "Delivery", "Alerts"):
// destinations with sealed secrets, the delivery rows capture and triage
// write in their own transactions (it subscribes to the platform's transactional events), the
// delivery engine started with the workers, alert policy, preview and
// overview.
#pragma once

#include <memory>

#include "areas/bugs/module.h"
#include "areas/integrations/app/integrations.h"
#include "areas/integrations/ports/integration_repository.h"
#include "areas/triage/module.h"
#include "modules/module.h"

namespace service::modules {

class IntegrationsModule final : public Module {
 public:
  IntegrationsModule(BugsModule& bugs, TriageModule& triage) : bugs_(bugs), triage_(triage) {}
  ~IntegrationsModule() override;
  std::string_view name() const override { return "integrations"; }
  // SERVICE_SECRETS_KEY, SERVICE_ROUTINE_FIRE_URL, SERVICE_CODE_HOST_API_URL.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  const app::integrations::IntegrationsDeps& deps() const { return deps_; }

 private:
  BugsModule& bugs_;
  TriageModule& triage_;
  ports::EventBus* bus_ = nullptr;
  uint64_t subscription_ = 0;
  std::unique_ptr<ports::IntegrationRepository> integrations_;
  std::unique_ptr<app::integrations::SecretBox> secrets_;
  std::unique_ptr<app::integrations::DeliveryEngine> engine_;
  app::integrations::IntegrationsDeps deps_;
};

}  // namespace service::modules
