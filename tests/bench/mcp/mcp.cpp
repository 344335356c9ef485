// bench_mcp: the MCP server's get_bug on a large organization (issue 29
// "Performance": tools/call of "get a bug" p99 at 100k bugs, target <= 20 ms
// on SQLite), beside GET /v1/bugs/:id in the same run.
//
// 1. Opens a Service on --database, registers an account, creates 10
//    projects, moves the organization to pro (agent access, no metered
//    charge) and creates an agent token with read_bugs and a grant for
//    every project, all through the API (the plan through SQL: no operator
//    is needed for a benchmark).
// 2. Bulk-loads BUGS bugs and OCCURRENCES occurrences (defaults 100,000 and
//    300,000) with the generator of tests/bench/common/bench_seed.h (bench_reads'
//    distributions, reproducible by --seed), each occurrence
//    carrying three events (an error with a stack, a breadcrumb, a network
//    call: about 400 bytes), then ANALYZE (PostgreSQL: vacuumdb --analyze).
// 3. Sends, sequentially through Service::Handle (no sockets), REQUESTS
//    calls of each and prints p50/p99 beside GET /v1/health:
//      GET /v1/bugs/:id                       (a member's JWT)
//      GET /v1/bugs/:id, /events?limit=20, /occurrences?limit=10,
//          /users?limit=20                    (the four reads get_bug joins)
//      POST /v1/mcp tools/call get_bug        (the agent token; its defaults:
//                                              20 events, 10 occurrences,
//                                              20 end users)
//      POST /v1/mcp tools/call get_bug eventLimit 1
//      POST /v1/mcp tools/call list_bugs      (one project, 50 bugs)
//    each on a random bug of the 100,000.
//
//   bench_mcp --database URL [--bugs N] [--occurrences N] [--seed S] [--requests N]
#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../common/bench_seed.h"
#include "service/service.h"
#include "service_internal.h"
#include "store/database.h"
#include "util/time.h"

namespace {

using Clock = std::chrono::steady_clock;
using bench::Call;
using bench::kDay;
using bench::Rng;
using Headers = bench::HeaderList;

struct Timing {
  double p50_ms = 0, p99_ms = 0;
  int failures = 0;
};

// `one(i)` sends the i-th sample's request(s) and returns false on a failure.
template <typename One>
Timing Measure(int n, One one) {
  std::vector<double> ms;
  Timing t;
  for (int i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    const bool ok = one(i);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (!ok) ++t.failures;
  }
  std::sort(ms.begin(), ms.end());
  t.p50_ms = ms[ms.size() / 2];
  t.p99_ms = ms[std::min(ms.size() - 1, (ms.size() * 99) / 100)];
  return t;
}

bool Expect(const service::api::Response& r, int status, const std::string& what) {
  if (r.status == status) return true;
  static int shown = 0;
  if (shown++ < 3)
    std::fprintf(stderr, "%s -> %d %s\n", what.c_str(), r.status, r.body.substr(0, 300).c_str());
  return false;
}

// A tools/call answer that is a result without isError.
bool ToolOk(const service::api::Response& r, const std::string& what) {
  if (!Expect(r, 200, what)) return false;
  if (r.body.find("\"isError\":false") != std::string::npos) return true;
  static int shown = 0;
  if (shown++ < 3) std::fprintf(stderr, "%s -> %s\n", what.c_str(), r.body.substr(0, 300).c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::string database;
  int64_t bugs = 100'000, occurrences = 300'000;
  uint64_t seed = 42;
  int requests = 500;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--database") database = argv[i + 1];
    if (arg == "--bugs") bugs = std::atoll(argv[i + 1]);
    if (arg == "--occurrences") occurrences = std::atoll(argv[i + 1]);
    if (arg == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (arg == "--requests") requests = std::atoi(argv[i + 1]);
  }
  if (database.empty() || bugs < 1 || requests < 1) {
    std::fprintf(stderr,
                 "usage: bench_mcp --database URL [--bugs N] [--occurrences N] [--seed S] [--requests N]\n");
    return 2;
  }
  service::Options options;
  options.database_url = database;
  options.rate_limits.enabled = false;
  options.jwt_secret = "mcp-benchmark-secret-0123456789abcdef-xyz";
  auto opened = service::Service::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "open: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  service::Service& s = **opened;
  service::store::Database& db = *service::internal::PlatformOf(s).db;
  const int64_t now = service::internal::PlatformOf(s).Now();

  service::api::Response reg = Call(
      s, "POST", "/v1/auth/register",
      R"({"email":"bench-mcp@example.com","password":"benchmark-password","name":"Bench","orgName":"Bench"})",
      {});
  if (reg.status != 201) {
    std::fprintf(stderr, "register: %d %s\n", reg.status, reg.body.c_str());
    return 1;
  }
  const boost::json::value account = boost::json::parse(reg.body);
  const std::string org(account.at("org").at("id").as_string());
  const std::string user(account.at("user").at("id").as_string());
  const Headers human = {{"Authorization", "Bearer " + std::string(account.at("accessToken").as_string())},
                         {"X-Service-Org", org}};
  // Pro: agent access without the metered charge, and room for 10 projects.
  if (!db.Write([&](service::store::Connection& c) {
           return c.Exec("UPDATE organizations SET plan = 'pro' WHERE id = ?", {org}).status();
         }).ok()) {
    std::fprintf(stderr, "plan: failed\n");
    return 1;
  }
  std::vector<std::string> projects;
  for (int p = 0; p < 10; ++p) {
    service::api::Response r = Call(
        s, "POST", "/v1/projects",
        boost::json::serialize(boost::json::object{{"name", "Project " + std::to_string(p)}, {"orgId", org}}),
        human);
    if (r.status != 201) {
      std::fprintf(stderr, "project: %d %s\n", r.status, r.body.c_str());
      return 1;
    }
    projects.emplace_back(boost::json::parse(r.body).at("id").as_string());
  }
  boost::json::array grants;
  for (const auto& p : projects) grants.push_back(boost::json::object{{"projectId", p}});
  service::api::Response pat = Call(
      s, "POST", "/v1/org/agent-pats",
      boost::json::serialize(boost::json::object{{"name", "bench"},
                                                 {"scopes", boost::json::array{"read_bugs"}},
                                                 {"expiresAt", service::util::FormatIso8601(now + 30 * kDay)},
                                                 {"projectGrants", std::move(grants)}}),
      human);
  if (pat.status != 201) {
    std::fprintf(stderr, "agent token: %d %s\n", pat.status, pat.body.c_str());
    return 1;
  }
  const Headers agent = {
      {"Authorization", "Bearer " + std::string(boost::json::parse(pat.body).at("token").as_string())},
      {"Accept", "application/json, text/event-stream"}};

  // --- generator (tests/bench/common/bench_seed.h, with events) ---
  const std::vector<std::string> bug_ids = bench::SeededBugIds(bugs);
  {
    const bench::SeedResult seeded = bench::SeedBugs(
        db,
        bench::SeedSpec{database, org, user, projects, bugs, occurrences, seed, now, /*with_events=*/true});
    std::printf("seeded %lld bugs, %lld occurrences (3 events each), %zu end users in %.1f s\n",
                static_cast<long long>(bugs), static_cast<long long>(seeded.occurrences), seeded.end_users,
                seeded.seconds);
  }

  // --- measurements ---
  Rng pick{seed + 1};
  auto random_bug = [&] { return bug_ids[static_cast<size_t>(pick.Below(bugs))]; };
  auto report = [](const char* name, const Timing& t, const Timing& health) {
    std::printf("%-46s p50 %8.2f ms  p99 %8.2f ms  (health p50 %.3f p99 %.3f)%s\n", name, t.p50_ms, t.p99_ms,
                health.p50_ms, health.p99_ms, t.failures ? "  FAILURES" : "");
  };
  auto mcp_call = [&](const std::string& tool, const boost::json::object& args, int id) {
    return boost::json::serialize(
        boost::json::object{{"jsonrpc", "2.0"},
                            {"id", id},
                            {"method", "tools/call"},
                            {"params", boost::json::object{{"name", tool}, {"arguments", args}}}});
  };
  // Warm-up: the caches of both paths (statements, pages) before timing.
  for (int i = 0; i < 50; ++i) {
    (void)Call(s, "GET", "/v1/bugs/" + random_bug(), "", human);
    (void)Call(s, "POST", "/v1/mcp", mcp_call("get_bug", {{"bugId", random_bug()}}, i), agent);
  }
  const Timing health =
      Measure(requests, [&](int) { return Expect(Call(s, "GET", "/v1/health", "", {}), 200, "health"); });
  std::printf("%-46s p50 %8.3f ms  p99 %8.3f ms\n", "GET /v1/health", health.p50_ms, health.p99_ms);
  report("GET /v1/bugs/:id",
         Measure(requests,
                 [&](int) {
                   const std::string id = random_bug();
                   return Expect(Call(s, "GET", "/v1/bugs/" + id, "", human), 200, "GET /v1/bugs/" + id);
                 }),
         health);
  report("GET /v1/bugs/:id + events, occurrences, users",
         Measure(requests,
                 [&](int) {
                   const std::string base = "/v1/bugs/" + random_bug();
                   return Expect(Call(s, "GET", base, "", human), 200, base) &&
                          Expect(Call(s, "GET", base + "/events?limit=20", "", human), 200,
                                 base + "/events") &&
                          Expect(Call(s, "GET", base + "/occurrences?limit=10", "", human), 200,
                                 base + "/occurrences") &&
                          Expect(Call(s, "GET", base + "/users?limit=20", "", human), 200, base + "/users");
                 }),
         health);
  report("MCP tools/call get_bug",
         Measure(requests,
                 [&](int i) {
                   return ToolOk(
                       Call(s, "POST", "/v1/mcp", mcp_call("get_bug", {{"bugId", random_bug()}}, i), agent),
                       "get_bug");
                 }),
         health);
  report("MCP tools/call get_bug eventLimit 1",
         Measure(requests,
                 [&](int i) {
                   return ToolOk(
                       Call(s, "POST", "/v1/mcp",
                            mcp_call("get_bug", {{"bugId", random_bug()}, {"eventLimit", 1}}, i), agent),
                       "get_bug eventLimit 1");
                 }),
         health);
  report("MCP tools/call list_bugs (one project)",
         Measure(requests,
                 [&](int i) {
                   return ToolOk(
                       Call(s, "POST", "/v1/mcp",
                            mcp_call("list_bugs", {{"projectId", projects[static_cast<size_t>(i % 10)]}}, i),
                            agent),
                       "list_bugs");
                 }),
         health);
  s.Shutdown();
  return 0;
}
