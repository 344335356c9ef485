#include "modules/demo.h"

#include "app/capture/ingest.h"
#include "store/repositories.h"

namespace service::modules {

Status DemoModule::Open(Platform& p) {
  statuses_ = store::NewSqlBugStatusRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.orgs = p.orgs.get();
  deps_.users = p.users.get();
  deps_.statuses = statuses_.get();
  deps_.capture_bugs = capture_.deps().capture_bugs;
  const app::AccountsDeps* accounts = &accounts_.deps();
  deps_.register_account = [accounts](const app::RegisterInput& in) { return app::Register(*accounts, in); };
  const app::capture::CaptureDeps* capture = &capture_.deps();
  deps_.ingest = [capture](const app::capture::ReportSource& source, app::capture::ReportInput input) {
    return app::capture::Ingest(*capture, source, std::move(input));
  };
  return Status::Ok();
}

}  // namespace service::modules
