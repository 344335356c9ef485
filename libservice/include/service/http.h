// Transport-neutral HTTP messages: what the API layer consumes and produces.
//
// An embedder converts its HTTP server's types into api::Request, calls
// Service::Handle, and writes the api::Response back. No socket is involved,
// so tests and embedders can call the API in-process.
//
// Thread-safety: plain values.
#pragma once

#include <cstddef>
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

// Receives chunks of a streamed response; returns false when the peer is gone.
using StreamWriter = std::function<bool(std::string_view chunk)>;
// Produces a streamed response (server-sent events). Returns when done.
using StreamProducer = std::function<void(const StreamWriter& write)>;

struct Response {
  int status = 200;
  Headers headers;
  std::string body;
  // When set, the body is produced incrementally by this function instead.
  StreamProducer stream;
  // The matched route pattern ("/v1/bugs/:id"), or "" when nothing matched.
  // For logs: never contains ids, tokens or query strings.
  std::string route;
};

}  // namespace service::api
