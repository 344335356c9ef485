// GET /metrics on the real binary (SERVICE_METRICS_TOKEN on the service's
// address, SERVICE_METRICS_LISTEN on its own): the text passes `promtool
// check metrics`, and a real Prometheus server (Debian's prometheus
// package) scrapes both and answers a query for a counter the test moved.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "e2e_client.h"
#include "server_process.h"

extern char** environ;

namespace service::e2e {
namespace {

constexpr const char* kToken = "e2e-metrics-token-0123456789";

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A port nobody listens on now (bound to 0, read, closed).
int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

// The server's own port from its listening line: /metrics is scraped there
// directly (port() may be a validating proxy in front of the API, which
// describes the product's routes, not the operator's /metrics).
int OwnPort(const RunningServer& server) {
  const std::string prefix = "listening on http://127.0.0.1:";
  const std::string& line = server.listening_line();
  return line.rfind(prefix, 0) == 0 ? std::atoi(line.c_str() + prefix.size()) : 0;
}

std::string Scrape(int port, const httplib::Headers& headers, int* status) {
  httplib::Client client("127.0.0.1", port);
  auto res = client.Get("/metrics", headers);
  *status = res ? res->status : 0;
  return res ? res->body : std::string();
}

// A child process (prometheus) killed and reaped at the end of the scope.
class Child {
 public:
  explicit Child(const std::vector<std::string>& argv, const std::string& log) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Child() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  bool started() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_CASE("metrics e2e: the scraped text passes promtool check metrics on both backends") {
  REQUIRE_MESSAGE(std::filesystem::exists("/usr/bin/promtool"),
                  "promtool missing: scripts/install-deps.sh --test installs Debian's prometheus package");
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    const int metrics_port = FreePort();
    RunningServer server(backend.url, {std::string("SERVICE_METRICS_TOKEN=") + kToken,
                                       "SERVICE_METRICS_LISTEN=127.0.0.1:" + std::to_string(metrics_port),
                                       "SERVICE_RATE_LIMITS=off"});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    const Workspace w = Register(server.port(), backend.name + "-metrics@example.com");
    Ingest(server.port(), w, "TypeError: metrics e2e");
    Ingest(server.port(), w, "TypeError: metrics e2e");
    httplib::Client client("127.0.0.1", server.port());
    REQUIRE(client.Get("/v1/health"));

    int status = 0;
    const int own = OwnPort(server);
    REQUIRE(own > 0);
    Scrape(own, {}, &status);
    CHECK(status == 401);
    Scrape(own, {{"Authorization", "Bearer wrong-token-0123456789abc"}}, &status);
    CHECK(status == 401);
    const std::string text = Scrape(own, {{"Authorization", std::string("Bearer ") + kToken}}, &status);
    REQUIRE(status == 200);
    CHECK(Contains(text, "service_reports_accepted_total{outcome=\"new_bug\"} 1\n"));
    CHECK(Contains(text, "service_reports_accepted_total{outcome=\"duplicate\"} 1\n"));
    CHECK(Contains(text,
                   "service_http_requests_total{method=\"POST\",route=\"/v1/ingest\",status=\"2xx\"} 2\n"));
    CHECK(Contains(text, "service_http_open_connections "));
    CHECK(Contains(text, "process_resident_memory_bytes "));
    CHECK(Contains(text, "service_db_connections{backend=\"" +
                             std::string(backend.name == "postgres" ? "postgresql" : "sqlite")));

    // The metrics listener: no token, GET /metrics only.
    const std::string listener = Scrape(metrics_port, {}, &status);
    CHECK(status == 200);
    CHECK(Contains(listener, "# TYPE service_http_requests_total counter\n"));
    httplib::Client other("127.0.0.1", metrics_port);
    auto health = other.Get("/v1/health");
    REQUIRE(health);
    CHECK(health->status == 404);

    for (const std::string* body : {&text, &listener}) {
      const std::string file = dir.path() + "/scrape-" + backend.name + ".txt";
      std::ofstream(file) << *body;
      const auto [code, output] = Shell("/usr/bin/promtool check metrics < " + file + " 2>&1");
      CHECK_MESSAGE(code == 0, output);
      CHECK_MESSAGE(output.empty(), output);  // no lint findings either
    }
    CHECK(server.Stop() == 0);
  }
}

TEST_CASE("metrics e2e: a real Prometheus server scrapes the service and a query returns the counter") {
  REQUIRE_MESSAGE(std::filesystem::exists("/usr/bin/prometheus"),
                  "prometheus missing: scripts/install-deps.sh --test installs Debian's prometheus package");
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    const int metrics_port = FreePort();
    RunningServer server(backend.url, {std::string("SERVICE_METRICS_TOKEN=") + kToken,
                                       "SERVICE_METRICS_LISTEN=127.0.0.1:" + std::to_string(metrics_port)});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    httplib::Client client("127.0.0.1", server.port());
    for (int i = 0; i < 3; ++i) REQUIRE(client.Get("/v1/health"));

    const std::string work = dir.path() + "/prometheus-" + backend.name;
    std::filesystem::create_directories(work + "/data");
    std::ofstream(work + "/prometheus.yml") << "global:\n"
                                               "  scrape_interval: 1s\n"
                                               "  evaluation_interval: 1s\n"
                                               "scrape_configs:\n"
                                               "  - job_name: service\n"
                                               "    authorization:\n"
                                               "      type: Bearer\n"
                                               "      credentials: "
                                            << kToken
                                            << "\n"
                                               "    static_configs:\n"
                                               "      - targets: ['127.0.0.1:"
                                            << OwnPort(server)
                                            << "']\n"
                                               "  - job_name: service-metrics-listener\n"
                                               "    static_configs:\n"
                                               "      - targets: ['127.0.0.1:"
                                            << metrics_port << "']\n";
    const int web_port = FreePort();
    Child prometheus({"/usr/bin/prometheus", "--config.file=" + work + "/prometheus.yml",
                      "--storage.tsdb.path=" + work + "/data",
                      "--web.listen-address=127.0.0.1:" + std::to_string(web_port)},
                     work + "/prometheus.log");
    REQUIRE(prometheus.started());

    // The instant query's first value, or -1 while there is none.
    httplib::Client api("127.0.0.1", web_port);
    auto query = [&](const std::string& promql) -> double {
      auto res = api.Get("/api/v1/query", httplib::Params{{"query", promql}}, httplib::Headers{});
      if (!res || res->status != 200) return -1;
      boost::system::error_code ec;
      const boost::json::value v = boost::json::parse(res->body, ec);
      if (ec || !v.is_object()) return -1;
      const auto* data = v.as_object().if_contains("data");
      if (data == nullptr || !data->is_object()) return -1;
      const auto* result = data->as_object().if_contains("result");
      if (result == nullptr || !result->is_array() || result->as_array().empty()) return -1;
      return std::stod(std::string(result->as_array()[0].at("value").as_array()[1].as_string()));
    };
    const std::string health =
        "service_http_requests_total{job=\"service\",route=\"/v1/health\",method=\"GET\",status=\"2xx\"}";
    double value = -1;
    const bool scraped = WaitFor(
        [&] {
          value = query(health);
          return value > 0;
        },
        std::chrono::seconds(45));
    CHECK_MESSAGE(scraped, ReadFile(work + "/prometheus.log"));
    CHECK(value >= 3);
    // Both targets up: the bearer one and the listener without a token.
    CHECK(WaitFor([&] { return query("up{job=\"service\"}") == 1; }, std::chrono::seconds(10)));
    CHECK(WaitFor([&] { return query("up{job=\"service-metrics-listener\"}") == 1; },
                  std::chrono::seconds(10)));
    CHECK(query("process_resident_memory_bytes{job=\"service\"}") > 0);
    CHECK(server.Stop() == 0);
  }
}

}  // namespace
}  // namespace service::e2e
