// URL patterns: the page identity that goes into the fingerprint.
#include <doctest/doctest.h>

#include <string>

#include "areas/capture/domain/normalize.h"

using service::domain::capture::UrlPattern;

namespace {

struct Case {
  const char* input;
  const char* expected;
};

const Case kCases[] = {
    {"https://app.example.com/users/123", "https://app.example.com/users/<id>"},
    {"https://app.example.com/users/123/orders/987654?tab=items#summary",
     "https://app.example.com/users/<id>/orders/<id>"},
    {"https://app.example.com/projects/550e8400-e29b-41d4-a716-446655440000/settings",
     "https://app.example.com/projects/<uuid>/settings"},
    {"https://app.example.com/p/6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "https://app.example.com/p/<uuid>"},
    {"https://shop.example.com/items/5f3a9c2b1e4d5f6a7b8c9d0e", "https://shop.example.com/items/<id>"},
    {"https://git.example.com/commit/9fceb02d0ae598e95dc970b74767f19372d61af8",
     "https://git.example.com/commit/<id>"},
    {"https://app.example.com/v2/about", "https://app.example.com/v2/about"},
    {"https://app.example.com/blog/2024-01-hello", "https://app.example.com/blog/2024-01-hello"},
    {"https://app.example.com/cafe1234", "https://app.example.com/cafe1234"},
    // Host and scheme case, user info, default and other ports.
    {"HTTPS://User:Secret@App.Example.COM:443/Path/X", "https://app.example.com/Path/X"},
    {"http://example.com:80/", "http://example.com/"},
    {"http://localhost:3000/users/5", "http://localhost:3000/users/<id>"},
    {"http://[::1]:8080/items/7", "http://[::1]:8080/items/<id>"},
    // Empty paths, slashes, matrix parameters.
    {"https://example.com", "https://example.com/"},
    {"https://example.com?q=1", "https://example.com/"},
    {"https://example.com/a//b/", "https://example.com/a/b"},
    {"https://example.com/cart;jsessionid=A1B2C3/checkout", "https://example.com/cart/checkout"},
    // Hash routing is kept, other fragments dropped.
    {"https://app.example.com/#/orders/42?x=1", "https://app.example.com/#/orders/<id>"},
    {"https://app.example.com/#!/orders/42", "https://app.example.com/#!/orders/<id>"},
    {"https://app.example.com/docs#section-3", "https://app.example.com/docs"},
    // No scheme: a path.
    {"/api/v1/orders/1001?expand=items", "/api/v1/orders/<id>"},
    {"orders/17", "orders/<id>"},
    {"//cdn.example.com/lib/1.2.3/x.js", "//cdn.example.com/lib/1.2.3/x.js"},
    // Other schemes.
    {"blob:https://app.example.com/550e8400-e29b-41d4-a716-446655440000",
     "blob:https://app.example.com/<uuid>"},
    {"data:image/png;base64,iVBORw0KGgo=", "data:"},
    {"javascript:void(0)", "javascript:"},
    {"about:blank", "about:blank"},
    {"file:///Users/me/index.html", "file:///Users/me/index.html"},
    {"capacitor://localhost/tabs/3", "capacitor://localhost/tabs/<id>"},
    // Encoding: non-ASCII and spaces become escapes, escapes are upper-cased.
    {"https://example.com/caf\xc3\xa9", "https://example.com/caf%C3%A9"},
    {"https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9"},
    {"https://example.com/a b/100%", "https://example.com/a%20b/100%25"},
    {"  https://example.com/x  ", "https://example.com/x"},
    {"", ""},
    // Regression (found by the fuzzer): a relative path whose first segment
    // vanishes must not come out looking like a `data:` URL.
    {";p/data:text", "data%3Atext"},
    {"blob:;p/Blob:x", "blob:Blob%3Ax"},
};

}  // namespace

TEST_CASE("UrlPattern keeps scheme, host and path and replaces ids") {
  for (const Case& c : kCases) {
    const std::string input = c.input;
    CAPTURE(input);
    CHECK(UrlPattern(c.input) == c.expected);
  }
}

TEST_CASE("UrlPattern is idempotent") {
  for (const Case& c : kCases) {
    const std::string input = c.input;
    CAPTURE(input);
    const std::string once = UrlPattern(c.input);
    CHECK(UrlPattern(once) == once);
  }
}

TEST_CASE("pages that differ only in ids, query or fragment share a pattern") {
  const std::string a =
      UrlPattern("https://app.example.com/orgs/12/projects/550e8400-e29b-41d4-a716-446655440000?a=1");
  CHECK(a ==
        UrlPattern("https://app.example.com/orgs/9999/projects/6ba7b810-9dad-11d1-80b4-00c04fd430c8#top"));
  CHECK(a == UrlPattern("https://APP.example.com:443/orgs/1/projects/6ba7b810-9dad-11d1-80b4-00c04fd430c8/"));
  CHECK(a != UrlPattern("https://app.example.com/orgs/12/teams/550e8400-e29b-41d4-a716-446655440000"));
  CHECK(a != UrlPattern("https://staging.example.com/orgs/12/projects/550e8400-e29b-41d4-a716-446655440000"));
}
