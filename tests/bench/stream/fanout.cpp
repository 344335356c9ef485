// bench_stream_fanout: opens --streams GET /v1/bugs/stream connections (the
// headers given), writes --ready-file once they are open, then posts
// --markers reports (one every --interval-ms) with --key and records when
// each stream receives each report's event. Prints one line:
//   streams=N open_at_end=N markers=M deliveries=D missing=X p50_ms p99_ms
//   max_ms worst_fanout_ms rss_kb
// (a delivery's delay runs from just before the report was sent to the
// moment its event arrived on that stream; a marker's fan-out is its
// slowest delivery).
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
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "../common/bench_net.h"

namespace {

using bench::Clock;
using bench::Connect;
using bench::RssKb;
using bench::SendAll;

// Reads until the end of the headers (plus `extra` in the body), or 30 s.
std::string ReadHead(int fd, const std::string& extra) {
  return bench::ReadUntil(fd, std::chrono::seconds(30), [&extra](const std::string& in) {
    return in.find("\r\n\r\n") != std::string::npos && in.find(extra) != std::string::npos;
  });
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0, streams = 1000, markers = 20, interval_ms = 500, server_pid = 0;
  std::string path = "/v1/bugs/stream", key, ready_file;
  std::vector<std::string> headers;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const char* v = argv[i + 1];
    if (arg == "--port") {
      port = std::atoi(v);
    } else if (arg == "--streams") {
      streams = std::atoi(v);
    } else if (arg == "--markers") {
      markers = std::atoi(v);
    } else if (arg == "--interval-ms") {
      interval_ms = std::atoi(v);
    } else if (arg == "--server-pid") {
      server_pid = std::atoi(v);
    } else if (arg == "--key") {
      key = v;
    } else if (arg == "--ready-file") {
      ready_file = v;
    } else if (arg == "--header") {
      headers.push_back(v);
    } else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  if (port <= 0 || key.empty()) {
    std::fprintf(stderr, "--port and --key are required\n");
    return 2;
  }
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }

  std::string request = "GET " + path + " HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n";
  for (const std::string& h : headers) request += h + "\r\n";
  request += "\r\n";
  std::vector<int> fds;
  for (int i = 0; i < streams; ++i) {
    const int fd = Connect(port);
    if (fd < 0 || !SendAll(fd, request) || ReadHead(fd, "retry:").rfind("HTTP/1.1 200", 0) != 0) {
      std::fprintf(stderr, "stream %d did not open\n", i);
      if (fd >= 0) ::close(fd);
      break;
    }
    fds.push_back(fd);
  }

  // Arrival times: per stream, the time of its k-th event.
  std::mutex mu;
  std::unordered_map<int, std::vector<Clock::time_point>> arrivals;
  std::unordered_map<int, bool> open;
  for (int fd : fds) {
    arrivals[fd];
    open[fd] = true;
  }
  std::atomic<bool> done{false};
  std::thread reader([&] {
    const int ep = epoll_create1(0);
    for (int fd : fds) {
      epoll_event e{};
      e.events = EPOLLIN;
      e.data.fd = fd;
      epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
    }
    std::vector<epoll_event> ready(512);
    // A "data: " split across two reads is counted by carrying the tail.
    std::unordered_map<int, std::string> tails;
    char buf[65536];
    while (!done) {
      const int n = epoll_wait(ep, ready.data(), static_cast<int>(ready.size()), 50);
      const auto now = Clock::now();
      for (int i = 0; i < n; ++i) {
        const int fd = ready[i].data.fd;
        const ssize_t r = ::recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (r <= 0) {
          epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
          std::lock_guard<std::mutex> lock(mu);
          open[fd] = false;
          continue;
        }
        std::string text = tails[fd] + std::string(buf, static_cast<size_t>(r));
        int found = 0;
        for (size_t at = text.find("\ndata: "); at != std::string::npos; at = text.find("\ndata: ", at + 1)) {
          ++found;
        }
        tails[fd] = text.size() > 6 ? text.substr(text.size() - 6) : text;
        if (found > 0) {
          std::lock_guard<std::mutex> lock(mu);
          for (int k = 0; k < found; ++k) arrivals[fd].push_back(now);
        }
      }
    }
    ::close(ep);
  });

  if (!ready_file.empty()) std::ofstream(ready_file) << fds.size() << "\n";
  long rss = server_pid > 0 ? RssKb(server_pid) : -1;

  const std::string body =
      "{\"title\":\"Fan-out marker\",\"severity\":\"high\",\"url\":\"https://bench.example/m\"}";
  const std::string post =
      "POST /v1/ingest HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nX-Service-Key: " + key +
      "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  std::vector<Clock::time_point> sent;
  const int poster = Connect(port);
  for (int m = 0; m < markers && poster >= 0; ++m) {
    const auto next = Clock::now() + std::chrono::milliseconds(interval_ms);
    sent.push_back(Clock::now());
    if (!SendAll(poster, post)) break;
    ReadHead(poster, "}");
    if (m == markers / 2 && server_pid > 0) rss = std::max(rss, RssKb(server_pid));
    std::this_thread::sleep_until(next);
  }
  // Every delivery, or 10 s more.
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  for (;;) {
    bool all = true;
    {
      std::lock_guard<std::mutex> lock(mu);
      for (int fd : fds) {
        if (open[fd] && arrivals[fd].size() < sent.size()) all = false;
      }
    }
    if (all || Clock::now() > give_up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  done = true;
  reader.join();

  std::vector<double> delays;
  std::vector<double> worst(sent.size(), 0);
  long missing = 0, still_open = 0;
  for (int fd : fds) {
    still_open += open[fd] ? 1 : 0;
    const auto& a = arrivals[fd];
    for (size_t k = 0; k < sent.size(); ++k) {
      if (k >= a.size()) {
        ++missing;
        continue;
      }
      const double d = std::chrono::duration<double, std::milli>(a[k] - sent[k]).count();
      delays.push_back(d);
      worst[k] = std::max(worst[k], d);
    }
  }
  std::sort(delays.begin(), delays.end());
  const auto pct = [&](double p) {
    if (delays.empty()) return 0.0;
    return delays[std::min(delays.size() - 1,
                           static_cast<size_t>(p * static_cast<double>(delays.size() - 1) + 0.5))];
  };
  std::printf(
      "streams=%zu open_at_end=%ld markers=%zu deliveries=%zu missing=%ld p50_ms=%.1f p99_ms=%.1f "
      "max_ms=%.1f "
      "worst_fanout_ms=%.1f rss_kb=%ld\n",
      fds.size(), still_open, sent.size(), delays.size(), missing, pct(0.5), pct(0.99),
      delays.empty() ? 0.0 : delays.back(),
      worst.empty() ? 0.0 : *std::max_element(worst.begin(), worst.end()), rss);
  for (int fd : fds) ::close(fd);
  if (poster >= 0) ::close(poster);
  return 0;
}
