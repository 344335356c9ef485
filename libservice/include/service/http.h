// Transport-neutral HTTP messages: what the API layer consumes and produces.
//
// An embedder converts its HTTP server's types into api::Request, calls
// Service::Handle, and writes the api::Response back. No socket is involved,
// so tests and embedders can call the API in-process.
//
// Thread-safety: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace service::api {

// The largest request body the API accepts (Spec 1 "Limits": 10 MB). Larger
// bodies are answered 413; shells should refuse them before reading them.
inline constexpr size_t kMaxBodyBytes = 10 * 1024 * 1024;

// Ordered header list with case-insensitive lookup.
class Headers {
 public:
  void Add(std::string name, std::string value) { items_.emplace_back(std::move(name), std::move(value)); }
  // Replaces every header called `name` with one value.
  void Set(std::string name, std::string value);
  // First value of `name`, or nullptr.
  const std::string* Find(std::string_view name) const;
  std::string Get(std::string_view name) const {
    const std::string* v = Find(name);
    return v ? *v : std::string();
  }
  bool Has(std::string_view name) const { return Find(name) != nullptr; }
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

struct Request {
  std::string method;  // "GET", "POST", ... upper case
  std::string path;    // path without the query as received (percent-encoding
                       // allowed; the router decodes each parameter), e.g. "/v1/health"
  std::string query;   // raw query string without '?', still percent-encoded
  Headers headers;
  std::string body;
  std::string remote_addr;  // peer address as the transport saw it
  // Set by the shell when it refused to read a body larger than the limit;
  // the API then answers 413 without looking at `body`.
  bool body_too_large = false;
};

// A response body produced over time: server-sent events, a large export.
//
// The shell pulls it, one piece at a time, and writes each piece before it
// asks for the next, so a slow reader slows the producer down and memory
// holds one piece per stream (back-pressure). Next runs on a worker thread
// (it may read the database) and never concurrently with itself; between
// pieces the stream holds no thread. A stream with nothing to send yet
// answers kPending and calls the waker once it has; the shell then calls
// Next again.
//
// Thread-safety: Next and Start are called from one thread at a time;
// Close and the waker may be called from any thread.
class ResponseStream {
 public:
  enum class State {
    kData,     // *chunk holds the next piece (may be empty: nothing written)
    kPending,  // nothing to send now: the waker is called when there is
    kEnd,      // the body is complete
  };

  virtual ~ResponseStream() = default;

  // Called once, before the first Next. `wake` may be called from any
  // thread, any number of times, also after Close (it is then ignored).
  virtual void Start(std::function<void()> wake) { (void)wake; }
  virtual State Next(std::string* chunk) = 0;
  // The response ends early: the peer went away, it read too slowly, or the
  // server is stopping. Next is not called afterwards. Default: nothing.
  virtual void Close() {}
};

// For in-process callers (tests, embedders without an event loop): runs
// `stream` to its end on the calling thread, passing each piece to `write`
// and waiting while it is pending. Returns false when `write` refused a
// piece or `give_up_after_ms` (0: never) passed while waiting; the stream is
// then closed. A stream that never ends (server-sent events) needs a writer
// that eventually refuses.
bool DrainStream(ResponseStream& stream, const std::function<bool(std::string_view piece)>& write,
                 int64_t give_up_after_ms = 0);

struct Response {
  int status = 200;
  Headers headers;
  std::string body;
  // When set, the body is produced incrementally by this stream instead
  // (see ResponseStream); `body` is ignored.
  std::shared_ptr<ResponseStream> stream;
  // The matched route pattern ("/v1/bugs/:id"), or "" when nothing matched.
  // For logs: never contains ids, tokens or query strings.
  std::string route;
};

}  // namespace service::api
