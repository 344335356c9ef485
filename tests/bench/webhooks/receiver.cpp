// bench_webhook_receiver: a webhook receiver for the webhooks benchmark.
//
//   bench_webhook_receiver [--port 0]
//
// Prints "listening PORT" once bound. POST /r/<name> answers 200 at once and
// records the delay from the payload's `timestamp` (the time the service
// accepted the report, which is no later than its acknowledgement) to the
// arrival; POST /hang/<name> answers after 10 s (a receiver that hangs).
// GET /stats prints one line of key=value pairs over the /r/ deliveries
// since the last GET /stats?reset=1: received, hung (arrivals on /hang),
// distinct (delivery ids), p50_ms, p99_ms, max_ms, per_s (deliveries per
// second between the first and the last arrival).
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "2026-11-25T17:02:34.212Z" -> ms since the epoch, or -1.
int64_t ParseIsoMs(const std::string& s) {
  std::tm tm{};
  int ms = 0;
  if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &ms) != 7) {
    return -1;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

// The value of "timestamp" in a JSON body (the payload puts it last).
std::string Timestamp(const std::string& body) {
  const size_t k = body.rfind("\"timestamp\":\"");
  if (k == std::string::npos) return "";
  const size_t start = k + 13, end = body.find('"', start);
  return end == std::string::npos ? "" : body.substr(start, end - start);
}

struct Stats {
  std::mutex mu;
  std::vector<int64_t> delays;
  std::set<std::string> ids;
  int64_t hung = 0;
  int64_t first = 0, last = 0;
};

}  // namespace

int main(int argc, char** argv) {
  int port = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--port") port = std::atoi(argv[i + 1]);
  }
  Stats stats;
  httplib::Server server;
  server.new_task_queue = [] { return new httplib::ThreadPool(64); };
  server.Post(R"(/r/.*)", [&stats](const httplib::Request& req, httplib::Response& res) {
    const int64_t now = NowMs();
    const int64_t at = ParseIsoMs(Timestamp(req.body));
    {
      std::lock_guard<std::mutex> lock(stats.mu);
      if (at > 0) stats.delays.push_back(now - at);
      stats.ids.insert(req.get_header_value("X-Service-Delivery-Id"));
      if (stats.first == 0) stats.first = now;
      stats.last = now;
    }
    res.set_content("{}", "application/json");
  });
  server.Post(R"(/hang/.*)", [&stats](const httplib::Request&, httplib::Response& res) {
    {
      std::lock_guard<std::mutex> lock(stats.mu);
      ++stats.hung;
    }
    std::this_thread::sleep_for(std::chrono::seconds(10));
    res.set_content("{}", "application/json");
  });
  server.Get("/stats", [&stats](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard<std::mutex> lock(stats.mu);
    std::vector<int64_t> d = stats.delays;
    std::sort(d.begin(), d.end());
    auto pct = [&d](double p) -> int64_t {
      if (d.empty()) return 0;
      size_t i = static_cast<size_t>(p * static_cast<double>(d.size() - 1) + 0.5);
      return d[std::min(i, d.size() - 1)];
    };
    const double span = static_cast<double>(stats.last - stats.first) / 1000.0;
    char line[512];
    std::snprintf(line, sizeof line,
                  "received=%zu hung=%lld distinct=%zu p50_ms=%lld p99_ms=%lld max_ms=%lld per_s=%.0f\n",
                  d.size(), static_cast<long long>(stats.hung), stats.ids.size(),
                  static_cast<long long>(pct(0.50)), static_cast<long long>(pct(0.99)),
                  static_cast<long long>(d.empty() ? 0 : d.back()),
                  span > 0 ? static_cast<double>(d.size()) / span : 0.0);
    res.set_content(line, "text/plain");
    if (req.has_param("reset")) {
      stats.delays.clear();
      stats.ids.clear();
      stats.hung = 0;
      stats.first = stats.last = 0;
    }
  });
  const int bound =
      port > 0 ? (server.bind_to_port("127.0.0.1", port) ? port : -1) : server.bind_to_any_port("127.0.0.1");
  if (bound <= 0) {
    std::fprintf(stderr, "cannot bind\n");
    return 1;
  }
  std::printf("listening %d\n", bound);
  std::fflush(stdout);
  server.listen_after_bind();
  return 0;
}
