#include "areas/applications/module.h"

#include "areas/applications/api/routes.h"
#include "areas/applications/store/repositories.h"
#include "service/options.h"

namespace service::modules {
namespace {

Status ApplyNativeCaptureReceipts(Options& options, std::string_view value) {
  if (value.find_first_not_of(" \t") == std::string_view::npos) {
    options.native_capture_receipts = false;
    return Status::Ok();
  }
  SV_ASSIGN_OR_RETURN(options.native_capture_receipts,
                      ParseSettingBool("SERVICE_NATIVE_CAPTURE_RECEIPTS", value));
  return Status::Ok();
}

}  // namespace

void ApplicationsModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back({"SERVICE_NATIVE_CAPTURE_RECEIPTS", "", "",
                  "`1`: native (Swift) captures can create first-capture receipts (turning it off keeps "
                  "reads of existing receipts)",
                  "`0`", ApplyNativeCaptureReceipts});
}

void ApplicationsModule::Provide(Platform& p) {
  directory_ = p.Share<ports::ApplicationDirectory>(store::NewSqlApplicationDirectory());
}

Status ApplicationsModule::Open(Platform& p) {
  registry_ = store::NewSqlRegistryRepository();
  receipts_ = store::NewSqlReceiptRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.log = p.log.get();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.registry = registry_.get();
  deps_.receipts = receipts_.get();
  deps_.native_receipts = p.options.native_capture_receipts;

  const app::applications::ApplicationsDeps* deps = &deps_;
  capture_.AddAcceptedCaptureHook([deps](ports::Tx& tx, const app::capture::AcceptedCapture& c) {
    return app::applications::OnAcceptedCapture(*deps, tx, c);
  });
  return Status::Ok();
}

void ApplicationsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterApplicationsRoutes(pipeline, deps_);
}

}  // namespace service::modules
