// The portfolio (issue 28 item 4, server-contract "Portfolio") through the
// router on both backends: every organization of the caller with its
// figures, read as GET /v1/bugs and /v1/bugs/stats read them, the totals,
// nothing from an organization the caller is not in, JWT only (no
// X-Service-Org needed).
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) {
  const json::value& x = v.at(key);
  return x.is_string() ? std::string(x.as_string()) : json::serialize(x);
}
int64_t I(const json::value& v, const char* key) { return v.at(key).as_int64(); }

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title, json::object extra = {}) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

// The total GET /v1/bugs reports for `query` in m's organization.
int64_t BugTotal(TestService& t, const Member& m, const std::string& query) {
  TestResponse r = t.Get("/v1/bugs?" + query, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return I(r.json, "total");
}

void Join(TestService& t, const Member& m, const std::string& org_id, const std::string& role) {
  modules::Platform& core = internal::PlatformOf(t.service());
  Status st = core.tx->Write([&](ports::Tx& tx) {
    return core.Shared<ports::MembershipRepository>()->Insert(
        tx, ports::Membership{org_id, m.user_id, role, std::nullopt, core.Now()});
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
}

const json::value* Row(const json::value& overview, const std::string& org_id) {
  for (const auto& o : overview.at("organizations").as_array()) {
    if (S(o, "orgId") == org_id) return &o;
  }
  return nullptr;
}

TEST_CASE("portfolio: every organization of the caller with its figures and the totals, nothing else") {
  auto t = std::make_unique<TestService>();
  CaptureSetup a = NewCaptureSetup(*t, "pro");
  CaptureSetup b = NewCaptureSetup(*t);
  CaptureSetup c = NewCaptureSetup(*t);  // the caller is not in it
  const Member& me = a.admin;
  Join(*t, me, b.admin.org_id, "viewer");
  CreateProjectVia(*t, a.admin, "Second");

  NewBug(*t, a, "Checkout crash", {{"severity", "critical"}});
  NewBug(*t, a, "Slow page", {{"severity", "low"}});
  const std::string fixed = NewBug(*t, a, "Old crash", {{"severity", "critical"}});
  REQUIRE(t->Patch("/v1/bugs/" + fixed, json::object{{"status", "resolved"}}, a.admin.headers()).status ==
          200);
  NewBug(*t, b, "Their crash", {{"severity", "critical"}});
  for (int i = 0; i < 3; ++i) NewBug(*t, c, "Not mine " + std::to_string(i), {{"severity", "critical"}});

  RenewToken(*t, const_cast<Member&>(me));
  TestResponse r = t->Get("/v1/portfolio/overview", Bearer(me.token));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  const json::value& v = r.json;
  const json::array& orgs = v.at("organizations").as_array();
  REQUIRE(orgs.size() == 2);
  CHECK(Row(v, c.admin.org_id) == nullptr);
  // Ordered by name.
  CHECK(S(orgs[0], "name") <= S(orgs[1], "name"));

  const json::value* ra = Row(v, a.admin.org_id);
  const json::value* rb = Row(v, b.admin.org_id);
  REQUIRE(ra != nullptr);
  REQUIRE(rb != nullptr);
  CHECK(ra->as_object().size() == 10);
  CHECK(S(*ra, "role") == "admin");
  CHECK(S(*ra, "plan") == "pro");
  CHECK(S(*rb, "role") == "viewer");
  CHECK(S(*rb, "plan") == "free");
  CHECK(S(*ra, "slug").rfind("org-", 0) == 0);
  CHECK(S(*ra, "name").rfind("Org ", 0) == 0);
  CHECK(I(*ra, "projects") == 2);
  CHECK(I(*rb, "projects") == 1);
  // The figures of the bug list (unresolved; critical) and of the stats.
  CHECK(I(*ra, "openBugs") == BugTotal(*t, a.admin, "unresolved=true"));
  CHECK(I(*ra, "criticalOpen") == BugTotal(*t, a.admin, "unresolved=true&severity=critical"));
  CHECK(I(*ra, "openBugs") == 2);
  CHECK(I(*rb, "openBugs") == 1);
  CHECK(I(*rb, "criticalOpen") == BugTotal(*t, b.admin, "unresolved=true&severity=critical"));
  TestResponse stats = t->Get("/v1/bugs/stats?days=7", a.admin.headers());
  REQUIRE(stats.status == 200);
  CHECK(I(*ra, "newBugs7d") == I(stats.json.at("aggregates"), "total"));
  CHECK(I(*ra, "newBugs7d") == 3);
  CHECK(I(*rb, "newBugs7d") == 1);
  TestResponse latest = t->Get("/v1/bugs?limit=1", a.admin.headers());
  CHECK(S(*ra, "lastBugSeen") == S(latest.json.at("bugs").at(0), "last_seen"));

  const json::value& totals = v.at("totals");
  CHECK(totals.as_object().size() == 4);
  CHECK(I(totals, "organizations") == 2);
  CHECK(I(totals, "projects") == 3);
  CHECK(I(totals, "openBugs") == I(*ra, "openBugs") + I(*rb, "openBugs"));
  CHECK(I(totals, "criticalOpen") == I(*ra, "criticalOpen") + I(*rb, "criticalOpen"));

  // Eight days later nothing is new; the last bug seen stays.
  t->clock().Advance(8 * 86'400'000LL);
  RenewToken(*t, const_cast<Member&>(me));
  TestResponse later = t->Get("/v1/portfolio/overview", Bearer(me.token));
  REQUIRE(later.status == 200);
  CHECK(I(*Row(later.json, a.admin.org_id), "newBugs7d") == 0);
  CHECK(S(*Row(later.json, a.admin.org_id), "lastBugSeen") == S(*ra, "lastBugSeen"));
}

TEST_CASE("portfolio: JWT only, an organization header changes nothing, an empty organization reads zeros") {
  auto t = std::make_unique<TestService>();
  Member m = NewOrgWithMember(*t, "member");
  CHECK(t->Get("/v1/portfolio/overview").status == 401);
  CHECK(t->Get("/v1/portfolio/overview", Bearer("sv_pat_0123456789abcdef")).status == 401);
  TestResponse r = t->Get("/v1/portfolio/overview", Bearer(m.token));
  REQUIRE(r.status == 200);
  const json::value& o = r.json.at("organizations").at(0);
  CHECK(S(o, "orgId") == m.org_id);
  CHECK(S(o, "role") == "member");
  CHECK(I(o, "projects") == 0);
  CHECK(I(o, "openBugs") == 0);
  CHECK(I(o, "newBugs7d") == 0);
  CHECK(o.at("lastBugSeen").is_null());
  CHECK(I(r.json.at("totals"), "organizations") == 1);
  Member other = NewOrgWithMember(*t);
  TestResponse with_header = t->Get("/v1/portfolio/overview", m.headers());
  CHECK(with_header.status == 200);
  CHECK(with_header.json == r.json);
  TestResponse foreign_header = t->Get(
      "/v1/portfolio/overview", {{"Authorization", "Bearer " + m.token}, {"X-Service-Org", other.org_id}});
  CHECK(foreign_header.status == 200);
  CHECK(foreign_header.json == r.json);
}

}  // namespace
}  // namespace service::testing
