#include "areas/verification/module.h"

#include "areas/verification/api/routes.h"
#include "areas/verification/store/repositories.h"

namespace service::modules {

Status VerificationModule::Open(Platform& p) {
  repo_ = store::NewSqlVerificationRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.repo = repo_.get();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.directory = p.Shared<ports::ApplicationDirectory>();
  deps_.bugs = bugs_.deps().bugs;
  deps_.work = &agent_work_.deps();
  const EvidenceModule* evidence = &evidence_;
  deps_.evidence_ready = [evidence](ports::Tx& tx, const std::string& org_id,
                                    const std::string& /*project_id*/,
                                    const std::string& artifact_id) -> Result<bool> {
    SV_ASSIGN_OR_RETURN(std::optional<std::string> state,
                        app::evidence::ArtifactState(evidence->deps(), tx, org_id, artifact_id));
    return state && *state == "ready";
  };

  const app::verification::VerificationDeps* deps = &deps_;
  bugs_.SetVerifiedFixRead([deps](ports::Tx& tx, const ports::BugRecord& bug) {
    return app::verification::ReadVerifiedFix(*deps, tx, bug);
  });
  p.events.Subscribe([deps](ports::Tx& tx, const ports::Event& e, std::string_view area) -> Status {
    if (area != app::kTriageEvents) return Status::Ok();
    return app::verification::OnTriageEvent(*deps, tx, e.type, e.org_id, e.payload);
  });
  return Status::Ok();
}

void VerificationModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterVerificationRoutes(pipeline, deps_);
}

}  // namespace service::modules
