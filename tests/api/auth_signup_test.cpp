// Signup (Spec 1 "Auth"): register, the waitlist, approval links and
// complete-signup.
#include <doctest/doctest.h>

#include <optional>
#include <set>

#include "areas/accounts/domain/password.h"
#include "areas/accounts/domain/secrets.h"
#include "areas/accounts/module.h"
#include "areas/projects/domain/capture_key.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/api_harness.h"
#include "util/time.h"

namespace {

namespace json = boost::json;
using service::testing::Bearer;
using service::testing::BearerOrg;
using service::testing::kTestPassword;
using service::testing::NewAccountsService;
using service::testing::RegisterAccount;
using service::testing::TestService;

int64_t CountRows(TestService& t, const std::string& sql,
                  const std::vector<service::store::Value>& params = {}) {
  int64_t n = -1;
  auto& core = service::internal::PlatformOf(t.service());
  REQUIRE(core.db
              ->Read([&](service::store::Connection& c) -> service::Status {
                SV_ASSIGN_OR_RETURN(service::store::Rows r, c.Query(sql, params));
                n = r.Int(0, 0);
                return service::Status::Ok();
              })
              .ok());
  return n;
}

std::set<std::string> DetailFields(const json::value& body) {
  std::set<std::string> out;
  for (const auto& d : body.at("details").as_array()) out.insert(std::string(d.at("field").as_string()));
  return out;
}

// Sets the waitlist entry of `email` to `status` (no token) through the
// accounts area's waitlist repository.
void SetWaitlistStatus(TestService& t, const std::string& email, const std::string& status) {
  auto& core = service::internal::PlatformOf(t.service());
  const auto& accounts =
      service::internal::ModulesOf(t.service()).Get<service::modules::AccountsModule>().deps();
  REQUIRE(core.tx
              ->Write([&](service::ports::Tx& tx) -> service::Status {
                SV_ASSIGN_OR_RETURN(auto entry, accounts.waitlist->FindByEmail(tx, email));
                if (!entry) return service::NotFound("no entry");
                return accounts.waitlist->SetStatus(tx, entry->id, status, std::nullopt, std::nullopt,
                                                    core.Now());
              })
              .ok());
}

// The waitlist entry of `email`, read through the waitlist repository.
std::optional<service::ports::WaitlistEntry> WaitlistEntryOf(TestService& t, const std::string& email) {
  auto& core = service::internal::PlatformOf(t.service());
  const auto& accounts =
      service::internal::ModulesOf(t.service()).Get<service::modules::AccountsModule>().deps();
  std::optional<service::ports::WaitlistEntry> out;
  REQUIRE(core.tx
              ->Read([&](service::ports::Tx& c) -> service::Status {
                SV_ASSIGN_OR_RETURN(out, accounts.waitlist->FindByEmail(c, email));
                return service::Status::Ok();
              })
              .ok());
  return out;
}

// The status of the waitlist entry of `email` ("" when there is none), read
// through the waitlist repository.
std::string WaitlistStatus(TestService& t, const std::string& email) {
  auto& core = service::internal::PlatformOf(t.service());
  const auto& accounts =
      service::internal::ModulesOf(t.service()).Get<service::modules::AccountsModule>().deps();
  std::string status;
  REQUIRE(core.tx
              ->Read([&](service::ports::Tx& c) -> service::Status {
                SV_ASSIGN_OR_RETURN(auto entry, accounts.waitlist->FindByEmail(c, email));
                if (entry) status = entry->status;
                return service::Status::Ok();
              })
              .ok());
  return status;
}

// Approves a waitlist entry the way the superadmin flow will: a fresh
// approval token stored as its hash. Returns the token.
std::string Approve(TestService& t, const std::string& email,
                    int64_t lifetime_ms = service::domain::accounts::kApprovalTokenLifetimeMs) {
  auto& core = service::internal::PlatformOf(t.service());
  const auto& accounts =
      service::internal::ModulesOf(t.service()).Get<service::modules::AccountsModule>().deps();
  const auto secret = service::domain::accounts::NewApprovalToken(*core.ids);
  REQUIRE(core.db
              ->Write([&](service::store::Connection& tx) -> service::Status {
                SV_ASSIGN_OR_RETURN(auto entry, accounts.waitlist->FindByEmail(tx, email));
                if (!entry) return service::NotFound("no entry");
                return accounts.waitlist->SetStatus(tx, entry->id, "approved", secret.hash,
                                                    core.Now() + lifetime_ms, core.Now());
              })
              .ok());
  return secret.token;
}

TEST_CASE("register creates user, organization, default project and first key in one go") {
  auto t = NewAccountsService();
  auto r = t->Post("/v1/auth/register", json::object{{"email", "  Alice@Example.COM "},
                                                     {"password", kTestPassword},
                                                     {"name", "Alice"},
                                                     {"orgName", "Acme Corp!"}});
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const auto& b = r.json.as_object();
  CHECK(b.at("user").at("email") == "alice@example.com");
  CHECK(b.at("user").at("name") == "Alice");
  CHECK(b.at("user").at("email_verified") == false);
  CHECK(b.at("org").at("name") == "Acme Corp!");
  CHECK(b.at("org").at("slug") == "acme-corp");
  CHECK(b.at("org").at("plan") == "free");
  CHECK(b.at("project").at("platform") == "web");
  const std::string key(b.at("apiKey").as_string());
  auto parsed = service::domain::projects::ParseCaptureKey(key);
  REQUIRE(parsed);
  CHECK(parsed->env == "live");
  CHECK(b.at("accessToken").is_string());
  CHECK(b.at("refreshToken").is_string());
  const std::string org_id(b.at("org").at("id").as_string());
  const std::string user_id(b.at("user").at("id").as_string());

  // The key is stored only as its hash, under the default project.
  // internal state (these two): only the stored row shows what is kept of the key.
  CHECK(CountRows(*t,
                  "SELECT COUNT(*) FROM capture_keys WHERE key_hash = ? AND project_id = ? AND prefix = ?",
                  {service::domain::projects::HashCaptureKey(key),
                   std::string(b.at("project").at("id").as_string()), parsed->prefix}) == 1);
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM capture_keys WHERE key_hash = ?", {key}) == 0);
  auto team = t->Get("/v1/team", BearerOrg(std::string(b.at("accessToken").as_string()), org_id));
  REQUIRE_MESSAGE(team.status == 200, team.body);
  REQUIRE(team.json.at("members").as_array().size() == 1);
  CHECK(std::string(team.json.at("members").at(0).at("id").as_string()) == user_id);
  CHECK(team.json.at("members").at(0).at("role") == "admin");
  // The password is stored as a scrypt hash, never in clear.
  // internal state: only the stored row shows what is kept of the password.
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM users WHERE password_hash LIKE 'scrypt$%' AND password_hash <> ?",
                  {std::string(kTestPassword)}) == 1);

  // The session works at once.
  auto me = t->Get("/v1/auth/me", Bearer(std::string(b.at("accessToken").as_string())));
  REQUIRE(me.status == 200);
  CHECK(me.json.at("orgs").as_array().size() == 1);
  CHECK(me.json.at("orgs").at(0).at("role") == "admin");

  // A second organization with the same name gets its own slug.
  auto other = t->Post("/v1/auth/register", json::object{{"email", "bob@example.com"},
                                                         {"password", kTestPassword},
                                                         {"name", "Bob"},
                                                         {"orgName", "Acme Corp"}});
  REQUIRE(other.status == 201);
  CHECK(other.json.at("org").at("slug") == "acme-corp-2");
}

TEST_CASE("register: 400 names each bad field, 409 for a taken email, nothing written on failure") {
  auto t = NewAccountsService();
  auto bad =
      t->Post("/v1/auth/register",
              json::object{{"email", "not-an-email"}, {"password", "short"}, {"name", ""}, {"orgName", 7}});
  REQUIRE(bad.status == 400);
  CHECK(bad.json.at("error") == "Validation failed");
  CHECK(DetailFields(bad.json) == std::set<std::string>{"email", "password", "name", "orgName"});

  auto missing = t->Post("/v1/auth/register", json::object{});
  REQUIRE(missing.status == 400);
  CHECK(DetailFields(missing.json) == std::set<std::string>{"email", "password", "name", "orgName"});

  auto long_name = t->Post("/v1/auth/register", json::object{{"email", "a@example.com"},
                                                             {"password", kTestPassword},
                                                             {"name", std::string(201, 'x')},
                                                             {"orgName", "Org"}});
  REQUIRE(long_name.status == 400);
  CHECK(DetailFields(long_name.json) == std::set<std::string>{"name"});

  auto malformed = t->Request("POST", "/v1/auth/register", "{\"email\":");
  CHECK(malformed.status == 400);
  CHECK(malformed.json.at("error") == "Invalid JSON in request body");
  // internal state (these two): nothing anywhere (no route lists every account or organization).
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM users") == 0);
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM organizations") == 0);

  RegisterAccount(*t, "taken@example.com");
  auto dup = t->Post("/v1/auth/register", json::object{{"email", "TAKEN@example.com"},
                                                       {"password", kTestPassword},
                                                       {"name", "Again"},
                                                       {"orgName", "Second Org"}});
  CHECK(dup.status == 409);
  CHECK(dup.json.at("error") == "Email already registered");
  // The refused registration left no organization, project or key behind.
  // internal state (these three): as above, across the whole database.
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM organizations") == 1);
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM projects") == 1);
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM capture_keys") == 1);
}

TEST_CASE("register queues a verification mail when mail is configured, none otherwise") {
  auto plain = NewAccountsService();
  RegisterAccount(*plain, "nomail@example.com");
  // internal state: no route reads the outbox (nor do the mails below).
  CHECK(CountRows(*plain, "SELECT COUNT(*) FROM outbox") == 0);

  auto t = NewAccountsService([](service::Options& o) {
    o.mail_url = "file:" + service::testing::FreshTempDir("acc-reg");
    o.public_url = "https://console.example.com/";
  });
  RegisterAccount(*t, "mail@example.com");
  const std::string text = service::testing::LastQueuedMailText(*t, "mail@example.com");
  CHECK(text.find("https://console.example.com/verify-email#token=") != std::string::npos);
  CHECK(service::testing::TokenAfter(text, "#token=").size() == 64);
}

TEST_CASE("register hashes passwords with scrypt at the documented default cost") {
  TestService t;  // default parameters: one real hash
  auto r = t.Post(
      "/v1/auth/register",
      json::object{
          {"email", "cost@example.com"}, {"password", kTestPassword}, {"name", "Cost"}, {"orgName", "Cost"}});
  REQUIRE(r.status == 201);
  std::string stored;
  auto& core = service::internal::PlatformOf(t.service());
  REQUIRE(core.db
              ->Read([&](service::store::Connection& c) -> service::Status {
                SV_ASSIGN_OR_RETURN(auto rows, c.Query("SELECT password_hash FROM users"));
                stored = rows.Str(0, 0);
                return service::Status::Ok();
              })
              .ok());
  auto parsed = service::domain::accounts::ParsePasswordHash(stored);
  REQUIRE(parsed.ok());
  CHECK(parsed->params.log2_n == 15);
  CHECK(parsed->params.r == 8);
  CHECK(parsed->params.p == 1);
  CHECK(parsed->salt.size() == service::domain::accounts::kPasswordSaltBytes);
}

TEST_CASE("waitlist: new and pending 202, rejected re-promoted, approved 200, 409s") {
  auto t = NewAccountsService(
      [](service::Options& o) { o.mail_url = "file:" + service::testing::FreshTempDir("acc-wl"); });
  const json::object entry{
      {"email", "wait@example.com"}, {"name", "Wanda"}, {"orgName", "Waiters"}, {"useCase", "triage"}};
  auto first = t->Post("/v1/auth/waitlist", entry);
  REQUIRE_MESSAGE(first.status == 202, first.body);
  CHECK(first.json.at("success") == true);
  CHECK(first.json.at("status") == "pending");
  CHECK(first.json.at("message").is_string());
  // A receipt mail for the new entry only.
  // internal state (this and the next outbox count): no route reads the outbox.
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM outbox") == 1);

  auto again = t->Post("/v1/auth/waitlist", entry);
  CHECK(again.status == 202);
  CHECK(again.json.at("status") == "pending");
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM outbox") == 1);

  SetWaitlistStatus(*t, "wait@example.com", "rejected");
  auto repromoted = t->Post("/v1/auth/waitlist", entry);
  CHECK(repromoted.status == 202);
  CHECK(repromoted.json.at("status") == "pending");
  CHECK(WaitlistStatus(*t, "wait@example.com") == "pending");  // the only entry

  Approve(*t, "wait@example.com");
  auto approved = t->Post("/v1/auth/waitlist", entry);
  CHECK(approved.status == 200);
  CHECK(approved.json.at("status") == "approved");

  SetWaitlistStatus(*t, "wait@example.com", "completed");
  auto completed = t->Post("/v1/auth/waitlist", entry);
  CHECK(completed.status == 409);

  RegisterAccount(*t, "member@example.com");
  auto has_account = t->Post("/v1/auth/waitlist",
                             json::object{{"email", "member@example.com"}, {"name", "M"}, {"orgName", "O"}});
  CHECK(has_account.status == 409);

  auto bad = t->Post("/v1/auth/waitlist", json::object{{"email", "x"}, {"useCase", std::string(2001, 'u')}});
  REQUIRE(bad.status == 400);
  CHECK(DetailFields(bad.json) == std::set<std::string>{"email", "name", "orgName", "useCase"});
}

TEST_CASE("approval link inspection and complete-signup") {
  auto t = NewAccountsService();
  REQUIRE(t->Post("/v1/auth/waitlist",
                  json::object{{"email", "newbie@example.com"}, {"name", "Newbie"}, {"orgName", "Fresh Org"}})
              .status == 202);
  const std::string token = Approve(*t, "newbie@example.com");

  auto inspect = t->Get("/v1/auth/approval/" + token);
  REQUIRE_MESSAGE(inspect.status == 200, inspect.body);
  CHECK(inspect.json.at("email") == "newbie@example.com");
  CHECK(inspect.json.at("name") == "Newbie");
  CHECK(inspect.json.at("orgName") == "Fresh Org");
  // Inspecting does not consume it.
  CHECK(t->Get("/v1/auth/approval/" + token).status == 200);
  for (const std::string& bad : {std::string("nothex"), std::string(64, 'a'), std::string("%00")}) {
    auto r = t->Get("/v1/auth/approval/" + bad);
    CHECK(r.status == 400);
    CHECK(r.json.at("error") == "Invalid or expired approval link");
  }

  auto invalid =
      t->Post("/v1/auth/complete-signup",
              json::object{{"token", std::string(64, 'b')}, {"name", "N"}, {"password", kTestPassword}});
  CHECK(invalid.status == 400);
  auto short_pw = t->Post("/v1/auth/complete-signup",
                          json::object{{"token", token}, {"name", "N"}, {"password", "1234567"}});
  REQUIRE(short_pw.status == 400);
  CHECK(DetailFields(short_pw.json) == std::set<std::string>{"password"});

  auto done = t->Post("/v1/auth/complete-signup",
                      json::object{{"token", token}, {"name", "Newbie N."}, {"password", kTestPassword}});
  REQUIRE_MESSAGE(done.status == 201, done.body);
  CHECK(done.json.at("user").at("email") == "newbie@example.com");
  CHECK(done.json.at("user").at("name") == "Newbie N.");
  CHECK(done.json.at("user").at("email_verified") == true);
  CHECK(done.json.at("org").at("name") == "Fresh Org");
  CHECK(done.json.at("org").at("slug") == "fresh-org");
  CHECK(done.json.at("project").at("id").is_string());
  CHECK(done.json.at("apiKey").is_string());
  const auto entry = WaitlistEntryOf(*t, "newbie@example.com");  // the only entry
  REQUIRE(entry);
  CHECK(entry->status == "completed");
  CHECK_FALSE(entry->approval_token_hash.has_value());
  // The link is spent.
  CHECK(t->Get("/v1/auth/approval/" + token).status == 400);
  CHECK(t->Post("/v1/auth/complete-signup",
                json::object{{"token", token}, {"name", "N"}, {"password", kTestPassword}})
            .status == 400);
  // Verified: login works even where verification is required.
  auto login =
      t->Post("/v1/auth/login", json::object{{"email", "newbie@example.com"}, {"password", kTestPassword}});
  CHECK(login.status == 200);
}

TEST_CASE("complete-signup: 409 when the email registered meanwhile, and the link stays unspent") {
  auto t = NewAccountsService();
  REQUIRE(t->Post("/v1/auth/waitlist",
                  json::object{{"email", "race@example.com"}, {"name", "R"}, {"orgName", "R"}})
              .status == 202);
  const std::string token = Approve(*t, "race@example.com");
  RegisterAccount(*t, "race@example.com");
  auto r = t->Post("/v1/auth/complete-signup",
                   json::object{{"token", token}, {"name", "R"}, {"password", kTestPassword}});
  CHECK(r.status == 409);
  CHECK(r.json.at("error") == "Email already registered");
  CHECK(WaitlistStatus(*t, "race@example.com") == "approved");  // the only entry
  // internal state: no second organization anywhere (no route lists every organization).
  CHECK(CountRows(*t, "SELECT COUNT(*) FROM organizations") == 1);
}

TEST_CASE("an expired approval link is refused") {
  auto t = NewAccountsService();
  REQUIRE(t->Post("/v1/auth/waitlist",
                  json::object{{"email", "late@example.com"}, {"name", "L"}, {"orgName", "L"}})
              .status == 202);
  const std::string token = Approve(*t, "late@example.com", 1000);
  CHECK(t->Get("/v1/auth/approval/" + token).status == 200);
  t->clock().Advance(1000);
  CHECK(t->Get("/v1/auth/approval/" + token).status == 400);
  CHECK(t->Post("/v1/auth/complete-signup",
                json::object{{"token", token}, {"name", "L"}, {"password", kTestPassword}})
            .status == 400);
}

}  // namespace
