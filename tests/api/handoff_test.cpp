// The agent handoff (issue 29 item 3; Spec 2 "Agent handoff", "Agent
// notification row", "Agent settings", "States and transitions", "Events":
// agent_notify and agent_update): notify-agent's channels (agent and
// webhook integrations subscribed to agent_notify, code hosts reusing or
// opening the bug's issue, MCP listeners), the 60-second reuse on the
// injected clock, the no_channel row, live delivery outcomes, roles and
// organization scope; agent-status through its states; ack with the prUrl
// rules and agent_update once per new prUrl; agent settings with their
// validation and refusals (support sessions, agent tokens); auto-notify on
// capture at or above minSeverity, a failing channel never failing
// capture; the listen route's backlog, cursor and delivered rows.
// Receivers are real HTTP servers on loopback; signatures are checked with
// OpenSSL.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "areas/integrations/app/integrations.h"
#include "areas/integrations/module.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "support/hmac.h"
#include "support/stub_http_server.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

constexpr const char* kUnknownId = "00000000-0000-4000-8000-00000000abcd";

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::function<void(Options&)> AllowPrivate(std::function<void(Options&)> more = {}) {
  return [more](Options& o) {
    o.allow_private_destinations = true;
    if (more) more(o);
  };
}

int64_t Drain(TestService& t) {
  auto n = app::integrations::DrainDeliveries(
      internal::ModulesOf(t.service()).Get<service::modules::IntegrationsModule>().deps());
  REQUIRE_MESSAGE(n.ok(), n.status().ToString());
  return *n;
}

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title, json::object extra = {}) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

// An integration of `type` posting to `url` (agent, webhook, chat types);
// returns {id, signingSecret?}.
json::value AddIntegration(TestService& t, const CaptureSetup& s, const std::string& type,
                           const std::string& url, json::object extra = {}) {
  json::object body{{"projectId", s.project_id}, {"type", type}, {"config", json::object{{"url", url}}}};
  for (const auto& [k, v] : extra) body[k] = v;
  TestResponse r = t.Post("/v1/integrations", body, s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json;
}

std::string NewToken(TestService& t, const Member& admin, const std::vector<std::string>& scopes,
                     const std::vector<std::string>& projects, const std::string& name = "claude") {
  json::array sc;
  for (const auto& s : scopes) sc.emplace_back(s);
  json::array grants;
  for (const auto& p : projects) grants.push_back(json::object{{"projectId", p}});
  const std::string expires = util::FormatIso8601(t.clock().NowMillis() + 30LL * 86400 * 1000);
  TestResponse r =
      t.Post("/v1/org/agent-pats",
             json::object{{"name", name}, {"scopes", sc}, {"expiresAt", expires}, {"projectGrants", grants}},
             admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "token");
}

HeaderList AgentHeaders(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

std::string ErrCode(const TestResponse& r) {
  return r.json.is_object() && r.json.as_object().contains("code") ? S(r.json, "code") : "";
}

TestResponse Notify(TestService& t, const HeaderList& h, const std::string& bug) {
  return t.Post("/v1/bugs/" + bug + "/notify-agent", json::object{}, h);
}

json::value AgentStatusOf(TestService& t, const HeaderList& h, const std::string& bug) {
  TestResponse r = t.Get("/v1/bugs/" + bug + "/agent-status", h);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}

TestResponse Ack(TestService& t, const HeaderList& h, const std::string& bug, json::object body) {
  return t.Post("/v1/bugs/" + bug + "/ack", body, h);
}

TestResponse PutSettings(TestService& t, const HeaderList& h, const std::string& project,
                         const std::string& body) {
  HeaderList with = h;
  with.emplace_back("Content-Type", "application/json");
  return t.Request("PUT", "/v1/projects/" + project + "/agent-settings", body, with);
}

// The rows of a notify answer by channel ("" for null).
const json::object* RowOf(const json::value& answer, const std::string& channel) {
  for (const json::value& row : answer.at("notifications").as_array()) {
    const std::string c = row.at("channel").is_null() ? "" : S(row, "channel");
    if (c == channel) return &row.as_object();
  }
  return nullptr;
}

std::vector<RecordedRequest> OfEvent(const StubHttpServer& server, const std::string& event) {
  std::vector<RecordedRequest> out;
  for (const RecordedRequest& r : server.requests()) {
    if (r.Header("X-Service-Event") == event) out.push_back(r);
  }
  return out;
}

// t=<t>,v1=<hex>: the hex of the first v1.
std::string FirstV1(const std::string& header) {
  const size_t v = header.find("v1=");
  if (v == std::string::npos) return "";
  const size_t end = header.find(',', v);
  return header.substr(v + 3, end == std::string::npos ? std::string::npos : end - v - 3);
}
std::string SignedT(const std::string& header) {
  const size_t t = header.find("t=");
  if (t == std::string::npos) return "";
  return header.substr(t + 2, header.find(',', t) - t - 2);
}

TEST_CASE("handoff: no channel gives one no_channel row, a repeat within 60 s is reused, later a new batch") {
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string bug = NewBug(t, s, "Checkout fails");
  CHECK(S(AgentStatusOf(t, s.admin.headers(), bug), "state") == "none");
  CHECK_FALSE(AgentStatusOf(t, s.admin.headers(), bug).at("canConnect").as_bool());

  TestResponse first = Notify(t, s.admin.headers(), bug);
  REQUIRE_MESSAGE(first.status == 201, first.body);
  CHECK(S(first.json, "bugId") == bug);
  CHECK_FALSE(first.json.at("reused").as_bool());
  CHECK(first.json.at("noChannel").as_bool());
  const json::array& rows = first.json.at("notifications").as_array();
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("channel").is_null());
  CHECK(rows[0].at("channelName").is_null());
  CHECK(S(rows[0], "status") == "no_channel");
  CHECK(S(rows[0], "trigger") == "manual");
  CHECK(rows[0].at("deliveredAt").is_null());
  CHECK(S(AgentStatusOf(t, s.admin.headers(), bug), "state") == "no_channel");

  t.clock().Advance(59'000);
  TestResponse again = Notify(t, s.admin.headers(), bug);
  REQUIRE_MESSAGE(again.status == 200, again.body);
  CHECK(again.json.at("reused").as_bool());
  CHECK(S(again.json.at("notifications").as_array()[0], "id") == S(rows[0], "id"));

  t.clock().Advance(1'000);
  TestResponse later = Notify(t, s.admin.headers(), bug);
  REQUIRE_MESSAGE(later.status == 201, later.body);
  CHECK_FALSE(later.json.at("reused").as_bool());
  CHECK(S(later.json.at("notifications").as_array()[0], "id") != S(rows[0], "id"));
  const json::value status = AgentStatusOf(t, s.admin.headers(), bug);
  CHECK(status.at("history").as_array().size() == 2);
  CHECK(S(status.at("history").as_array()[0], "action") == "no_channel");
}

TEST_CASE(
    "handoff: every channel gets a row, linked deliveries show their live outcome, agent_notify is signed") {
  StubHttpServer receiver;
  receiver.SetResponse("/agent", CannedResponse{200, "{}"});
  receiver.SetResponse("/hook", CannedResponse{401, "{}"});
  receiver.SetResponse("/chat", CannedResponse{200, "{}"});
  StubHttpServer code;
  code.SetResponse(
      "/repos/acme/web/issues",
      CannedResponse{201, R"({"number": 7, "html_url": "https://code.example.com/acme/web/issues/7"})"});
  TestService t(AllowPrivate([&code](Options& o) { o.code_host_api_url = code.url(); }));
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const json::value agent =
      AddIntegration(t, s, "agent", receiver.url("/agent"), {{"name", "Claude routine"}});
  AddIntegration(t, s, "webhook", receiver.url("/hook"), {{"events", json::array{"agent_notify"}}});
  AddIntegration(t, s, "chat_a", receiver.url("/chat"));  // agent_update only: not a channel
  AddIntegration(t, s, "agent", receiver.url("/agent"),
                 {{"events", json::array{"new_bug"}}});  // not subscribed
  TestResponse host = t.Post("/v1/integrations",
                             json::object{{"projectId", s.project_id},
                                          {"type", "code_host"},
                                          {"name", "GitHub"},
                                          {"config", {{"repo", "acme/web"}, {"token", "ghp_token_1234"}}}},
                             s.admin.headers());
  REQUIRE_MESSAGE(host.status == 201, host.body);
  NewToken(t, s.admin, {"subscribe"}, {s.project_id});

  // The new bug's own deliveries (the code host opens its issue).
  const std::string bug = NewBug(t, s, "Login loop");
  Drain(t);
  REQUIRE(code.request_count() == 1);
  CHECK(AgentStatusOf(t, s.admin.headers(), bug).at("canConnect").as_bool());

  TestResponse r = Notify(t, s.admin.headers(), bug);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK_FALSE(r.json.at("noChannel").as_bool());
  CHECK(r.json.at("notifications").as_array().size() == 4);
  const json::object* a = RowOf(r.json, "agent");
  const json::object* w = RowOf(r.json, "webhook");
  const json::object* c = RowOf(r.json, "code_host");
  const json::object* m = RowOf(r.json, "mcp");
  REQUIRE(a != nullptr);
  REQUIRE(w != nullptr);
  REQUIRE(c != nullptr);
  REQUIRE(m != nullptr);
  CHECK(S(*a, "channelName") == "Claude routine");
  CHECK(S(*a, "status") == "queued");
  CHECK(S(*w, "status") == "queued");
  CHECK(S(*c, "channelName") == "GitHub");
  CHECK(S(*c, "status") == "delivered");  // the issue's delivery, reused: already sent
  CHECK(S(*m, "status") == "queued");
  CHECK(S(AgentStatusOf(t, s.admin.headers(), bug), "state") == "notified");

  Drain(t);
  // The code host was not asked again: its issue exists.
  CHECK(code.request_count() == 1);
  const std::vector<RecordedRequest> notified = OfEvent(receiver, "agent_notify");
  REQUIRE(notified.size() == 2);  // the agent (200) and the webhook (401)
  const RecordedRequest* to_agent = nullptr;
  for (const RecordedRequest& q : notified) {
    if (q.path == "/agent") to_agent = &q;
  }
  REQUIRE(to_agent != nullptr);
  CHECK(to_agent->Header("User-Agent") == "Service-AgentWebhook/1.0");
  const std::string sig = to_agent->Header("X-Service-Signature-256");
  CHECK(FirstV1(sig) == OpensslHmacSha256Hex(S(agent, "signingSecret"), SignedT(sig) + "." + to_agent->body));
  const json::value payload = json::parse(to_agent->body);
  CHECK(S(payload, "event") == "agent_notify");
  CHECK(S(payload, "trigger") == "manual");
  CHECK(S(payload, "bugId") == bug);
  CHECK(S(payload, "title") == "Login loop");
  CHECK(payload.at("evidence").as_object().contains("mcp"));

  // Live outcomes: the agent's delivery succeeded, the webhook's was refused.
  const json::value status = AgentStatusOf(t, s.admin.headers(), bug);
  const json::array& live = status.at("notified").at("channels").as_array();
  for (const json::value& row : live) {
    const std::string channel = S(row, "channel");
    if (channel == "agent") {
      CHECK(S(row, "status") == "delivered");
      CHECK_FALSE(row.at("deliveredAt").is_null());
    }
    if (channel == "webhook") {
      CHECK(S(row, "status") == "failed");
      CHECK(S(row, "detail") == "HTTP 401");
    }
  }
  // The reused answer shows the same live outcomes.
  TestResponse again = Notify(t, s.admin.headers(), bug);
  REQUIRE(again.status == 200);
  CHECK(S(*RowOf(again.json, "agent"), "status") == "delivered");
  CHECK(S(*RowOf(again.json, "webhook"), "status") == "failed");
}

TEST_CASE("handoff: a code host without the bug's issue gets one opened by agent_notify") {
  StubHttpServer code;
  code.SetResponse(
      "/repos/acme/web/issues",
      CannedResponse{201, R"({"number": 9, "html_url": "https://code.example.com/acme/web/issues/9"})"});
  TestService t(AllowPrivate([&code](Options& o) { o.code_host_api_url = code.url(); }));
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string bug = NewBug(t, s, "Cart empties");
  TestResponse host = t.Post("/v1/integrations",
                             json::object{{"projectId", s.project_id},
                                          {"type", "code_host"},
                                          {"config", {{"repo", "acme/web"}, {"token", "ghp_token_1234"}}}},
                             s.admin.headers());
  REQUIRE(host.status == 201);
  TestResponse r = Notify(t, s.admin.headers(), bug);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  REQUIRE(RowOf(r.json, "code_host") != nullptr);
  CHECK(S(*RowOf(r.json, "code_host"), "status") == "queued");
  Drain(t);
  REQUIRE(code.request_count() == 1);
  CHECK(code.requests()[0].path == "/repos/acme/web/issues");
  CHECK(json::parse(code.requests()[0].body).at("title") == "Cart empties");
  const json::value status = AgentStatusOf(t, s.admin.headers(), bug);
  CHECK(S(status.at("notified").at("channels").as_array()[0], "status") == "delivered");
  // A later handoff (after the window) links the issue its first one opened.
  t.clock().Advance(61'000);
  TestResponse later = Notify(t, s.admin.headers(), bug);
  REQUIRE(later.status == 201);
  CHECK(S(*RowOf(later.json, "code_host"), "status") == "delivered");
  Drain(t);
  CHECK(code.request_count() == 1);
}

TEST_CASE("handoff: notify-agent roles, agent tokens, another organization's bug") {
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string bug = NewBug(t, s, "Profile 500");
  const Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  const Member manager = AddMemberWithRole(t, s.admin.org_id, "manager");
  const Member viewer = AddMemberWithRole(t, s.admin.org_id, "viewer");
  const Member tester = AddMemberWithRole(t, s.admin.org_id, "tester");
  CHECK(Notify(t, viewer.headers(), bug).status == 403);
  CHECK(Notify(t, tester.headers(), bug).status == 403);
  CHECK(Notify(t, member.headers(), bug).status == 201);
  t.clock().Advance(61'000);
  CHECK(Notify(t, manager.headers(), bug).status == 201);
  const std::string token =
      NewToken(t, s.admin, {"subscribe", "claim_issue", "read_bugs", "create_bug", "get_repro_context"},
               {s.project_id});
  CHECK(Notify(t, AgentHeaders(token), bug).status == 403);
  CHECK(t.Post("/v1/bugs/" + bug + "/notify-agent", json::object{}).status == 401);

  const Member outsider = NewOrgWithMember(t, "admin", "pro");
  CHECK(Notify(t, outsider.headers(), bug).status == 404);
  CHECK(t.Get("/v1/bugs/" + bug + "/agent-status", outsider.headers()).status == 404);
  CHECK(Ack(t, outsider.headers(), bug, {{"action", "working"}}).status == 404);
  CHECK(Notify(t, s.admin.headers(), kUnknownId).status == 404);
  CHECK(Notify(t, s.admin.headers(), "not-a-uuid").status == 404);
  // Viewers and testers read the status.
  CHECK(t.Get("/v1/bugs/" + bug + "/agent-status", viewer.headers()).status == 200);
  CHECK(t.Get("/v1/bugs/" + bug + "/agent-status", tester.headers()).status == 200);
}

TEST_CASE("handoff: agent-status goes none, notified, working, pr_opened with its history") {
  StubHttpServer receiver;
  receiver.SetResponse("/agent", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  AddIntegration(t, s, "agent", receiver.url("/agent"));
  const std::string bug = NewBug(t, s, "Upload hangs");
  json::value st = AgentStatusOf(t, s.admin.headers(), bug);
  CHECK(S(st, "state") == "none");
  CHECK(st.at("notified").is_null());
  CHECK(st.at("pickedUp").is_null());
  CHECK(st.at("prOpened").is_null());
  CHECK(st.at("canConnect").as_bool());
  CHECK(st.at("history").as_array().empty());

  REQUIRE(Notify(t, s.admin.headers(), bug).status == 201);
  st = AgentStatusOf(t, s.admin.headers(), bug);
  CHECK(S(st, "state") == "notified");
  CHECK(S(st.at("notified"), "trigger") == "manual");
  CHECK(st.at("notified").at("channels").as_array().size() == 1);

  const std::string token = NewToken(t, s.admin, {"subscribe"}, {s.project_id}, "night-shift");
  t.clock().Advance(5'000);
  TestResponse w =
      Ack(t, AgentHeaders(token), bug, {{"action", "working"}, {"note", "looking at the upload"}});
  REQUIRE_MESSAGE(w.status == 200, w.body);
  CHECK(S(w.json, "state") == "working");
  CHECK(S(w.json.at("pickedUp"), "by") == "agent night-shift");
  CHECK(S(w.json.at("pickedUp"), "note") == "looking at the upload");
  CHECK(S(w.json.at("agentUpdate"), "action") == "working");

  t.clock().Advance(5'000);
  TestResponse pr = Ack(t, AgentHeaders(token), bug,
                        {{"action", "working"}, {"prUrl", "https://code.example.com/acme/web/pull/12"}});
  REQUIRE_MESSAGE(pr.status == 200, pr.body);
  st = AgentStatusOf(t, s.admin.headers(), bug);
  CHECK(S(st, "state") == "pr_opened");
  CHECK(S(st.at("prOpened"), "url") == "https://code.example.com/acme/web/pull/12");
  CHECK(S(st.at("pickedUp"), "by") == "agent night-shift");
  const json::array& history = st.at("history").as_array();
  REQUIRE(history.size() == 3);
  CHECK(S(history[0], "action") == "pr_opened");
  CHECK(S(history[0], "prUrl") == "https://code.example.com/acme/web/pull/12");
  CHECK(S(history[1], "action") == "working");
  CHECK(S(history[2], "action") == "notified");
  CHECK(history[2].at("channels") == json::array{"agent"});
  // Spec 1's bug fields carry the ack.
  TestResponse b = t.Get("/v1/bugs/" + bug, s.admin.headers());
  REQUIRE(b.status == 200);
  const json::value& bj = b.json.as_object().contains("bug") ? b.json.at("bug") : b.json;
  CHECK(S(bj, "agent_ack") == "working");
  CHECK(S(bj, "agent_ack_by") == "agent night-shift");
  CHECK(S(bj, "agent_pr_url") == "https://code.example.com/acme/web/pull/12");
}

TEST_CASE(
    "handoff: ack prUrl rules (400 PR_URL_INVALID) and agent_update once per new prUrl to human "
    "destinations") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  receiver.SetResponse("/chat", CannedResponse{200, "{}"});
  receiver.SetResponse("/agent", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const json::value hook = AddIntegration(t, s, "webhook", receiver.url("/hook"));
  AddIntegration(t, s, "chat_a", receiver.url("/chat"));
  // An agent destination subscribed to agent_update is the agents' own: left out.
  AddIntegration(t, s, "agent", receiver.url("/agent"), {{"events", json::array{"agent_update"}}});
  const std::string bug = NewBug(t, s, "Search empty");
  Drain(t);
  const size_t before = receiver.request_count();

  const std::string too_long = "https://code.example.com/" + std::string(2048, 'a');
  for (const json::value& bad :
       {json::value("http://code.example.com/pull/1"), json::value("https://user:pw@code.example.com/pull/1"),
        json::value("https://user@code.example.com/pull/1"), json::value("/pull/1"),
        json::value("code.example.com/pull/1"), json::value("https://"),
        json::value("https://code.example.com/pull 1"), json::value(too_long), json::value(42),
        json::value("")}) {
    TestResponse r = Ack(t, s.admin.headers(), bug, {{"action", "working"}, {"prUrl", bad}});
    CHECK_MESSAGE(r.status == 400, json::serialize(bad));
    CHECK_MESSAGE(ErrCode(r) == "PR_URL_INVALID", json::serialize(bad));
  }
  // 2048 characters exactly is allowed.
  const std::string longest = "https://code.example.com/" + std::string(2048 - 25, 'b');
  REQUIRE(longest.size() == 2048);
  CHECK(Ack(t, s.admin.headers(), bug, {{"prUrl", longest}}).status == 400);  // action is required
  CHECK(Ack(t, s.admin.headers(), bug, {{"action", "done"}}).status == 400);
  CHECK(Ack(t, s.admin.headers(), bug, {{"action", "working"}, {"colour", "red"}}).status == 400);
  Drain(t);
  CHECK(receiver.request_count() == before);  // nothing sent for refused acks

  // First working ack: one agent_update (webhook and chat), not to the agent destination.
  TestResponse first = Ack(t, s.admin.headers(), bug, {{"action", "working"}});
  REQUIRE_MESSAGE(first.status == 200, first.body);
  CHECK(first.json.at("agentUpdate").at("deliveries") == 2);
  Drain(t);
  std::vector<RecordedRequest> updates = OfEvent(receiver, "agent_update");
  REQUIRE(updates.size() == 2);
  for (const RecordedRequest& u : updates) CHECK(u.path != "/agent");
  for (const RecordedRequest& u : updates) {
    if (u.path != "/hook") continue;
    const json::value p = json::parse(u.body);
    CHECK(S(p, "agentAction") == "working");
    CHECK(S(p, "agentActor") == s.admin.email);
    CHECK_FALSE(p.as_object().contains("prUrl"));
    const std::string sig = u.Header("X-Service-Signature-256");
    CHECK(FirstV1(sig) == OpensslHmacSha256Hex(S(hook, "signingSecret"), SignedT(sig) + "." + u.body));
  }
  // A repeated working ack sends nothing.
  TestResponse repeat = Ack(t, s.admin.headers(), bug, {{"action", "working"}});
  REQUIRE(repeat.status == 200);
  CHECK(repeat.json.at("agentUpdate").is_null());
  // A prUrl: one agent_update pr_opened per destination; the same prUrl again: none; a new one: again.
  const std::string pr1 = "https://code.example.com/acme/web/pull/1";
  TestResponse opened = Ack(t, s.admin.headers(), bug, {{"action", "working"}, {"prUrl", pr1}});
  REQUIRE(opened.status == 200);
  CHECK(S(opened.json.at("agentUpdate"), "action") == "pr_opened");
  CHECK(Ack(t, s.admin.headers(), bug, {{"action", "working"}, {"prUrl", pr1}})
            .json.at("agentUpdate")
            .is_null());
  CHECK(Ack(t, s.admin.headers(), bug, {{"action", "working"}, {"prUrl", longest}}).status == 200);
  Drain(t);
  updates = OfEvent(receiver, "agent_update");
  REQUIRE(updates.size() == 6);  // working, pr1, longest: two destinations each
  int pr1_seen = 0, longest_seen = 0;
  for (const RecordedRequest& u : updates) {
    if (u.path != "/hook") continue;
    const json::value p = json::parse(u.body);
    if (p.as_object().contains("prUrl") && S(p, "prUrl") == pr1) {
      ++pr1_seen;
      CHECK(S(p, "agentAction") == "pr_opened");
    }
    if (p.as_object().contains("prUrl") && S(p, "prUrl") == longest) ++longest_seen;
  }
  CHECK(pr1_seen == 1);
  CHECK(longest_seen == 1);
}

TEST_CASE("handoff: who may ack: agent scopes and grants, member roles") {
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string bug = NewBug(t, s, "Avatar broken");
  const std::string other_project = CreateProjectVia(t, s.admin, "Other");
  const std::string claimer = NewToken(t, s.admin, {"claim_issue"}, {s.project_id});
  const std::string reader = NewToken(t, s.admin, {"read_bugs"}, {s.project_id});
  const std::string ungranted = NewToken(t, s.admin, {"subscribe"}, {other_project});
  TestResponse r = Ack(t, AgentHeaders(reader), bug, {{"action", "working"}});
  CHECK(r.status == 403);
  CHECK(ErrCode(r) == "SCOPE_REQUIRED");
  r = Ack(t, AgentHeaders(ungranted), bug, {{"action", "working"}});
  CHECK(r.status == 403);
  CHECK(ErrCode(r) == "PROJECT_GRANT_REQUIRED");
  CHECK(Ack(t, AgentHeaders(claimer), bug, {{"action", "working"}}).status == 200);
  const Member viewer = AddMemberWithRole(t, s.admin.org_id, "viewer");
  const Member tester = AddMemberWithRole(t, s.admin.org_id, "tester");
  const Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  CHECK(Ack(t, viewer.headers(), bug, {{"action", "working"}}).status == 403);
  CHECK(Ack(t, tester.headers(), bug, {{"action", "working"}}).status == 403);
  CHECK(Ack(t, member.headers(), bug, {{"action", "working"}}).status == 200);
  CHECK(Ack(t, {}, bug, {{"action", "working"}}).status == 401);
}

TEST_CASE("agent settings: defaults, validation, roles, support sessions and agent tokens refused") {
  const std::string dir = FreshTempDir("handoff-support");
  auto t = NewAccountsService([&](Options& o) {
    WithFileMail(dir)(o);
    o.superadmin_emails = {"root-handoff@example.com"};
  });
  const Account root = RegisterAccount(*t, "root-handoff@example.com", "Operators");
  const Account owner = RegisterAccount(*t, "owner-handoff@customer.example", "Customer Handoff");
  const HeaderList own = BearerOrg(owner.access_token, owner.org_id);
  const std::string path = "/v1/projects/" + owner.project_id + "/agent-settings";

  TestResponse got = t->Get(path, own);
  REQUIRE_MESSAGE(got.status == 200, got.body);
  CHECK(got.json.at("settings") ==
        json::value{{"projectId", owner.project_id}, {"autoNotify", false}, {"minSeverity", "high"}});

  for (const std::string& bad :
       {std::string("{}"), std::string(R"({"autoNotify":"yes"})"), std::string(R"({"minSeverity":"urgent"})"),
        std::string(R"({"minSeverity":null})"), std::string(R"({"autoNotify":true,"colour":"red"})"),
        std::string("[1]"), std::string("{not json")}) {
    TestResponse r = PutSettings(*t, own, owner.project_id, bad);
    CHECK_MESSAGE(r.status == 400, bad);
  }
  TestResponse put = PutSettings(*t, own, owner.project_id, R"({"autoNotify":true})");
  REQUIRE_MESSAGE(put.status == 200, put.body);
  CHECK(put.json.at("settings") ==
        json::value{{"projectId", owner.project_id}, {"autoNotify", true}, {"minSeverity", "high"}});
  put = PutSettings(*t, own, owner.project_id, R"({"minSeverity":"medium"})");
  REQUIRE(put.status == 200);
  CHECK(put.json.at("settings").at("autoNotify") == true);
  CHECK(put.json.at("settings").at("minSeverity") == "medium");
  CHECK(t->Get(path, own).json.at("settings").at("minSeverity") == "medium");

  // Another organization's project: 404.
  CHECK(
      PutSettings(*t, BearerOrg(root.access_token, root.org_id), owner.project_id, R"({"autoNotify":false})")
          .status == 404);
  CHECK(t->Get(path, BearerOrg(root.access_token, root.org_id)).status == 404);
  CHECK(t->Get("/v1/projects/" + std::string(kUnknownId) + "/agent-settings", own).status == 404);

  // A support session reads but may not change them.
  std::string token;
  for (int i = 0; i < 300 && token.empty(); ++i) {
    token = TokenAfter(LastQueuedMailText(*t, root.email), "/verify-email#token=");
    for (const std::string& mail : ReadMailDir(dir)) {
      if (token.empty() && mail.find(root.email) != std::string::npos)
        token = TokenAfter(mail, "/verify-email#token=");
    }
    if (token.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(!token.empty());
  REQUIRE(t->Post("/v1/auth/verify-email", json::object{{"token", token}}).status == 200);
  TestResponse started =
      t->Post("/v1/admin/support/session", json::object{{"orgId", owner.org_id}}, Bearer(root.access_token));
  REQUIRE_MESSAGE(started.status == 201, started.body);
  HeaderList under = BearerOrg(root.access_token, owner.org_id);
  under.emplace_back("X-Service-Support-Session", S(started.json.at("session"), "id"));
  CHECK(t->Get(path, under).status == 200);
  CHECK(PutSettings(*t, under, owner.project_id, R"({"autoNotify":false})").status == 403);
  CHECK(t->Get(path, own).json.at("settings").at("autoNotify") == true);
}

TEST_CASE("agent settings: members read, only admins and managers write, agent tokens refused") {
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string path = "/v1/projects/" + s.project_id + "/agent-settings";
  const Member manager = AddMemberWithRole(t, s.admin.org_id, "manager");
  const Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  const Member viewer = AddMemberWithRole(t, s.admin.org_id, "viewer");
  CHECK(t.Get(path, viewer.headers()).status == 200);
  CHECK(t.Get(path, member.headers()).status == 200);
  CHECK(PutSettings(t, member.headers(), s.project_id, R"({"autoNotify":true})").status == 403);
  CHECK(PutSettings(t, viewer.headers(), s.project_id, R"({"autoNotify":true})").status == 403);
  CHECK(PutSettings(t, manager.headers(), s.project_id, R"({"autoNotify":true})").status == 200);
  const std::string token = NewToken(t, s.admin, {"subscribe", "read_bugs"}, {s.project_id});
  CHECK(t.Get(path, AgentHeaders(token)).status == 403);
  CHECK(PutSettings(t, AgentHeaders(token), s.project_id, R"({"autoNotify":false})").status == 403);
  CHECK(t.Get(path).status == 401);
}

TEST_CASE("auto-notify: new issues and regressions at or above minSeverity are handed over, trigger auto") {
  StubHttpServer receiver;
  receiver.SetResponse("/agent", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  AddIntegration(t, s, "agent", receiver.url("/agent"), {{"events", json::array{"agent_notify"}}});
  // Off by default.
  const std::string quiet = NewBug(t, s, "Before enabling", {{"severity", "critical"}});
  CHECK(S(AgentStatusOf(t, s.admin.headers(), quiet), "state") == "none");
  REQUIRE(
      PutSettings(t, s.admin.headers(), s.project_id, R"({"autoNotify":true,"minSeverity":"high"})").status ==
      200);
  const std::string critical = NewBug(t, s, "Payments down", {{"severity", "critical"}});
  const std::string high = NewBug(t, s, "Slow checkout", {{"severity", "high"}});
  const std::string low = NewBug(t, s, "Typo in footer", {{"severity", "low"}});
  json::value st = AgentStatusOf(t, s.admin.headers(), critical);
  CHECK(S(st, "state") == "notified");
  CHECK(S(st.at("notified"), "trigger") == "auto");
  CHECK(S(AgentStatusOf(t, s.admin.headers(), high), "state") == "notified");
  CHECK(S(AgentStatusOf(t, s.admin.headers(), low), "state") == "none");
  Drain(t);
  std::vector<RecordedRequest> got = OfEvent(receiver, "agent_notify");
  REQUIRE(got.size() == 2);
  CHECK(S(json::parse(got[0].body), "trigger") == "auto");
  // A duplicate report is neither new nor a regression.
  NewBug(t, s, "Payments down", {{"severity", "critical"}});
  // A regression: resolved, then reported again (after the reuse window).
  REQUIRE(t.Patch("/v1/bugs/" + critical, {{"status", "resolved"}}, s.admin.headers()).status == 200);
  t.clock().Advance(61'000);
  NewBug(t, s, "Payments down", {{"severity", "critical"}});
  st = AgentStatusOf(t, s.admin.headers(), critical);
  CHECK(st.at("history").as_array().size() == 2);
  Drain(t);
  CHECK(OfEvent(receiver, "agent_notify").size() == 3);
  // Turned off: nothing more.
  REQUIRE(PutSettings(t, s.admin.headers(), s.project_id, R"({"autoNotify":false})").status == 200);
  const std::string after = NewBug(t, s, "After disabling", {{"severity", "critical"}});
  CHECK(S(AgentStatusOf(t, s.admin.headers(), after), "state") == "none");
}

TEST_CASE("auto-notify: a failing channel never fails capture, a failure is recorded as a failed row") {
  StubHttpServer receiver;
  receiver.SetResponse("/agent", CannedResponse{403, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  AddIntegration(t, s, "agent", receiver.url("/agent"), {{"events", json::array{"agent_notify"}}});
  REQUIRE(
      PutSettings(t, s.admin.headers(), s.project_id, R"({"autoNotify":true,"minSeverity":"low"})").status ==
      200);
  // The destination refuses: the row takes its delivery's outcome.
  const std::string refused = NewBug(t, s, "Refused by the agent", {{"severity", "high"}});
  Drain(t);
  json::value st = AgentStatusOf(t, s.admin.headers(), refused);
  REQUIRE(st.at("notified").at("channels").as_array().size() == 1);
  CHECK(S(st.at("notified").at("channels").as_array()[0], "status") == "failed");

  // The handoff's writes fail (every new delivery event is refused by the
  // database): capture still answers 201, the report is kept, and one
  // failed row says so.
  // internal state: only a refusing table makes the handoff's own writes fail.
  const bool sqlite = t.database_url().rfind("sqlite", 0) == 0;
  if (sqlite) {
    ExecSql(t,
            "CREATE TRIGGER handoff_test_refuse BEFORE INSERT ON delivery_events "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
  } else {
    ExecSql(t,
            "ALTER TABLE delivery_events ADD CONSTRAINT handoff_test_refuse CHECK (event_id = '') NOT VALID");
  }
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report("Written anyway", "boom", {{"severity", "critical"}}));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const std::string bug = S(r.json, "id");
  ExecSql(t, sqlite ? "DROP TRIGGER handoff_test_refuse"
                    : "ALTER TABLE delivery_events DROP CONSTRAINT handoff_test_refuse");
  st = AgentStatusOf(t, s.admin.headers(), bug);
  CHECK(S(st, "state") == "notified");
  const json::array& rows = st.at("notified").at("channels").as_array();
  REQUIRE(rows.size() == 1);
  CHECK(S(rows[0], "status") == "failed");
  CHECK(rows[0].at("channel").is_null());
  CHECK(S(rows[0], "trigger") == "auto");
  CHECK(t.Get("/v1/bugs/" + bug, s.admin.headers()).status == 200);
}

TEST_CASE(
    "listen: queued MCP handoffs of the last 24 hours, then rows after the cursor, returned rows delivered") {
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string listener = NewToken(t, s.admin, {"subscribe"}, {s.project_id});
  const HeaderList agent = AgentHeaders(listener);
  const std::string path = "/v1/projects/" + s.project_id + "/agent-notifications";

  const std::string old_bug = NewBug(t, s, "Old handoff", {{"severity", "high"}});
  TestResponse old = Notify(t, s.admin.headers(), old_bug);
  REQUIRE(old.status == 201);
  REQUIRE(RowOf(old.json, "mcp") != nullptr);
  CHECK(S(*RowOf(old.json, "mcp"), "status") == "queued");
  t.clock().Advance(25LL * 3600 * 1000);  // beyond the backlog window
  RenewToken(t, s.admin);
  const std::string b1 = NewBug(t, s, "First handoff", {{"severity", "critical"}});
  const std::string b2 = NewBug(t, s, "Second handoff", {{"severity", "low"}});
  REQUIRE(Notify(t, s.admin.headers(), b1).status == 201);
  t.clock().Advance(1000);
  REQUIRE(Notify(t, s.admin.headers(), b2).status == 201);

  TestResponse first = t.Get(path, agent);
  REQUIRE_MESSAGE(first.status == 200, first.body);
  const json::array& rows = first.json.at("notifications").as_array();
  REQUIRE(rows.size() == 2);
  CHECK(S(rows[0], "bugId") == b1);
  CHECK(S(rows[0], "title") == "First handoff");
  CHECK(S(rows[0], "severity") == "critical");
  CHECK(S(rows[0], "trigger") == "manual");
  CHECK(S(rows[1], "bugId") == b2);
  const std::string cursor = S(first.json, "cursor");
  CHECK_FALSE(cursor.empty());
  // Collected: delivered now, and not in the backlog any more.
  json::value st = AgentStatusOf(t, s.admin.headers(), b1);
  CHECK(S(st.at("notified").at("channels").as_array()[0], "status") == "delivered");
  CHECK(t.Get(path, agent).json.at("notifications").as_array().empty());

  // With the cursor: only what was created after it.
  TestResponse none = t.Get(path + "?after=" + cursor, agent);
  REQUIRE(none.status == 200);
  CHECK(none.json.at("notifications").as_array().empty());
  CHECK(S(none.json, "cursor") == cursor);
  const std::string b3 = NewBug(t, s, "Third handoff");
  REQUIRE(Notify(t, s.admin.headers(), b3).status == 201);
  TestResponse next = t.Get(path + "?after=" + cursor, agent);
  REQUIRE(next.status == 200);
  REQUIRE(next.json.at("notifications").as_array().size() == 1);
  CHECK(S(next.json.at("notifications").as_array()[0], "bugId") == b3);
  CHECK(S(next.json, "cursor") != cursor);
  CHECK(S(AgentStatusOf(t, s.admin.headers(), b3).at("notified").at("channels").as_array()[0], "status") ==
        "delivered");
  // A member may listen too.
  CHECK(t.Get(path + "?after=" + cursor, s.admin.headers()).json.at("notifications").as_array().size() == 1);

  CHECK(t.Get(path + "?after=not-a-cursor", agent).status == 400);
  // Scope and grant.
  const std::string other_project = CreateProjectVia(t, s.admin, "Other");
  TestResponse r = t.Get(path, AgentHeaders(NewToken(t, s.admin, {"read_bugs"}, {s.project_id})));
  CHECK(r.status == 403);
  CHECK(ErrCode(r) == "SCOPE_REQUIRED");
  r = t.Get(path, AgentHeaders(NewToken(t, s.admin, {"subscribe"}, {other_project})));
  CHECK(r.status == 403);
  CHECK(ErrCode(r) == "PROJECT_GRANT_REQUIRED");
  const Member outsider = NewOrgWithMember(t, "admin", "pro");
  CHECK(t.Get(path, outsider.headers()).status == 404);
}

TEST_CASE("handoff: an MCP channel needs a live subscribe token with a grant for the project") {
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string other_project = CreateProjectVia(t, s.admin, "Other");
  NewToken(t, s.admin, {"read_bugs", "claim_issue"}, {s.project_id});  // no subscribe
  NewToken(t, s.admin, {"subscribe"}, {other_project});                // another project
  const std::string bug = NewBug(t, s, "Nobody listens");
  TestResponse r = Notify(t, s.admin.headers(), bug);
  REQUIRE(r.status == 201);
  CHECK(r.json.at("noChannel").as_bool());
  CHECK_FALSE(AgentStatusOf(t, s.admin.headers(), bug).at("canConnect").as_bool());
}

}  // namespace
}  // namespace service::testing
