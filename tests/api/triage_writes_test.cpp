// Triage writes (Spec 1 "Bugs: write" and the bug rows of "States and
// transitions"; issue 11): PATCH with history, regression and the
// assignee rule, bulk updates with every selector, comments with mentions,
// watching, merge and delete, each with the organization scope.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <string>
#include <vector>

#include "service_internal.h"
#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

struct Team {
  CaptureSetup s;
  Member member;  // an active member of the organization
  Member viewer;
  Member outsider;  // admin of another organization
  std::string bug;
};

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title,
                   const json::object& extra = {}) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

Team NewTeam(TestService& t) {
  Team x;
  x.s = NewCaptureSetup(t);
  x.member = AddMemberWithRole(t, x.s.admin.org_id, "member");
  x.viewer = AddMemberWithRole(t, x.s.admin.org_id, "viewer");
  x.outsider = NewOrgWithMember(t);
  x.bug = NewBug(t, x.s, "Checkout button broken");
  return x;
}

TestResponse PatchBug(TestService& t, const Member& m, const std::string& bug, const json::object& body) {
  return t.Patch("/v1/bugs/" + bug, body, m.headers());
}

json::value GetBug(TestService& t, const Member& m, const std::string& bug) {
  TestResponse r = t.Get("/v1/bugs/" + bug, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}

std::vector<std::string> NotificationTypes(TestService& t, const Member& m) {
  TestResponse r = t.Get("/v1/notifications", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  std::vector<std::string> out;
  for (const auto& n : r.json.at("notifications").as_array()) out.push_back(S(n, "type"));
  return out;
}

bool Watching(TestService& t, const Member& m, const std::string& bug) {
  TestResponse r = t.Get("/v1/bugs/" + bug + "/watching", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("watching").as_bool();
}

// internal state: the rows of `table` that hang off `bug`, for rules about rows no route shows (those of
// members who cannot sign in, and those of a deleted bug).
int64_t Count(TestService& t, const std::string& table, const std::string& bug) {
  return QueryInt(t, "SELECT COUNT(*) FROM " + table + " WHERE bug_id = ?", {bug});
}

// The status-history rows of `bug` (GET /v1/bugs/:id/history).
size_t HistoryRows(TestService& t, const Member& m, const std::string& bug) {
  TestResponse r = t.Get("/v1/bugs/" + bug + "/history", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("history").as_array().size();
}

// The occurrences of `bug` (GET /v1/bugs/:id/occurrences: its total).
int64_t OccurrenceRows(TestService& t, const Member& m, const std::string& bug) {
  TestResponse r = t.Get("/v1/bugs/" + bug + "/occurrences", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("total").as_int64();
}

// The comments on `bug` (GET /v1/bugs/:id/comments).
size_t CommentRows(TestService& t, const Member& m, const std::string& bug) {
  TestResponse r = t.Get("/v1/bugs/" + bug + "/comments", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("comments").as_array().size();
}

TEST_CASE("PATCH status records history with the note and resolved_at, and a reopen is a regression") {
  TestService t;
  Team x = NewTeam(t);
  EventRecorder rec(t);
  TestResponse r = PatchBug(t, x.s.admin, x.bug, {{"status", "working"}, {"note", "on it"}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("success").as_bool());
  json::value bug = GetBug(t, x.s.admin, x.bug);
  CHECK(S(bug, "status") == "working");
  CHECK(bug.at("resolved_at").is_null());

  t.clock().Advance(60'000);
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"status", "resolved"}}).status == 200);
  bug = GetBug(t, x.s.admin, x.bug);
  CHECK(S(bug, "status") == "resolved");
  CHECK_FALSE(bug.at("resolved_at").is_null());
  CHECK_FALSE(bug.at("is_regression").as_bool());

  TestResponse h = t.Get("/v1/bugs/" + x.bug + "/history", x.s.admin.headers());
  REQUIRE(h.status == 200);
  const json::array& history = h.json.at("history").as_array();
  REQUIRE(history.size() == 2);
  CHECK(S(history[0], "old_status") == "working");  // newest first
  CHECK(S(history[0], "new_status") == "resolved");
  CHECK(S(history[1], "old_status") == "new");
  CHECK(S(history[1], "note") == "on it");
  CHECK(S(history[1], "changed_by_email") == x.s.admin.email);

  // Reopening a resolved bug marks it a regression and says so on the stream.
  REQUIRE(PatchBug(t, x.member, x.bug, {{"status", "known"}}).status == 200);
  bug = GetBug(t, x.s.admin, x.bug);
  CHECK(S(bug, "status") == "known");
  CHECK(bug.at("is_regression").as_bool());
  CHECK(bug.at("resolved_at").is_null());
  CHECK(rec.OfType("status_change").size() == 3);
  REQUIRE(rec.OfType("regression").size() == 1);
  json::value payload = json::parse(rec.OfType("regression")[0].payload);
  CHECK(S(payload, "bugId") == x.bug);
  CHECK(payload.at("is_regression").as_bool());

  // Severity alone changes no status and writes no history.
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"severity", "critical"}}).status == 200);
  CHECK(S(GetBug(t, x.s.admin, x.bug), "severity") == "critical");
  CHECK(HistoryRows(t, x.s.admin, x.bug) == 3);
}

TEST_CASE("PATCH rejects bad values, other organizations' bugs and roles without the capability") {
  TestService t;
  Team x = NewTeam(t);
  CHECK(PatchBug(t, x.s.admin, x.bug, {{"status", "done"}}).json.at("error") == "Invalid status");
  CHECK(PatchBug(t, x.s.admin, x.bug, {{"status", "done"}}).status == 400);
  CHECK(PatchBug(t, x.s.admin, x.bug, {{"severity", "urgent"}}).status == 400);
  CHECK(PatchBug(t, x.s.admin, x.bug, {{"status", 3}}).status == 400);
  CHECK(PatchBug(t, x.outsider, x.bug, {{"status", "known"}}).status == 404);
  CHECK(PatchBug(t, x.s.admin, "00000000-0000-4000-8000-000000000000", {{"status", "known"}}).status == 404);
  CHECK(PatchBug(t, x.viewer, x.bug, {{"status", "known"}}).status == 403);
  CHECK(S(GetBug(t, x.s.admin, x.bug), "status") == "new");
}

TEST_CASE("assignedTo: an active member is assigned, subscribed and notified, every other id is one 400") {
  TestService t;
  Team x = NewTeam(t);
  Member pending = AddMemberWithRole(t, x.s.admin.org_id, "member", "pending");
  Member deactivated = AddMemberWithRole(t, x.s.admin.org_id, "member", "deactivated");

  const std::vector<json::value> invalid = {"not-a-uuid",
                                            "00000000-0000-4000-8000-000000000000",
                                            json::value(x.outsider.user_id),
                                            json::value(pending.user_id),
                                            json::value(deactivated.user_id),
                                            42};
  for (const json::value& id : invalid) {
    CAPTURE(json::serialize(id));
    // Status and severity in the same request change nothing either.
    TestResponse r =
        PatchBug(t, x.s.admin, x.bug, {{"assignedTo", id}, {"status", "resolved"}, {"severity", "low"}});
    CHECK(r.status == 400);
    CHECK(S(r.json, "code") == "ASSIGNEE_INVALID");
  }
  // The check comes before the bug is read: another organization's bug gives the same 400.
  CHECK(S(PatchBug(t, x.outsider, x.bug, {{"assignedTo", "nope"}}).json, "code") == "ASSIGNEE_INVALID");
  json::value bug = GetBug(t, x.s.admin, x.bug);
  CHECK(S(bug, "status") == "new");
  CHECK(S(bug, "severity") != "low");
  CHECK(bug.at("assigned_to").is_null());
  CHECK(HistoryRows(t, x.s.admin, x.bug) == 0);
  CHECK(Count(t, "watchers", x.bug) == 0);
  CHECK(Count(t, "notifications", x.bug) == 0);

  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"assignedTo", x.member.user_id}}).status == 200);
  CHECK(S(GetBug(t, x.s.admin, x.bug), "assigned_to") == x.member.user_id);
  CHECK(Watching(t, x.member, x.bug));
  CHECK(NotificationTypes(t, x.member) == std::vector<std::string>{"assigned"});

  // Watchers hear of status changes; a deactivated watcher does not.
  AddWatcher(t, x.s.admin.org_id, x.bug, deactivated.user_id);
  t.clock().Advance(1000);
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"status", "working"}}).status == 200);
  CHECK(NotificationTypes(t, x.member) == std::vector<std::string>{"status_changed", "assigned"});
  // internal state: a deactivated member cannot sign in to read their notifications.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM notifications WHERE user_id = ?", {deactivated.user_id}) == 0);

  // null and "" unassign.
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"assignedTo", nullptr}}).status == 200);
  CHECK(GetBug(t, x.s.admin, x.bug).at("assigned_to").is_null());
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"assignedTo", x.s.admin.user_id}}).status == 200);
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"assignedTo", ""}}).status == 200);
  CHECK(GetBug(t, x.s.admin, x.bug).at("assigned_to").is_null());
}

TEST_CASE("bulk update by ids, groupRefs and legacy groupKeys in one transaction") {
  TestService t;
  Team x = NewTeam(t);
  const std::string project2 = CreateProjectVia(t, x.s.admin, "Second");
  const std::string key2 = CreateKeyVia(t, x.s.admin, project2);
  // The same error on two pages: one group of two bugs in project 1.
  const std::string g1 = NewBug(t, x.s, "TypeError: a is undefined", {{"url", "https://app.example.com/a"}});
  const std::string g2 = NewBug(t, x.s, "TypeError: a is undefined", {{"url", "https://app.example.com/b"}});
  // Their group, read from the grouped list: one group holding both.
  std::string group_key;
  TestResponse groups = t.Get("/v1/bugs/groups?projectId=" + x.s.project_id, x.s.admin.headers());
  REQUIRE_MESSAGE(groups.status == 200, groups.body);
  for (const auto& g : groups.json.at("groups").as_array()) {
    const json::array& ids = g.at("memberIds").as_array();
    if (std::find(ids.begin(), ids.end(), json::value(g1)) == ids.end()) continue;
    REQUIRE(std::find(ids.begin(), ids.end(), json::value(g2)) != ids.end());
    group_key = S(g, "groupKey");
  }
  REQUIRE_FALSE(group_key.empty());
  const auto bulk = [&](const json::object& body, const Member& m) {
    return t.Request("PATCH", "/v1/bugs/bulk", json::serialize(body), m.headers());
  };

  TestResponse r = bulk({{"ids", json::array{x.bug}}, {"status", "known"}}, x.s.admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("updated").as_int64() == 1);
  CHECK(S(GetBug(t, x.s.admin, x.bug), "status") == "known");

  r = bulk({{"groupRefs", json::array{json::object{{"projectId", x.s.project_id}, {"groupKey", group_key}}}},
            {"severity", "critical"}},
           x.s.admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("updated").as_int64() == 2);
  CHECK(S(GetBug(t, x.s.admin, g2), "severity") == "critical");

  r = bulk({{"groupKeys", json::array{group_key}}, {"status", "silenced"}}, x.s.admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("updated").as_int64() == 2);

  // The same key in a second project: the legacy selector is ambiguous and nothing changes.
  t.clock().Advance(1000);
  REQUIRE(Ingest(t, key2,
                 Report("TypeError: a is undefined", "TypeError: a is undefined failed",
                        {{"url", "https://app.example.com/c"}}))
              .status == 201);
  r = bulk({{"groupKeys", json::array{group_key}}, {"ids", json::array{x.bug}}, {"status", "new"}},
           x.s.admin);
  CHECK(r.status == 409);
  CHECK(S(r.json, "code") == "GROUP_KEY_AMBIGUOUS");
  CHECK(S(GetBug(t, x.s.admin, x.bug), "status") == "known");
  CHECK(S(GetBug(t, x.s.admin, g1), "status") == "silenced");

  // 400s: selectors, caps, fields, values; 404s: foreign ids and projects.
  json::array many;
  for (int i = 0; i < 101; ++i) many.push_back(json::value(x.bug));
  CHECK(bulk({{"status", "new"}}, x.s.admin).status == 400);
  CHECK(bulk({{"ids", json::array{}}, {"status", "new"}}, x.s.admin).status == 400);
  CHECK(bulk({{"ids", many}, {"status", "new"}}, x.s.admin).status == 400);
  CHECK(bulk({{"ids", json::array{x.bug}}}, x.s.admin).status == 400);
  CHECK(bulk({{"ids", json::array{x.bug}}, {"status", "gone"}}, x.s.admin).status == 400);
  CHECK(
      bulk({{"groupRefs", json::array{json::object{{"groupKey", group_key}}}}, {"status", "new"}}, x.s.admin)
          .status == 400);
  CHECK(S(bulk({{"ids", json::array{x.bug}}, {"assignedTo", x.outsider.user_id}}, x.s.admin).json, "code") ==
        "ASSIGNEE_INVALID");
  CHECK(bulk({{"ids", json::array{x.bug}}, {"status", "new"}}, x.outsider).status == 404);
  const std::string foreign_bug = NewBug(t, NewCaptureSetup(t), "Elsewhere");
  CHECK(bulk({{"ids", json::array{x.bug, foreign_bug}}, {"status", "new"}}, x.s.admin).status == 404);
  CHECK(S(GetBug(t, x.s.admin, x.bug), "status") == "known");
  CHECK(bulk({{"groupRefs",
               json::array{json::object{{"projectId", x.outsider.org_id}, {"groupKey", group_key}}}},
              {"status", "new"}},
             x.s.admin)
            .status == 404);
  CHECK(bulk({{"ids", json::array{x.bug}}, {"status", "new"}}, x.viewer).status == 403);
}

TEST_CASE("comments: oldest first, the commenter subscribes, mentions reach active members only") {
  TestService t;
  Team x = NewTeam(t);
  Member pending = AddMemberWithRole(t, x.s.admin.org_id, "member", "pending");
  Member watcher = AddMemberWithRole(t, x.s.admin.org_id, "member");
  REQUIRE(t.Post("/v1/bugs/" + x.bug + "/watch", json::object{}, watcher.headers()).status == 200);
  EventRecorder rec(t);

  const std::string text = "Looks like the cart. @" + x.member.email + " and @" + pending.email + " and @" +
                           x.outsider.email + ", please check.";
  TestResponse r =
      t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", text}}, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK(S(r.json, "content") == text);
  CHECK(S(r.json, "bug_id") == x.bug);
  CHECK(S(r.json, "user_id") == x.s.admin.user_id);
  CHECK(S(r.json, "user_email") == x.s.admin.email);
  CHECK(Watching(t, x.s.admin, x.bug));
  CHECK(Watching(t, x.member, x.bug));
  CHECK(NotificationTypes(t, x.member) == std::vector<std::string>{"mention"});
  CHECK(NotificationTypes(t, watcher) == std::vector<std::string>{"comment"});
  CHECK(NotificationTypes(t, x.s.admin).empty());
  // internal state: neither a pending member nor an outsider can read this organization's rows.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM notifications WHERE user_id IN (?, ?)",
                 {pending.user_id, x.outsider.user_id}) == 0);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM watchers WHERE user_id IN (?, ?)",
                 {pending.user_id, x.outsider.user_id}) == 0);
  CHECK(rec.OfType("comment").size() == 1);

  t.clock().Advance(1000);
  REQUIRE(t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", "second"}}, x.member.headers())
              .status == 201);
  TestResponse list = t.Get("/v1/bugs/" + x.bug + "/comments", x.s.admin.headers());
  REQUIRE(list.json.at("comments").as_array().size() == 2);
  CHECK(S(list.json.at("comments").as_array()[0], "content") == text);
  CHECK(S(list.json.at("comments").as_array()[1], "content") == "second");

  CHECK(t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", "  "}}, x.s.admin.headers())
            .status == 400);
  CHECK(t.Post("/v1/bugs/" + x.bug + "/comments", json::object{}, x.s.admin.headers()).status == 400);
  CHECK(t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", std::string(10'001, 'a')}},
               x.s.admin.headers())
            .status == 400);
  CHECK(t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", std::string(10'000, 'a')}},
               x.s.admin.headers())
            .status == 201);
  CHECK(t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", "hi"}}, x.outsider.headers())
            .status == 404);
  CHECK(
      t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", "hi"}}, x.viewer.headers()).status ==
      403);
}

TEST_CASE("watch and unwatch") {
  TestService t;
  Team x = NewTeam(t);
  TestResponse r = t.Post("/v1/bugs/" + x.bug + "/watch", json::object{}, x.viewer.headers());
  REQUIRE(r.status == 200);
  CHECK(r.json.at("watching").as_bool());
  CHECK(Watching(t, x.viewer, x.bug));
  r = t.Delete("/v1/bugs/" + x.bug + "/watch", x.viewer.headers());
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.at("watching").as_bool());
  CHECK_FALSE(Watching(t, x.viewer, x.bug));
  CHECK(t.Post("/v1/bugs/" + x.bug + "/watch", json::object{}, x.outsider.headers()).status == 404);
  CHECK(t.Delete("/v1/bugs/" + x.bug + "/watch", x.outsider.headers()).status == 404);
}

TEST_CASE("merge re-parents everything of the sources onto the target in one transaction") {
  TestService t;
  Team x = NewTeam(t);
  const std::string target = x.bug;
  const std::string a =
      NewBug(t, x.s, "Cart total wrong", {{"userId", "u-1"}, {"sessionId", "s-1"}, {"platform", "ios"}});
  const std::string b = NewBug(t, x.s, "Cart total off by one", {{"userId", "u-2"}});
  t.clock().Advance(1000);
  REQUIRE(
      Ingest(t, x.s.key, Report("Cart total wrong", "Cart total wrong failed", {{"userId", "u-1"}})).status ==
      201);  // a second report of a
  REQUIRE(
      t.Post("/v1/bugs/" + a + "/comments", json::object{{"content", "on a"}}, x.member.headers()).status ==
      201);
  REQUIRE(PatchBug(t, x.s.admin, b, {{"status", "working"}}).status == 200);
  int64_t reports = 0;
  int64_t occurrences = 0;
  for (const std::string& id : {target, a, b}) {
    reports += GetBug(t, x.s.admin, id).at("report_count").as_int64();
    occurrences += OccurrenceRows(t, x.s.admin, id);
  }
  EventRecorder rec(t);

  const auto merge = [&](const json::object& body, const Member& m) {
    return t.Post("/v1/bugs/merge", body, m.headers());
  };
  CHECK(merge({{"targetId", target}}, x.s.admin).status == 400);
  CHECK(merge({{"targetId", target}, {"sourceIds", json::array{target, a}}}, x.s.admin).status == 400);
  json::array many;
  for (int i = 0; i < 21; ++i)
    many.push_back(json::value("00000000-0000-4000-8000-0000000000" + std::to_string(10 + i)));
  CHECK(merge({{"targetId", target}, {"sourceIds", many}}, x.s.admin).status == 400);
  CHECK(merge({{"targetId", target}, {"sourceIds", json::array{a}}}, x.outsider).status == 404);
  CHECK(merge({{"targetId", target}, {"sourceIds", json::array{a}}}, x.member).status == 403);
  CHECK(merge({{"targetId", target}, {"sourceIds", json::array{a, "00000000-0000-4000-8000-000000000000"}}},
              x.s.admin)
            .status == 404);
  const std::string project2 = CreateProjectVia(t, x.s.admin, "Second");
  TestResponse other = Ingest(t, CreateKeyVia(t, x.s.admin, project2), Report("Elsewhere"));
  REQUIRE(other.status == 201);
  CHECK(merge({{"targetId", target}, {"sourceIds", json::array{a, other.json.at("id")}}}, x.s.admin).status ==
        400);
  CHECK(OccurrenceRows(t, x.s.admin, a) == 2);  // nothing moved by the failed attempts

  TestResponse r = merge({{"targetId", target}, {"sourceIds", json::array{a, b}}}, x.s.admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("success").as_bool());
  CHECK(S(r.json, "targetId") == target);
  CHECK(r.json.at("mergedCount").as_int64() == 2);

  CHECK(t.Get("/v1/bugs/" + a, x.s.admin.headers()).status == 404);
  CHECK(t.Get("/v1/bugs/" + b, x.s.admin.headers()).status == 404);
  json::value bug = GetBug(t, x.s.admin, target);
  CHECK(bug.at("report_count").as_int64() == reports);
  CHECK(OccurrenceRows(t, x.s.admin, target) == occurrences);
  // u-1 and u-2 of the sources, and the target's anonymous reporter.
  CHECK(bug.at("affected_user_count").as_int64() == 3);
  CHECK(CommentRows(t, x.s.admin, target) == 1);
  CHECK(HistoryRows(t, x.s.admin, target) == 1);
  CHECK(Watching(t, x.member, target));
  TestResponse occ = t.Get("/v1/bugs/" + target + "/occurrences", x.s.admin.headers());
  CHECK(occ.json.at("total").as_int64() == occurrences);
  CHECK(rec.OfType("deleted").size() == 2);
  // The grouped list no longer shows the sources.
  TestResponse list = t.Get("/v1/bugs", x.s.admin.headers());
  CHECK(list.json.at("total").as_int64() == 2);  // the target and the other project's bug
  // The target's group has the platforms of the occurrences it took over.
  TestResponse groups = t.Get("/v1/bugs/groups?projectId=" + x.s.project_id, x.s.admin.headers());
  REQUIRE_MESSAGE(groups.status == 200, groups.body);
  REQUIRE(groups.json.at("groups").as_array().size() == 1);
  CHECK(groups.json.at("groups").at(0).at("platforms") == json::array{"ios", "other"});
  CHECK(groups.json.at("groups").at(0).at("userCount") == 3);
}

TEST_CASE("delete cascades, emits deleted, and needs the capability") {
  TestService t;
  Team x = NewTeam(t);
  REQUIRE(
      t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", "x"}}, x.member.headers()).status ==
      201);
  CHECK(t.Delete("/v1/bugs/" + x.bug, x.member.headers()).status == 403);
  CHECK(t.Delete("/v1/bugs/" + x.bug, x.outsider.headers()).status == 404);
  EventRecorder rec(t);
  TestResponse r = t.Delete("/v1/bugs/" + x.bug, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("success").as_bool());
  CHECK(S(r.json, "deleted") == x.bug);
  CHECK(t.Get("/v1/bugs/" + x.bug, x.s.admin.headers()).status == 404);
  CHECK(t.Delete("/v1/bugs/" + x.bug, x.s.admin.headers()).status == 404);
  CHECK(Count(t, "occurrences", x.bug) == 0);
  CHECK(Count(t, "comments", x.bug) == 0);
  CHECK(Count(t, "watchers", x.bug) == 0);
  REQUIRE(rec.OfType("deleted").size() == 1);
  CHECK(S(json::parse(rec.OfType("deleted")[0].payload), "bugId") == x.bug);
}

TEST_CASE(
    "triage events reach the transactional subscribers inside the write, a rejected write leaves none") {
  TestService t;
  Team x = NewTeam(t);
  // Outbound deliveries (Specification 2) subscribe too; here a second
  // subscriber writes one outbox row per event in the write's own
  // transaction, and names the area that wrote it.
  modules::Platform& p = internal::PlatformOf(t.service());
  const uint64_t handle =
      p.events.Subscribe([&p](ports::Tx& tx, const ports::Event& e, std::string_view area) -> Status {
        if (area != app::kTriageEvents) return Status::Public(Code::kInternal, "not the triage area");
        return p.outbox->Enqueue(tx, p.ids->NewId(), "test-event", e.type, p.Now());
      });
  // internal state: the hook's outbox rows are what the rule is about (no route lists the outbox).
  const auto rows = [&](const std::string& type) {
    return QueryInt(t, "SELECT COUNT(*) FROM outbox WHERE kind = 'test-event' AND payload = ?", {type});
  };
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"status", "resolved"}}).status == 200);
  CHECK(rows("status_change") == 1);
  CHECK(PatchBug(t, x.s.admin, x.bug, {{"status", "new"}, {"assignedTo", x.outsider.user_id}}).status == 400);
  CHECK(rows("status_change") == 1);
  CHECK(rows("regression") == 0);
  REQUIRE(PatchBug(t, x.s.admin, x.bug, {{"status", "new"}, {"assignedTo", x.member.user_id}}).status == 200);
  CHECK(rows("status_change") == 2);
  CHECK(rows("regression") == 1);
  CHECK(rows("assigned") == 1);
  REQUIRE(
      t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", "x"}}, x.member.headers()).status ==
      201);
  CHECK(rows("comment") == 1);
  p.events.Unsubscribe(handle);
}

}  // namespace
}  // namespace service::testing
