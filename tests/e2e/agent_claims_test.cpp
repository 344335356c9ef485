// Fenced claims across processes (issue 29 item 4): two service-server
// processes on one PostgreSQL database, agents on both racing for one
// issue. Exactly one claim is granted when they all ask at once, and over
// many rounds of claim and complete no two agents ever hold the issue
// together and every granted fencing token is larger than the one before.
#include <doctest/doctest.h>
#include <httplib.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "e2e_client.h"
#include "server_process.h"
#include "store/database.h"
#include "util/time.h"

namespace service::e2e {
namespace {

namespace json = boost::json;

std::atomic<int> g_command{1};

std::string NewCommandId() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "0190f111-0000-7000-8000-%012d", g_command++);
  return buf;
}

json::value Parse(const std::string& body) {
  boost::system::error_code ec;
  json::value v = json::parse(body, ec);
  return ec ? json::value() : v;
}

std::string S(const json::value& v, const char* key) {
  const json::value* x = v.is_object() ? v.as_object().if_contains(key) : nullptr;
  if (x == nullptr) return "";
  return x->is_string() ? std::string(x->as_string()) : json::serialize(*x);
}

}  // namespace

TEST_CASE("two server processes on one PostgreSQL grant one claim of an issue at a time") {
  TempDir dir;
  const std::vector<Backend> backends = Backends(dir);
  const Backend* pg = FindPostgres(backends);
  if (pg == nullptr) return;
  const std::vector<std::string> env = {"SERVICE_RATE_LIMITS=off",
                                        "SERVICE_JWT_SECRET=two-process-claims-secret-0123456789abcdef"};
  RunningServer a(pg->url, env);
  REQUIRE_MESSAGE(a.ok(), a.process().Stderr());
  RunningServer b(pg->url, env);
  REQUIRE_MESSAGE(b.ok(), b.process().Stderr());

  httplib::Client on_a("127.0.0.1", a.port());
  const Workspace w = Register(a.port(), "claims@example.com");
  const std::string& key = w.key;
  const std::string& access = w.token;
  const std::string& org = w.org;
  const std::string& project = w.project;

  // Agent tokens need an agent-capable plan.
  {
    auto db = store::OpenDatabase(pg->url, {});
    REQUIRE(db.ok());
    REQUIRE((*db)
                ->Write([&](store::Connection& c) {
                  return c.Exec("UPDATE organizations SET plan = 'pro' WHERE id = ?", {org}).status();
                })
                .ok());
    (*db)->Close();
  }
  auto pat = on_a.Post(
      "/v1/org/agent-pats", httplib::Headers{{"Authorization", "Bearer " + access}, {"X-Service-Org", org}},
      json::serialize(json::object{
          {"scopes", json::array{"claim_issue"}},
          {"expiresAt", util::FormatIso8601(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count() +
                                            30LL * 86400 * 1000)},
          {"projectGrants", json::array{json::object{{"projectId", project}}}}}),
      "application/json");
  REQUIRE(pat);
  REQUIRE_MESSAGE(pat->status == 201, pat->body);
  const std::string token(Parse(pat->body).at("token").as_string());

  auto ingest = on_a.Post("/v1/ingest", httplib::Headers{{"X-Service-Key", key}},
                          "{\"title\":\"Contended across processes\",\"severity\":\"high\","
                          "\"url\":\"https://shop.example/cart\"}",
                          "application/json");
  REQUIRE(ingest);
  REQUIRE(ingest->status == 201);
  const std::string issue = S(Parse(ingest->body), "id");
  REQUIRE_FALSE(issue.empty());

  const httplib::Headers auth{{"Authorization", "Bearer " + token}};
  const int ports[2] = {a.port(), b.port()};
  auto claim = [&](httplib::Client& c) {
    return c.Post("/v1/agent-work/claims", auth,
                  json::serialize(json::object{
                      {"commandId", NewCommandId()}, {"projectId", project}, {"issueId", issue}}),
                  "application/json");
  };

  // All at once, half on each process: exactly one grant.
  constexpr int kAgents = 16;
  {
    std::atomic<int> granted{0}, held{0}, other{0};
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kAgents; ++i) {
      threads.emplace_back([&, i] {
        httplib::Client c("127.0.0.1", ports[i % 2]);
        ++ready;
        while (ready.load() < kAgents) std::this_thread::yield();
        auto r = claim(c);
        if (r && r->status == 201) {
          ++granted;
        } else if (r && r->status == 409 && S(Parse(r->body), "code") == "CLAIM_HELD") {
          ++held;
        } else {
          ++other;
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(granted.load() == 1);
    CHECK(held.load() == kAgents - 1);
    CHECK(other.load() == 0);
  }
  httplib::Client on_b("127.0.0.1", b.port());
  auto current = on_b.Get("/v1/agent-work/claims?projectId=" + project + "&issueId=" + issue, auth);
  REQUIRE(current);
  REQUIRE(current->status == 200);
  json::value held_claim = Parse(current->body).at("claim");
  auto release = on_b.Post("/v1/agent-work/claims/release", auth,
                           json::serialize(json::object{{"commandId", NewCommandId()},
                                                        {"projectId", project},
                                                        {"issueId", issue},
                                                        {"claimId", S(held_claim, "claimId")},
                                                        {"generation", S(held_claim, "generation")},
                                                        {"fencingToken", S(held_claim, "fencingToken")}}),
                           "application/json");
  REQUIRE(release);
  REQUIRE_MESSAGE(release->status == 200, release->body);

  // Rounds of claim and complete on both processes.
  std::mutex mu;
  int holders = 0, violations = 0, grants = 0;
  int64_t last_fence = std::stoll(S(held_claim, "fencingToken"));
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kAgents; ++i) {
    threads.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", ports[i % 2]);
      for (int n = 0; n < 20; ++n) {
        auto r = claim(c);
        if (!r) {
          ++errors;
          continue;
        }
        if (r->status == 409) continue;
        if (r->status != 201) {
          ++errors;
          continue;
        }
        const json::value got = Parse(r->body).at("claim");
        {
          std::lock_guard<std::mutex> lock(mu);
          const int64_t fence = std::stoll(S(got, "fencingToken"));
          if (++holders != 1 || fence <= last_fence) ++violations;
          last_fence = std::max(last_fence, fence);
          ++grants;
        }
        {
          std::lock_guard<std::mutex> lock(mu);
          --holders;  // it stops working before it asks to complete
        }
        auto done = c.Post("/v1/agent-work/claims/complete", auth,
                           json::serialize(json::object{{"commandId", NewCommandId()},
                                                        {"projectId", project},
                                                        {"issueId", issue},
                                                        {"claimId", S(got, "claimId")},
                                                        {"generation", S(got, "generation")},
                                                        {"fencingToken", S(got, "fencingToken")},
                                                        {"receiptId", "receipt"}}),
                           "application/json");
        if (!done || done->status != 200) ++errors;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(errors.load() == 0);
  CHECK(violations == 0);
  CHECK(grants > 0);
  MESSAGE("grants over both processes: " << grants);
  CHECK(a.Stop().value_or(-1) == 0);
  CHECK(b.Stop().value_or(-1) == 0);
}

}  // namespace service::e2e
