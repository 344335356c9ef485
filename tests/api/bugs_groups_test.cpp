// Triage reads, grouped (Spec 1 "GET /v1/bugs/groups" and
// ".../groups/:groupKey/instances"): bugs of one project sharing a
// signature form a group; every sort in both directions with the spec's
// tie-breaks, the representative rule, aggregates over every member, the
// ambiguity of a key spanning projects, and the organization scope.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::vector<std::string> Strings(const json::value& v) {
  std::vector<std::string> out;
  for (const auto& s : v.as_array()) out.emplace_back(s.as_string());
  return out;
}

// "<projectId>/<groupKey>" of each group of a response, in order.
std::vector<std::string> Keys(const TestResponse& r) {
  std::vector<std::string> out;
  for (const auto& g : r.json.at("groups").as_array())
    out.push_back(Str(g, "projectId") + "/" + Str(g, "groupKey"));
  return out;
}

// Three groups over two projects (times in seconds after the seed starts):
//   G1  project 1, signature "TypeError:x is undefined": bug g1a (t1, low,
//       web, "Zeta checkout" on /orders/123) and bug g1b (t3, medium,
//       android, "Beta cart" on /cart): one signature on two pages
//   G2  project 1, "TypeError:y failed": bug g2 (t2, critical, ios,
//       "Alpha login"), resolved and reported again at t6: a regression
//   G3  project 2, the signature of G1 (another project: another group):
//       bug g3 (t4, high, web, "Gamma")
// Report counts: G1 2, G2 2, G3 1. Assignees: g1a to `member` (named
// "zoe"), g3 to the admin (named "Adam"); G2 unassigned.
struct Seeded {
  CaptureSetup s;
  std::string project2, key2;
  Member member;
  std::string g1a, g1b, g2, g3;
  std::string G1, G2, G3;  // "<projectId>/<groupKey>"
  std::string key1;        // G1's (and G3's) group key
};

Seeded Seed(TestService& t) {
  Seeded x;
  // NewCaptureSetup with an admin named "Adam".
  x.s.admin = NewOrgWithMember(t, "admin", "free", "Adam");
  x.s.project_id = CreateProjectVia(t, x.s.admin, "Web App");
  x.s.key = CreateKeyVia(t, x.s.admin, x.s.project_id);
  x.project2 = CreateProjectVia(t, x.s.admin, "Second");
  x.key2 = CreateKeyVia(t, x.s.admin, x.project2);
  x.member = AddMemberWithRole(t, x.s.admin.org_id, "member", "active", "zoe");
  auto ingest = [&](const std::string& key, const json::object& body) {
    t.clock().Advance(1000);
    TestResponse r = Ingest(t, key, body);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return Str(r.json, "id");
  };
  x.g1a = ingest(x.s.key,
                 Report("Zeta checkout", "x is undefined",
                        {{"severity", "low"}, {"platform", "web"}, {"sessionId", "s-1"}, {"userId", "u-1"}}));
  x.g2 = ingest(x.s.key, Report("Alpha login", "y failed", {{"severity", "critical"}, {"platform", "ios"}}));
  x.g1b = ingest(x.s.key, Report("Beta cart", "x is undefined",
                                 {{"severity", "medium"},
                                  {"platform", "android"},
                                  {"url", "https://app.example.com/cart"},
                                  {"sessionId", "s-1"},
                                  {"userId", "u-1"}}));
  x.g3 = ingest(x.key2, Report("Gamma", "x is undefined", {{"severity", "high"}, {"platform", "web"}}));
  SetBugStatus(t, x.s.admin.org_id, x.g2, "resolved", x.s.admin.user_id);
  t.clock().Advance(1000);
  const std::string again =
      ingest(x.s.key, Report("Alpha login", "y failed", {{"severity", "critical"}, {"platform", "ios"}}));
  REQUIRE(again == x.g2);
  AssignBug(t, x.s.admin.org_id, x.g1a, x.member.user_id);
  AssignBug(t, x.s.admin.org_id, x.g3, x.s.admin.user_id);
  x.key1 = GroupKeyVia(t, x.s.admin, x.s.project_id, x.g1a);
  REQUIRE(GroupKeyVia(t, x.s.admin, x.project2, x.g3) == x.key1);
  x.G1 = x.s.project_id + "/" + x.key1;
  x.G2 = x.s.project_id + "/" + GroupKeyVia(t, x.s.admin, x.s.project_id, x.g2);
  x.G3 = x.project2 + "/" + x.key1;
  return x;
}

TestResponse Groups(TestService& t, const Member& m, const std::string& query = "") {
  return t.Get("/v1/bugs/groups" + (query.empty() ? "" : "?" + query), m.headers());
}

}  // namespace

TEST_CASE("GET /v1/bugs/groups: a group of one bug counts its distinct sessions, users and platforms") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  std::string id;
  for (const auto& [session, user, platform] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"s-1", "u-1", "web"}, {"s-2", "u-1", "ios"}, {"s-2", "u-2", "web"}, {"s-1", "u-2", "ios"}}) {
    t.clock().Advance(1000);
    TestResponse r =
        Ingest(t, s.key,
               Report("Solo", "z broke", {{"platform", platform}, {"sessionId", session}, {"userId", user}}));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    CHECK((id.empty() || id == Str(r.json, "id")));
    id = Str(r.json, "id");
  }
  TestResponse r = Groups(t, s.admin);
  REQUIRE(r.json.at("groups").as_array().size() == 1);
  const json::value& g = r.json.at("groups").at(0);
  CHECK(g.at("instanceCount") == 1);
  CHECK(g.at("reportCount") == 4);
  CHECK(g.at("sessionCount") == 2);
  CHECK(g.at("userCount") == 2);
  CHECK(Strings(g.at("platforms")) == std::vector<std::string>{"ios", "web"});
}

TEST_CASE("GET /v1/bugs/groups: one signature on several pages is one group, projects split groups") {
  TestService t;
  Seeded x = Seed(t);
  TestResponse r = Groups(t, x.s.admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(Keys(r) == std::vector<std::string>{x.G2, x.G3, x.G1});
  CHECK(r.json.at("total") == 3);
  CHECK(r.json.at("limit") == 50);
  CHECK(r.json.at("offset") == 0);
  CHECK(Str(r.json, "sort") == "last_seen");
  CHECK(Str(r.json, "direction") == "desc");

  const json::value& g1 = r.json.at("groups").at(2);
  CHECK(g1.at("groupKey").as_string().size() == 16);
  CHECK(Str(g1, "projectName") == "Web App");
  // The representative is the most recently seen member.
  CHECK(Str(g1, "sampleBugId") == x.g1b);
  CHECK(Str(g1, "sampleTitle") == "Beta cart");
  CHECK(Str(g1, "signatureCanonical") == "TypeError:x is undefined");
  CHECK(Str(g1, "severity") == "medium");  // the members' maximum
  CHECK(g1.at("instanceCount") == 2);
  CHECK(g1.at("reportCount") == 2);
  CHECK(g1.at("occurrenceCount") == 2);
  CHECK(g1.at("sessionCount") == 1);
  CHECK(g1.at("userCount") == 1);
  CHECK(g1.at("anyRegression") == false);
  std::vector<std::string> members{x.g1a, x.g1b};
  std::sort(members.begin(), members.end());
  CHECK(Strings(g1.at("memberIds")) == members);
  CHECK(Strings(g1.at("platforms")) == std::vector<std::string>{"android", "web"});
  CHECK(Strings(g1.at("assignees")) == std::vector<std::string>{x.member.user_id});
  CHECK(Strings(g1.at("signalClasses")) == std::vector<std::string>{"issue"});
  CHECK(g1.at("groupingV3").is_null());  // the project's shadow grouping is off
  CHECK(g1.at("duplicateCandidateCount") == 0);
  CHECK(g1.at("firstSeen").as_string() < g1.at("lastSeen").as_string());

  const json::value& g2 = r.json.at("groups").at(0);
  CHECK(g2.at("anyRegression") == true);
  CHECK(Str(g2, "severity") == "critical");
  CHECK(g2.at("instanceCount") == 1);
  CHECK(g2.at("reportCount") == 2);
  CHECK(Strings(g2.at("assignees")).empty());

  // G3 has G1's key in another project: another group.
  const json::value& g3 = r.json.at("groups").at(1);
  CHECK(Str(g3, "groupKey") == x.key1);
  CHECK(Str(g3, "projectName") == "Second");
  CHECK(g3.at("instanceCount") == 1);
}

TEST_CASE("GET /v1/bugs/groups: all seven sorts in both directions with the spec's tie-breaks") {
  TestService t;
  Seeded x = Seed(t);
  struct Row {
    const char* query;
    std::vector<std::string> order;
  };
  const std::vector<Row> rows = {
      {"sort=last_seen", {x.G2, x.G3, x.G1}},
      {"sort=last_seen&direction=asc", {x.G1, x.G3, x.G2}},
      {"sort=first_seen", {x.G3, x.G2, x.G1}},
      {"sort=first_seen&direction=asc", {x.G1, x.G2, x.G3}},
      // G1 and G2 tie on two reports: last_seen desc breaks the tie in both directions.
      {"sort=count", {x.G2, x.G1, x.G3}},
      {"sort=count&direction=asc", {x.G3, x.G2, x.G1}},
      {"sort=severity", {x.G2, x.G3, x.G1}},
      {"sort=severity&direction=asc", {x.G1, x.G3, x.G2}},
      // The sample titles: "Alpha login", "Beta cart", "Gamma".
      {"sort=title", {x.G3, x.G1, x.G2}},
      {"sort=title&direction=asc", {x.G2, x.G1, x.G3}},
      // Regressions first, then signal classes; G1 and G3 tie (issues).
      {"sort=signal", {x.G2, x.G3, x.G1}},
      {"sort=signal&direction=asc", {x.G3, x.G1, x.G2}},
      // Case-insensitive display names: "Adam" (G3) < "zoe" (G1); the
      // unassigned G2 last in both directions.
      {"sort=assignee", {x.G1, x.G3, x.G2}},
      {"sort=assignee&direction=asc", {x.G3, x.G1, x.G2}},
      {"sort=assignee&direction=desc", {x.G1, x.G3, x.G2}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.query);
    TestResponse r = Groups(t, x.s.admin, row.query);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(Keys(r) == row.order);
  }
  // A stale assignee counts as none: with `member` gone, G1 sorts as unassigned.
  DropMembershipOnly(t, x.s.admin.org_id, x.member.user_id);
  CHECK(Keys(Groups(t, x.s.admin, "sort=assignee")) == std::vector<std::string>{x.G3, x.G2, x.G1});
}

TEST_CASE("GET /v1/bugs/groups: equal times break on projectId then groupKey ascending") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string p2 = CreateProjectVia(t, s.admin, "Second");
  const std::string k2 = CreateKeyVia(t, s.admin, p2);
  // Four groups reported at one instant: two signatures in each project.
  for (const std::string& key : {s.key, k2}) {
    for (const char* message : {"a failed", "b failed"}) {
      TestResponse r = Ingest(t, key, Report(message, message));
      REQUIRE_MESSAGE(r.status == 201, r.body);
    }
  }
  TestResponse desc = Groups(t, s.admin, "sort=last_seen");
  REQUIRE(desc.status == 200);
  std::vector<std::string> sorted = Keys(desc);
  std::sort(sorted.begin(), sorted.end());
  CHECK(Keys(desc) == sorted);
  for (const char* q : {"sort=last_seen&direction=asc", "sort=first_seen", "sort=first_seen&direction=asc"}) {
    CAPTURE(q);
    CHECK(Keys(Groups(t, s.admin, q)) == sorted);
  }
  // The other sorts break on last_seen desc, then projectId, groupKey.
  CHECK(Keys(Groups(t, s.admin, "sort=count")) == sorted);
  CHECK(Keys(Groups(t, s.admin, "sort=severity&direction=asc")) == sorted);
}

TEST_CASE("GET /v1/bugs/groups: a filter selects groups, aggregates cover every member, paging") {
  TestService t;
  Seeded x = Seed(t);
  // Only g1b is on android, yet the whole of G1 is counted.
  TestResponse r = Groups(t, x.s.admin, "platform=android");
  REQUIRE(r.status == 200);
  CHECK(Keys(r) == std::vector<std::string>{x.G1});
  CHECK(r.json.at("total") == 1);
  CHECK(r.json.at("groups").at(0).at("instanceCount") == 2);
  CHECK(Strings(r.json.at("groups").at(0).at("platforms")) == std::vector<std::string>{"android", "web"});

  CHECK(Keys(Groups(t, x.s.admin, "projectId=" + x.project2)) == std::vector<std::string>{x.G3});
  CHECK(Keys(Groups(t, x.s.admin, "search=ALPHA")) == std::vector<std::string>{x.G2});
  CHECK(Keys(Groups(t, x.s.admin, "assignee=me")) == std::vector<std::string>{x.G3});
  CHECK(Keys(Groups(t, x.s.admin, "assignee=unassigned")) == std::vector<std::string>{x.G2, x.G1});
  CHECK(Keys(Groups(t, x.s.admin, "severity=low")) == std::vector<std::string>{x.G1});
  CHECK(Keys(Groups(t, x.s.admin, "status=resolved")).empty());  // G2 came back as new
  SetBugStatus(t, x.s.admin.org_id, x.g3, "silenced", x.s.admin.user_id);
  CHECK(Keys(Groups(t, x.s.admin, "unresolved=true")) == std::vector<std::string>{x.G2, x.G1});
  CHECK(Keys(Groups(t, x.s.admin, "unresolved=false")).size() == 3);

  TestResponse page = Groups(t, x.s.admin, "limit=1&offset=1");
  CHECK(Keys(page) == std::vector<std::string>{x.G3});
  CHECK(page.json.at("total") == 3);
  CHECK(Keys(Groups(t, x.s.admin, "offset=3")).empty());
}

TEST_CASE("GET /v1/bugs/groups: unknown sort or direction and repeated parameters are 400") {
  TestService t;
  Seeded x = Seed(t);
  struct Row {
    const char* query;
    const char* error;
  };
  const Row rows[] = {
      {"sort=newest", "Invalid sort"},
      {"direction=up", "Invalid direction"},
      {"sort=title&sort=count", "sort must be provided at most once"},
      {"direction[]=asc", "direction must be provided at most once"},
      {"unresolved=true&unresolved=false", "unresolved must be provided at most once"},
      {"platform=amiga", "Invalid platform"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.query);
    TestResponse r = Groups(t, x.s.admin, row.query);
    CHECK(r.status == 400);
    CHECK(r.json.at("error").as_string() == row.error);
  }
}

TEST_CASE("GET /v1/bugs/groups/:groupKey/instances: order, 409 across projects, 404 elsewhere") {
  TestService t;
  Seeded x = Seed(t);
  const std::string base = "/v1/bugs/groups/" + x.key1 + "/instances";
  TestResponse ambiguous = t.Get(base, x.s.admin.headers());
  CHECK(ambiguous.status == 409);
  CHECK(ambiguous.json.at("code") == "GROUP_KEY_AMBIGUOUS");

  TestResponse p1 = t.Get(base + "?projectId=" + x.s.project_id, x.s.admin.headers());
  REQUIRE_MESSAGE(p1.status == 200, p1.body);
  std::vector<std::string> ids;
  for (const auto& b : p1.json.at("bugs").as_array()) ids.push_back(Str(b, "id"));
  CHECK(ids == std::vector<std::string>{x.g1b, x.g1a});  // last_seen desc
  CHECK(p1.json.at("total") == 2);
  CHECK(Str(p1.json, "projectId") == x.s.project_id);

  // A key in one project needs no projectId.
  const std::string key2 = x.G2.substr(x.G2.find('/') + 1);
  TestResponse one = t.Get("/v1/bugs/groups/" + key2 + "/instances", x.s.admin.headers());
  REQUIRE(one.status == 200);
  CHECK(Str(one.json.at("bugs").at(0), "id") == x.g2);

  CHECK(t.Get("/v1/bugs/groups/0123456789abcdef/instances", x.s.admin.headers()).status == 404);
  CHECK(t.Get("/v1/bugs/groups/" + key2 + "/instances?projectId=" + x.project2, x.s.admin.headers()).status ==
        404);
  // Another organization sees no group at all.
  Member stranger = NewOrgWithMember(t);
  TestResponse foreign = t.Get(base + "?projectId=" + x.s.project_id, stranger.headers());
  CHECK(foreign.status == 404);
  CHECK(t.Get(base, stranger.headers()).status == 404);
  CHECK(Groups(t, stranger).json.at("total") == 0);
}

}  // namespace service::testing
