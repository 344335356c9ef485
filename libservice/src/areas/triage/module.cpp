#include "areas/triage/module.h"

#include "areas/agent_tokens/app/agent_tokens.h"
#include "areas/triage/api/routes.h"
#include "areas/triage/store/repositories.h"

namespace service::modules {

Status TriageModule::Open(Platform& p) {
  triage_ = store::NewSqlTriageRepository();
  bugs_ = store::NewSqlBugWriteRepository();
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.bus = p.bus.get();
  deps_.events = &p.events;
  deps_.log = p.log.get();
  deps_.bugs = bugs_.get();
  deps_.reads = bugs_module_.deps().bugs;
  deps_.triage = triage_.get();
  deps_.users = p.Shared<ports::UserRepository>();
  deps_.orgs = p.Shared<ports::OrgRepository>();
  deps_.memberships = p.Shared<ports::MembershipRepository>();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.usage = p.Shared<ports::UsageRepository>();
  deps_.agent_tokens = p.Shared<app::agent_tokens::AgentTokensDeps>();
  deps_.outbox = p.outbox.get();
  deps_.http = p.http.get();
  deps_.ai = ai_.provider();
  deps_.mail = p.Shared<app::mail::MailOutbox>();
  deps_.plan_limits = p.options.plan_limits;
  deps_.public_url = p.options.EffectivePublicUrl();

  ports::TriageRepository* t = triage_.get();
  p.deletion.OnOrganizationDeleted(
      [t](ports::Tx& tx, const std::string& org_id) { return t->DeleteOrganizationRows(tx, org_id); });
  p.deletion.OnMemberRemoved([t](ports::Tx& tx, const std::string& org_id, const std::string& user_id) {
    return t->DeleteMemberRows(tx, org_id, user_id);
  });
  p.deletion.OnAccountDeleted(
      [t](ports::Tx& tx, const std::string& user_id) { return t->DeleteAccountRows(tx, user_id); });
  app::triage::RegisterNotificationWorkers(deps_, p.workers);
  return Status::Ok();
}

void TriageModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterTriageRoutes(pipeline, deps_);
  api::RegisterNotificationRoutes(pipeline, deps_);
}

}  // namespace service::modules
