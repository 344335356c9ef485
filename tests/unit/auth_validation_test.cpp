// Account input validation: emails, names, slugs.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/accounts/domain/validation.h"

namespace sd = service::domain::accounts;

TEST_CASE("validation: emails are trimmed and lower-cased") {
  CHECK(sd::NormalizeEmail("  Alice@Example.COM \t") == "alice@example.com");
  auto ok = sd::ValidateEmail(" Bob.Smith+tag@Example.org\n");
  REQUIRE(ok.ok());
  CHECK(*ok == "bob.smith+tag@example.org");
  for (const char* bad : {"", "   ", "alice", "alice@", "@example.com", "alice@example", "a b@example.com",
                          "a@@example.com", "alice@.example.com", "alice@example..com"}) {
    CAPTURE(bad);
    auto r = sd::ValidateEmail(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == service::Code::kInvalidArgument);
  }
}

TEST_CASE("validation: names are 1 to 200 code points after trimming") {
  CHECK(*sd::ValidateName("  Ada Lovelace  ") == "Ada Lovelace");
  CHECK(sd::ValidateName(std::string(200, 'x')).ok());
  CHECK_FALSE(sd::ValidateName(std::string(201, 'x')).ok());
  // 200 two-byte characters are 400 bytes but 200 characters.
  std::string accents;
  for (int i = 0; i < 200; ++i) accents += "\xc3\xa9";
  CHECK(sd::ValidateName(accents).ok());
  CHECK_FALSE(sd::ValidateName(accents + "\xc3\xa9").ok());
  CHECK_FALSE(sd::ValidateName("").ok());
  CHECK_FALSE(sd::ValidateName(" \t\n ").ok());
  CHECK_FALSE(sd::ValidateName("bad\xff").ok());
  CHECK_FALSE(sd::ValidateName("line\nbreak").ok());
  CHECK(sd::ValidateName("").status().message() == "name is required");
  auto org = sd::ValidateOrgName("");
  REQUIRE_FALSE(org.ok());
  CHECK(org.status().message() == "orgName is required");
  CHECK(*sd::ValidateOrgName(" Acme, Inc. ") == "Acme, Inc.");
}

TEST_CASE("validation: optional text") {
  CHECK(*sd::ValidateOptionalText("", "useCase", sd::kMaxUseCaseChars) == "");
  CHECK(sd::ValidateOptionalText(std::string(2000, 'u'), "useCase", sd::kMaxUseCaseChars).ok());
  CHECK_FALSE(sd::ValidateOptionalText(std::string(2001, 'u'), "useCase", sd::kMaxUseCaseChars).ok());
  CHECK_FALSE(sd::ValidateOptionalText("\xc0", "useCase", sd::kMaxUseCaseChars).ok());
}

TEST_CASE("validation: slugs") {
  struct Case {
    std::string name, slug;
  };
  const std::vector<Case> cases = {
      {"Acme", "acme"},
      {"Acme Corp!", "acme-corp"},
      {"  Acme   Corp  ", "acme-corp"},
      {"ACME--corp__2024", "acme-corp-2024"},
      {"---", "org"},
      {"", "org"},
      {"!!!", "org"},
      {"\xe6\x97\xa5\xe6\x9c\xac", "org"},  // non-Latin only
      {"\xc3\x9cn\xc3\xaf"
       "code Ltd",
       "n-code-ltd"},
      {"a", "a"},
      {"9lives", "9lives"},
      {std::string(60, 'a'), std::string(48, 'a')},
      {std::string(47, 'a') + " b", std::string(47, 'a')},  // no trailing dash after the cut
      {std::string(46, 'a') + " bcd", std::string(46, 'a') + "-b"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string s = sd::Slugify(c.name, "org");
    CHECK(s == c.slug);
    CHECK(s.size() <= sd::kMaxSlugChars);
    CHECK_FALSE(s.empty());
  }
  CHECK(sd::Slugify("", "project") == "project");
}

TEST_CASE("validation: slug candidates stay within 48 characters") {
  CHECK(sd::SlugCandidate("acme", 1) == "acme");
  CHECK(sd::SlugCandidate("acme", 2) == "acme-2");
  CHECK(sd::SlugCandidate("acme", 137) == "acme-137");
  const std::string long_slug(48, 'a');
  CHECK(sd::SlugCandidate(long_slug, 2) == std::string(46, 'a') + "-2");
  CHECK(sd::SlugCandidate(long_slug, 100) == std::string(44, 'a') + "-100");
  // The cut never leaves a double dash.
  const std::string dashed = std::string(45, 'a') + "-bc";
  CHECK(sd::SlugCandidate(dashed, 2) == std::string(45, 'a') + "-2");
}
