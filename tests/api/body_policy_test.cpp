// Per-route body policies (api::BodyPolicy): a route may take larger bodies
// than the global limit and have them spooled (Request::body_source); every
// other route keeps kMaxBodyBytes. In-process, through the pipeline, with
// routes registered by the test (the transports are tested in
// tests/e2e/upload_transport_test.cpp).
#include <doctest/doctest.h>

#include <string>

#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "service_internal.h"
#include "support/api_harness.h"

using service::testing::TestService;
namespace json = boost::json;
namespace api = service::api;

namespace {

constexpr uint64_t kSpoolLimit = 24ull * 1024 * 1024;

// Registers POST /v1/test/spooled (spooled, kSpoolLimit), POST
// /v1/test/large (in memory, 12 MiB) and POST /v1/test/plain (no policy).
// Each answers how it received its body and the sum of its bytes.
void AddTestRoutes(TestService& t) {
  api::Router& router = service::internal::PipelineOf(t.service()).router();
  const auto describe = [](api::Context& ctx) {
    uint64_t sum = 0, size = 0;
    std::string via = "body";
    if (ctx.req.body_source) {
      via = "source";
      char buf[65536];
      for (;;) {
        const int64_t n = ctx.req.body_source->Read(buf, sizeof(buf));
        if (n <= 0) break;
        for (int64_t i = 0; i < n; ++i) sum += static_cast<unsigned char>(buf[i]);
        size += static_cast<uint64_t>(n);
      }
    } else {
      for (char c : ctx.req.body) sum += static_cast<unsigned char>(c);
      size = ctx.req.body.size();
    }
    return api::JsonResponse(200, json::object{{"via", via}, {"size", size}, {"sum", sum}});
  };
  router.Add("POST", "/v1/test/spooled", api::RateClass::kNone, api::AuthMode::kNone, describe);
  router.Add("POST", "/v1/test/large/:id", api::RateClass::kNone, api::AuthMode::kNone, describe);
  router.Add("POST", "/v1/test/plain", api::RateClass::kNone, api::AuthMode::kNone, describe);
  REQUIRE(router.SetBodyPolicy("POST", "/v1/test/spooled", {kSpoolLimit, true, ""}));
  REQUIRE(router.SetBodyPolicy("POST", "/v1/test/large/:id", {12ull * 1024 * 1024, false, ""}));
  CHECK_FALSE(router.SetBodyPolicy("POST", "/v1/test/none", {1, true, ""}));
}

api::Response Post(TestService& t, const std::string& path, std::string body, bool as_source,
                   bool too_large = false) {
  api::Request req;
  req.method = "POST";
  req.path = path;
  req.remote_addr = "127.0.0.1";
  if (as_source) {
    req.body_source = api::NewStringBodySource(std::move(body));
  } else {
    req.body = std::move(body);
  }
  req.body_too_large = too_large;
  return t.service().Handle(req);
}

uint64_t Sum(const std::string& s) {
  uint64_t sum = 0;
  for (char c : s) sum += static_cast<unsigned char>(c);
  return sum;
}

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 31 + 7) & 0xff);
  return s;
}

}  // namespace

TEST_CASE("a spooled route takes a body source larger than the global limit, others keep it") {
  TestService t;
  AddTestRoutes(t);
  const std::string big = Pattern(api::kMaxBodyBytes + 3 * 1024 * 1024);

  auto r = Post(t, "/v1/test/spooled", big, true);
  REQUIRE(r.status == 200);
  json::value v = json::parse(r.body);
  CHECK(v.at("via") == "source");
  CHECK(v.at("size").to_number<uint64_t>() == big.size());
  CHECK(v.at("sum").to_number<uint64_t>() == Sum(big));
  CHECK(r.route == "POST /v1/test/spooled");

  // An in-memory body on the spooled route still arrives (as `body`).
  r = Post(t, "/v1/test/spooled", "abc", false);
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body).at("via") == "body");

  // Above the route's own limit: 413 naming it, the handler never runs.
  r = Post(t, "/v1/test/spooled", std::string(kSpoolLimit + 1, 'x'), true);
  CHECK(r.status == 413);
  CHECK(json::parse(r.body).at("limit").to_number<uint64_t>() == kSpoolLimit);
  CHECK(r.route == "POST /v1/test/spooled");
  // The shell refused it from its Content-Length.
  r = Post(t, "/v1/test/spooled", "", false, /*too_large=*/true);
  CHECK(r.status == 413);
  CHECK(json::parse(r.body).at("limit").to_number<uint64_t>() == kSpoolLimit);

  // The same bytes on a route without a policy: the global limit.
  r = Post(t, "/v1/test/plain", big, true);
  CHECK(r.status == 413);
  CHECK(json::parse(r.body).at("limit").to_number<uint64_t>() == api::kMaxBodyBytes);
  r = Post(t, "/v1/test/plain", big, false);
  CHECK(r.status == 413);
  // And on a path no route matches.
  r = Post(t, "/v1/nothing/here", big, false);
  CHECK(r.status == 413);
  CHECK(json::parse(r.body).at("limit").to_number<uint64_t>() == api::kMaxBodyBytes);
}

TEST_CASE("a body source on a route that reads `body` is read into it, a larger in-memory limit holds") {
  TestService t;
  AddTestRoutes(t);
  const std::string small = Pattern(100'000);
  auto r = Post(t, "/v1/test/plain", small, true);
  REQUIRE(r.status == 200);
  json::value v = json::parse(r.body);
  CHECK(v.at("via") == "body");
  CHECK(v.at("size").to_number<uint64_t>() == small.size());
  CHECK(v.at("sum").to_number<uint64_t>() == Sum(small));
  CHECK(!r.headers.Get("X-Request-Id").empty());

  // 11 MiB in memory on the route allowing 12 MiB; 13 MiB is refused.
  const std::string eleven = Pattern(11 * 1024 * 1024);
  r = Post(t, "/v1/test/large/7", eleven, false);
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body).at("via") == "body");
  CHECK(json::parse(r.body).at("size").to_number<uint64_t>() == eleven.size());
  r = Post(t, "/v1/test/large/7", std::string(13 * 1024 * 1024, 'x'), false);
  CHECK(r.status == 413);
  CHECK(json::parse(r.body).at("limit").to_number<uint64_t>() == 12ull * 1024 * 1024);
}

TEST_CASE("Service::BodyPolicyFor names the matched route's policy, the default elsewhere") {
  TestService t;
  AddTestRoutes(t);
  api::BodyPolicy p = t.service().BodyPolicyFor("POST", "/v1/test/spooled");
  CHECK(p.spooled);
  CHECK(p.max_bytes == kSpoolLimit);
  p = t.service().BodyPolicyFor("POST", "/v1/test/large/abc");
  CHECK_FALSE(p.spooled);
  CHECK(p.max_bytes == 12ull * 1024 * 1024);
  for (const auto& entry : std::vector<std::pair<std::string, std::string>>{
           {"GET", "/v1/test/spooled"}, {"POST", "/v1/test/plain"}, {"POST", "/v1/ingest"}, {"PUT", "/x"}}) {
    // Named references: clang 14 cannot capture a structured binding in CAPTURE's lambda.
    const std::string& method = entry.first;
    const std::string& path = entry.second;
    CAPTURE(path);
    p = t.service().BodyPolicyFor(method, path);
    CHECK_FALSE(p.spooled);
    CHECK(p.max_bytes == api::kMaxBodyBytes);
  }
}

TEST_CASE("a string body source reads in pieces, ends with 0 and rewinds") {
  auto s = api::NewStringBodySource("hello world");
  CHECK(s->size() == 11);
  CHECK(s->path() == nullptr);
  char buf[4];
  std::string got;
  for (;;) {
    const int64_t n = s->Read(buf, sizeof(buf));
    if (n == 0) break;
    REQUIRE(n > 0);
    got.append(buf, static_cast<size_t>(n));
  }
  CHECK(got == "hello world");
  CHECK(s->Rewind());
  CHECK(s->Read(buf, sizeof(buf)) == 4);
  CHECK(std::string(buf, 4) == "hell");
}
