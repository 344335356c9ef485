// Password hashing, verification, the stored format and the password policy.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/accounts/domain/password.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace sd = service::domain::accounts;

namespace {

// Cheap parameters so the suite stays fast; production uses the defaults.
sd::ScryptParams Fast() {
  sd::ScryptParams p;
  p.log2_n = 10;
  return p;
}

const std::string kSaltA(16, 'a');
const std::string kSaltB(16, 'b');

std::string MustHash(std::string_view password, const std::string& salt, const sd::ScryptParams& p = Fast()) {
  auto r = sd::HashPassword(password, salt, p);
  REQUIRE(r.ok());
  return *r;
}

}  // namespace

TEST_CASE("password: right password verifies, wrong ones do not") {
  const std::string h = MustHash("correct horse battery", kSaltA);
  CHECK(sd::VerifyPassword("correct horse battery", h));
  CHECK_FALSE(sd::VerifyPassword("correct horse batterY", h));
  CHECK_FALSE(sd::VerifyPassword("correct horse battery ", h));
  CHECK_FALSE(sd::VerifyPassword("", h));
  CHECK_FALSE(sd::VerifyPassword(std::string("correct horse battery\0", 22), h));
}

TEST_CASE("password: the stored form is self-describing and never contains the password") {
  const std::string h = MustHash("s3cret-pass", kSaltA);
  CHECK(service::util::StartsWith(h, "scrypt$10$8$1$"));
  CHECK(h.find("s3cret-pass") == std::string::npos);
  auto parsed = sd::ParsePasswordHash(h);
  REQUIRE(parsed.ok());
  CHECK(parsed->params.log2_n == 10);
  CHECK(parsed->params.r == 8);
  CHECK(parsed->params.p == 1);
  CHECK(parsed->salt == kSaltA);
  CHECK(parsed->hash.size() == 32);
}

TEST_CASE("password: hashing is deterministic per salt and differs across salts") {
  CHECK(MustHash("same password", kSaltA) == MustHash("same password", kSaltA));
  const std::string a = MustHash("same password", kSaltA);
  const std::string b = MustHash("same password", kSaltB);
  CHECK(a != b);
  CHECK(sd::ParsePasswordHash(a)->hash != sd::ParsePasswordHash(b)->hash);
  CHECK(sd::VerifyPassword("same password", a));
  CHECK(sd::VerifyPassword("same password", b));
  // Different cost parameters give a different hash too.
  sd::ScryptParams p = Fast();
  p.log2_n = 11;
  CHECK(sd::ParsePasswordHash(MustHash("same password", kSaltA, p))->hash != sd::ParsePasswordHash(a)->hash);
}

TEST_CASE("password: the production defaults are N=2^15, r=8, p=1, 32 bytes and work") {
  const sd::ScryptParams d;
  CHECK(d.log2_n == 15);
  CHECK(d.r == 8);
  CHECK(d.p == 1);
  CHECK(d.key_bytes == 32);
  // More than OpenSSL's default 32 MiB maxmem: the derivation must raise it.
  CHECK(sd::ScryptMemoryBytes(d) > (uint64_t{32} << 20));
  auto h = sd::HashPassword("production password", std::string(sd::kPasswordSaltBytes, '\x01'));
  REQUIRE(h.ok());
  CHECK(service::util::StartsWith(*h, "scrypt$15$8$1$"));
  CHECK(sd::VerifyPassword("production password", *h));
  CHECK_FALSE(sd::VerifyPassword("production passworD", *h));
  CHECK_FALSE(sd::NeedsRehash(*h));
  CHECK(sd::NeedsRehash(MustHash("production password", kSaltA)));  // made with N=2^10
}

TEST_CASE("password: the derivation reproduces RFC 7914's scrypt test vector") {
  // RFC 7914 section 12: P="pleaseletmein", S="SodiumChloride", N=16384, r=8, p=1, dkLen=64.
  sd::ScryptParams p;
  p.log2_n = 14;
  p.r = 8;
  p.p = 1;
  p.key_bytes = 64;
  auto h = sd::HashPassword("pleaseletmein", "SodiumChloride", p);
  REQUIRE(h.ok());
  auto parsed = sd::ParsePasswordHash(*h);
  REQUIRE(parsed.ok());
  CHECK(service::util::HexEncode(parsed->hash) ==
        "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
        "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887");
  CHECK(service::util::StartsWith(*h, "scrypt$14$8$1$U29kaXVtQ2hsb3JpZGU$"));
  CHECK(sd::VerifyPassword("pleaseletmein", *h));
}

TEST_CASE("password: bad inputs to HashPassword are refused") {
  CHECK(sd::HashPassword("pw", "short", Fast()).status().code() == service::Code::kInvalidArgument);
  CHECK(sd::HashPassword("pw", std::string(65, 's'), Fast()).status().code() ==
        service::Code::kInvalidArgument);
  sd::ScryptParams p = Fast();
  p.log2_n = 0;
  CHECK_FALSE(sd::HashPassword("pw", kSaltA, p).ok());
  p = Fast();
  p.log2_n = 21;
  CHECK_FALSE(sd::HashPassword("pw", kSaltA, p).ok());
  p = Fast();
  p.r = 0;
  CHECK_FALSE(sd::HashPassword("pw", kSaltA, p).ok());
  p = Fast();
  p.key_bytes = 8;
  CHECK_FALSE(sd::HashPassword("pw", kSaltA, p).ok());
  // An empty password hashes (the policy, not the hash, refuses it).
  const std::string empty = MustHash("", kSaltA);
  CHECK(sd::VerifyPassword("", empty));
  CHECK_FALSE(sd::VerifyPassword("x", empty));
}

TEST_CASE("password: malformed stored hashes are parse errors and never verify") {
  const std::string good = MustHash("pw-pw-pw-pw", kSaltA);
  const auto parts = service::util::Split(good, '$');
  REQUIRE(parts.size() == 6);
  const std::string salt = parts[4], hash = parts[5];
  const std::vector<std::string> bad = {
      "",
      "scrypt",
      "scrypt$10$8$1$" + salt,
      "scrypt$10$8$1$" + salt + "$" + hash + "$extra",
      "bcrypt$10$8$1$" + salt + "$" + hash,
      "SCRYPT$10$8$1$" + salt + "$" + hash,
      "scrypt$x$8$1$" + salt + "$" + hash,
      "scrypt$010$8$1$" + salt + "$" + hash,
      "scrypt$-1$8$1$" + salt + "$" + hash,
      "scrypt$0$8$1$" + salt + "$" + hash,
      "scrypt$21$8$1$" + salt + "$" + hash,
      "scrypt$99999999999$8$1$" + salt + "$" + hash,
      "scrypt$10$0$1$" + salt + "$" + hash,
      "scrypt$10$33$1$" + salt + "$" + hash,
      "scrypt$10$8$0$" + salt + "$" + hash,
      "scrypt$10$8$17$" + salt + "$" + hash,
      "scrypt$10$8$1$$" + hash,
      "scrypt$10$8$1$" + salt + "$",
      "scrypt$10$8$1$" + salt + "$" + hash + "=",
      "scrypt$10$8$1$" + salt + "$" + hash.substr(0, 10),
      "scrypt$10$8$1$c2FsdA$" + hash,  // 4-byte salt
      "scrypt$10$8$1$" + salt + "$" + hash + "!",
      "scrypt$10$8$1$" + salt + "$" + std::string(200, 'A'),
      "$$$$$",
      "plaintext-password",
  };
  for (const std::string& b : bad) {
    CAPTURE(b);
    CHECK(sd::ParsePasswordHash(b).status().code() == service::Code::kInvalidArgument);
    CHECK_FALSE(sd::VerifyPassword("pw-pw-pw-pw", b));
    CHECK(sd::NeedsRehash(b));
  }
  CHECK(sd::ParsePasswordHash(good).ok());
  CHECK(sd::VerifyPassword("pw-pw-pw-pw", good));
}

TEST_CASE("password: policy counts code points and caps bytes") {
  struct Case {
    std::string password;
    bool ok;
  };
  const std::vector<Case> cases = {
      {"", false},
      {"1234567", false},
      {"12345678", true},
      {"       8", true},
      {"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", false},         // 7 x e-acute, 14 bytes
      {"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", true},  // 8 x e-acute
      {std::string(1024, 'p'), true},
      {std::string(1025, 'p'), false},
      {"abcdefg\xff", false},  // invalid UTF-8
      {std::string("abcdefgh\0", 9), false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.password.size());
    const service::Status s = sd::CheckPasswordPolicy(c.password);
    CHECK(s.ok() == c.ok);
    if (!s.ok()) {
      CHECK(s.code() == service::Code::kInvalidArgument);
      if (!c.password.empty()) CHECK(s.message().find(c.password) == std::string::npos);
    }
  }
  CHECK(sd::CheckPasswordPolicy("1234567").message() == "Password must be at least 8 characters");
  sd::PasswordPolicy strict;
  strict.min_chars = 12;
  CHECK_FALSE(sd::CheckPasswordPolicy("12345678901", strict).ok());
  CHECK(sd::CheckPasswordPolicy("123456789012", strict).ok());
}
