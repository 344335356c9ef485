// The outbound HTTP client of a build without libcurl
// (SERVICE_USE_CURL_IF_AVAILABLE off, or no libcurl at configure time):
// every request fails with kUnavailable, so callers answer their documented
// failure (the AI summary: 502 AI_PROVIDER_ERROR) instead of crashing.
#include "ports/outbound_http.h"

namespace service::ports {
namespace {

class NoOutboundHttp final : public OutboundHttp {
 public:
  Result<HttpResponse> Send(const HttpRequest& /*request*/) override {
    return Unavailable("outbound HTTP is not available in this build (no libcurl)");
  }
  Status CheckDestination(const std::string& /*url*/) override {
    return Unavailable("outbound HTTP is not available in this build (no libcurl)");
  }
};

}  // namespace

std::unique_ptr<OutboundHttp> NewCurlOutboundHttp(const OutboundHttpOptions& /*options*/) {
  return std::make_unique<NoOutboundHttp>();
}

}  // namespace service::ports
