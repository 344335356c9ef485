#include "areas/handoff/module.h"

#include "areas/handoff/api/routes.h"
#include "areas/handoff/store/repositories.h"

namespace service::modules {

Status HandoffModule::Open(Platform& p) {
  handoff_ = store::NewSqlHandoffRepository();
  listeners_ = store::NewSqlAgentListeners();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.log = p.log.get();
  deps_.bus = p.bus.get();
  deps_.handoff = handoff_.get();
  deps_.listeners = listeners_.get();
  deps_.bugs = bugs_.deps().bugs;
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.integrations_deps = &integrations_.deps();

  // Auto-notify: inside capture's transaction, after the integrations
  // area's own subscriber (it opened first).
  const app::handoff::HandoffDeps* deps = &deps_;
  p.events.Subscribe([deps](ports::Tx& tx, const ports::Event& e, std::string_view area) {
    return app::handoff::OnCaptureEvent(*deps, tx, e, area);
  });
  return Status::Ok();
}

void HandoffModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterHandoffRoutes(pipeline, deps_); }

}  // namespace service::modules
