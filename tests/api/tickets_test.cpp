// Tickets (issue 28 item 4, server-contract "Tickets") through the router on
// both backends: CRUD and the shape, board order and filters, validation in
// the common envelope, another organization's ticket as 404, who may write
// (viewers read only), the move rules (clamped, gaps closed, the others
// shifted), PATCH status and deletion keeping columns dense, concurrent
// moves from several threads, X-Agent-Token refused in production and
// without a valid token in development, and what deletions of a bug, a
// member and an organization do to tickets.
#include <doctest/doctest.h>

#include <atomic>
#include <boost/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/tickets/module.h"
#include "service_internal.h"
#include "support/capture_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) {
  const json::value& x = v.at(key);
  return x.is_string() ? std::string(x.as_string()) : json::serialize(x);
}

json::object NewTicketBody(const std::string& title, json::object extra = {}) {
  json::object b{{"title", title}};
  for (const auto& [k, v] : extra) b[k] = v;
  return b;
}

json::object Create(TestService& t, const Member& m, const std::string& title, json::object extra = {}) {
  TestResponse r = t.Post("/v1/tickets", NewTicketBody(title, std::move(extra)), m.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json.at("ticket").as_object();
}

TestResponse Move(TestService& t, const Member& m, const std::string& id, const std::string& status,
                  int64_t position) {
  return t.Post("/v1/tickets/" + id + "/move", json::object{{"status", status}, {"position", position}},
                m.headers());
}

// "status:title" per ticket, in the list's order.
std::vector<std::string> Board(TestService& t, const Member& m, const std::string& query = "") {
  TestResponse r = t.Get("/v1/tickets" + query, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  std::vector<std::string> out;
  std::map<std::string, int64_t> next;
  for (const auto& v : r.json.at("tickets").as_array()) {
    const std::string status = S(v, "status");
    // Dense: each column's positions are 0..n-1 in order.
    CHECK(v.at("position").as_int64() == next[status]);
    next[status] = v.at("position").as_int64() + 1;
    out.push_back(status + ":" + S(v, "title"));
  }
  return out;
}

// The fields a validation failure names.
std::vector<std::string> Fields(const TestResponse& r) {
  std::vector<std::string> out;
  if (!r.json.is_object() || !r.json.as_object().contains("details")) return out;
  for (const auto& d : r.json.at("details").as_array()) out.push_back(S(d, "field"));
  return out;
}

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title, json::object extra = {}) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

TEST_CASE("tickets: create, read, list, update and delete with the contract's shape") {
  auto t = std::make_unique<TestService>();
  CaptureSetup s = NewCaptureSetup(*t);
  const Member& admin = s.admin;
  const std::string bug = NewBug(*t, s, "Checkout fails");

  TestResponse created =
      t->Post("/v1/tickets",
              NewTicketBody("Fix checkout",
                            {{"description", "See the bug"}, {"bugId", bug}, {"assigneeId", admin.user_id}}),
              admin.headers());
  REQUIRE_MESSAGE(created.status == 201, created.body);
  const json::object ticket = created.json.at("ticket").as_object();
  CHECK(ticket.size() == 9);
  CHECK(S(ticket, "title") == "Fix checkout");
  CHECK(S(ticket, "description") == "See the bug");
  CHECK(S(ticket, "status") == "backlog");
  CHECK(ticket.at("position").as_int64() == 0);
  CHECK(S(ticket, "bugId") == bug);
  CHECK(S(ticket, "assigneeId") == admin.user_id);
  CHECK(S(ticket, "createdAt") == "2026-01-15T10:00:01.000Z");
  CHECK(S(ticket, "updatedAt") == S(ticket, "createdAt"));
  const std::string id = S(ticket, "id");

  const json::object plain = Create(*t, admin, "Plain");
  CHECK(S(plain, "description") == "");
  CHECK(plain.at("bugId").is_null());
  CHECK(plain.at("assigneeId").is_null());
  CHECK(plain.at("position").as_int64() == 1);

  TestResponse got = t->Get("/v1/tickets/" + id, admin.headers());
  REQUIRE(got.status == 200);
  CHECK(got.json.at("ticket").as_object() == ticket);
  // Upper-case ids read the same ticket.
  std::string upper = id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(t->Get("/v1/tickets/" + upper, admin.headers()).status == 200);

  t->clock().Advance(5000);
  TestResponse patched =
      t->Patch("/v1/tickets/" + id,
               json::object{{"title", "Fix the checkout"}, {"bugId", nullptr}, {"assigneeId", nullptr}},
               admin.headers());
  REQUIRE_MESSAGE(patched.status == 200, patched.body);
  const json::value& p = patched.json.at("ticket");
  CHECK(S(p, "title") == "Fix the checkout");
  CHECK(S(p, "description") == "See the bug");
  CHECK(p.at("bugId").is_null());
  CHECK(p.at("assigneeId").is_null());
  CHECK(S(p, "status") == "backlog");
  CHECK(p.at("position").as_int64() == 0);
  CHECK(S(p, "createdAt") == S(ticket, "createdAt"));
  CHECK(S(p, "updatedAt") == "2026-01-15T10:00:06.000Z");

  CHECK(Board(*t, admin) == std::vector<std::string>{"backlog:Fix the checkout", "backlog:Plain"});
  TestResponse deleted = t->Delete("/v1/tickets/" + id, admin.headers());
  CHECK(deleted.status == 200);
  CHECK(deleted.json == json::value(json::object{{"success", true}}));
  CHECK(t->Get("/v1/tickets/" + id, admin.headers()).status == 404);
  CHECK(t->Delete("/v1/tickets/" + id, admin.headers()).status == 404);
  // The gap closed: Plain moved up to 0.
  CHECK(Board(*t, admin) == std::vector<std::string>{"backlog:Plain"});
}

TEST_CASE("tickets: the list is in board order (status, then position) and filters by status and bugId") {
  auto t = std::make_unique<TestService>();
  CaptureSetup s = NewCaptureSetup(*t);
  const Member& m = s.admin;
  const std::string bug = NewBug(*t, s, "Crash");
  Create(*t, m, "d", {{"status", "done"}});
  Create(*t, m, "b1");
  Create(*t, m, "r", {{"status", "review"}, {"bugId", bug}});
  Create(*t, m, "i", {{"status", "in_progress"}});
  Create(*t, m, "t", {{"status", "todo"}, {"bugId", bug}});
  Create(*t, m, "b2", {{"status", "backlog"}});
  CHECK(Board(*t, m) == std::vector<std::string>{"backlog:b1", "backlog:b2", "todo:t", "in_progress:i",
                                                 "review:r", "done:d"});
  CHECK(Board(*t, m, "?status=backlog") == std::vector<std::string>{"backlog:b1", "backlog:b2"});
  CHECK(Board(*t, m, "?status=done") == std::vector<std::string>{"done:d"});
  CHECK(Board(*t, m, "?bugId=" + bug) == std::vector<std::string>{"todo:t", "review:r"});
  CHECK(Board(*t, m, "?bugId=" + bug + "&status=review") == std::vector<std::string>{"review:r"});
  CHECK(t->Get("/v1/tickets?status=doing", m.headers()).status == 400);
  CHECK(t->Get("/v1/tickets?bugId=nope", m.headers()).status == 400);
  CHECK(t->Get("/v1/tickets?status=todo&status=done", m.headers()).status == 400);
  // Another organization's list is its own.
  Member other = NewOrgWithMember(*t);
  CHECK(Board(*t, other).empty());
  CHECK(Board(*t, other, "?bugId=" + bug).empty());
}

TEST_CASE("tickets: validation failures name their fields, unknown fields included") {
  auto t = std::make_unique<TestService>();
  CaptureSetup s = NewCaptureSetup(*t);
  const Member& m = s.admin;
  const std::string id = S(Create(*t, m, "x"), "id");
  const auto post = [&](const json::value& body) { return t->Post("/v1/tickets", body, m.headers()); };
  struct Row {
    const char* what;
    json::value body;
    std::vector<std::string> fields;
  };
  const std::vector<Row> rows = {
      {"no title", json::object{}, {"title"}},
      {"empty title", json::object{{"title", ""}}, {"title"}},
      {"title of 501", json::object{{"title", std::string(501, 'a')}}, {"title"}},
      {"title not a string", json::object{{"title", 5}}, {"title"}},
      {"description of 10,001",
       json::object{{"title", "a"}, {"description", std::string(10001, 'd')}},
       {"description"}},
      {"description null", json::object{{"title", "a"}, {"description", nullptr}}, {"description"}},
      {"unknown status", json::object{{"title", "a"}, {"status", "doing"}}, {"status"}},
      {"bugId not a uuid", json::object{{"title", "a"}, {"bugId", "123"}}, {"bugId"}},
      {"assigneeId not a uuid", json::object{{"title", "a"}, {"assigneeId", 7}}, {"assigneeId"}},
      {"unknown field", json::object{{"title", "a"}, {"position", 3}}, {"position"}},
      {"not an object", json::array{1, 2}, {"body"}},
  };
  for (const Row& r : rows) {
    CAPTURE(r.what);
    TestResponse res = post(r.body);
    CHECK(res.status == 400);
    CHECK(S(res.json, "error") == "Validation failed");
    CHECK(Fields(res) == r.fields);
  }
  // The limits themselves pass: 500 characters (counted as characters, not bytes) and 10,000.
  std::string title;
  for (int i = 0; i < 500; ++i) title += "\xc3\xa9";
  CHECK(post(json::object{{"title", title}, {"description", std::string(10000, 'd')}}).status == 201);

  // A bug of another organization, an unknown bug, a non-member assignee: 400 naming the field.
  CaptureSetup other = NewCaptureSetup(*t);
  const std::string foreign_bug = NewBug(*t, other, "Theirs");
  for (const std::string& bug : {foreign_bug, std::string("00000000-0000-7000-8000-00000000dead")}) {
    TestResponse res = post(json::object{{"title", "a"}, {"bugId", bug}});
    CHECK(res.status == 400);
    CHECK(Fields(res) == std::vector<std::string>{"bugId"});
    CHECK(t->Patch("/v1/tickets/" + id, json::object{{"bugId", bug}}, m.headers()).status == 400);
  }
  TestResponse stranger = post(json::object{{"title", "a"}, {"assigneeId", other.admin.user_id}});
  CHECK(stranger.status == 400);
  CHECK(Fields(stranger) == std::vector<std::string>{"assigneeId"});

  // PATCH: nothing to update, nulls where null means nothing, unknown fields.
  TestResponse empty = t->Patch("/v1/tickets/" + id, json::object{}, m.headers());
  CHECK(empty.status == 400);
  CHECK(S(empty.json, "error") == "No fields to update");
  CHECK(Fields(t->Patch("/v1/tickets/" + id, json::object{{"title", nullptr}}, m.headers())) ==
        std::vector<std::string>{"title"});
  CHECK(Fields(t->Patch("/v1/tickets/" + id, json::object{{"status", nullptr}}, m.headers())) ==
        std::vector<std::string>{"status"});
  CHECK(Fields(t->Patch("/v1/tickets/" + id, json::object{{"position", 1}}, m.headers())) ==
        std::vector<std::string>{"position"});
  // Move: both fields required, a known status, a non-negative integer position.
  const auto move = [&](const json::value& body) {
    return t->Post("/v1/tickets/" + id + "/move", body, m.headers());
  };
  CHECK(Fields(move(json::object{})) == std::vector<std::string>{"status", "position"});
  CHECK(Fields(move(json::object{{"status", "todo"}, {"position", -1}})) ==
        std::vector<std::string>{"position"});
  CHECK(Fields(move(json::object{{"status", "todo"}, {"position", 1.5}})) ==
        std::vector<std::string>{"position"});
  CHECK(Fields(move(json::object{{"status", "todo"}, {"position", "1"}})) ==
        std::vector<std::string>{"position"});
  CHECK(Fields(move(json::object{{"status", "later"}, {"position", 0}})) ==
        std::vector<std::string>{"status"});
  CHECK(Fields(move(json::object{{"status", "todo"}, {"position", 0}, {"after", "x"}})) ==
        std::vector<std::string>{"after"});
  TestResponse bad_json = t->Request("POST", "/v1/tickets", "{", m.headers());
  CHECK(bad_json.status == 400);
  CHECK(S(bad_json.json, "error") == "Invalid JSON in request body");
  // Nothing above changed the ticket.
  TestResponse after = t->Get("/v1/tickets/" + id, m.headers());
  CHECK(S(after.json.at("ticket"), "title") == "x");
  CHECK(S(after.json.at("ticket"), "status") == "backlog");
}

TEST_CASE(
    "tickets: another organization's ticket is 404 on every route, and so are unknown and malformed ids") {
  auto t = std::make_unique<TestService>();
  Member a = NewOrgWithMember(*t, "admin");
  Member b = NewOrgWithMember(*t, "admin");
  const std::string id = S(Create(*t, a, "secret"), "id");
  for (const std::string& tid :
       {id, std::string("00000000-0000-7000-8000-00000000beef"), std::string("nope")}) {
    CAPTURE(tid);
    const Member& who = tid == id ? b : a;
    TestResponse r = t->Get("/v1/tickets/" + tid, who.headers());
    CHECK(r.status == 404);
    CHECK(S(r.json, "error") == "Ticket not found");
    CHECK(t->Patch("/v1/tickets/" + tid, json::object{{"title", "mine now"}}, who.headers()).status == 404);
    CHECK(Move(*t, who, tid, "done", 0).status == 404);
    CHECK(t->Delete("/v1/tickets/" + tid, who.headers()).status == 404);
  }
  // a's ticket is untouched, and a member of b naming a's organization is refused.
  TestResponse mine = t->Get("/v1/tickets/" + id, a.headers());
  CHECK(S(mine.json.at("ticket"), "title") == "secret");
  CHECK(S(mine.json.at("ticket"), "status") == "backlog");
  CHECK(t->Get("/v1/tickets", {{"Authorization", "Bearer " + b.token}, {"X-Service-Org", a.org_id}}).status ==
        403);
  CHECK(t->Get("/v1/tickets", {{"Authorization", "Bearer " + b.token}}).status == 400);
  CHECK(t->Get("/v1/tickets", {{"X-Service-Org", a.org_id}}).status == 401);
}

TEST_CASE("tickets: viewers read only, members, testers, managers and admins write") {
  auto t = std::make_unique<TestService>();
  Member admin = NewOrgWithMember(*t, "admin");
  const std::string id = S(Create(*t, admin, "shared"), "id");
  Member viewer = AddMemberWithRole(*t, admin.org_id, "viewer");
  CHECK(t->Get("/v1/tickets", viewer.headers()).status == 200);
  CHECK(t->Get("/v1/tickets/" + id, viewer.headers()).status == 200);
  CHECK(t->Post("/v1/tickets", NewTicketBody("no"), viewer.headers()).status == 403);
  CHECK(t->Patch("/v1/tickets/" + id, json::object{{"title", "no"}}, viewer.headers()).status == 403);
  CHECK(Move(*t, viewer, id, "done", 0).status == 403);
  CHECK(t->Delete("/v1/tickets/" + id, viewer.headers()).status == 403);
  for (const char* role : {"member", "tester", "manager"}) {
    CAPTURE(role);
    Member w = AddMemberWithRole(*t, admin.org_id, role);
    const std::string own = S(Create(*t, w, std::string("by ") + role), "id");
    CHECK(t->Patch("/v1/tickets/" + own, json::object{{"description", "edited"}}, w.headers()).status == 200);
    CHECK(Move(*t, w, own, "todo", 0).status == 200);
    CHECK(t->Delete("/v1/tickets/" + own, w.headers()).status == 200);
  }
  CHECK(Board(*t, viewer) == std::vector<std::string>{"backlog:shared"});
}

TEST_CASE("tickets: moves clamp, close the gap they leave and shift the column they enter") {
  auto t = std::make_unique<TestService>();
  Member m = NewOrgWithMember(*t, "member");
  std::map<std::string, std::string> id;
  for (const char* name : {"a", "b", "c", "d"}) id[name] = S(Create(*t, m, name), "id");
  for (const char* name : {"x", "y"}) id[name] = S(Create(*t, m, name, {{"status", "todo"}}), "id");

  // Down within a column.
  TestResponse r = Move(*t, m, id["a"], "backlog", 2);
  REQUIRE(r.status == 200);
  CHECK(S(r.json.at("ticket"), "status") == "backlog");
  CHECK(r.json.at("ticket").at("position").as_int64() == 2);
  CHECK(Board(*t, m) ==
        std::vector<std::string>{"backlog:b", "backlog:c", "backlog:a", "backlog:d", "todo:x", "todo:y"});
  // Across, between two.
  r = Move(*t, m, id["c"], "todo", 1);
  CHECK(r.json.at("ticket").at("position").as_int64() == 1);
  CHECK(Board(*t, m) ==
        std::vector<std::string>{"backlog:b", "backlog:a", "backlog:d", "todo:x", "todo:c", "todo:y"});
  // Beyond the end: clamped to n (the end of the target column).
  r = Move(*t, m, id["b"], "todo", 1000);
  CHECK(r.json.at("ticket").at("position").as_int64() == 3);
  // Beyond the end of its own column: n - 1.
  r = Move(*t, m, id["a"], "backlog", 1000);
  CHECK(r.json.at("ticket").at("position").as_int64() == 1);
  // Into an empty column at any position: 0.
  r = Move(*t, m, id["y"], "done", 5);
  CHECK(r.json.at("ticket").at("position").as_int64() == 0);
  // Up to the front.
  r = Move(*t, m, id["b"], "todo", 0);
  CHECK(Board(*t, m) ==
        std::vector<std::string>{"backlog:d", "backlog:a", "todo:b", "todo:x", "todo:c", "done:y"});
  // To its own place: nothing changes.
  r = Move(*t, m, id["x"], "todo", 1);
  CHECK(r.json.at("ticket").at("position").as_int64() == 1);
  CHECK(Board(*t, m) ==
        std::vector<std::string>{"backlog:d", "backlog:a", "todo:b", "todo:x", "todo:c", "done:y"});

  // PATCH status moves to the end of the new column and closes the gap.
  TestResponse p = t->Patch("/v1/tickets/" + id["b"], json::object{{"status", "done"}}, m.headers());
  REQUIRE(p.status == 200);
  CHECK(p.json.at("ticket").at("position").as_int64() == 1);
  CHECK(Board(*t, m) ==
        std::vector<std::string>{"backlog:d", "backlog:a", "todo:x", "todo:c", "done:y", "done:b"});
  // The same status: no move.
  p = t->Patch("/v1/tickets/" + id["d"], json::object{{"status", "backlog"}, {"title", "d2"}}, m.headers());
  CHECK(p.json.at("ticket").at("position").as_int64() == 0);
  // Deletion closes the gap; creation appends.
  CHECK(t->Delete("/v1/tickets/" + id["x"], m.headers()).status == 200);
  CHECK(S(Create(*t, m, "z", {{"status", "todo"}}), "position") == "1");
  CHECK(Board(*t, m) ==
        std::vector<std::string>{"backlog:d2", "backlog:a", "todo:c", "todo:z", "done:y", "done:b"});
}

TEST_CASE("tickets: concurrent moves from several threads leave every column 0..n-1") {
  auto t = std::make_unique<TestService>();
  Member m = NewOrgWithMember(*t, "admin");
  std::vector<std::string> ids;
  const char* statuses[] = {"backlog", "todo", "in_progress", "review", "done"};
  for (int i = 0; i < 20; ++i)
    ids.push_back(S(Create(*t, m, "t" + std::to_string(i), {{"status", statuses[i % 5]}}), "id"));
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int th = 0; th < 6; ++th) {
    threads.emplace_back([&, th] {
      std::mt19937 rng(static_cast<unsigned>(th) + 99u);
      for (int i = 0; i < 25; ++i) {
        const std::string& id = ids[rng() % ids.size()];
        TestResponse r = Move(*t, m, id, statuses[rng() % 5], static_cast<int64_t>(rng() % 8));
        if (r.status != 200) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures.load() == 0);
  CHECK(Board(*t, m).size() == ids.size());  // Board checks 0..n-1 per column
}

TEST_CASE("tickets: X-Agent-Token is refused in production, and in development without a valid token") {
  SUBCASE("production") {
    auto t = std::make_unique<TestService>([](Options& o) { o.production = true; });
    Member m = NewOrgWithMember(*t, "admin");
    const std::string id = S(Create(*t, m, "x"), "id");
    for (const std::string& token :
         {std::string("sv_pat_0123456789abcdef0123456789abcdef"), std::string("anything")}) {
      CHECK(t->Get("/v1/tickets", {{"X-Agent-Token", token}, {"X-Service-Org", m.org_id}}).status == 401);
      CHECK(
          t->Post("/v1/tickets", NewTicketBody("y"), {{"X-Agent-Token", token}, {"X-Service-Org", m.org_id}})
              .status == 401);
      // Beside a valid session too: the agent credential is refused without being looked at.
      HeaderList both = m.headers();
      both.emplace_back("X-Agent-Token", token);
      CHECK(t->Get("/v1/tickets/" + id, both).status == 401);
    }
  }
  SUBCASE("development: an unknown or malformed agent token is 401 and writes nothing") {
    auto t = std::make_unique<TestService>();
    Member m = NewOrgWithMember(*t, "admin");
    CHECK(t->Get("/v1/tickets",
                 {{"X-Agent-Token", "sv_pat_0123456789abcdef0123456789abcdef"}, {"X-Service-Org", m.org_id}})
              .status == 401);
    CHECK(t->Post("/v1/tickets", NewTicketBody("y"),
                  {{"X-Agent-Token", "sv_pat_x"}, {"X-Service-Org", m.org_id}})
              .status == 401);
    HeaderList both = m.headers();
    both.emplace_back("X-Agent-Token", "sv_pat_0123456789abcdef0123456789abcdef");
    CHECK(t->Get("/v1/tickets", both).status == 401);
    CHECK(Board(*t, m).empty());
  }
  SUBCASE("the development hook decides, production never asks it") {
    for (const bool production : {false, true}) {
      CAPTURE(production);
      auto t = std::make_unique<TestService>([production](Options& o) { o.production = production; });
      Member m = NewOrgWithMember(*t, "admin");
      Member viewer = AddMemberWithRole(*t, m.org_id, "viewer");
      int asked = 0;
      // The hook the agents issue will set: this token acts for the viewer.
      internal::ModulesOf(t->service())
          .Get<modules::TicketsModule>()
          .SetAgentTokenCheck(
              [&](const std::string& token, const std::string& org) -> Result<app::ConsoleActor> {
                ++asked;
                if (token != "sv_pat_good" || org != viewer.org_id) return Unauthenticated("no");
                return app::ConsoleActor{viewer.user_id, viewer.email, viewer.org_id, "viewer"};
              });
      HeaderList good = m.headers();
      good.emplace_back("X-Agent-Token", "sv_pat_good");
      HeaderList bad = m.headers();
      bad.emplace_back("X-Agent-Token", "sv_pat_bad");
      if (production) {
        CHECK(t->Get("/v1/tickets", good).status == 401);
        CHECK(asked == 0);
        continue;
      }
      CHECK(t->Get("/v1/tickets", good).status == 200);
      CHECK(t->Get("/v1/tickets", bad).status == 401);
      // The token acts with its member's role: a viewer's token cannot write.
      CHECK(t->Post("/v1/tickets", NewTicketBody("by agent"), good).status == 403);
      CHECK(asked == 3);
    }
  }
}

TEST_CASE(
    "tickets: a deleted bug unlinks, a removed member unassigns, a deleted organization takes its tickets") {
  auto t = std::make_unique<TestService>();
  CaptureSetup s = NewCaptureSetup(*t);
  const Member& admin = s.admin;
  Member member = AddMemberWithRole(*t, admin.org_id, "member");
  const std::string bug = NewBug(*t, s, "Gone soon");
  const std::string id =
      S(Create(*t, admin, "linked", {{"bugId", bug}, {"assigneeId", member.user_id}}), "id");

  REQUIRE(t->Delete("/v1/bugs/" + bug, admin.headers()).status == 200);
  TestResponse r = t->Get("/v1/tickets/" + id, admin.headers());
  CHECK(r.json.at("ticket").at("bugId").is_null());
  CHECK(S(r.json.at("ticket"), "assigneeId") == member.user_id);

  REQUIRE(t->Delete("/v1/team/" + member.user_id, admin.headers()).status == 200);
  r = t->Get("/v1/tickets/" + id, admin.headers());
  CHECK(r.json.at("ticket").at("assigneeId").is_null());

  Member other = NewOrgWithMember(*t, "admin");
  Create(*t, other, "kept");
  modules::Platform& core = internal::PlatformOf(t->service());
  Status st = core.tx->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(core.deletion.RunOrganizationDeleted(tx, admin.org_id));
    return core.Shared<ports::OrgRepository>()->Delete(tx, admin.org_id);
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM tickets WHERE org_id = ?", {admin.org_id}) ==
        0);  // internal state
  CHECK(Board(*t, other) == std::vector<std::string>{"backlog:kept"});
}

}  // namespace
}  // namespace service::testing
