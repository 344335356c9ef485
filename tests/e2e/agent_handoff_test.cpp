// The agent handoff from the real binary (issue 29 "Done when": the
// outbound agent_* events reach a real local receiver signed), on both
// backends: a bug handed over with notify-agent reaches an agent
// destination as agent_notify (trigger manual), auto-notify sends
// agent_notify (trigger auto) for a new high bug, and an ack with a prUrl
// reaches a webhook as agent_update; every signature is verified with
// OpenSSL against the secret the service showed once.
#include <doctest/doctest.h>
#include <httplib.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "e2e_client.h"
#include "server_process.h"

namespace service::e2e {
namespace {

namespace json = boost::json;

json::value Call(int port, const Workspace& w, const std::string& method, const std::string& path,
                 const json::object& body, int expect) {
  httplib::Client c("127.0.0.1", port);
  httplib::Result r = method == "PUT" ? c.Put(path, w.auth(), json::serialize(body), "application/json")
                                      : c.Post(path, w.auth(), json::serialize(body), "application/json");
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == expect, r->body);
  return json::parse(r->body);
}

// An integration; returns its signing secret.
std::string AddIntegration(int port, const Workspace& w, const std::string& type, const std::string& url,
                           const json::array& events) {
  const json::value v = Call(port, w, "POST", "/v1/integrations",
                             json::object{{"projectId", w.project},
                                          {"type", type},
                                          {"config", json::object{{"url", url}}},
                                          {"events", events}},
                             201);
  return std::string(v.at("signingSecret").as_string());
}

std::string Text(const json::value& v, const char* key) {
  const json::value* f = v.is_object() ? v.as_object().if_contains(key) : nullptr;
  return f != nullptr && f->is_string() ? std::string(f->as_string()) : "";
}

const std::vector<std::string> kEnv = {"SERVICE_RATE_LIMITS=off", "SERVICE_ALLOW_PRIVATE_DESTINATIONS=1",
                                       "SERVICE_JWT_SECRET=handoff-e2e-secret-0123456789abcdef012"};

}  // namespace

TEST_CASE("agent_notify and agent_update reach a real receiver signed (SQLite and PostgreSQL)") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    SignedReceiver receiver;
    RunningServer server(backend.url, kEnv);
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    const int port = server.port();
    const Workspace w = Register(port, "handoff-" + backend.name + "@example.com");
    receiver.set_secret("/agent", AddIntegration(port, w, "agent", receiver.url("/agent"), {"agent_notify"}));
    receiver.set_secret("/hook", AddIntegration(port, w, "webhook", receiver.url("/hook"), {"agent_update"}));

    // Manual: notify-agent.
    const std::string bug = Ingest(port, w, "Handed to an agent", "medium");
    const json::value notified = Call(port, w, "POST", "/v1/bugs/" + bug + "/notify-agent", {}, 201);
    CHECK(notified.at("notifications").as_array().size() == 1);
    REQUIRE(WaitFor([&] { return !receiver.Of("agent_notify").empty(); }, std::chrono::milliseconds(10'000)));
    SignedReceiver::Got manual = receiver.Of("agent_notify")[0];
    CHECK(manual.path == "/agent");
    CHECK(manual.signature_ok);
    CHECK(manual.user_agent == "Service-AgentWebhook/1.0");
    CHECK(Text(manual.body, "trigger") == "manual");
    CHECK(Text(manual.body, "bugId") == bug);

    // Auto: a new high bug once autoNotify is on.
    Call(port, w, "PUT", "/v1/projects/" + w.project + "/agent-settings",
         json::object{{"autoNotify", true}, {"minSeverity", "high"}}, 200);
    const std::string urgent = Ingest(port, w, "Auto handed over", "critical");
    REQUIRE(
        WaitFor([&] { return receiver.Of("agent_notify").size() >= 2; }, std::chrono::milliseconds(10'000)));
    SignedReceiver::Got automatic = receiver.Of("agent_notify")[1];
    CHECK(automatic.signature_ok);
    CHECK(Text(automatic.body, "trigger") == "auto");
    CHECK(Text(automatic.body, "bugId") == urgent);

    // Progress: an ack with a pull request reaches the humans' webhook.
    const std::string pr = "https://code.example.com/acme/web/pull/42";
    Call(port, w, "POST", "/v1/bugs/" + bug + "/ack", json::object{{"action", "working"}, {"prUrl", pr}},
         200);
    REQUIRE(WaitFor([&] { return !receiver.Of("agent_update").empty(); }, std::chrono::milliseconds(10'000)));
    SignedReceiver::Got update = receiver.Of("agent_update")[0];
    CHECK(update.path == "/hook");
    CHECK(update.signature_ok);
    CHECK(update.user_agent == "Service-Webhook/1.0");
    CHECK(Text(update.body, "agentAction") == "pr_opened");
    CHECK(Text(update.body, "prUrl") == pr);
    CHECK(Text(update.body, "bugId") == bug);
    CHECK(Text(update.body, "agentActor") == "handoff-" + backend.name + "@example.com");
  }
}

}  // namespace service::e2e
