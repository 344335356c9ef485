// The server contract (shared/server-contract.md) against the real
// service-server binary, over sockets: start-up line, flags and variables,
// health, errors as JSON, the body limit, request logs, migrate and
// shutdown. Cases that depend on the database run on SQLite, and also on
// PostgreSQL when SERVICE_TEST_POSTGRES_URL is set.
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server_process.h"
#include "service/options.h"
#include "store/database.h"

namespace service::e2e {
namespace {

constexpr size_t kMaxBody = 10 * 1024 * 1024;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

boost::json::value ParseJson(const std::string& text) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec) return nullptr;
  return v;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// Sends raw bytes on a fresh connection and returns everything the server
// answers until it closes the connection or stays silent for `quiet_ms`.
std::string RawExchange(int port, const std::string& request, int quiet_ms = 1500) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    timeval tv{quiet_ms / 1000, (quiet_ms % 1000) * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
      char buf[4096];
      for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
      }
    }
  }
  ::close(fd);
  return out;
}

// The API's 413 envelope: {"error": "Payload too large", ...}.
bool IsPayloadTooLarge(const std::string& body) {
  const boost::json::value v = ParseJson(body);
  return v.is_object() && v.as_object().contains("error") && v.at("error") == "Payload too large";
}

std::string BodyOf(const std::string& raw_response) {
  const size_t split = raw_response.find("\r\n\r\n");
  return split == std::string::npos ? "" : raw_response.substr(split + 4);
}

}  // namespace

TEST_CASE("the server prints its real address, answers health and stops cleanly on SIGTERM") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    RunningServer server(backend.url);
    REQUIRE_MESSAGE(server.ok(), "no listening line; stderr: " << server.process().Stderr());
    CHECK(server.port() != 0);
    CHECK(server.listening_line() == "listening on http://127.0.0.1:" + std::to_string(server.port()));

    httplib::Client client("127.0.0.1", server.port());
    auto res = client.Get("/v1/health");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(Contains(res->get_header_value("Content-Type"), "application/json"));
    CHECK_FALSE(res->get_header_value("X-Request-Id").empty());
    const boost::json::value body = ParseJson(res->body);
    REQUIRE(body.is_object());
    CHECK(body.at("status") == "ok");

    // Exactly one line on standard output.
    const auto status = server.Stop();
    REQUIRE(status.has_value());
    CHECK(*status == 0);
    CHECK(Lines(server.process().Stdout()).size() == 1);
  }
}

TEST_CASE("an unknown route answers a JSON 404 with a request id") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url);
  REQUIRE(server.ok());
  httplib::Client client("127.0.0.1", server.port());
  auto res = client.Get("/v1/no-such-route");
  REQUIRE(res);
  CHECK(res->status == 404);
  CHECK(Contains(res->get_header_value("Content-Type"), "application/json"));
  CHECK_FALSE(res->get_header_value("X-Request-Id").empty());
  const boost::json::value body = ParseJson(res->body);
  REQUIRE(body.is_object());
  CHECK(body.as_object().contains("error"));

  // Every response has its own id.
  auto again = client.Get("/v1/no-such-route");
  REQUIRE(again);
  CHECK(again->get_header_value("X-Request-Id") != res->get_header_value("X-Request-Id"));
}

TEST_CASE("HEAD answers the console and GET routes with GET's status and length and no body") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url);
  REQUIRE(server.ok());
  httplib::Client client("127.0.0.1", server.port());
  for (const std::string path : {"/", "/v1/health", "/v1/no-such-route"}) {
    CAPTURE(path);
    auto get = client.Get(path.c_str());
    REQUIRE(get);
    // Raw bytes: a HEAD answer ends after its headers, on a connection that
    // stays usable (a GET follows on the same one).
    const std::string raw =
        RawExchange(server.port(), std::string("HEAD ") + path +
                                       " HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/health "
                                       "HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(raw.rfind("HTTP/1.1 " + std::to_string(get->status) + " ", 0) == 0);
    const size_t end_of_head = raw.find("\r\n\r\n");
    REQUIRE(end_of_head != std::string::npos);
    const std::string head = raw.substr(0, end_of_head + 2);  // each header line with its CRLF
    CHECK(Contains(head, "Content-Length: " + std::to_string(get->body.size()) + "\r\n"));
    // What follows the HEAD answer is the next response, not a body.
    CHECK(raw.compare(end_of_head + 4, 9, "HTTP/1.1 ") == 0);
  }
}

TEST_CASE("a body over 10 MB answers a JSON 413, 10 MB exactly is read") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url, {"SERVICE_RATE_LIMITS=off"});
  REQUIRE(server.ok());
  httplib::Client client("127.0.0.1", server.port());
  client.set_write_timeout(10, 0);
  client.set_read_timeout(10, 0);

  SUBCASE("declared length over the limit") {
    auto res = client.Post("/v1/ingest", std::string(kMaxBody + 1, 'x'), "application/json");
    REQUIRE(res);
    CHECK(res->status == 413);
    CHECK_FALSE(res->get_header_value("X-Request-Id").empty());
    CHECK(IsPayloadTooLarge(res->body));
  }
  SUBCASE("at the limit the body reaches the API") {
    auto res = client.Post("/v1/ingest", std::string(kMaxBody, 'x'), "application/json");
    REQUIRE(res);
    CHECK(res->status != 413);
    CHECK(ParseJson(res->body).is_object());
  }
  SUBCASE("chunked body over the limit") {
    size_t sent = 0;
    const std::string chunk(64 * 1024, 'y');
    auto res = client.Post(
        "/v1/ingest",
        [&](size_t, httplib::DataSink& sink) {
          if (sent > kMaxBody + chunk.size()) {
            sink.done();
            return true;
          }
          sent += chunk.size();
          return sink.write(chunk.data(), chunk.size());
        },
        "application/json");
    REQUIRE(res);
    CHECK(res->status == 413);
    CHECK(IsPayloadTooLarge(res->body));
  }
  SUBCASE("Expect: 100-continue is refused before the body is sent") {
    const std::string raw =
        RawExchange(server.port(),
                    "POST /v1/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    "Content-Length: 20000000\r\nExpect: 100-continue\r\n\r\n");
    CHECK(raw.rfind("HTTP/1.1 413", 0) == 0);
    CHECK(IsPayloadTooLarge(BodyOf(raw)));
  }
  // The server is still healthy afterwards.
  auto health = httplib::Client("127.0.0.1", server.port()).Get("/v1/health");
  REQUIRE(health);
  CHECK(health->status == 200);
}

TEST_CASE("malformed HTTP gets a JSON 400 and many requests share one connection") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url, {"SERVICE_RATE_LIMITS=off"});
  REQUIRE(server.ok());

  const std::string raw = RawExchange(server.port(), "NONSENSE\r\n\r\n");
  CHECK(raw.rfind("HTTP/1.1 400", 0) == 0);
  CHECK(ParseJson(BodyOf(raw)).is_object());

  // Two pipelined requests on one connection: two answers, in order.
  const std::string two = RawExchange(server.port(),
                                      "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"
                                      "GET /v1/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const size_t first = two.find("HTTP/1.1 200");
  const size_t second = two.find("HTTP/1.1 404");
  CHECK(first == 0);
  CHECK(second != std::string::npos);

  httplib::Client client("127.0.0.1", server.port());
  client.set_keep_alive(true);
  int ok = 0;
  for (int i = 0; i < 200; ++i) {
    auto res = client.Get("/v1/health");
    if (res && res->status == 200) ++ok;
  }
  CHECK(ok == 200);
}

TEST_CASE("request logs are JSON lines with the route pattern, never the query or tokens") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url);
  REQUIRE(server.ok());
  httplib::Client client("127.0.0.1", server.port());
  httplib::Headers secret_headers = {{"Authorization", "Bearer very-secret-token"}};
  auto health = client.Get("/v1/health?token=query-secret&x=1", secret_headers);
  REQUIRE(health);
  auto missing =
      client.Get("/v1/bugs/0190d7e6-0000-7000-8000-000000000000?apiKey=query-secret", secret_headers);
  REQUIRE(missing);
  const std::string health_id = health->get_header_value("X-Request-Id");

  const auto status = server.Stop();
  REQUIRE(status.has_value());
  CHECK(*status == 0);

  const std::string err = server.process().Stderr();
  CHECK_FALSE(Contains(err, "query-secret"));
  CHECK_FALSE(Contains(err, "very-secret-token"));
  CHECK_FALSE(Contains(err, "0190d7e6"));
  int request_lines = 0;
  bool saw_health = false;
  for (const std::string& line : Lines(err)) {
    CAPTURE(line);
    const boost::json::value v = ParseJson(line);
    REQUIRE(v.is_object());
    const auto& o = v.as_object();
    CHECK(o.contains("ts"));
    if (o.contains("msg") && o.at("msg") == "request") {
      ++request_lines;
      CHECK(o.contains("requestId"));
      CHECK(o.contains("method"));
      CHECK(o.contains("route"));
      CHECK(o.contains("status"));
      CHECK(o.contains("durationMs"));
      if (o.at("requestId") == boost::json::value(health_id.c_str())) {
        saw_health = true;
        // The pattern (possibly with its method), never the query.
        REQUIRE(o.at("route").is_string());
        const std::string route(o.at("route").as_string());
        CHECK(Contains(route, "/v1/health"));
        CHECK_FALSE(Contains(route, "?"));
        CHECK(o.at("method") == "GET");
        CHECK(o.at("status") == 200);
      }
    }
  }
  CHECK(request_lines == 2);
  CHECK(saw_health);
}

TEST_CASE("SIGINT lets an in-flight request finish and exits 0") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url);
  REQUIRE(server.ok());
  // A request whose body is still arriving when the signal comes.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(server.port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
  const std::string head =
      "POST /v1/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{";
  REQUIRE(::send(fd, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size()));
  ::usleep(200'000);
  server.process().Signal(SIGINT);
  ::usleep(500'000);
  // New connections are refused while the old one is served.
  CHECK_FALSE(static_cast<bool>(httplib::Client("127.0.0.1", server.port()).Get("/v1/health")));
  REQUIRE(::send(fd, "}", 1, MSG_NOSIGNAL) == 1);
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  std::string answer;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof(buf), 0)) > 0;) answer.append(buf, static_cast<size_t>(n));
  ::close(fd);
  CHECK(answer.rfind("HTTP/1.1 404", 0) == 0);
  const auto status = server.process().Wait(std::chrono::milliseconds(12'000));
  REQUIRE(status.has_value());
  CHECK(*status == 0);
}

TEST_CASE("unknown flags and bad values exit 2 with a one-line message") {
  SUBCASE("unknown flag") {
    const RunResult r = Run({"--no-such-flag"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.err, "--no-such-flag"));
    CHECK(Lines(r.err).size() == 1);
    CHECK(r.out.empty());
  }
  SUBCASE("bad flag value, --flag=value form") {
    const RunResult r = Run({"--listen=nowhere"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.err, "--listen"));
    CHECK(Contains(r.err, "HOST:PORT"));
  }
  SUBCASE("missing flag value") {
    const RunResult r = Run({"--database"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.err, "--database"));
  }
  SUBCASE("bad variable value") {
    const RunResult r = Run({"--listen", "127.0.0.1:0"}, {"SERVICE_RATE_LIMITS=nonsense"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.err, "SERVICE_RATE_LIMITS"));
    CHECK(Lines(r.err).size() == 1);
  }
  SUBCASE("a short JWT secret") {
    const RunResult r = Run({"--listen", "127.0.0.1:0"}, {"SERVICE_JWT_SECRET=short"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.err, "32"));
    CHECK_FALSE(Contains(r.err, "=short"));
  }
  SUBCASE("unexpected argument") { CHECK(Run({"serve-please"}).exit_code == 2); }
}

TEST_CASE("--demo seeds an empty database and prints working credentials, once") {
  TempDir dir;
  const std::string url = "sqlite:" + dir.path() + "/demo.db";
  std::string email, password;
  {
    RunningServer server(url, {}, {"--demo"});
    REQUIRE_MESSAGE(server.ok(), "no listening line; stderr: " << server.process().Stderr());
    const std::string marker = "demo: log in with email ";
    const std::string err = server.process().WaitForStderr(marker, milliseconds(10'000)).value_or("");
    const size_t at = err.find(marker);
    REQUIRE(at != std::string::npos);
    const std::string line = err.substr(at + marker.size(), err.find('\n', at) - at - marker.size());
    email = line.substr(0, line.find(' '));
    password = line.substr(line.rfind(' ') + 1);
    CHECK(email == "demo@example.com");
    httplib::Client client("127.0.0.1", server.port());
    auto login =
        client.Post("/v1/auth/login", "{\"email\":\"" + email + "\",\"password\":\"" + password + "\"}",
                    "application/json");
    REQUIRE(login);
    CHECK(login->status == 200);
    CHECK(server.Stop() == std::optional<int>(0));
    CHECK(Lines(server.process().Stdout()).size() == 1);
  }
  RunningServer again(url, {}, {"--demo"});
  REQUIRE(again.ok());
  // Standard error is complete once the process has exited.
  CHECK(again.Stop() == std::optional<int>(0));
  CHECK(Contains(again.process().Stderr(), "not empty"));
}

TEST_CASE("--help lists every flag and variable and exits 0") {
  const RunResult r = Run({"--help"});
  CHECK(r.exit_code == 0);
  for (const char* flag : {"--listen", "--database", "migrate", "--help"}) {
    CHECK_MESSAGE(Contains(r.out, flag), flag);
  }
  for (std::string_view name : ConfigVariableNames()) {
    CHECK_MESSAGE(Contains(r.out, std::string(name)), name);
  }
  // Defaults are documented.
  CHECK(Contains(r.out, "127.0.0.1:8080"));
  CHECK(Contains(r.out, "sqlite:data/service.db"));
}

TEST_CASE("a flag wins over its variable") {
  TempDir dir;
  // The variables name an address that cannot be bound and a database
  // that cannot be created; the flags' values are used instead.
  RunningServer server("sqlite:" + dir.path() + "/flag.db",
                       {"SERVICE_LISTEN=192.0.2.1:1", "SERVICE_DATABASE_URL=sqlite:/proc/forbidden/x.db"});
  // A variable's bad value does not matter when a flag replaces it.
  RunningServer other("sqlite:" + dir.path() + "/other.db", {"SERVICE_LISTEN=not-an-address"});
  CHECK_MESSAGE(other.ok(), other.process().Stderr());
  REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
  auto res = httplib::Client("127.0.0.1", server.port()).Get("/v1/health");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(std::filesystem::exists(dir.path() + "/flag.db"));
}

TEST_CASE("migrate applies migrations, twice without harm, and fails clearly") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    const RunResult first = Run({"migrate", "--database", backend.url});
    CHECK_MESSAGE(first.exit_code == 0, first.err);
    const RunResult second = Run({"migrate", "--database=" + backend.url});
    CHECK_MESSAGE(second.exit_code == 0, second.err);
  }
  SUBCASE("the variable is read too") {
    const RunResult r = Run({"migrate"}, {"SERVICE_DATABASE_URL=sqlite:" + dir.path() + "/env.db"});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(std::filesystem::exists(dir.path() + "/env.db"));
  }
  SUBCASE("an unusable database") {
    const RunResult r = Run({"migrate", "--database", "sqlite:/proc/forbidden/x.db"});
    CHECK(r.exit_code != 0);
    CHECK(r.exit_code != 2);
    CHECK_FALSE(r.err.empty());
  }
  SUBCASE("migrate takes only --database, and ignores the other variables") {
    CHECK(Run({"migrate", "--listen", "127.0.0.1:0"}).exit_code == 2);
    const RunResult r =
        Run({"migrate", "--database", "sqlite:" + dir.path() + "/m.db"}, {"SERVICE_RATE_LIMITS=nonsense"});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
  }
}

TEST_CASE("the server refuses to start on a port in use") {
  TempDir dir;
  RunningServer first(Backends(dir).front().url);
  REQUIRE(first.ok());
  const RunResult second = Run({"--listen", "127.0.0.1:" + std::to_string(first.port()), "--database",
                                "sqlite:" + dir.path() + "/b.db"});
  CHECK(second.exit_code == 1);
  CHECK(Contains(second.err, "cannot listen"));
}

TEST_CASE("health answers 503 when PostgreSQL becomes unreachable") {
  TempDir dir;
  const std::vector<Backend> backends = Backends(dir);
  if (backends.back().name != "postgres") {
    MESSAGE("SERVICE_TEST_POSTGRES_URL is not set: skipped");
    return;
  }
  // The server reaches PostgreSQL through a relay that the test then cuts.
  std::string host;
  int pg_port = 0;
  std::string probe;
  REQUIRE(RedirectPostgresUrl(backends.back().url, 1, &probe, &host, &pg_port));
  TcpProxy proxy(host, pg_port);
  REQUIRE(proxy.port() > 0);
  std::string url;
  REQUIRE(RedirectPostgresUrl(backends.back().url, proxy.port(), &url, &host, &pg_port));

  RunningServer server(url);
  REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
  httplib::Client client("127.0.0.1", server.port());
  client.set_read_timeout(15, 0);
  auto up = client.Get("/v1/health");
  REQUIRE(up);
  CHECK(up->status == 200);

  proxy.Cut();
  auto down = client.Get("/v1/health");
  REQUIRE(down);
  CHECK(down->status == 503);
  const boost::json::value body = ParseJson(down->body);
  REQUIRE(body.is_object());
  CHECK(body.at("status") == "degraded");

  // It still stops on SIGTERM, and its log never shows the database URL.
  const auto status = server.Stop();
  REQUIRE(status.has_value());
  CHECK(*status == 0);
  CHECK_FALSE(Contains(server.process().Stderr(), "postgresql://"));
}

}  // namespace service::e2e

namespace service::e2e {
namespace {

// A distinct report per call (new fingerprints now and then), small events.
std::string CrashReport(int thread, int i) {
  const std::string message = i % 5 == 0
                                  ? "crash test failure " + std::to_string(thread) + "-" + std::to_string(i)
                                  : "crash test shared failure " + std::to_string(i % 7);
  return "{\"title\":\"TypeError: " + message + "\",\"url\":\"https://app.example.com/orders/" +
         std::to_string(i) + "\",\"userId\":\"user-" + std::to_string(i % 11) + "\",\"sessionId\":\"s-" +
         std::to_string(thread) + "\",\"events\":[{\"type\":\"error\",\"data\":{\"message\":\"" + message +
         "\"}},{\"type\":\"console\",\"data\":{\"message\":\"" + std::string(600, 'x') + "\"}}]}";
}

}  // namespace

// "No data lost on a crash after a success was answered": the process is
// killed (SIGKILL, no shutdown) while reports stream in; every occurrence it
// acknowledged with 201 is in the database afterwards, which opens cleanly.
// On SQLite this covers the WAL writes gathered per commit
// (store/sqlite/wal_write_vfs).
TEST_CASE("a server killed under ingest load keeps every acknowledged report") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    std::mutex mu;
    std::vector<std::string> acknowledged;
    {
      RunningServer server(backend.url, {"SERVICE_RATE_LIMITS=off"});
      REQUIRE_MESSAGE(server.ok(), "no listening line; stderr: " << server.process().Stderr());
      httplib::Client setup("127.0.0.1", server.port());
      auto reg = setup.Post("/v1/auth/register",
                            "{\"email\":\"crash@example.com\",\"password\":\"crash-test-password\","
                            "\"name\":\"Crash\",\"orgName\":\"Crash Inc\"}",
                            "application/json");
      REQUIRE(reg);
      REQUIRE_MESSAGE(reg->status == 201, reg->body);
      const std::string key = std::string(ParseJson(reg->body).at("apiKey").as_string());

      constexpr int kThreads = 8;
      constexpr size_t kKillAfter = 400;  // acknowledged reports before the kill
      std::atomic<bool> killed{false};
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          httplib::Client client("127.0.0.1", server.port());
          client.set_read_timeout(5, 0);
          const httplib::Headers headers{{"X-Service-Key", key}};
          for (int i = 0; !killed; ++i) {
            auto res = client.Post("/v1/ingest", headers, CrashReport(t, i), "application/json");
            if (!res) break;  // the server is gone
            if (res->status != 201) continue;
            const boost::json::value v = ParseJson(res->body);
            std::lock_guard lock(mu);
            acknowledged.push_back(std::string(v.at("occurrenceId").as_string()));
          }
        });
      }
      // Waits for kKillAfter answers (a server that stops acknowledging
      // fails the case after a minute instead of hanging it).
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      bool enough = false;
      while (!enough && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::lock_guard lock(mu);
        enough = acknowledged.size() >= kKillAfter;
      }
      server.process().Signal(SIGKILL);
      killed = true;
      for (std::thread& th : threads) th.join();
      (void)server.process().Wait(std::chrono::milliseconds(5'000));
    }

    auto db = store::OpenDatabase(backend.url, {});
    REQUIRE_MESSAGE(db.ok(), db.status().ToString());
    std::set<std::string> stored;
    Status st = (*db)->Read([&](store::Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(store::Rows r, c.Query("SELECT id FROM occurrences", {}));
      for (size_t i = 0; i < r.size(); ++i) stored.insert(r.Str(i, 0));
      return Status::Ok();
    });
    REQUIRE_MESSAGE(st.ok(), st.ToString());
    size_t missing = 0;
    for (const std::string& id : acknowledged) missing += stored.count(id) == 0 ? 1 : 0;
    CHECK(acknowledged.size() >= 400);  // the kill came under load
    CHECK(missing == 0);
    if ((*db)->dialect() == store::Dialect::kSqlite) {
      std::string check;
      st = (*db)->Read([&](store::Connection& c) -> Status {
        SV_ASSIGN_OR_RETURN(store::Rows r, c.Query("PRAGMA integrity_check", {}));
        check = r.Str(0, 0);
        return Status::Ok();
      });
      REQUIRE(st.ok());
      CHECK(check == "ok");
    }
  }
}

}  // namespace service::e2e
