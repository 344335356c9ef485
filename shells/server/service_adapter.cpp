#include "service_adapter.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "spool.h"

namespace service::shell {
namespace {

using SteadyClock = std::chrono::steady_clock;
using HandlerResponse = httplib::Server::HandlerResponse;

// What the log line of the request being served on this thread needs.
struct RequestTrace {
  bool active = false;
  SteadyClock::time_point start;
  std::string route;
  // Set when the request's multipart Content-Type was hidden from httplib
  // (see PreRoute); the API gets the original.
  std::optional<std::string> original_content_type;
  // The route's body policy (limit, spooled), asked once the headers are in.
  api::BodyPolicy policy;

  void Begin() {
    active = true;
    start = SteadyClock::now();
    route.clear();
    original_content_type.reset();
    policy = api::BodyPolicy{};
  }
};

thread_local RequestTrace trace;

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

bool ContainsIgnoreCase(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) return false;
  for (size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    if (EqualsIgnoreCase(haystack.substr(i, needle.size()), needle)) return true;
  }
  return false;
}

// Ends the connection after this response (some request bytes stay unread).
// Marking the request "Connection: close" makes cpp-httplib say so in the
// response too; its Request is a mutable local of the connection loop.
void CloseAfterResponse(const httplib::Request& req) {
  if (ConnectionState* c = CurrentConnection()) c->close_after_response = true;
  auto& mutable_req = const_cast<httplib::Request&>(req);
  auto range = mutable_req.headers.equal_range("Connection");
  mutable_req.headers.erase(range.first, range.second);
  mutable_req.headers.emplace("Connection", "close");
}

struct BodyInfo {
  bool chunked = false;
  bool has_length = false;
  bool invalid_length = false;
  uint64_t length = 0;

  bool has_body() const { return chunked || length > 0; }
  bool too_large(uint64_t limit) const { return has_length && length > limit; }
};

BodyInfo ClassifyBody(const httplib::Request& req) {
  BodyInfo info;
  info.chunked = ContainsIgnoreCase(req.get_header_value("Transfer-Encoding"), "chunked");
  if (req.has_header("Content-Length")) {
    info.has_length = true;
    const std::string value = req.get_header_value("Content-Length");
    if (value.empty() || value.size() > 19) {
      info.invalid_length = true;
      return info;
    }
    for (char c : value) {
      if (c < '0' || c > '9') {
        info.invalid_length = true;
        return info;
      }
      info.length = info.length * 10 + static_cast<uint64_t>(c - '0');
    }
  }
  return info;
}

// Whether cpp-httplib reads a body for this request (its expect_content()).
bool HttplibReadsBody(const httplib::Request& req, const BodyInfo& info) {
  const std::string& m = req.method;
  return m == "POST" || m == "PUT" || m == "PATCH" || (m == "DELETE" && info.has_length);
}

// Headers cpp-httplib adds to every request for its own handlers.
bool IsInjectedHeader(std::string_view name) {
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" || name == "LOCAL_PORT";
}

const char* TransportErrorMessage(int status) {
  switch (status) {
    case 400:
      return "Bad request";
    case 404:
      return "Not found";
    case 405:
      return "Method not allowed";
    case 413:
      return "Payload too large";
    case 414:
      return "URI too long";
    case 416:
      return "Range not satisfiable";
    case 431:
      return "Request header fields too large";
    case 500:
      return "Internal server error";
    case 503:
      return "Service unavailable";
    default:
      return status >= 500 ? "Server error" : "Bad request";
  }
}

// `message` is one of the fixed phrases of this file (no escaping needed).
void SetJsonError(httplib::Response& res, int status, std::string_view message) {
  res.status = status;
  res.body = "{\"error\":\"" + std::string(message) + "\"}";
  res.set_header("Content-Type", "application/json");
}

class Adapter {
 public:
  Adapter(HttpServer& server, Service& service, Logger& log)
      : server_(server), service_(service), log_(log) {}

  HandlerResponse PreRoute(const httplib::Request& req, httplib::Response& res) {
    trace.Begin();
    // cpp-httplib's Request is a mutable local of its connection loop; the
    // handlers only see it const. Range requests make no sense for an API:
    // drop them so a JSON body is never cut into a 206.
    auto& mutable_req = const_cast<httplib::Request&>(req);
    mutable_req.ranges.clear();

    const BodyInfo info = ClassifyBody(req);
    if (info.has_body()) trace.policy = service_.BodyPolicyFor(req.method, req.path);
    if (info.invalid_length) {
      SetJsonError(res, 400, "Invalid Content-Length");
      CloseAfterResponse(req);
      return HandlerResponse::Handled;
    }
    if (info.too_large(trace.policy.max_bytes)) {
      Answer(req, std::string(), /*body_too_large=*/true, res);
      CloseAfterResponse(req);
      return HandlerResponse::Handled;
    }
    if (!info.has_body()) {
      Answer(req, std::string(), false, res);
      return HandlerResponse::Handled;
    }
    if (!HttplibReadsBody(req, info)) {
      // A body on GET, HEAD, OPTIONS...: ignored, and the connection closes
      // so that its bytes are never read as the next request.
      Answer(req, std::string(), false, res);
      CloseAfterResponse(req);
      return HandlerResponse::Handled;
    }
    if (req.is_multipart_form_data()) {
      // cpp-httplib parses multipart bodies itself and hands a raw content
      // reader nothing; hide the type from it and give the API the raw bytes.
      trace.original_content_type = req.get_header_value("Content-Type");
      auto range = mutable_req.headers.equal_range("Content-Type");
      mutable_req.headers.erase(range.first, range.second);
      mutable_req.headers.emplace("Content-Type", "application/octet-stream");
    }
    return HandlerResponse::Unhandled;  // -> ReadBodyAndAnswer
  }

  int Expect100(const httplib::Request& req, httplib::Response& res) {
    const BodyInfo info = ClassifyBody(req);
    if (!info.too_large(service_.BodyPolicyFor(req.method, req.path).max_bytes)) return 100;
    // Refuse before the client sends the body at all.
    trace.Begin();
    Answer(req, std::string(), /*body_too_large=*/true, res);
    CloseAfterResponse(req);
    // This early answer bypasses cpp-httplib's content writer, which would
    // otherwise add the length.
    res.set_header("Content-Length", std::to_string(res.body.size()));
    return res.status;
  }

  void ReadBodyAndAnswer(const httplib::Request& req, httplib::Response& res,
                         const httplib::ContentReader& reader) {
    const BodyInfo info = ClassifyBody(req);
    if (trace.policy.spooled) return SpoolBodyAndAnswer(req, res, reader);
    std::string body;
    if (info.has_length) body.reserve(static_cast<size_t>(info.length));
    bool too_large = false;
    const uint64_t limit = trace.policy.max_bytes;
    const bool ok = reader([&](const char* data, size_t n) {
      if (body.size() + n > limit) {
        too_large = true;
        return false;
      }
      body.append(data, n);
      return true;
    });
    if (too_large || res.status == 413) {
      res.status = -1;
      Answer(req, std::string(), /*body_too_large=*/true, res);
      CloseAfterResponse(req);
      return;
    }
    if (!ok) {
      SetJsonError(res, 400, "Invalid request body");
      CloseAfterResponse(req);
      return;
    }
    Answer(req, std::move(body), false, res);
  }

  // A spooled route's body: each piece goes to a temporary file as it
  // arrives; the handler gets it as Request::body_source.
  void SpoolBodyAndAnswer(const httplib::Request& req, httplib::Response& res,
                          const httplib::ContentReader& reader) {
    std::string error;
    std::unique_ptr<SpoolFile> spool = SpoolFile::Create(trace.policy.spool_dir, &error);
    if (!spool) {
      log_.Log(LogLevel::kError, "cannot spool a request body", {{"error", error}});
      SetJsonError(res, 503, "Service unavailable");
      CloseAfterResponse(req);
      return;
    }
    const uint64_t limit = trace.policy.max_bytes;
    bool too_large = false;
    bool write_failed = false;
    const bool ok = reader([&](const char* data, size_t n) {
      if (spool->size() + n > limit) {
        too_large = true;
        return false;
      }
      if (!spool->Write(data, n)) {
        write_failed = true;
        return false;
      }
      return true;
    });
    if (too_large || res.status == 413) {
      spool.reset();
      res.status = -1;
      Answer(req, std::string(), /*body_too_large=*/true, res);
      CloseAfterResponse(req);
      return;
    }
    std::shared_ptr<api::BodySource> source = ok && !write_failed ? spool->Finish() : nullptr;
    if (!source) {
      if (write_failed || ok) {
        log_.Log(LogLevel::kError, "cannot spool a request body", {{"error", "write failed"}});
        SetJsonError(res, 503, "Service unavailable");
      } else {
        SetJsonError(res, 400, "Invalid request body");
      }
      CloseAfterResponse(req);
      return;
    }
    Answer(req, std::string(), false, res, std::move(source));
  }

  HandlerResponse OnError(const httplib::Request& req, httplib::Response& res) {
    // Called for every status >= 400, the API's too. Only fill in what
    // cpp-httplib produced itself (malformed requests, limits): the API
    // always sets X-Request-Id.
    if (res.has_header("X-Request-Id") || !res.body.empty() || res.content_provider_) {
      return HandlerResponse::Unhandled;
    }
    SetJsonError(res, res.status, TransportErrorMessage(res.status));
    // After a malformed request the position in the byte stream is unknown.
    CloseAfterResponse(req);
    return HandlerResponse::Handled;
  }

  void OnException(httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown exception";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    log_.Log(LogLevel::kError, "unhandled exception in the HTTP shell", {{"error", what}});
    res.headers.clear();
    SetJsonError(res, 500, "Internal server error");
  }

  void OnLogged(const httplib::Request& req, const httplib::Response& res) {
    double ms = 0;
    if (trace.active) {
      ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - trace.start).count();
    }
    const std::string request_id = res.get_header_value("X-Request-Id");
    // An empty request id or route is null: the transport answered before
    // the API saw the request.
    log_.Log(LogLevel::kInfo, "request",
             {request_id.empty() ? LogField::Null("requestId") : LogField("requestId", request_id),
              {"method", req.method},
              trace.route.empty() ? LogField::Null("route") : LogField("route", trace.route),
              LogField::Number("status", static_cast<int64_t>(res.status)),
              LogField::Number("durationMs", ms)});
    trace.active = false;
    trace.route.clear();
  }

 private:
  api::Request Convert(const httplib::Request& req, std::string body, bool body_too_large,
                       std::shared_ptr<api::BodySource> source) const {
    api::Request in;
    in.method = req.method;
    in.path = req.path;
    const size_t q = req.target.find('?');
    if (q != std::string::npos) in.query = req.target.substr(q + 1);
    for (const auto& [name, value] : req.headers) {
      if (IsInjectedHeader(name)) continue;
      if (trace.original_content_type && EqualsIgnoreCase(name, "Content-Type")) {
        in.headers.Add(name, *trace.original_content_type);
        continue;
      }
      in.headers.Add(name, value);
    }
    in.body = std::move(body);
    in.body_source = std::move(source);
    in.remote_addr = req.remote_addr;
    in.body_too_large = body_too_large;
    return in;
  }

  void Answer(const httplib::Request& req, std::string body, bool body_too_large, httplib::Response& res,
              std::shared_ptr<api::BodySource> source = nullptr) {
    // The spool file (if any) goes when the request does, unless kept.
    api::Response out = service_.Handle(Convert(req, std::move(body), body_too_large, std::move(source)));
    trace.route = out.route;
    res.status = out.status;
    std::string content_type;
    for (const auto& [name, value] : out.headers.items()) {
      if (EqualsIgnoreCase(name, "Content-Type")) {
        content_type = value;
      } else if (req.method == "HEAD" && EqualsIgnoreCase(name, "Content-Length")) {
        res.set_header(name, value);  // the GET's length; the API sent no body
      } else if (EqualsIgnoreCase(name, "Content-Length") || EqualsIgnoreCase(name, "Transfer-Encoding") ||
                 EqualsIgnoreCase(name, "Connection") || EqualsIgnoreCase(name, "Keep-Alive")) {
        // framing belongs to the transport
      } else {
        res.set_header(name, value);  // drops values with CR/LF
      }
    }
    if (out.stream) {
      Stream(std::move(out.stream), content_type.empty() ? "text/event-stream" : content_type, res);
      return;
    }
    res.body = std::move(out.body);
    if (!content_type.empty()) res.set_header("Content-Type", content_type);
  }

  // Thread per connection: the stream runs on this connection's thread.
  void Stream(std::shared_ptr<api::ResponseStream> stream, const std::string& content_type,
              httplib::Response& res) {
    Logger* log = &log_;
    HttpServer* server = &server_;
    res.set_chunked_content_provider(content_type, [stream, log, server](size_t, httplib::DataSink& sink) {
      bool alive = true;
      try {
        alive = api::DrainStream(*stream, [&](std::string_view chunk) {
          // Shutting down: tell the stream the peer is gone so it ends.
          if (server->stopping()) return false;
          return sink.write(chunk.data(), chunk.size());
        });
      } catch (const std::exception& e) {
        log->Log(LogLevel::kError, "event stream failed", {{"error", e.what()}});
        alive = false;
      }
      if (alive) sink.done();
      return alive;
    });
  }

  HttpServer& server_;
  Service& service_;
  Logger& log_;
};

}  // namespace

void MountService(HttpServer& server, Service& service, Logger& log) {
  // Owned by the handlers, which live as long as the server.
  auto adapter = std::make_shared<Adapter>(server, service, log);
  // Limits are the routes' (PreRoute, the readers above): a route may take
  // more than kMaxBodyBytes.
  server.set_payload_max_length(std::numeric_limits<size_t>::max());
  server.set_pre_routing_handler(
      [adapter](const httplib::Request& req, httplib::Response& res) { return adapter->PreRoute(req, res); });
  server.set_expect_100_continue_handler([adapter](const httplib::Request& req, httplib::Response& res) {
    return adapter->Expect100(req, res);
  });
  // Requests with a body arrive here (cpp-httplib matches handlers with
  // std::regex; bodiless requests never get this far).
  const auto with_body = [adapter](const httplib::Request& req, httplib::Response& res,
                                   const httplib::ContentReader& reader) {
    adapter->ReadBodyAndAnswer(req, res, reader);
  };
  server.Post(".*", with_body);
  server.Put(".*", with_body);
  server.Patch(".*", with_body);
  server.Delete(".*", with_body);
  server.set_error_handler(httplib::Server::HandlerWithResponse(
      [adapter](const httplib::Request& req, httplib::Response& res) { return adapter->OnError(req, res); }));
  server.set_exception_handler([adapter](const httplib::Request&, httplib::Response& res,
                                         std::exception_ptr ep) { adapter->OnException(res, ep); });
  server.set_logger(
      [adapter](const httplib::Request& req, const httplib::Response& res) { adapter->OnLogged(req, res); });
}

}  // namespace service::shell
