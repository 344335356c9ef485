// bench_connections_hold: holds many connections open against a server and,
// meanwhile, measures what a normal client sees (tests/bench/connections).
//
//   bench_connections_hold --port PORT [--stalled N] [--idle N]
//       [--streams N --stream-path PATH [--header "Name: value"]...]
//       [--requests 200] [--timeout-ms 30000] [--server-pid PID]
//
//   --stalled N   connections that sent half a request line ("GET /v1/hea")
//   --idle N      connections that got one answer and stay idle (keep-alive)
//   --streams N   GET PATH with the headers, answered 200; the events that
//                 arrive are read (and counted) by a background thread
// Once all are open: --requests sequential GET /v1/health, each on a new
// connection, each given --timeout-ms. Prints one line:
//   held=N refused=N requests=N ok=N timeouts=N p50_ms=X p99_ms=X max_ms=X
//   rss_kb=N (the server's VmRSS with everything held) events=N fanout_ms=X
// --ingest-key KEY: after the health requests, one report is posted and
// fanout_ms is the time until every stream has received an event.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../common/bench_net.h"

namespace {

using bench::Clock;
using bench::Connect;
using bench::RssKb;
using bench::SendAll;

// Reads until the end of the response headers (and a Content-Length body),
// or the timeout. Returns what was read ("" on timeout or close).
std::string ReadResponse(int fd, int timeout_ms, bool want_body) {
  return bench::ReadUntil(fd, std::chrono::milliseconds(timeout_ms), [want_body](const std::string& in) {
    const size_t end = in.find("\r\n\r\n");
    if (end == std::string::npos) return false;
    if (!want_body) return true;
    const size_t cl = in.find("Content-Length: ");
    if (cl == std::string::npos || cl > end) return true;
    return in.size() >= end + 4 + std::strtoul(in.c_str() + cl + 16, nullptr, 10);
  });
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0, stalled = 0, idle = 0, streams = 0, requests = 200, timeout_ms = 30'000, server_pid = 0;
  std::string stream_path, ingest_key;
  std::vector<std::string> headers;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "missing value for %s\n", arg.c_str());
      return 2;
    }
    const char* v = argv[++i];
    if (arg == "--port")
      port = std::atoi(v);
    else if (arg == "--stalled")
      stalled = std::atoi(v);
    else if (arg == "--idle")
      idle = std::atoi(v);
    else if (arg == "--streams")
      streams = std::atoi(v);
    else if (arg == "--stream-path")
      stream_path = v;
    else if (arg == "--header")
      headers.push_back(v);
    else if (arg == "--requests")
      requests = std::atoi(v);
    else if (arg == "--timeout-ms")
      timeout_ms = std::atoi(v);
    else if (arg == "--server-pid")
      server_pid = std::atoi(v);
    else if (arg == "--ingest-key")
      ingest_key = v;
    else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  if (port <= 0) {
    std::fprintf(stderr, "--port is required\n");
    return 2;
  }
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }

  std::vector<int> held;
  int refused = 0;
  for (int i = 0; i < stalled; ++i) {
    const int fd = Connect(port);
    if (fd < 0 || !SendAll(fd, "GET /v1/hea")) {
      ++refused;
      if (fd >= 0) ::close(fd);
      continue;
    }
    held.push_back(fd);
  }
  const std::string health = "GET /v1/health HTTP/1.1\r\nHost: bench\r\n\r\n";
  for (int i = 0; i < idle; ++i) {
    const int fd = Connect(port);
    if (fd < 0 || !SendAll(fd, health) || ReadResponse(fd, timeout_ms, true).rfind("HTTP/1.1 200", 0) != 0) {
      ++refused;
      if (fd >= 0) ::close(fd);
      continue;
    }
    held.push_back(fd);
  }
  std::string stream_request =
      "GET " + stream_path + " HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n";
  for (const std::string& h : headers) stream_request += h + "\r\n";
  stream_request += "\r\n";
  std::vector<int> stream_fds;
  for (int i = 0; i < streams; ++i) {
    const int fd = Connect(port);
    if (fd < 0 || !SendAll(fd, stream_request) ||
        ReadResponse(fd, timeout_ms, false).rfind("HTTP/1.1 200", 0) != 0) {
      // A server that cannot open one more stream will not open the rest
      // either (a thread-per-connection server out of threads): stop here.
      refused += streams - i;
      if (fd >= 0) ::close(fd);
      break;
    }
    stream_fds.push_back(fd);
    held.push_back(fd);
  }

  // The streams' events are read as they come, as a browser would.
  std::atomic<bool> done{false};
  std::atomic<long> events{0};
  std::thread reader;
  if (!stream_fds.empty()) {
    reader = std::thread([&] {
      const int ep = epoll_create1(0);
      for (int fd : stream_fds) {
        epoll_event e{};
        e.events = EPOLLIN;
        e.data.fd = fd;
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
      }
      std::vector<epoll_event> ready(256);
      char buf[16384];
      while (!done) {
        const int n = epoll_wait(ep, ready.data(), static_cast<int>(ready.size()), 100);
        for (int i = 0; i < n; ++i) {
          const ssize_t r = ::recv(ready[i].data.fd, buf, sizeof(buf), MSG_DONTWAIT);
          if (r > 0) {
            for (ssize_t k = 0; k + 5 < r; ++k) events += std::memcmp(buf + k, "data: ", 6) == 0 ? 1 : 0;
          } else if (r == 0) {
            epoll_ctl(ep, EPOLL_CTL_DEL, ready[i].data.fd, nullptr);
          }
        }
      }
      ::close(ep);
    });
  }

  std::vector<double> ms;
  int ok = 0, timeouts = 0;
  for (int i = 0; i < requests; ++i) {
    const auto t0 = Clock::now();
    const int fd = Connect(port);
    const bool sent =
        fd >= 0 && SendAll(fd, "GET /v1/health HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n");
    const std::string answer = sent ? ReadResponse(fd, timeout_ms, true) : "";
    const double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (fd >= 0) ::close(fd);
    if (answer.rfind("HTTP/1.1 200", 0) == 0) {
      ++ok;
    } else {
      ++timeouts;
    }
    ms.push_back(elapsed);
  }
  const long rss = server_pid > 0 ? RssKb(server_pid) : -1;
  // One report while the streams are open: how long until every stream has
  // its event.
  double fanout_ms = -1;
  if (!ingest_key.empty() && !stream_fds.empty()) {
    const std::string body =
        "{\"title\":\"Streamed to every reader\",\"severity\":\"high\",\"url\":\"https://bench.example/a\"}";
    const auto t0 = Clock::now();
    const int fd = Connect(port);
    if (fd >= 0 && SendAll(fd,
                           "POST /v1/ingest HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                           "X-Service-Key: " +
                               ingest_key + "\r\nConnection: close\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\n\r\n" + body)) {
      ReadResponse(fd, timeout_ms, true);
      while (events.load() < static_cast<long>(stream_fds.size()) &&
             Clock::now() - t0 < std::chrono::seconds(10)) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      fanout_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    }
    if (fd >= 0) ::close(fd);
  }
  done = true;
  if (reader.joinable()) reader.join();
  std::sort(ms.begin(), ms.end());
  const auto pct = [&](double p) {
    if (ms.empty()) return 0.0;
    size_t idx = static_cast<size_t>(p * static_cast<double>(ms.size() - 1) + 0.5);
    return ms[std::min(idx, ms.size() - 1)];
  };
  std::printf(
      "held=%zu refused=%d requests=%d ok=%d timeouts=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f rss_kb=%ld "
      "events=%ld fanout_ms=%.1f\n",
      held.size(), refused, requests, ok, timeouts, pct(0.5), pct(0.99), ms.empty() ? 0.0 : ms.back(), rss,
      events.load(), fanout_ms);
  for (int fd : held) ::close(fd);
  return 0;
}
