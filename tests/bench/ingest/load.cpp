// bench_ingest_load: an HTTP/1.1 load generator for POST /v1/ingest.
//
// One epoll thread drives N keep-alive connections. Every report is a
// realistic browser report of about 4 KB with 20 events (navigation, clicks,
// console output, fetches, one TypeError); one report in 20 carries a new
// error message (a new fingerprint, a new bug), the others repeat one of the
// messages sent before, with volatile numbers and ids that normalization
// removes, so they deduplicate.
//
//   bench_ingest_load --url http://127.0.0.1:PORT/v1/ingest --key KEY
//                     [--connections 50] [--seconds 10] [--rate 0]
//                     [--new-every 20] [--seed 1] [--path /v1/ingest]
//                     [--envelope [--frames FILE [--site-offset N]]] [--pool N]
//
// --rate 0 (default): closed loop, each connection sends its next report as
// soon as the previous one is answered (maximum throughput). --rate R: an
// open loop at R reports/s; each report has a scheduled send time and its
// latency is measured from that time, so a stalled server is not hidden
// (no coordinated omission).
//
// Prints one line of key=value pairs: sent, ok (HTTP 201), non2xx, errors,
// rps (answered 2xx per second), p50_ms, p90_ms, p99_ms, max_ms, new_bugs
// (201 answers with "deduplicated":false; envelopes answer without it),
// avg_body_bytes, created (new messages in the bodies sent).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "report_maker.h"

namespace {

using bench::ReportMaker;

using Clock = std::chrono::steady_clock;

struct Args {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string path = "/v1/ingest";
  std::string key;
  int connections = 50;
  double seconds = 10;
  double rate = 0;
  int new_every = 20;
  uint64_t seed = 1;
  // --envelope: the same reports as gzip-compressed Sentry envelopes to
  // /api/<project>/envelope/ (the --url's path), authenticated with
  // X-Sentry-Auth; a 200 counts as ok.
  bool envelope = false;
  // --pool N: make (and compress) the first N bodies before the clock
  // starts, so that building them does not take the server's CPU on a
  // shared machine (an SDK compresses on its own device); later bodies are
  // made as they are sent.
  size_t pool = 0;
  // --frames FILE: envelope frames pointing into an uploaded bundle, with
  // its debug id (ReportMaker::LoadFrames; run.sh writes it).
  std::string frames;
  // --site-offset N: the new messages' sites start N after their index
  // (ReportMaker::LoadFrames).
  uint64_t site_offset = 0;
};

// gzip (level 1: the generator shares the machine with the server) of `in`.
std::string Gzip(const std::string& in) {
  z_stream zs{};
  deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, in.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

bool ParseUrl(const std::string& url, Args* a) {
  const std::string prefix = "http://";
  if (url.rfind(prefix, 0) != 0) return false;
  std::string rest = url.substr(prefix.size());
  const size_t slash = rest.find('/');
  std::string hostport = rest.substr(0, slash);
  if (slash != std::string::npos) a->path = rest.substr(slash);
  const size_t colon = hostport.rfind(':');
  if (colon == std::string::npos) return false;
  a->host = hostport.substr(0, colon);
  a->port = std::atoi(hostport.c_str() + colon + 1);
  return a->port > 0;
}

struct Conn {
  int fd = -1;
  std::string out;
  size_t out_off = 0;
  std::string in;
  bool busy = false;
  Clock::time_point started;  // scheduled (open loop) or actual (closed loop) send time
};

int Connect(const Args& a) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(a.port));
  if (::inet_pton(AF_INET, a.host.c_str(), &addr.sin_addr) != 1) {
    ::close(fd);
    return -1;
  }
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Parses one complete response at the front of `in`; returns its length or 0.
size_t CompleteResponse(const std::string& in, int* status, std::string_view* body) {
  const size_t header_end = in.find("\r\n\r\n");
  if (header_end == std::string::npos) return 0;
  if (in.size() < 12) return 0;
  *status = std::atoi(in.c_str() + 9);
  size_t length = 0;
  size_t pos = 0;
  while (true) {
    pos = in.find("\r\n", pos);
    if (pos == std::string::npos || pos >= header_end) break;
    pos += 2;
    if (pos + 15 <= in.size() && strncasecmp(in.c_str() + pos, "content-length:", 15) == 0) {
      length = static_cast<size_t>(std::atol(in.c_str() + pos + 15));
    }
  }
  const size_t total = header_end + 4 + length;
  if (in.size() < total) return 0;
  *body = std::string_view(in).substr(header_end + 4, length);
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value for %s\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--url") {
      if (!ParseUrl(value(), &a)) {
        std::fprintf(stderr, "bad --url\n");
        return 2;
      }
    } else if (arg == "--key") {
      a.key = value();
    } else if (arg == "--connections") {
      a.connections = std::atoi(value().c_str());
    } else if (arg == "--seconds") {
      a.seconds = std::atof(value().c_str());
    } else if (arg == "--rate") {
      a.rate = std::atof(value().c_str());
    } else if (arg == "--new-every") {
      a.new_every = std::atoi(value().c_str());
    } else if (arg == "--pool") {
      a.pool = std::strtoull(value().c_str(), nullptr, 10);
    } else if (arg == "--frames") {
      a.frames = value();
    } else if (arg == "--site-offset") {
      a.site_offset = std::strtoull(value().c_str(), nullptr, 10);
    } else if (arg == "--envelope") {
      a.envelope = true;
    } else if (arg == "--seed") {
      a.seed = std::strtoull(value().c_str(), nullptr, 10);
    } else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return 2;
    }
  }

  ReportMaker maker(a.seed, a.new_every);
  if (!a.frames.empty()) {
    std::string error;
    if (!a.envelope || !maker.LoadFrames(a.frames, a.site_offset, &error)) {
      std::fprintf(stderr, "--frames: %s\n", a.envelope ? error.c_str() : "needs --envelope");
      return 2;
    }
  }
  const std::string auth =
      a.key.empty() ? std::string()
      : a.envelope
          ? "X-Sentry-Auth: Sentry sentry_version=7, sentry_client=sentry.javascript.browser/8.55.0, "
            "sentry_key=" +
                a.key + "\r\nContent-Encoding: gzip\r\n"
          : "X-Service-Key: " + a.key + "\r\n";
  const std::string head = "POST " + a.path + " HTTP/1.1\r\nHost: " + a.host + ":" + std::to_string(a.port) +
                           "\r\nUser-Agent: bench_ingest_load\r\nContent-Type: " +
                           (a.envelope ? "application/x-sentry-envelope" : "application/json") + "\r\n" +
                           auth + "Content-Length: ";

  const auto make = [&]() { return a.envelope ? Gzip(maker.NextEnvelope()) : maker.Next(); };
  std::vector<std::string> pool;
  std::vector<uint64_t> pool_created;  // the maker's created() after each pooled body
  pool.reserve(a.pool);
  pool_created.reserve(a.pool);
  for (size_t i = 0; i < a.pool; ++i) {
    pool.push_back(make());
    pool_created.push_back(maker.created());
  }
  size_t pooled = 0;
  uint64_t created = 0;  // new messages in the bodies sent so far

  int ep = ::epoll_create1(EPOLL_CLOEXEC);
  std::vector<Conn> conns(static_cast<size_t>(a.connections));
  for (size_t i = 0; i < conns.size(); ++i) {
    conns[i].fd = Connect(a);
    if (conns[i].fd < 0) {
      std::fprintf(stderr, "cannot connect\n");
      return 1;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLET;
    ev.data.u64 = i;
    ::epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &ev);
  }

  uint64_t sent = 0, ok = 0, non2xx = 0, errors = 0, new_bugs = 0, bytes = 0;
  std::vector<double> latencies;
  latencies.reserve(1 << 20);
  std::deque<Clock::time_point> backlog;  // open loop: scheduled, not yet sent
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + std::chrono::microseconds(static_cast<int64_t>(a.seconds * 1e6));
  const double interval_us = a.rate > 0 ? 1e6 / a.rate : 0;
  uint64_t scheduled = 0;

  auto write_some = [&](Conn& c) -> bool {
    while (c.out_off < c.out.size()) {
      ssize_t n = ::send(c.fd, c.out.data() + c.out_off, c.out.size() - c.out_off, MSG_NOSIGNAL);
      if (n > 0) {
        c.out_off += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
      return false;
    }
    return true;
  };
  auto dispatch = [&](Conn& c, Clock::time_point when) {
    std::string body;
    if (pooled < pool.size()) {
      created = pool_created[pooled];
      body = std::move(pool[pooled++]);
    } else {
      body = make();
      created = maker.created();
    }
    bytes += body.size();
    c.out = head + std::to_string(body.size()) + "\r\n\r\n" + body;
    c.out_off = 0;
    c.busy = true;
    c.started = when;
    ++sent;
    if (!write_some(c)) {
      ++errors;
      c.busy = false;
    }
  };

  // Closed loop: every connection starts at once.
  if (a.rate <= 0) {
    for (auto& c : conns) dispatch(c, Clock::now());
  }

  std::vector<epoll_event> events(conns.size());
  char buf[65536];
  while (true) {
    const Clock::time_point now = Clock::now();
    const bool sending = now < end;
    if (!sending) {
      bool any_busy = false;
      for (auto& c : conns) any_busy = any_busy || c.busy;
      if (!any_busy || now > end + std::chrono::seconds(30)) break;
    }
    if (a.rate > 0 && sending) {
      // Schedule every report whose time has come.
      while (true) {
        const Clock::time_point due =
            start +
            std::chrono::microseconds(static_cast<int64_t>(static_cast<double>(scheduled) * interval_us));
        if (due > now || due >= end) break;
        backlog.push_back(due);
        ++scheduled;
      }
      for (auto& c : conns) {
        if (backlog.empty()) break;
        if (!c.busy) {
          dispatch(c, backlog.front());
          backlog.pop_front();
        }
      }
    }
    const int timeout_ms = a.rate > 0 ? 1 : 100;
    const int n = ::epoll_wait(ep, events.data(), static_cast<int>(events.size()), timeout_ms);
    for (int k = 0; k < n; ++k) {
      Conn& c = conns[events[k].data.u64];
      if (events[k].events & EPOLLOUT) {
        if (c.busy && !write_some(c)) {
          ++errors;
          c.busy = false;
        }
      }
      if (!(events[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
      bool closed = false;
      while (true) {
        ssize_t r = ::recv(c.fd, buf, sizeof buf, 0);
        if (r > 0) {
          c.in.append(buf, static_cast<size_t>(r));
          continue;
        }
        closed = r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
        break;
      }
      int status = 0;
      std::string_view body;
      while (c.busy) {
        const size_t used = CompleteResponse(c.in, &status, &body);
        if (used == 0) break;
        const Clock::time_point done = Clock::now();
        latencies.push_back(std::chrono::duration<double, std::milli>(done - c.started).count());
        if (status >= 200 && status < 300) {
          ++ok;
          if (body.find("\"deduplicated\":false") != std::string_view::npos) ++new_bugs;
        } else {
          ++non2xx;
          if (non2xx <= 3)
            std::fprintf(stderr, "status %d: %.*s\n", status, static_cast<int>(body.size()), body.data());
        }
        c.in.erase(0, used);
        c.busy = false;
        if (closed) break;  // the server ended the keep-alive connection after this answer
        if (a.rate <= 0 && done < end) {
          dispatch(c, Clock::now());
        } else if (a.rate > 0 && !backlog.empty() && done < end) {
          dispatch(c, backlog.front());
          backlog.pop_front();
        }
      }
      if (closed) {
        if (c.busy) ++errors;
        c.busy = false;
        ::epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
        ::close(c.fd);
        c.in.clear();
        c.fd = Connect(a);
        if (c.fd >= 0) {
          epoll_event ev{};
          ev.events = EPOLLIN | EPOLLOUT | EPOLLET;
          ev.data.u64 = static_cast<uint64_t>(&c - conns.data());
          ::epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
          if (a.rate <= 0 && Clock::now() < end) dispatch(c, Clock::now());
        }
      }
    }
  }
  const double elapsed = std::chrono::duration<double>(std::min(Clock::now(), end) - start).count();
  std::sort(latencies.begin(), latencies.end());
  auto pct = [&](double p) {
    if (latencies.empty()) return 0.0;
    size_t idx = static_cast<size_t>(p * static_cast<double>(latencies.size() - 1));
    return latencies[idx];
  };
  std::printf(
      "sent=%llu ok=%llu non2xx=%llu errors=%llu unsent=%zu rps=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f "
      "max_ms=%.2f new_bugs=%llu avg_body_bytes=%.0f created=%llu\n",
      static_cast<unsigned long long>(sent), static_cast<unsigned long long>(ok),
      static_cast<unsigned long long>(non2xx), static_cast<unsigned long long>(errors), backlog.size(),
      static_cast<double>(ok) / elapsed, pct(0.50), pct(0.90), pct(0.99),
      latencies.empty() ? 0.0 : latencies.back(), static_cast<unsigned long long>(new_bugs),
      sent ? static_cast<double>(bytes) / static_cast<double>(sent) : 0.0,
      static_cast<unsigned long long>(created));
  for (auto& c : conns)
    if (c.fd >= 0) ::close(c.fd);
  ::close(ep);
  return 0;
}
