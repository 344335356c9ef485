#include "event_transport.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "spool.h"

namespace service::shell {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using SteadyClock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

// Piece of a spooled request body read at a time.
constexpr size_t kSpoolChunk = 64 * 1024;

// SO_SNDBUF of an event-stream connection (the kernel doubles it).
constexpr int kEventStreamSendBuffer = 32 * 1024;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool HasCrLf(std::string_view s) { return s.find_first_of("\r\n") != std::string_view::npos; }

// Framing belongs to the transport: these response headers of the API are
// not passed on.
bool IsFramingHeader(std::string_view name) {
  return EqualsIgnoreCase(name, "Content-Length") || EqualsIgnoreCase(name, "Transfer-Encoding") ||
         EqualsIgnoreCase(name, "Connection") || EqualsIgnoreCase(name, "Keep-Alive");
}

// A JSON error answered by the transport itself (no request id: the API never
// saw the request). `message` is a fixed phrase.
std::string TransportError(int status, std::string_view message) {
  const std::string body = "{\"error\":\"" + std::string(message) + "\"}";
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " +
                    std::string(http::obsolete_reason(static_cast<http::status>(status))) +
                    "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                    "\r\nConnection: close\r\n";
  if (status == 503) out += "Retry-After: 1\r\n";
  out += "\r\n" + body;
  return out;
}

// Fixed-size pool of threads with small stacks, fed from one queue.
class WorkerPool {
 public:
  WorkerPool(size_t threads, size_t stack_bytes) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, std::max<size_t>(stack_bytes, 128 * 1024));
    for (size_t i = 0; i < threads; ++i) {
      pthread_t t;
      if (pthread_create(&t, &attr, &WorkerPool::Run, this) == 0) threads_.push_back(t);
    }
    pthread_attr_destroy(&attr);
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (pthread_t t : threads_) pthread_join(t, nullptr);
  }
  size_t size() const { return threads_.size(); }
  void Post(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
  }

 private:
  static void* Run(void* self) {
    static_cast<WorkerPool*>(self)->Loop();
    return nullptr;
  }
  void Loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping, queue drained
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<pthread_t> threads_;
};

EventTransportSettings Resolve(EventTransportSettings s) {
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  if (s.io_threads == 0) s.io_threads = std::max<size_t>(1, cores / 4);
  if (s.worker_threads == 0) s.worker_threads = std::max<size_t>(64, 16 * cores);
  // Every connection holds a descriptor: raise the soft limit to the hard
  // one, and keep the cap below it (with room for the database and files).
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    if (lim.rlim_cur < lim.rlim_max) {
      rlimit raised = lim;
      raised.rlim_cur = lim.rlim_max;
      if (setrlimit(RLIMIT_NOFILE, &raised) == 0) lim = raised;
    }
    if (lim.rlim_cur != RLIM_INFINITY) {
      const size_t reserve = 128 + s.worker_threads;
      const size_t room = lim.rlim_cur > reserve ? static_cast<size_t>(lim.rlim_cur) - reserve : 16;
      if (s.max_connections == 0 || s.max_connections > room) s.max_connections = room;
    }
  }
  return s;
}

}  // namespace

class Connection;

class EventServer::Impl {
 public:
  Impl(EventTransportSettings settings, Handler handler, AccessLog access_log, ErrorLog error_log)
      : settings_(Resolve(settings)),
        handler_(std::move(handler)),
        access_log_(std::move(access_log)),
        error_log_(std::move(error_log)),
        acceptor_(ioc_),
        accept_retry_(ioc_),
        work_(asio::make_work_guard(ioc_)) {}

  bool Bind(const std::string& host, int port, int* bound_port, std::string* error);
  bool Serve();
  void Stop();

  // Registry of open connections (any io thread).
  bool Admit(const std::string& addr);
  void Register(const std::shared_ptr<Connection>& c);
  void Unregister(Connection* c, const std::string& addr);

  const EventTransportSettings settings_;
  const Handler handler_;
  const AccessLog access_log_;
  const ErrorLog error_log_;
  BodyPolicyFn body_policy_;  // set before Serve
  std::atomic<bool> stopping_{false};
  std::atomic<bool> listen_failed_{false};

  // Declared before the io_context: connections still queued in it when it
  // is destroyed unregister themselves here.
  mutable std::mutex mu_;
  size_t open_ = 0;
  std::map<std::string, size_t> per_client_;
  std::map<Connection*, std::weak_ptr<Connection>> connections_;

  asio::io_context ioc_;
  tcp::acceptor acceptor_;
  asio::steady_timer accept_retry_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::unique_ptr<WorkerPool> workers_;

 private:
  void Accept();
  void OnAccept(const boost::system::error_code& ec, tcp::socket socket);
};

// One client connection. Every handler runs on the connection's strand.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(EventServer::Impl& server, tcp::socket socket, std::string addr)
      : server_(server),
        socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        addr_(std::move(addr)),
        accepted_(SteadyClock::now()) {}

  ~Connection() { server_.Unregister(this, addr_); }

  // Starts reading the first request, on the connection's strand.
  void Launch() {
    asio::dispatch(socket_.get_executor(),
                   [self = shared_from_this()] { self->ReadHeader(self->accepted_); });
  }

  // The server stops (any thread).
  void Stop() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->OnStop(); });
  }

 private:
  void OnStop() {
    switch (phase_) {
      case Phase::kIdle:
      case Phase::kHeader:
        Close();  // nothing in flight
        break;
      case Phase::kStream:
        // A waiting stream ends now; otherwise the pump ends it at its next
        // turn (it checks stopping_).
        if (stream_waiting_) {
          stream_waiting_ = false;
          EndStream();
        }
        break;
      default:
        break;  // the response in flight is finished, then the connection closes
    }
  }

  enum class Phase { kIdle, kHeader, kBody, kHandling, kWriting, kStream, kLingering, kClosed };

  // Deadlines are lazy: Arm only records the new one, and the timer is
  // restarted only when the new deadline is earlier than the wait already
  // pending (cancelling a wait costs a handler run; requests on a busy
  // keep-alive connection move their deadline several times each).
  void Arm(SteadyClock::time_point deadline) {
    deadline_ = deadline;
    if (timer_waiting_ && timer_expiry_ <= deadline) return;
    StartTimer(deadline);
  }
  void Disarm() { deadline_ = SteadyClock::time_point::max(); }

  void StartTimer(SteadyClock::time_point at) {
    timer_expiry_ = at;
    timer_waiting_ = true;
    timer_.expires_at(at);  // cancels a pending wait (its handler sees the generation change)
    const uint64_t generation = ++timer_generation_;
    timer_.async_wait([self = shared_from_this(), generation](const boost::system::error_code&) {
      if (generation != self->timer_generation_) return;  // replaced by a later StartTimer
      self->timer_waiting_ = false;
      if (self->Closing() || self->deadline_ == SteadyClock::time_point::max()) return;
      if (SteadyClock::now() >= self->deadline_) return self->OnDeadline();
      self->StartTimer(self->deadline_);
    });
  }

  void OnDeadline() {
    switch (phase_) {
      case Phase::kHeader:
        // A request begun but not finished in time: say so (best effort).
        if (buffer_.size() > 0) SendNow(TransportError(408, "Request timeout"));
        Close();
        break;
      case Phase::kBody:
        SendNow(TransportError(408, "Request timeout"));
        Close();
        break;
      case Phase::kHandling:
        break;  // no deadline while the handler runs
      default:
        Close();  // idle, a write the peer does not accept, a lingering close
        break;
    }
  }

  // Writes without waiting (a short error before closing); what does not fit
  // into the socket buffer is dropped.
  void SendNow(const std::string& bytes) {
    if (!socket_.is_open()) return;
    ::send(socket_.native_handle(), bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  }

  void Close() {
    if (phase_ == Phase::kClosed) return;
    phase_ = Phase::kClosed;
    Log();           // a response cut short is logged too
    spool_.reset();  // a body cut short: its file goes
    if (stream_) {
      stream_->Close();
      stream_.reset();
    }
    Disarm();
    timer_.cancel();  // releases the connection held by the pending wait
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  bool Closing() const { return phase_ == Phase::kClosed; }

  // ---- reading a request

  // Waits for the first byte of the next request on a kept-alive connection.
  void WaitIdle() {
    if (server_.stopping_) return Close();
    if (buffer_.size() > 0) return ReadHeader(SteadyClock::now());  // pipelined
    phase_ = Phase::kIdle;
    Arm(SteadyClock::now() + Millis(server_.settings_.keep_alive_timeout_ms));
    socket_.async_read_some(buffer_.prepare(4096),
                            [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
                              if (self->Closing()) return;
                              if (ec) return self->Close();
                              self->buffer_.commit(n);
                              self->ReadHeader(SteadyClock::now());
                            });
  }

  void ReadHeader(SteadyClock::time_point began) {
    phase_ = Phase::kHeader;
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(server_.settings_.max_header_bytes));
    // The length is checked once the header is in (to answer 413 through
    // the API); the limit is set for chunked bodies before the body is read.
    parser_->body_limit(boost::none);
    Arm(began + Millis(server_.settings_.header_timeout_ms));
    http::async_read_header(
        socket_, buffer_, *parser_,
        [self = shared_from_this()](const boost::system::error_code& ec, size_t) { self->OnHeader(ec); });
  }

  void OnHeader(const boost::system::error_code& ec) {
    if (Closing()) return;
    if (ec) {
      if (ec == http::error::header_limit) return Reject(431, "Request header fields too large");
      // A malformed request line or header; the position in the byte stream
      // is lost, so the connection closes after the answer.
      if (ec.category() == http::make_error_code(http::error::bad_method).category() &&
          ec != http::error::end_of_stream && ec != http::error::partial_message) {
        return Reject(400, "Bad request");
      }
      return Close();  // the peer went away or closed mid-request
    }
    start_ = SteadyClock::now();
    auto& req = parser_->get();
    keep_alive_ = req.keep_alive() && !server_.stopping_;
    http11_ = req.version() >= 11;
    head_ = req.method() == http::verb::head;
    const auto length = parser_->content_length();
    api::BodyPolicy policy;
    if (server_.body_policy_ && !parser_->is_done()) {
      const std::string_view target = req.target();
      policy = server_.body_policy_(req.method_string(), target.substr(0, target.find('?')));
    }
    if (length && *length > policy.max_bytes) {
      // Refused from its length, before any of it is read (no 100 Continue).
      return Answer(/*body_too_large=*/true);
    }
    if (parser_->is_done()) return Answer(false);
    if (policy.spooled) {
      std::string error;
      spool_ = SpoolFile::Create(policy.spool_dir, &error);
      if (!spool_) {
        server_.error_log_("cannot spool a request body", error);
        return Reject(503, "Service unavailable");
      }
      // The header is in, no body byte parsed yet: the parser moves to a
      // body type that hands over pieces instead of keeping them.
      spool_parser_.emplace(std::move(*parser_));
      spool_parser_->body_limit(policy.max_bytes);
      spool_chunk_.resize(kSpoolChunk);
      // Beast reads at most the read buffer's free capacity per call (at
      // least 512 bytes); after a header that is a few hundred bytes, so a
      // 10 MiB body took ~20,000 reads and spool writes. A piece's worth of
      // room makes them 64 KiB (Next shrinks the buffer again).
      buffer_.reserve(kSpoolChunk);
    } else {
      parser_->body_limit(policy.max_bytes);
    }
    if (EqualsIgnoreCase(std::string_view(req[http::field::expect]), "100-continue") && http11_) {
      phase_ = Phase::kWriting;
      out_ = "HTTP/1.1 100 Continue\r\n\r\n";
      return WriteOut([](Connection& c) {
        c.body_began_ = SteadyClock::now();
        c.spool_ ? c.ReadSpool() : c.ReadBody();
      });
    }
    body_began_ = SteadyClock::now();
    spool_ ? ReadSpool() : ReadBody();
  }

  void ReadBody() {
    phase_ = Phase::kBody;
    const auto& s = server_.settings_;
    const uint64_t received = body_received_;
    auto deadline = body_began_ + Millis(s.header_timeout_ms);
    if (s.min_body_rate > 0) deadline += Millis(static_cast<int64_t>(received * 1000 / s.min_body_rate));
    Arm(deadline);
    http::async_read_some(
        socket_, buffer_, *parser_,
        [self = shared_from_this()](const boost::system::error_code& ec, size_t n) { self->OnBody(ec, n); });
  }

  void OnBody(const boost::system::error_code& ec, size_t n) {
    if (Closing()) return;
    if (ec == http::error::body_limit) return Answer(/*body_too_large=*/true);
    if (ec) {
      if (ec == asio::error::eof || ec == http::error::end_of_stream || ec == http::error::partial_message ||
          ec == asio::error::connection_reset || ec == asio::error::operation_aborted) {
        return Close();
      }
      return Reject(400, "Invalid request body");
    }
    body_received_ += n;
    if (parser_->is_done()) return Answer(false);
    ReadBody();
  }

  // A spooled body: each piece goes to the spool file as it arrives.
  void ReadSpool() {
    phase_ = Phase::kBody;
    const auto& s = server_.settings_;
    auto deadline = body_began_ + Millis(s.header_timeout_ms);
    if (s.min_body_rate > 0) {
      deadline += Millis(static_cast<int64_t>(body_received_ * 1000 / s.min_body_rate));
    }
    Arm(deadline);
    auto& body = spool_parser_->get().body();
    body.data = spool_chunk_.data();
    body.size = spool_chunk_.size();
    http::async_read_some(
        socket_, buffer_, *spool_parser_,
        [self = shared_from_this()](const boost::system::error_code& ec, size_t) { self->OnSpool(ec); });
  }

  void OnSpool(boost::system::error_code ec) {
    if (Closing()) return;
    if (ec == http::error::need_buffer) ec = {};  // the piece is full
    if (ec == http::error::body_limit) {
      spool_.reset();
      return Answer(/*body_too_large=*/true);
    }
    if (ec) {
      spool_.reset();
      if (ec == asio::error::eof || ec == http::error::end_of_stream || ec == http::error::partial_message ||
          ec == asio::error::connection_reset || ec == asio::error::operation_aborted) {
        return Close();
      }
      return Reject(400, "Invalid request body");
    }
    const size_t got = spool_chunk_.size() - spool_parser_->get().body().size;
    body_received_ += got;
    if (got > 0 && !spool_->Write(spool_chunk_.data(), got)) {
      spool_.reset();
      server_.error_log_("cannot spool a request body", "write failed");
      return Reject(503, "Service unavailable");
    }
    if (spool_parser_->is_done()) return Answer(false);
    ReadSpool();
  }

  // The request's header, whichever parser holds it.
  const http::request_header<>& Header() const {
    return spool_parser_ ? spool_parser_->get().base() : parser_->get().base();
  }

  // Answers a request the API will not see and closes the connection.
  void Reject(int status, std::string_view message) {
    start_ = SteadyClock::now();
    keep_alive_ = false;
    std::string method;
    if (spool_parser_) {
      method = std::string(spool_parser_->get().method_string());
    } else if (parser_ && parser_->is_header_done()) {
      method = std::string(parser_->get().method_string());
    }
    WriteRaw(TransportError(status, message), /*linger=*/true, AccessRecord{"", method, "", status, 0});
  }

  // ---- running a request

  void Answer(bool body_too_large) {
    Disarm();
    phase_ = Phase::kHandling;
    if (body_too_large) keep_alive_ = false;  // unread bytes follow
    const http::request_header<>& msg = Header();
    api::Request in;
    in.method = std::string(msg.method_string());
    const std::string_view target = msg.target();
    const size_t q = target.find('?');
    in.path = std::string(target.substr(0, q));
    if (q != std::string_view::npos) in.query = std::string(target.substr(q + 1));
    for (const auto& field : msg)
      in.headers.Add(std::string(field.name_string()), std::string(field.value()));
    if (spool_) {
      if (!body_too_large) in.body_source = spool_->Finish();
      spool_.reset();
      if (!body_too_large && !in.body_source) {
        server_.error_log_("cannot spool a request body", "rewind failed");
        return Reject(503, "Service unavailable");
      }
    } else if (!body_too_large && !spool_parser_) {
      in.body = std::move(parser_->get().body());
    }
    in.body_too_large = body_too_large;
    in.remote_addr = addr_;
    linger_after_ = body_too_large;
    method_ = in.method;
    server_.workers_->Post([self = shared_from_this(), in = std::move(in)]() mutable {
      api::Response out;
      try {
        out = self->server_.handler_(std::move(in));
      } catch (const std::exception& e) {
        self->server_.error_log_("unhandled exception in the HTTP shell", e.what());
        out = api::Response{};
        out.status = 500;
        out.headers.Add("Content-Type", "application/json");
        out.body = "{\"error\":\"Internal server error\"}";
      }
      asio::post(self->socket_.get_executor(),
                 [self, out = std::move(out)]() mutable { self->Respond(std::move(out)); });
    });
  }

  void Respond(api::Response out) {
    if (Closing()) return;
    if (server_.stopping_) keep_alive_ = false;
    record_ = AccessRecord{out.headers.Get("X-Request-Id"), method_, out.route, out.status, 0};
    pending_log_ = true;
    std::string head = "HTTP/1.1 " + std::to_string(out.status) + " " +
                       std::string(http::obsolete_reason(static_cast<http::status>(out.status))) + "\r\n";
    bool has_type = false;
    for (const auto& [name, value] : out.headers.items()) {
      if (IsFramingHeader(name) || HasCrLf(name) || HasCrLf(value) || name.empty()) continue;
      if (EqualsIgnoreCase(name, "Content-Type")) has_type = true;
      head += name;
      head += ": ";
      head += value;
      head += "\r\n";
    }
    if (out.stream) {
      if (!has_type) head += "Content-Type: text/event-stream\r\n";
      if (!has_type || out.headers.Get("Content-Type").rfind("text/event-stream", 0) == 0) {
        // An event stream's socket holds at most kEventStreamSendBuffer
        // unread bytes (instead of the kernel's autotuned megabytes): the
        // kernel memory of 1,000 streams stays small, and a reader that
        // stops reading is noticed (backlog, write timeout) after a few
        // events, not after megabytes of them.
        const int bytes = kEventStreamSendBuffer;
        ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
      }
      // HTTP/1.0 has no chunks: the body ends when the connection does.
      if (http11_) {
        head += "Transfer-Encoding: chunked\r\n";
      } else {
        keep_alive_ = false;
      }
      head += keep_alive_ ? "" : "Connection: close\r\n";
      head += "\r\n";
      stream_ = std::move(out.stream);
      if (head_) {
        stream_->Close();
        stream_.reset();
        head_stream_ = true;
      }
      WriteHeadThenStream(std::move(head));
      return;
    }
    if (!head_) {
      head += "Content-Length: " + std::to_string(out.body.size()) + "\r\n";
    } else if (const std::string length = out.headers.Get("Content-Length");
               !length.empty() && length.find_first_not_of("0123456789") == std::string::npos) {
      // HEAD: the API stripped the body and named the GET's length (none
      // for a stream).
      head += "Content-Length: " + length + "\r\n";
    }
    if (!keep_alive_) head += "Connection: close\r\n";
    head += "\r\n";
    if (!head_) head += out.body;
    WriteRaw(std::move(head), linger_after_, record_);
  }

  // Writes out_ within the write timeout, then runs `then(*this)`. A failed
  // write closes the connection (Close logs a response cut short).
  template <typename Then>
  void WriteOut(Then then) {
    Arm(SteadyClock::now() + Millis(server_.settings_.write_timeout_ms));
    asio::async_write(socket_, asio::buffer(out_),
                      [self = shared_from_this(), then = std::move(then)](const boost::system::error_code& ec,
                                                                          size_t) mutable {
                        if (self->Closing()) return;
                        if (ec) return self->Close();
                        then(*self);
                      });
  }

  // Writes a whole response, logs it, then reads the next request or closes.
  void WriteRaw(std::string bytes, bool linger, AccessRecord record) {
    phase_ = Phase::kWriting;
    out_ = std::move(bytes);
    record_ = std::move(record);
    pending_log_ = true;
    WriteOut([linger](Connection& c) {
      c.Log();
      c.out_.clear();
      c.out_.shrink_to_fit();
      c.Next(linger);
    });
  }

  void Log() {
    if (!pending_log_) return;
    pending_log_ = false;
    record_.duration_ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - start_).count();
    if (server_.access_log_) server_.access_log_(record_);
  }

  void Next(bool linger) {
    parser_.reset();
    spool_parser_.reset();
    spool_chunk_.clear();
    spool_chunk_.shrink_to_fit();
    body_received_ = 0;
    // A large body grew the read buffer; an idle connection keeps none of it.
    if (buffer_.size() == 0 && buffer_.capacity() > 16 * 1024) buffer_.shrink_to_fit();
    if (linger) return Linger();
    if (!keep_alive_) return Close();
    WaitIdle();
  }

  // Half-closes, then reads and drops what the peer still sends (the rest of
  // a refused body) so that it reads our answer instead of a reset.
  void Linger() {
    phase_ = Phase::kLingering;
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    buffer_.clear();
    Arm(SteadyClock::now() + Millis(server_.settings_.lingering_close_ms));
    Drain();
  }
  void Drain() {
    socket_.async_read_some(buffer_.prepare(16 * 1024),
                            [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
                              if (self->Closing()) return;
                              if (ec) return self->Close();
                              self->Drain();
                            });
  }

  // ---- streamed responses

  void WriteHeadThenStream(std::string head) {
    phase_ = Phase::kStream;
    out_ = std::move(head);
    WriteOut([](Connection& c) {
      if (c.head_stream_) {
        c.head_stream_ = false;
        c.Log();
        return c.Next(false);
      }
      c.WatchPeer();
      // Start, then the first piece, on a worker.
      c.Pump(/*start=*/true);
    });
  }

  // While a stream is open nothing is expected from the peer: a read that
  // ends means it went away. Bytes it sends (a pipelined request) are kept.
  void WatchPeer() {
    if (buffer_.size() >= server_.settings_.max_header_bytes) return;
    watching_ = true;
    socket_.async_read_some(buffer_.prepare(1024),
                            [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
                              self->watching_ = false;
                              if (self->Closing()) return;
                              if (ec) {
                                if (self->phase_ == Phase::kStream) self->Close();
                                return;
                              }
                              self->buffer_.commit(n);
                              if (self->phase_ == Phase::kStream) self->WatchPeer();
                            });
  }

  // Asks the stream for its next piece on a worker thread.
  void Pump(bool start) {
    if (!stream_ || server_.stopping_) return EndStream();
    Disarm();
    woken_ = false;
    stream_waiting_ = false;
    pumping_ = true;
    std::weak_ptr<Connection> weak = weak_from_this();
    auto executor = socket_.get_executor();
    server_.workers_->Post([self = shared_from_this(), stream = stream_, start, weak, executor] {
      if (start) {
        stream->Start([weak, executor] {
          asio::post(executor, [weak] {
            if (auto c = weak.lock()) c->OnWake();
          });
        });
      }
      std::string piece;
      api::ResponseStream::State state = api::ResponseStream::State::kEnd;
      try {
        state = stream->Next(&piece);
      } catch (const std::exception& e) {
        self->server_.error_log_("response stream failed", e.what());
        state = api::ResponseStream::State::kEnd;
      }
      asio::post(executor, [self, state, piece = std::move(piece)]() mutable {
        self->OnPiece(state, std::move(piece));
      });
    });
  }

  void OnWake() {
    if (Closing() || phase_ != Phase::kStream) return;
    woken_ = true;
    if (stream_waiting_) Pump(false);
  }

  void OnPiece(api::ResponseStream::State state, std::string piece) {
    pumping_ = false;
    if (Closing()) return;
    if (server_.stopping_ || !stream_) return EndStream();
    switch (state) {
      case api::ResponseStream::State::kEnd:
        return EndStream();
      case api::ResponseStream::State::kPending:
        if (woken_) return Pump(false);
        stream_waiting_ = true;
        return;
      case api::ResponseStream::State::kData:
        break;
    }
    if (piece.empty()) return Pump(false);
    if (http11_) {
      char size[24];
      std::snprintf(size, sizeof(size), "%zx\r\n", piece.size());
      out_ = size;
      out_ += piece;
      out_ += "\r\n";
    } else {
      out_ = std::move(piece);
    }
    // A reader that does not take this piece within the write timeout is too
    // slow: the stream ends (Close) and so does the connection.
    WriteOut([](Connection& c) { c.Pump(false); });
  }

  // Completes a streamed body (last chunk), then goes on like any response.
  void EndStream() {
    if (pumping_) return;  // OnPiece comes back and ends it
    if (stream_) {
      stream_->Close();
      stream_.reset();
    }
    if (server_.stopping_) keep_alive_ = false;
    phase_ = Phase::kWriting;
    if (!http11_) return Close();  // HTTP/1.0: the body ends with the connection
    out_ = "0\r\n\r\n";
    WriteOut([](Connection& c) {
      c.Log();
      // A pending peer watch would race the next read.
      if (c.watching_) return c.Close();
      c.Next(false);
    });
  }

  EventServer::Impl& server_;
  tcp::socket socket_;
  asio::steady_timer timer_;
  SteadyClock::time_point deadline_ = SteadyClock::time_point::max();
  SteadyClock::time_point timer_expiry_;
  bool timer_waiting_ = false;
  uint64_t timer_generation_ = 0;
  const std::string addr_;
  const SteadyClock::time_point accepted_;
  Phase phase_ = Phase::kHeader;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  // A spooled route's body (BodyPolicy::spooled): the parser after its
  // header, the piece being read, the file.
  std::optional<http::request_parser<http::buffer_body>> spool_parser_;
  std::vector<char> spool_chunk_;
  std::unique_ptr<SpoolFile> spool_;
  SteadyClock::time_point body_began_;
  SteadyClock::time_point start_;
  uint64_t body_received_ = 0;
  bool keep_alive_ = true;
  bool http11_ = true;
  bool head_ = false;
  bool head_stream_ = false;
  bool linger_after_ = false;
  std::string method_;
  std::string out_;
  AccessRecord record_;
  std::shared_ptr<api::ResponseStream> stream_;
  bool pumping_ = false;
  bool woken_ = false;
  bool stream_waiting_ = false;
  bool watching_ = false;
  bool pending_log_ = false;
};

bool EventServer::Impl::Bind(const std::string& host, int port, int* bound_port, std::string* error) {
  boost::system::error_code ec;
  tcp::resolver resolver(ioc_);
  auto results = resolver.resolve(host, std::to_string(port), tcp::resolver::passive, ec);
  if (ec || results.empty()) {
    *error = "cannot resolve listen address " + host + ": " + ec.message();
    return false;
  }
  const tcp::endpoint endpoint = results.begin()->endpoint();
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(settings_.listen_backlog, ec);
  if (ec) {
    *error = "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message();
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    return false;
  }
  *bound_port = acceptor_.local_endpoint().port();
  return true;
}

bool EventServer::Impl::Serve() {
  workers_ = std::make_unique<WorkerPool>(settings_.worker_threads, settings_.worker_stack_bytes);
  Accept();
  std::vector<std::thread> io;
  for (size_t i = 1; i < settings_.io_threads; ++i) io.emplace_back([this] { ioc_.run(); });
  ioc_.run();
  for (auto& t : io) t.join();
  workers_.reset();  // every job has posted its answer; none is left
  return !listen_failed_;
}

void EventServer::Impl::Accept() {
  acceptor_.async_accept(asio::make_strand(ioc_), [this](const boost::system::error_code& ec, tcp::socket s) {
    OnAccept(ec, std::move(s));
  });
}

void EventServer::Impl::OnAccept(const boost::system::error_code& ec, tcp::socket socket) {
  if (stopping_) return;
  if (ec) {
    if (ec == asio::error::operation_aborted) return;
    // Out of descriptors or a transient network error: pause briefly rather
    // than spin, and go on.
    error_log_("accept failed", ec.message());
    accept_retry_.expires_after(Millis(50));
    accept_retry_.async_wait([this](const boost::system::error_code& e) {
      if (!e && !stopping_) Accept();
    });
    return;
  }
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  const auto remote = socket.remote_endpoint(ignored);
  std::string addr = remote.address().to_string();
  if (remote.address().is_v6() && remote.address().to_v6().is_v4_mapped()) {
    addr = asio::ip::make_address_v4(asio::ip::v4_mapped, remote.address().to_v6()).to_string();
  }
  if (!Admit(addr)) {
    // Refused at once: the peer learns why, nobody else waits.
    static const std::string kBusy = TransportError(503, "Too many connections");
    ::send(socket.native_handle(), kBusy.data(), kBusy.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  } else {
    auto c = std::make_shared<Connection>(*this, std::move(socket), std::move(addr));
    Register(c);
    c->Launch();
  }
  Accept();
}

bool EventServer::Impl::Admit(const std::string& addr) {
  std::lock_guard<std::mutex> lock(mu_);
  if (settings_.max_connections > 0 && open_ >= settings_.max_connections) return false;
  size_t& n = per_client_[addr];
  if (settings_.max_connections_per_client > 0 && n >= settings_.max_connections_per_client) {
    if (n == 0) per_client_.erase(addr);
    return false;
  }
  ++n;
  ++open_;
  return true;
}

void EventServer::Impl::Register(const std::shared_ptr<Connection>& c) {
  std::lock_guard<std::mutex> lock(mu_);
  connections_[c.get()] = c;
}

void EventServer::Impl::Unregister(Connection* c, const std::string& addr) {
  bool finished = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    connections_.erase(c);
    auto it = per_client_.find(addr);
    if (it != per_client_.end() && --it->second == 0) per_client_.erase(it);
    --open_;
    finished = stopping_ && open_ == 0;
  }
  if (finished) work_.reset();
}

void EventServer::Impl::Stop() {
  if (stopping_.exchange(true)) return;
  asio::post(ioc_, [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    accept_retry_.cancel();
    std::vector<std::shared_ptr<Connection>> open;
    bool none = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [raw, weak] : connections_) {
        if (auto c = weak.lock()) open.push_back(std::move(c));
      }
      none = open_ == 0;
    }
    for (auto& c : open) c->Stop();
    if (none) work_.reset();
  });
}

EventServer::EventServer(EventTransportSettings settings, Handler handler, AccessLog access_log,
                         ErrorLog error_log)
    : impl_(std::make_unique<Impl>(settings, std::move(handler), std::move(access_log),
                                   std::move(error_log))) {}

EventServer::~EventServer() = default;

bool EventServer::Bind(const std::string& host, int port, int* bound_port, std::string* error) {
  return impl_->Bind(host, port, bound_port, error);
}
bool EventServer::Serve() { return impl_->Serve(); }
void EventServer::SetBodyPolicy(BodyPolicyFn policy) { impl_->body_policy_ = std::move(policy); }
void EventServer::Stop() { impl_->Stop(); }
const EventTransportSettings& EventServer::settings() const { return impl_->settings_; }
size_t EventServer::open_connections() const {
  std::lock_guard<std::mutex> lock(impl_->mu_);
  return impl_->open_;
}

}  // namespace service::shell
