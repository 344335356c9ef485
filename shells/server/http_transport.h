// HttpServer: cpp-httplib's Server with the connection handling the shell
// needs, and nothing about the service. Shared by service-server and the
// bare baseline server of tests/bench, so both measure the same transport.
//
// Why a subclass (cpp-httplib 0.11.4 as packaged by Debian):
//  - its connection loop ignores a handler's "Connection: close" and reads
//    each request through a fresh stream, so bytes a handler left unread (an
//    oversized body answered early) or a pipelined request would be lost or
//    misparsed. HttpServer runs its own loop over one buffered stream per
//    connection, honours CurrentConnection()->close_after_response with a
//    lingering close (the peer gets the response, not a reset), and ends
//    idle keep-alive connections as soon as Stop() is called;
//  - its listen backlog is compiled in as 5; Bind raises it;
//  - its default socket options set SO_REUSEPORT (a second server on the
//    same port would silently share it); HttpServer uses SO_REUSEADDR and
//    sets TCP_NODELAY on every connection (without it keep-alive requests
//    wait on delayed ACKs: about 300 requests/s instead of tens of
//    thousands);
//  - its thread pool uses default 8 MB stacks; HttpServer's pool uses small
//    ones, since every open connection (an event stream too) holds a thread.
//
// Thread-safety: configure, Bind and Serve from one thread; Stop may be
// called from any thread. CurrentConnection is per thread.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <ctime>
#include <string>

namespace service::shell {

struct TransportSettings {
  // Worker threads, one per open connection. Default (0): DefaultThreadCount().
  size_t threads = 0;
  // Stack of each worker thread. Default: 512 KiB.
  size_t thread_stack_bytes = 512 * 1024;
  // Idle time before a keep-alive connection is closed. Default: 5 s.
  time_t keep_alive_timeout_sec = 5;
  // Requests per connection before it is closed. Default: 10000.
  size_t keep_alive_max_count = 10000;
  // Longest wait for the next bytes of a request, or for the peer to accept
  // bytes of a response. Default: 10 s.
  time_t read_timeout_sec = 10;
  time_t write_timeout_sec = 10;
  // Pending connections the kernel queues before accept. Default: 4096
  // (capped by net.core.somaxconn).
  int listen_backlog = 4096;
  // Longest time spent draining an unread request body after answering
  // early (lingering close). Default: 5 s.
  int lingering_close_ms = 5000;
};

// max(256, 64 x hardware threads). Every open connection holds a thread
// (an idle keep-alive connection for up to keep_alive_timeout_sec, an event
// stream for its lifetime); connections beyond this wait in a queue until a
// thread is free. So it bounds concurrent clients and streams, not requests
// per second. Idle threads cost their touched stack pages only.
size_t DefaultThreadCount();

// State of the connection served by the calling thread.
struct ConnectionState {
  // Set by a handler that did not consume the whole request (e.g. answered
  // 413 before reading the body): the connection is closed after this
  // response, after draining what the peer still sends.
  bool close_after_response = false;
};

// The connection being served on this thread, or nullptr outside a request.
ConnectionState* CurrentConnection();

class HttpServer : public httplib::Server {
 public:
  explicit HttpServer(const TransportSettings& settings = {});

  // Binds HOST:PORT (port 0: a free port). On success stores the bound port
  // and returns true; otherwise fills `error` and returns false.
  bool Bind(const std::string& host, int port, int* bound_port, std::string* error);
  // Accepts and serves connections until Stop(). Returns false when the
  // listening socket failed for another reason. Returns after every
  // connection has ended.
  bool Serve();
  // Stops accepting; in-flight requests finish, idle connections close.
  void Stop();
  // True once Stop() was called; long responses (event streams) should end.
  bool stopping() const { return svr_sock_ == INVALID_SOCKET; }

  const TransportSettings& settings() const { return settings_; }

 private:
  bool process_and_close_socket(socket_t sock) override;

  TransportSettings settings_;
};

}  // namespace service::shell
