// domain::agent_tokens, table-driven: scope names, the token's shape and
// prefix, expiry rules (future, within 365 days), grant expiries and their
// cap, and who may manage whose token.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "areas/agent_tokens/domain/agent_token.h"
#include "util/crypto.h"

namespace {

using service::Code;
namespace dat = service::domain::agent_tokens;

TEST_CASE("agent token scopes: the nine of Spec 2 plus read_bugs, exact names") {
  for (const char* s :
       {"claim_issue", "request_evidence", "submit_verification", "read_verification", "create_bug",
        "get_repro_context", "publish_symbols", "suggest_fix", "subscribe", "read_bugs"}) {
    CHECK_MESSAGE(dat::IsKnownScope(s), s);
  }
  for (const char* s : {"", "READ_BUGS", "read_bugs ", "admin", "claim", "read-bugs"}) {
    CHECK_FALSE_MESSAGE(dat::IsKnownScope(s), s);
  }
  CHECK(dat::kScopes.size() == 10);
}

TEST_CASE("agent token shape: sv_pat_ plus 32 to 128 alphanumerics, prefix of 8, SHA-256 hash") {
  const std::string random(40, 'a');
  const std::string token = dat::FormatToken("Ab3" + random.substr(3));
  CHECK(token == "sv_pat_Ab3" + random.substr(3));
  CHECK(dat::ParseToken(token) == std::optional<std::string>("sv_pat_Ab3aaaaa"));
  CHECK(dat::HashToken(token) == service::util::Sha256Hex(token));
  struct Case {
    std::string token;
    bool ok;
  };
  const Case cases[] = {
      {"sv_pat_" + std::string(32, 'x'), true},
      {"sv_pat_" + std::string(128, '9'), true},
      {"sv_pat_" + std::string(31, 'x'), false},
      {"sv_pat_" + std::string(129, 'x'), false},
      {"sv_pat_" + std::string(39, 'x') + "-", false},
      {"sv_pat_" + std::string(39, 'x') + " ", false},
      {"sv_live_" + std::string(40, 'x'), false},
      {"SV_PAT_" + std::string(40, 'x'), false},
      {"", false},
      {"sv_pat_", false},
  };
  for (const Case& c : cases) {
    CHECK_MESSAGE(dat::ParseToken(c.token).has_value() == c.ok, c.token);
  }
}

TEST_CASE("agent token expiry: after now, at most 365 days ahead") {
  const int64_t now = 1'000'000;
  struct Case {
    int64_t expires_at;
    bool ok;
  };
  const Case cases[] = {
      {now + 1, true},
      {now + dat::kMaxLifetimeMs, true},
      {now + dat::kMaxLifetimeMs + 1, false},
      {now, false},
      {now - 1, false},
      {0, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.expires_at);
    const service::Status st = dat::CheckTokenExpiry(c.expires_at, now);
    CHECK(st.ok() == c.ok);
    if (!c.ok) CHECK(st.code() == Code::kInvalidArgument);
  }
}

TEST_CASE("agent token grants: their own expiry within the token's, capped when the token shortens") {
  const int64_t now = 1000;
  CHECK(dat::CheckGrantExpiry(2000, 2000, now).ok());
  CHECK(dat::CheckGrantExpiry(1001, 2000, now).ok());
  CHECK(dat::CheckGrantExpiry(2001, 2000, now).code() == Code::kInvalidArgument);
  CHECK(dat::CheckGrantExpiry(1000, 2000, now).code() == Code::kInvalidArgument);

  const std::vector<dat::Grant> grants = {{"a", std::nullopt}, {"b", 1500}, {"c", 3000}};
  const std::vector<dat::Grant> capped = dat::CapGrants(grants, 2000);
  REQUIRE(capped.size() == 3);
  CHECK_FALSE(capped[0].expires_at);  // follows the token
  CHECK(capped[1].expires_at == 1500);
  CHECK(capped[2].expires_at == 2000);
  CHECK(dat::EffectiveExpiry(grants[0], 2000) == 2000);
  CHECK(dat::EffectiveExpiry(grants[1], 2000) == 1500);
  CHECK(dat::EffectiveExpiry(grants[2], 2000) == 2000);
}

TEST_CASE("agent token management: admins any token, managers but an admin's, nobody else") {
  struct Case {
    const char* actor;
    std::optional<std::string> owner;
    bool may;
  };
  const Case cases[] = {
      {"admin", std::string("admin"), true},
      {"admin", std::string("manager"), true},
      {"admin", std::nullopt, true},
      {"manager", std::string("manager"), true},
      {"manager", std::string("member"), true},
      {"manager", std::nullopt, true},
      {"manager", std::string("admin"), false},
      {"member", std::string("member"), false},
      {"tester", std::string("manager"), false},
      {"viewer", std::string("viewer"), false},
      {"owner", std::string("manager"), false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.actor);
    CAPTURE(c.owner.value_or("(none)"));
    CHECK(dat::MayManage(c.actor, c.owner) == c.may);
  }
}

}  // namespace
