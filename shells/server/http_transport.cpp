#include "http_transport.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace service::shell {
namespace {

thread_local ConnectionState* tls_connection = nullptr;

using SteadyClock = std::chrono::steady_clock;

// poll() for one event, retrying on EINTR. Returns >0 ready, 0 timeout, <0 error.
int PollOne(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int r = ::poll(&p, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r > 0 && (p.revents & (POLLERR | POLLNVAL)) && !(p.revents & events)) return -1;
    return r;
  }
}

std::string AddressToString(const sockaddr_storage& addr, int* port) {
  char host[NI_MAXHOST] = "";
  char serv[NI_MAXSERV] = "";
  if (::getnameinfo(reinterpret_cast<const sockaddr*>(&addr), sizeof(addr), host, sizeof(host), serv,
                    sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    *port = -1;
    return "";
  }
  *port = std::atoi(serv);
  return host;
}

// One buffered stream per connection: what a request leaves unread stays
// for the next one, so pipelined requests are parsed correctly.
class ConnectionStream final : public httplib::Stream {
 public:
  ConnectionStream(int fd, time_t read_timeout_sec, time_t write_timeout_sec)
      : fd_(fd),
        read_timeout_ms_(static_cast<int>(read_timeout_sec * 1000)),
        write_timeout_ms_(static_cast<int>(write_timeout_sec * 1000)),
        buffer_(kBufferSize) {
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      remote_ip_ = AddressToString(addr, &remote_port_);
    }
    len = sizeof(addr);
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      local_ip_ = AddressToString(addr, &local_port_);
    }
  }

  bool has_buffered() const { return begin_ < end_; }

  bool is_readable() const override { return has_buffered() || PollOne(fd_, POLLIN, read_timeout_ms_) > 0; }
  bool is_writable() const override { return PollOne(fd_, POLLOUT, write_timeout_ms_) > 0; }

  ssize_t read(char* ptr, size_t size) override {
    if (size == 0) return 0;
    if (!has_buffered()) {
      const ssize_t n = Fill(read_timeout_ms_);
      if (n <= 0) return n;
    }
    const size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  // Reads what the socket holds into the (empty) buffer, waiting up to
  // `timeout_ms` for it. Tries first without waiting: on a busy keep-alive
  // connection the bytes are usually there, and that saves a poll() call.
  // Returns the bytes read, 0 at end of stream, -1 on error or timeout.
  ssize_t Fill(int timeout_ms) {
    begin_ = end_ = 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
      const ssize_t n = ::recv(fd_, buffer_.data(), buffer_.size(), MSG_DONTWAIT);
      if (n >= 0) {
        end_ = static_cast<size_t>(n);
        return n;
      }
      if (errno == EINTR) {
        --attempt;
        continue;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
      if (attempt == 0 && PollOne(fd_, POLLIN, timeout_ms) <= 0) return -1;
    }
    return -1;
  }

  // Without waiting: 1 bytes buffered, 0 end of stream, -1 nothing yet, -2 error.
  int TryFill() {
    if (has_buffered()) return 1;
    for (;;) {
      const ssize_t n = ::recv(fd_, buffer_.data(), buffer_.size(), MSG_DONTWAIT);
      if (n > 0) {
        begin_ = 0;
        end_ = static_cast<size_t>(n);
        return 1;
      }
      if (n == 0) return 0;
      if (errno == EINTR) continue;
      return (errno == EAGAIN || errno == EWOULDBLOCK) ? -1 : -2;
    }
  }

  ssize_t write(const char* ptr, size_t size) override {
    for (int attempt = 0; attempt < 2; ++attempt) {
      const ssize_t n = ::send(fd_, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) return n;
      if (errno == EINTR) {
        --attempt;
        continue;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
      if (attempt == 0 && PollOne(fd_, POLLOUT, write_timeout_ms_) <= 0) return -1;
    }
    return -1;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = remote_ip_;
    port = remote_port_;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = local_ip_;
    port = local_port_;
  }
  socket_t socket() const override { return fd_; }

 private:
  static constexpr size_t kBufferSize = 16 * 1024;

  int fd_;
  int read_timeout_ms_;
  int write_timeout_ms_;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  std::string remote_ip_;
  int remote_port_ = -1;
  std::string local_ip_;
  int local_port_ = -1;
};

// A fixed pool of threads with small stacks (std::thread cannot set one).
class SmallStackPool final : public httplib::TaskQueue {
 public:
  SmallStackPool(size_t threads, size_t stack_bytes) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, std::max<size_t>(stack_bytes, PTHREAD_STACK_MIN));
    for (size_t i = 0; i < threads; ++i) {
      pthread_t t;
      if (pthread_create(&t, &attr, &SmallStackPool::Run, this) == 0) threads_.push_back(t);
    }
    pthread_attr_destroy(&attr);
    if (threads_.empty()) {
      // Out of resources: one default thread keeps the server usable.
      pthread_t t;
      if (pthread_create(&t, nullptr, &SmallStackPool::Run, this) == 0) threads_.push_back(t);
    }
  }
  ~SmallStackPool() override { shutdown(); }

  void enqueue(std::function<void()> fn) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      jobs_.push_back(std::move(fn));
    }
    cv_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    cv_.notify_all();
    for (pthread_t t : threads_) pthread_join(t, nullptr);
    threads_.clear();
  }

 private:
  static void* Run(void* self) {
    static_cast<SmallStackPool*>(self)->Loop();
    return nullptr;
  }

  void Loop() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping and drained
        fn = std::move(jobs_.front());
        jobs_.pop_front();
      }
      fn();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<pthread_t> threads_;
};

// Drains what the peer still sends after our response, so that closing the
// socket does not reset the connection before the peer read the response.
void LingeringClose(ConnectionStream& strm, int fd, int budget_ms) {
  ::shutdown(fd, SHUT_WR);
  const auto deadline = SteadyClock::now() + std::chrono::milliseconds(budget_ms);
  char sink[16 * 1024];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now()).count();
    if (left <= 0) return;
    if (!strm.has_buffered() && PollOne(fd, POLLIN, static_cast<int>(std::min<int64_t>(left, 1000))) <= 0)
      return;
    if (strm.read(sink, sizeof(sink)) <= 0) return;
  }
}

}  // namespace

size_t DefaultThreadCount() {
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<size_t>(256, 64 * cores);
}

ConnectionState* CurrentConnection() { return tls_connection; }

HttpServer::HttpServer(const TransportSettings& settings) : settings_(settings) {
  if (settings_.threads == 0) settings_.threads = DefaultThreadCount();
  set_tcp_nodelay(true);
  set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  });
  set_keep_alive_max_count(settings_.keep_alive_max_count);
  set_keep_alive_timeout(settings_.keep_alive_timeout_sec);
  set_read_timeout(settings_.read_timeout_sec, 0);
  set_write_timeout(settings_.write_timeout_sec, 0);
  const size_t threads = settings_.threads;
  const size_t stack = settings_.thread_stack_bytes;
  new_task_queue = [threads, stack] { return new SmallStackPool(threads, stack); };
}

bool HttpServer::Bind(const std::string& host, int port, int* bound_port, std::string* error) {
  errno = 0;
  int bound = -1;
  if (port == 0) {
    bound = bind_to_any_port(host);
  } else if (bind_to_port(host, port)) {
    bound = port;
  }
  if (bound <= 0) {
    const int err = errno;
    if (error) {
      *error = "cannot listen on " + host + ":" + std::to_string(port);
      if (err != 0) *error += ": " + std::string(std::strerror(err));
    }
    return false;
  }
  // cpp-httplib listens with a backlog of 5; a burst of connections would
  // overflow it. listen() on a listening socket updates the backlog.
  ::listen(svr_sock_, settings_.listen_backlog);
  if (bound_port) *bound_port = bound;
  return true;
}

bool HttpServer::Serve() { return listen_after_bind(); }

void HttpServer::Stop() {
  // Like httplib's stop(), but also effective before Serve() has started:
  // Serve() then returns at once.
  const socket_t sock = svr_sock_.exchange(INVALID_SOCKET);
  if (sock != INVALID_SOCKET) {
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
  }
}

bool HttpServer::process_and_close_socket(socket_t sock) {
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  ConnectionState state;
  tls_connection = &state;
  ConnectionStream strm(sock, settings_.read_timeout_sec, settings_.write_timeout_sec);

  // Waits for the next request; false when the connection should end.
  auto wait_for_request = [&]() {
    const int ready = strm.TryFill();
    if (ready != -1) return ready == 1;
    const auto deadline = SteadyClock::now() + std::chrono::seconds(settings_.keep_alive_timeout_sec);
    while (svr_sock_ != INVALID_SOCKET) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now()).count();
      if (left <= 0) return false;
      const int r = PollOne(sock, POLLIN, static_cast<int>(std::min<int64_t>(left, 100)));
      if (r != 0) return r > 0;
    }
    return false;  // stopping
  };

  bool ret = false;
  size_t remaining = std::max<size_t>(1, settings_.keep_alive_max_count);
  while (remaining > 0 && wait_for_request()) {
    const bool last = remaining == 1 || svr_sock_ == INVALID_SOCKET;
    bool connection_closed = false;
    ret = process_request(strm, last, connection_closed, nullptr);
    if (!ret || connection_closed || last || state.close_after_response) break;
    --remaining;
  }
  if (state.close_after_response) LingeringClose(strm, sock, settings_.lingering_close_ms);
  tls_connection = nullptr;
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ret;
}

}  // namespace service::shell
