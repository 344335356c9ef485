// The libcurl implementation of ports::OutboundHttp.
//
// Destination check, twice:
//  1. The host is resolved here (getaddrinfo); addresses the policy refuses
//     are dropped, and the rest are pinned with CURLOPT_RESOLVE, so libcurl
//     connects to exactly the addresses that were checked (a DNS answer that
//     changes between check and connect cannot take effect).
//  2. CURLOPT_OPENSOCKETFUNCTION checks the address of every socket libcurl
//     opens, whatever produced it (an IP-literal URL, an internationalized
//     host name, a libcurl resolver path we did not anticipate).
// Proxies from the environment are disabled (a proxy would make the check
// meaningless); redirects are never followed; only http and https are spoken.
//
// Handles are kept (up to kMaxIdleHandles) and reused with their open
// connections: a destination that keeps connections alive is not paid a
// TCP (and TLS) handshake per request. A reused connection was opened to a
// checked address, and every request resolves and checks its host again
// before libcurl sees it.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "adapters/curl_easy.h"
#include "adapters/outbound/destination.h"
#include "ports/outbound_http.h"
#include "util/mutex.h"

namespace service::ports {
namespace {

using adapters::outbound::AddressClass;
using adapters::outbound::ClassifyIpv4;
using adapters::outbound::ClassifyIpv6;
using adapters::outbound::DestinationAllowed;

using adapters::curl::List;
struct UrlDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};
struct CurlString {
  char* p = nullptr;
  ~CurlString() { curl_free(p); }
};
struct AddrInfoDeleter {
  void operator()(addrinfo* a) const { freeaddrinfo(a); }
};

std::string Lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// Class of a socket address; non-IP families are invalid.
AddressClass ClassifySockaddr(const sockaddr* sa) {
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    std::array<uint8_t, 4> b{};
    std::memcpy(b.data(), &in->sin_addr, 4);
    return ClassifyIpv4(b);
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    std::array<uint8_t, 16> b{};
    std::memcpy(b.data(), &in6->sin6_addr, 16);
    return ClassifyIpv6(b);
  }
  return AddressClass::kInvalid;
}

// Per-request state shared with libcurl's callbacks.
struct Exchange {
  bool allow_private = false;
  bool refused = false;    // the socket callback refused an address
  bool too_large = false;  // the body passed the cap
  size_t max_bytes = 0;
  size_t header_bytes = 0;
  HttpResponse response;
};

curl_socket_t OpenSocket(void* clientp, curlsocktype purpose, curl_sockaddr* address) {
  auto* ex = static_cast<Exchange*>(clientp);
  if (purpose != CURLSOCKTYPE_IPCXN ||
      !DestinationAllowed(ClassifySockaddr(&address->addr), ex->allow_private)) {
    ex->refused = true;
    return CURL_SOCKET_BAD;
  }
  return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

size_t OnBody(char* data, size_t size, size_t nmemb, void* userdata) {
  auto* ex = static_cast<Exchange*>(userdata);
  const size_t n = size * nmemb;
  if (ex->response.body.size() + n > ex->max_bytes) {
    ex->too_large = true;
    return 0;  // aborts the transfer with CURLE_WRITE_ERROR
  }
  ex->response.body.append(data, n);
  return n;
}

constexpr size_t kMaxHeaderBytes = 64 * 1024;

size_t OnHeader(char* data, size_t size, size_t nitems, void* userdata) {
  auto* ex = static_cast<Exchange*>(userdata);
  const size_t n = size * nitems;
  ex->header_bytes += n;
  if (ex->header_bytes > kMaxHeaderBytes) {
    ex->too_large = true;
    return 0;
  }
  std::string_view line(data, n);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.substr(0, 5) == "HTTP/") {
    ex->response.headers.clear();  // a new response (after 1xx): keep only the final one's
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return n;
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  ex->response.headers.emplace_back(Lower(std::string(line.substr(0, colon))), std::string(value));
  return n;
}

Status AppendLine(List& list, const std::string& line) {
  if (!adapters::curl::Append(list, line)) return Internal("out of memory");
  return Status::Ok();
}

bool HasLineBreak(std::string_view s) { return s.find_first_of("\r\n") != std::string_view::npos; }

bool IsAsciiHostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == ':' || c == '[' || c == ']';
}

struct Target {
  std::string scheme;
  std::string host;  // without IPv6 brackets
  bool ipv6_literal = false;
  std::string port;
};

Result<Target> ParseTarget(const std::string& url) {
  std::unique_ptr<CURLU, UrlDeleter> u(curl_url());
  if (!u) return Internal("out of memory");
  if (curl_url_set(u.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    return InvalidArgument("outbound URL is malformed");
  }
  Target t;
  CurlString scheme, host, port, zone;
  if (curl_url_get(u.get(), CURLUPART_SCHEME, &scheme.p, 0) != CURLUE_OK || !scheme.p) {
    return InvalidArgument("outbound URL has no scheme");
  }
  t.scheme = Lower(scheme.p);
  if (t.scheme != "http" && t.scheme != "https") {
    return InvalidArgument("outbound URL must use http or https");
  }
  if (curl_url_get(u.get(), CURLUPART_HOST, &host.p, 0) != CURLUE_OK || !host.p || !*host.p) {
    return InvalidArgument("outbound URL has no host");
  }
  if (curl_url_get(u.get(), CURLUPART_ZONEID, &zone.p, 0) == CURLUE_OK && zone.p && *zone.p) {
    return InvalidArgument("outbound URL must not name an IPv6 zone");
  }
  t.host = host.p;
  for (char c : t.host) {
    if (!IsAsciiHostChar(c))
      return InvalidArgument("outbound URL host must be ASCII (use its punycode form)");
  }
  if (t.host.size() >= 2 && t.host.front() == '[' && t.host.back() == ']') {
    t.host = t.host.substr(1, t.host.size() - 2);
    t.ipv6_literal = true;
  }
  if (curl_url_get(u.get(), CURLUPART_PORT, &port.p, CURLU_DEFAULT_PORT) != CURLUE_OK || !port.p) {
    return InvalidArgument("outbound URL has no port");
  }
  t.port = port.p;
  return t;
}

// Numeric text of a resolved address ("203.0.113.9" or "[2001:db8::1]").
std::string AddressText(const sockaddr* sa) {
  char buf[INET6_ADDRSTRLEN] = {0};
  if (sa->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, buf, sizeof buf);
    return buf;
  }
  inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, buf, sizeof buf);
  return std::string("[") + buf + "]";
}

Status Refused(const std::string& host) {
  return Status(
      Code::kPermissionDenied,
      "outbound destination " + host + " is not allowed (loopback, private, link-local or reserved address)",
      kDestinationRefused);
}

class CurlOutboundHttp final : public OutboundHttp {
 public:
  explicit CurlOutboundHttp(OutboundHttpOptions options) : options_(std::move(options)) {}

  Result<HttpResponse> Send(const HttpRequest& req) override {
    if (req.method != "GET" && req.method != "POST") {
      return InvalidArgument("outbound method must be GET or POST");
    }
    SV_ASSIGN_OR_RETURN(Target target, ParseTarget(req.url));

    std::vector<std::string> allowed;
    SV_RETURN_IF_ERROR(ResolveAllowed(target, &allowed));

    List resolve;
    const bool literal =
        target.ipv6_literal || adapters::outbound::ClassifyIpLiteral(target.host) != AddressClass::kInvalid;
    if (!literal) {
      std::string entry = target.host + ":" + target.port + ":";
      for (size_t i = 0; i < allowed.size(); ++i) entry += (i ? "," : "") + allowed[i];
      SV_RETURN_IF_ERROR(AppendLine(resolve, entry));
    }

    List headers;
    for (const auto& [name, value] : req.headers) {
      if (name.empty() || HasLineBreak(name) || HasLineBreak(value) || name.find(':') != std::string::npos) {
        return InvalidArgument("outbound request header is malformed");
      }
      SV_RETURN_IF_ERROR(AppendLine(headers, name + ": " + value));
    }
    // No "Expect: 100-continue" round trip before the body.
    SV_RETURN_IF_ERROR(AppendLine(headers, "Expect:"));

    Exchange ex;
    ex.allow_private = options_.allow_private_destinations;
    ex.max_bytes = options_.max_response_bytes;
    const int64_t timeout = req.timeout_ms > 0 ? req.timeout_ms : options_.default_timeout_ms;
    const int64_t connect_timeout = std::min(timeout, options_.connect_timeout_ms);

    const adapters::curl::EasyOptions easy{.protocols = "http,https",
                                           .timeout_ms = static_cast<long>(timeout),
                                           .connect_timeout_ms = static_cast<long>(connect_timeout)};
    adapters::curl::Easy handle = TakeIdle();
    if (handle) {
      adapters::curl::Reuse(handle.get(), easy);
    } else {
      auto fresh = adapters::curl::NewEasy(easy);
      if (!fresh.ok()) return Internal("could not create an HTTP client handle");
      handle = std::move(*fresh);
    }
    CURL* c = handle.get();
    curl_easy_setopt(c, CURLOPT_URL, req.url.c_str());
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options_.max_response_bytes));
    if (resolve) curl_easy_setopt(c, CURLOPT_RESOLVE, resolve.get());
    curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, &OpenSocket);
    curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, &ex);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &ex);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &ex);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(c, CURLOPT_USERAGENT, options_.user_agent.c_str());
    if (req.method == "POST") {
      curl_easy_setopt(c, CURLOPT_POST, 1L);
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.data());
    } else {
      curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    }

    const CURLcode rc = curl_easy_perform(c);
    if (ex.refused) return Refused(target.host);
    if (rc != CURLE_OK) return Classify(rc, ex, target.host);  // the handle and its connections are dropped
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    KeepIdle(std::move(handle));  // Reuse resets every option before its next request
    if (status <= 0)
      return Status(Code::kBadGateway, "outbound request to " + target.host + " got no HTTP reply");
    ex.response.status = static_cast<int>(status);
    return std::move(ex.response);
  }

  Status CheckDestination(const std::string& url) override {
    SV_ASSIGN_OR_RETURN(Target target, ParseTarget(url));
    std::vector<std::string> allowed;
    return ResolveAllowed(target, &allowed);
  }

 private:
  static constexpr size_t kMaxIdleHandles = 32;

  adapters::curl::Easy TakeIdle() {
    util::MutexLock lock(&mu_);
    if (idle_.empty()) return nullptr;
    adapters::curl::Easy h = std::move(idle_.back());
    idle_.pop_back();
    return h;
  }
  void KeepIdle(adapters::curl::Easy h) {
    util::MutexLock lock(&mu_);
    if (idle_.size() < kMaxIdleHandles) idle_.push_back(std::move(h));
  }

  // Resolves the target's host and keeps the addresses the policy allows
  // (numeric text for CURLOPT_RESOLVE). None allowed: refused or unresolvable.
  Status ResolveAllowed(const Target& target, std::vector<std::string>* out) const {
    std::vector<std::string>& allowed = *out;
    bool any_refused = false;
    {
      addrinfo hints{};
      hints.ai_family = AF_UNSPEC;
      hints.ai_socktype = SOCK_STREAM;
      if (target.ipv6_literal) hints.ai_flags = AI_NUMERICHOST;
      addrinfo* raw = nullptr;
      const int rc = getaddrinfo(target.host.c_str(), target.port.c_str(), &hints, &raw);
      std::unique_ptr<addrinfo, AddrInfoDeleter> list(raw);
      if (rc != 0 || !list) {
        return Status(Code::kUnavailable,
                      "outbound request to " + target.host + " failed: could not resolve host");
      }
      for (const addrinfo* ai = list.get(); ai; ai = ai->ai_next) {
        if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) continue;
        if (!DestinationAllowed(ClassifySockaddr(ai->ai_addr), options_.allow_private_destinations)) {
          any_refused = true;
          continue;
        }
        std::string text = AddressText(ai->ai_addr);
        if (std::find(allowed.begin(), allowed.end(), text) == allowed.end())
          allowed.push_back(std::move(text));
      }
    }
    if (allowed.empty()) {
      if (any_refused) return Refused(target.host);
      return Status(Code::kUnavailable,
                    "outbound request to " + target.host + " failed: could not resolve host");
    }

    return Status::Ok();
  }

  Status Classify(CURLcode rc, const Exchange& ex, const std::string& host) const {
    const std::string prefix = "outbound request to " + host + " failed: ";
    if (ex.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
      return Status(Code::kBadGateway,
                    prefix + "response exceeds " + std::to_string(options_.max_response_bytes) + " bytes");
    }
    switch (rc) {
      case CURLE_OPERATION_TIMEDOUT:
        return Status(Code::kUnavailable, prefix + "timed out");
      case CURLE_COULDNT_RESOLVE_HOST:
      case CURLE_COULDNT_CONNECT:
      case CURLE_SEND_ERROR:
      case CURLE_RECV_ERROR:
        return Status(Code::kUnavailable, prefix + curl_easy_strerror(rc));
      case CURLE_UNSUPPORTED_PROTOCOL:
      case CURLE_URL_MALFORMAT:
        return InvalidArgument(prefix + curl_easy_strerror(rc));
      default:
        return Status(Code::kBadGateway, prefix + curl_easy_strerror(rc));
    }
  }

  OutboundHttpOptions options_;
  util::Mutex mu_;
  std::vector<adapters::curl::Easy> idle_ SV_GUARDED_BY(mu_);
};

}  // namespace

std::unique_ptr<OutboundHttp> NewCurlOutboundHttp(const OutboundHttpOptions& options) {
  return std::make_unique<CurlOutboundHttp>(options);
}

}  // namespace service::ports
