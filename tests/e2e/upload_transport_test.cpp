// Spooled request bodies through both transports (the event loop and
// SERVICE_TRANSPORT=threads), served in-process on a real socket around a
// Service whose test-only routes carry body policies: a spooled route takes
// a body larger than the global limit (by length and chunked) as a file that
// is gone once the request ends unless the handler took it; a body over the
// route's limit is refused with 413 from its Content-Length before any of it
// is read, or once a chunked one passes it; every other route keeps the
// global limit; a peer that goes away mid-body leaves no file behind.
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "event_transport.h"
#include "http_transport.h"
#include "server_process.h"
#include "service_adapter.h"
#include "service_internal.h"
#include "support/api_harness.h"

namespace service::e2e {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using testing::TestService;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kSpoolLimit = 24ull * 1024 * 1024;
constexpr size_t kBig = 14 * 1024 * 1024;  // over the global 10 MB, under the route's limit

uint64_t Fnv(const char* p, size_t n, uint64_t h = 1469598103934665603ull) {
  for (size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(p[i]);
    h *= 1099511628211ull;
  }
  return h;
}

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + i / 7) & 0xff);
  return s;
}

size_t FilesIn(const fs::path& dir) {
  std::error_code ec;
  size_t n = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

// Waits (up to 3 s) for `dir` to hold `n` files.
bool WaitForFiles(const fs::path& dir, size_t n) {
  const auto until = Clock::now() + std::chrono::seconds(3);
  while (FilesIn(dir) != n) {
    if (Clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Test routes: POST /v1/test/upload and /v1/test/take (spooled, kSpoolLimit,
// in `spool`), POST /v1/test/plain (no policy). Each answers how its body
// came, its size and hash; `take` moves the spool file into `kept`.
void AddRoutes(TestService& t, const fs::path& spool, const fs::path& kept) {
  api::Router& router = internal::PipelineOf(t.service()).router();
  const auto describe = [spool, kept](api::Context& ctx, bool take) {
    json::object o;
    uint64_t size = 0, hash = 1469598103934665603ull;
    if (const auto& src = ctx.req.body_source) {
      o["via"] = "source";
      const std::string* path = src->path();
      o["inSpool"] = path != nullptr && fs::path(*path).parent_path() == spool && fs::exists(*path);
      std::vector<char> buf(64 * 1024);
      for (;;) {
        const int64_t n = src->Read(buf.data(), buf.size());
        if (n <= 0) break;
        hash = Fnv(buf.data(), static_cast<size_t>(n), hash);
        size += static_cast<uint64_t>(n);
      }
      if (take && path) {
        std::error_code ec;
        fs::rename(*path, kept / "taken", ec);
        if (!ec) src->Keep();
        o["taken"] = !ec;
      }
    } else {
      o["via"] = "body";
      size = ctx.req.body.size();
      hash = Fnv(ctx.req.body.data(), ctx.req.body.size());
    }
    o["size"] = size;
    o["hash"] = std::to_string(hash);
    return api::JsonResponse(200, o);
  };
  router.Add("POST", "/v1/test/upload", api::RateClass::kNone, api::AuthMode::kNone,
             [describe](api::Context& c) { return describe(c, false); });
  router.Add("POST", "/v1/test/take", api::RateClass::kNone, api::AuthMode::kNone,
             [describe](api::Context& c) { return describe(c, true); });
  router.Add("POST", "/v1/test/plain", api::RateClass::kNone, api::AuthMode::kNone,
             [describe](api::Context& c) { return describe(c, false); });
  const api::BodyPolicy policy{kSpoolLimit, true, spool.string()};
  REQUIRE(router.SetBodyPolicy("POST", "/v1/test/upload", policy));
  REQUIRE(router.SetBodyPolicy("POST", "/v1/test/take", policy));
}

// One of the shell's transports around `svc`, on 127.0.0.1 and a free port.
class InProcessServer {
 public:
  InProcessServer(bool event_loop, Service& svc) : log_(NewNullLogger()) {
    std::string error;
    if (event_loop) {
      shell::EventTransportSettings settings;
      settings.worker_threads = 8;
      events_ = std::make_unique<shell::EventServer>(
          settings, [&svc](api::Request r) { return svc.Handle(r); }, nullptr,
          [](const std::string&, const std::string&) {});
      events_->SetBodyPolicy(
          [&svc](std::string_view method, std::string_view path) { return svc.BodyPolicyFor(method, path); });
      REQUIRE(events_->Bind("127.0.0.1", 0, &port_, &error));
      thread_ = std::thread([this] { events_->Serve(); });
    } else {
      threads_ = std::make_unique<shell::HttpServer>();
      shell::MountService(*threads_, svc, *log_);
      REQUIRE(threads_->Bind("127.0.0.1", 0, &port_, &error));
      thread_ = std::thread([this] { threads_->Serve(); });
    }
  }
  ~InProcessServer() {
    events_ ? events_->Stop() : threads_->Stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  std::shared_ptr<Logger> log_;
  std::unique_ptr<shell::EventServer> events_;
  std::unique_ptr<shell::HttpServer> threads_;
  std::thread thread_;
  int port_ = 0;
};

// A raw client connection on 127.0.0.1.
class Raw {
 public:
  explicit Raw(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~Raw() { Close(); }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  bool ok() const { return fd_ >= 0; }
  // Sends everything (false when the peer stopped taking it).
  bool Send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }
  // One response (headers and a Content-Length body), or what arrived
  // before the peer closed or `ms` passed.
  std::string ReadResponse(int ms) {
    const auto until = Clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
      const size_t end = in_.find("\r\n\r\n");
      if (end != std::string::npos) {
        const size_t cl = in_.find("Content-Length: ");
        if (cl == std::string::npos || cl > end) return in_;
        if (in_.size() >= end + 4 + std::stoul(in_.substr(cl + 16))) return in_;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) return in_;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) return in_;
      char buf[8192];
      const ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0) return in_;
      in_.append(buf, static_cast<size_t>(n));
    }
  }

 private:
  int fd_ = -1;
  std::string in_;
};

json::value BodyOf(const std::string& response) {
  const size_t end = response.find("\r\n\r\n");
  if (end == std::string::npos) return nullptr;
  boost::system::error_code ec;
  json::value v = json::parse(response.substr(end + 4), ec);
  return ec ? json::value(nullptr) : v;
}

std::string Chunked(const std::string& body, size_t piece) {
  std::string out;
  for (size_t at = 0; at < body.size(); at += piece) {
    const size_t n = std::min(piece, body.size() - at);
    char size[24];
    std::snprintf(size, sizeof(size), "%zx\r\n", n);
    out += size;
    out.append(body, at, n);
    out += "\r\n";
  }
  return out + "0\r\n\r\n";
}

struct Fixture {
  TempDir dir;
  fs::path spool, kept;
  TestService t;
  Fixture() : spool(fs::path(dir.path()) / "spool"), kept(fs::path(dir.path()) / "kept") {
    fs::create_directories(kept);
    AddRoutes(t, spool, kept);
  }
};

}  // namespace

TEST_CASE("a spooled route takes a body over the global limit as a file, on both transports") {
  const std::string big = Pattern(kBig);
  const std::string big_hash = std::to_string(Fnv(big.data(), big.size()));
  for (bool event_loop : {true, false}) {
    CAPTURE(event_loop);
    Fixture f;
    InProcessServer server(event_loop, f.t.service());
    httplib::Client client("127.0.0.1", server.port());
    client.set_read_timeout(30, 0);
    client.set_write_timeout(30, 0);

    // By Content-Length: the handler reads it from a file in the spool folder.
    auto r = client.Post("/v1/test/upload", big, "application/octet-stream");
    REQUIRE(r);
    REQUIRE(r->status == 200);
    json::value v = json::parse(r->body);
    CHECK(v.at("via") == "source");
    CHECK(v.at("inSpool") == true);
    CHECK(v.at("size").to_number<uint64_t>() == big.size());
    CHECK(json::value_to<std::string>(v.at("hash")) == big_hash);
    CHECK(WaitForFiles(f.spool, 0));  // removed when the request ended

    // Chunked, on a kept-alive connection: the same.
    Raw raw(server.port());
    REQUIRE(raw.ok());
    REQUIRE(raw.Send("POST /v1/test/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"));
    REQUIRE(raw.Send(Chunked(big, 100'000)));
    const std::string answer = raw.ReadResponse(30'000);
    REQUIRE(answer.rfind("HTTP/1.1 200", 0) == 0);
    v = BodyOf(answer);
    CHECK(v.at("size").to_number<uint64_t>() == big.size());
    CHECK(json::value_to<std::string>(v.at("hash")) == big_hash);
    CHECK(WaitForFiles(f.spool, 0));

    // A handler that takes the file: it stays where the handler put it.
    r = client.Post("/v1/test/take", big, "application/octet-stream");
    REQUIRE(r);
    REQUIRE(r->status == 200);
    CHECK(json::parse(r->body).at("taken") == true);
    CHECK(WaitForFiles(f.spool, 0));
    CHECK(fs::file_size(f.kept / "taken") == big.size());

    // A small body on the spooled route and on a plain one.
    r = client.Post("/v1/test/upload", "hello", "text/plain");
    REQUIRE(r);
    CHECK(json::parse(r->body).at("size") == 5);
    r = client.Post("/v1/test/plain", "hello", "text/plain");
    REQUIRE(r);
    CHECK(json::parse(r->body).at("via") == "body");
  }
}

TEST_CASE("bodies over a route's limit are refused with 413, before reading when the length says so") {
  for (bool event_loop : {true, false}) {
    CAPTURE(event_loop);
    Fixture f;
    InProcessServer server(event_loop, f.t.service());

    // Other routes keep the global limit: 14 MB declared, nothing sent.
    {
      Raw raw(server.port());
      REQUIRE(
          raw.Send("POST /v1/test/plain HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                   "Content-Length: " +
                   std::to_string(kBig) + "\r\n\r\n"));
      const std::string answer = raw.ReadResponse(5'000);
      REQUIRE(answer.rfind("HTTP/1.1 413", 0) == 0);
      CHECK(BodyOf(answer).at("limit").to_number<uint64_t>() == api::kMaxBodyBytes);
    }
    // The spooled route: a declared length over its limit, answered without
    // a byte of the body (and no spool file made).
    {
      Raw raw(server.port());
      REQUIRE(raw.Send("POST /v1/test/upload HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                       std::to_string(kSpoolLimit + 1) + "\r\n\r\n"));
      const std::string answer = raw.ReadResponse(5'000);
      REQUIRE(answer.rfind("HTTP/1.1 413", 0) == 0);
      CHECK(BodyOf(answer).at("limit").to_number<uint64_t>() == kSpoolLimit);
      CHECK(FilesIn(f.spool) == 0);
    }
    // Under Expect: 100-continue: no 100, a 413.
    {
      Raw raw(server.port());
      REQUIRE(
          raw.Send("POST /v1/test/upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " +
                   std::to_string(kSpoolLimit + 1) + "\r\n\r\n"));
      const std::string answer = raw.ReadResponse(5'000);
      CHECK(answer.rfind("HTTP/1.1 413", 0) == 0);
    }
    // Chunked: counted as it arrives, refused once it passes the limit, the
    // spool file removed.
    {
      Raw raw(server.port());
      REQUIRE(raw.Send("POST /v1/test/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"));
      const std::string piece = Chunked(std::string(1024 * 1024, 'z'), 1024 * 1024);
      const std::string one_chunk = piece.substr(0, piece.size() - 5);  // without the last chunk
      for (int i = 0; i < 26; ++i) {
        if (!raw.Send(one_chunk)) break;  // the server may stop reading once it answered
      }
      const std::string answer = raw.ReadResponse(10'000);
      REQUIRE(answer.rfind("HTTP/1.1 413", 0) == 0);
      CHECK(BodyOf(answer).at("limit").to_number<uint64_t>() == kSpoolLimit);
      CHECK(WaitForFiles(f.spool, 0));
    }
    // On a plain route, chunked over the global limit: 413 too.
    {
      Raw raw(server.port());
      REQUIRE(raw.Send("POST /v1/test/plain HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"));
      const std::string one_chunk = Chunked(std::string(1024 * 1024, 'z'), 1024 * 1024);
      for (int i = 0; i < 12; ++i) {
        if (!raw.Send(one_chunk.substr(0, one_chunk.size() - 5))) break;
      }
      const std::string answer = raw.ReadResponse(10'000);
      REQUIRE(answer.rfind("HTTP/1.1 413", 0) == 0);
      CHECK(BodyOf(answer).at("limit").to_number<uint64_t>() == api::kMaxBodyBytes);
    }
  }
}

TEST_CASE("a peer that goes away in the middle of a spooled body leaves no file") {
  for (bool event_loop : {true, false}) {
    CAPTURE(event_loop);
    Fixture f;
    InProcessServer server(event_loop, f.t.service());
    {
      Raw raw(server.port());
      REQUIRE(raw.Send("POST /v1/test/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n"));
      REQUIRE(raw.Send(std::string(2'000'000, 'q')));
      // The spool file exists while the body arrives.
      CHECK(WaitForFiles(f.spool, 1));
    }  // closed mid-body
    CHECK(WaitForFiles(f.spool, 0));
    // The server goes on serving.
    httplib::Client client("127.0.0.1", server.port());
    auto r = client.Post("/v1/test/upload", "after", "text/plain");
    REQUIRE(r);
    CHECK(r->status == 200);
  }
}

}  // namespace service::e2e
