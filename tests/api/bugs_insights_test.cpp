// Triage reads beyond the lists (Spec 1 "Bugs: read"): stats, recommended,
// live, presence, export, similar, a bug's users, a reporter's bugs,
// end-user search and timelines; each scoped to the caller's organization.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <string>
#include <vector>

#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

constexpr int64_t kDay = 86'400'000;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::vector<std::string> Ids(const json::value& list) {
  std::vector<std::string> out;
  for (const auto& b : list.as_array()) out.push_back(Str(b, "id"));
  return out;
}

std::string IngestId(TestService& t, const std::string& key, const json::object& body) {
  TestResponse r = Ingest(t, key, body);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return Str(r.json, "id");
}

}  // namespace

TEST_CASE("GET /v1/bugs/stats: aggregates, timeline, top bugs, mttr, health score and the previous period") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  // The previous period: one low bug 40 days ago.
  IngestId(t, s.key, Report("Old glitch", "old", {{"severity", "low"}}));
  t.clock().Advance(40 * kDay);
  const std::string crit = IngestId(t, s.key, Report("Checkout down", "c", {{"severity", "critical"}}));
  t.clock().Advance(1000);
  IngestId(t, s.key, Report("Checkout down", "c", {{"severity", "critical"}}));
  t.clock().Advance(kDay);
  const std::string high = IngestId(t, s.key, Report("Slow cart", "h", {{"severity", "high"}}));
  const std::string med = IngestId(t, s.key, Report("Typo", "m", {{"severity", "medium"}}));
  t.clock().Advance(2 * 3'600'000);
  SetBugStatus(t, s.admin.org_id, med, "resolved", s.admin.user_id);
  RenewToken(t, s.admin);

  TestResponse r = t.Get("/v1/bugs/stats", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  const json::value& a = r.json.at("aggregates");
  CHECK(a.at("total") == 3);
  CHECK(a.at("open") == 2);
  CHECK(a.at("status_new") == 2);
  CHECK(a.at("status_resolved") == 1);
  CHECK(a.at("sev_critical") == 1);
  CHECK(a.at("sev_high") == 1);
  CHECK(a.at("sev_medium") == 1);
  CHECK(a.at("sev_low") == 0);
  CHECK(a.at("total_reports") == 4);
  CHECK(a.at("avg_resolution_hours").to_number<double>() == doctest::Approx(2.0));
  CHECK(r.json.at("mttr_hours").to_number<double>() == doctest::Approx(2.0));
  // Open: critical x10 + high x5.
  CHECK(r.json.at("health_score") == 15);
  CHECK(Str(r.json, "deliveryFeed") == "all");
  CHECK(Ids(r.json.at("topBugs")) == std::vector<std::string>{crit, high});
  const json::array& timeline = r.json.at("timeline").as_array();
  CHECK(timeline.size() == 30);  // the last 30 UTC days, today included
  int64_t bugs = 0, reports = 0;
  for (const auto& d : timeline) {
    bugs += d.at("bug_count").as_int64();
    reports += d.at("report_count").as_int64();
  }
  CHECK(bugs == 3);
  CHECK(reports == 4);
  CHECK(Str(timeline.back(), "date") == "2026-02-25");
  const json::value& p = r.json.at("previous");
  CHECK(p.at("total") == 1);
  CHECK(p.at("sev_critical") == 0);
  CHECK(p.at("total_reports") == 1);
  CHECK(p.at("avg_resolution_hours").is_null());

  // The urgent_critical feed keeps the critical issue and the high
  // uncaught error, not the medium one.
  TestResponse urgent = t.Get("/v1/bugs/stats?deliveryFeed=urgent_critical&days=7", s.admin.headers());
  REQUIRE(urgent.status == 200);
  CHECK(urgent.json.at("aggregates").at("total") == 2);
  CHECK(urgent.json.at("aggregates").at("sev_medium") == 0);
  CHECK(urgent.json.at("timeline").as_array().size() == 7);
  for (const char* bad :
       {"days=0", "days=366", "days=x", "deliveryFeed=urgent", "projectId=nope", "days=1&days=2"}) {
    CAPTURE(bad);
    CHECK(t.Get(std::string("/v1/bugs/stats?") + bad, s.admin.headers()).status == 400);
  }
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/bugs/stats", stranger.headers()).json.at("aggregates").at("total") == 0);
}

TEST_CASE("GET /v1/bugs/recommended: scored groups, group-level filters, aggregates, 400s") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  // A group of two pages (one signature) and two single bugs.
  const std::string low = IngestId(t, s.key, Report("Tooltip clipped", "low one", {{"severity", "low"}}));
  const std::string g1 =
      IngestId(t, s.key,
               Report("Cart crash", "x is undefined",
                      {{"severity", "high"}, {"platform", "web"}, {"userId", "u-1"}, {"sessionId", "s-1"}}));
  t.clock().Advance(500);
  const std::string g2 = IngestId(t, s.key,
                                  Report("Cart crash", "x is undefined",
                                         {{"severity", "medium"},
                                          {"platform", "ios"},
                                          {"url", "https://app.example.com/cart"},
                                          {"userId", "u-2"}}));
  t.clock().Advance(1000);
  const std::string crit = IngestId(t, s.key, Report("Payments down", "pay", {{"severity", "critical"}}));
  AssignBug(t, s.admin.org_id, g2, member.user_id);

  TestResponse r = t.Get("/v1/bugs/recommended", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("total") == 3);
  const json::array& rows = r.json.at("bugs").as_array();
  REQUIRE(rows.size() == 3);
  CHECK(Str(rows[0], "id") == crit);
  CHECK(Str(rows[1], "id") == g2);  // the group's most recently seen member
  CHECK(Str(rows[2], "id") == low);
  CHECK(rows[0].at("recommended_score").to_number<double>() >
        rows[1].at("recommended_score").to_number<double>());
  const json::value& g = rows[1];
  CHECK(g.at("instance_count") == 2);
  CHECK(g.at("report_total") == 2);
  CHECK(Str(g, "group_severity") == "high");
  CHECK(Str(g, "recommended_severity") == "high");
  std::vector<std::string> members{g1, g2};
  std::sort(members.begin(), members.end());
  std::vector<std::string> got;
  for (const auto& m : g.at("member_ids").as_array()) got.emplace_back(m.as_string());
  CHECK(got == members);
  CHECK(g.at("platforms") == json::array{"ios", "web"});
  CHECK(g.at("assignees") == json::array{json::string(member.user_id)});
  CHECK(g.at("user_count") == 2);
  CHECK(g.at("session_count") == 1);
  CHECK(g.at("any_regression") == false);

  auto ids = [&](const std::string& q) {
    TestResponse res = t.Get("/v1/bugs/recommended?" + q, s.admin.headers());
    REQUIRE_MESSAGE(res.status == 200, res.body);
    return Ids(res.json.at("bugs"));
  };
  // Filters match at group level and never shrink the aggregates.
  CHECK(ids("platform=ios") == std::vector<std::string>{g2});
  CHECK(ids("platform=web") == std::vector<std::string>{g2});
  CHECK(ids("q=CART") == std::vector<std::string>{g2});
  CHECK(ids("search=tooltip") == std::vector<std::string>{low});
  CHECK(ids("severity=high") == std::vector<std::string>{g2});  // the group's maximum
  CHECK(ids("severity=medium").empty());
  CHECK(ids("assignee=" + member.user_id) == std::vector<std::string>{g2});
  CHECK(ids("assignee=unassigned") == std::vector<std::string>{crit, low});
  CHECK(ids("assignee=01890000-0000-7000-8000-000000000000").empty());
  CHECK(ids("limit=1") == std::vector<std::string>{crit});
  CHECK(ids("since=2026-01-15T10:00:01.000Z") == std::vector<std::string>{crit});
  for (const char* bad :
       {"assignee=someone", "severity=urgent", "signalClass=noise", "platform=amiga", "q=a&q=b",
        "search=a&q=b", "projectId=1&projectId=2", "since=yesterday", "limit=0"}) {
    CAPTURE(bad);
    CHECK(t.Get(std::string("/v1/bugs/recommended?") + bad, s.admin.headers()).status == 400);
  }
}

TEST_CASE("GET /v1/bugs/live: newest occurrences with their bug's fields, diagnostics on request") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string a = IngestId(t, s.key, Report("First", "a"));
  t.clock().Advance(1000);
  const std::string b = IngestId(t, s.key, Report("Second", "b", {{"severity", "critical"}}));
  t.clock().Advance(1000);
  json::object diag{
      {"title", "Debug trace"},
      {"events", json::array{json::object{{"type", "console"},
                                          {"data", json::object{{"level", "info"}, {"message", "hi"}}}}}},
      {"metadata", json::object{{"autoReport", "console"}}}};
  IngestId(t, s.key, diag);
  TestResponse r = t.Get("/v1/bugs/live", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  const json::array& occ = r.json.at("occurrences").as_array();
  REQUIRE(occ.size() == 2);
  CHECK(Str(occ[0], "bug_id") == b);
  CHECK(Str(occ[0], "title") == "Second");
  CHECK(Str(occ[0], "severity") == "critical");
  CHECK(Str(occ[0], "project_name") == "Web App");
  CHECK(occ[0].at("report_count") == 1);
  CHECK(Str(occ[1], "bug_id") == a);
  CHECK(r.json.at("limit") == 50);
  CHECK(Str(r.json, "deliveryFeed") == "all");
  CHECK(t.Get("/v1/bugs/live?includeDiagnostics=true", s.admin.headers())
            .json.at("occurrences")
            .as_array()
            .size() == 3);
  CHECK(t.Get("/v1/bugs/live?limit=1", s.admin.headers()).json.at("occurrences").as_array().size() == 1);
  CHECK(t.Get("/v1/bugs/live?deliveryFeed=urgent_critical", s.admin.headers())
            .json.at("occurrences")
            .as_array()
            .size() == 1);
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/bugs/live", stranger.headers()).json.at("occurrences").as_array().empty());
}

TEST_CASE("GET /v1/bugs/presence: sessions active in the last 75 seconds, 400 without the organization") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  for (const char* session : {"s-1", "s-2"}) {
    TestResponse r =
        t.Request("POST", "/v1/ingest/presence",
                  json::serialize(json::object{{"sessionId", session}, {"path", "/cart"}}), KeyHeader(s.key));
    REQUIRE(r.status == 202);
  }
  TestResponse r = t.Get("/v1/bugs/presence", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("active_sessions") == 2);
  CHECK(r.json.at("active_users") == 2);
  CHECK(r.json.at("pages") == json::array{json::object{{"path", "/cart"}, {"active_sessions", 2}}});
  t.clock().Advance(76'000);
  CHECK(t.Get("/v1/bugs/presence", s.admin.headers()).json.at("active_sessions") == 0);
  TestResponse no_org = t.Get("/v1/bugs/presence", {{"Authorization", "Bearer " + s.admin.token}});
  CHECK(no_org.status == 400);
  CHECK(no_org.json.at("error") == "Organization ID required");
}

TEST_CASE("GET /v1/bugs/export: JSON and CSV, quoting, formula cells, headers, cursor and limit") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string a = IngestId(t, s.key, Report("=HYPERLINK(\"x\")", "a", {{"severity", "low"}}));
  t.clock().Advance(1000);
  const std::string b = IngestId(t, s.key, Report("Comma, \"quoted\"", "b", {{"severity", "high"}}));
  t.clock().Advance(1000);
  const std::string c = IngestId(t, s.key, Report("Plain", "c", {{"severity", "high"}}));
  SetBugStatus(t, s.admin.org_id, c, "resolved", s.admin.user_id);

  TestResponse j = t.Get("/v1/bugs/export", s.admin.headers());
  REQUIRE_MESSAGE(j.status == 200, j.body);
  REQUIRE(j.json.is_object());
  CHECK(Ids(j.json.at("bugs")) == std::vector<std::string>{a, b, c});  // last_seen ascending
  CHECK(j.json.at("count") == 3);
  CHECK(j.json.at("truncated") == false);
  CHECK(Str(j.json, "deliveryFeed") == "all");
  CHECK(j.Header("X-Row-Count") == "3");
  CHECK_FALSE(j.Header("X-Query-Ms").empty());
  CHECK(j.Header("X-Next-After").empty());
  const json::value& first = j.json.at("bugs").at(0);
  for (const char* field : {"id", "title", "severity", "status", "report_count", "url", "first_seen",
                            "last_seen", "created_at"}) {
    CAPTURE(field);
    CHECK(first.as_object().contains(field));
  }

  TestResponse csv = t.Get("/v1/bugs/export?format=csv", s.admin.headers());
  REQUIRE(csv.status == 200);
  CHECK(csv.Header("Content-Type").rfind("text/csv", 0) == 0);
  std::vector<std::string> lines;
  for (size_t at = 0; at < csv.body.size();) {
    const size_t end = csv.body.find("\r\n", at);
    REQUIRE(end != std::string::npos);
    lines.push_back(csv.body.substr(at, end - at));
    at = end + 2;
  }
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "id,title,severity,status,report_count,url,first_seen,last_seen,created_at");
  CHECK(lines[1].rfind(a + ",\"'=HYPERLINK(\"\"x\"\")\",low,new,1,", 0) == 0);
  CHECK(lines[2].rfind(b + ",\"Comma, \"\"quoted\"\"\",high,new,1,", 0) == 0);
  CHECK(lines[3].rfind(c + ",Plain,high,resolved,1,", 0) == 0);

  // Lists of statuses and severities; the cursor; the limit.
  CHECK(Ids(t.Get("/v1/bugs/export?status=new&severity=high,low", s.admin.headers()).json.at("bugs")) ==
        std::vector<std::string>{a, b});
  TestResponse limited = t.Get("/v1/bugs/export?limit=2", s.admin.headers());
  CHECK(Ids(limited.json.at("bugs")) == std::vector<std::string>{a, b});
  CHECK(limited.json.at("truncated") == true);
  CHECK(limited.Header("X-Row-Count") == "2");
  const std::string next = limited.Header("X-Next-After");
  REQUIRE_FALSE(next.empty());
  CHECK(Ids(t.Get("/v1/bugs/export?after=" + next, s.admin.headers()).json.at("bugs")) ==
        std::vector<std::string>{c});
  for (const char* bad : {"format=xml", "status=open", "severity=high,urgent", "after=soon", "limit=0"}) {
    CAPTURE(bad);
    CHECK(t.Get(std::string("/v1/bugs/export?") + bad, s.admin.headers()).status == 400);
  }
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/bugs/export", stranger.headers()).json.at("count") == 0);
}

TEST_CASE("GET /v1/bugs/:id/similar and /users, 404 for another organization's bug") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string a = IngestId(
      t, s.key, Report("Checkout payment fails", "a", {{"userId", "u-1"}, {"reporterEmail", "a@x.io"}}));
  const std::string b = IngestId(t, s.key, Report("Checkout payment slow", "b", {{"userId", "u-2"}}));
  IngestId(t, s.key, Report("Login broken", "c"));
  t.clock().Advance(1000);
  IngestId(t, s.key, Report("Checkout payment fails", "a", {{"userId", "u-2"}}));

  TestResponse sim = t.Get("/v1/bugs/" + a + "/similar", s.admin.headers());
  REQUIRE_MESSAGE(sim.status == 200, sim.body);
  const json::array& list = sim.json.at("similar").as_array();
  REQUIRE_FALSE(list.empty());
  CHECK(Str(list[0], "id") == b);
  CHECK(list[0].at("similarity_score").as_int64() > 0);
  CHECK(list[0].at("similarity_score").as_int64() <= 100);
  CHECK(list.size() <= 5);
  for (const auto& x : list) CHECK(Str(x, "id") != a);

  TestResponse users = t.Get("/v1/bugs/" + a + "/users", s.admin.headers());
  REQUIRE_MESSAGE(users.status == 200, users.body);
  CHECK(users.json.at("total") == 2);
  const json::array& u = users.json.at("users").as_array();
  REQUIRE(u.size() == 2);
  CHECK(Str(u[0], "endUserId") == "u-2");  // latest seen first
  CHECK(Str(u[1], "endUserId") == "u-1");
  CHECK(Str(u[1], "kind") == "user");
  CHECK(t.Get("/v1/bugs/" + a + "/users?limit=1&offset=1", s.admin.headers())
            .json.at("users")
            .as_array()
            .size() == 1);

  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/bugs/" + a + "/similar", stranger.headers()).status == 404);
  CHECK(t.Get("/v1/bugs/" + a + "/users", stranger.headers()).status == 404);
}

TEST_CASE("GET /v1/bugs/reporters/:email/bugs: the reporter's bugs and stats, /v1/reporters stays 404") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string a = IngestId(t, s.key, Report("One", "a", {{"reporterEmail", "Ann@Example.com"}}));
  t.clock().Advance(1000);
  const std::string b = IngestId(
      t, s.key, Report("Two", "b", {{"reporterEmail", "ann@example.com"}, {"severity", "critical"}}));
  IngestId(t, s.key, Report("Three", "c", {{"reporterEmail", "bob@example.com"}}));
  TestResponse r = t.Get("/v1/bugs/reporters/ANN%40example.com/bugs", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(Str(r.json, "email") == "ann@example.com");
  CHECK(Ids(r.json.at("bugs")) == std::vector<std::string>{b, a});
  CHECK(r.json.at("stats").at("total_bugs") == 2);
  CHECK(r.json.at("stats").at("severities") == json::object{{"critical", 1}, {"medium", 1}});
  CHECK(Str(r.json.at("stats"), "first_report") == "2026-01-15T10:00:00.000Z");
  CHECK(Str(r.json.at("stats"), "last_report") == "2026-01-15T10:00:01.000Z");
  CHECK(t.Get("/v1/reporters/ann%40example.com/bugs", s.admin.headers()).status == 404);
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/bugs/reporters/ann%40example.com/bugs", stranger.headers())
            .json.at("bugs")
            .as_array()
            .empty());
}

TEST_CASE("GET /v1/end-users and /v1/end-users/:userKey/timeline") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string p2 = CreateProjectVia(t, s.admin, "Second");
  const std::string k2 = CreateKeyVia(t, s.admin, p2);
  const std::string a = IngestId(t, s.key, Report("One", "a", {{"userId", "alice-1"}, {"sessionId", "s1"}}));
  t.clock().Advance(1000);
  const std::string b = IngestId(
      t, k2, Report("Two", "b", {{"userId", "alice-1"}, {"sessionId", "s2"}, {"reporterEmail", "al@x.io"}}));
  IngestId(t, s.key, Report("Three", "c", {{"userId", "bob-7"}}));

  TestResponse search = t.Get("/v1/end-users?q=ali", s.admin.headers());
  REQUIRE_MESSAGE(search.status == 200, search.body);
  CHECK(Str(search.json, "query") == "ali");
  const json::array& users = search.json.at("users").as_array();
  REQUIRE(users.size() == 1);
  const std::string key = Str(users[0], "userKey");
  CHECK(Str(users[0], "endUserId") == "alice-1");
  CHECK(users[0].at("occurrenceCount") == 2);
  CHECK(users[0].at("bugCount") == 2);
  CHECK(t.Get("/v1/end-users?q=a", s.admin.headers()).status == 400);
  CHECK(t.Get("/v1/end-users", s.admin.headers()).status == 400);
  CHECK(t.Get("/v1/end-users?q=zz", s.admin.headers()).json.at("users").as_array().empty());

  TestResponse tl = t.Get("/v1/end-users/" + key + "/timeline", s.admin.headers());
  REQUIRE_MESSAGE(tl.status == 200, tl.body);
  const json::value& id = tl.json.at("identity");
  CHECK(Str(id, "userKey") == key);
  CHECK(id.at("bugCount") == 2);
  CHECK(id.at("sessionCount") == 2);
  CHECK(id.at("emails") == json::array{"al@x.io"});
  CHECK(tl.json.at("total") == 2);
  CHECK(tl.json.at("limit") == 100);
  const json::array& occ = tl.json.at("occurrences").as_array();
  REQUIRE(occ.size() == 2);
  CHECK(Str(occ[0], "bug_id") == b);  // newest first, across projects
  CHECK(Str(occ[0], "project_name") == "Second");
  CHECK(Str(occ[1], "bug_id") == a);
  CHECK(t.Get("/v1/end-users/" + key + "/timeline?projectId=" + p2, s.admin.headers()).json.at("total") == 1);
  CHECK(t.Get("/v1/end-users/nobody/timeline", s.admin.headers()).status == 404);
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/end-users/" + key + "/timeline", stranger.headers()).status == 404);
  CHECK(t.Get("/v1/end-users?q=ali", stranger.headers()).json.at("users").as_array().empty());
}

TEST_CASE("an end user is found by the id the application sent, else by the email: every read") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string a = IngestId(t, s.key, Report("Cart empties", "a", {{"userId", "cust-42"}}));
  t.clock().Advance(1000);
  IngestId(t, s.key, Report("Cart empties", "a", {{"reporterEmail", "Ann@Example.com"}}));
  IngestId(t, s.key, Report("Cart empties", "a"));

  // The bug's users: the keys are the id and the email themselves; the
  // anonymous one is derived ("anon:" and 16 hex digits).
  TestResponse users = t.Get("/v1/bugs/" + a + "/users", s.admin.headers());
  REQUIRE_MESSAGE(users.status == 200, users.body);
  std::vector<std::string> keys;
  for (const auto& u : users.json.at("users").as_array())
    keys.push_back(Str(u, "userKey") + "/" + Str(u, "kind"));
  REQUIRE(keys.size() == 3);
  CHECK(keys[2] == "cust-42/user");
  CHECK(std::find(keys.begin(), keys.end(), "ann@example.com/email") != keys.end());
  const auto anon =
      std::find_if(keys.begin(), keys.end(), [](const std::string& k) { return k.rfind("anon:", 0) == 0; });
  REQUIRE(anon != keys.end());
  CHECK(anon->size() == std::string("anon:0123456789abcdef/anonymous").size());

  TestResponse occ = t.Get("/v1/bugs/" + a + "/occurrences?userKey=cust-42", s.admin.headers());
  REQUIRE_MESSAGE(occ.status == 200, occ.body);
  CHECK(occ.json.at("total") == 1);
  CHECK(
      t.Get("/v1/bugs/" + a + "/occurrences?userKey=ann%40example.com", s.admin.headers()).json.at("total") ==
      1);
  CHECK(t.Get("/v1/bugs/" + a + "/occurrences?userKey=user%3Acust-42", s.admin.headers()).json.at("total") ==
        0);

  TestResponse tl = t.Get("/v1/end-users/cust-42/timeline", s.admin.headers());
  REQUIRE_MESSAGE(tl.status == 200, tl.body);
  CHECK(Str(tl.json.at("identity"), "userKey") == "cust-42");
  CHECK(Str(tl.json.at("identity"), "kind") == "user");
  CHECK(Str(tl.json.at("identity"), "endUserId") == "cust-42");
  CHECK(tl.json.at("total") == 1);
  TestResponse by_email = t.Get("/v1/end-users/ann%40example.com/timeline", s.admin.headers());
  REQUIRE_MESSAGE(by_email.status == 200, by_email.body);
  CHECK(Str(by_email.json.at("identity"), "kind") == "email");

  TestResponse search = t.Get("/v1/end-users?q=cust", s.admin.headers());
  REQUIRE_MESSAGE(search.status == 200, search.body);
  REQUIRE(search.json.at("users").as_array().size() == 1);
  CHECK(Str(search.json.at("users").as_array()[0], "userKey") == "cust-42");
  CHECK(Str(t.Get("/v1/end-users?q=ann", s.admin.headers()).json.at("users").as_array()[0], "userKey") ==
        "ann@example.com");

  // An email that a later report sends as the application's id: one end user,
  // now known by the id.
  IngestId(t, s.key, Report("Cart empties", "a", {{"userId", "ann@example.com"}}));
  TestResponse ann = t.Get("/v1/end-users/ann%40example.com/timeline", s.admin.headers());
  CHECK(Str(ann.json.at("identity"), "kind") == "user");
  CHECK(ann.json.at("total") == 2);
}

TEST_CASE("GET /v1/bugs/:id/anomalies: heuristics over the bug's occurrences, 404 elsewhere") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  json::array events;
  for (int i = 0; i < 4; ++i) {
    events.push_back(json::object{{"type", "click"},
                                  {"timestamp", 1768471100000 + 150 * i},
                                  {"data", json::object{{"selector", "#pay"}}}});
  }
  events.push_back(json::object{
      {"type", "error"}, {"timestamp", 1768471101000}, {"data", json::object{{"message", "x"}}}});
  const std::string bug = IngestId(t, s.key, Report("Pay button dead", "x", {{"events", events}}));
  TestResponse r = t.Get("/v1/bugs/" + bug + "/anomalies", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("eventCount") == 5);
  const json::array& list = r.json.at("anomalies").as_array();
  REQUIRE(list.size() == 1);
  CHECK(Str(list[0], "type") == "rage_click");
  CHECK(Str(list[0], "severity") == "medium");
  CHECK(Str(list[0], "description") == "4 rapid clicks on #pay");
  CHECK(list[0].at("evidence").as_array().size() == 4);
  CHECK(Str(list[0].at("timeRange"), "start") == "2026-01-15T09:58:20.000Z");
  CHECK(Str(list[0].at("timeRange"), "end") == "2026-01-15T09:58:20.450Z");
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/bugs/" + bug + "/anomalies", stranger.headers()).status == 404);
}

}  // namespace service::testing
