// Agent tokens (issue 29 items 1-2; Spec 2 "Agent token", "Agent tokens",
// "Authentication" 1-3, "Errors", "Limits"; server contract "Agent
// tokens"): creation and its body, the plan rule (402 MCP_PLAN_REQUIRED),
// who may manage them (admins, managers; a manager not an admin's token),
// edits with their revision, expiry and revocation rules, project grants
// (replace, revoke all, capped), authentication on every call (revoked,
// expired, creator removed or deactivated: 401), Spec 1 bug reads with
// read_bugs on granted projects only, the metered event read (2 credits,
// 402 credits_exhausted at zero, never for agent plans or humans), the
// human-only routes refusing tokens, lastUsedAt without a write per
// request, the tickets' X-Agent-Token, and deletion.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "areas/agent_tokens/module.h"
#include "areas/operations/module.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "util/crypto.h"
#include "util/time.h"

namespace {

namespace json = boost::json;
using namespace service;
using namespace service::testing;

constexpr int64_t kMinute = int64_t{60} * 1000;
constexpr int64_t kDay = int64_t{24} * 60 * kMinute;

std::string S(const json::value& v, std::string_view key) {
  const json::value& f = v.at(key);
  return f.is_string() ? std::string(f.as_string()) : json::serialize(f);
}

std::string Iso(int64_t ms) { return util::FormatIso8601(ms); }
std::string In(TestService& t, int64_t delta_ms) { return Iso(t.clock().NowMillis() + delta_ms); }

json::array Strings(std::initializer_list<const char*> items) {
  json::array a;
  for (const char* s : items) a.emplace_back(s);
  return a;
}

json::object Grant(const std::string& project_id, std::optional<std::string> expires_at = std::nullopt) {
  json::object g{{"projectId", project_id}};
  if (expires_at) g["expiresAt"] = *expires_at;
  return g;
}

json::object PatBody(TestService& t, json::array scopes, json::array grants = {},
                     int64_t expires_in = 30 * kDay) {
  return json::object{{"name", "ci agent"},
                      {"scopes", std::move(scopes)},
                      {"expiresAt", In(t, expires_in)},
                      {"projectGrants", std::move(grants)}};
}

TestResponse CreatePat(TestService& t, const Member& m, const json::object& body) {
  return t.Post("/v1/org/agent-pats", body, m.headers());
}

struct Pat {
  std::string id;
  std::string token;
  std::string revision;
};

Pat MustCreate(TestService& t, const Member& m, const json::object& body) {
  TestResponse r = CreatePat(t, m, body);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return Pat{S(r.json.at("agentPat"), "id"), S(r.json, "token"), S(r.json.at("agentPat"), "accessRevision")};
}

// A token with read_bugs on `project_id` made by `m`.
Pat Reader(TestService& t, const Member& m, const std::string& project_id) {
  return MustCreate(t, m, PatBody(t, Strings({"read_bugs", "claim_issue"}), json::array{Grant(project_id)}));
}

TestResponse Patch(TestService& t, const Member& m, const std::string& id, const json::object& body) {
  return t.Patch("/v1/org/agent-pats/" + id, body, m.headers());
}

json::value Listed(TestService& t, const Member& m, const std::string& id) {
  TestResponse r = t.Get("/v1/org/agent-pats", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  for (const json::value& p : r.json.at("agentPats").as_array()) {
    if (S(p, "id") == id) return p;
  }
  FAIL("token not listed: " << id);
  return nullptr;
}

std::string NewBug(TestService& t, const std::string& key, const std::string& title) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, key, Report(title, title + " failed"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

void SetPlan(TestService& t, const std::string& org_id, const std::string& plan) {
  ExecSql(t, "UPDATE organizations SET plan = ? WHERE id = ?", {plan, org_id});
}

// Adds `credits` prepaid credits to the organization (as a paid pack would).
void GrantCredits(TestService& t, const std::string& org_id, int64_t credits) {
  const auto& ops = internal::ModulesOf(t.service()).Get<modules::OperationsModule>().deps();
  static int n = 0;
  const std::string ref = "test-pack-" + std::to_string(++n);
  Status st = ops.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(ops.billing->Ensure(tx, org_id, t.clock().NowMillis()));
    ports::LedgerEntry e;
    e.id = ops.ids->NewId();
    e.org_id = org_id;
    e.kind = "pack_purchase";
    e.bucket = "prepaid";
    e.credits = credits;
    e.reference = ref;
    e.created_at = t.clock().NowMillis();
    SV_ASSIGN_OR_RETURN(bool added, ops.billing->Append(tx, e));
    if (!added) return Internal("not added");
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
}

int64_t Prepaid(TestService& t, const std::string& org_id) {
  return QueryInt(t, "SELECT prepaid_credits FROM billing_accounts WHERE org_id = ?", {org_id});
}

const modules::AgentTokensModule& Tokens(TestService& t) {
  return internal::ModulesOf(t.service()).Get<modules::AgentTokensModule>();
}

}  // namespace

TEST_CASE("agent tokens: creation answers the contract's shape, the secret is shown once and stored hashed") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const int64_t now = t.clock().NowMillis();
  const std::string grant_until = Iso(now + 10 * kDay);
  TestResponse r = CreatePat(t, s.admin,
                             json::object{{"name", "  Release bot  "},
                                          {"scopes", Strings({"read_bugs", "claim_issue", "read_bugs"})},
                                          {"expiresAt", Iso(now + 30 * kDay)},
                                          {"projectGrants", json::array{Grant(s.project_id, grant_until)}}});
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK(r.json.as_object().size() == 2);
  const std::string token = S(r.json, "token");
  CHECK(token.rfind("sv_pat_", 0) == 0);
  CHECK(token.size() == 7 + 40);
  const json::object& pat = r.json.at("agentPat").as_object();
  for (const char* field : {"id", "name", "prefix", "scopes", "expiresAt", "projectGrants", "accessRevision",
                            "createdAt", "revokedAt", "lastUsedAt"}) {
    CHECK_MESSAGE(pat.contains(field), field);
  }
  CHECK(S(pat, "name") == "Release bot");
  CHECK(S(pat, "prefix") == token.substr(0, 15));
  CHECK(pat.at("scopes") == json::value(Strings({"read_bugs", "claim_issue"})));
  CHECK(S(pat, "expiresAt") == Iso(now + 30 * kDay));
  CHECK(S(pat, "createdAt") == Iso(now));
  CHECK(pat.at("revokedAt").is_null());
  CHECK(pat.at("lastUsedAt").is_null());
  CHECK_FALSE(S(pat, "accessRevision").empty());
  REQUIRE(pat.at("projectGrants").as_array().size() == 1);
  CHECK(S(pat.at("projectGrants").at(0), "projectId") == s.project_id);
  CHECK(S(pat.at("projectGrants").at(0), "expiresAt") == grant_until);

  // Stored as a hash; the secret appears nowhere, not in the listing either.
  CHECK(QueryText(t, "SELECT token_hash FROM agent_tokens WHERE id = ?", {S(pat, "id")}) ==
        util::Sha256Hex(token));
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_tokens WHERE token_hash = ? OR prefix = ? OR name = ?",
                 {token, token, token}) == 0);
  TestResponse list = t.Get("/v1/org/agent-pats", s.admin.headers());
  REQUIRE(list.status == 200);
  CHECK(list.body.find(token) == std::string::npos);
  REQUIRE(list.json.at("agentPats").as_array().size() == 1);
  CHECK(list.json.at("agentPats").at(0) == r.json.at("agentPat"));

  // A grant without its own expiry shows the token's; two tokens differ.
  t.clock().Advance(1);
  Pat other = MustCreate(t, s.admin, PatBody(t, Strings({"subscribe"}), json::array{Grant(s.project_id)}));
  CHECK(other.token != token);
  CHECK(S(Listed(t, s.admin, other.id).at("projectGrants").at(0), "expiresAt") ==
        S(Listed(t, s.admin, other.id), "expiresAt"));
  // Newest first.
  CHECK(S(t.Get("/v1/org/agent-pats", s.admin.headers()).json.at("agentPats").at(0), "id") == other.id);
  // Without a name or grants.
  TestResponse bare =
      CreatePat(t, s.admin, json::object{{"scopes", Strings({"read_bugs"})}, {"expiresAt", In(t, kDay)}});
  REQUIRE_MESSAGE(bare.status == 201, bare.body);
  CHECK(S(bare.json.at("agentPat"), "name").empty());
  CHECK(bare.json.at("agentPat").at("projectGrants").as_array().empty());

  // The organization's usage counts its live tokens; a revoked one no longer.
  CHECK(t.Get("/v1/org/usage", s.admin.headers()).json.at("agentTokens").at("current").as_int64() == 3);
  REQUIRE(t.Delete("/v1/org/agent-pats/" + other.id, s.admin.headers()).status == 200);
  CHECK(t.Get("/v1/org/usage", s.admin.headers()).json.at("agentTokens").at("current").as_int64() == 2);
}

TEST_CASE("agent tokens: creation body validation") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Member stranger = NewOrgWithMember(t, "admin", "pro");
  const std::string foreign_project = CreateProjectVia(t, stranger, "Theirs");
  const json::object good = PatBody(t, Strings({"read_bugs"}), json::array{Grant(s.project_id)});
  REQUIRE(CreatePat(t, s.admin, good).status == 201);

  const auto with = [&](const char* field, const auto& v) {
    json::object b = good;
    b[field] = v;
    return b;
  };
  const auto without = [&](const char* field) {
    json::object b = good;
    b.erase(field);
    return b;
  };
  const std::vector<json::object> bad = {
      without("scopes"),
      without("expiresAt"),
      with("scopes", json::array{}),
      with("scopes", Strings({"read_bugs", "admin"})),
      with("scopes", "read_bugs"),
      with("scopes", json::array{json::value(1)}),
      with("expiresAt", "tomorrow"),
      with("expiresAt", 1893456000000),
      with("expiresAt", In(t, -kMinute)),
      with("expiresAt", In(t, 0)),
      with("expiresAt", In(t, 366 * kDay)),
      with("name", std::string(101, 'n')),
      with("name", 7),
      with("projectGrants", json::array{json::value("not an object")}),
      with("projectGrants", json::array{Grant("not-a-uuid")}),
      with("projectGrants", json::array{Grant(s.project_id), Grant(s.project_id)}),
      with("projectGrants", json::array{json::object{{"projectId", s.project_id}, {"role", "x"}}}),
      with("projectGrants", json::array{Grant(s.project_id, In(t, 31 * kDay))}),  // after the token
      with("projectGrants", json::array{Grant(s.project_id, In(t, -1))}),
      with("projectGrants", json::array{Grant(s.project_id, "soon")}),
      with("projectGrants", json::array{Grant(foreign_project)}),                         // another org's
      with("projectGrants", json::array{Grant("01900000-0000-7000-8000-00000000abcd")}),  // none
      with("unexpected", true),
  };
  for (const json::object& body : bad) {
    TestResponse r = CreatePat(t, s.admin, body);
    CHECK_MESSAGE(r.status == 400, json::serialize(body), " -> ", r.body);
  }
  CHECK(t.Request("POST", "/v1/org/agent-pats", "{not json", s.admin.headers()).status == 400);
  CHECK(t.Request("POST", "/v1/org/agent-pats", "[]", s.admin.headers()).status == 400);
  // Exactly 365 days is allowed; every known scope is.
  json::array all =
      Strings({"claim_issue", "request_evidence", "submit_verification", "read_verification", "create_bug",
               "get_repro_context", "publish_symbols", "suggest_fix", "subscribe", "read_bugs"});
  TestResponse full = CreatePat(t, s.admin, with("scopes", all));
  CHECK_MESSAGE(full.status == 201, full.body);
  CHECK(CreatePat(t, s.admin, with("expiresAt", In(t, 365 * kDay))).status == 201);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_tokens WHERE org_id = ?", {s.admin.org_id}) == 3);
}

TEST_CASE(
    "agent tokens: 402 MCP_PLAN_REQUIRED on free without credits, credits or an agent plan allow, plan cap") {
  TestService t([](Options& o) { o.plan_limits["pro"]["agent_tokens"] = 2; });
  Member free_admin = NewOrgWithMember(t, "admin", "free");
  const json::object body = PatBody(t, Strings({"read_bugs"}));
  TestResponse r = CreatePat(t, free_admin, body);
  CHECK(r.status == 402);
  CHECK(S(r.json, "code") == "MCP_PLAN_REQUIRED");
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_tokens") == 0);

  GrantCredits(t, free_admin.org_id, 2000);
  CHECK(CreatePat(t, free_admin, body).status == 201);
  CHECK(CreatePat(t, free_admin, body).status == 201);
  CHECK(CreatePat(t, free_admin, body).status == 201);  // credits: no count cap

  for (const char* plan : {"pro", "team", "enterprise"}) {
    Member m = NewOrgWithMember(t, "admin", plan);
    CHECK_MESSAGE(CreatePat(t, m, body).status == 201, plan);
  }
  // Pro capped at 2 live tokens here: a revoked or expired one frees a place.
  Member pro = NewOrgWithMember(t, "admin", "pro");
  Pat first = MustCreate(t, pro, body);
  MustCreate(t, pro, PatBody(t, Strings({"read_bugs"}), {}, kDay));
  TestResponse capped = CreatePat(t, pro, body);
  CHECK(capped.status == 402);
  CHECK(S(capped.json, "error") == "Plan limit reached");
  CHECK(S(capped.json, "limit") == "2");
  REQUIRE(t.Delete("/v1/org/agent-pats/" + first.id, pro.headers()).status == 200);
  CHECK(CreatePat(t, pro, body).status == 201);
  CHECK(CreatePat(t, pro, body).status == 402);
  t.clock().Advance(kDay);
  RenewToken(t, pro);
  CHECK(CreatePat(t, pro, PatBody(t, Strings({"read_bugs"}))).status == 201);
}

TEST_CASE("agent tokens: admins and managers manage them, a manager not an admin's, others 403") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Member manager = AddMemberWithRole(t, s.admin.org_id, "manager");
  const json::object body = PatBody(t, Strings({"read_bugs"}), json::array{Grant(s.project_id)});
  Pat admins = MustCreate(t, s.admin, body);
  Pat managers = MustCreate(t, manager, body);

  for (const char* role : {"member", "tester", "viewer"}) {
    CAPTURE(role);
    Member m = AddMemberWithRole(t, s.admin.org_id, role);
    CHECK(t.Get("/v1/org/agent-pats", m.headers()).status == 403);
    CHECK(CreatePat(t, m, body).status == 403);
    CHECK(Patch(t, m, managers.id, json::object{{"name", "x"}}).status == 403);
    CHECK(t.Delete("/v1/org/agent-pats/" + managers.id, m.headers()).status == 403);
  }
  // Both see every token of the organization.
  CHECK(t.Get("/v1/org/agent-pats", manager.headers()).json.at("agentPats").as_array().size() == 2);
  // A manager cannot edit or revoke the admin's token; the admin can the manager's.
  TestResponse denied = Patch(t, manager, admins.id, json::object{{"name", "mine now"}});
  CHECK(denied.status == 403);
  CHECK(t.Delete("/v1/org/agent-pats/" + admins.id, manager.headers()).status == 403);
  CHECK(S(Listed(t, s.admin, admins.id), "name") == "ci agent");
  CHECK(Patch(t, manager, managers.id, json::object{{"name", "renamed"}}).status == 200);
  CHECK(Patch(t, s.admin, managers.id, json::object{{"name", "by admin"}}).status == 200);
  // A token whose creator was promoted to admin is out of a manager's reach.
  Member promoted = AddMemberWithRole(t, s.admin.org_id, "manager");
  Pat promoted_pat = MustCreate(t, promoted, body);
  REQUIRE(
      t.Patch("/v1/team/" + promoted.user_id, json::object{{"role", "admin"}}, s.admin.headers()).status ==
      200);
  CHECK(Patch(t, manager, promoted_pat.id, json::object{{"name", "x"}}).status == 403);

  // Another organization's admin: 404; the token routes refuse agent tokens and capture keys.
  Member stranger = NewOrgWithMember(t, "admin", "pro");
  CHECK(Patch(t, stranger, admins.id, json::object{{"name", "x"}}).status == 404);
  CHECK(t.Delete("/v1/org/agent-pats/" + admins.id, stranger.headers()).status == 404);
  CHECK(t.Get("/v1/org/agent-pats", stranger.headers()).json.at("agentPats").as_array().empty());
  CHECK(Patch(t, s.admin, "not-an-id", json::object{{"name", "x"}}).status == 404);
  HeaderList agent = Bearer(admins.token);
  CHECK(t.Get("/v1/org/agent-pats", agent).status == 401);
  CHECK(t.Post("/v1/org/agent-pats", body, agent).status == 401);
  HeaderList agent_org = BearerOrg(admins.token, s.admin.org_id);
  CHECK(t.Patch("/v1/org/agent-pats/" + admins.id, json::object{{"name", "x"}}, agent_org).status == 401);
  CHECK(t.Delete("/v1/org/agent-pats/" + admins.id, agent_org).status == 401);
}

TEST_CASE("agent tokens: edits change the revision, stale 409 AGENT_ACCESS_CHANGED, expired, revoked") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Pat pat =
      MustCreate(t, s.admin, PatBody(t, Strings({"read_bugs"}), json::array{Grant(s.project_id)}, 10 * kDay));

  TestResponse r = Patch(
      t, s.admin, pat.id,
      json::object{{"scopes", Strings({"subscribe", "read_bugs"})}, {"expectedRevision", pat.revision}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  const std::string rev2 = S(r.json.at("agentPat"), "accessRevision");
  CHECK(rev2 != pat.revision);
  CHECK(r.json.at("agentPat").at("scopes") == json::value(Strings({"subscribe", "read_bugs"})));
  CHECK(r.json.at("agentPat") == Listed(t, s.admin, pat.id));

  // The old revision is stale now; nothing changes.
  TestResponse stale =
      Patch(t, s.admin, pat.id, json::object{{"name", "late"}, {"expectedRevision", pat.revision}});
  CHECK(stale.status == 409);
  CHECK(S(stale.json, "code") == "AGENT_ACCESS_CHANGED");
  CHECK(S(Listed(t, s.admin, pat.id), "name") == "ci agent");
  CHECK(S(Listed(t, s.admin, pat.id), "accessRevision") == rev2);
  // Omitted: no protection, still a new revision.
  TestResponse blind = Patch(t, s.admin, pat.id, json::object{{"name", "blind"}});
  REQUIRE(blind.status == 200);
  CHECK(S(blind.json.at("agentPat"), "accessRevision") != rev2);
  CHECK(S(blind.json.at("agentPat"), "name") == "blind");
  // Validation and an empty edit.
  CHECK(Patch(t, s.admin, pat.id, json::object{}).status == 400);
  CHECK(Patch(t, s.admin, pat.id, json::object{{"expectedRevision", rev2}}).status == 400);
  CHECK(Patch(t, s.admin, pat.id, json::object{{"scopes", json::array{}}}).status == 400);
  CHECK(Patch(t, s.admin, pat.id, json::object{{"scopes", Strings({"root"})}}).status == 400);
  CHECK(Patch(t, s.admin, pat.id, json::object{{"expiresAt", In(t, -1)}}).status == 400);
  CHECK(Patch(t, s.admin, pat.id, json::object{{"expiresAt", In(t, 400 * kDay)}}).status == 400);
  CHECK(Patch(t, s.admin, pat.id, json::object{{"revokedAt", nullptr}}).status == 400);
  // Extending within 365 days of now.
  TestResponse longer = Patch(t, s.admin, pat.id, json::object{{"expiresAt", In(t, 200 * kDay)}});
  REQUIRE_MESSAGE(longer.status == 200, longer.body);
  CHECK(S(longer.json.at("agentPat"), "expiresAt") == In(t, 200 * kDay));

  // Expired: 409 AGENT_PAT_EXPIRED, even when the edit would extend it.
  Pat short_lived = MustCreate(t, s.admin, PatBody(t, Strings({"read_bugs"}), {}, kMinute));
  t.clock().Advance(2 * kMinute);
  RenewToken(t, s.admin);
  TestResponse expired = Patch(t, s.admin, short_lived.id, json::object{{"expiresAt", In(t, kDay)}});
  CHECK(expired.status == 409);
  CHECK(S(expired.json, "code") == "AGENT_PAT_EXPIRED");

  // Revoked: DELETE answers it revoked; editing it is 409 AGENT_PAT_REVOKED.
  TestResponse del = t.Delete("/v1/org/agent-pats/" + pat.id, s.admin.headers());
  REQUIRE_MESSAGE(del.status == 200, del.body);
  CHECK(del.json.at("success") == true);
  CHECK(S(del.json.at("agentPat"), "revokedAt") == Iso(t.clock().NowMillis()));
  const std::string revoked_rev = S(del.json.at("agentPat"), "accessRevision");
  CHECK(revoked_rev != S(longer.json.at("agentPat"), "accessRevision"));
  TestResponse edit = Patch(t, s.admin, pat.id, json::object{{"name", "again"}});
  CHECK(edit.status == 409);
  CHECK(S(edit.json, "code") == "AGENT_PAT_REVOKED");
  // Revoking again changes nothing.
  t.clock().Advance(1000);
  TestResponse again = t.Delete("/v1/org/agent-pats/" + pat.id, s.admin.headers());
  CHECK(again.status == 200);
  CHECK(S(again.json.at("agentPat"), "revokedAt") == S(del.json.at("agentPat"), "revokedAt"));
  CHECK(S(again.json.at("agentPat"), "accessRevision") == revoked_rev);
  CHECK(t.Delete("/v1/org/agent-pats/01900000-0000-7000-8000-00000000abcd", s.admin.headers()).status == 404);
}

TEST_CASE("agent tokens: grants are replaced, [] revokes them all, capped by a shorter expiry, and expire") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string second = CreateProjectVia(t, s.admin, "Second");
  const std::string third = CreateProjectVia(t, s.admin, "Third");
  const int64_t now = t.clock().NowMillis();
  Pat pat =
      MustCreate(t, s.admin,
                 PatBody(t, Strings({"read_bugs"}),
                         json::array{Grant(s.project_id), Grant(second, Iso(now + 20 * kDay))}, 30 * kDay));
  const auto grants = [&] {
    std::vector<std::pair<std::string, std::string>> out;
    const json::value listed = Listed(t, s.admin, pat.id);
    for (const json::value& g : listed.at("projectGrants").as_array()) {
      out.emplace_back(S(g, "projectId"), S(g, "expiresAt"));
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto sorted = [](std::vector<std::pair<std::string, std::string>> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  CHECK(grants() == sorted({{s.project_id, Iso(now + 30 * kDay)}, {second, Iso(now + 20 * kDay)}}));

  // Omitted: kept; a shorter token expiry caps them.
  REQUIRE(Patch(t, s.admin, pat.id, json::object{{"expiresAt", Iso(now + 10 * kDay)}}).status == 200);
  CHECK(grants() == sorted({{s.project_id, Iso(now + 10 * kDay)}, {second, Iso(now + 10 * kDay)}}));
  // A grant may not outlive the token.
  CHECK(Patch(t, s.admin, pat.id,
              json::object{{"projectGrants", json::array{Grant(third, Iso(now + 11 * kDay))}}})
            .status == 400);
  // Supplied: replaces.
  TestResponse r = Patch(t, s.admin, pat.id,
                         json::object{{"projectGrants", json::array{Grant(third, Iso(now + 5 * kDay))}}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(grants() == sorted({{third, Iso(now + 5 * kDay)}}));
  // Another organization's project: 400, nothing changed.
  Member stranger = NewOrgWithMember(t, "admin", "pro");
  const std::string foreign = CreateProjectVia(t, stranger, "Theirs");
  CHECK(Patch(t, s.admin, pat.id, json::object{{"projectGrants", json::array{Grant(foreign)}}}).status ==
        400);
  CHECK(grants() == sorted({{third, Iso(now + 5 * kDay)}}));
  // The grant covers its project until it expires, then no longer.
  HeaderList agent = Bearer(pat.token);
  CHECK(t.Get("/v1/bugs?projectId=" + third, agent).status == 200);
  t.clock().Advance(5 * kDay);
  CHECK(t.Get("/v1/bugs?projectId=" + third, agent).status == 403);
  RenewToken(t, s.admin);
  // [] revokes them all.
  REQUIRE(
      Patch(t, s.admin, pat.id, json::object{{"projectGrants", json::array{Grant(s.project_id)}}}).status ==
      200);
  CHECK(t.Get("/v1/bugs?projectId=" + s.project_id, agent).status == 200);
  REQUIRE(Patch(t, s.admin, pat.id, json::object{{"projectGrants", json::array{}}}).status == 200);
  CHECK(grants().empty());
  TestResponse none = t.Get("/v1/bugs?projectId=" + s.project_id, agent);
  CHECK(none.status == 403);
  CHECK(S(none.json, "code") == "PROJECT_GRANT_REQUIRED");
}

TEST_CASE("agent tokens: every call rechecks the token and its creator, where a token is refused") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string bug = NewBug(t, s.key, "Checkout fails");
  Member manager = AddMemberWithRole(t, s.admin.org_id, "manager");
  Pat pat = Reader(t, manager, s.project_id);
  HeaderList agent = Bearer(pat.token);

  // No X-Service-Org needed; the same one is fine; another organization's is 403.
  TestResponse r = t.Get("/v1/bugs/" + bug, agent);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "id") == bug);
  CHECK(t.Get("/v1/bugs/" + bug, BearerOrg(pat.token, s.admin.org_id)).status == 200);
  Member stranger = NewOrgWithMember(t, "admin", "pro");
  CHECK(t.Get("/v1/bugs/" + bug, BearerOrg(pat.token, stranger.org_id)).status == 403);
  HeaderList support = agent;
  support.emplace_back("X-Service-Support-Session", "01900000-0000-7000-8000-00000000abcd");
  CHECK(t.Get("/v1/bugs/" + bug, support).status == 403);

  // Malformed or unknown tokens.
  for (const std::string& bad :
       {std::string("sv_pat_short"), pat.token + "x", std::string("sv_pat_") + std::string(40, 'A'),
        pat.token.substr(0, pat.token.size() - 1) + "!"}) {
    CHECK_MESSAGE(t.Get("/v1/bugs/" + bug, Bearer(bad)).status == 401, bad);
  }

  // Refused where the route is not open to agent tokens: JWT and JWT+Org
  // routes (401), superadmin routes (403); the human-only routes the
  // specifications name among them.
  CHECK(t.Get("/v1/auth/me", agent).status == 401);
  CHECK(t.Post("/v1/auth/switch-org", json::object{{"orgId", s.admin.org_id}}, agent).status == 401);
  CHECK(t.Get("/v1/billing/budget", BearerOrg(pat.token, s.admin.org_id)).status == 401);
  CHECK(t.Request("PUT", "/v1/billing/budget", R"({"monthlyBudgetCents":100})",
                  BearerOrg(pat.token, s.admin.org_id))
            .status == 401);
  CHECK(
      t.Post("/v1/alerts/preview",
             json::object{
                 {"projectId", s.project_id}, {"eventType", "new_bug"}, {"title", "x"}, {"severity", "high"}},
             BearerOrg(pat.token, s.admin.org_id))
          .status == 401);
  CHECK(t.Get("/v1/team", BearerOrg(pat.token, s.admin.org_id)).status == 401);
  CHECK(t.Patch("/v1/bugs/" + bug, json::object{{"status", "resolved"}}, BearerOrg(pat.token, s.admin.org_id))
            .status == 401);
  CHECK(t.Get("/v1/bugs/" + bug + "/history", agent).status == 401);
  CHECK(t.Get("/v1/bugs/stats", agent).status == 401);
  CHECK(t.Get("/v1/admin/overview", agent).status == 403);
  // Routes open to agent tokens whose handlers refuse them (Spec 2: 403).
  CHECK(t.Post("/v1/bugs/" + bug + "/notify-agent", json::object{}, agent).status == 403);
  CHECK(t.Request("PUT", "/v1/projects/" + s.project_id + "/agent-settings", R"({"autoNotify":true})", agent)
            .status == 403);

  // The creator deactivated: 401 until reactivated.
  ExecSql(t, "UPDATE users SET status = 'deactivated' WHERE id = ?", {manager.user_id});
  CHECK(t.Get("/v1/bugs/" + bug, agent).status == 401);
  ExecSql(t, "UPDATE users SET status = 'active' WHERE id = ?", {manager.user_id});
  CHECK(t.Get("/v1/bugs/" + bug, agent).status == 200);
  // The creator's role is read on each call: as a viewer the token still reads bugs.
  ExecSql(t, "UPDATE memberships SET role = 'viewer' WHERE user_id = ? AND org_id = ?",
          {manager.user_id, s.admin.org_id});
  CHECK(t.Get("/v1/bugs/" + bug, agent).status == 200);
  // The creator no longer a member: 401 (membership dropped without the hooks).
  DropMembershipOnly(t, s.admin.org_id, manager.user_id);
  CHECK(t.Get("/v1/bugs/" + bug, agent).status == 401);

  // Revoked: 401 at once; expired: 401.
  Pat second = Reader(t, s.admin, s.project_id);
  CHECK(t.Get("/v1/bugs/" + bug, Bearer(second.token)).status == 200);
  REQUIRE(t.Delete("/v1/org/agent-pats/" + second.id, s.admin.headers()).status == 200);
  TestResponse revoked = t.Get("/v1/bugs/" + bug, Bearer(second.token));
  CHECK(revoked.status == 401);
  CHECK(S(revoked.json, "code") == "AGENT_PAT_REVOKED");
  Pat third =
      MustCreate(t, s.admin, PatBody(t, Strings({"read_bugs"}), json::array{Grant(s.project_id)}, kMinute));
  CHECK(t.Get("/v1/bugs/" + bug, Bearer(third.token)).status == 200);
  t.clock().Advance(kMinute);
  TestResponse expired = t.Get("/v1/bugs/" + bug, Bearer(third.token));
  CHECK(expired.status == 401);
  CHECK(S(expired.json, "code") == "AGENT_PAT_EXPIRED");
}

TEST_CASE("agent tokens: a member removed takes their tokens, organization and project deletion cascade") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Member manager = AddMemberWithRole(t, s.admin.org_id, "manager");
  Pat pat = Reader(t, manager, s.project_id);
  Pat admins = Reader(t, s.admin, s.project_id);
  REQUIRE(t.Delete("/v1/team/" + manager.user_id, s.admin.headers()).status == 200);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_tokens WHERE id = ?", {pat.id}) == 0);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_token_grants WHERE token_id = ?", {pat.id}) == 0);
  CHECK(t.Get("/v1/bugs?projectId=" + s.project_id, Bearer(pat.token)).status == 401);
  CHECK(t.Get("/v1/bugs?projectId=" + s.project_id, Bearer(admins.token)).status == 200);

  ExecSql(t, "DELETE FROM projects WHERE id = ?", {s.project_id});
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_token_grants WHERE token_id = ?", {admins.id}) == 0);
  ExecSql(t, "DELETE FROM organizations WHERE id = ?", {s.admin.org_id});
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM agent_tokens WHERE org_id = ?", {s.admin.org_id}) == 0);
  CHECK(t.Get("/v1/bugs", Bearer(admins.token)).status == 401);
}

TEST_CASE("agent tokens: Spec 1 bug reads need read_bugs and keep to granted projects") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string other_project = CreateProjectVia(t, s.admin, "Other");
  const std::string other_key = CreateKeyVia(t, s.admin, other_project);
  const std::string bug = NewBug(t, s.key, "Granted bug");
  const std::string hidden = NewBug(t, other_key, "Hidden bug");
  Pat pat = Reader(t, s.admin, s.project_id);
  HeaderList agent = Bearer(pat.token);

  // The list: the only granted project when projectId is absent.
  TestResponse list = t.Get("/v1/bugs", agent);
  REQUIRE_MESSAGE(list.status == 200, list.body);
  REQUIRE(list.json.at("bugs").as_array().size() == 1);
  CHECK(S(list.json.at("bugs").at(0), "id") == bug);
  CHECK(t.Get("/v1/bugs?projectId=" + s.project_id, agent).json.at("bugs").as_array().size() == 1);
  TestResponse foreign = t.Get("/v1/bugs?projectId=" + other_project, agent);
  CHECK(foreign.status == 403);
  CHECK(S(foreign.json, "code") == "PROJECT_GRANT_REQUIRED");
  CHECK(t.Get("/v1/bugs/groups", agent).status == 200);
  CHECK(t.Get("/v1/bugs/groups?projectId=" + other_project, agent).status == 403);
  TestResponse search = t.Get("/v1/bugs/search?q=bug", agent);
  REQUIRE_MESSAGE(search.status == 200, search.body);
  for (const json::value& g : search.json.at("groups").as_array()) CHECK(S(g, "projectId") == s.project_id);
  CHECK(t.Get("/v1/bugs/search?q=bug&projectId=" + other_project, agent).status == 403);

  // One bug and its parts: granted 200, another project's 404.
  for (const std::string suffix : {"", "/occurrences", "/events", "/users"}) {
    CAPTURE(suffix);
    CHECK(t.Get("/v1/bugs/" + bug + suffix, agent).status == 200);
    TestResponse r = t.Get("/v1/bugs/" + hidden + suffix, agent);
    CHECK(r.status == 404);
    CHECK(S(r.json, "error") == "Bug not found");
    CHECK(t.Get("/v1/bugs/01900000-0000-7000-8000-00000000abcd" + suffix, agent).status == 404);
  }
  // Humans read both, as before.
  CHECK(t.Get("/v1/bugs/" + hidden, s.admin.headers()).status == 200);
  CHECK(t.Get("/v1/bugs", s.admin.headers()).json.at("bugs").as_array().size() == 2);

  // Two grants: projectId required on lists; none: 403.
  REQUIRE(Patch(t, s.admin, pat.id,
                json::object{{"projectGrants", json::array{Grant(s.project_id), Grant(other_project)}}})
              .status == 200);
  CHECK(t.Get("/v1/bugs", agent).status == 400);
  CHECK(t.Get("/v1/bugs?projectId=" + other_project, agent).status == 200);
  CHECK(t.Get("/v1/bugs/" + hidden, agent).status == 200);
  REQUIRE(Patch(t, s.admin, pat.id, json::object{{"projectGrants", json::array{}}}).status == 200);
  CHECK(t.Get("/v1/bugs", agent).status == 403);
  CHECK(t.Get("/v1/bugs/" + bug, agent).status == 404);

  // Without read_bugs: 403 SCOPE_REQUIRED everywhere, even on a granted project.
  Pat no_scope =
      MustCreate(t, s.admin, PatBody(t, Strings({"claim_issue"}), json::array{Grant(s.project_id)}));
  for (const std::string& path : {std::string("/v1/bugs"), std::string("/v1/bugs/search?q=bug"),
                                  "/v1/bugs/" + bug, "/v1/bugs/" + bug + "/events"}) {
    TestResponse r = t.Get(path, Bearer(no_scope.token));
    CHECK_MESSAGE(r.status == 403, path);
    CHECK(S(r.json, "code") == "SCOPE_REQUIRED");
  }
  CHECK(t.Get("/v1/bugs/" + bug + "/users", Bearer(no_scope.token)).status == 403);
  // A bug's end users (its repro context) also open to get_repro_context,
  // suggest_fix and subscribe (Spec 1), on a granted project only.
  for (const char* scope : {"get_repro_context", "suggest_fix", "subscribe"}) {
    CAPTURE(scope);
    Pat repro = MustCreate(t, s.admin, PatBody(t, Strings({scope}), json::array{Grant(s.project_id)}));
    CHECK(t.Get("/v1/bugs/" + bug + "/users", Bearer(repro.token)).status == 200);
    CHECK(t.Get("/v1/bugs/" + hidden + "/users", Bearer(repro.token)).status == 404);
    CHECK(t.Get("/v1/bugs/" + bug, Bearer(repro.token)).status == 403);
  }
}

TEST_CASE("agent tokens: GET /v1/auth/agent-context names the organization, the role and the scopes") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Pat pat = MustCreate(t, s.admin, PatBody(t, Strings({"read_bugs", "subscribe"}), json::array{}));
  TestResponse r = t.Get("/v1/auth/agent-context", Bearer(pat.token));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "orgId") == s.admin.org_id);
  CHECK_FALSE(S(r.json, "orgName").empty());
  CHECK(S(r.json, "role") == "admin");
  REQUIRE(r.json.at("scopes").as_array().size() == 2);
  CHECK(r.json.as_object().size() == 4);  // only these
  // The workspace header may name the token's organization, never another.
  CHECK(t.Get("/v1/auth/agent-context", BearerOrg(pat.token, s.admin.org_id)).status == 200);
  CHECK(
      t.Get("/v1/auth/agent-context", BearerOrg(pat.token, "01900000-0000-7000-8000-00000000abcd")).status ==
      403);
  // Humans and capture keys: not an agent token.
  CHECK(t.Get("/v1/auth/agent-context", s.admin.headers()).status == 401);
  CHECK(t.Get("/v1/auth/agent-context", {{"X-Service-Key", s.key}}).status == 401);
  REQUIRE(t.Delete("/v1/org/agent-pats/" + pat.id, s.admin.headers()).status == 200);
  CHECK(t.Get("/v1/auth/agent-context", Bearer(pat.token)).status == 401);
}

TEST_CASE(
    "agent tokens: the metered event read costs 2 credits above limit 1, 402 at zero, never for agent plans "
    "or humans") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "free");
  const std::string bug = NewBug(t, s.key, "Metered");
  GrantCredits(t, s.admin.org_id, 5);
  Pat pat = Reader(t, s.admin, s.project_id);
  HeaderList agent = Bearer(pat.token);

  CHECK(t.Get("/v1/bugs/" + bug + "/events?limit=1", agent).status == 200);
  CHECK(t.Get("/v1/bugs/" + bug, agent).status == 200);
  CHECK(t.Get("/v1/bugs/" + bug + "/occurrences", agent).status == 200);
  CHECK(Prepaid(t, s.admin.org_id) == 5);
  TestResponse r = t.Get("/v1/bugs/" + bug + "/events?limit=2", agent);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("events").as_array().size() == 1);
  CHECK(Prepaid(t, s.admin.org_id) == 3);
  CHECK(t.Get("/v1/bugs/" + bug + "/events", agent).status == 200);  // default limit 100
  CHECK(Prepaid(t, s.admin.org_id) == 1);
  TestResponse exhausted = t.Get("/v1/bugs/" + bug + "/events", agent);
  CHECK(exhausted.status == 402);
  CHECK(S(exhausted.json, "code") == "credits_exhausted");
  CHECK_FALSE(exhausted.json.as_object().contains("events"));
  CHECK(Prepaid(t, s.admin.org_id) == 1);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM credit_ledger WHERE org_id = ? AND kind = 'metered_read'",
                 {s.admin.org_id}) == 2);
  // A 404 is not charged; limit 1 still free; humans never.
  GrantCredits(t, s.admin.org_id, 1);
  CHECK(t.Get("/v1/bugs/01900000-0000-7000-8000-00000000abcd/events", agent).status == 404);
  CHECK(t.Get("/v1/bugs/" + bug + "/events?limit=1", agent).status == 200);
  CHECK(t.Get("/v1/bugs/" + bug + "/events", s.admin.headers()).status == 200);
  CHECK(Prepaid(t, s.admin.org_id) == 2);

  // Pro (and team, enterprise): never charged, even at zero credits.
  CaptureSetup pro = NewCaptureSetup(t, "pro");
  const std::string pro_bug = NewBug(t, pro.key, "Pro");
  Pat pro_pat = Reader(t, pro.admin, pro.project_id);
  for (const char* plan : {"pro", "team", "enterprise"}) {
    SetPlan(t, pro.admin.org_id, plan);
    CHECK_MESSAGE(t.Get("/v1/bugs/" + pro_bug + "/events", Bearer(pro_pat.token)).status == 200, plan);
  }
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM credit_ledger WHERE org_id = ? AND kind = 'metered_read'",
                 {pro.admin.org_id}) == 0);
}

TEST_CASE("agent tokens: lastUsedAt is noted in memory and written by the flush, not per request") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Pat pat = Reader(t, s.admin, s.project_id);
  HeaderList agent = Bearer(pat.token);
  const int64_t first = t.clock().NowMillis();
  for (int i = 0; i < 5; ++i) REQUIRE(t.Get("/v1/bugs", agent).status == 200);
  // No write yet; the listing shows the noted time.
  CHECK(QueryText(t, "SELECT last_used_at FROM agent_tokens WHERE id = ?", {pat.id}).empty());
  CHECK(S(Listed(t, s.admin, pat.id), "lastUsedAt") == Iso(first));
  REQUIRE(Tokens(t).FlushUses().ok());
  CHECK(QueryInt(t, "SELECT last_used_at FROM agent_tokens WHERE id = ?", {pat.id}) == first);
  // Within the minute: nothing new to write.
  t.clock().Advance(30 * 1000);
  REQUIRE(t.Get("/v1/bugs", agent).status == 200);
  REQUIRE(Tokens(t).FlushUses().ok());
  CHECK(QueryInt(t, "SELECT last_used_at FROM agent_tokens WHERE id = ?", {pat.id}) == first);
  // After it: the new time.
  t.clock().Advance(31 * 1000);
  RenewToken(t, s.admin);
  REQUIRE(t.Get("/v1/bugs", agent).status == 200);
  const int64_t later = t.clock().NowMillis();
  CHECK(QueryInt(t, "SELECT last_used_at FROM agent_tokens WHERE id = ?", {pat.id}) == first);
  REQUIRE(Tokens(t).FlushUses().ok());
  CHECK(QueryInt(t, "SELECT last_used_at FROM agent_tokens WHERE id = ?", {pat.id}) == later);
  CHECK(S(Listed(t, s.admin, pat.id), "lastUsedAt") == Iso(later));
}

TEST_CASE(
    "agent tokens: the tickets' X-Agent-Token accepts a valid token of that organization in development") {
  for (const bool production : {false, true}) {
    CAPTURE(production);
    TestService t([production](Options& o) { o.production = production; });
    CaptureSetup s = NewCaptureSetup(t, "pro");
    Member viewer = AddMemberWithRole(t, s.admin.org_id, "manager");
    Pat pat = Reader(t, s.admin, s.project_id);
    Pat viewers = Reader(t, viewer, s.project_id);
    ExecSql(t, "UPDATE memberships SET role = 'viewer' WHERE user_id = ?", {viewer.user_id});
    const HeaderList good{{"X-Agent-Token", pat.token}, {"X-Service-Org", s.admin.org_id}};
    const json::object ticket{{"title", "From the agent"}};
    if (production) {
      CHECK(t.Get("/v1/tickets", good).status == 401);
      continue;
    }
    CHECK(t.Get("/v1/tickets", good).status == 200);
    TestResponse created = t.Post("/v1/tickets", ticket, good);
    CHECK_MESSAGE(created.status == 201, created.body);
    // Another organization named, a revoked token, a viewer's token writing.
    Member stranger = NewOrgWithMember(t, "admin", "pro");
    CHECK(t.Get("/v1/tickets", {{"X-Agent-Token", pat.token}, {"X-Service-Org", stranger.org_id}}).status ==
          401);
    const HeaderList as_viewer{{"X-Agent-Token", viewers.token}, {"X-Service-Org", s.admin.org_id}};
    CHECK(t.Get("/v1/tickets", as_viewer).status == 200);
    CHECK(t.Post("/v1/tickets", ticket, as_viewer).status == 403);
    REQUIRE(t.Delete("/v1/org/agent-pats/" + pat.id, s.admin.headers()).status == 200);
    CHECK(t.Get("/v1/tickets", good).status == 401);
    // The bearer form is for the agent routes: tickets are not among them.
    CHECK(t.Get("/v1/tickets", Bearer(viewers.token)).status == 401);
  }
}
