// bench_ingest_inproc: the ingest path without sockets. Opens a Service on
// --database, registers an account through the API, then THREADS threads
// send the reports of the HTTP benchmark (report_maker.h) straight into
// Service::Handle for SECONDS, and prints reports/s and the process CPU time
// per report. It isolates the library (parsing, validation, fingerprint,
// the write) from the transport and the load generator.
//
//   bench_ingest_inproc --database URL [--threads 50] [--seconds 10]
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "areas/capture/app/runtime.h"
#include "areas/capture/module.h"
#include "report_maker.h"
#include "service/service.h"
#include "service_internal.h"

namespace {

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU seconds of each thread of this process, by thread id.
std::map<std::string, double> ThreadCpu() {
  std::map<std::string, double> out;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream f(e.path() / "stat");
    std::string line;
    std::getline(f, line);
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 14) utime = std::atof(field.c_str());
      if (i == 15) stime = std::atof(field.c_str());
    }
    out[e.path().filename().string()] = (utime + stime) / tick;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string database;
  int threads = 50;
  double seconds = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--database")
      database = argv[i + 1];
    else if (arg == "--threads")
      threads = std::atoi(argv[i + 1]);
    else if (arg == "--seconds")
      seconds = std::atof(argv[i + 1]);
  }
  if (database.empty()) {
    std::fprintf(stderr, "usage: bench_ingest_inproc --database URL [--threads N] [--seconds S]\n");
    return 2;
  }
  service::Options options;
  options.database_url = database;
  options.rate_limits.enabled = false;
  options.plan_limits["free"]["bugs_per_month"] = 1'000'000'000;
  options.jwt_secret = "ingest-benchmark-secret-0123456789abcdef";
  auto svc = service::Service::Open(options);
  if (!svc.ok()) {
    std::fprintf(stderr, "open: %s\n", svc.status().ToString().c_str());
    return 1;
  }
  service::Service& s = **svc;
  service::api::Request reg;
  reg.method = "POST";
  reg.path = "/v1/auth/register";
  reg.remote_addr = "127.0.0.1";
  reg.body =
      R"({"email":"bench@example.com","password":"benchmark-password","name":"Bench","orgName":"Bench"})";
  service::api::Response r = s.Handle(reg);
  if (r.status != 201) {
    std::fprintf(stderr, "register: %d %s\n", r.status, r.body.c_str());
    return 1;
  }
  const std::string key(boost::json::parse(r.body).at("apiKey").as_string());

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> ok{0}, failed{0};
  std::vector<std::thread> pool;
  const double cpu0 = CpuSeconds();
  const std::map<std::string, double> threads0 = ThreadCpu();
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      bench::ReportMaker maker(static_cast<uint64_t>(t) + 1, 20);
      while (!stop.load(std::memory_order_relaxed)) {
        service::api::Request req;
        req.method = "POST";
        req.path = "/v1/ingest";
        req.remote_addr = "10.0.0." + std::to_string(t);
        req.headers.Add("X-Service-Key", key);
        req.headers.Add("Content-Type", "application/json");
        req.body = maker.Next();
        const service::api::Response res = s.Handle(req);
        (res.status == 201 ? ok : failed).fetch_add(1);
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto& th : pool) th.join();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = CpuSeconds() - cpu0;
  // The busiest thread: with SQLite, the single writer (request threads
  // share the rest evenly).
  double busiest = 0;
  for (const auto& [tid, sec] : ThreadCpu()) {
    auto it = threads0.find(tid);
    const double used = sec - (it == threads0.end() ? 0 : it->second);
    if (used > busiest) busiest = used;
  }
  const double n = static_cast<double>(ok.load() ? ok.load() : 1);
  std::printf("ok=%llu failed=%llu rps=%.0f cpu_us_per_report=%.1f busiest_thread_us_per_report=%.1f\n",
              static_cast<unsigned long long>(ok.load()), static_cast<unsigned long long>(failed.load()),
              static_cast<double>(ok.load()) / elapsed, cpu * 1e6 / n, busiest * 1e6 / n);
  const auto stats =
      service::internal::ModulesOf(s).Get<service::modules::CaptureModule>().runtime().committer().stats();
  std::printf("batches=%llu avg_batch=%.1f fallbacks=%llu\n", static_cast<unsigned long long>(stats.batches),
              stats.batches ? static_cast<double>(stats.items) / static_cast<double>(stats.batches) : 0.0,
              static_cast<unsigned long long>(stats.fallbacks));
  s.Shutdown();
  return 0;
}
