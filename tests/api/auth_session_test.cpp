// Sessions (Spec 1 "Authentication"): login and its errors, refresh rotation,
// the per-request account check, JWT+Org membership, switch-org, /me, the
// retired capture-key session and the auth rate limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

#include "api/json.h"
#include "api/pipeline.h"
#include "areas/accounts/api/routes.h"
#include "areas/accounts/domain/token.h"
#include "areas/accounts/module.h"
#include "areas/accounts/ports/user_repository.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/api_harness.h"
#include "support/faulty_database.h"
#include "util/crypto.h"

namespace {

namespace json = boost::json;
using service::testing::Account;
using service::testing::Bearer;
using service::testing::BearerOrg;
using service::testing::kTestPassword;
using service::testing::NewAccountsService;
using service::testing::RegisterAccount;
using service::testing::Str;
using service::testing::TestService;

json::object Credentials(const std::string& email, const std::string& password = kTestPassword) {
  return {{"email", email}, {"password", password}};
}

// A write through the accounts area's user repository.
void WithUsers(TestService& t,
               const std::function<service::Status(service::ports::UserRepository&, service::ports::Tx&,
                                                   int64_t now)>& write) {
  auto& core = service::internal::PlatformOf(t.service());
  REQUIRE(core.tx
              ->Write([&](service::ports::Tx& tx) {
                return write(*core.Shared<service::ports::UserRepository>(), tx, core.Now());
              })
              .ok());
}

// Raw SQL, for account states no route or repository method writes (each use says which).
void Exec(TestService& t, const std::string& sql, const std::vector<service::store::Value>& params = {}) {
  REQUIRE(service::internal::PlatformOf(t.service())
              .db->Write([&](service::store::Connection& tx) { return tx.Exec(sql, params).status(); })
              .ok());
}

// A token signed like ours but with chosen header and payload JSON.
std::string CraftToken(const std::string& header, const std::string& payload, const std::string& secret) {
  using service::util::Base64UrlEncode;
  const std::string signing_input = Base64UrlEncode(header) + "." + Base64UrlEncode(payload);
  return signing_input + "." + Base64UrlEncode(service::util::HmacSha256(secret, signing_input));
}

TEST_CASE("login answers user, org and a working token pair") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "login@example.com", "Login Org");
  auto r = t->Post("/v1/auth/login", Credentials("  LOGIN@example.com"));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(Str(r.json.at("user").at("id")) == a.user_id);
  CHECK(r.json.at("user").at("email") == "login@example.com");
  CHECK(r.json.at("user").at("name") == "Test User");
  CHECK(Str(r.json.at("org").at("id")) == a.org_id);
  CHECK(r.json.at("org").at("name") == "Login Org");
  const std::string access(r.json.at("accessToken").as_string());
  CHECK(t->Get("/v1/auth/me", Bearer(access)).status == 200);
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", r.json.at("refreshToken")}}).status == 200);
}

TEST_CASE("login errors: 400, 401 Invalid credentials, 403 INVITE_PENDING, 403 EMAIL_UNVERIFIED") {
  auto t = NewAccountsService([](service::Options& o) { o.require_email_verification = true; });
  const Account a = RegisterAccount(*t, "unverified@example.com");

  auto bad = t->Post("/v1/auth/login", json::object{{"email", "nope"}});
  REQUIRE(bad.status == 400);
  CHECK(bad.json.at("error") == "Validation failed");
  std::set<std::string> fields;
  for (const auto& d : bad.json.at("details").as_array())
    fields.insert(std::string(d.at("field").as_string()));
  CHECK(fields == std::set<std::string>{"email", "password"});

  auto unknown = t->Post("/v1/auth/login", Credentials("ghost@example.com"));
  CHECK(unknown.status == 401);
  CHECK(unknown.json.at("error") == "Invalid credentials");
  // A wrong password says the same and does not reveal the unverified state.
  auto wrong = t->Post("/v1/auth/login", Credentials(a.email, "wrong password"));
  CHECK(wrong.status == 401);
  CHECK(wrong.body == unknown.body);

  auto unverified = t->Post("/v1/auth/login", Credentials(a.email));
  REQUIRE(unverified.status == 403);
  CHECK(unverified.json.at("code") == "EMAIL_UNVERIFIED");
  CHECK(unverified.json.at("maskedEmail") == "u***d@example.com");
  CHECK(unverified.json.at("error").is_string());

  // An invited user without a password.
  WithUsers(*t, [&](service::ports::UserRepository& users, service::ports::Tx& tx, int64_t now) {
    return users.MarkEmailVerified(tx, a.user_id, now);
  });
  auto invite =
      t->Post("/v1/team/invite", json::object{{"email", "invitee@example.com"}, {"orgId", a.org_id}},
              BearerOrg(a.access_token, a.org_id));
  REQUIRE_MESSAGE(invite.status == 201, invite.body);
  auto pending = t->Post("/v1/auth/login", Credentials("invitee@example.com", "anything at all"));
  REQUIRE(pending.status == 403);
  CHECK(pending.json.at("code") == "INVITE_PENDING");

  // Deactivated accounts cannot sign in, with the generic answer.
  // internal state: no route or repository method deactivates an account.
  Exec(*t, "UPDATE users SET status = 'deactivated' WHERE email = ?", {a.email});
  auto deactivated = t->Post("/v1/auth/login", Credentials(a.email));
  CHECK(deactivated.status == 401);
  CHECK(deactivated.json.at("error") == "Invalid credentials");
}

TEST_CASE("refresh rotates: the new pair works, the used refresh token is refused") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "rotate@example.com");
  auto first = t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}});
  REQUIRE_MESSAGE(first.status == 200, first.body);
  const std::string access2(first.json.at("accessToken").as_string());
  const std::string refresh2(first.json.at("refreshToken").as_string());
  CHECK(refresh2 != a.refresh_token);
  CHECK(t->Get("/v1/auth/me", Bearer(access2)).status == 200);

  auto reused = t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}});
  CHECK(reused.status == 401);
  auto second = t->Post("/v1/auth/refresh", json::object{{"refreshToken", refresh2}});
  CHECK(second.status == 200);

  CHECK(t->Post("/v1/auth/refresh", json::object{}).json.at("error") == "Refresh token required");
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", ""}}).status == 400);
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", 12}}).status == 400);
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", "garbage"}}).status == 401);
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", std::string(5000, 'a')}}).status == 401);
  // An access token is not a refresh token.
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.access_token}}).status == 401);
}

TEST_CASE("a refresh token cannot authenticate bearer routes, tampered, foreign and expired tokens get 401") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "bearer@example.com");
  auto& core = service::internal::PlatformOf(t->service());
  CHECK(t->Get("/v1/auth/me", Bearer(a.refresh_token)).status == 401);
  CHECK(t->Get("/v1/auth/me").status == 401);
  CHECK(t->Get("/v1/auth/me", {{"Authorization", "Basic abc"}}).status == 401);
  CHECK(t->Get("/v1/auth/me", {{"Authorization", "Bearer"}}).status == 401);
  CHECK(t->Get("/v1/auth/me", Bearer("sv_pat_0123456789")).status == 401);
  CHECK(t->Get("/v1/auth/me", {{"Authorization", "bearer " + a.access_token}}).status == 200);

  // Payload changed after signing.
  std::string tampered = a.access_token;
  const size_t dot = tampered.find('.');
  tampered[dot + 5] = tampered[dot + 5] == 'A' ? 'B' : 'A';
  CHECK(t->Get("/v1/auth/me", Bearer(tampered)).status == 401);

  const int64_t now_s = core.Now() / 1000;
  const std::string payload = "{\"sub\":\"" + a.user_id +
                              "\",\"typ\":\"access\",\"ver\":2,\"rev\":0,\"iat\":" + std::to_string(now_s) +
                              ",\"exp\":" + std::to_string(now_s + 3600) + "}";
  // Well signed with our secret: accepted (the crafting is right) ...
  CHECK(t->Get("/v1/auth/me",
               Bearer(CraftToken("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", payload, core.jwt_secret)))
            .status == 200);
  // ... but another algorithm, another secret or no signature is not.
  CHECK(t->Get("/v1/auth/me",
               Bearer(CraftToken("{\"alg\":\"HS512\",\"typ\":\"JWT\"}", payload, core.jwt_secret)))
            .status == 401);
  CHECK(t->Get("/v1/auth/me",
               Bearer(CraftToken("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", payload, "other secret")))
            .status == 401);
  const std::string none = service::util::Base64UrlEncode("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." +
                           service::util::Base64UrlEncode(payload) + ".";
  CHECK(t->Get("/v1/auth/me", Bearer(none)).status == 401);
  // A token without a revision counts as revision 0 (the account's current one).
  const std::string no_rev = "{\"sub\":\"" + a.user_id +
                             "\",\"typ\":\"access\",\"ver\":2,\"iat\":" + std::to_string(now_s) +
                             ",\"exp\":" + std::to_string(now_s + 3600) + "}";
  CHECK(t->Get("/v1/auth/me",
               Bearer(CraftToken("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", no_rev, core.jwt_secret)))
            .status == 200);

  // Access tokens live one hour.
  t->clock().Advance(3600 * 1000 - 1000);
  CHECK(t->Get("/v1/auth/me", Bearer(a.access_token)).status == 200);
  t->clock().Advance(1000);
  CHECK(t->Get("/v1/auth/me", Bearer(a.access_token)).status == 401);
  // Refresh tokens 30 days.
  auto refreshed = t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}});
  REQUIRE(refreshed.status == 200);
  t->clock().Advance(int64_t{30} * 24 * 3600 * 1000);
  CHECK(
      t->Post("/v1/auth/refresh", json::object{{"refreshToken", refreshed.json.at("refreshToken")}}).status ==
      401);
}

TEST_CASE("every request re-checks the account: status and session revision") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "recheck@example.com");
  REQUIRE(t->Get("/v1/auth/me", Bearer(a.access_token)).status == 200);
  // A profile edit keeps sessions.
  // internal state: no route or repository method edits a profile.
  Exec(*t, "UPDATE users SET name = 'Renamed' WHERE id = ?", {a.user_id});
  auto me = t->Get("/v1/auth/me", Bearer(a.access_token));
  REQUIRE(me.status == 200);
  CHECK(me.json.at("name") == "Renamed");
  // Deactivation refuses the existing tokens at once.
  // internal state: as above, for the status.
  Exec(*t, "UPDATE users SET status = 'deactivated' WHERE id = ?", {a.user_id});
  CHECK(t->Get("/v1/auth/me", Bearer(a.access_token)).status == 401);
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}}).status == 401);
  // Reactivation with an advanced revision still needs a new login.
  // internal state: as above, with the session revision.
  Exec(*t, "UPDATE users SET status = 'active', session_revision = session_revision + 1 WHERE id = ?",
       {a.user_id});
  CHECK(t->Get("/v1/auth/me", Bearer(a.access_token)).status == 401);
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}}).status == 401);
  auto login = t->Post("/v1/auth/login", Credentials(a.email));
  REQUIRE(login.status == 200);
  CHECK(t->Get("/v1/auth/me", Bearer(std::string(login.json.at("accessToken").as_string()))).status == 200);
  // A deleted account: 401.
  WithUsers(*t, [&](service::ports::UserRepository& users, service::ports::Tx& tx, int64_t) {
    return users.Delete(tx, a.user_id);
  });
  CHECK(t->Get("/v1/auth/me", Bearer(std::string(login.json.at("accessToken").as_string()))).status == 401);
}

TEST_CASE("an unavailable account lookup answers 503 AUTH_UNAVAILABLE, a rejected session 401") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "outage@example.com");
  auto& core = service::internal::PlatformOf(t->service());
  auto faulty = std::make_unique<service::testing::FaultyDatabase>(std::move(core.db));
  auto* handle = faulty.get();
  core.db = std::move(faulty);
  core.tx->Rebind(*core.db);

  handle->SetUnreachable(true);
  auto me = t->Get("/v1/auth/me", Bearer(a.access_token));
  CHECK(me.status == 503);
  CHECK(me.json.at("code") == "AUTH_UNAVAILABLE");
  auto team = t->Get("/v1/team", BearerOrg(a.access_token, a.org_id));
  CHECK(team.status == 503);
  CHECK(team.json.at("code") == "AUTH_UNAVAILABLE");
  auto refresh = t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}});
  CHECK(refresh.status == 503);
  CHECK(refresh.json.at("code") == "AUTH_UNAVAILABLE");
  // A token that is bad on its face is still 401 (no lookup needed).
  CHECK(t->Get("/v1/auth/me", Bearer("garbage")).status == 401);
  handle->SetUnreachable(false);
  // The refresh token was not spent by the failed attempt.
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}}).status == 200);
}

TEST_CASE("JWT+Org routes: 400 without X-Service-Org, 403 for non-members") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "org-a@example.com", "A");
  const Account b = RegisterAccount(*t, "org-b@example.com", "B");
  auto missing = t->Get("/v1/team", Bearer(a.access_token));
  CHECK(missing.status == 400);
  CHECK(missing.json.at("error") == "Organization ID required");
  CHECK(t->Get("/v1/team", BearerOrg(a.access_token, b.org_id)).status == 403);
  CHECK(t->Get("/v1/team", BearerOrg(a.access_token, "not-a-uuid")).status == 403);
  CHECK(t->Get("/v1/team", BearerOrg(a.access_token, "01890000-0000-7000-8000-000000000000")).status == 403);
  // The token is checked before the header.
  CHECK(t->Get("/v1/team", {{"X-Service-Org", a.org_id}}).status == 401);
  auto ok = t->Get("/v1/team", BearerOrg(a.access_token, a.org_id));
  CHECK(ok.status == 200);
  // Upper-case ids name the same organization.
  std::string upper = a.org_id;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  CHECK(t->Get("/v1/team", BearerOrg(a.access_token, upper)).status == 200);
}

TEST_CASE("GET /v1/auth/me lists organizations and the superadmin flag") {
  auto t = NewAccountsService([](service::Options& o) { o.superadmin_emails = {"boss@example.com"}; });
  const Account boss = RegisterAccount(*t, "boss@example.com", "Boss Org");
  const Account pleb = RegisterAccount(*t, "pleb@example.com", "Pleb Org");
  // Allowlisted but unverified: nobody's superadmin (server contract).
  CHECK(t->Get("/v1/auth/me", Bearer(boss.access_token)).json.at("isSuperAdmin") == false);
  WithUsers(*t, [&](service::ports::UserRepository& users, service::ports::Tx& tx, int64_t now) {
    return users.MarkEmailVerified(tx, boss.user_id, now);
  });
  auto me = t->Get("/v1/auth/me", Bearer(boss.access_token));
  REQUIRE(me.status == 200);
  for (const char* f : {"id", "email", "name", "avatar_url", "email_verified", "orgs", "isSuperAdmin"}) {
    CHECK_MESSAGE(me.json.as_object().contains(f), f);
  }
  CHECK(me.json.at("isSuperAdmin") == true);
  CHECK(me.json.at("avatar_url").is_null());
  CHECK(Str(me.json.at("orgs").at(0).at("orgId")) == boss.org_id);
  CHECK(me.json.at("orgs").at(0).at("orgName") == "Boss Org");
  CHECK(me.json.at("orgs").at(0).at("role") == "admin");
  CHECK(t->Get("/v1/auth/me", Bearer(pleb.access_token)).json.at("isSuperAdmin") == false);
  auto none = t->Get("/v1/auth/me");
  CHECK(none.status == 401);
  CHECK(none.json.at("error").is_string());
}

TEST_CASE("switch-org re-issues tokens for another organization of the user, login reopens it") {
  auto t = NewAccountsService();
  const Account alice = RegisterAccount(*t, "alice@example.com", "Alice Org");
  const Account bob = RegisterAccount(*t, "bob@example.com", "Bob Org");
  const Account carol = RegisterAccount(*t, "carol@example.com", "Carol Org");
  // Bob has an account: the invitation adds him at once.
  auto inv = t->Post("/v1/team/invite", json::object{{"email", "bob@example.com"}, {"orgId", alice.org_id}},
                     BearerOrg(alice.access_token, alice.org_id));
  REQUIRE(inv.status == 201);
  CHECK(inv.json.at("invitation").at("state") == "active");

  auto sw = t->Post("/v1/auth/switch-org", json::object{{"orgId", alice.org_id}}, Bearer(bob.access_token));
  REQUIRE_MESSAGE(sw.status == 200, sw.body);
  CHECK(Str(sw.json.at("org").at("id")) == alice.org_id);
  CHECK(sw.json.at("org").at("name") == "Alice Org");
  CHECK(sw.json.at("role") == "member");
  const std::string access(sw.json.at("accessToken").as_string());
  CHECK(t->Get("/v1/team", BearerOrg(access, alice.org_id)).status == 200);
  CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", sw.json.at("refreshToken")}}).status ==
        200);

  auto login = t->Post("/v1/auth/login", Credentials("bob@example.com"));
  REQUIRE(login.status == 200);
  CHECK(Str(login.json.at("org").at("id")) == alice.org_id);

  CHECK(t->Post("/v1/auth/switch-org", json::object{{"orgId", carol.org_id}}, Bearer(bob.access_token))
            .status == 403);
  auto bad = t->Post("/v1/auth/switch-org", json::object{{"orgId", "x"}}, Bearer(bob.access_token));
  CHECK(bad.status == 400);
  CHECK(t->Post("/v1/auth/switch-org", json::object{{"orgId", alice.org_id}}).status == 401);
  CHECK(t->Post("/v1/auth/switch-org", json::object{{"orgId", alice.org_id}}, Bearer("sv_pat_abc")).status ==
        401);
}

TEST_CASE("api-key-session is retired: always 410 CAPTURE_KEY_SESSION_RETIRED") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "key@example.com");
  for (const std::string& body :
       {std::string(), std::string("{\"apiKey\":\"") + a.api_key + "\"}", std::string("not json")}) {
    auto r = t->Request("POST", "/v1/auth/api-key-session", body);
    CHECK(r.status == 410);
    CHECK(r.json.at("code") == "CAPTURE_KEY_SESSION_RETIRED");
  }
}

TEST_CASE("auth routes share a limit of 10 requests per 60 s per client address") {
  auto t = NewAccountsService([](service::Options& o) { o.rate_limits.enabled = true; });
  for (int i = 0; i < 10; ++i) {
    auto r = t->Request("POST", "/v1/auth/login", "{}", {}, "10.0.0.1");
    CHECK(r.status == 400);
  }
  auto limited = t->Request("POST", "/v1/auth/forgot-password", "{}", {}, "10.0.0.1");
  CHECK(limited.status == 429);
  CHECK(limited.json.at("retryAfter").as_int64() > 0);
  CHECK(limited.json.at("error").is_string());
  CHECK(t->Request("GET", "/v1/auth/me", "", {}, "10.0.0.1").status == 429);
  // Another address is not affected, and the window ends.
  CHECK(t->Request("POST", "/v1/auth/login", "{}", {}, "10.0.0.2").status == 400);
  t->clock().Advance(60'000);
  CHECK(t->Request("POST", "/v1/auth/login", "{}", {}, "10.0.0.1").status == 400);
}

// Routes registered only for this test: the authenticator's superadmin mode,
// agent-token mode and per-route capabilities, for routes other areas add.
TEST_CASE("bearer modes: superadmin allowlist, agent tokens refused, route capabilities per role") {
  auto t = NewAccountsService([](service::Options& o) { o.superadmin_emails = {"root@example.com"}; });
  const Account root = RegisterAccount(*t, "root@example.com", "Root Org");
  const Account admin = RegisterAccount(*t, "plain@example.com", "Plain Org");
  WithUsers(*t, [&](service::ports::UserRepository& users, service::ports::Tx& tx, int64_t now) {
    return users.MarkEmailVerified(tx, root.user_id, now);
  });
  service::api::Pipeline p(service::testing::PipelineDepsOf(t->service()));
  service::api::RegisterBearerAuthenticator(
      p, service::internal::ModulesOf(t->service()).Get<service::modules::AccountsModule>().deps());
  using service::api::AuthMode;
  using service::api::RateClass;
  auto ok = [](service::api::Context& ctx) {
    return service::api::JsonResponse(200, json::object{{"user", ctx.principal.user_id},
                                                        {"org", ctx.principal.org_id},
                                                        {"role", ctx.principal.role}});
  };
  p.router().Add("GET", "/t/admin", RateClass::kGeneral, AuthMode::kSuperadmin, ok);
  p.router().Add("GET", "/t/agent", RateClass::kGeneral, AuthMode::kAgentToken, ok);
  p.router().Add("GET", "/t/billing", RateClass::kGeneral, AuthMode::kJwtOrg,
                 service::domain::Capability::kManageBilling, ok);
  p.router().Add("GET", "/t/bugs", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent, ok);
  auto call = [&](const std::string& path, const service::testing::HeaderList& headers) {
    service::api::Request req;
    req.method = "GET";
    req.path = path;
    for (const auto& [k, v] : headers) req.headers.Add(k, v);
    auto res = p.Handle(req);
    boost::system::error_code ec;
    auto body = json::parse(res.body, ec);
    return std::make_pair(res.status, ec ? json::value() : body);
  };

  CHECK(call("/t/admin", Bearer(root.access_token)).first == 200);
  CHECK(call("/t/admin", Bearer(admin.access_token)).first == 403);
  CHECK(call("/t/admin", {}).first == 401);
  CHECK(call("/t/agent", Bearer(root.access_token)).first == 401);
  CHECK(call("/t/agent", Bearer("sv_pat_abcdef")).first == 401);

  auto billing = call("/t/billing", BearerOrg(admin.access_token, admin.org_id));
  REQUIRE(billing.first == 200);
  CHECK(Str(billing.second.at("org")) == admin.org_id);
  CHECK(billing.second.at("role") == "admin");
  // Billing is admin-only: a manager of the same organization is refused.
  auto inv = t->Post("/v1/team/invite",
                     json::object{{"email", root.email}, {"role", "manager"}, {"orgId", admin.org_id}},
                     BearerOrg(admin.access_token, admin.org_id));
  REQUIRE(inv.status == 201);
  auto manager = call("/t/billing", BearerOrg(root.access_token, admin.org_id));
  CHECK(manager.first == 403);
  CHECK(manager.second.at("error") == "Insufficient permissions");
  // JWT+Org-or-agent routes treat console sessions like JWT+Org.
  CHECK(call("/t/bugs", BearerOrg(root.access_token, admin.org_id)).first == 200);
  CHECK(call("/t/bugs", BearerOrg(admin.access_token, root.org_id)).first == 403);
  CHECK(call("/t/bugs", Bearer(admin.access_token)).first == 400);
  CHECK(call("/t/bugs", Bearer("sv_pat_abcdef")).first == 401);
}

}  // namespace
