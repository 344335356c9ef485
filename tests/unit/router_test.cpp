#include <doctest/doctest.h>

#include "api/query.h"
#include "api/router.h"

using namespace service::api;

TEST_CASE("router matches methods and path parameters, literals before parameters") {
  Router r;
  auto h = [](Context&) { return Response{}; };
  r.Add("GET", "/v1/bugs/:id", RateClass::kGeneral, AuthMode::kNone, h);
  r.Add("GET", "/v1/bugs/stats", RateClass::kGeneral, AuthMode::kNone, h);
  r.Add("DELETE", "/v1/projects/:id/keys/:keyId", RateClass::kGeneral, AuthMode::kNone, h);

  struct Row {
    const char* method;
    const char* path;
    const char* pattern;  // nullptr: no match
    bool path_exists;
  };
  const Row rows[] = {
      {"GET", "/v1/bugs/stats", "/v1/bugs/stats", true},
      {"GET", "/v1/bugs/123", "/v1/bugs/:id", true},
      {"POST", "/v1/bugs/123", nullptr, true},
      {"GET", "/v1/bugs", nullptr, false},
      {"GET", "/v1/bugs/1/2", nullptr, false},
      {"DELETE", "/v1/projects/p1/keys/k1", "/v1/projects/:id/keys/:keyId", true},
      {"GET", "/v1/bugs/123/", "/v1/bugs/:id", true},
  };
  for (const Row& row : rows) {
    CAPTURE(row.path);
    auto m = r.Find(row.method, row.path);
    if (row.pattern) {
      REQUIRE(m.route != nullptr);
      CHECK(m.route->pattern == row.pattern);
    } else {
      CHECK(m.route == nullptr);
      CHECK(m.path_exists == row.path_exists);
    }
  }
  auto m = r.Find("DELETE", "/v1/projects/p%201/keys/k%2F1");
  CHECK(m.params.Get("id") == "p 1");
  CHECK(m.params.Get("keyId") == "k/1");
}

TEST_CASE("query parameters decode and enforce the one-value rule") {
  auto q = QueryParams::Parse("a=1&b=x+y&c=%41&a=2&flag");
  CHECK(q.All("a") == std::vector<std::string>{"1", "2"});
  CHECK(q.One("b").value() == "x y");
  CHECK(q.One("c").value() == "A");
  CHECK(q.One("flag").value() == "");
  CHECK_FALSE(q.One("missing").value().has_value());
  CHECK_FALSE(q.One("a").ok());
  CHECK(q.One("a").status().message() == "a must be provided at most once");
  CHECK_FALSE(QueryParams::Parse("a[]=1").One("a").ok());
}
