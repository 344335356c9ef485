// The transport against the real service-server binary: connections that
// stall (a half request line, half the headers, a trickling body, an idle
// keep-alive) hold no thread and never keep a normal client waiting; the
// caps, deadlines and limits of the README's transport table; streamed
// responses through the event loop; shutdown with connections open.
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "server_process.h"

namespace service::e2e {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

boost::json::value ParseJson(const std::string& text) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec) return nullptr;
  return v;
}

// A raw client connection on 127.0.0.1.
class RawConn {
 public:
  // `receive_buffer` > 0: a small SO_RCVBUF (a reader that holds little).
  explicit RawConn(int port, int receive_buffer = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ >= 0 && receive_buffer > 0) {
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(receive_buffer));
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ >= 0 && ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~RawConn() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  bool Send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // Reads what arrives until `done(received)` is true, the peer closes, or
  // `timeout` passes. Sets closed() when the peer closed (or reset).
  std::string ReadUntil(milliseconds timeout, const std::function<bool(const std::string&)>& done) {
    const auto until = Clock::now() + timeout;
    while (!done(in_) && !closed_) {
      const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now()).count();
      if (left <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) break;
      char buf[8192];
      const ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0) {
        closed_ = true;
        break;
      }
      in_.append(buf, static_cast<size_t>(n));
    }
    return in_;
  }
  // Everything until the peer closes (or `timeout`).
  std::string ReadToClose(milliseconds timeout) {
    return ReadUntil(timeout, [](const std::string&) { return false; });
  }
  // One whole response with a Content-Length body.
  std::string ReadResponse(milliseconds timeout) {
    return ReadUntil(timeout, [](const std::string& s) {
      const size_t end = s.find("\r\n\r\n");
      if (end == std::string::npos) return false;
      const size_t cl = s.find("Content-Length: ");
      if (cl == std::string::npos || cl > end) return true;
      return s.size() >= end + 4 + std::stoul(s.substr(cl + 16));
    });
  }
  // Reads whatever has arrived, without waiting.
  void Drain() {
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (closed_ || ::poll(&p, 1, 0) <= 0) return;
      char buf[65536];
      const ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0) {
        closed_ = true;
        return;
      }
      in_.append(buf, static_cast<size_t>(n));
    }
  }
  bool closed() const { return closed_; }
  void Clear() { in_.clear(); }

 private:
  int fd_ = -1;
  std::string in_;
  bool closed_ = false;
};

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

const std::string kHealth = "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n";

// GET /v1/health on a fresh connection, answered within `timeout`.
int HealthStatus(int port, int timeout_s = 5) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(timeout_s, 0);
  client.set_read_timeout(timeout_s, 0);
  auto res = client.Get("/v1/health");
  return res ? res->status : 0;
}

}  // namespace

TEST_CASE(
    "a normal client is served while hundreds of connections stall, with fewer workers than connections") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    // Eight workers for 600 stalled connections: a transport that held a
    // thread per connection could not answer anyone.
    RunningServer server(backend.url, {"SERVICE_RATE_LIMITS=off", "SERVICE_WORKER_THREADS=8",
                                       "SERVICE_HEADER_TIMEOUT=30", "SERVICE_MAX_CONNECTIONS_PER_CLIENT=0"});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    std::vector<std::unique_ptr<RawConn>> stalled;
    for (int i = 0; i < 150; ++i) {
      auto line = std::make_unique<RawConn>(server.port());
      REQUIRE(line->ok());
      REQUIRE(line->Send("GET /v1/hea"));  // half a request line
      stalled.push_back(std::move(line));
      auto headers = std::make_unique<RawConn>(server.port());
      REQUIRE(headers->Send("POST /v1/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: app"));  // half the headers
      stalled.push_back(std::move(headers));
      auto body = std::make_unique<RawConn>(server.port());
      REQUIRE(
          body->Send("POST /v1/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Content-Length: 5000\r\n\r\n{\"title\":"));  // a body that trickles
      stalled.push_back(std::move(body));
      auto idle = std::make_unique<RawConn>(server.port());
      REQUIRE(idle->Send(kHealth));  // one answer, then an idle keep-alive
      stalled.push_back(std::move(idle));
    }
    // The kept-alive ones were answered, and stay open.
    for (size_t i = 3; i < stalled.size(); i += 4) {
      CHECK(StartsWith(stalled[i]->ReadResponse(milliseconds(10'000)), "HTTP/1.1 200"));
    }
    // A normal client, several times, while all of them wait.
    for (int i = 0; i < 5; ++i) CHECK(HealthStatus(server.port()) == 200);
    httplib::Client client("127.0.0.1", server.port());
    client.set_read_timeout(5, 0);
    auto reg = client.Post("/v1/auth/register",
                           "{\"email\":\"stall@example.com\",\"password\":\"stall-test-password\","
                           "\"name\":\"Stall\",\"orgName\":\"Stall Inc\"}",
                           "application/json");
    REQUIRE(reg);
    CHECK(reg->status == 201);
    // The trickling bodies can still complete: they are waiting, not lost.
    for (size_t i = 2; i < 20; i += 4) {
      REQUIRE(stalled[i]->Send("\"late\"}" + std::string(5000 - 16, ' ')));
      const std::string answer = stalled[i]->ReadResponse(milliseconds(10'000));
      CHECK(StartsWith(answer, "HTTP/1.1 401"));  // no capture key: the API answered it
    }
    // And the idle keep-alives can be reused.
    stalled[3]->Clear();
    REQUIRE(stalled[3]->Send(kHealth));
    CHECK(StartsWith(stalled[3]->ReadResponse(milliseconds(10'000)), "HTTP/1.1 200"));
  }
}

TEST_CASE("connections beyond the per-client and total caps are refused at once with 503") {
  TempDir dir;
  const std::string url = Backends(dir).front().url;
  SUBCASE("per client address") {
    RunningServer server(url, {"SERVICE_RATE_LIMITS=off", "SERVICE_MAX_CONNECTIONS_PER_CLIENT=4"});
    REQUIRE(server.ok());
    std::vector<std::unique_ptr<RawConn>> open;
    for (int i = 0; i < 4; ++i) {
      open.push_back(std::make_unique<RawConn>(server.port()));
      REQUIRE(open.back()->Send(kHealth));
      REQUIRE(StartsWith(open.back()->ReadResponse(milliseconds(5'000)), "HTTP/1.1 200"));
    }
    RawConn extra(server.port());
    const std::string refused = extra.ReadToClose(milliseconds(5'000));
    CHECK(StartsWith(refused, "HTTP/1.1 503"));
    CHECK(refused.find("Too many connections") != std::string::npos);
    CHECK(extra.closed());
    // The four are unaffected; once one goes, a new client gets in.
    REQUIRE(open[0]->Send(kHealth));
    open[0]->Clear();
    CHECK(StartsWith(open[0]->ReadResponse(milliseconds(5'000)), "HTTP/1.1 200"));
    open.pop_back();
    bool served = false;
    for (int attempt = 0; attempt < 50 && !served; ++attempt) {
      served = HealthStatus(server.port()) == 200;
      if (!served) std::this_thread::sleep_for(milliseconds(50));
    }
    CHECK(served);
  }
  SUBCASE("in total") {
    RunningServer server(url, {"SERVICE_RATE_LIMITS=off", "SERVICE_MAX_CONNECTIONS=3"});
    REQUIRE(server.ok());
    std::vector<std::unique_ptr<RawConn>> open;
    for (int i = 0; i < 3; ++i) {
      open.push_back(std::make_unique<RawConn>(server.port()));
      REQUIRE(open.back()->Send("GET /v1/hea"));
    }
    std::this_thread::sleep_for(milliseconds(200));
    RawConn extra(server.port());
    CHECK(StartsWith(extra.ReadToClose(milliseconds(5'000)), "HTTP/1.1 503"));
    open.clear();
    bool served = false;
    for (int attempt = 0; attempt < 50 && !served; ++attempt) {
      served = HealthStatus(server.port()) == 200;
      if (!served) std::this_thread::sleep_for(milliseconds(50));
    }
    CHECK(served);
  }
}

TEST_CASE("a request whose headers do not arrive in time gets 408 and is closed, a silent one is closed") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url, {"SERVICE_RATE_LIMITS=off", "SERVICE_HEADER_TIMEOUT=0.5"});
  REQUIRE(server.ok());
  RawConn partial(server.port());
  REQUIRE(partial.Send("GET /v1/health HTTP/1.1\r\nHost: x\r\n"));
  // Trickling more header bytes does not extend the deadline.
  for (int i = 0; i < 4; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    partial.Send("X-A: b\r\n");
  }
  const std::string answer = partial.ReadToClose(milliseconds(5'000));
  CHECK(StartsWith(answer, "HTTP/1.1 408"));
  CHECK(partial.closed());

  RawConn silent(server.port());
  CHECK(silent.ReadToClose(milliseconds(5'000)).empty());
  CHECK(silent.closed());
  CHECK(HealthStatus(server.port()) == 200);
}

TEST_CASE("a body slower than the minimum rate is cut with 408, a prompt one is answered") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url, {"SERVICE_RATE_LIMITS=off", "SERVICE_HEADER_TIMEOUT=0.5",
                                                   "SERVICE_MIN_BODY_RATE=1000"});
  REQUIRE(server.ok());
  RawConn slow(server.port());
  REQUIRE(
      slow.Send("POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                "Content-Length: 100000\r\n\r\n"));
  std::string answer;
  for (int i = 0; i < 40 && !slow.closed(); ++i) {  // 20 bytes per 100 ms: 200 B/s
    slow.Send(std::string(20, ' '));
    answer = slow.ReadUntil(milliseconds(100), [](const std::string& s) { return !s.empty(); });
  }
  answer = slow.ReadToClose(milliseconds(5'000));
  CHECK(StartsWith(answer, "HTTP/1.1 408"));
  CHECK(slow.closed());

  RawConn prompt(server.port());
  const std::string body = "{\"email\":\"nobody@example.com\",\"password\":\"wrong-password-123\"}";
  REQUIRE(
      prompt.Send("POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  "Content-Length: " +
                  std::to_string(body.size()) + "\r\n\r\n" + body));
  CHECK(StartsWith(prompt.ReadResponse(milliseconds(5'000)), "HTTP/1.1 401"));
}

TEST_CASE("request headers over the limit get 431") {
  TempDir dir;
  const std::string url = Backends(dir).front().url;
  SUBCASE("default limit: 16 KiB") {
    RunningServer server(url, {"SERVICE_RATE_LIMITS=off"});
    REQUIRE(server.ok());
    RawConn big(server.port());
    REQUIRE(
        big.Send("GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20'000, 'a') + "\r\n\r\n"));
    const std::string answer = big.ReadToClose(milliseconds(5'000));
    CHECK(StartsWith(answer, "HTTP/1.1 431"));
    CHECK(ParseJson(answer.substr(answer.find("\r\n\r\n") + 4)).is_object());
    RawConn fits(server.port());
    REQUIRE(
        fits.Send("GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(10'000, 'a') + "\r\n\r\n"));
    CHECK(StartsWith(fits.ReadResponse(milliseconds(5'000)), "HTTP/1.1 200"));
  }
  SUBCASE("configured limit") {
    RunningServer server(url, {"SERVICE_RATE_LIMITS=off", "SERVICE_MAX_HEADER_SIZE=2048"});
    REQUIRE(server.ok());
    RawConn big(server.port());
    REQUIRE(big.Send("GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(3'000, 'a') + "\r\n\r\n"));
    CHECK(StartsWith(big.ReadToClose(milliseconds(5'000)), "HTTP/1.1 431"));
    RawConn fits(server.port());
    REQUIRE(
        fits.Send("GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(1'000, 'a') + "\r\n\r\n"));
    CHECK(StartsWith(fits.ReadResponse(milliseconds(5'000)), "HTTP/1.1 200"));
  }
}

TEST_CASE("an idle keep-alive connection is closed after the idle timeout") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url,
                       {"SERVICE_RATE_LIMITS=off", "SERVICE_KEEP_ALIVE_TIMEOUT=0.5"});
  REQUIRE(server.ok());
  RawConn conn(server.port());
  REQUIRE(conn.Send(kHealth));
  REQUIRE(StartsWith(conn.ReadResponse(milliseconds(5'000)), "HTTP/1.1 200"));
  conn.Clear();
  CHECK(conn.ReadToClose(milliseconds(5'000)).empty());
  CHECK(conn.closed());
}

TEST_CASE("SIGTERM with idle and stalled connections open exits 0 promptly") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url, {"SERVICE_RATE_LIMITS=off"});
  REQUIRE(server.ok());
  std::vector<std::unique_ptr<RawConn>> open;
  for (int i = 0; i < 50; ++i) {
    open.push_back(std::make_unique<RawConn>(server.port()));
    REQUIRE(open.back()->Send(i % 2 == 0 ? kHealth : "GET /v1/hea"));
  }
  for (size_t i = 0; i < open.size(); i += 2) REQUIRE(!open[i]->ReadResponse(milliseconds(5'000)).empty());
  const auto began = Clock::now();
  const std::optional<int> status = server.Stop(milliseconds(8'000));
  REQUIRE(status.has_value());
  CHECK(*status == 0);
  // Idle and half-sent connections are not in-flight requests: no 10 s wait.
  CHECK(Clock::now() - began < std::chrono::seconds(5));
  for (auto& c : open) CHECK(c->ReadToClose(milliseconds(2'000)).find("HTTP/1.1 5") == std::string::npos);
}

// Registers an account; returns {capture key, access token, organization id}.
std::vector<std::string> RegisterVia(int port, const std::string& email) {
  httplib::Client client("127.0.0.1", port);
  auto reg = client.Post("/v1/auth/register",
                         "{\"email\":\"" + email +
                             "\",\"password\":\"stream-test-password\",\"name\":\"S\",\"orgName\":\"S Inc\"}",
                         "application/json");
  if (!reg || reg->status != 201) return {};
  const boost::json::value v = ParseJson(reg->body);
  return {std::string(v.at("apiKey").as_string()), std::string(v.at("accessToken").as_string()),
          std::string(v.at("org").at("id").as_string())};
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST_CASE("a slow event-stream reader is disconnected while other streams keep receiving") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    RunningServer server(backend.url, {"SERVICE_RATE_LIMITS=off", "SERVICE_WRITE_TIMEOUT=1",
                                       "SERVICE_PLAN_LIMITS=free:bugs_per_month=100000"});
    REQUIRE(server.ok());
    const std::vector<std::string> account =
        RegisterVia(server.port(), "slow-" + backend.name + "@example.com");
    REQUIRE(account.size() == 3);
    const std::string open =
        "GET /v1/bugs/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
        "Authorization: Bearer " +
        account[1] + "\r\nX-Service-Org: " + account[2] + "\r\n\r\n";
    const auto headers_done = [](const std::string& s) { return s.find("\r\n\r\n") != std::string::npos; };
    RawConn fast(server.port());
    REQUIRE(fast.Send(open));
    REQUIRE(StartsWith(fast.ReadUntil(milliseconds(5'000), headers_done), "HTTP/1.1 200"));
    RawConn slow(server.port(), /*receive_buffer=*/4096);
    REQUIRE(slow.Send(open));
    REQUIRE(StartsWith(slow.ReadUntil(milliseconds(5'000), headers_done), "HTTP/1.1 200"));
    // From here on `slow` reads nothing.

    httplib::Client client("127.0.0.1", server.port());
    client.set_read_timeout(10, 0);
    const httplib::Headers key{{"X-Service-Key", account[0]}};
    const std::string body = "{\"title\":\"" + std::string(400, 't') + "\",\"url\":\"https://shop.example/" +
                             std::string(1500, 'p') + "\",\"severity\":\"high\"}";
    constexpr int kReports = 500;
    for (int i = 0; i < kReports; ++i) {
      auto res = client.Post("/v1/ingest", key, body, "application/json");
      REQUIRE(res);
      REQUIRE(res->status == 201);
      fast.Drain();
    }
    const std::string got = fast.ReadUntil(milliseconds(10'000), [&](const std::string& s) {
      return Count(s, "\nevent: ") + (s.find("event: ") == 0 ? 1 : 0) >= kReports;
    });
    CHECK(Count(got, "event: ") == kReports);  // every event, in order, to the reader that keeps up
    CHECK_FALSE(fast.closed());
    // The slow reader was cut off: once it reads, it finds the end.
    slow.ReadToClose(milliseconds(10'000));
    CHECK(slow.closed());
    CHECK(HealthStatus(server.port()) == 200);
  }
}

TEST_CASE("SIGTERM ends open event streams with their last chunk and exits 0") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url, {"SERVICE_RATE_LIMITS=off"});
  REQUIRE(server.ok());
  const std::vector<std::string> account = RegisterVia(server.port(), "term@example.com");
  REQUIRE(account.size() == 3);
  std::vector<std::unique_ptr<RawConn>> streams;
  for (int i = 0; i < 20; ++i) {
    streams.push_back(std::make_unique<RawConn>(server.port()));
    REQUIRE(streams.back()->Send("GET /v1/bugs/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                                 account[1] + "\r\nX-Service-Org: " + account[2] + "\r\n\r\n"));
    REQUIRE(StartsWith(streams.back()->ReadUntil(
                           milliseconds(5'000),
                           [](const std::string& s) { return s.find("retry: 3000") != std::string::npos; }),
                       "HTTP/1.1 200"));
  }
  const auto began = Clock::now();
  const std::optional<int> status = server.Stop(milliseconds(8'000));
  REQUIRE(status.has_value());
  CHECK(*status == 0);
  CHECK(Clock::now() - began < std::chrono::seconds(5));  // streams are not in-flight requests
  for (auto& s : streams) {
    const std::string all = s->ReadToClose(milliseconds(2'000));
    CHECK(all.size() >= 5);
    CHECK(all.substr(all.size() - 5) == "0\r\n\r\n");  // a complete chunked body
    CHECK(s->closed());
  }
}

TEST_CASE("the previous transport stays available with SERVICE_TRANSPORT=threads") {
  TempDir dir;
  RunningServer server(Backends(dir).front().url, {"SERVICE_RATE_LIMITS=off", "SERVICE_TRANSPORT=threads"});
  REQUIRE(server.ok());
  CHECK(HealthStatus(server.port()) == 200);
  CHECK(server.process().Stderr().find("\"transport\":\"threads\"") != std::string::npos);
}

}  // namespace service::e2e
