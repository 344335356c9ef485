// GET /v1/portfolio/overview (server-contract "Portfolio"), JWT only:
//   {organizations[{orgId, name, slug, role, plan, projects, openBugs,
//    criticalOpen, newBugs7d, lastBugSeen}], totals{organizations, projects,
//    openBugs, criticalOpen}}
// over every organization the caller belongs to, ordered by name.
#include <boost/json.hpp>

#include "api/json.h"
#include "areas/portfolio/api/routes.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
using app::portfolio::PortfolioDeps;

Response HandleOverview(const PortfolioDeps& deps, Context& ctx) {
  auto p = app::portfolio::Overview(deps, ctx.principal.user_id);
  if (!p.ok()) return StatusResponse(p.status());
  json::array orgs;
  for (const auto& o : p->organizations) {
    orgs.push_back(
        json::object{{"orgId", o.org_id},
                     {"name", o.name},
                     {"slug", o.slug},
                     {"role", o.role},
                     {"plan", o.plan},
                     {"projects", o.projects},
                     {"openBugs", o.open_bugs},
                     {"criticalOpen", o.critical_open},
                     {"newBugs7d", o.new_bugs_7d},
                     {"lastBugSeen",
                      o.last_bug_seen ? json::value(util::FormatIso8601(*o.last_bug_seen)) : json::value()}});
  }
  json::object totals{{"organizations", static_cast<int64_t>(p->organizations.size())},
                      {"projects", p->projects},
                      {"openBugs", p->open_bugs},
                      {"criticalOpen", p->critical_open}};
  return JsonResponse(200, json::object{{"organizations", std::move(orgs)}, {"totals", std::move(totals)}});
}

}  // namespace

void RegisterPortfolioRoutes(Pipeline& p, const PortfolioDeps& deps) {
  p.router().Add("GET", "/v1/portfolio/overview", RateClass::kGeneral, AuthMode::kJwt,
                 Bind(deps, HandleOverview));
}

}  // namespace service::api
