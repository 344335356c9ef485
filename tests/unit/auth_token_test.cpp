// Session tokens: signing, verification and every way a token is refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "areas/accounts/domain/token.h"
#include "util/crypto.h"

namespace sd = service::domain::accounts;
namespace util = service::util;

namespace {

constexpr std::string_view kSecret = "test-secret-0123456789abcdef0123456789";
constexpr int64_t kNowMs = 1'800'000'000'000;  // 2027-01-15

// Signs arbitrary header and payload JSON with HMAC-SHA256, the way a forger
// who knows the secret (or a buggy issuer) would.
std::string Forge(std::string_view header_json, std::string_view payload_json,
                  std::string_view secret = kSecret) {
  std::string input = util::Base64UrlEncode(header_json) + "." + util::Base64UrlEncode(payload_json);
  return input + "." + util::Base64UrlEncode(util::HmacSha256(secret, input));
}

std::string Segment(const std::string& token, int i) {
  const size_t d1 = token.find('.');
  const size_t d2 = token.find('.', d1 + 1);
  if (i == 0) return token.substr(0, d1);
  if (i == 1) return token.substr(d1 + 1, d2 - d1 - 1);
  return token.substr(d2 + 1);
}

std::string ValidPayload() {
  return R"({"sub":"u-1","org":"o-1","typ":"access","ver":2,"rev":3,"iat":1800000000,"exp":1800003600})";
}
constexpr std::string_view kHs256Header = R"({"alg":"HS256","typ":"JWT"})";

void CheckRefused(const service::Result<sd::TokenClaims>& r, std::string_view token) {
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == service::Code::kUnauthenticated);
  CHECK(r.status().message() == "Invalid or expired token");
  if (token.size() >= 8) CHECK(r.status().message().find(token) == std::string::npos);
}

}  // namespace

TEST_CASE("token: access and refresh tokens round trip with their claims") {
  const sd::TokenClaims access = sd::MakeAccessClaims("user-1", "org-1", 7, kNowMs);
  CHECK(access.typ == "access");
  CHECK(access.ver == 2);
  CHECK(access.iat == kNowMs / 1000);
  CHECK(access.exp - access.iat == 3600);
  const std::string a = sd::SignToken(access, kSecret);
  auto got = sd::VerifyToken(a, kSecret, kNowMs, sd::kAccessTokenType);
  REQUIRE(got.ok());
  CHECK(*got == access);

  const sd::TokenClaims refresh = sd::MakeRefreshClaims("user-1", "", 7, "jti-abc", kNowMs);
  CHECK(refresh.exp - refresh.iat == 30 * 24 * 3600);
  const std::string r = sd::SignToken(refresh, kSecret);
  auto got_r = sd::VerifyToken(r, kSecret, kNowMs, sd::kRefreshTokenType);
  REQUIRE(got_r.ok());
  CHECK(*got_r == refresh);
  CHECK(got_r->org.empty());
  CHECK(got_r->jti == "jti-abc");

  // The sign-in id travels in both kinds; absent, it reads as empty.
  sd::TokenClaims with_sid = access;
  with_sid.sid = "sign-in-1";
  auto got_sid = sd::VerifyToken(sd::SignToken(with_sid, kSecret), kSecret, kNowMs, sd::kAccessTokenType);
  REQUIRE(got_sid.ok());
  CHECK(got_sid->sid == "sign-in-1");
  CHECK(got->sid.empty());
}

TEST_CASE("token: hand-made HS256 token with the documented claims is accepted") {
  auto got = sd::VerifyToken(Forge(kHs256Header, ValidPayload()), kSecret, kNowMs, "access");
  REQUIRE(got.ok());
  CHECK(got->sub == "u-1");
  CHECK(got->org == "o-1");
  CHECK(got->rev == 3);
  CHECK(got->exp == 1800003600);
}

TEST_CASE("token: a token without rev counts as revision 0") {
  const std::string payload = R"({"sub":"u-1","typ":"access","ver":2,"iat":1800000000,"exp":1800003600})";
  auto got = sd::VerifyToken(Forge(kHs256Header, payload), kSecret, kNowMs, "access");
  REQUIRE(got.ok());
  CHECK(got->rev == 0);
  CHECK(got->org.empty());
}

TEST_CASE("token: expiry is exclusive at exp") {
  const sd::TokenClaims c = sd::MakeAccessClaims("u", "o", 0, kNowMs);
  const std::string t = sd::SignToken(c, kSecret);
  CHECK(sd::VerifyToken(t, kSecret, c.exp * 1000 - 1, "access").ok());
  CheckRefused(sd::VerifyToken(t, kSecret, c.exp * 1000, "access"), t);
  CheckRefused(sd::VerifyToken(t, kSecret, kNowMs + 2 * 3600 * 1000, "access"), t);
  // A refresh token lives 30 days.
  const sd::TokenClaims rc = sd::MakeRefreshClaims("u", "o", 0, "j", kNowMs);
  const std::string rt = sd::SignToken(rc, kSecret);
  CHECK(sd::VerifyToken(rt, kSecret, kNowMs + int64_t{29} * 24 * 3600 * 1000, "refresh").ok());
  CheckRefused(sd::VerifyToken(rt, kSecret, kNowMs + int64_t{31} * 24 * 3600 * 1000, "refresh"), rt);
}

TEST_CASE("token: type confusion is refused") {
  const std::string refresh = sd::SignToken(sd::MakeRefreshClaims("u", "o", 0, "j", kNowMs), kSecret);
  const std::string access = sd::SignToken(sd::MakeAccessClaims("u", "o", 0, kNowMs), kSecret);
  SUBCASE("refresh token used as access") {
    CheckRefused(sd::VerifyToken(refresh, kSecret, kNowMs, "access"), refresh);
  }
  SUBCASE("access token used as refresh") {
    CheckRefused(sd::VerifyToken(access, kSecret, kNowMs, "refresh"), access);
  }
  SUBCASE("refresh token without jti") {
    const std::string t = Forge(
        kHs256Header, R"({"sub":"u","typ":"refresh","ver":2,"rev":0,"iat":1800000000,"exp":1900000000})");
    CheckRefused(sd::VerifyToken(t, kSecret, kNowMs, "refresh"), t);
  }
  SUBCASE("unknown type") {
    const std::string t =
        Forge(kHs256Header, R"({"sub":"u","typ":"agent","ver":2,"iat":1800000000,"exp":1900000000})");
    CheckRefused(sd::VerifyToken(t, kSecret, kNowMs, "access"), t);
  }
}

TEST_CASE("token: tampering is detected") {
  const std::string t = sd::SignToken(sd::MakeAccessClaims("user-1", "org-1", 1, kNowMs), kSecret);
  const std::string header = Segment(t, 0), payload = Segment(t, 1), sig = Segment(t, 2);

  SUBCASE("payload swapped for another user's, signature kept") {
    const std::string other = sd::SignToken(sd::MakeAccessClaims("admin", "org-1", 1, kNowMs), kSecret);
    const std::string forged = header + "." + Segment(other, 1) + "." + sig;
    CheckRefused(sd::VerifyToken(forged, kSecret, kNowMs, "access"), forged);
  }
  SUBCASE("payload edited to a higher revision") {
    std::string text;
    REQUIRE(util::Base64UrlDecode(payload, &text));
    const size_t pos = text.find("\"rev\":1");
    REQUIRE(pos != std::string::npos);
    text.replace(pos, 7, "\"rev\":9");
    const std::string forged = header + "." + util::Base64UrlEncode(text) + "." + sig;
    CheckRefused(sd::VerifyToken(forged, kSecret, kNowMs, "access"), forged);
  }
  SUBCASE("signature changed") {
    std::string bad = sig;
    bad[0] = bad[0] == 'A' ? 'B' : 'A';
    const std::string forged = header + "." + payload + "." + bad;
    CheckRefused(sd::VerifyToken(forged, kSecret, kNowMs, "access"), forged);
  }
  SUBCASE("signature truncated or removed") {
    CheckRefused(sd::VerifyToken(header + "." + payload + "." + sig.substr(0, 20), kSecret, kNowMs, "access"),
                 t);
    CheckRefused(sd::VerifyToken(header + "." + payload + ".", kSecret, kNowMs, "access"), t);
  }
  SUBCASE("non-canonical spelling of the signature (padding, standard alphabet)") {
    CheckRefused(sd::VerifyToken(t + "=", kSecret, kNowMs, "access"), t);
    std::string alt = t;
    for (char& c : alt) {
      if (c == '-') c = '+';
      if (c == '_') c = '/';
    }
    if (alt != t) CheckRefused(sd::VerifyToken(alt, kSecret, kNowMs, "access"), alt);
  }
  SUBCASE("signed with another secret") {
    const std::string other =
        sd::SignToken(sd::MakeAccessClaims("user-1", "org-1", 1, kNowMs), "another-secret");
    CheckRefused(sd::VerifyToken(other, kSecret, kNowMs, "access"), other);
  }
  SUBCASE("empty verification secret refuses even a token signed with an empty key") {
    const std::string weak = Forge(kHs256Header, ValidPayload(), "");
    CheckRefused(sd::VerifyToken(weak, "", kNowMs, "access"), weak);
  }
}

TEST_CASE("token: only HS256 is accepted") {
  struct Case {
    const char* name;
    std::string header;
  };
  const std::vector<Case> cases = {
      {"alg none", R"({"alg":"none","typ":"JWT"})"},
      {"alg None", R"({"alg":"None"})"},
      {"alg HS512", R"({"alg":"HS512","typ":"JWT"})"},
      {"alg hs256 lower-case", R"({"alg":"hs256","typ":"JWT"})"},
      {"alg RS256", R"({"alg":"RS256","typ":"JWT"})"},
      {"alg missing", R"({"typ":"JWT"})"},
      {"alg not a string", R"({"alg":256})"},
      {"crit header", R"({"alg":"HS256","crit":["exp"]})"},
      {"typ not JWT", R"({"alg":"HS256","typ":"JWE"})"},
      {"header is an array", R"(["HS256"])"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    // Correctly HMAC-SHA256-signed: only the header check can refuse it.
    const std::string t = Forge(c.header, ValidPayload());
    CheckRefused(sd::VerifyToken(t, kSecret, kNowMs, "access"), t);
  }
  // The classic "none" attack: no signature at all.
  const std::string none =
      util::Base64UrlEncode(R"({"alg":"none"})") + "." + util::Base64UrlEncode(ValidPayload()) + ".";
  CheckRefused(sd::VerifyToken(none, kSecret, kNowMs, "access"), none);
  // Control: the same payload under an HS256 header passes.
  CHECK(sd::VerifyToken(Forge(R"({"alg":"HS256"})", ValidPayload()), kSecret, kNowMs, "access").ok());
}

TEST_CASE("token: malformed or wrongly typed claims are refused") {
  struct Case {
    const char* name;
    std::string payload;
  };
  const std::vector<Case> cases = {
      {"version 1", R"({"sub":"u","typ":"access","ver":1,"iat":1800000000,"exp":1900000000})"},
      {"version 3", R"({"sub":"u","typ":"access","ver":3,"iat":1800000000,"exp":1900000000})"},
      {"version missing", R"({"sub":"u","typ":"access","iat":1800000000,"exp":1900000000})"},
      {"version as string", R"({"sub":"u","typ":"access","ver":"2","iat":1800000000,"exp":1900000000})"},
      {"version as double", R"({"sub":"u","typ":"access","ver":2.0,"iat":1800000000,"exp":1900000000})"},
      {"sub missing", R"({"typ":"access","ver":2,"iat":1800000000,"exp":1900000000})"},
      {"sub empty", R"({"sub":"","typ":"access","ver":2,"iat":1800000000,"exp":1900000000})"},
      {"sub number", R"({"sub":5,"typ":"access","ver":2,"iat":1800000000,"exp":1900000000})"},
      {"typ missing", R"({"sub":"u","ver":2,"iat":1800000000,"exp":1900000000})"},
      {"exp missing", R"({"sub":"u","typ":"access","ver":2,"iat":1800000000})"},
      {"exp as string", R"({"sub":"u","typ":"access","ver":2,"iat":1800000000,"exp":"1900000000"})"},
      {"exp fractional", R"({"sub":"u","typ":"access","ver":2,"iat":1800000000,"exp":1.9e9})"},
      {"iat missing", R"({"sub":"u","typ":"access","ver":2,"exp":1900000000})"},
      {"rev negative", R"({"sub":"u","typ":"access","ver":2,"rev":-1,"iat":1800000000,"exp":1900000000})"},
      {"rev string", R"({"sub":"u","typ":"access","ver":2,"rev":"1","iat":1800000000,"exp":1900000000})"},
      {"org number", R"({"sub":"u","org":1,"typ":"access","ver":2,"iat":1800000000,"exp":1900000000})"},
      {"sid number", R"({"sub":"u","sid":1,"typ":"access","ver":2,"iat":1800000000,"exp":1900000000})"},
      {"payload array", R"([1,2,3])"},
      {"payload not JSON", "sub=u;typ=access"},
      {"payload truncated JSON", R"({"sub":"u","typ":"acc)"},
      {"payload empty", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string t = Forge(kHs256Header, c.payload);
    CheckRefused(sd::VerifyToken(t, kSecret, kNowMs, "access"), t);
  }
}

TEST_CASE("token: garbage never crashes and is always refused") {
  const std::vector<std::string> garbage = {
      "",
      ".",
      "..",
      "...",
      "a",
      "a.b",
      "a.b.c",
      "a.b.c.d",
      "Bearer x.y.z",
      "!!!.@@@.###",
      "eyJhbGciOiJIUzI1NiJ9..",
      ".eyJzdWIiOiJ1In0.",
      std::string(5000, 'A'),
      std::string("\0\0.\0\0.\0\0", 8),
      "\xff\xfe.\xff\xfe.\xff\xfe",
      util::Base64UrlEncode("{") + "." + util::Base64UrlEncode("{") + ".AAAA",
      util::Base64UrlEncode(std::string(100, '[')) + ".e30.AAAA",
  };
  for (const std::string& g : garbage) {
    CAPTURE(g.size());
    CheckRefused(sd::VerifyToken(g, kSecret, kNowMs, "access"), g);
  }

  // Every single-character change of a valid token is refused.
  const std::string t = sd::SignToken(sd::MakeAccessClaims("user-1", "org-1", 1, kNowMs), kSecret);
  REQUIRE(sd::VerifyToken(t, kSecret, kNowMs, "access").ok());
  const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \x01\xff";
  std::mt19937 rng(12345);
  for (int i = 0; i < 3000; ++i) {
    std::string m = t;
    const size_t pos = rng() % m.size();
    const char c = alphabet[rng() % alphabet.size()];
    if (m[pos] == c) continue;
    m[pos] = c;
    CAPTURE(pos);
    CheckRefused(sd::VerifyToken(m, kSecret, kNowMs, "access"), m);
  }
  // Random bytes.
  for (int i = 0; i < 500; ++i) {
    std::string r(rng() % 200, '\0');
    for (char& c : r) c = static_cast<char>(rng() & 0xFF);
    CHECK_FALSE(sd::VerifyToken(r, kSecret, kNowMs, "access").ok());
  }
}
