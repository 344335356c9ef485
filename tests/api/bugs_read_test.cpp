// Triage reads (Spec 1 "Bugs: read"; issue 10): the bug list with every
// filter, paging and order, the one-value rule, one bug and its parts, and
// the organization scope (another organization's bug reads as 404).
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// Ids of the bugs of a list response, in order.
std::vector<std::string> Ids(const TestResponse& r) {
  std::vector<std::string> out;
  for (const auto& b : r.json.at("bugs").as_array()) out.push_back(Str(b, "id"));
  return out;
}

// A console-only report: classified as a diagnostic.
json::object DiagnosticReport(const std::string& title) {
  return json::object{
      {"title", title},
      {"url", "https://app.example.com/debug"},
      {"events", json::array{json::object{{"type", "console"},
                                          {"timestamp", 1768471100000},
                                          {"data", json::object{{"level", "info"}, {"message", "hello"}}}}}},
      {"metadata", json::object{{"autoReport", "console"}}}};
}

struct Seeded {
  CaptureSetup s;
  std::string project2;
  std::string key2;
  Member member;  // a second member of the organization
  std::string a, b, c, d;
};

// Four bugs seen in the order a, b, c, d (1 s apart):
//   a  project 1, web, "Checkout button broken", assigned to the admin
//   b  project 1, ios, critical, description "The CARD form rejects input", resolved
//   c  project 2, web, "Login crash", assigned to `member`
//   d  project 1, a diagnostic (console output only)
Seeded Seed(TestService& t) {
  Seeded x;
  x.s = NewCaptureSetup(t);
  x.project2 = CreateProjectVia(t, x.s.admin, "Second");
  x.key2 = CreateKeyVia(t, x.s.admin, x.project2);
  x.member = AddMemberWithRole(t, x.s.admin.org_id, "member");
  auto ingest = [&](const std::string& key, const json::object& body) {
    t.clock().Advance(1000);
    TestResponse r = Ingest(t, key, body);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return Str(r.json, "id");
  };
  x.a = ingest(x.s.key, Report("Checkout button broken", "a is undefined",
                               {{"platform", "web"},
                                {"reporterEmail", "Ann@Example.com"},
                                {"sessionId", "s-1"},
                                {"userId", "u-1"}}));
  x.b = ingest(x.s.key, Report("Payment failed", "b failed",
                               {{"platform", "ios"},
                                {"severity", "critical"},
                                {"description", "The CARD form rejects input"}}));
  x.c = ingest(x.key2, Report("Login crash", "c crashed", {{"platform", "web"}}));
  x.d = ingest(x.s.key, DiagnosticReport("Debug trace"));
  AssignBug(t, x.s.admin.org_id, x.a, x.s.admin.user_id);
  AssignBug(t, x.s.admin.org_id, x.c, x.member.user_id);
  SetBugStatus(t, x.s.admin.org_id, x.b, "resolved", x.s.admin.user_id);
  return x;
}

TestResponse List(TestService& t, const Member& m, const std::string& query = "") {
  return t.Get("/v1/bugs" + (query.empty() ? "" : "?" + query), m.headers());
}

}  // namespace

TEST_CASE("GET /v1/bugs: default list, order last_seen desc, diagnostics hidden, envelope") {
  TestService t;
  Seeded x = Seed(t);
  TestResponse r = List(t, x.s.admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(Ids(r) == std::vector<std::string>{x.c, x.b, x.a});
  CHECK(r.json.at("total") == 3);
  CHECK(r.json.at("limit") == 50);
  CHECK(r.json.at("offset") == 0);
  const json::value& c = r.json.at("bugs").at(0);
  CHECK(Str(c, "project_id") == x.project2);
  CHECK(Str(c, "project_name") == "Second");
  CHECK(Str(c, "title") == "Login crash");
  CHECK(Str(c, "status") == "new");
  CHECK(c.at("fingerprint").as_string().size() == 16);
  CHECK(c.at("report_count") == 1);
  CHECK(c.at("is_regression") == false);
  CHECK(Str(c, "signal_class") == "issue");
  CHECK(c.at("resolved_at").is_null());
  for (const char* field : {"description",
                            "url",
                            "severity",
                            "occurrence_count",
                            "reporter_count",
                            "affected_user_count",
                            "affected_session_count",
                            "latest_release",
                            "latest_environment",
                            "signal_family",
                            "signal_reason",
                            "classifier_confidence",
                            "ai_summary",
                            "assigned_to",
                            "first_seen",
                            "last_seen",
                            "created_at",
                            "updated_at",
                            "agent_ack",
                            "agent_ack_by",
                            "agent_pr_url"}) {
    CAPTURE(field);
    CHECK(c.as_object().contains(field));
  }
  CHECK(r.json.at("bugs").at(1).at("resolved_at").is_string());
}

TEST_CASE("GET /v1/bugs: each filter selects what it names") {
  TestService t;
  Seeded x = Seed(t);
  const Member& m = x.s.admin;
  struct Row {
    std::string query;
    std::vector<std::string> ids;
  };
  const std::vector<Row> rows = {
      {"signalClass=all", {x.d, x.c, x.b, x.a}},
      {"signalClass=diagnostic", {x.d}},
      {"signalClass=issue", {x.c, x.b, x.a}},
      {"includeDiagnostics=true", {x.d, x.c, x.b, x.a}},
      {"includeDiagnostics=false", {x.c, x.b, x.a}},
      {"projectId=" + x.project2, {x.c}},
      {"projectId=" + x.s.project_id, {x.b, x.a}},
      {"status=resolved", {x.b}},
      {"status=new", {x.c, x.a}},
      {"severity=critical", {x.b}},
      {"search=checkout", {x.a}},
      {"search=CHECKOUT%20BUTTON", {x.a}},
      {"search=card%20form", {x.b}},  // description, case-insensitive
      {"search=%25", {}},             // a literal percent sign, not a wildcard
      {"search=_", {}},
      {"platform=ios", {x.b}},
      {"platform=web", {x.c, x.a}},
      {"platform=android", {}},
      {"assignee=me", {x.a}},
      {"assignee=" + x.member.user_id, {x.c}},
      {"assignee=unassigned", {x.b}},
      {"assignee=01890000-0000-7000-8000-00000000beef", {}},
      {"status=new&projectId=" + x.s.project_id + "&assignee=me", {x.a}},
      {"deliveryFeed=all", {x.c, x.b, x.a}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.query);
    TestResponse r = List(t, m, row.query);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(Ids(r) == row.ids);
    CHECK(r.json.at("total") == row.ids.size());
  }
}

TEST_CASE("GET /v1/bugs: malformed and repeated parameters are 400 naming the parameter") {
  TestService t;
  Seeded x = Seed(t);
  struct Row {
    std::string query;
    std::string error;
  };
  const std::vector<Row> rows = {
      {"status=open", "Invalid status"},
      {"severity=urgent", "Invalid severity"},
      {"signalClass=noise", "Invalid signalClass"},
      {"platform=windows", "Invalid platform"},
      {"projectId=not-a-uuid", "Invalid projectId"},
      {"assignee=somebody", "Invalid assignee"},
      {"includeDiagnostics=maybe", "includeDiagnostics must be true or false"},
      {"deliveryFeed=everything", "Invalid deliveryFeed"},
      {"limit=0", "limit must be an integer of at least 1"},
      {"limit=ten", "limit must be an integer of at least 1"},
      {"offset=-1", "offset must be an integer of at least 0"},
      {"status=new&status=known", "status must be provided at most once"},
      {"status[]=new", "status must be provided at most once"},
      {"search=a&search=b", "search must be provided at most once"},
      {"assignee=me&assignee=me", "assignee must be provided at most once"},
      {"platform[0]=web", "platform must be provided at most once"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.query);
    TestResponse r = List(t, x.s.admin, row.query);
    CHECK(r.status == 400);
    CHECK(r.json.at("error").as_string() == row.error);
  }
}

TEST_CASE("GET /v1/bugs: paging by limit and offset, the limit is capped at 200") {
  TestService t;
  Seeded x = Seed(t);
  TestResponse first = List(t, x.s.admin, "limit=2");
  CHECK(Ids(first) == std::vector<std::string>{x.c, x.b});
  CHECK(first.json.at("total") == 3);
  TestResponse second = List(t, x.s.admin, "limit=2&offset=2");
  CHECK(Ids(second) == std::vector<std::string>{x.a});
  CHECK(second.json.at("offset") == 2);
  CHECK(List(t, x.s.admin, "offset=9").json.at("bugs").as_array().empty());
  CHECK(List(t, x.s.admin, "limit=500").json.at("limit") == 200);
}

TEST_CASE("GET /v1/bugs: equal last_seen orders by project_id, then id") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string p2 = CreateProjectVia(t, s.admin, "Other");
  const std::string k2 = CreateKeyVia(t, s.admin, p2);
  std::vector<std::pair<std::string, std::string>> expected;  // (project, id)
  for (int i = 0; i < 3; ++i) {
    for (const auto& [project, key] : {std::pair{s.project_id, s.key}, std::pair{p2, k2}}) {
      // Reported at one instant (the test clock stands still).
      const std::string title = "Same instant " + std::to_string(i);
      TestResponse r = Ingest(t, key, Report(title, title + " failed"));
      REQUIRE_MESSAGE(r.status == 201, r.body);
      expected.emplace_back(project, std::string(r.json.at("id").as_string()));
    }
  }
  std::sort(expected.begin(), expected.end());
  TestResponse r = List(t, s.admin);
  REQUIRE(r.status == 200);
  std::vector<std::string> want;
  for (const auto& e : expected) want.push_back(e.second);
  CHECK(Ids(r) == want);
}

TEST_CASE("GET /v1/bugs: a stale assignee reads as null and counts as unassigned") {
  TestService t;
  Seeded x = Seed(t);
  // The member leaves: the stored assignment of c is cleared by the removal;
  // a stored id that names nobody (or a deactivated account) is stale.
  const std::string ghost = "01890000-0000-7000-8000-00000000f00d";
  AssignBug(t, x.s.admin.org_id, x.c, ghost);
  TestResponse r = List(t, x.s.admin, "projectId=" + x.project2);
  REQUIRE(r.status == 200);
  CHECK(r.json.at("bugs").at(0).at("assigned_to").is_null());
  CHECK(Ids(List(t, x.s.admin, "assignee=unassigned")) == std::vector<std::string>{x.c, x.b});
  CHECK(Ids(List(t, x.s.admin, "assignee=" + ghost)).empty());
  // An active member's assignment reads as their id.
  TestResponse a = t.Get("/v1/bugs/" + x.a, x.s.admin.headers());
  CHECK(Str(a.json, "assigned_to") == x.s.admin.user_id);
}

TEST_CASE("bug reads are scoped to the caller's organization: another organization's bug is 404") {
  TestService t;
  Seeded x = Seed(t);
  Member stranger = NewOrgWithMember(t, "admin");
  TestResponse list = List(t, stranger);
  REQUIRE(list.status == 200);
  CHECK(list.json.at("total") == 0);
  CHECK(List(t, stranger, "projectId=" + x.s.project_id).json.at("total") == 0);
  for (const char* s : {"", "/occurrences", "/events", "/history", "/comments", "/watching"}) {
    const std::string suffix = s;
    CAPTURE(suffix);
    TestResponse r = t.Get("/v1/bugs/" + x.a + suffix, stranger.headers());
    CHECK(r.status == 404);
    CHECK(r.json.at("error") == "Bug not found");
    CHECK(t.Get("/v1/bugs/01890000-0000-7000-8000-000000000000" + suffix, x.s.admin.headers()).status == 404);
    CHECK(t.Get("/v1/bugs/not-an-id" + suffix, x.s.admin.headers()).status == 404);
  }
  CHECK(t.Get("/v1/bugs").status == 401);
  // Every role of the organization reads bugs.
  Member viewer = AddMemberWithRole(t, x.s.admin.org_id, "viewer");
  CHECK(List(t, viewer).json.at("total") == 3);
}

TEST_CASE("GET /v1/bugs/:id: the row plus reporters, recent occurrences, counts and evidence") {
  TestService t;
  Seeded x = Seed(t);
  t.clock().Advance(1000);
  REQUIRE(Ingest(t, x.s.key,
                 Report("Checkout button broken", "a is undefined",
                        {{"platform", "web"},
                         {"reporterEmail", "bob@example.com"},
                         {"sessionId", "s-2"},
                         {"userId", "u-2"}}))
              .status == 201);
  TestResponse r = t.Get("/v1/bugs/" + x.a, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(Str(r.json, "id") == x.a);
  CHECK(r.json.at("report_count") == 2);
  CHECK(r.json.at("occurrence_count") == 2);
  CHECK(r.json.at("session_count") == 2);
  CHECK(r.json.at("affected_user_count") == 2);
  const json::array& reporters = r.json.at("reporters").as_array();
  REQUIRE(reporters.size() == 2);
  std::set<std::string> emails;
  for (const auto& rep : reporters) emails.insert(Str(rep, "email"));
  CHECK(emails == std::set<std::string>{"ann@example.com", "bob@example.com"});
  const json::array& recent = r.json.at("recent_occurrences").as_array();
  REQUIRE(recent.size() == 2);
  CHECK(Str(recent[0], "session_id") == "s-2");  // newest first
  CHECK(Str(recent[1], "session_id") == "s-1");
  CHECK(recent[0].at("metadata").is_object());
  CHECK(recent[0].at("event_count") == 1);
  // Shadow grouping is off by default: no evidence, no proposals.
  CHECK(r.json.at("groupingV3").is_null());
  CHECK(r.json.at("duplicateCandidates").as_array().empty());
  CHECK(r.json.at("active_verification_promotion_id").is_null());
}

TEST_CASE("GET /v1/bugs/:id/occurrences: newest first, paging, userKey narrows list and total") {
  TestService t;
  Seeded x = Seed(t);
  for (const char* user : {"u-2", "u-1", "u-2"}) {
    t.clock().Advance(1000);
    REQUIRE(
        Ingest(t, x.s.key, Report("Checkout button broken", "a is undefined", {{"userId", user}})).status ==
        201);
  }
  TestResponse all = t.Get("/v1/bugs/" + x.a + "/occurrences", x.s.admin.headers());
  REQUIRE_MESSAGE(all.status == 200, all.body);
  CHECK(all.json.at("total") == 4);
  CHECK(all.json.at("limit") == 50);
  const json::array& list = all.json.at("occurrences").as_array();
  REQUIRE(list.size() == 4);
  for (size_t i = 1; i < list.size(); ++i)
    CHECK(Str(list[i - 1], "occurred_at") >= Str(list[i], "occurred_at"));
  const std::string key_u2 = Str(list[0], "user_key");
  TestResponse narrowed =
      t.Get("/v1/bugs/" + x.a + "/occurrences?userKey=" + key_u2 + "&limit=1", x.s.admin.headers());
  REQUIRE(narrowed.status == 200);
  CHECK(narrowed.json.at("total") == 2);
  CHECK(narrowed.json.at("occurrences").as_array().size() == 1);
  TestResponse page2 = t.Get("/v1/bugs/" + x.a + "/occurrences?limit=3&offset=3", x.s.admin.headers());
  CHECK(page2.json.at("occurrences").as_array().size() == 1);
  CHECK(t.Get("/v1/bugs/" + x.a + "/occurrences?limit=x", x.s.admin.headers()).status == 400);
}

TEST_CASE("GET /v1/bugs/:id/events: type and occurrence filters, limits") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  json::object report = Report("Many events", "boom");
  json::array events;
  for (int i = 0; i < 5; ++i) {
    events.push_back(json::object{{"type", i % 2 ? "click" : "error"},
                                  {"timestamp", 1768471100000 + i},
                                  {"data", json::object{{"message", "boom"}, {"i", i}}}});
  }
  report["events"] = events;
  TestResponse first = Ingest(t, s.key, report);
  REQUIRE(first.status == 201);
  const std::string bug = Str(first.json, "id");
  t.clock().Advance(1000);
  REQUIRE(Ingest(t, s.key, report).status == 201);

  TestResponse all = t.Get("/v1/bugs/" + bug + "/events", s.admin.headers());
  REQUIRE_MESSAGE(all.status == 200, all.body);
  const json::array& list = all.json.at("events").as_array();
  REQUIRE(list.size() == 10);
  CHECK(Str(list[0], "bug_id") == bug);
  CHECK(Str(list[0], "event_type") == "error");
  CHECK(list[0].at("data").at("i") == 0);
  CHECK(list[0].at("timestamp").is_string());
  std::set<std::string> ids;
  for (const auto& e : list) ids.insert(Str(e, "id"));
  CHECK(ids.size() == 10);

  TestResponse clicks = t.Get("/v1/bugs/" + bug + "/events?type=click", s.admin.headers());
  CHECK(clicks.json.at("events").as_array().size() == 4);
  const std::string occ = Str(list[9], "occurrence_id");
  TestResponse one = t.Get("/v1/bugs/" + bug + "/events?occurrenceId=" + occ, s.admin.headers());
  CHECK(one.json.at("events").as_array().size() == 5);
  for (const auto& e : one.json.at("events").as_array()) CHECK(Str(e, "occurrence_id") == occ);
  CHECK(t.Get("/v1/bugs/" + bug + "/events?limit=3", s.admin.headers()).json.at("events").as_array().size() ==
        3);
  CHECK(t.Get("/v1/bugs/" + bug + "/events?limit=0", s.admin.headers()).status == 400);
  CHECK(t.Get("/v1/bugs/" + bug + "/events?type=a&type=b", s.admin.headers()).status == 400);
}

TEST_CASE("GET /v1/bugs/:id/history, /comments and /watching") {
  TestService t;
  Seeded x = Seed(t);
  t.clock().Advance(1000);
  SetBugStatus(t, x.s.admin.org_id, x.a, "working", x.s.admin.user_id);
  t.clock().Advance(1000);
  SetBugStatus(t, x.s.admin.org_id, x.a, "resolved", x.member.user_id);
  TestResponse h = t.Get("/v1/bugs/" + x.a + "/history", x.s.admin.headers());
  REQUIRE_MESSAGE(h.status == 200, h.body);
  const json::array& history = h.json.at("history").as_array();
  REQUIRE(history.size() == 2);
  CHECK(Str(history[0], "old_status") == "working");  // newest first
  CHECK(Str(history[0], "new_status") == "resolved");
  CHECK(Str(history[0], "changed_by_email") == x.member.email);
  CHECK(Str(history[0], "changed_by_name") == "Test User");
  CHECK(history[0].at("note").is_null());
  CHECK(Str(history[1], "new_status") == "working");

  AddComment(t, x.s.admin.org_id, x.a, x.member.user_id, "first");
  t.clock().Advance(1000);
  AddComment(t, x.s.admin.org_id, x.a, x.s.admin.user_id, "second");
  TestResponse c = t.Get("/v1/bugs/" + x.a + "/comments", x.s.admin.headers());
  REQUIRE(c.status == 200);
  const json::array& comments = c.json.at("comments").as_array();
  REQUIRE(comments.size() == 2);
  CHECK(Str(comments[0], "content") == "first");  // oldest first
  CHECK(Str(comments[0], "user_email") == x.member.email);
  CHECK(Str(comments[1], "user_id") == x.s.admin.user_id);
  CHECK(Str(comments[1], "bug_id") == x.a);

  AddWatcher(t, x.s.admin.org_id, x.a, x.s.admin.user_id);
  CHECK(t.Get("/v1/bugs/" + x.a + "/watching", x.s.admin.headers()).json.at("watching") == true);
  CHECK(t.Get("/v1/bugs/" + x.a + "/watching", x.member.headers()).json.at("watching") == false);
}

}  // namespace service::testing
