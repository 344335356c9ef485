// bench_reads: triage reads on a large organization (issue 10 "Performance").
//
// 1. Opens a Service on --database, registers an account and creates 10
//    projects through the API.
// 2. Bulk-loads BUGS bugs and OCCURRENCES occurrences (defaults 100,000 and
//    1,000,000) with the shared generator, reproducible by --seed: multi-row
//    INSERTs in transactions of 10,000 rows, then ANALYZE (PostgreSQL:
//    vacuumdb --analyze, as autovacuum would have, and a CHECKPOINT so
//    that writing the load's pages is not measured). Sending a million
//    HTTP reports would measure ingest, not reads.
// 3. Times each endpoint through Service::Handle (no sockets) with varied
//    parameters, sequentially, and prints p50/p99 beside GET /v1/health
//    measured in the same run; the export of 50,000 rows prints its time,
//    bytes and the growth of the process's peak RSS.
//
// The generator and its distributions: tests/bench/common/bench_seed.h
// (shared with bench_mcp).
//
//   bench_reads --database URL [--bugs N] [--occurrences N] [--seed S] [--requests N]
#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../common/bench_seed.h"
#include "service/service.h"
#include "service_internal.h"
#include "store/database.h"

namespace {

using Clock = std::chrono::steady_clock;
using bench::Call;
using bench::HighWaterKb;
using bench::Rng;

struct Timing {
  double p50_ms = 0, p99_ms = 0;
  int failures = 0;
};

template <typename MakePath>
Timing Measure(service::Service& s, const std::vector<std::pair<std::string, std::string>>& headers, int n,
               MakePath make_path) {
  std::vector<double> ms;
  Timing t;
  for (int i = 0; i < n; ++i) {
    const std::string path = make_path(i);
    const auto t0 = Clock::now();
    const service::api::Response r = Call(s, "GET", path, "", headers);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (r.status != 200) {
      if (t.failures++ == 0) std::fprintf(stderr, "%s -> %d %s\n", path.c_str(), r.status, r.body.c_str());
    }
  }
  std::sort(ms.begin(), ms.end());
  t.p50_ms = ms[ms.size() / 2];
  t.p99_ms = ms[std::min(ms.size() - 1, (ms.size() * 99) / 100)];
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string database;
  int64_t bugs = 100'000, occurrences = 1'000'000;
  uint64_t seed = 42;
  int requests = 200;
  bool reuse = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--reuse") {
      reuse = true;
      continue;
    }
    if (i + 1 >= argc) break;
    if (arg == "--database") database = argv[i + 1];
    if (arg == "--bugs") bugs = std::atoll(argv[i + 1]);
    if (arg == "--occurrences") occurrences = std::atoll(argv[i + 1]);
    if (arg == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (arg == "--requests") requests = std::atoi(argv[i + 1]);
    ++i;
  }
  if (database.empty()) {
    std::fprintf(stderr,
                 "usage: bench_reads --database URL [--bugs N] [--occurrences N] [--seed S] "
                 "[--requests N] [--reuse]\n");
    return 2;
  }
  service::Options options;
  options.database_url = database;
  options.rate_limits.enabled = false;
  options.jwt_secret = "reads-benchmark-secret-0123456789abcdef";
  options.plan_limits["free"]["projects"] = 100;
  auto opened = service::Service::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "open: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  service::Service& s = **opened;
  // --reuse measures a database seeded by an earlier run (same --bugs and
  // --seed): it signs in instead of registering and skips the generator.
  service::api::Response reg =
      reuse
          ? Call(s, "POST", "/v1/auth/login",
                 R"({"email":"bench@example.com","password":"benchmark-password"})", {})
          : Call(
                s, "POST", "/v1/auth/register",
                R"({"email":"bench@example.com","password":"benchmark-password","name":"Bench","orgName":"Bench"})",
                {});
  if (reg.status != (reuse ? 200 : 201)) {
    std::fprintf(stderr, "register: %d %s\n", reg.status, reg.body.c_str());
    return 1;
  }
  const boost::json::value account = boost::json::parse(reg.body);
  const std::string token(account.at("accessToken").as_string());
  const std::string org(account.at("org").at("id").as_string());
  const std::string user(account.at("user").at("id").as_string());
  const std::vector<std::pair<std::string, std::string>> headers = {{"Authorization", "Bearer " + token},
                                                                    {"X-Service-Org", org}};
  std::vector<std::string> projects;
  if (reuse) {
    const service::api::Response r = Call(s, "GET", "/v1/projects", "", headers);
    const boost::json::value list = boost::json::parse(r.body);
    for (const auto& p : list.at("projects").as_array()) projects.emplace_back(p.at("id").as_string());
  }
  for (int p = 0; p < 10 && !reuse; ++p) {
    service::api::Response r = Call(
        s, "POST", "/v1/projects",
        boost::json::serialize(boost::json::object{{"name", "Project " + std::to_string(p)}, {"orgId", org}}),
        headers);
    if (r.status != 201) {
      std::fprintf(stderr, "project: %d %s\n", r.status, r.body.c_str());
      return 1;
    }
    projects.emplace_back(boost::json::parse(r.body).at("id").as_string());
  }

  const std::vector<std::string> bug_ids = bench::SeededBugIds(bugs);
  // --- generator (tests/bench/common/bench_seed.h) ---
  service::store::Database& db = *service::internal::PlatformOf(s).db;
  const int64_t now = service::internal::PlatformOf(s).Now();
  if (!reuse) {
    const bench::SeedResult seeded = bench::SeedBugs(
        db,
        bench::SeedSpec{database, org, user, projects, bugs, occurrences, seed, now, /*with_events=*/false});
    std::printf("seeded %lld bugs, %lld occurrences, %zu end users in %.1f s\n", static_cast<long long>(bugs),
                static_cast<long long>(seeded.occurrences), seeded.end_users, seeded.seconds);
  }

  // --- measurements ---
  Rng pick{seed + 1};
  auto report = [](const char* name, const Timing& t, const Timing& health) {
    std::printf("%-34s p50 %8.2f ms  p99 %8.2f ms  (health p50 %.3f p99 %.3f)%s\n", name, t.p50_ms, t.p99_ms,
                health.p50_ms, health.p99_ms, t.failures ? "  FAILURES" : "");
  };
  const Timing health = Measure(s, headers, requests, [](int) { return std::string("/v1/health"); });
  std::printf("%-34s p50 %8.3f ms  p99 %8.3f ms\n", "GET /v1/health", health.p50_ms, health.p99_ms);
  report("GET /v1/bugs", Measure(s, headers, requests, [](int) { return std::string("/v1/bugs"); }), health);
  report("GET /v1/bugs?projectId&status",
         Measure(
             s, headers, requests,
             [&](int i) { return "/v1/bugs?status=new&projectId=" + projects[static_cast<size_t>(i % 10)]; }),
         health);
  report("GET /v1/bugs?offset=1000",
         Measure(s, headers, requests, [](int) { return std::string("/v1/bugs?offset=1000"); }), health);
  report("GET /v1/bugs/groups",
         Measure(s, headers, requests, [](int) { return std::string("/v1/bugs/groups"); }), health);
  report("GET /v1/bugs/groups?sort=count",
         Measure(s, headers, requests, [](int) { return std::string("/v1/bugs/groups?sort=count"); }),
         health);
  report("GET /v1/bugs/stats",
         Measure(s, headers, requests / 4, [](int) { return std::string("/v1/bugs/stats"); }), health);
  report("GET /v1/bugs/:id",
         Measure(s, headers, requests,
                 [&](int) { return "/v1/bugs/" + bug_ids[static_cast<size_t>(pick.Below(bugs))]; }),
         health);
  // Search: the first query loads the organization's embeddings into
  // memory (timed alone), then two-word queries and misspellings.
  {
    const auto t0 = Clock::now();
    const service::api::Response r = Call(s, "GET", "/v1/bugs/search?q=checkout%20timeout", "", headers);
    std::printf("%-34s %8.2f ms  (status %d)\n", "GET /v1/bugs/search (index load)",
                std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), r.status);
  }
  report("GET /v1/bugs/search?q=two words",
         Measure(s, headers, requests,
                 [&](int) {
                   return "/v1/bugs/search?q=" + bench::kSeedWords[static_cast<size_t>(pick.Below(27))] +
                          "%20" + bench::kSeedWords[static_cast<size_t>(pick.Below(27))];
                 }),
         health);
  report("GET /v1/bugs/search?q=misspelt",
         Measure(s, headers, requests,
                 [&](int) {
                   std::string w = bench::kSeedWords[static_cast<size_t>(pick.Below(27))];
                   w.erase(w.size() / 2, 1);
                   return "/v1/bugs/search?q=" + w;
                 }),
         health);
  report("GET /v1/bugs/live", Measure(s, headers, requests, [](int) { return std::string("/v1/bugs/live"); }),
         health);
  // Export: the stream is drained chunk by chunk and discarded, as the
  // transport does; the peak RSS is reset first (Linux clear_refs 5), so its
  // growth is the export's own.
  {
    FILE* f = std::fopen("/proc/self/clear_refs", "w");
    if (f != nullptr) {
      std::fputs("5", f);
      std::fclose(f);
    }
  }
  const long rss0 = HighWaterKb();
  const auto e0 = Clock::now();
  service::api::Request req;
  req.method = "GET";
  req.path = "/v1/bugs/export";
  req.query = "format=csv&limit=50000";
  req.remote_addr = "127.0.0.1";
  for (const auto& [k, v] : headers) req.headers.Add(k, v);
  service::api::Response exp = s.Handle(req);
  size_t bytes = 0, chunks = 0, largest = 0;
  if (exp.stream) {
    service::api::DrainStream(*exp.stream, [&](std::string_view chunk) {
      bytes += chunk.size();
      largest = std::max(largest, chunk.size());
      ++chunks;
      return true;
    });
  }
  const double export_s = std::chrono::duration<double>(Clock::now() - e0).count();
  std::printf("%-34s %.2f s, %zu bytes in %zu chunks (largest %zu), rows %s, peak RSS +%ld KB\n",
              "GET /v1/bugs/export 50,000 csv", export_s, bytes, chunks, largest,
              exp.headers.Get("X-Row-Count").c_str(), HighWaterKb() - rss0);
  s.Shutdown();
  return 0;
}
