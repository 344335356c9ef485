#include "modules/triage.h"

#include "store/repositories.h"

namespace service::modules {

Status TriageModule::Open(Platform& p) {
  triage_ = store::NewSqlTriageRepository();
  ports::TriageRepository* t = triage_.get();
  p.deletion.OnOrganizationDeleted(
      [t](ports::Tx& tx, const std::string& org_id) { return t->DeleteOrganizationRows(tx, org_id); });
  p.deletion.OnMemberRemoved([t](ports::Tx& tx, const std::string& org_id, const std::string& user_id) {
    return t->DeleteMemberRows(tx, org_id, user_id);
  });
  p.deletion.OnAccountDeleted(
      [t](ports::Tx& tx, const std::string& user_id) { return t->DeleteAccountRows(tx, user_id); });
  return Status::Ok();
}

}  // namespace service::modules
