#include "areas/admin/module.h"

#include "areas/accounts/module.h"
#include "areas/admin/api/routes.h"
#include "areas/admin/store/repositories.h"
#include "areas/capture/store/signature_repository.h"

namespace service::modules {

Status AdminModule::Open(Platform& p) {
  read_ = store::NewSqlAdminReadModel();
  profiles_ = store::NewSqlCustomerProfileRepository();
  signatures_ = store::NewSqlSignatureRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.read = read_.get();
  deps_.profiles = profiles_.get();
  deps_.accounts = &accounts_.deps();
  deps_.signatures = app::capture::SignatureDeps{p.tx.get(), signatures_.get(), p.clock.get()};
  return Status::Ok();
}

void AdminModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterAdminRoutes(pipeline, deps_); }

}  // namespace service::modules
