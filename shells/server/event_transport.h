// EventServer: the shell's HTTP/1.1 transport. Connections live on an event
// loop (Boost.Asio over epoll, requests parsed by Boost.Beast's incremental
// parser); a worker thread is taken only to run one complete request through
// the handler, or to produce the next piece of a streamed response. A
// connection that waits (an idle keep-alive, a client that sends slowly, an
// open event stream between events) costs its socket and a few kilobytes,
// never a thread. Nothing here knows the service: the handler maps an
// api::Request to an api::Response.
//
// Against slow and abusive clients:
//  - the request line and headers must arrive within header_timeout_ms of the
//    first byte (of the connection, for its first request), and fit in
//    max_header_bytes (else 431);
//  - a body must arrive at an average of min_body_rate bytes/s, counted after
//    an allowance of header_timeout_ms (else the connection is closed);
//  - a body over its route's limit (the body policy, SetBodyPolicy; default
//    api::kMaxBodyBytes) is refused from its Content-Length (before any of it
//    is read, also under Expect: 100-continue) or when a chunked body passes
//    the limit: 413, then a lingering close;
//  - the body of a spooled route is written to a temporary file as it
//    arrives (SpoolFile, piece by piece: never whole in memory) and handed to
//    the handler as Request::body_source;
//  - connections beyond max_connections in total, or beyond
//    max_connections_per_client from one peer address, get an immediate 503
//    and are closed: nobody else waits for them;
//  - a response, or a piece of a stream, that the peer does not accept within
//    write_timeout_ms ends the connection (a stream is closed: slow readers
//    lose their stream, never the service's memory).
//
// Thread-safety: configure, Bind and Serve from one thread; Stop may be
// called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "service/http.h"

namespace service::shell {

struct EventTransportSettings {
  // Event-loop threads. Default (0): 1 per 4 hardware threads, at least 1.
  size_t io_threads = 0;
  // Threads that run requests (and produce stream pieces). They block on the
  // database, so there are more than cores. Default (0): max(64, 16 x cores).
  size_t worker_threads = 0;
  // Stack of each worker thread. Default: 512 KiB.
  size_t worker_stack_bytes = 512 * 1024;
  // Request line and headers must arrive within this time. Default: 10 s.
  int64_t header_timeout_ms = 10'000;
  // Slowest acceptable average body rate in bytes/s after the allowance of
  // header_timeout_ms; 0: no rate (the allowance still bounds a silent peer
  // for every byte it owes). Default: 1024.
  int64_t min_body_rate = 1024;
  // An idle keep-alive connection is closed after this time. Default: 30 s.
  int64_t keep_alive_timeout_ms = 30'000;
  // Longest wait for the peer to accept a response or a piece of a stream.
  // Default: 10 s.
  int64_t write_timeout_ms = 10'000;
  // Request line plus headers. Larger: 431. Default: 16 KiB.
  size_t max_header_bytes = 16 * 1024;
  // Open connections in total; 0: no cap. Default: 10,000 (lowered to what
  // the process's file limit allows).
  size_t max_connections = 10'000;
  // Open connections from one peer address; 0: no cap. Default: 256.
  size_t max_connections_per_client = 256;
  // Pending connections the kernel queues before accept. Default: 4096
  // (capped by net.core.somaxconn).
  int listen_backlog = 4096;
  // Longest time spent reading and discarding what a peer still sends after
  // an early answer (413), so that it gets the answer, not a reset.
  int64_t lingering_close_ms = 5'000;
};

// One line of the request log.
struct AccessRecord {
  std::string request_id;  // the response's X-Request-Id; empty: answered by the transport
  std::string method;
  std::string route;  // the response's route pattern; empty: none matched
  int status = 0;
  double duration_ms = 0;
};

class EventServer {
 public:
  using Handler = std::function<api::Response(api::Request request)>;
  using AccessLog = std::function<void(const AccessRecord& record)>;
  // Internal failures (accept errors, a stream that threw).
  using ErrorLog = std::function<void(const std::string& message, const std::string& detail)>;
  // How the route of `method` `path` (no query) takes its body; asked once
  // per request with a body, when its headers are in.
  using BodyPolicyFn = std::function<api::BodyPolicy(std::string_view method, std::string_view path)>;

  EventServer(EventTransportSettings settings, Handler handler, AccessLog access_log, ErrorLog error_log);
  ~EventServer();
  EventServer(const EventServer&) = delete;
  EventServer& operator=(const EventServer&) = delete;

  // Sets the body policy lookup (before Serve). Default: every route takes
  // at most api::kMaxBodyBytes, in memory.
  void SetBodyPolicy(BodyPolicyFn policy);

  // Binds HOST:PORT (port 0: a free port). On success stores the bound port
  // and returns true; otherwise fills `error` and returns false.
  bool Bind(const std::string& host, int port, int* bound_port, std::string* error);
  // Serves until Stop() and every connection has ended. Returns false when
  // the listening socket failed for another reason.
  bool Serve();
  // Stops accepting; idle connections close at once, streams end cleanly
  // (their last chunk is written), in-flight requests finish and their
  // connections close after the response.
  void Stop();

  // The settings in effect (defaults resolved).
  const EventTransportSettings& settings() const;
  // Connections open now (for tests and the benchmark).
  size_t open_connections() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace service::shell
