// POST /v1/mcp (server-contract "MCP"; issue 29 item 5): the Model Context
// Protocol's Streamable HTTP transport for agent tokens, in-process through
// the router: initialize with version negotiation, tools/list with the
// input schemas, each tool's happy path, a refusal per missing scope and
// grant (a tool result with isError carrying the HTTP route's code), the
// metered events read, the JSON-RPC errors and the transport's answers.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "areas/operations/module.h"
#include "ports/transaction.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "util/crypto.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

constexpr int64_t kDayMs = 86'400'000;

// A fresh UUID for a claim command.
std::string NewCommandId() {
  static int n = 0;
  char buf[48];
  std::snprintf(buf, sizeof buf, "0190cccc-0000-7000-8000-%012d", ++n);
  return buf;
}

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// POST /v1/org/agent-pats as `admin`: a token with `scopes` and grants for
// `projects`; REQUIREs 201 and returns the secret.
std::string NewToken(TestService& t, const Member& admin, const std::vector<std::string>& scopes,
                     const std::vector<std::string>& projects) {
  json::array s;
  for (const auto& x : scopes) s.emplace_back(x);
  json::array grants;
  for (const auto& p : projects) grants.push_back(json::object{{"projectId", p}});
  TestResponse r =
      t.Post("/v1/org/agent-pats",
             json::object{{"name", "mcp test"},
                          {"scopes", std::move(s)},
                          {"expiresAt", util::FormatIso8601(t.clock().NowMillis() + 30 * kDayMs)},
                          {"projectGrants", std::move(grants)}},
             admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "token");
}

TestResponse PostMcp(TestService& t, const std::string& token, const std::string& body,
                     HeaderList extra = {}) {
  HeaderList h;
  auto add_default = [&](const std::string& name, const std::string& value) {
    for (const auto& kv : extra)
      if (kv.first == name) return;  // the test's own value instead
    h.emplace_back(name, value);
  };
  add_default("Content-Type", "application/json");
  add_default("Accept", "application/json, text/event-stream");
  if (!token.empty()) h.emplace_back("Authorization", "Bearer " + token);
  for (auto& kv : extra) h.push_back(std::move(kv));
  return t.Request("POST", "/v1/mcp", body, h);
}

// One JSON-RPC request; REQUIREs HTTP 200 and returns the response message.
json::value Rpc(TestService& t, const std::string& token, const std::string& method,
                const json::value& params = json::object{}) {
  static int next_id = 1;
  const int id = next_id++;
  TestResponse r = PostMcp(
      t, token,
      json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.Header("Content-Type").find("application/json") == 0);
  CHECK(r.json.at("jsonrpc") == "2.0");
  CHECK(r.json.at("id") == id);
  return r.json;
}

// tools/call; returns the result object (REQUIREs no JSON-RPC error).
json::value Call(TestService& t, const std::string& token, const std::string& tool, json::object args) {
  json::value m = Rpc(t, token, "tools/call", json::object{{"name", tool}, {"arguments", std::move(args)}});
  REQUIRE_MESSAGE(m.as_object().contains("result"), json::serialize(m));
  return m.at("result");
}

// The JSON in a tool result's text content.
json::value ToolText(const json::value& result) {
  const json::array& content = result.at("content").as_array();
  REQUIRE(content.size() == 1);
  CHECK(S(content[0], "type") == "text");
  return json::parse(content[0].at("text").as_string());
}

// A successful tool call's answer (its structured content, which equals its text).
json::value Ok(const json::value& result) {
  REQUIRE_MESSAGE(result.at("isError") == false, json::serialize(result));
  CHECK(result.at("structuredContent") == ToolText(result));
  return result.at("structuredContent");
}

// A refused tool call: its error body (isError and the HTTP code).
json::value Refused(const json::value& result, int status, const std::string& code = "") {
  REQUIRE_MESSAGE(result.at("isError") == true, json::serialize(result));
  json::value body = ToolText(result);
  CHECK_MESSAGE(body.at("status") == status, json::serialize(body));
  if (!code.empty()) CHECK_MESSAGE(S(body, "code") == code, json::serialize(body));
  CHECK(body.at("error").is_string());
  return body;
}

// The JSON-RPC error of a tools/call.
int RpcErrorCode(TestService& t, const std::string& token, const std::string& method,
                 const json::value& params) {
  json::value m = Rpc(t, token, method, params);
  REQUIRE_MESSAGE(m.as_object().contains("error"), json::serialize(m));
  CHECK(m.at("error").at("message").is_string());
  return static_cast<int>(m.at("error").at("code").as_int64());
}

const std::vector<std::string> kAllScopes = {
    "read_bugs",  "claim_issue",       "request_evidence", "submit_verification", "read_verification",
    "create_bug", "get_repro_context", "publish_symbols",  "suggest_fix",         "subscribe"};

struct Fixture {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  std::string other_project = CreateProjectVia(t, s.admin, "Other");
  std::string bug;        // in s.project_id
  std::string other_bug;  // in other_project
  std::string token;      // every scope, granted s.project_id only

  Fixture() {
    TestResponse r = Ingest(
        t, s.key,
        Report("Checkout crashed", "x is undefined", {{"userId", "customer-7"}, {"sessionId", "sess-1"}}));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    bug = S(r.json, "id");
    const std::string other_key = CreateKeyVia(t, s.admin, other_project);
    r = Ingest(t, other_key, Report("Other project crashed"));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    other_bug = S(r.json, "id");
    token = NewToken(t, s.admin, kAllScopes, {s.project_id});
  }
};

}  // namespace

TEST_CASE("mcp: initialize negotiates the protocol version and names the server and its tools capability") {
  Fixture f;
  for (const char* v : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    json::value m = Rpc(f.t, f.token, "initialize",
                        json::object{{"protocolVersion", v},
                                     {"capabilities", json::object{}},
                                     {"clientInfo", json::object{{"name", "test"}, {"version", "1"}}}});
    const json::value& r = m.at("result");
    CHECK(S(r, "protocolVersion") == v);
    CHECK(r.at("capabilities").at("tools").is_object());
    CHECK(S(r.at("serverInfo"), "name") == "service");
    CHECK(r.at("serverInfo").at("version").is_string());
  }
  // A version this server does not speak: its latest, the client decides.
  json::value m = Rpc(f.t, f.token, "initialize", json::object{{"protocolVersion", "1999-01-01"}});
  CHECK(S(m.at("result"), "protocolVersion") == "2025-11-25");
  // Stateless: no session id.
  TestResponse r = PostMcp(
      f.t, f.token,
      R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18"}})");
  CHECK(r.status == 200);
  CHECK(r.Header("Mcp-Session-Id").empty());
  CHECK(r.json.at("id") == "a");
  CHECK(RpcErrorCode(f.t, f.token, "initialize", json::object{}) == -32602);

  // notifications/initialized (and any notification or client response): 202, no body.
  r = PostMcp(f.t, f.token, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  CHECK(r.status == 202);
  CHECK(r.body.empty());
  r = PostMcp(f.t, f.token, R"({"jsonrpc":"2.0","id":7,"result":{}})");
  CHECK(r.status == 202);
  CHECK(Rpc(f.t, f.token, "ping").at("result") == json::object{});
}

TEST_CASE("mcp: tools/list shows the ten tools with strict input schemas") {
  Fixture f;
  json::value m = Rpc(f.t, f.token, "tools/list");
  const json::array& tools = m.at("result").at("tools").as_array();
  std::vector<std::string> names;
  for (const json::value& tool : tools) {
    names.push_back(S(tool, "name"));
    CHECK(tool.at("description").is_string());
    const json::value& schema = tool.at("inputSchema");
    CHECK(S(schema, "type") == "object");
    CHECK(schema.at("additionalProperties") == false);
    CHECK(schema.at("properties").is_object());
  }
  CHECK(names == std::vector<std::string>{"list_bugs", "search_bugs", "get_bug", "claim_issue", "renew_claim",
                                          "release_claim", "complete_claim", "listen_handoffs", "ack_bug",
                                          "list_evidence"});
  auto schema = [&](const std::string& name) -> const json::value& {
    for (const json::value& tool : tools)
      if (S(tool, "name") == name) return tool.at("inputSchema");
    FAIL("no tool " << name);
    return tools[0];
  };
  auto required = [&](const std::string& name) {
    std::set<std::string> out;
    if (const json::value* r = schema(name).as_object().if_contains("required"))
      for (const json::value& v : r->as_array()) out.insert(std::string(v.as_string()));
    return out;
  };
  CHECK(required("get_bug") == std::set<std::string>{"bugId"});
  CHECK(S(schema("get_bug").at("properties").at("bugId"), "format") == "uuid");
  CHECK(required("list_bugs").empty());
  CHECK(required("search_bugs") == std::set<std::string>{"q"});
  CHECK(required("claim_issue") == std::set<std::string>{"commandId", "projectId", "issueId"});
  CHECK(schema("claim_issue").at("properties").at("ttlSeconds").at("minimum") == 60);
  CHECK(schema("claim_issue").at("properties").at("ttlSeconds").at("maximum") == 900);
  CHECK(required("renew_claim") ==
        std::set<std::string>{"commandId", "projectId", "issueId", "claimId", "generation", "fencingToken"});
  CHECK(required("complete_claim") == std::set<std::string>{"commandId", "projectId", "issueId", "claimId",
                                                            "generation", "fencingToken", "receiptId"});
  CHECK(required("listen_handoffs") == std::set<std::string>{"projectId"});
  CHECK(required("ack_bug") == std::set<std::string>{"bugId", "action"});
  CHECK(required("list_evidence") == std::set<std::string>{"projectId", "occurrenceId"});
}

TEST_CASE("mcp: the read tools list, search and get a bug with its repro context on granted projects only") {
  Fixture f;
  // list_bugs: the granted project, named or implied by the only grant.
  json::value list = Ok(Call(f.t, f.token, "list_bugs", {{"projectId", f.s.project_id}}));
  REQUIRE(list.at("bugs").as_array().size() == 1);
  CHECK(S(list.at("bugs").at(0), "id") == f.bug);
  CHECK(list.at("total") == 1);
  list = Ok(Call(f.t, f.token, "list_bugs", {{"status", "new"}, {"limit", 5}}));
  CHECK(list.at("total") == 1);
  CHECK(list.at("limit") == 5);
  list = Ok(Call(f.t, f.token, "list_bugs", {{"status", "resolved"}}));
  CHECK(list.at("total") == 0);

  // search_bugs
  json::value found = Ok(Call(f.t, f.token, "search_bugs", {{"q", "checkout crashed"}}));
  REQUIRE(found.at("groups").as_array().size() == 1);
  CHECK(S(found.at("groups").at(0), "sampleBugId") == f.bug);

  // get_bug: the bug, its events, occurrences and end users.
  json::value got = Ok(Call(f.t, f.token, "get_bug", {{"bugId", f.bug}}));
  CHECK(S(got.at("bug"), "id") == f.bug);
  CHECK(S(got.at("bug"), "title") == "Checkout crashed");
  CHECK(S(got.at("bug"), "project_id") == f.s.project_id);
  REQUIRE(got.at("events").as_array().size() == 1);
  CHECK(S(got.at("events").at(0), "event_type") == "error");
  CHECK(S(got.at("events").at(0).at("data"), "message") == "x is undefined");
  REQUIRE(got.at("occurrences").as_array().size() == 1);
  CHECK(S(got.at("occurrences").at(0), "bug_id") == f.bug);
  CHECK(got.at("occurrenceTotal") == 1);
  REQUIRE(got.at("users").as_array().size() == 1);
  CHECK(S(got.at("users").at(0), "endUserId") == "customer-7");
  CHECK(got.at("metered") == false);  // pro: never charged

  // Another project's bug reads as absent; another project's list needs its grant.
  Refused(Call(f.t, f.token, "get_bug", {{"bugId", f.other_bug}}), 404);
  Refused(Call(f.t, f.token, "list_bugs", {{"projectId", f.other_project}}), 403, "PROJECT_GRANT_REQUIRED");
  Refused(Call(f.t, f.token, "search_bugs", {{"q", "crashed"}, {"projectId", f.other_project}}), 403,
          "PROJECT_GRANT_REQUIRED");
  // A bug of another organization reads as absent too.
  CaptureSetup other = NewCaptureSetup(f.t, "pro");
  TestResponse r = Ingest(f.t, other.key, Report("Someone else's crash"));
  REQUIRE(r.status == 201);
  Refused(Call(f.t, f.token, "get_bug", {{"bugId", S(r.json, "id")}}), 404);

  // Two grants: list_bugs must name its project.
  const std::string both = NewToken(f.t, f.s.admin, {"read_bugs"}, {f.s.project_id, f.other_project});
  Refused(Call(f.t, both, "list_bugs", {}), 400, "VALIDATION_ERROR");
  list = Ok(Call(f.t, both, "list_bugs", {{"projectId", f.other_project}}));
  CHECK(S(list.at("bugs").at(0), "id") == f.other_bug);
  got = Ok(Call(f.t, both, "get_bug", {{"bugId", f.other_bug}, {"eventLimit", 1}}));
  CHECK(S(got.at("bug"), "id") == f.other_bug);
}

TEST_CASE("mcp: each tool refuses a token without its scope, and a project without a grant") {
  Fixture f;
  const std::string none = NewToken(f.t, f.s.admin, {"create_bug"}, {f.s.project_id});
  const std::string uuid = "0190aaaa-0000-7000-8000-000000000001";
  Refused(Call(f.t, none, "list_bugs", {}), 403, "SCOPE_REQUIRED");
  Refused(Call(f.t, none, "search_bugs", {{"q", "checkout"}}), 403, "SCOPE_REQUIRED");
  Refused(Call(f.t, none, "get_bug", {{"bugId", f.bug}}), 403, "SCOPE_REQUIRED");
  Refused(Call(f.t, none, "list_evidence", {{"projectId", f.s.project_id}, {"occurrenceId", uuid}}), 403,
          "SCOPE_REQUIRED");
  // A granted scope on a project without a grant.
  Refused(Call(f.t, f.token, "list_evidence", {{"projectId", f.other_project}, {"occurrenceId", uuid}}), 403,
          "PROJECT_GRANT_REQUIRED");
  // This service has no evidence storage (SERVICE_EVIDENCE_DIR unset).
  Refused(Call(f.t, f.token, "list_evidence", {{"projectId", f.s.project_id}, {"occurrenceId", uuid}}), 503,
          "storage_unavailable");
}

TEST_CASE("mcp: the claim tools take, renew, release and complete fenced leases as the claim routes do") {
  Fixture f;
  auto command = [&](json::object extra = {}) {
    json::object o{{"commandId", NewCommandId()}, {"projectId", f.s.project_id}, {"issueId", f.bug}};
    for (auto& kv : extra) o[kv.key()] = kv.value();
    return o;
  };
  auto lease = [](const json::value& claim) {
    return json::object{{"claimId", claim.at("claimId")},
                        {"generation", claim.at("generation")},
                        {"fencingToken", claim.at("fencingToken")}};
  };
  json::object first_command = command({{"ttlSeconds", 120}});
  json::value first = Ok(Call(f.t, f.token, "claim_issue", first_command));
  const json::value claim = first.at("claim");
  CHECK(S(claim, "status") == "active");
  CHECK(S(claim, "issueId") == f.bug);
  CHECK(first.at("replayed") == false);
  // The same command again: its first answer, replayed.
  json::value replay = Ok(Call(f.t, f.token, "claim_issue", first_command));
  CHECK(replay.at("replayed") == true);
  CHECK(replay.at("claim").at("claimId") == claim.at("claimId"));
  // Other input under the same commandId; another claim while it is held.
  json::object changed = first_command;
  changed["ttlSeconds"] = 300;
  Refused(Call(f.t, f.token, "claim_issue", changed), 409, "COMMAND_CONFLICT");
  Refused(Call(f.t, f.token, "claim_issue", command()), 409, "CLAIM_HELD");

  json::object renew = command(lease(claim));
  renew["ttlSeconds"] = 600;
  CHECK(S(Ok(Call(f.t, f.token, "renew_claim", renew)).at("claim"), "status") == "active");
  CHECK(S(Ok(Call(f.t, f.token, "release_claim", command(lease(claim)))).at("claim"), "status") ==
        "released");
  Refused(Call(f.t, f.token, "renew_claim", command(lease(claim))), 409, "LEASE_STALE");

  const json::value second = Ok(Call(f.t, f.token, "claim_issue", command())).at("claim");
  CHECK(std::stoll(S(second, "fencingToken")) > std::stoll(S(claim, "fencingToken")));
  json::object complete = command(lease(second));
  complete["receiptId"] = "pr-42";
  CHECK(S(Ok(Call(f.t, f.token, "complete_claim", complete)).at("claim"), "status") == "completed");

  // Scope and grant, as on the routes.
  const std::string reader = NewToken(f.t, f.s.admin, {"read_bugs"}, {f.s.project_id});
  Refused(Call(f.t, reader, "claim_issue", command()), 403, "SCOPE_REQUIRED");
  Refused(Call(f.t, reader, "renew_claim", command(lease(second))), 403, "SCOPE_REQUIRED");
  Refused(Call(f.t, reader, "release_claim", command(lease(second))), 403, "SCOPE_REQUIRED");
  complete["commandId"] = NewCommandId();
  Refused(Call(f.t, reader, "complete_claim", complete), 403, "SCOPE_REQUIRED");
  Refused(
      Call(f.t, f.token, "claim_issue", command({{"projectId", f.other_project}, {"issueId", f.other_bug}})),
      403, "PROJECT_GRANT_REQUIRED");
}

TEST_CASE("mcp: listen_handoffs collects handed bugs and ack_bug reports progress") {
  Fixture f;
  TestResponse r = f.t.Post("/v1/bugs/" + f.bug + "/notify-agent", json::object{}, f.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  json::value heard = Ok(Call(f.t, f.token, "listen_handoffs", {{"projectId", f.s.project_id}}));
  REQUIRE(heard.at("notifications").as_array().size() == 1);
  CHECK(S(heard.at("notifications").at(0), "bugId") == f.bug);
  CHECK(S(heard.at("notifications").at(0), "title") == "Checkout crashed");
  // Collected rows are delivered: the cursor brings nothing new, nor does a fresh listen.
  json::value again = Ok(
      Call(f.t, f.token, "listen_handoffs", {{"projectId", f.s.project_id}, {"after", heard.at("cursor")}}));
  CHECK(again.at("notifications").as_array().empty());
  CHECK(Ok(Call(f.t, f.token, "listen_handoffs", {{"projectId", f.s.project_id}}))
            .at("notifications")
            .as_array()
            .empty());

  json::value working = Ok(Call(f.t, f.token, "ack_bug", {{"bugId", f.bug}, {"action", "working"}}));
  CHECK(S(working, "state") == "working");
  CHECK(working.at("pickedUp").is_object());
  json::value pr =
      Ok(Call(f.t, f.token, "ack_bug",
              {{"bugId", f.bug}, {"action", "working"}, {"prUrl", "https://code.example/pull/7"}}));
  CHECK(S(pr, "state") == "pr_opened");
  CHECK(S(pr.at("prOpened"), "url") == "https://code.example/pull/7");
  Refused(Call(f.t, f.token, "ack_bug", {{"bugId", f.bug}, {"action", "working"}, {"prUrl", "ftp://x/y"}}),
          400, "PR_URL_INVALID");
  // The people see it on the bug.
  r = f.t.Get("/v1/bugs/" + f.bug + "/agent-status", f.s.admin.headers());
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "state") == "pr_opened");

  // Scopes and grants.
  const std::string reader = NewToken(f.t, f.s.admin, {"read_bugs"}, {f.s.project_id});
  Refused(Call(f.t, reader, "listen_handoffs", {{"projectId", f.s.project_id}}), 403, "SCOPE_REQUIRED");
  Refused(Call(f.t, reader, "ack_bug", {{"bugId", f.bug}, {"action", "working"}}), 403, "SCOPE_REQUIRED");
  Refused(Call(f.t, f.token, "listen_handoffs", {{"projectId", f.other_project}}), 403,
          "PROJECT_GRANT_REQUIRED");
  Refused(Call(f.t, f.token, "ack_bug", {{"bugId", f.other_bug}, {"action", "working"}}), 403,
          "PROJECT_GRANT_REQUIRED");
}

TEST_CASE("mcp: get_bug's events read is metered on plans without agent access") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "free");
  // Two prepaid credits: one metered read.
  const auto& ops = internal::ModulesOf(t.service()).Get<modules::OperationsModule>().deps();
  REQUIRE(ops.db
              ->Write([&](ports::Tx& tx) -> Status {
                SV_RETURN_IF_ERROR(ops.billing->Ensure(tx, s.admin.org_id, t.clock().NowMillis()));
                return ops.billing
                    ->Append(tx, ports::LedgerEntry{"0190bbbb-0000-7000-8000-000000000001", s.admin.org_id,
                                                    "pack_purchase", "prepaid", 2, 0, std::nullopt,
                                                    t.clock().NowMillis()})
                    .status();
              })
              .ok());
  TestResponse r = Ingest(t, s.key, Report("Metered crash"));
  REQUIRE(r.status == 201);
  const std::string bug = S(r.json, "id");
  const std::string token = NewToken(t, s.admin, {"read_bugs"}, {s.project_id});

  json::value got = Ok(Call(t, token, "get_bug", {{"bugId", bug}}));
  CHECK(got.at("metered") == true);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM credit_ledger WHERE org_id = ? AND kind = 'metered_read'",
                 {s.admin.org_id}) == 1);
  // Nothing left: 402 credits_exhausted, nothing returned.
  json::value body =
      Refused(Call(t, token, "get_bug", {{"bugId", bug}, {"eventLimit", 5}}), 402, "credits_exhausted");
  CHECK_FALSE(body.as_object().contains("bug"));
  // An events read of at most 1 is free.
  got = Ok(Call(t, token, "get_bug", {{"bugId", bug}, {"eventLimit", 1}}));
  CHECK(got.at("metered") == false);
  CHECK(got.at("events").as_array().size() == 1);
  // list_bugs is never metered.
  Ok(Call(t, token, "list_bugs", {}));
}

TEST_CASE("mcp: JSON-RPC errors: parse, invalid request, unknown method, unknown tool, malformed arguments") {
  Fixture f;
  TestResponse r = PostMcp(f.t, f.token, "{not json");
  CHECK(r.status == 400);
  CHECK(r.json.at("error").at("code") == -32700);
  CHECK(r.json.at("id").is_null());
  r = PostMcp(f.t, f.token, R"({"jsonrpc":"1.0","id":1,"method":"ping"})");
  CHECK(r.status == 400);
  CHECK(r.json.at("error").at("code") == -32600);
  CHECK(r.json.at("id") == 1);
  r = PostMcp(f.t, f.token, R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  CHECK(r.status == 400);
  CHECK(r.json.at("error").at("code") == -32600);
  r = PostMcp(f.t, f.token, R"({"jsonrpc":"2.0","id":2,"method":"ping","params":"x"})");
  CHECK(r.json.at("error").at("code") == -32600);

  CHECK(RpcErrorCode(f.t, f.token, "resources/list", json::object{}) == -32601);
  CHECK(RpcErrorCode(f.t, f.token, "tools/call", json::object{{"name", "drop_tables"}}) == -32602);
  CHECK(RpcErrorCode(f.t, f.token, "tools/call", json::object{}) == -32602);
  auto bad_args = [&](const std::string& tool, json::value args) {
    return RpcErrorCode(f.t, f.token, "tools/call",
                        json::object{{"name", tool}, {"arguments", std::move(args)}});
  };
  CHECK(bad_args("get_bug", json::object{}) == -32602);                            // required
  CHECK(bad_args("get_bug", json::object{{"bugId", "not-a-uuid"}}) == -32602);     // format
  CHECK(bad_args("get_bug", json::object{{"bugId", f.bug}, {"x", 1}}) == -32602);  // unknown member
  CHECK(bad_args("get_bug", json::object{{"bugId", f.bug}, {"eventLimit", 0}}) == -32602);
  CHECK(bad_args("list_bugs", json::object{{"limit", "10"}}) == -32602);     // type
  CHECK(bad_args("list_bugs", json::object{{"status", "open"}}) == -32602);  // enum
  CHECK(bad_args("claim_issue", json::object{{"commandId", "0190aaaa-0000-7000-8000-000000000001"},
                                             {"projectId", f.s.project_id},
                                             {"issueId", f.bug},
                                             {"ttlSeconds", 30}}) == -32602);
  CHECK(bad_args("renew_claim", json::object{{"commandId", "0190aaaa-0000-7000-8000-000000000001"},
                                             {"projectId", f.s.project_id},
                                             {"issueId", f.bug},
                                             {"claimId", f.bug},
                                             {"generation", 1},
                                             {"fencingToken", "1"}}) == -32602);
  CHECK(bad_args("get_bug", json::array{}) == -32602);

  // A batch: each request answered, notifications not, invalid members with id null.
  r = PostMcp(
      f.t, f.token,
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},)"
      R"({"jsonrpc":"2.0","id":2,"method":"nope"},42])");
  REQUIRE(r.status == 200);
  const json::array& answers = r.json.as_array();
  REQUIRE(answers.size() == 3);
  CHECK(answers[0].at("id") == 1);
  CHECK(answers[0].at("result") == json::object{});
  CHECK(answers[1].at("error").at("code") == -32601);
  CHECK(answers[2].at("id").is_null());
  CHECK(answers[2].at("error").at("code") == -32600);
  r = PostMcp(f.t, f.token, R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])");
  CHECK(r.status == 202);
  r = PostMcp(f.t, f.token, "[]");
  CHECK(r.status == 400);
  CHECK(r.json.at("error").at("code") == -32600);
}

TEST_CASE("mcp: the transport: agent tokens only, 405 on GET, Accept, Content-Type and protocol header") {
  Fixture f;
  const std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  CHECK(PostMcp(f.t, "", ping).status == 401);
  CHECK(PostMcp(f.t, "sv_pat_not-a-real-token-0123456789abcdef", ping).status == 401);
  // A person's access token and a capture key are not agent tokens.
  CHECK(PostMcp(f.t, f.s.admin.token, ping, {{"X-Service-Org", f.s.admin.org_id}}).status == 401);
  TestResponse r = f.t.Request("POST", "/v1/mcp", ping,
                               {{"Content-Type", "application/json"}, {"X-Service-Key", f.s.key}});
  CHECK(r.status == 401);

  r = f.t.Get("/v1/mcp", {{"Authorization", "Bearer " + f.token}, {"Accept", "text/event-stream"}});
  CHECK(r.status == 405);
  CHECK(r.Header("Allow") == "POST");
  CHECK(f.t.Delete("/v1/mcp", {{"Authorization", "Bearer " + f.token}}).status == 405);

  CHECK(PostMcp(f.t, f.token, ping, {{"Accept", "text/html"}}).status == 406);
  {
    // (The harness adds its own Content-Type: this request is built by hand.)
    api::Request req;
    req.method = "POST";
    req.path = "/v1/mcp";
    req.body = ping;
    req.remote_addr = "127.0.0.1";
    req.headers.Add("Authorization", "Bearer " + f.token);
    req.headers.Add("Content-Type", "text/plain");
    CHECK(f.t.service().Handle(req).status == 415);
  }
  r = PostMcp(f.t, f.token, ping, {{"MCP-Protocol-Version", "2000-01-01"}});
  CHECK(r.status == 400);
  CHECK(r.json.at("error").at("code") == -32600);
  r = PostMcp(f.t, f.token, ping, {{"MCP-Protocol-Version", "2025-06-18"}});
  CHECK(r.status == 200);
  // Without Accept or Content-Type: JSON all the same.
  r = f.t.Request("POST", "/v1/mcp", ping, {{"Authorization", "Bearer " + f.token}});
  CHECK(r.status == 200);
  CHECK(r.json.at("result") == json::object{});
}

TEST_CASE("mcp: list_evidence answers an occurrence's artifacts as the evidence listing does") {
  const std::string dir = FreshTempDir("mcp-evidence");
  TestService t([&](Options& o) { o.evidence_dir = dir; });
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string token = NewToken(t, s.admin, kAllScopes, {s.project_id});
  const std::string bytes = "console: TypeError x is undefined\n";
  TestResponse r = t.Post("/v1/evidence/projects/" + s.project_id + "/artifacts",
                          json::object{{"kind", "log"},
                                       {"contentType", "text/plain"},
                                       {"byteCount", bytes.size()},
                                       {"sha256", util::Sha256Hex(bytes)}},
                          s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const std::string artifact = S(r.json.at("artifact"), "id");
  r = t.Request("PUT", "/v1/evidence/projects/" + s.project_id + "/artifacts/" + artifact + "/content", bytes,
                s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  r = Ingest(t, s.key,
             Report("Checkout crashed", "x is undefined",
                    json::object{{"metadata", json::object{{"evidence", json::array{artifact}}}}}));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const std::string occurrence = S(r.json, "occurrenceId");

  json::value list =
      Ok(Call(t, token, "list_evidence", {{"projectId", s.project_id}, {"occurrenceId", occurrence}}));
  CHECK(list.at("total") == 1);
  CHECK(list.at("limit") == 20);
  CHECK(list.at("offset") == 0);
  REQUIRE(list.at("artifacts").as_array().size() == 1);
  CHECK(S(list.at("artifacts").at(0), "id") == artifact);
  CHECK(S(list.at("artifacts").at(0), "state") == "ready");
  CHECK(S(list.at("artifacts").at(0), "sha256") == util::Sha256Hex(bytes));
  list = Ok(Call(t, token, "list_evidence",
                 {{"projectId", s.project_id}, {"occurrenceId", occurrence}, {"limit", 1}, {"offset", 1}}));
  CHECK(list.at("total") == 1);
  CHECK(list.at("artifacts").as_array().empty());
  // A missing occurrence: 404, as the route answers.
  Refused(Call(t, token, "list_evidence",
               {{"projectId", s.project_id}, {"occurrenceId", "0190aaaa-0000-7000-8000-0000000000ff"}}),
          404);
  const std::string no_scope = NewToken(t, s.admin, {"read_bugs"}, {s.project_id});
  Refused(Call(t, no_scope, "list_evidence", {{"projectId", s.project_id}, {"occurrenceId", occurrence}}),
          403, "SCOPE_REQUIRED");
}

}  // namespace service::testing
