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

// A request body kept outside memory: a spooled upload (a temporary file the
// shell wrote while the body arrived) or, for in-process callers, a string
// (NewStringBodySource). Read it piece by piece; never load it whole.
//
// A file-backed source removes its file when the source is destroyed (the
// request ended), unless the handler took it: renamed it away (path()) and
// called Keep(). Renaming it without Keep is harmless too (the removal then
// finds nothing), but Keep says so.
//
// Thread-safety: one thread at a time (the request's).
class BodySource {
 public:
  virtual ~BodySource() = default;
  // The body's length in bytes.
  virtual uint64_t size() const = 0;
  // Reads up to `n` bytes from the current position into `buf`: the bytes
  // read, 0 at the end, -1 on an error.
  virtual int64_t Read(char* buf, size_t n) = 0;
  // Back to the first byte (to read the body again). False on an error.
  virtual bool Rewind() = 0;
  // The file holding the body (a spool file), or nullptr (in memory). The
  // file lives on the filesystem of the route's BodyPolicy::spool_dir.
  virtual const std::string* path() const { return nullptr; }
  // The handler moved the file away: it is not removed at the end.
  virtual void Keep() {}
};

// A body source over `data`, for tests and in-process embedders.
std::shared_ptr<BodySource> NewStringBodySource(std::string data);

// How a route takes its request body (Router::SetBodyPolicy,
// Service::BodyPolicyFor). Every route without one: the global limit, in
// memory.
struct BodyPolicy {
  // Larger bodies are answered 413 (from Content-Length before reading,
  // chunked ones once they pass it).
  uint64_t max_bytes = kMaxBodyBytes;
  // The shell writes the body to a temporary file in `spool_dir` as it
  // arrives and hands the handler Request::body_source (body stays empty).
  bool spooled = false;
  // Where the spool file is made (created when missing); "": the system's
  // temporary folder. Put it on the filesystem the handler renames into.
  std::string spool_dir;
};

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
  // Set instead of `body` for a route whose body is spooled (BodyPolicy);
  // in-process callers may set it on any route (the API then reads it into
  // `body` for routes that are not spooled).
  std::shared_ptr<BodySource> body_source;
  std::string remote_addr;  // peer address as the transport saw it
  // Set by the shell when it refused to read a body larger than the route's
  // limit; the API then answers 413 without looking at `body`.
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
