#include "areas/stream/module.h"

#include "areas/stream/api/routes.h"
#include "modules/platform.h"

namespace service::modules {

Status StreamModule::Open(Platform& p) {
  deps_.bus = p.bus.get();
  deps_.clock = p.clock.get();
  deps_.db = p.tx.get();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.accounts = &accounts_.deps();
  hub_ = std::make_unique<app::stream::Hub>(deps_);
  // Heartbeats are due every 15 s per stream and token expiries at any
  // second: a check each second wakes the streams that are due.
  app::stream::Hub* hub = hub_.get();
  p.workers.Add("stream-heartbeats", 1000, [hub] { return hub->Tick(); });
  p.metrics.AddCollector([hub](std::vector<util::metrics::Family>& out) {
    out.push_back({"service_stream_open_streams",
                   "Live event streams (GET /v1/bugs/stream) open now.",
                   util::metrics::Type::kGauge,
                   {{{}, static_cast<double>(hub->open_count())}}});
  });
  return Status::Ok();
}

void StreamModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterStreamRoutes(pipeline, *hub_); }

}  // namespace service::modules
