#include "areas/demo/module.h"

#include "areas/capture/app/ingest.h"
#include "areas/triage/store/repositories.h"

namespace service::modules {

Status DemoModule::Open(Platform& p) {
  bug_writes_ = store::NewSqlBugWriteRepository();
  report_clock_ = std::make_shared<ManualClock>(0);
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.orgs = p.Shared<ports::OrgRepository>();
  deps_.users = p.Shared<ports::UserRepository>();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.bug_writes = bug_writes_.get();
  deps_.capture_bugs = capture_.deps().capture_bugs;
  const app::accounts::AccountsDeps* accounts = &accounts_.deps();
  deps_.register_account = [accounts](const app::accounts::RegisterInput& in) {
    return app::accounts::Register(*accounts, in);
  };
  // The capture use case itself, on a clock that reads the report's time.
  const app::capture::CaptureDeps* capture = &capture_.deps();
  ManualClock* clock = report_clock_.get();
  deps_.ingest = [capture, clock](const app::capture::ReportSource& source, app::capture::ReportInput input,
                                  int64_t at_ms) {
    app::capture::CaptureDeps at = *capture;
    at.clock = clock;
    clock->Set(at_ms);
    return app::capture::Ingest(at, source, std::move(input));
  };
  return Status::Ok();
}

}  // namespace service::modules
