// The metrics area: GET /metrics in the Prometheus text exposition format
// (SERVICE_METRICS_TOKEN), and the platform-wide collectors computed when
// scraped: the process (/proc/self), the database pool, the outbox.
// Other areas register their own metrics on Platform::metrics while they
// open (HTTP: the pipeline; reports and the writer: capture; live streams:
// stream; deliveries: integrations).
#pragma once

#include <string>
#include <vector>

#include "modules/module.h"
#include "util/metrics.h"

namespace service::modules {

class MetricsModule final : public Module {
 public:
  std::string_view name() const override { return "metrics"; }
  // SERVICE_METRICS_TOKEN.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

 private:
  const util::metrics::Registry* registry_ = nullptr;
  std::string token_;
};

}  // namespace service::modules
