// The canonical JSON a verification runner signs (RFC 8785, JCS;
// areas/verification/domain/canonical_json.h) and the key and signature
// rules (domain/verification.h): table-driven, with RFC 8785's own
// examples (3.2.2 number forms, 3.2.3 member order, 3.2.2.2 string
// escapes), checked against the tests' independent writer where it applies.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <cstring>
#include <string>

#include "areas/verification/domain/canonical_json.h"
#include "areas/verification/domain/verification.h"
#include "support/ed25519_signer.h"
#include "util/crypto.h"

namespace service::testing {
namespace {

namespace json = boost::json;
namespace dv = domain::verification;

std::string Canon(const std::string& text) {
  Result<std::string> r = dv::CanonicalJson(json::parse(text));
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  return *r;
}

double Bits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

TEST_CASE("verification canonical JSON: RFC 8785 number forms (Appendix B)") {
  const struct {
    uint64_t bits;
    const char* text;
  } cases[] = {
      {0x0000000000000000, "0"},
      {0x8000000000000000, "0"},  // -0
      {0x0000000000000001, "5e-324"},
      {0x8000000000000001, "-5e-324"},
      {0x7fefffffffffffff, "1.7976931348623157e+308"},
      {0xffefffffffffffff, "-1.7976931348623157e+308"},
      {0x4340000000000000, "9007199254740992"},
      {0xc340000000000000, "-9007199254740992"},
      {0x4430000000000000, "295147905179352830000"},
      {0x44b52d02c7e14af5, "9.999999999999997e+22"},
      {0x44b52d02c7e14af6, "1e+23"},
      {0x44b52d02c7e14af7, "1.0000000000000001e+23"},
      {0x444b1ae4d6e2ef4e, "999999999999999700000"},
      {0x444b1ae4d6e2ef4f, "999999999999999900000"},
      {0x444b1ae4d6e2ef50, "1e+21"},
      {0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
      {0x3eb0c6f7a0b5ed8d, "0.000001"},
      {0x41b3de4355555553, "333333333.3333332"},
      {0x41b3de4355555554, "333333333.33333325"},
      {0x41b3de4355555555, "333333333.3333333"},
      {0x41b3de4355555556, "333333333.3333334"},
      {0x41b3de4355555557, "333333333.33333343"},
      {0xbecbf647612f3696, "-0.0000033333333333333333"},
      {0x43143ff3c1cb0959, "1424953923781206.2"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    CHECK(dv::CanonicalNumber(Bits(c.bits)) == c.text);
  }
  CHECK(dv::CanonicalNumber(1e21) == "1e+21");
  CHECK(dv::CanonicalNumber(1e-7) == "1e-7");
  CHECK(dv::CanonicalNumber(123.0) == "123");
  CHECK(dv::CanonicalNumber(0.5) == "0.5");
  // Integers as parsed: digits; beyond 2^53 refused (not exact).
  CHECK(Canon("[1, -42, 9007199254740992, 1E2, 4.50]") == "[1,-42,9007199254740992,100,4.5]");
  CHECK_FALSE(dv::CanonicalJson(json::parse("[9007199254740993]")).ok());
  CHECK_FALSE(dv::CanonicalJson(json::parse("[18446744073709551615]")).ok());
}

TEST_CASE("verification canonical JSON: member order, whitespace, literals and escapes") {
  const struct {
    const char* in;
    const char* out;
  } cases[] = {
      {R"({ "b" : 1, "a" : [ true, false, null ] })", R"({"a":[true,false,null],"b":1})"},
      {R"({"b":{"z":1,"y":2},"a":[{"d":1,"c":2}]})", R"({"a":[{"c":2,"d":1}],"b":{"y":2,"z":1}})"},
      // RFC 8785 3.2.3: names sorted by UTF-16 code units ("\r" < "1" <
      // "\u0080" < "\u00f6" < "\u20ac" < "\ud83d\ude00" < "\ufb33").
      {R"({"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"})",
       "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xc2\x80\":\"Control\",\"\xc3\xb6\":\"Latin Small "
       "Letter O With "
       "Diaeresis\",\"\xe2\x82\xac\":\"Euro Sign\",\"\xf0\x9f\x98\x80\":\"Emoji: Grinning "
       "Face\",\"\xef\xac\xb3\":"
       "\"Hebrew Letter Dalet With Dagesh\"}"},
      // RFC 8785 3.2.2.2: escapes.
      {R"(["\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/"])",
       "[\"\xe2\x82\xac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"]"},
      {R"(["\b\f\t\r\u0001\u001f\u007f"])", "[\"\\b\\f\\t\\r\\u0001\\u001f\x7f\"]"},
      {R"({})", "{}"},
      {R"([])", "[]"},
      {R"("x")", "\"x\""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.in);
    CHECK(Canon(c.in) == c.out);
    // The tests' own writer (no doubles in these) agrees.
    CHECK(TestCanonicalJson(json::parse(c.in)) == c.out);
  }
}

TEST_CASE("verification keys: Ed25519 public keys only, signatures verify over the exact bytes") {
  Ed25519Signer key;
  Result<dv::RunnerKey> ok = dv::ParseRunnerPublicKey("\n" + key.PublicKeyPem() + "\n");
  REQUIRE(ok.ok());
  CHECK(ok->raw.size() == 32);
  CHECK(ok->pem == key.PublicKeyPem());
  CHECK(ok->fingerprint.size() == 7 + 64);
  CHECK(dv::ParseRunnerPublicKey(key.PrivateKeyPem()).status().error_code() == "PRIVATE_KEY_REFUSED");
  CHECK(dv::ParseRunnerPublicKey(RsaPublicKeyPem()).status().error_code() == "KEY_TYPE_UNSUPPORTED");
  CHECK(dv::ParseRunnerPublicKey(EcPublicKeyPem()).status().error_code() == "KEY_TYPE_UNSUPPORTED");
  CHECK(dv::ParseRunnerPublicKey("garbage").status().error_code() == "PUBLIC_KEY_INVALID");
  CHECK(dv::ParseRunnerPublicKey(key.PublicKeyPem() + key.PublicKeyPem()).status().error_code() ==
        "PUBLIC_KEY_INVALID");

  const std::string message = R"({"a":1})";
  const std::string sig = key.Sign(message);
  CHECK(dv::VerifyEd25519(ok->raw, message, sig));
  CHECK_FALSE(dv::VerifyEd25519(ok->raw, R"({"a":2})", sig));
  CHECK_FALSE(dv::VerifyEd25519(ok->raw, message + " ", sig));
  Ed25519Signer other;
  CHECK_FALSE(dv::VerifyEd25519(ok->raw, message, other.Sign(message)));
  CHECK_FALSE(dv::VerifyEd25519(ok->raw, message, sig.substr(1)));
}

TEST_CASE("verification rules: runtimes of captures, signed status, applicability order") {
  CHECK(dv::RuntimeOfCapture("web", "", "") == "web");
  CHECK(dv::RuntimeOfCapture("web", "browser", "macos") == "web");
  CHECK(dv::RuntimeOfCapture("other", "", "android") == "android");
  CHECK(dv::RuntimeOfCapture("ios", "swift", "ios") == "ios");
  CHECK(dv::RuntimeOfCapture("other", "swift", "macos") == "macos");
  CHECK(dv::RuntimeOfCapture("other", "node", "") == "node");
  CHECK(dv::RuntimeOfCapture("other", "swift", "") == "");
  using T = dv::TestOutcome;
  CHECK(dv::SignedStatus({T{"a", "passed"}, T{"b", "skipped"}}) == "verified");
  CHECK(dv::SignedStatus({T{"a", "passed"}, T{"b", "failed"}}) == "failed");
  CHECK(dv::SignedStatus({T{"a", "skipped"}}) == "failed");
  dv::ReceiptFacts f;
  CHECK(dv::ApplicabilityOf(f).state == "current");
  f.evidence_revoked = true;
  CHECK(*dv::ApplicabilityOf(f).reason == "evidence_revoked");
  f.occurrences_now = 1;
  CHECK(*dv::ApplicabilityOf(f).reason == "recurrence");
  f.regrouped = true;
  CHECK(*dv::ApplicabilityOf(f).reason == "regrouped");
  f.runner_revoked = true;
  CHECK(*dv::ApplicabilityOf(f).reason == "runner_revoked");
}

}  // namespace service::testing

namespace service::testing {

// The README's worked example ("Verification", "Signing a receipt"): a key
// made with `openssl genpkey -algorithm ed25519`, the submission, its
// canonical bytes and the signature `openssl pkeyutl -sign -rawin` made.
TEST_CASE("verification: the README's worked example canonicalizes and verifies") {
  const std::string pem =
      "-----BEGIN PUBLIC KEY-----\n"
      "MCowBQYDK2VwAyEAuaax8sFdVdlkA+1iOrtQbWGCqs7kS40IHuk6yrt5KKc=\n"
      "-----END PUBLIC KEY-----\n";
  const std::string submission = R"({
  "challengeId": "0199a3c0-7e11-7a52-9b0e-3f2d5c1a8e01",
  "nonce": "q3J0mX1vT8kQ2pW9sYz4bN6cD7eF8gH1iJ2kL3mN4oP",
  "projectId": "0199a3b0-1c2d-7e3f-8a4b-5c6d7e8f9a0b",
  "issueId": "0199a3b4-2d3e-7f40-9b5c-6d7e8f9a0b1c",
  "applicationId": "0199a3b1-3e4f-7051-8c6d-7e8f9a0b1c2d",
  "buildId": "0199a3b2-4f50-7162-9d7e-8f9a0b1c2d3e",
  "artifactSha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "runtime": "web",
  "tests": [
    {"name": "checkout shows the total", "outcome": "passed"},
    {"name": "checkout with an empty cart", "outcome": "passed"}
  ],
  "measuredAt": "2026-11-26T17:00:00.000Z"
})";
  const std::string canonical =
      R"({"applicationId":"0199a3b1-3e4f-7051-8c6d-7e8f9a0b1c2d","artifactSha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","buildId":"0199a3b2-4f50-7162-9d7e-8f9a0b1c2d3e","challengeId":"0199a3c0-7e11-7a52-9b0e-3f2d5c1a8e01","issueId":"0199a3b4-2d3e-7f40-9b5c-6d7e8f9a0b1c","measuredAt":"2026-11-26T17:00:00.000Z","nonce":"q3J0mX1vT8kQ2pW9sYz4bN6cD7eF8gH1iJ2kL3mN4oP","projectId":"0199a3b0-1c2d-7e3f-8a4b-5c6d7e8f9a0b","runtime":"web","tests":[{"name":"checkout shows the total","outcome":"passed"},{"name":"checkout with an empty cart","outcome":"passed"}]})";
  const std::string signature =
      "EUvokgeKzaIeddpW9bBtJ3hhYwnKKl3GUu4On+v40glhvyI++tiPPfS6WownZ1FBNiM+9hO9b1jIriZy0dk4DQ==";
  CHECK(Canon(submission) == canonical);
  CHECK(TestCanonicalJson(boost::json::parse(submission)) == canonical);
  Result<dv::RunnerKey> key = dv::ParseRunnerPublicKey(pem);
  REQUIRE(key.ok());
  std::string raw;
  REQUIRE(util::Base64UrlDecode(signature, &raw));
  CHECK(dv::VerifyEd25519(key->raw, canonical, raw));
  CHECK_FALSE(dv::VerifyEd25519(key->raw, canonical + "\n", raw));
}

}  // namespace service::testing
