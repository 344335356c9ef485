// Opaque one-time secrets and email masking.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "areas/accounts/domain/secrets.h"
#include "util/crypto.h"

namespace sd = service::domain::accounts;

namespace {

// Deterministic "random" bytes: 0, 1, 2, ... continuing across calls.
class CountingIds : public service::ports::Ids {
 public:
  std::string NewId() override { return "00000000-0000-7000-8000-000000000000"; }
  std::string RandomBytes(size_t n) override {
    std::string out(n, '\0');
    for (char& c : out) c = static_cast<char>(next_++);
    return out;
  }
  std::string RandomAlnum(size_t n) override { return std::string(n, 'a'); }

 private:
  unsigned char next_ = 0;
};

}  // namespace

TEST_CASE("secrets: 32 random bytes become 64 hex chars, stored only as their SHA-256") {
  CountingIds ids;
  const sd::IssuedSecret s = sd::NewSecret(ids);
  CHECK(s.token == "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  CHECK(s.hash == service::util::Sha256Hex(s.token));
  CHECK(s.hash.size() == 64);
  CHECK(s.hash != s.token);
  CHECK(sd::SecretHash(s.token) == s.hash);
  CHECK(sd::IsWellFormedSecret(s.token));
}

TEST_CASE("secrets: each flow's helper draws fresh bytes") {
  CountingIds ids;
  std::set<std::string> tokens;
  std::set<std::string> hashes;
  for (const sd::IssuedSecret& s :
       {sd::NewRefreshTokenId(ids), sd::NewEmailVerificationToken(ids), sd::NewPasswordResetToken(ids),
        sd::NewInvitationToken(ids), sd::NewApprovalToken(ids)}) {
    CHECK(s.token.size() == sd::kSecretHexChars);
    CHECK(sd::IsWellFormedSecret(s.token));
    tokens.insert(s.token);
    hashes.insert(s.hash);
  }
  CHECK(tokens.size() == 5);
  CHECK(hashes.size() == 5);
  CHECK(sd::SecretFromBytes(std::string(32, '\xff')).token == std::string(64, 'f'));
}

TEST_CASE("secrets: shape check rejects anything but 64 hex chars") {
  const std::string good(64, 'a');
  CHECK(sd::IsWellFormedSecret(good));
  CHECK(sd::IsWellFormedSecret(std::string(64, 'F')));
  CHECK_FALSE(sd::IsWellFormedSecret(""));
  CHECK_FALSE(sd::IsWellFormedSecret(std::string(63, 'a')));
  CHECK_FALSE(sd::IsWellFormedSecret(std::string(65, 'a')));
  CHECK_FALSE(sd::IsWellFormedSecret(std::string(63, 'a') + "g"));
  CHECK_FALSE(sd::IsWellFormedSecret(std::string(63, 'a') + " "));
  CHECK_FALSE(sd::IsWellFormedSecret("' OR 1=1 --"));
  // Upper-case links still find the stored hash once normalised.
  CHECK(sd::SecretHash(sd::NormalizeSecret(std::string(64, 'F'))) == sd::SecretHash(std::string(64, 'f')));
}

TEST_CASE("secrets: lifetimes") {
  CHECK(sd::kApprovalTokenLifetimeMs == 7LL * 24 * 3600 * 1000);
  CHECK(sd::kPasswordResetTokenLifetimeMs < sd::kEmailVerificationTokenLifetimeMs);
}

TEST_CASE("secrets: MaskEmail keeps the domain and hides the local part") {
  struct Case {
    std::string in, out;
  };
  const std::vector<Case> cases = {
      {"alice@example.com", "a***e@example.com"},
      {"al@example.com", "a***@example.com"},
      {"abc@example.com", "a***c@example.com"},
      {"a@example.com", "***@example.com"},
      {"@example.com", "***@example.com"},
      {"first.last+tag@sub.example.org", "f***g@sub.example.org"},
      {"\xc3\xa9lodie@example.fr", "\xc3\xa9***e@example.fr"},    // first code point kept whole
      {"zo\xc3\xab@example.fr", "z***\xc3\xab@example.fr"},       // last code point kept whole
      {"\xc3\xa9\xc3\xa9@example.fr", "\xc3\xa9***@example.fr"},  // two code points, four bytes
      {"not-an-email", "***"},
      {"", "***"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.in);
    CHECK(sd::MaskEmail(c.in) == c.out);
  }
}
