// bench_ingest_bare: the ceiling of tests/bench/ingest. Answers
// POST /v1/ingest with a constant 201 ingest envelope after reading the
// body, on the transport service-server uses (shells/server/event_transport,
// like bench_bare_server; --threads: the previous http_transport), with no
// service behind it. Prints the same "listening on http://HOST:PORT" line.
//
//   bench_ingest_bare [--listen HOST:PORT] [--threads]
#include <httplib.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "event_transport.h"
#include "http_transport.h"

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:0";
  bool threads = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--threads") {
      threads = true;
    } else if (arg == "--listen" && i + 1 < argc) {
      listen = argv[++i];
    } else {
      std::fprintf(stderr, "usage: bench_ingest_bare [--listen HOST:PORT]\n");
      return 2;
    }
  }
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return 2;
  const std::string host = listen.substr(0, colon);
  const int port = std::atoi(listen.c_str() + colon + 1);

  static const std::string kAnswer =
      "{\"id\":\"01890000-0000-7000-8000-000000000000\",\"occurrenceId\":\"01890000-0000-7000-8000-"
      "000000000001\","
      "\"fingerprint\":\"0123456789abcdef\",\"deduplicated\":true,\"regression\":false,\"is_regression\":"
      "false}";
  if (!threads) {
    service::shell::EventServer server(
        {},
        [](service::api::Request req) {
          service::api::Response res;
          res.headers.Add("Content-Type", "application/json");
          res.status =
              req.method == "POST" && req.path == "/v1/ingest" ? (req.body.empty() ? 400 : 201) : 404;
          res.body = kAnswer;
          return res;
        },
        nullptr, [](const std::string&, const std::string&) {});
    int bound = 0;
    std::string error;
    if (!server.Bind(host, port, &bound, &error)) {
      std::fprintf(stderr, "bench_ingest_bare: %s\n", error.c_str());
      return 2;
    }
    std::printf("listening on http://%s:%d\n", host.c_str(), bound);
    std::fflush(stdout);
    return server.Serve() ? 0 : 1;
  }

  service::shell::HttpServer server;
  server.Post("/v1/ingest", [](const httplib::Request& req, httplib::Response& res) {
    res.status = req.body.empty() ? 400 : 201;
    res.set_content(kAnswer, "application/json");
  });
  int bound = 0;
  std::string error;
  if (!server.Bind(host, port, &bound, &error)) {
    std::fprintf(stderr, "bench_ingest_bare: %s\n", error.c_str());
    return 2;
  }
  std::printf("listening on http://%s:%d\n", host.c_str(), bound);
  std::fflush(stdout);
  return server.Serve() ? 0 : 1;
}
