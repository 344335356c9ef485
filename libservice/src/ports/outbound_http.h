// OutboundHttp: the service's HTTP client for calls to other servers (the AI
// provider, webhook deliveries). One request, one response; no redirects are
// followed, the response body is capped, and every call has a deadline.
//
// Destinations: the adapter refuses (unless configured otherwise) URLs whose
// host resolves to a loopback, private, link-local, multicast, unspecified or
// otherwise non-public address, and connects only to the address it checked,
// so DNS rebinding cannot slip past the check.
//
// Failures (Status codes):
//   kInvalidArgument  the URL is malformed or its scheme is not http/https
//   kPermissionDenied the destination is refused (error_code
//                     kDestinationRefused)
//   kUnavailable      the peer could not be reached: name resolution,
//                     connection refused or reset, timeout. Worth retrying.
//   kBadGateway       the peer answered badly: TLS failure, an unparsable or
//                     empty reply, a body over the cap
// Any HTTP status the peer answers (including 4xx and 5xx) is a success of
// the transport: the caller reads HttpResponse::status. Error messages never
// contain the URL's query, credentials or request headers (which may hold keys).
//
// Thread-safety: Send may be called from several threads at once; each call
// uses its own connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "service/status.h"

namespace service::ports {

// The error_code of a refused destination.
inline constexpr const char* kDestinationRefused = "DESTINATION_REFUSED";

struct HttpRequest {
  std::string method = "POST";  // "GET" or "POST"
  std::string url;              // http:// or https://
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // POST only
  // Whole-exchange deadline (connect, send, wait, read). 0: the client's default.
  int64_t timeout_ms = 0;
};

struct HttpResponse {
  int status = 0;
  // Header names lower-cased, in the order received (of the final response).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // First value of `name` (case-insensitive), or "".
  std::string Header(std::string_view name) const {
    for (const auto& [k, v] : headers) {
      if (k.size() != name.size()) continue;
      bool same = true;
      for (size_t i = 0; same && i < k.size(); ++i) {
        const char a = k[i], b = name[i];
        same = a == ((b >= 'A' && b <= 'Z') ? static_cast<char>(b - 'A' + 'a') : b);
      }
      if (same) return v;
    }
    return {};
  }
};

class OutboundHttp {
 public:
  OutboundHttp() = default;
  OutboundHttp(const OutboundHttp&) = delete;
  OutboundHttp& operator=(const OutboundHttp&) = delete;
  virtual ~OutboundHttp() = default;

  // Performs `request`. See the failure classes above.
  virtual Result<HttpResponse> Send(const HttpRequest& request) = 0;
  // Checks `url` as Send would (form, scheme, every resolved address against
  // the destination policy) without connecting. The failure classes of Send.
  virtual Status CheckDestination(const std::string& url) = 0;

  Result<HttpResponse> Post(std::string url, std::string body,
                            std::vector<std::pair<std::string, std::string>> headers,
                            int64_t timeout_ms = 0) {
    HttpRequest r;
    r.method = "POST";
    r.url = std::move(url);
    r.body = std::move(body);
    r.headers = std::move(headers);
    r.timeout_ms = timeout_ms;
    return Send(r);
  }
  Result<HttpResponse> Get(std::string url, std::vector<std::pair<std::string, std::string>> headers = {},
                           int64_t timeout_ms = 0) {
    HttpRequest r;
    r.method = "GET";
    r.url = std::move(url);
    r.headers = std::move(headers);
    r.timeout_ms = timeout_ms;
    return Send(r);
  }
};

struct OutboundHttpOptions {
  // SERVICE_ALLOW_PRIVATE_DESTINATIONS: also connect to loopback and private
  // addresses (on-premise receivers, tests). Default: false.
  bool allow_private_destinations = false;
  // Default: 10 s for a request that names no timeout.
  int64_t default_timeout_ms = 10'000;
  // Connection phase limit (capped by the request's deadline). Default: 5 s.
  int64_t connect_timeout_ms = 5'000;
  // Larger response bodies fail with kBadGateway. Default: 1 MiB.
  size_t max_response_bytes = 1024 * 1024;
  // Default: "service-outbound/1".
  std::string user_agent = "service-outbound/1";
};

// The libcurl client (adapters/outbound).
std::unique_ptr<OutboundHttp> NewCurlOutboundHttp(const OutboundHttpOptions& options);

}  // namespace service::ports
