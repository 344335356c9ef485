#include "areas/operations/module.h"

#include "areas/operations/store/repositories.h"

namespace service::modules {

void OperationsModule::Provide(Platform& p) { p.usage = store::NewSqlUsageRepository(); }

Status OperationsModule::Open(Platform& p) {
  ports::UsageRepository* usage = p.usage.get();
  p.deletion.OnOrganizationDeleted(
      [usage](ports::Tx& tx, const std::string& org_id) { return usage->DeleteOrganization(tx, org_id); });
  return Status::Ok();
}

}  // namespace service::modules
