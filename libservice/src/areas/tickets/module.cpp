#include "areas/tickets/module.h"

#include "areas/tickets/api/routes.h"
#include "areas/tickets/store/repositories.h"

namespace service::modules {

Status TicketsModule::Open(Platform& p) {
  tickets_ = store::NewSqlTicketRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.tickets = tickets_.get();
  deps_.bugs = bugs_.deps().bugs;
  deps_.members = triage_.deps().triage;
  deps_.production = p.options.production;

  ports::TicketRepository* t = tickets_.get();
  p.deletion.OnOrganizationDeleted(
      [t](ports::Tx& tx, const std::string& org_id) { return t->DeleteOrganizationRows(tx, org_id); });
  p.deletion.OnMemberRemoved([t](ports::Tx& tx, const std::string& org_id, const std::string& user_id) {
    return t->ClearAssignee(tx, org_id, user_id);
  });
  return Status::Ok();
}

void TicketsModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterTicketRoutes(pipeline, deps_); }

}  // namespace service::modules
