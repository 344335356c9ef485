#include "areas/portfolio/app/portfolio.h"

#include <algorithm>

namespace service::app::portfolio {
namespace {

constexpr int64_t kDayMs = 86'400'000;
constexpr int64_t kNewBugDays = 7;

// GET /v1/bugs's default view: issues and watches (diagnostics left out).
ports::BugFilter BugListView(const std::string& org_id) {
  ports::BugFilter f;
  f.org_id = org_id;
  f.signal_classes = {"issue", "watch"};
  return f;
}

Status Fill(const PortfolioDeps& deps, ports::Tx& c, int64_t now, OrgRollup& o) {
  SV_ASSIGN_OR_RETURN(o.projects, deps.projects->Count(c, o.org_id));

  ports::BugFilter open = BugListView(o.org_id);
  open.unresolved = true;
  SV_ASSIGN_OR_RETURN(ports::BugPage open_page, deps.bugs->List(c, open, 1, 0));
  o.open_bugs = open_page.total;
  open.severity = "critical";
  SV_ASSIGN_OR_RETURN(ports::BugPage critical_page, deps.bugs->List(c, open, 1, 0));
  o.critical_open = critical_page.total;

  SV_ASSIGN_OR_RETURN(ports::BugPage latest, deps.bugs->List(c, BugListView(o.org_id), 1, 0));
  if (!latest.bugs.empty()) o.last_bug_seen = latest.bugs.front().last_seen;

  ports::BugScope scope;
  scope.org_id = o.org_id;
  const int64_t end_day = now / kDayMs + 1;
  SV_ASSIGN_OR_RETURN(std::vector<ports::BugDayTally> days,
                      deps.insights->BugDays(c, scope, end_day - kNewBugDays, end_day));
  for (const ports::BugDayTally& d : days) o.new_bugs_7d += d.n;
  return Status::Ok();
}

}  // namespace

Result<Portfolio> Overview(const PortfolioDeps& deps, const std::string& user_id) {
  Portfolio out;
  const int64_t now = deps.Now();
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::vector<ports::UserOrg> orgs, deps.memberships->ListForUser(c, user_id));
    out.organizations.clear();
    for (const ports::UserOrg& m : orgs) {
      OrgRollup o;
      o.org_id = m.org_id;
      o.name = m.org_name;
      o.slug = m.org_slug;
      o.role = m.role;
      o.plan = m.plan;
      SV_RETURN_IF_ERROR(Fill(deps, c, now, o));
      out.organizations.push_back(std::move(o));
    }
    return Status::Ok();
  }));
  std::sort(out.organizations.begin(), out.organizations.end(), [](const OrgRollup& a, const OrgRollup& b) {
    if (a.name != b.name) return a.name < b.name;
    return a.slug < b.slug;
  });
  for (const OrgRollup& o : out.organizations) {
    out.projects += o.projects;
    out.open_bugs += o.open_bugs;
    out.critical_open += o.critical_open;
  }
  return out;
}

}  // namespace service::app::portfolio
