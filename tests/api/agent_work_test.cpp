// Agent work: fenced claims (issue 29 item 4; Spec 2 "Agent work", server
// contract "Agent work") through the router on both backends: the claim's
// shape and lifecycle (claim, renew, release, complete, GET), generations
// and fencing tokens increasing per issue, expiry at the injected clock's
// time, stale leases, the command log (replay, conflict, refused commands
// not logged), strict bodies, scopes and grants, who may call at all,
// issues of other projects and organizations, the canonical issue after a
// merge, and threads racing for one issue (exactly one live holder, fences
// always increasing).
#include <doctest/doctest.h>

#include <atomic>
#include <boost/json.hpp>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/capture_fixture.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) {
  const json::value& x = v.at(key);
  return x.is_string() ? std::string(x.as_string()) : json::serialize(x);
}

std::atomic<int> g_command{1};

// A fresh UUID for a commandId.
std::string NewCommandId() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "0190f000-0000-7000-8000-%012d", g_command++);
  return buf;
}

// A pro organization (agent tokens need an agent-capable plan) with a
// project, a capture key and bugs made through capture.
struct AgentSetup {
  CaptureSetup s;
  std::string token;
  HeaderList agent;
};

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

// POST /v1/org/agent-pats as the organization's admin; returns the secret.
std::string NewToken(TestService& t, const Member& admin, const std::vector<std::string>& scopes,
                     const std::vector<std::string>& projects) {
  json::array sc;
  for (const auto& s : scopes) sc.emplace_back(s);
  json::array grants;
  for (const auto& p : projects) grants.push_back(json::object{{"projectId", p}});
  const std::string expires = util::FormatIso8601(t.clock().NowMillis() + 30LL * 86400 * 1000);
  TestResponse r = t.Post(
      "/v1/org/agent-pats",
      json::object{{"name", "agent"}, {"scopes", sc}, {"expiresAt", expires}, {"projectGrants", grants}},
      admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "token");
}

HeaderList AgentHeaders(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

AgentSetup NewAgentSetup(TestService& t, const std::vector<std::string>& scopes = {"claim_issue"}) {
  AgentSetup a;
  a.s = NewCaptureSetup(t, "pro");
  a.token = NewToken(t, a.s.admin, scopes, {a.s.project_id});
  a.agent = AgentHeaders(a.token);
  return a;
}

json::object ClaimBody(const AgentSetup& a, const std::string& issue,
                       const std::string& command = NewCommandId()) {
  return json::object{{"commandId", command}, {"projectId", a.s.project_id}, {"issueId", issue}};
}

// The lease fields of a claim answer, with a new commandId.
json::object LeaseBody(const json::value& claim, const std::string& command = NewCommandId()) {
  return json::object{{"commandId", command},
                      {"projectId", S(claim, "projectId")},
                      {"issueId", S(claim, "issueId")},
                      {"claimId", S(claim, "claimId")},
                      {"generation", S(claim, "generation")},
                      {"fencingToken", S(claim, "fencingToken")}};
}

std::string ErrCode(const TestResponse& r) {
  return r.json.is_object() && r.json.as_object().contains("code") ? S(r.json, "code") : "";
}

json::value ClaimOk(TestService& t, const AgentSetup& a, const std::string& issue, json::object extra = {}) {
  json::object body = ClaimBody(a, issue);
  for (const auto& [k, v] : extra) body[k] = v;
  TestResponse r = t.Post("/v1/agent-work/claims", body, a.agent);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json.at("claim");
}

std::string ClaimQuery(const AgentSetup& a, const std::string& issue) {
  return "/v1/agent-work/claims?projectId=" + a.s.project_id + "&issueId=" + issue;
}

}  // namespace

TEST_CASE("agent work: a claim is a fenced lease that is renewed, released, claimed again and completed") {
  TestService t;
  AgentSetup a = NewAgentSetup(t);
  const std::string bug = NewBug(t, a.s, "Checkout fails");
  const int64_t now = t.clock().NowMillis();

  TestResponse none = t.Get(ClaimQuery(a, bug), a.agent);
  CHECK(none.status == 404);
  CHECK(ErrCode(none) == "CLAIM_NOT_FOUND");

  const json::value c1 = ClaimOk(t, a, bug);
  CHECK(S(c1, "generation") == "1");
  CHECK(S(c1, "fencingToken") == "1");
  CHECK(S(c1, "projectId") == a.s.project_id);
  CHECK(S(c1, "issueId") == bug);
  CHECK(S(c1, "status") == "active");
  CHECK(S(c1, "expiresAt") == util::FormatIso8601(now + 300'000));
  CHECK(c1.as_object().size() == 7);

  TestResponse got = t.Get(ClaimQuery(a, bug), a.agent);
  REQUIRE(got.status == 200);
  CHECK(got.json.at("claim") == c1);

  // Held: another claim is refused.
  TestResponse held = t.Post("/v1/agent-work/claims", ClaimBody(a, bug), a.agent);
  CHECK(held.status == 409);
  CHECK(ErrCode(held) == "CLAIM_HELD");

  // Renew with a TTL: the expiry moves from now.
  t.clock().Advance(100'000);
  json::object renew = LeaseBody(c1);
  renew["ttlSeconds"] = 600;
  TestResponse renewed = t.Post("/v1/agent-work/claims/renew", renew, a.agent);
  REQUIRE_MESSAGE(renewed.status == 200, renewed.body);
  CHECK(S(renewed.json.at("claim"), "expiresAt") == util::FormatIso8601(t.clock().NowMillis() + 600'000));
  CHECK(S(renewed.json.at("claim"), "generation") == "1");
  // Without a TTL the claim's own (now 600) applies again.
  t.clock().Advance(1000);
  TestResponse again = t.Post("/v1/agent-work/claims/renew", LeaseBody(c1), a.agent);
  REQUIRE(again.status == 200);
  CHECK(S(again.json.at("claim"), "expiresAt") == util::FormatIso8601(t.clock().NowMillis() + 600'000));

  // Wrong generation or fencing token: stale.
  json::object wrong = LeaseBody(c1);
  wrong["fencingToken"] = "2";
  TestResponse stale = t.Post("/v1/agent-work/claims/renew", wrong, a.agent);
  CHECK(stale.status == 409);
  CHECK(ErrCode(stale) == "LEASE_STALE");
  wrong = LeaseBody(c1);
  wrong["generation"] = "9";
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/release", wrong, a.agent)) == "LEASE_STALE");

  TestResponse released = t.Post("/v1/agent-work/claims/release", LeaseBody(c1), a.agent);
  REQUIRE_MESSAGE(released.status == 200, released.body);
  CHECK(S(released.json.at("claim"), "status") == "released");
  CHECK(S(t.Get(ClaimQuery(a, bug), a.agent).json.at("claim"), "status") == "released");
  // A released lease is stale for every lease command.
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/renew", LeaseBody(c1), a.agent)) == "LEASE_STALE");
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/release", LeaseBody(c1), a.agent)) == "LEASE_STALE");
  json::object complete_old = LeaseBody(c1);
  complete_old["receiptId"] = "r-0";
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/complete", complete_old, a.agent)) == "LEASE_STALE");

  // The next claim of the issue: larger generation and fencing token.
  const json::value c2 = ClaimOk(t, a, bug, json::object{{"ttlSeconds", 60}});
  CHECK(S(c2, "generation") == "2");
  CHECK(S(c2, "fencingToken") == "2");
  CHECK(S(c2, "claimId") != S(c1, "claimId"));
  CHECK(S(c2, "expiresAt") == util::FormatIso8601(t.clock().NowMillis() + 60'000));

  json::object complete = LeaseBody(c2);
  complete["receiptId"] = "receipt-42";
  TestResponse done = t.Post("/v1/agent-work/claims/complete", complete, a.agent);
  REQUIRE_MESSAGE(done.status == 200, done.body);
  CHECK(S(done.json.at("claim"), "status") == "completed");
  CHECK(QueryText(t, "SELECT receipt_id FROM agent_claims WHERE id = ?", {S(c2, "claimId")}) == "receipt-42");
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/renew", LeaseBody(c2), a.agent)) == "LEASE_STALE");
  // Another issue has its own counters.
  const std::string other = NewBug(t, a.s, "Login fails");
  CHECK(S(ClaimOk(t, a, other), "generation") == "1");
  CHECK(S(ClaimOk(t, a, bug), "generation") == "3");
}

TEST_CASE("agent work: expiry is evaluated at each command's time") {
  TestService t;
  AgentSetup a = NewAgentSetup(t);
  const std::string bug = NewBug(t, a.s, "Cart empties");
  const json::value c1 = ClaimOk(t, a, bug, json::object{{"ttlSeconds", 60}});

  t.clock().Advance(59'999);
  CHECK(S(t.Get(ClaimQuery(a, bug), a.agent).json.at("claim"), "status") == "active");
  CHECK(t.Post("/v1/agent-work/claims", ClaimBody(a, bug), a.agent).status == 409);
  t.clock().Advance(1);
  CHECK(S(t.Get(ClaimQuery(a, bug), a.agent).json.at("claim"), "status") == "expired");
  // An expired lease cannot be renewed, released or completed.
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/renew", LeaseBody(c1), a.agent)) == "LEASE_STALE");
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/release", LeaseBody(c1), a.agent)) == "LEASE_STALE");
  // Anyone may claim it now; the old lease reads expired.
  const json::value c2 = ClaimOk(t, a, bug);
  CHECK(S(c2, "generation") == "2");
  CHECK(QueryText(t, "SELECT status FROM agent_claims WHERE id = ?", {S(c1, "claimId")}) == "expired");
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/renew", LeaseBody(c1), a.agent)) == "LEASE_STALE");
}

TEST_CASE(
    "agent work: a resent command answers its first answer and other input under its id is a conflict") {
  TestService t;
  AgentSetup a = NewAgentSetup(t);
  const std::string bug = NewBug(t, a.s, "Search hangs");
  const std::string other = NewBug(t, a.s, "Profile blank");
  const std::string command = NewCommandId();

  TestResponse first = t.Post("/v1/agent-work/claims", ClaimBody(a, bug, command), a.agent);
  REQUIRE_MESSAGE(first.status == 201, first.body);
  t.clock().Advance(5000);
  TestResponse replay = t.Post("/v1/agent-work/claims", ClaimBody(a, bug, command), a.agent);
  CHECK(replay.status == 200);
  CHECK(replay.Header("Idempotent-Replayed") == "true");
  CHECK(replay.json.at("claim") == first.json.at("claim"));
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_claims") == 1);

  // Other input under the same id: 409, whatever the route.
  TestResponse changed = t.Post("/v1/agent-work/claims", ClaimBody(a, other, command), a.agent);
  CHECK(changed.status == 409);
  CHECK(ErrCode(changed) == "COMMAND_CONFLICT");
  json::object ttl = ClaimBody(a, bug, command);
  ttl["ttlSeconds"] = 300;
  CHECK(ErrCode(t.Post("/v1/agent-work/claims", ttl, a.agent)) == "COMMAND_CONFLICT");
  CHECK(ErrCode(t.Post("/v1/agent-work/claims/release", LeaseBody(first.json.at("claim"), command),
                       a.agent)) == "COMMAND_CONFLICT");
  // Another token of the organization resending it: a conflict too.
  const std::string second = NewToken(t, a.s.admin, {"claim_issue"}, {a.s.project_id});
  CHECK(ErrCode(t.Post("/v1/agent-work/claims", ClaimBody(a, bug, command), AgentHeaders(second))) ==
        "COMMAND_CONFLICT");

  // A renewal resent later answers the first renewal (the expiry does not move).
  const std::string renew_id = NewCommandId();
  TestResponse r1 =
      t.Post("/v1/agent-work/claims/renew", LeaseBody(first.json.at("claim"), renew_id), a.agent);
  REQUIRE(r1.status == 200);
  t.clock().Advance(10'000);
  TestResponse r2 =
      t.Post("/v1/agent-work/claims/renew", LeaseBody(first.json.at("claim"), renew_id), a.agent);
  CHECK(r2.status == 200);
  CHECK(r2.json == r1.json);
  // A resent release after the release: the same answer, not LEASE_STALE.
  const std::string release_id = NewCommandId();
  TestResponse rel =
      t.Post("/v1/agent-work/claims/release", LeaseBody(first.json.at("claim"), release_id), a.agent);
  REQUIRE(rel.status == 200);
  TestResponse rel2 =
      t.Post("/v1/agent-work/claims/release", LeaseBody(first.json.at("claim"), release_id), a.agent);
  CHECK(rel2.status == 200);
  CHECK(rel2.json == rel.json);

  // A refused command is not logged: CLAIM_HELD now, the same command
  // succeeds once the issue is free.
  const json::value held_by = ClaimOk(t, a, other);
  const std::string later = NewCommandId();
  CHECK(ErrCode(t.Post("/v1/agent-work/claims", ClaimBody(a, other, later), a.agent)) == "CLAIM_HELD");
  REQUIRE(t.Post("/v1/agent-work/claims/release", LeaseBody(held_by), a.agent).status == 200);
  TestResponse now_free = t.Post("/v1/agent-work/claims", ClaimBody(a, other, later), a.agent);
  CHECK(now_free.status == 201);
}

TEST_CASE("agent work: bodies are strict JSON objects and queries are checked") {
  TestService t;
  AgentSetup a = NewAgentSetup(t);
  const std::string bug = NewBug(t, a.s, "Strict bodies");
  auto fields = [](const TestResponse& r) {
    std::vector<std::string> out;
    if (r.json.is_object() && r.json.as_object().contains("details")) {
      for (const auto& d : r.json.at("details").as_array()) out.push_back(S(d, "field"));
    }
    return out;
  };
  struct Row {
    const char* name;
    std::string path;
    std::string body;
    std::vector<std::string> fields;
  };
  const json::value c = ClaimOk(t, a, bug);
  json::object lease = LeaseBody(c);
  lease["extra"] = 1;
  json::object numeric = LeaseBody(c);
  numeric["generation"] = 1;
  json::object ttl = ClaimBody(a, bug);
  ttl["ttlSeconds"] = 30;
  json::object bad_uuid = ClaimBody(a, bug);
  bad_uuid["commandId"] = "not-a-uuid";
  const std::vector<Row> rows = {
      {"malformed JSON", "/v1/agent-work/claims", "{\"commandId\":", {"body"}},
      {"an array", "/v1/agent-work/claims", "[]", {"body"}},
      {"empty object", "/v1/agent-work/claims", "{}", {"commandId", "projectId", "issueId"}},
      {"bad UUID", "/v1/agent-work/claims", json::serialize(bad_uuid), {"commandId"}},
      {"TTL below 60", "/v1/agent-work/claims", json::serialize(ttl), {"ttlSeconds"}},
      {"unknown field", "/v1/agent-work/claims/renew", json::serialize(lease), {"extra"}},
      {"generation as a number", "/v1/agent-work/claims/release", json::serialize(numeric), {"generation"}},
      {"complete without receiptId",
       "/v1/agent-work/claims/complete",
       json::serialize(LeaseBody(c)),
       {"receiptId"}},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    TestResponse res = t.Request("POST", r.path, r.body, a.agent);
    CHECK(res.status == 400);
    CHECK(ErrCode(res) == "VALIDATION_ERROR");
    CHECK(S(res.json, "error") == "Validation failed");
    CHECK(fields(res) == r.fields);
  }
  TestResponse q = t.Get("/v1/agent-work/claims?projectId=" + a.s.project_id + "&issueId=x", a.agent);
  CHECK(q.status == 400);
  CHECK(ErrCode(q) == "VALIDATION_ERROR");
  CHECK(fields(q) == std::vector<std::string>{"issueId"});
  CHECK(fields(t.Get("/v1/agent-work/claims", a.agent)) == std::vector<std::string>{"projectId", "issueId"});
  // Nothing was claimed by the refused bodies.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_claims") == 1);
}

TEST_CASE("agent work: scopes, grants, issues of other projects and organizations, and who may call") {
  TestService t;
  AgentSetup a = NewAgentSetup(t);
  const std::string bug = NewBug(t, a.s, "Scoped");

  // No claim_issue scope: 403 SCOPE_REQUIRED on every command; GET also
  // takes request_evidence.
  const std::string reader = NewToken(t, a.s.admin, {"request_evidence"}, {a.s.project_id});
  TestResponse no_scope = t.Post("/v1/agent-work/claims", ClaimBody(a, bug), AgentHeaders(reader));
  CHECK(no_scope.status == 403);
  CHECK(ErrCode(no_scope) == "SCOPE_REQUIRED");
  CHECK(t.Get(ClaimQuery(a, bug), AgentHeaders(reader)).status == 404);  // allowed; no claim yet
  const std::string bugs_only = NewToken(t, a.s.admin, {"read_bugs"}, {a.s.project_id});
  CHECK(ErrCode(t.Get(ClaimQuery(a, bug), AgentHeaders(bugs_only))) == "SCOPE_REQUIRED");

  // No grant for the project: 403 PROJECT_GRANT_REQUIRED.
  const std::string other_project = CreateProjectVia(t, a.s.admin, "Other");
  const std::string ungranted = NewToken(t, a.s.admin, {"claim_issue"}, {other_project});
  TestResponse no_grant = t.Post("/v1/agent-work/claims", ClaimBody(a, bug), AgentHeaders(ungranted));
  CHECK(no_grant.status == 403);
  CHECK(ErrCode(no_grant) == "PROJECT_GRANT_REQUIRED");
  CHECK(ErrCode(t.Get(ClaimQuery(a, bug), AgentHeaders(ungranted))) == "PROJECT_GRANT_REQUIRED");

  // The issue must be a bug of that project: another project's (granted
  // too), another organization's, an unknown id: 404.
  const std::string both = NewToken(t, a.s.admin, {"claim_issue"}, {a.s.project_id, other_project});
  json::object cross = ClaimBody(a, bug);
  cross["projectId"] = other_project;
  TestResponse wrong_project = t.Post("/v1/agent-work/claims", cross, AgentHeaders(both));
  CHECK(wrong_project.status == 404);
  CHECK(ErrCode(wrong_project) == "ISSUE_NOT_FOUND");
  AgentSetup b = NewAgentSetup(t);
  const std::string foreign = NewBug(t, b.s, "Foreign");
  CHECK(t.Post("/v1/agent-work/claims", ClaimBody(a, foreign), a.agent).status == 404);
  CHECK(
      t.Post("/v1/agent-work/claims", ClaimBody(a, "0190f000-0000-7000-8000-00000000ffff"), a.agent).status ==
      404);
  // Another organization's project named with this token: no grant.
  json::object theirs = ClaimBody(a, foreign);
  theirs["projectId"] = b.s.project_id;
  CHECK(ErrCode(t.Post("/v1/agent-work/claims", theirs, a.agent)) == "PROJECT_GRANT_REQUIRED");

  // Console tokens and capture keys: 401 on every agent-work route.
  CHECK(t.Post("/v1/agent-work/claims", ClaimBody(a, bug), a.s.admin.headers()).status == 401);
  CHECK(t.Get(ClaimQuery(a, bug), a.s.admin.headers()).status == 401);
  CHECK(t.Post("/v1/agent-work/claims", ClaimBody(a, bug), KeyHeader(a.s.key)).status == 401);
  CHECK(t.Post("/v1/agent-work/claims", ClaimBody(a, bug)).status == 401);
  CHECK(
      t.Post("/v1/agent-work/claims", ClaimBody(a, bug), AgentHeaders("sv_pat_unknown0000000000000000000000"))
          .status == 401);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_claims") == 0);

  // A revoked token stops at once, its claims stay.
  const json::value c = ClaimOk(t, a, bug);
  const std::string token_id =
      QueryText(t, "SELECT token_id FROM agent_claims WHERE id = ?", {S(c, "claimId")});
  REQUIRE(t.Delete("/v1/org/agent-pats/" + token_id, a.s.admin.headers()).status == 200);
  CHECK(t.Post("/v1/agent-work/claims/renew", LeaseBody(c), a.agent).status == 401);
}

TEST_CASE("agent work: a merged-away issue resolves to its merge target") {
  TestService t;
  AgentSetup a = NewAgentSetup(t);
  const std::string source = NewBug(t, a.s, "Duplicate crash");
  const std::string target = NewBug(t, a.s, "Original crash");
  const json::value on_source = ClaimOk(t, a, source);

  TestResponse merged =
      t.Post("/v1/bugs/merge", json::object{{"sourceIds", json::array{source}}, {"targetId", target}},
             a.s.admin.headers());
  REQUIRE_MESSAGE(merged.status == 200, merged.body);

  // The lease on the merged-away issue is stale: its issue is now the target.
  TestResponse stale = t.Post("/v1/agent-work/claims/renew", LeaseBody(on_source), a.agent);
  CHECK(stale.status == 409);
  CHECK(ErrCode(stale) == "LEASE_STALE");
  // Naming the source claims the target.
  TestResponse got = t.Get(ClaimQuery(a, source), a.agent);
  CHECK(got.status == 404);
  CHECK(ErrCode(got) == "CLAIM_NOT_FOUND");
  const json::value c = ClaimOk(t, a, source);
  CHECK(S(c, "issueId") == target);
  CHECK(S(c, "generation") == "1");
  CHECK(S(t.Get(ClaimQuery(a, target), a.agent).json.at("claim"), "claimId") == S(c, "claimId"));
  CHECK(ErrCode(t.Post("/v1/agent-work/claims", ClaimBody(a, target), a.agent)) == "CLAIM_HELD");
  // Lease commands may name either id.
  json::object renew = LeaseBody(c);
  renew["issueId"] = source;
  CHECK(t.Post("/v1/agent-work/claims/renew", renew, a.agent).status == 200);

  // Merged again: the first source follows the chain.
  const std::string last = NewBug(t, a.s, "Newest crash");
  REQUIRE(t.Post("/v1/bugs/merge", json::object{{"sourceIds", json::array{target}}, {"targetId", last}},
                 a.s.admin.headers())
              .status == 200);
  CHECK(S(ClaimOk(t, a, source), "issueId") == last);
  // A deleted issue is gone: 404.
  REQUIRE(t.Delete("/v1/bugs/" + last, a.s.admin.headers()).status == 200);
  CHECK(ErrCode(t.Post("/v1/agent-work/claims", ClaimBody(a, source), a.agent)) == "ISSUE_NOT_FOUND");
}

TEST_CASE("agent work: threads racing for one issue get exactly one live holder and increasing fences") {
  TestService t;
  AgentSetup a = NewAgentSetup(t);
  const std::string bug = NewBug(t, a.s, "Contended");
  // Several tokens, as several agents would hold.
  std::vector<HeaderList> agents;
  for (int i = 0; i < 4; ++i)
    agents.push_back(AgentHeaders(NewToken(t, a.s.admin, {"claim_issue"}, {a.s.project_id})));

  // Round 1: everyone at once; exactly one wins.
  constexpr int kThreads = 12;
  {
    std::atomic<int> created{0}, held{0}, other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&, i] {
        TestResponse r =
            t.Post("/v1/agent-work/claims", ClaimBody(a, bug), agents[static_cast<size_t>(i) % 4]);
        if (r.status == 201) {
          ++created;
        } else if (r.status == 409 && ErrCode(r) == "CLAIM_HELD") {
          ++held;
        } else {
          ++other;
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(created.load() == 1);
    CHECK(held.load() == kThreads - 1);
    CHECK(other.load() == 0);
  }
  const json::value first = t.Get(ClaimQuery(a, bug), a.agent).json.at("claim");
  REQUIRE(t.Post("/v1/agent-work/claims/release", LeaseBody(first), a.agent).status == 200);

  // Then each thread claims, checks it alone holds, and completes, many
  // times over: grants are serial and fences increase.
  std::mutex mu;
  int holders = 0;
  int violations = 0;
  int64_t last_fence = 1;
  int grants = 0;
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const HeaderList& h = agents[static_cast<size_t>(i) % 4];
      for (int n = 0; n < 15; ++n) {
        TestResponse r = t.Post("/v1/agent-work/claims", ClaimBody(a, bug), h);
        if (r.status == 409 && ErrCode(r) == "CLAIM_HELD") continue;
        if (r.status != 201) {
          ++errors;
          continue;
        }
        const json::value c = r.json.at("claim");
        {
          std::lock_guard<std::mutex> lock(mu);
          const int64_t fence = std::stoll(S(c, "fencingToken"));
          if (++holders != 1 || fence <= last_fence) ++violations;
          last_fence = std::max(last_fence, fence);
          ++grants;
        }
        json::object done = LeaseBody(c);
        done["receiptId"] = "r";
        {
          std::lock_guard<std::mutex> lock(mu);
          --holders;  // before the command that ends it
        }
        if (t.Post("/v1/agent-work/claims/complete", done, h).status != 200) ++errors;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(errors.load() == 0);
  CHECK(violations == 0);
  CHECK(grants > 0);
  CHECK(last_fence == grants + 1);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_claims WHERE status = 'active'") == 0);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_claims") == grants + 1);
}

}  // namespace service::testing
