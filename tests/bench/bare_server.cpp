// bench_bare_server: the baseline of tests/bench/health.sh. Answers
// GET /v1/health with a small JSON body and nothing else, on the transport
// service-server uses, and prints the same "listening on http://HOST:PORT"
// line.
//
//   bench_bare_server [--listen HOST:PORT] [--threads | --plain]
//
// Default: shells/server's event-loop transport (EventServer), as
// service-server runs by default. --threads: the previous thread-per-
// connection transport (HttpServer, SERVICE_TRANSPORT=threads). --plain: a
// stock httplib::Server (TCP_NODELAY and the same thread count).
#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>

#include "event_transport.h"
#include "http_transport.h"

namespace {

std::string HealthBody() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char ts[32];
  std::strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return std::string("{\"status\":\"ok\",\"service\":\"bare\",\"timestamp\":\"") + ts + "\"}";
}

int Usage(const char* message) {
  std::fprintf(stderr, "bench_bare_server: %s\nusage: bench_bare_server [--listen HOST:PORT] [--plain]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:0";
  bool plain = false, threads = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--plain") {
      plain = true;
    } else if (arg == "--threads") {
      threads = true;
    } else if (arg == "--listen" && i + 1 < argc) {
      listen = argv[++i];
    } else if (arg.rfind("--listen=", 0) == 0) {
      listen = std::string(arg.substr(9));
    } else {
      return Usage("unknown argument");
    }
  }
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return Usage("--listen needs HOST:PORT");
  const std::string host = listen.substr(0, colon);
  const int port = std::atoi(listen.c_str() + colon + 1);

  const auto health = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(HealthBody(), "application/json");
  };

  if (plain) {
    httplib::Server server;
    const size_t threads = service::shell::DefaultThreadCount();
    server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    server.set_tcp_nodelay(true);
    server.set_keep_alive_max_count(10000);
    server.Get("/v1/health", health);
    const int bound =
        port == 0 ? server.bind_to_any_port(host) : (server.bind_to_port(host, port) ? port : -1);
    if (bound <= 0) return Usage("cannot bind");
    std::printf("listening on http://%s:%d\n", host.c_str(), bound);
    std::fflush(stdout);
    return server.listen_after_bind() ? 0 : 1;
  }

  if (!threads) {
    service::shell::EventServer server(
        {},
        [](service::api::Request req) {
          service::api::Response res;
          res.headers.Add("Content-Type", "application/json");
          if (req.method == "GET" && req.path == "/v1/health") {
            res.body = HealthBody();
          } else {
            res.status = 404;
            res.body = "{\"error\":\"Not found\"}";
          }
          return res;
        },
        nullptr, [](const std::string&, const std::string&) {});
    int bound = 0;
    std::string error;
    if (!server.Bind(host, port, &bound, &error)) return Usage(error.c_str());
    std::printf("listening on http://%s:%d\n", host.c_str(), bound);
    std::fflush(stdout);
    return server.Serve() ? 0 : 1;
  }

  service::shell::HttpServer server;
  // Like service-server: bodiless requests are answered before routing.
  server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/v1/health") {
      res.set_content(HealthBody(), "application/json");
    } else {
      res.status = 404;
      res.set_content("{\"error\":\"Not found\"}", "application/json");
    }
    return httplib::Server::HandlerResponse::Handled;
  });
  int bound = 0;
  std::string error;
  if (!server.Bind(host, port, &bound, &error)) return Usage(error.c_str());
  std::printf("listening on http://%s:%d\n", host.c_str(), bound);
  std::fflush(stdout);
  return server.Serve() ? 0 : 1;
}
