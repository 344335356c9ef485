#include "api/console.h"

#include <zlib.h>

#include <algorithm>

namespace service::api {
namespace {

// Nothing but the console's own files and its own API; no inline code.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

// gzip (RFC 1952) of `data` at the best compression, or "" on failure.
std::string Gzip(std::string_view data) {
  z_stream z{};
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return "";
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

// Whether an Accept-Encoding header admits gzip (a "gzip" token whose q is
// not 0).
bool AcceptsGzip(std::string_view header) {
  size_t start = 0;
  while (start <= header.size()) {
    size_t end = header.find(',', start);
    if (end == std::string_view::npos) end = header.size();
    std::string_view item = header.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const size_t semi = item.find(';');
    std::string_view coding = item.substr(0, semi);
    while (!coding.empty() && coding.back() == ' ') coding.remove_suffix(1);
    if (coding == "gzip" || coding == "x-gzip") {
      if (semi == std::string_view::npos) return true;
      std::string_view params = item.substr(semi + 1);
      const size_t q = params.find("q=");
      if (q == std::string_view::npos) return true;
      std::string_view v = params.substr(q + 2);
      return !(v.rfind("0", 0) == 0 && v.find_first_of("123456789") == std::string_view::npos);
    }
    start = end + 1;
  }
  return false;
}

}  // namespace

Console::Console(const std::vector<ConsoleAsset>& assets) {
  files_.reserve(assets.size());
  for (const ConsoleAsset& a : assets) {
    std::string z = Gzip(a.data);
    if (z.size() >= a.data.size()) z.clear();
    files_.push_back(File{&a, std::move(z)});
  }
  for (const File& f : files_) {
    if (f.asset->path == "/index.html") index_ = &f;
  }
}

std::optional<Response> Console::Serve(const Request& req) const {
  if (req.method != "GET" && req.method != "HEAD") return std::nullopt;  // the pipeline strips a HEAD's body
  const std::string_view path = req.path;
  // The API's paths, and /metrics (a scraper gets 404, not the page, while
  // SERVICE_METRICS_TOKEN is unset).
  if (path == "/v1" || path.rfind("/v1/", 0) == 0 || path == "/api" || path.rfind("/api/", 0) == 0 ||
      path == "/metrics") {
    return std::nullopt;
  }
  const File* file = index_;
  for (const File& f : files_) {
    if (f.asset->path == path) file = &f;
  }
  if (file == nullptr) return std::nullopt;
  Response r;
  r.headers.Set("Content-Type", std::string(file->asset->content_type));
  r.headers.Set("Cache-Control", file->asset->immutable ? "public, max-age=31536000, immutable" : "no-cache");
  r.headers.Set("Content-Security-Policy", kContentSecurityPolicy);
  r.headers.Set("X-Content-Type-Options", "nosniff");
  r.headers.Set("Referrer-Policy", "no-referrer");
  r.headers.Set("X-Frame-Options", "DENY");
  r.headers.Set("Vary", "Accept-Encoding");
  if (!file->gzip.empty() && AcceptsGzip(req.headers.Get("Accept-Encoding"))) {
    r.headers.Set("Content-Encoding", "gzip");
    r.body = file->gzip;
  } else {
    r.body = std::string(file->asset->data);
  }
  return r;
}

}  // namespace service::api
