// The live stream across processes: two service-server processes on one
// PostgreSQL database; a report accepted by one reaches a stream held open
// on the other (LISTEN/NOTIFY behind the event bus).
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "e2e_client.h"
#include "server_process.h"

namespace service::e2e {
namespace {

using Clock = std::chrono::steady_clock;

int ConnectLocal(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Reads from `fd` until `needle` shows up or `timeout` passes.
std::string ReadFor(int fd, const std::string& needle, std::chrono::milliseconds timeout,
                    std::string in = "") {
  const auto until = Clock::now() + timeout;
  while (in.find(needle) == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) break;
    char buf[8192];
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    in.append(buf, static_cast<size_t>(n));
  }
  return in;
}

}  // namespace

TEST_CASE("a report accepted by one server process reaches a stream open on another (PostgreSQL)") {
  TempDir dir;
  const std::vector<Backend> backends = Backends(dir);
  const Backend* pg = FindPostgres(backends);
  if (pg == nullptr) return;
  const std::vector<std::string> env = {"SERVICE_RATE_LIMITS=off",
                                        "SERVICE_JWT_SECRET=two-process-stream-secret-0123456789abcdef"};
  RunningServer a(pg->url, env);
  REQUIRE_MESSAGE(a.ok(), a.process().Stderr());
  RunningServer b(pg->url, env);
  REQUIRE_MESSAGE(b.ok(), b.process().Stderr());

  httplib::Client on_a("127.0.0.1", a.port());
  const Workspace w = Register(a.port(), "two@example.com");
  const std::string& key = w.key;
  const std::string& token = w.token;
  const std::string& org = w.org;

  // The stream on process A.
  const int fd = ConnectLocal(a.port());
  REQUIRE(fd >= 0);
  const std::string open = "GET /v1/bugs/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token +
                           "\r\nX-Service-Org: " + org + "\r\n\r\n";
  REQUIRE(::send(fd, open.data(), open.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(open.size()));
  std::string got = ReadFor(fd, "retry: 3000", std::chrono::milliseconds(5'000));
  REQUIRE(got.rfind("HTTP/1.1 200", 0) == 0);

  // The report on process B.
  httplib::Client on_b("127.0.0.1", b.port());
  auto ingest = on_b.Post("/v1/ingest", httplib::Headers{{"X-Service-Key", key}},
                          "{\"title\":\"Seen across processes\",\"severity\":\"high\","
                          "\"url\":\"https://shop.example/cart\"}",
                          "application/json");
  REQUIRE(ingest);
  REQUIRE(ingest->status == 201);
  got = ReadFor(fd, "Seen across processes", std::chrono::milliseconds(10'000), got);
  CHECK(got.find("event: new_bug") != std::string::npos);
  CHECK(got.find("Seen across processes") != std::string::npos);

  // And the other way round: a report on A reaches the stream on A once
  // (its own event is not delivered twice through the database).
  auto again =
      on_a.Post("/v1/ingest", httplib::Headers{{"X-Service-Key", key}},
                "{\"title\":\"Local report\",\"severity\":\"low\",\"url\":\"https://shop.example/x\"}",
                "application/json");
  REQUIRE(again);
  REQUIRE(again->status == 201);
  got = ReadFor(fd, "Local report", std::chrono::milliseconds(10'000), got);
  // Wait a little for a duplicate that must not come.
  got = ReadFor(fd, "never-appears", std::chrono::milliseconds(500), got);
  size_t copies = 0;
  for (size_t at = got.find("\"title\":\"Local report\""); at != std::string::npos;
       at = got.find("\"title\":\"Local report\"", at + 1)) {
    ++copies;
  }
  CHECK(copies == 1);
  ::close(fd);
}

}  // namespace service::e2e
