// Scrubbing rules (areas/capture/domain/scrub.h), one table per rule: what
// is replaced, what is left alone, and the counts.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "areas/capture/domain/scrub.h"

namespace json = boost::json;
namespace dc = service::domain::capture;

namespace {

struct StringCase {
  const char* in;
  const char* out;
  dc::ScrubRule rule;
  int64_t count;  // of `rule`
};

void CheckStrings(const std::vector<StringCase>& cases, const dc::ScrubOptions& o = {}) {
  for (const StringCase& c : cases) {
    CAPTURE(c.in);
    std::string s = c.in;
    dc::ScrubCounts counts;
    const bool changed = dc::ScrubString(s, o, counts);
    CHECK(s == c.out);
    CHECK(changed == (std::string(c.in) != c.out));
    CHECK(counts.Of(c.rule) == c.count);
    CHECK(counts.Total() == c.count);
  }
}

double ThreadCpuMicros() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

struct KeyCase {
  const char* key;
  bool numeric;
  bool sensitive;
};

}  // namespace

TEST_CASE("scrub key rule: word list, exact keys, normalization and exceptions") {
  const dc::ScrubOptions o;
  const std::vector<KeyCase> cases = {
      {"password", false, true},
      {"Password", false, true},
      {"user_password", false, true},
      {"passwd", false, true},
      {"client_secret", false, true},
      {"access_token", false, true},
      {"refreshToken", false, true},
      {"api_key", false, true},
      {"apiKey", false, true},
      {"X-Api-Key", false, true},
      {"Authorization", false, true},
      {"Proxy-Authorization", false, true},
      {"cookie", false, true},
      {"Set-Cookie", false, true},
      {"session", false, true},
      {"sessionid", false, true},
      {"credit_card", false, true},
      {"creditCardNumber", false, true},
      {"card_number", false, true},
      {"cardNumber", false, true},
      {"private_key", false, true},
      {"credentials", false, true},
      {"csrftoken", false, true},
      {"auth", false, true},
      {"AUTH", false, true},
      {"pwd", false, true},
      {"pass", false, true},
      {"cvv", false, true},
      {"cvc", false, true},
      {"pin", false, true},
      {"pin", true, true},
      {"token", true, true},
      {"password", true, true},
      // not sensitive
      {"author", false, false},
      {"authority", false, false},
      {"username", false, false},
      {"email", false, false},
      {"message", false, false},
      {"passenger", false, false},
      {"pinned", false, false},
      {"spinner", false, false},
      {"tokenizer", false, false},
      {"tokenised_text", false, false},
      {"", false, false},
      // counters: numbers under keys ending in count / tokens
      {"tokenizer_count", true, false},
      {"prompt_tokens", true, false},
      {"session_count", true, false},
      {"cookie-count", true, false},
      {"prompt_tokens", false, true},  // a string there is still filtered
      {"session_count", false, true},
  };
  for (const KeyCase& c : cases) {
    CAPTURE(c.key);
    CAPTURE(c.numeric);
    CHECK(dc::IsSensitiveKey(c.key, o, c.numeric) == c.sensitive);
  }
}

TEST_CASE("scrub key rule: a project's extra keys match as substrings after normalization") {
  dc::ScrubOptions o;
  o.extra_keys = {dc::NormalizeScrubKey("Social-Security"), dc::NormalizeScrubKey("iban")};
  CHECK(dc::IsSensitiveKey("social_security_number", o));
  CHECK(dc::IsSensitiveKey("SocialSecurity", o));
  CHECK(dc::IsSensitiveKey("customer.iban", o));
  CHECK_FALSE(dc::IsSensitiveKey("social", o));
  CHECK_FALSE(dc::IsSensitiveKey("social_security_number", dc::ScrubOptions()));
}

TEST_CASE("scrub key rule over JSON: values filtered, keys kept, null and booleans kept") {
  json::value v = json::parse(R"({
    "password": "hunter2",
    "nested": {"Authorization": "Basic dXNlcjpwYXNz", "ok": "visible", "apiKey": 12345},
    "session": {"id": "abc", "started": 1},
    "token": null,
    "has_password": true,
    "list": [{"secret": ["a", "b"]}, "plain"],
    "headers": [["Cookie", "sid=1"], ["Accept", "text/html"]],
    "prompt_tokens": 120,
    "already": {"password": "[Filtered]"}
  })");
  dc::ScrubCounts counts;
  dc::ScrubJson(v, dc::ScrubOptions(), counts);
  const json::object& o = v.as_object();
  CHECK(o.at("password") == "[Filtered]");
  CHECK(o.at("nested").at("Authorization") == "[Filtered]");
  CHECK(o.at("nested").at("ok") == "visible");
  CHECK(o.at("nested").at("apiKey") == "[Filtered]");
  CHECK(o.at("session") == "[Filtered]");
  CHECK(o.at("token").is_null());
  CHECK(o.at("has_password") == true);
  CHECK(o.at("list").at(0).at("secret") == "[Filtered]");
  CHECK(o.at("list").at(1) == "plain");
  CHECK(o.at("headers").at(0).at(1) == "[Filtered]");
  CHECK(o.at("headers").at(1).at(1) == "text/html");
  CHECK(o.at("prompt_tokens") == 120);
  CHECK(o.at("already").at("password") == "[Filtered]");
  CHECK(counts.Of(dc::ScrubRule::kKey) == 6);
  CHECK(counts.Total() == 6);
}

TEST_CASE("scrub pair rule: name=value and \"name\": value inside strings") {
  CheckStrings({
      {"https://app.example/cb?code=1&token=abc123&x=2", "https://app.example/cb?code=1&token=[Filtered]&x=2",
       dc::ScrubRule::kPair, 1},
      {"password=hunter2", "password=[Filtered]", dc::ScrubRule::kPair, 1},
      {"user=bob&passwd=s3cret#top", "user=bob&passwd=[Filtered]#top", dc::ScrubRule::kPair, 1},
      {"theme=dark; sessionid=xyz789; lang=en", "theme=dark; sessionid=[Filtered]; lang=en",
       dc::ScrubRule::kPair, 1},
      {"POST /login {\"user\":\"bob\",\"password\":\"hunter2\"}",
       "POST /login {\"user\":\"bob\",\"password\":\"[Filtered]\"}", dc::ScrubRule::kPair, 1},
      {"{\"api_key\": 123456, \"n\": 1}", "{\"api_key\": \"[Filtered]\", \"n\": 1}", dc::ScrubRule::kPair, 1},
      {"{\"token\": {\"a\": \"b\"}}", "{\"token\": {\"a\": \"b\"}}", dc::ScrubRule::kPair, 0},
      {"{\"password\": true}", "{\"password\": true}", dc::ScrubRule::kPair, 0},
      {"session_count=3", "session_count=3", dc::ScrubRule::kPair, 0},
      {"a==b author=me", "a==b author=me", dc::ScrubRule::kPair, 0},
      {"x-token=1", "x-token=[Filtered]", dc::ScrubRule::kPair, 1},
      {"mytoken=abc", "mytoken=[Filtered]", dc::ScrubRule::kPair, 1},
      {"token=", "token=", dc::ScrubRule::kPair, 0},
      {"q=password", "q=password", dc::ScrubRule::kPair, 0},
  });
}

TEST_CASE("scrub card rule: 13-19 digits, separators, first digit 2-6, Luhn") {
  CheckStrings({
      {"card 4111111111111111 declined", "card [Filtered] declined", dc::ScrubRule::kCard, 1},
      {"4111 1111 1111 1111", "[Filtered]", dc::ScrubRule::kCard, 1},
      {"4111-1111-1111-1111.", "[Filtered].", dc::ScrubRule::kCard, 1},
      {"amex 378282246310005", "amex [Filtered]", dc::ScrubRule::kCard, 1},
      {"mc 5555555555554444, visa 4012888888881881", "mc [Filtered], visa [Filtered]", dc::ScrubRule::kCard,
       2},
      {"discover 6011111111111117", "discover [Filtered]", dc::ScrubRule::kCard, 1},
      {"4111111111111112", "4111111111111112", dc::ScrubRule::kCard, 0},  // Luhn fails
      {"1732780000000 ms", "1732780000000 ms", dc::ScrubRule::kCard, 0},  // a timestamp: first digit 1
      {"id 41111111111111111111", "id 41111111111111111111", dc::ScrubRule::kCard, 0},  // 20 digits
      {"order 411111111111", "order 411111111111", dc::ScrubRule::kCard, 0},            // 12 digits
      {"x4111111111111111", "x4111111111111111", dc::ScrubRule::kCard, 0},              // touches a letter
      {"4111111111111111abc", "4111111111111111abc", dc::ScrubRule::kCard, 0},
      {"4111  1111 1111 1111", "4111  1111 1111 1111", dc::ScrubRule::kCard, 0},  // double space
  });
  json::value v = json::parse(R"({"n": 4111111111111111, "t": 1732780000000, "s": 42})");
  dc::ScrubCounts counts;
  dc::ScrubJson(v, dc::ScrubOptions(), counts);
  CHECK(v.at("n") == "[Filtered]");
  CHECK(v.at("t") == 1732780000000);
  CHECK(v.at("s") == 42);
  CHECK(counts.Of(dc::ScrubRule::kCard) == 1);
  CHECK(dc::LuhnValid("79927398713"));
  CHECK_FALSE(dc::LuhnValid("79927398710"));
}

TEST_CASE("scrub bearer rule: the credential after Bearer") {
  CheckStrings({
      {"Authorization: Bearer abc.def-123_XYZ", "Authorization: Bearer [Filtered]", dc::ScrubRule::kBearer,
       1},
      {"bearer 0123456789abcdef", "bearer [Filtered]", dc::ScrubRule::kBearer, 1},
      {"BEARER  aaaaaaaa1 rest", "BEARER  [Filtered] rest", dc::ScrubRule::kBearer, 1},
      {"the bearer of bad news", "the bearer of bad news", dc::ScrubRule::kBearer, 0},
      {"the bearer informations", "the bearer informations", dc::ScrubRule::kBearer,
       0},                                                        // no digit or symbol
      {"Bearer abc1", "Bearer abc1", dc::ScrubRule::kBearer, 0},  // shorter than 8
      {"xBearer abcdefgh1", "xBearer abcdefgh1", dc::ScrubRule::kBearer, 0},
  });
}

TEST_CASE("scrub token rule: the service's and known secret formats, JSON web tokens") {
  CheckStrings({
      {"key sv_pat_0123456789abcdefABCD used", "key [Filtered] used", dc::ScrubRule::kToken, 1},
      {"sv_live_0123456789abcdef0123456789abcdef", "[Filtered]", dc::ScrubRule::kToken, 1},
      {"dsn=https://sv_test_0123456789abcdef0123@host/1", "dsn=https://[Filtered]@host/1",
       dc::ScrubRule::kToken, 1},
      {"ghp_abcdefghijklmnopqrstuvwxyz0123", "[Filtered]", dc::ScrubRule::kToken, 1},
      {"xoxb-1234567890-abcdefghij", "[Filtered]", dc::ScrubRule::kToken, 1},
      {"sk_live_4eC39HqLyjWDarjtT1zdp7dc", "[Filtered]", dc::ScrubRule::kToken, 1},
      {"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
       "[Filtered]", dc::ScrubRule::kToken, 1},
      {"sv_pat_short", "sv_pat_short", dc::ScrubRule::kToken, 0},
      {"mysv_pat_0123456789abcdefABCD", "mysv_pat_0123456789abcdefABCD", dc::ScrubRule::kToken, 0},
      {"eyJust.eyJoking.now", "eyJust.eyJoking.now", dc::ScrubRule::kToken, 0},
  });
}

TEST_CASE("scrub ip rule: only with IP address storage off") {
  dc::ScrubOptions off;
  off.store_ip = false;
  const char* text = R"({"user": {"ip_address": "203.0.113.7", "id": "u1"}, "X-Forwarded-For": "10.0.0.1",
                         "remote_addr": "10.0.0.2", "ipv6": "::1", "zip": "12345"})";
  json::value kept = json::parse(text);
  dc::ScrubCounts none;
  dc::ScrubJson(kept, dc::ScrubOptions(), none);
  CHECK(kept.at("user").at("ip_address") == "203.0.113.7");
  CHECK(none.Total() == 0);

  json::value v = json::parse(text);
  dc::ScrubCounts counts;
  dc::ScrubJson(v, off, counts);
  CHECK(v.at("user").at("ip_address") == "[Filtered]");
  CHECK(v.at("user").at("id") == "u1");
  CHECK(v.at("X-Forwarded-For") == "[Filtered]");
  CHECK(v.at("remote_addr") == "[Filtered]");
  CHECK(v.at("ipv6") == "::1");
  CHECK(v.at("zip") == "12345");
  CHECK(counts.Of(dc::ScrubRule::kIp) == 3);
}

TEST_CASE("scrub messages: off keeps the text under message keys, keys still filtered") {
  const char* text = R"({"message": "card 4111111111111111", "stack": "card 4111111111111111",
                         "data": {"message": {"password": "x"}}})";
  json::value on = json::parse(text);
  dc::ScrubCounts c1;
  dc::ScrubJson(on, dc::ScrubOptions(), c1);
  CHECK(on.at("message") == "card [Filtered]");
  CHECK(on.at("stack") == "card [Filtered]");

  dc::ScrubOptions off;
  off.scrub_messages = false;
  json::value v = json::parse(text);
  dc::ScrubCounts c2;
  dc::ScrubJson(v, off, c2);
  CHECK(v.at("message") == "card 4111111111111111");
  CHECK(v.at("stack") == "card [Filtered]");
  CHECK(v.at("data").at("message").at("password") == "[Filtered]");
  CHECK(c2.Of(dc::ScrubRule::kCard) == 1);
  CHECK(c2.Of(dc::ScrubRule::kKey) == 1);
}

TEST_CASE("scrub: strings without a match are left untouched and rule names are stable") {
  CheckStrings({
      {"", "", dc::ScrubRule::kKey, 0},
      {"TypeError: undefined is not a function", "TypeError: undefined is not a function",
       dc::ScrubRule::kKey, 0},
      {"at main (app.js:10:5)", "at main (app.js:10:5)", dc::ScrubRule::kKey, 0},
      {"https://example.com/a?b=c", "https://example.com/a?b=c", dc::ScrubRule::kKey, 0},
      {"2024-11-28T10:00:00Z", "2024-11-28T10:00:00Z", dc::ScrubRule::kKey, 0},
      {"550e8400-e29b-41d4-a716-446655440000", "550e8400-e29b-41d4-a716-446655440000", dc::ScrubRule::kKey,
       0},
  });
  CHECK(dc::ScrubRuleName(dc::ScrubRule::kKey) == "key");
  CHECK(dc::ScrubRuleName(dc::ScrubRule::kPair) == "pair");
  CHECK(dc::ScrubRuleName(dc::ScrubRule::kCard) == "card");
  CHECK(dc::ScrubRuleName(dc::ScrubRule::kBearer) == "bearer");
  CHECK(dc::ScrubRuleName(dc::ScrubRule::kToken) == "token");
  CHECK(dc::ScrubRuleName(dc::ScrubRule::kIp) == "ip");
}

TEST_CASE("scrub: pathological strings are scanned in linear time") {
  const dc::ScrubOptions o;
  auto repeat = [](const std::string& unit, size_t bytes) {
    std::string s;
    while (s.size() < bytes) s += unit;
    return s;
  };
  const double t0 = ThreadCpuMicros();
  for (const std::string& unit :
       {std::string("a="), std::string("eyJ-"), std::string("\"a\":x"), std::string("\"a\":\""),
        std::string("4-"), std::string("bearer "), std::string("sv_pat_"), std::string("x"),
        std::string("token=a&"), std::string("\"password\":")}) {
    CAPTURE(unit);
    std::string s = repeat(unit, 256 * 1024);
    dc::ScrubCounts counts;
    dc::ScrubString(s, o, counts);
    CHECK(!s.empty());
  }
  // Quadratic scans of 256 KB would take minutes; linear ones milliseconds.
  CHECK((ThreadCpuMicros() - t0) < 2e6);
}

// The cost on the ingest path: a realistic ~4 KB report (events with
// breadcrumbs, a stack, metadata) parsed once and scrubbed per iteration on
// a fresh copy. Run with: unit_tests -tc="scrub cost*" --no-skip
TEST_CASE("scrub cost per 4 KB report" * doctest::skip()) {
  std::string report = R"({"events":[)";
  for (int i = 0; i < 12; ++i) {
    if (i > 0) report += ",";
    report +=
        R"({"type":"network","timestamp":1732780000000,"data":{"method":"GET","url":"https://api.example.com/v1/items?page=)" +
        std::to_string(i) +
        R"(&sort=desc","status":200,"durationMs":35,"headers":{"Accept":"application/json","X-Request-Id":"4f7c2a9e-1b3d"}}})";
  }
  report +=
      R"(,{"type":"console","timestamp":1732780000100,"data":{"level":"error","message":"Failed to load profile for user 1234: timeout after 3000 ms"}})";
  report +=
      R"J(,{"type":"error","timestamp":1732780000200,"data":{"name":"TypeError","message":"Cannot read properties of undefined (reading 'id')","stack":")J";
  for (int i = 0; i < 14; ++i)
    report += "    at renderProfile (https://cdn.example.com/assets/app.4f7c2a9e.js:1:48213)\\n";
  report +=
      R"("}}],"metadata":{"sdk":"web","version":"2.3.1","route":"/profile/42","viewport":"1440x900","feature_flags":["a","b","c"],"build":"2026.11.28-1"}})";
  const json::value parsed = json::parse(report);
  const dc::ScrubOptions o;
  const int n = 20000;
  dc::ScrubCounts counts;
  // Nothing in the report matches, so scrubbing leaves it as it is and the
  // same value is scrubbed again and again (no copy in the loop).
  json::value v = parsed;
  double best = 1e9;
  for (int round = 0; round < 5; ++round) {
    const double t0 = ThreadCpuMicros();
    for (int i = 0; i < n; ++i) dc::ScrubJson(v, o, counts);
    const double us = (ThreadCpuMicros() - t0) / n;
    if (us < best) best = us;
  }
  std::printf(
      "report %zu bytes: scrub %.2f us per report (thread CPU time, best of 5 rounds of %d), counts %lld\n",
      report.size(), best, n, static_cast<long long>(counts.Total()));
  CHECK(v == parsed);
  CHECK(counts.Total() == 0);
}
