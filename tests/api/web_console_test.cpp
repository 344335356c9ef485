// The web console's files through the pipeline (api/console.h): index.html
// for every GET outside /v1/ and /api/ that no route takes, hashed assets
// cached for a year, gzip only when accepted, and the security headers;
// the API's own 404s stay JSON.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/api_harness.h"
#include "util/decompress.h"

#if SERVICE_HAS_CONSOLE

namespace {

using service::testing::TestResponse;
using service::testing::TestService;

void CheckSecurityHeaders(const TestResponse& r) {
  const std::string csp = r.headers.Get("Content-Security-Policy");
  CHECK(csp.find("default-src 'none'") != std::string::npos);
  CHECK(csp.find("script-src 'self'") != std::string::npos);
  CHECK(csp.find("frame-ancestors 'none'") != std::string::npos);
  CHECK(csp.find("unsafe-inline") == std::string::npos);
  CHECK(r.headers.Get("X-Content-Type-Options") == "nosniff");
  CHECK(r.headers.Get("Referrer-Policy") == "no-referrer");
  CHECK(r.headers.Get("X-Frame-Options") == "DENY");
}

}  // namespace

TEST_CASE("the console's index answers its client-side routes, never cached, with strict headers") {
  TestService t;
  for (const std::string path : {"/", "/bugs", "/bugs/0193b2f0-aaaa-7000-8000-000000000001", "/verify-email",
                                 "/invite", "/settings/integrations"}) {
    CAPTURE(path);
    TestResponse r = t.Get(path);
    REQUIRE(r.status == 200);
    CHECK(r.headers.Get("Content-Type") == "text/html; charset=utf-8");
    CHECK(r.headers.Get("Cache-Control") == "no-cache");
    CHECK(r.body.find("<!doctype html>") == 0);
    CHECK(r.body.find("<script>") == std::string::npos);  // no inline script
    CheckSecurityHeaders(r);
  }
}

TEST_CASE("hashed console assets are cached for a year and gzipped only for clients that accept it") {
  TestService t;
  const std::string index = t.Get("/").body;
  std::smatch m;
  REQUIRE(std::regex_search(index, m, std::regex("src=\"(/app\\.[0-9a-f]{12}\\.js)\"")));
  const std::string js = m[1];
  TestResponse plain = t.Get(js);
  REQUIRE(plain.status == 200);
  CHECK(plain.headers.Get("Content-Type") == "text/javascript; charset=utf-8");
  CHECK(plain.headers.Get("Cache-Control") == "public, max-age=31536000, immutable");
  CHECK_FALSE(plain.headers.Has("Content-Encoding"));
  CheckSecurityHeaders(plain);
  TestResponse gz = t.Get(js, {{"Accept-Encoding", "br, gzip;q=0.8"}});
  REQUIRE(gz.status == 200);
  CHECK(gz.headers.Get("Content-Encoding") == "gzip");
  CHECK(gz.headers.Get("Vary") == "Accept-Encoding");
  CHECK(gz.body.size() < plain.body.size());
  auto inflated = service::util::Decompress(gz.body, service::util::Encoding::kGzip, 10 << 20);
  REQUIRE(inflated.ok());
  CHECK(*inflated == plain.body);
  // q=0 refuses gzip.
  CHECK_FALSE(t.Get(js, {{"Accept-Encoding", "gzip;q=0"}}).headers.Has("Content-Encoding"));
  REQUIRE(std::regex_search(index, m, std::regex("href=\"(/app\\.[0-9a-f]{12}\\.css)\"")));
  CHECK(t.Get(m[1]).headers.Get("Content-Type") == "text/css; charset=utf-8");
}

TEST_CASE("every module the console's script imports or preloads is served under its hashed name") {
  TestService t;
  const std::string index = t.Get("/").body;
  std::vector<std::string> pending;
  const std::regex preload("modulepreload\" href=\"(/[a-z-]+\\.[0-9a-f]{12}\\.js)\"");
  for (std::sregex_iterator it(index.begin(), index.end(), preload), end; it != end; ++it)
    pending.push_back((*it)[1]);
  CHECK(pending.size() >= 3);
  std::set<std::string> seen;
  const std::regex import("from \"\\.(/[a-z-]+\\.[0-9a-f]{12}\\.js)\"");
  const std::regex unhashed("from \"\\./[a-z-]+\\.js\"");
  while (!pending.empty()) {
    const std::string path = pending.back();
    pending.pop_back();
    if (!seen.insert(path).second) continue;
    CAPTURE(path);
    TestResponse r = t.Get(path);
    REQUIRE(r.status == 200);
    CHECK(r.headers.Get("Content-Type") == "text/javascript; charset=utf-8");
    CHECK_FALSE(std::regex_search(r.body, unhashed));  // every import was rewritten
    for (std::sregex_iterator it(r.body.begin(), r.body.end(), import), end; it != end; ++it) {
      pending.push_back((*it)[1]);
    }
  }
  CHECK(seen.size() >= 4);
}

TEST_CASE("the API's paths and other methods are not the console's") {
  TestService t;
  for (const std::string path : {"/v1/nothing-here", "/v1", "/api/unknown", "/api"}) {
    CAPTURE(path);
    TestResponse r = t.Get(path);
    CHECK(r.status == 404);
    CHECK(r.body == "{\"error\":\"Not found\"}");
  }
  CHECK(t.Request("POST", "/bugs", "{}").status == 404);
  CHECK(t.Request("DELETE", "/").status == 404);
}

TEST_CASE("the console's own files are not rate limited, its API calls are") {
  TestService t([](service::Options& o) {
    o.rate_limits.enabled = true;
    o.rate_limits.general = 2;
  });
  for (int i = 0; i < 5; ++i) {
    CHECK(t.Get("/").status == 200);
    CHECK(t.Get("/bugs").status == 200);
  }
  CHECK(t.Get("/v1/nothing-here").status == 404);
  CHECK(t.Get("/v1/nothing-here").status == 404);
  TestResponse limited = t.Get("/v1/nothing-here");
  CHECK(limited.status == 429);
  CHECK(limited.Header("Retry-After") == "60");
  CHECK(t.Get("/").status == 200);
}

#endif  // SERVICE_HAS_CONSOLE
