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

#include "server_process.h"
#include "support/hmac.h"

namespace service::e2e {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

// Records what each path receives, with the signature checked against that
// path's secret.
class Receiver {
 public:
  struct Got {
    std::string path;
    std::string event;
    std::string user_agent;
    json::value body;
    bool signature_ok = false;
  };

  Receiver() {
    auto take = [this](const httplib::Request& req, httplib::Response& res) {
      Got g;
      g.path = req.path;
      g.event = req.get_header_value("X-Service-Event");
      g.user_agent = req.get_header_value("User-Agent");
      boost::system::error_code ec;
      g.body = json::parse(req.body, ec);
      std::lock_guard<std::mutex> lock(mu_);
      const auto secret = secrets_.find(req.path);
      g.signature_ok = secret != secrets_.end() &&
                       Verify(req.get_header_value("X-Service-Signature-256"), req.body, secret->second);
      got_.push_back(std::move(g));
      res.set_content("{}", "application/json");
    };
    server_.Post("/agent", take);
    server_.Post("/hook", take);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Receiver() {
    server_.stop();
    thread_.join();
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void set_secret(const std::string& path, const std::string& secret) {
    std::lock_guard<std::mutex> lock(mu_);
    secrets_[path] = secret;
  }
  std::vector<Got> Of(const std::string& event) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Got> out;
    for (const Got& g : got_)
      if (g.event == event) out.push_back(g);
    return out;
  }

 private:
  static bool Verify(const std::string& header, const std::string& body, const std::string& secret) {
    const size_t comma = header.find(",v1=");
    if (header.rfind("t=", 0) != 0 || comma == std::string::npos) return false;
    const std::string t = header.substr(2, comma - 2);
    const std::string v1 = header.substr(comma + 4, 64);
    const std::string expect = service::testing::OpensslHmacSha256Hex(secret, t + "." + body);
    const long long age = std::llabs(std::stoll(t) - static_cast<long long>(std::time(nullptr)));
    return v1 == expect && age <= 300;
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::map<std::string, std::string> secrets_;
  std::vector<Got> got_;
};

struct Workspace {
  std::string key;
  std::string token;
  std::string org;
  std::string project;
  httplib::Headers auth() const { return {{"Authorization", "Bearer " + token}, {"X-Service-Org", org}}; }
};

Workspace Register(int port, const std::string& email) {
  httplib::Client c("127.0.0.1", port);
  auto reg =
      c.Post("/v1/auth/register",
             "{\"email\":\"" + email +
                 "\",\"password\":\"handoff-e2e-password\",\"name\":\"Ada\",\"orgName\":\"Handoff Inc\"}",
             "application/json");
  REQUIRE(reg);
  REQUIRE_MESSAGE(reg->status == 201, reg->body);
  const json::value v = json::parse(reg->body);
  return {std::string(v.at("apiKey").as_string()), std::string(v.at("accessToken").as_string()),
          std::string(v.at("org").at("id").as_string()), std::string(v.at("project").at("id").as_string())};
}

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

std::string Ingest(int port, const Workspace& w, const std::string& title, const std::string& severity) {
  httplib::Client c("127.0.0.1", port);
  auto r = c.Post("/v1/ingest", httplib::Headers{{"X-Service-Key", w.key}},
                  json::serialize(json::object{
                      {"title", title}, {"severity", severity}, {"url", "https://shop.example/x"}}),
                  "application/json");
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 201, r->body);
  return std::string(json::parse(r->body).at("id").as_string());
}

template <typename Pred>
bool WaitFor(Pred pred, std::chrono::milliseconds timeout) {
  const auto until = Clock::now() + timeout;
  while (Clock::now() < until) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return pred();
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
    Receiver receiver;
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
    Receiver::Got manual = receiver.Of("agent_notify")[0];
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
    Receiver::Got automatic = receiver.Of("agent_notify")[1];
    CHECK(automatic.signature_ok);
    CHECK(Text(automatic.body, "trigger") == "auto");
    CHECK(Text(automatic.body, "bugId") == urgent);

    // Progress: an ack with a pull request reaches the humans' webhook.
    const std::string pr = "https://code.example.com/acme/web/pull/42";
    Call(port, w, "POST", "/v1/bugs/" + bug + "/ack", json::object{{"action", "working"}, {"prUrl", pr}},
         200);
    REQUIRE(WaitFor([&] { return !receiver.Of("agent_update").empty(); }, std::chrono::milliseconds(10'000)));
    Receiver::Got update = receiver.Of("agent_update")[0];
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
