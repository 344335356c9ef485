// recommended_bug from the real binary (issue 29 item 3), on both backends:
// the recommended-bug worker of the server emits the project's top bug to a
// webhook subscribed to recommended_bug, signed (verified with OpenSSL
// against the secret the service showed once), and not to an unsubscribed
// one. The worker runs every 60 s and once more when the server stops (the
// workers' final run); this test uses the latter, so it needs no interval
// setting: the stop emits and queues the delivery, and the next server on the
// same database sends what the first had not sent yet. A third start and
// stop emits nothing new.
#include <doctest/doctest.h>
#include <httplib.h>

#include <boost/json.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "e2e_client.h"
#include "server_process.h"

namespace service::e2e {
namespace {

namespace json = boost::json;

std::string AddIntegration(int port, const Workspace& w, const std::string& url, const json::array& events) {
  httplib::Client c("127.0.0.1", port);
  const json::object body{{"projectId", w.project},
                          {"type", "webhook"},
                          {"config", json::object{{"url", url}}},
                          {"events", events}};
  httplib::Result r = c.Post("/v1/integrations", w.auth(), json::serialize(body), "application/json");
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 201, r->body);
  return std::string(json::parse(r->body).at("signingSecret").as_string());
}

std::string Text(const json::value& v, const char* key) {
  const json::value* f = v.is_object() ? v.as_object().if_contains(key) : nullptr;
  return f != nullptr && f->is_string() ? std::string(f->as_string()) : "";
}

const std::vector<std::string> kEnv = {"SERVICE_RATE_LIMITS=off", "SERVICE_ALLOW_PRIVATE_DESTINATIONS=1",
                                       "SERVICE_JWT_SECRET=recommended-e2e-secret-0123456789abcdef"};

}  // namespace

TEST_CASE("recommended_bug reaches a real receiver signed, once (SQLite and PostgreSQL)") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    SignedReceiver receiver;
    std::string top;
    {
      RunningServer server(backend.url, kEnv);
      REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
      const int port = server.port();
      const Workspace w = Register(port, "recommended-" + backend.name + "@example.com");
      receiver.set_secret("/hook", AddIntegration(port, w, receiver.url("/hook"), {"recommended_bug"}));
      receiver.set_secret("/other", AddIntegration(port, w, receiver.url("/other"), {"new_bug"}));
      Ingest(port, w, "Tooltip clipped", "low");
      top = Ingest(port, w, "Checkout crashes", "critical");
      REQUIRE(WaitFor([&] { return receiver.Of("new_bug").size() == 2; }, std::chrono::milliseconds(10'000)));
      CHECK(server.Stop() == 0);  // the workers' final run emits
    }
    {
      RunningServer server(backend.url, kEnv);
      REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
      REQUIRE(WaitFor([&] { return !receiver.Of("recommended_bug").empty(); },
                      std::chrono::milliseconds(15'000)));
      CHECK(server.Stop() == 0);
    }
    const std::vector<SignedReceiver::Got> got = receiver.Of("recommended_bug");
    REQUIRE(got.size() == 1);
    CHECK(got[0].path == "/hook");
    CHECK(got[0].signature_ok);
    CHECK(got[0].user_agent == "Service-Webhook/1.0");
    CHECK(got[0].bug_id == top);
    CHECK(Text(got[0].body, "event") == "recommended_bug");
    CHECK(Text(got[0].body, "title") == "Checkout crashes");
    CHECK(Text(got[0].body, "severity") == "critical");
    {
      RunningServer server(backend.url, kEnv);
      REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
      CHECK(server.Stop() == 0);
    }
    {
      RunningServer server(backend.url, kEnv);  // sends anything the last stop queued
      REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      CHECK(server.Stop() == 0);
    }
    CHECK(receiver.Of("recommended_bug").size() == 1);
  }
}

}  // namespace service::e2e
