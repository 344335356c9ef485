// bench_webhook_receiver: a webhook receiver for the webhooks benchmark.
//
//   bench_webhook_receiver [--port 0]
//
// Prints "listening PORT" once bound. POST /r/<name> answers 200 at once and
// records the delay from the payload's `timestamp` (the time the service
// accepted the report, which is no later than its acknowledgement) to the
// arrival; POST /hang/<name> answers after 10 s (a receiver that hangs).
// GET /stats prints one line of key=value pairs over the /r/ deliveries
// since the last GET /stats?reset=1: received, hung (arrivals on /hang),
// distinct (delivery ids), p50_ms, p99_ms, max_ms, per_s (deliveries per
// second between the first and the last arrival).
//
// A plain thread-per-connection HTTP/1.1 server with a listen backlog of
// 4096 (cpp-httplib listens with a backlog of 5: a burst of connections
// then waits a SYN retransmission, 1 s, which would be the receiver's delay,
// not the service's). Connections are kept alive (HTTP/1.1's default) until
// the client closes them or asks for "Connection: close", as the web
// servers in front of real receivers do.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "2026-11-25T17:02:34.212Z" -> ms since the epoch, or -1.
int64_t ParseIsoMs(const std::string& s) {
  std::tm tm{};
  int ms = 0;
  if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &ms) != 7) {
    return -1;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

// The value of "timestamp" in a JSON body (the payload puts it last).
std::string Timestamp(const std::string& body) {
  const size_t k = body.rfind("\"timestamp\":\"");
  if (k == std::string::npos) return "";
  const size_t start = k + 13, end = body.find('"', start);
  return end == std::string::npos ? "" : body.substr(start, end - start);
}

// A header's value (case-insensitive name) in a request head, or "".
std::string Header(const std::string& head, const std::string& name) {
  std::string lower_head = head, lower_name = name;
  for (char& c : lower_head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : lower_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const size_t k = lower_head.find("\r\n" + lower_name + ":");
  if (k == std::string::npos) return "";
  size_t v = k + 3 + name.size();
  while (v < head.size() && head[v] == ' ') ++v;
  return head.substr(v, head.find("\r\n", v) - v);
}

struct Stats {
  std::mutex mu;
  std::vector<int64_t> delays;
  std::set<std::string> ids;
  int64_t hung = 0;
  int64_t first = 0, last = 0;

  std::string Line(bool reset) {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<int64_t> d = delays;
    std::sort(d.begin(), d.end());
    auto pct = [&d](double p) -> int64_t {
      if (d.empty()) return 0;
      size_t i = static_cast<size_t>(p * static_cast<double>(d.size() - 1) + 0.5);
      return d[std::min(i, d.size() - 1)];
    };
    const double span = static_cast<double>(last - first) / 1000.0;
    char line[512];
    std::snprintf(line, sizeof line,
                  "received=%zu hung=%lld distinct=%zu p50_ms=%lld p99_ms=%lld max_ms=%lld per_s=%.0f\n",
                  d.size(), static_cast<long long>(hung), ids.size(), static_cast<long long>(pct(0.50)),
                  static_cast<long long>(pct(0.99)), static_cast<long long>(d.empty() ? 0 : d.back()),
                  span > 0 ? static_cast<double>(d.size()) / span : 0.0);
    if (reset) {
      delays.clear();
      ids.clear();
      hung = 0;
      first = last = 0;
    }
    return line;
  }
};

void Respond(int fd, const std::string& body, const char* type) {
  const std::string out = "HTTP/1.1 200 OK\r\nContent-Type: " + std::string(type) +
                          "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  (void)::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
}

// Serves the requests of one connection; false when it should be closed.
bool ServeOne(int fd, std::string& in, Stats* stats) {
  char buf[16384];
  size_t head_end = std::string::npos;
  while ((head_end = in.find("\r\n\r\n")) == std::string::npos) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    in.append(buf, static_cast<size_t>(n));
  }
  const std::string head = in.substr(0, head_end);
  const size_t length = static_cast<size_t>(std::atol(Header(head, "Content-Length").c_str()));
  while (in.size() < head_end + 4 + length) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    in.append(buf, static_cast<size_t>(n));
  }
  const std::string body = in.substr(head_end + 4, length);
  in.erase(0, head_end + 4 + length);
  std::string connection = Header(head, "Connection");
  for (char& c : connection) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
  const std::string method = head.substr(0, sp1), target = head.substr(sp1 + 1, sp2 - sp1 - 1);
  if (method == "GET" && target.rfind("/stats", 0) == 0) {
    Respond(fd, stats->Line(target.find("reset=1") != std::string::npos), "text/plain");
  } else if (target.rfind("/r/", 0) == 0) {
    const int64_t now = NowMs();
    const int64_t at = ParseIsoMs(Timestamp(body));
    {
      std::lock_guard<std::mutex> lock(stats->mu);
      if (at > 0) stats->delays.push_back(now - at);
      stats->ids.insert(Header(head, "X-Service-Delivery-Id"));
      if (stats->first == 0) stats->first = now;
      stats->last = now;
    }
    Respond(fd, "{}", "application/json");
  } else if (target.rfind("/hang/", 0) == 0) {
    {
      std::lock_guard<std::mutex> lock(stats->mu);
      ++stats->hung;
    }
    std::this_thread::sleep_for(std::chrono::seconds(10));
    Respond(fd, "{}", "application/json");
  } else {
    const std::string out = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
    (void)::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
  }
  return connection != "close";
}

void Serve(int fd, Stats* stats) {
  std::string in;
  while (ServeOne(fd, in, stats)) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--port") port = std::atoi(argv[i + 1]);
  }
  const int lfd = ::socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  ::setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(lfd, 4096) != 0 ||
      ::getsockname(lfd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::fprintf(stderr, "cannot bind\n");
    return 1;
  }
  std::printf("listening %d\n", ntohs(addr.sin_port));
  std::fflush(stdout);
  Stats stats;
  for (;;) {
    const int fd = ::accept(lfd, nullptr, nullptr);
    if (fd < 0) continue;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::thread([fd, &stats] {
      Serve(fd, &stats);
      ::close(fd);
    }).detach();
  }
}
