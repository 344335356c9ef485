// Outbound webhooks from the real binary: the delivery engine started with
// the server sends what ingest acknowledged (both backends); on SQLite the
// one process holds its claims in memory (every event once, each send
// counted, nothing lost across a SIGKILL and restart); on PostgreSQL two
// server processes share one delivery queue: every event delivered, none
// twice without failures, none lost when a process is killed with SIGKILL in
// the middle of sending (at-least-once).
#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <boost/json.hpp>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "e2e_client.h"
#include "server_process.h"

namespace service::e2e {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

struct Webhook {
  std::string id;
  std::string secret;
};

// Creates a webhook to `url`.
Webhook CreateWebhook(int port, const Workspace& w, const std::string& url) {
  httplib::Client c("127.0.0.1", port);
  const std::string body = json::serialize(
      json::object{{"projectId", w.project}, {"type", "webhook"}, {"config", json::object{{"url", url}}}});
  auto r = c.Post("/v1/integrations",
                  httplib::Headers{{"Authorization", "Bearer " + w.token}, {"X-Service-Org", w.org}}, body,
                  "application/json");
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 201, r->body);
  const json::value v = json::parse(r->body);
  return {std::string(v.at("id").as_string()), std::string(v.at("signingSecret").as_string())};
}

// GET .../deliveries?status=: the total.
int64_t DeliveryCount(int port, const Workspace& w, const std::string& hook, const std::string& status) {
  httplib::Client c("127.0.0.1", port);
  auto r = c.Get("/v1/integrations/" + hook + "/deliveries?status=" + status,
                 httplib::Headers{{"Authorization", "Bearer " + w.token}, {"X-Service-Org", w.org}});
  if (!r || r->status != 200) return -1;
  return json::parse(r->body).at("total").as_int64();
}

// GET .../deliveries?limit=100: the rows.
json::array DeliveryRows(int port, const Workspace& w, const std::string& hook) {
  httplib::Client c("127.0.0.1", port);
  auto r = c.Get("/v1/integrations/" + hook + "/deliveries?limit=100",
                 httplib::Headers{{"Authorization", "Bearer " + w.token}, {"X-Service-Org", w.org}});
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 200, r->body);
  return json::parse(r->body).at("deliveries").as_array();
}

// Waits until every bug of `bugs` had its new_bug delivery answered.
bool AllDelivered(SignedReceiver& receiver, const std::set<std::string>& bugs,
                  std::chrono::milliseconds timeout) {
  return WaitFor(
      [&] {
        const std::set<std::string> got = receiver.BugsDelivered();
        for (const std::string& bug : bugs)
          if (got.count(bug) == 0) return false;
        return true;
      },
      timeout);
}

const std::vector<std::string> kEnv = {"SERVICE_RATE_LIMITS=off", "SERVICE_ALLOW_PRIVATE_DESTINATIONS=1",
                                       "SERVICE_JWT_SECRET=webhook-e2e-secret-0123456789abcdef0123"};

}  // namespace

TEST_CASE("the server delivers a new bug to a webhook by itself, signed (SQLite and PostgreSQL)") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    SignedReceiver receiver;
    RunningServer server(backend.url, kEnv);
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    const Workspace w = Register(server.port(), "hook-" + backend.name + "@example.com");
    receiver.set_secret(CreateWebhook(server.port(), w, receiver.url()).secret);
    const std::string bug = Ingest(server.port(), w, "Delivered by the engine");
    REQUIRE(
        WaitFor([&] { return receiver.BugsDelivered().count(bug) == 1; }, std::chrono::milliseconds(10'000)));
    const std::vector<SignedReceiver::Got> got = receiver.completed();
    REQUIRE(got.size() == 1);
    CHECK(got[0].signature_ok);
    CHECK(got[0].event == "new_bug");
    CHECK(server.Stop() == 0);
  }
}

TEST_CASE("one server process on SQLite: every event once, each send counted, none lost across a SIGKILL") {
  TempDir dir;
  const std::string url = "sqlite:" + dir.path() + "/claims.db";
  SignedReceiver receiver;
  auto server = std::make_unique<RunningServer>(url, kEnv);
  REQUIRE_MESSAGE(server->ok(), server->process().Stderr());
  const Workspace w = Register(server->port(), "sqlite-hooks@example.com");
  const Webhook hook = CreateWebhook(server->port(), w, receiver.url());
  receiver.set_secret(hook.secret);

  // Claims held in memory: no row is read again while its send is in flight
  // or its outcome not yet recorded, so each delivery arrives once.
  constexpr int kFirst = 40;
  std::set<std::string> bugs;
  for (int i = 0; i < kFirst; ++i)
    bugs.insert(Ingest(server->port(), w, "SQLite claims " + std::to_string(i)));
  REQUIRE(
      WaitFor([&] { return receiver.BugsDelivered().size() == kFirst; }, std::chrono::milliseconds(20'000)));
  REQUIRE(WaitFor([&] { return DeliveryCount(server->port(), w, hook.id, "success") == kFirst; },
                  std::chrono::milliseconds(10'000)));
  std::this_thread::sleep_for(std::chrono::milliseconds(1'000));  // a duplicate would arrive by now
  std::map<std::string, int> per_delivery;
  for (const SignedReceiver::Got& g : receiver.completed()) ++per_delivery[g.delivery_id];
  CHECK(per_delivery.size() == kFirst);
  for (const auto& entry : per_delivery) CHECK_MESSAGE(entry.second == 1, entry.first);
  CHECK(receiver.BugsDelivered() == bugs);
  for (const json::value& row : DeliveryRows(server->port(), w, hook.id)) {
    CHECK(row.at("status") == json::value("success"));
    CHECK(row.at("attempts") == json::value(1));  // the send is counted with its outcome
  }

  // Killed while its sends hang: nothing was leased in the file, so the next
  // process on it sends every row that was not recorded as sent.
  receiver.set_hang_ms(3'000);
  const size_t before = receiver.arrived().size();
  std::set<std::string> second;
  constexpr int kSecond = 6;
  for (int i = 0; i < kSecond; ++i)
    second.insert(Ingest(server->port(), w, "Killed mid-send " + std::to_string(i)));
  REQUIRE(WaitFor([&] { return receiver.arrived().size() > before; }, std::chrono::milliseconds(10'000)));
  server->process().Signal(SIGKILL);
  CHECK(server->process().Wait(std::chrono::milliseconds(5'000)).has_value());
  server.reset();
  receiver.set_hang_ms(0);
  RunningServer again(url, kEnv);
  REQUIRE_MESSAGE(again.ok(), again.process().Stderr());
  const bool all = AllDelivered(receiver, second, std::chrono::milliseconds(30'000));
  CHECK_MESSAGE(all, "deliveries held by the killed process were not sent after the restart");
  const bool recorded =
      WaitFor([&] { return DeliveryCount(again.port(), w, hook.id, "success") == kFirst + kSecond; },
              std::chrono::milliseconds(30'000));
  CHECK_MESSAGE(recorded, "success rows: ", DeliveryCount(again.port(), w, hook.id, "success"));
  CHECK(again.Stop() == 0);
}

TEST_CASE("two server processes on one PostgreSQL: every event once, none lost when one is killed mid-send") {
  TempDir dir;
  const Backend* pg = nullptr;
  const std::vector<Backend> backends = Backends(dir);
  for (const Backend& b : backends)
    if (b.name == "postgres") pg = &b;
  if (pg == nullptr) {
    MESSAGE("SERVICE_TEST_POSTGRES_URL is not set: skipped");
    return;
  }
  SignedReceiver receiver;
  RunningServer a(pg->url, kEnv);
  REQUIRE_MESSAGE(a.ok(), a.process().Stderr());
  RunningServer b(pg->url, kEnv);
  REQUIRE_MESSAGE(b.ok(), b.process().Stderr());
  const Workspace w = Register(a.port(), "two-hooks@example.com");
  const Webhook hook = CreateWebhook(b.port(), w, receiver.url());
  receiver.set_secret(hook.secret);

  // Without failures: every event delivered exactly once, whichever process sends it.
  constexpr int kFirst = 40;
  std::set<std::string> bugs;
  for (int i = 0; i < kFirst; ++i) {
    bugs.insert(Ingest(i % 2 == 0 ? a.port() : b.port(), w, "Two processes " + std::to_string(i)));
  }
  REQUIRE(
      WaitFor([&] { return receiver.BugsDelivered().size() == kFirst; }, std::chrono::milliseconds(20'000)));
  std::this_thread::sleep_for(std::chrono::milliseconds(1'000));  // a duplicate would arrive by now
  std::map<std::string, int> per_delivery;
  for (const SignedReceiver::Got& g : receiver.completed()) {
    ++per_delivery[g.delivery_id];
    CHECK(g.signature_ok);
  }
  CHECK(per_delivery.size() == kFirst);
  for (const auto& entry : per_delivery) CHECK_MESSAGE(entry.second == 1, entry.first);
  CHECK(receiver.BugsDelivered() == bugs);

  // A process killed while its sends hang: what it held is sent by the other
  // once its lease ends (at least once; a duplicate is allowed here).
  receiver.set_hang_ms(3'000);
  const size_t before = receiver.arrived().size();
  std::set<std::string> second;
  constexpr int kSecond = 6;
  for (int i = 0; i < kSecond; ++i)
    second.insert(Ingest(a.port(), w, "Killed mid-send " + std::to_string(i)));
  REQUIRE(WaitFor([&] { return receiver.arrived().size() > before; }, std::chrono::milliseconds(10'000)));
  a.process().Signal(SIGKILL);
  CHECK(a.process().Wait(std::chrono::milliseconds(5'000)).has_value());
  receiver.set_hang_ms(0);
  const bool all = AllDelivered(receiver, second, std::chrono::milliseconds(60'000));
  CHECK_MESSAGE(all, "deliveries held by the killed process were not resumed");
  // Every row ends sent, those the killed process held included (resumed
  // once their lease ran out).
  const bool recorded =
      WaitFor([&] { return DeliveryCount(b.port(), w, hook.id, "success") == kFirst + kSecond; },
              std::chrono::milliseconds(60'000));
  CHECK_MESSAGE(recorded, "success rows: ", DeliveryCount(b.port(), w, hook.id, "success"));
  CHECK(b.Stop() == 0);
}

}  // namespace service::e2e
