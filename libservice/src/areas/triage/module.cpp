#include "areas/triage/module.h"

#include "areas/agent_tokens/app/agent_tokens.h"
#include "areas/triage/api/routes.h"
#include "areas/triage/store/repositories.h"
#include "util/strings.h"

namespace service::modules {
namespace {

constexpr int64_t kMaxDigestPeriodSeconds = 31LL * 86'400;

// "hourly=SECONDS,daily=SECONDS", any subset; empty: the defaults.
Status ApplyDigestPeriods(Options& options, std::string_view value) {
  const std::string var = "SERVICE_DIGEST_PERIODS";
  const std::string form = "expected hourly=SECONDS,daily=SECONDS (either or both; 1 to 2678400 seconds)";
  Options defaults;
  int64_t hourly = defaults.digest_hourly_ms, daily = defaults.digest_daily_ms;
  bool hourly_seen = false, daily_seen = false;
  for (const std::string& raw : util::Split(util::Trim(value), ',')) {
    const std::string item = util::Trim(raw);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string name = util::ToLower(util::Trim(std::string_view(item).substr(0, eq)));
    if (eq == std::string::npos || (name != "hourly" && name != "daily")) {
      return InvalidArgument(var + ": " + form + ", got \"" + item + "\"");
    }
    bool& seen = name == "hourly" ? hourly_seen : daily_seen;
    if (seen) return InvalidArgument(var + ": " + name + " is given twice");
    seen = true;
    SV_ASSIGN_OR_RETURN(int64_t seconds,
                        ParseSettingCount(var + " " + name, item.substr(eq + 1), 1, kMaxDigestPeriodSeconds));
    (name == "hourly" ? hourly : daily) = seconds * 1000;
  }
  options.digest_hourly_ms = hourly;
  options.digest_daily_ms = daily;
  return Status::Ok();
}

}  // namespace

void TriageModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back(
      {"SERVICE_DIGEST_PERIODS", "", "",
       "seconds of each digest frequency, e.g. hourly=3600,daily=86400 (shorter periods for staging "
       "and tests)",
       "hourly=3600,daily=86400", ApplyDigestPeriods});
}

Status TriageModule::Open(Platform& p) {
  triage_ = store::NewSqlTriageRepository();
  digests_ = store::NewSqlDigestRepository();
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
  deps_.digests = digests_.get();
  deps_.digest_retention_ms = p.options.retention.digest_batches_ms;
  deps_.digest_hourly_ms = p.options.digest_hourly_ms;
  deps_.digest_daily_ms = p.options.digest_daily_ms;
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
  ports::DigestRepository* dg = digests_.get();
  p.deletion.OnOrganizationDeleted([t, dg](ports::Tx& tx, const std::string& org_id) {
    SV_RETURN_IF_ERROR(dg->DeleteOrganizationRows(tx, org_id));
    return t->DeleteOrganizationRows(tx, org_id);
  });
  p.deletion.OnMemberRemoved([t](ports::Tx& tx, const std::string& org_id, const std::string& user_id) {
    return t->DeleteMemberRows(tx, org_id, user_id);
  });
  p.deletion.OnAccountDeleted([t, dg](ports::Tx& tx, const std::string& user_id) {
    SV_RETURN_IF_ERROR(dg->DeleteAccountRows(tx, user_id));
    return t->DeleteAccountRows(tx, user_id);
  });
  app::triage::RegisterNotificationWorkers(deps_, p.workers);
  return Status::Ok();
}

void TriageModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterTriageRoutes(pipeline, deps_);
  api::RegisterNotificationRoutes(pipeline, deps_);
  api::RegisterDigestRoutes(pipeline, deps_);
}

}  // namespace service::modules
