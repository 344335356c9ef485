// The superadmin routes (Spec 2 "Superadmin"; server contract "Superadmin",
// "Plans"; issue 28 item 1), in-process on both backends.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <set>
#include <string>

#include "areas/accounts/module.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/api_harness.h"
#include "support/capture_fixture.h"
#include "support/stub_http_server.h"

namespace service::testing {
namespace {

namespace json = boost::json;

constexpr const char* kRoot = "root@ops.example";

// A service with file mail, the allowlist and cheap passwords.
std::unique_ptr<TestService> NewAdminService(const std::function<void(Options&)>& more = {}) {
  const std::string dir = FreshTempDir("admin-mail");
  return NewAccountsService([dir, more](Options& o) {
    WithFileMail(dir)(o);
    o.superadmin_emails = {kRoot, "lazy@ops.example"};
    if (more) more(o);
  });
}

void MarkVerified(TestService& t, const std::string& user_id) {
  auto& core = internal::PlatformOf(t.service());
  const auto& accounts = internal::ModulesOf(t.service()).Get<modules::AccountsModule>().deps();
  REQUIRE(
      core.tx
          ->Write([&](ports::Tx& tx) { return accounts.users->MarkEmailVerified(tx, user_id, core.Now()); })
          .ok());
}

// A verified superadmin, signed in.
Account NewRoot(TestService& t) {
  Account root = RegisterAccount(t, kRoot, "Ops");
  MarkVerified(t, root.user_id);
  return root;
}

std::string S(const json::value& v) { return Str(v); }

std::set<std::string> Keys(const json::value& v) {
  std::set<std::string> out;
  for (const auto& kv : v.as_object()) out.insert(std::string(kv.key()));
  return out;
}

TEST_CASE("admin access: verified allowlisted accounts only, others 403, no token 401") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  const Account lazy = RegisterAccount(*t, "lazy@ops.example", "Lazy");  // allowlisted, unverified
  const Account member = RegisterAccount(*t, "member@example.com", "Member Org");
  MarkVerified(*t, member.user_id);

  const char* paths[] = {"/v1/admin/overview",      "/v1/admin/organizations", "/v1/admin/customers",
                         "/v1/admin/users",         "/v1/admin/waitlist",      "/v1/admin/projects",
                         "/v1/admin/api-keys",      "/v1/admin/activity",      "/v1/admin/db/tables",
                         "/v1/admin/api-key-stats", "/v1/admin/ai-usage",      "/v1/admin/db/tables/users"};
  for (const char* path : paths) {
    CAPTURE(path);
    CHECK(t->Get(path, Bearer(root.access_token)).status == 200);
    CHECK(t->Get(path, Bearer(lazy.access_token)).status == 403);
    CHECK(t->Get(path, Bearer(member.access_token)).status == 403);
    CHECK(t->Get(path, BearerOrg(member.access_token, member.org_id)).status == 403);
    CHECK(t->Get(path, Bearer("sv_pat_" + std::string(40, 'a'))).status == 403);
    CHECK(t->Get(path, KeyHeader(member.api_key)).status == 403);
    CHECK(t->Get(path).status == 401);
    CHECK(t->Get(path, Bearer("not-a-token")).status == 401);
  }
  // Writes too, before their bodies are read.
  CHECK(t->Post("/v1/admin/customers", json::object{{"orgName", "X"}, {"contactEmail", "x@example.com"}},
                Bearer(member.access_token))
            .status == 403);
  CHECK(t->Post("/v1/admin/gdpr/delete-org",
                json::object{{"orgId", member.org_id}, {"confirmOrgId", member.org_id}},
                Bearer(lazy.access_token))
            .status == 403);
  CHECK(t->Get("/v1/admin/customers/" + member.org_id, Bearer(member.access_token)).status == 403);
  auto denied = t->Get("/v1/admin/overview", Bearer(member.access_token));
  CHECK(S(denied.json.at("error")) == "Superadmin access required");
}

TEST_CASE("overview: counts and 30 UTC days of growth with zeros") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  const CaptureSetup s = NewCaptureSetup(*t);
  REQUIRE(Ingest(*t, s.key, Report("Checkout fails")).status == 201);
  REQUIRE(t->Post("/v1/auth/waitlist",
                  json::object{{"email", "w@example.com"}, {"name", "W"}, {"orgName", "W Co"}})
              .status == 202);
  auto r = t->Get("/v1/admin/overview", Bearer(root.access_token));
  REQUIRE(r.status == 200);
  const json::value& c = r.json.at("counts");
  CHECK(Keys(c) == std::set<std::string>{"users", "organizations", "projects", "bugs", "events", "api_keys",
                                         "waitlist_pending"});
  CHECK(c.at("users").as_int64() == 2);
  CHECK(c.at("organizations").as_int64() == 2);
  CHECK(c.at("projects").as_int64() == 2);  // root's default project and s's
  CHECK(c.at("bugs").as_int64() == 1);
  CHECK(c.at("events").as_int64() == 1);
  CHECK(c.at("api_keys").as_int64() == 2);
  CHECK(c.at("waitlist_pending").as_int64() == 1);
  const json::array& growth = r.json.at("growth").as_array();
  REQUIRE(growth.size() == 30);
  CHECK(S(growth.back().at("date")) == "2026-01-15");  // the test clock's day
  CHECK(S(growth.front().at("date")) == "2025-12-17");
  CHECK(growth.back().at("users").as_int64() == 2);
  CHECK(growth.back().at("organizations").as_int64() == 2);
  CHECK(growth.back().at("bugs").as_int64() == 1);
  CHECK(growth.front().at("users").as_int64() == 0);
  CHECK(Keys(growth.front()) == std::set<std::string>{"date", "users", "organizations", "bugs"});
}

TEST_CASE("organizations: search, limit 50 by default and at most 200, offset, 400 for bad numbers") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  t->clock().Advance(1000);
  RegisterAccount(*t, "a@example.com", "Alpha Widgets");
  t->clock().Advance(1000);
  RegisterAccount(*t, "b@example.com", "Beta Gadgets");
  auto all = t->Get("/v1/admin/organizations", Bearer(root.access_token));
  REQUIRE(all.status == 200);
  CHECK(all.json.at("total").as_int64() == 3);
  CHECK(all.json.at("limit").as_int64() == 50);
  CHECK(all.json.at("offset").as_int64() == 0);
  CHECK(S(all.json.at("organizations").at(0).at("name")) == "Beta Gadgets");  // newest first
  for (const char* f : {"id", "name", "slug", "plan", "created_at"})
    CHECK_MESSAGE(all.json.at("organizations").at(0).as_object().contains(f), f);

  auto found = t->Get("/v1/admin/organizations?search=WIDG", Bearer(root.access_token));
  REQUIRE(found.json.at("total").as_int64() == 1);
  CHECK(S(found.json.at("organizations").at(0).at("name")) == "Alpha Widgets");
  // LIKE wildcards are literal.
  CHECK(t->Get("/v1/admin/organizations?search=%25", Bearer(root.access_token)).json.at("total").as_int64() ==
        0);

  auto page = t->Get("/v1/admin/organizations?limit=1&offset=1", Bearer(root.access_token));
  REQUIRE(page.json.at("organizations").as_array().size() == 1);
  CHECK(S(page.json.at("organizations").at(0).at("name")) == "Alpha Widgets");
  CHECK(page.json.at("total").as_int64() == 3);
  CHECK(t->Get("/v1/admin/organizations?limit=500", Bearer(root.access_token)).json.at("limit").as_int64() ==
        200);
  CHECK(t->Get("/v1/admin/organizations?limit=0", Bearer(root.access_token)).status == 400);
  CHECK(t->Get("/v1/admin/organizations?offset=-1", Bearer(root.access_token)).status == 400);
  CHECK(t->Get("/v1/admin/organizations?limit=abc", Bearer(root.access_token)).status == 400);
  CHECK(t->Get("/v1/admin/organizations?offset=10", Bearer(root.access_token))
            .json.at("organizations")
            .as_array()
            .empty());
}

TEST_CASE("customers: an existing user becomes the new organization's admin and is mailed") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  const Account existing = RegisterAccount(*t, "owner@example.com", "Owner Home");
  t->clock().Advance(1000);  // after the verification mail
  auto created = t->Post("/v1/admin/customers",
                         json::object{{"orgName", "Big Customer"},
                                      {"contactEmail", "OWNER@example.com"},
                                      {"contactName", "Olive Owner"},
                                      {"plan", "team"},
                                      {"lifecycleStage", "active"},
                                      {"billingStatus", "manual"},
                                      {"useCase", "Mobile crash triage"}},
                         Bearer(root.access_token));
  REQUIRE_MESSAGE(created.status == 201, created.body);
  const json::value& c = created.json.at("customer");
  CHECK(Keys(c) == std::set<std::string>{"id", "name", "slug", "plan", "lifecycle_stage", "billing_status"});
  CHECK(S(c.at("name")) == "Big Customer");
  CHECK(S(c.at("slug")) == "big-customer");
  CHECK(S(c.at("plan")) == "team");
  CHECK(S(c.at("lifecycle_stage")) == "active");
  CHECK(S(c.at("billing_status")) == "manual");
  CHECK(Keys(created.json.at("project")) == std::set<std::string>{"id", "name", "slug"});
  const std::string org = S(c.at("id"));

  // The existing account is the organization's admin.
  auto team = t->Get("/v1/team", BearerOrg(existing.access_token, org));
  REQUIRE_MESSAGE(team.status == 200, team.body);
  REQUIRE(team.json.at("members").as_array().size() == 1);
  CHECK(S(team.json.at("members").at(0).at("role")) == "admin");
  // ... and was told by mail.
  const std::string mail = LastQueuedMailText(*t, "owner@example.com");
  CHECK(mail.find("Big Customer") != std::string::npos);
  // No waitlist row for an existing account.
  CHECK(t->Get("/v1/admin/waitlist", Bearer(root.access_token)).json.at("total").as_int64() == 0);

  // The customer reads back with the profile, contact, counts.
  auto detail = t->Get("/v1/admin/customers/" + org, Bearer(root.access_token));
  REQUIRE(detail.status == 200);
  const json::value& d = detail.json.at("customer");
  CHECK(S(d.at("lifecycle_stage")) == "active");
  CHECK(S(d.at("billing_status")) == "manual");
  CHECK(S(d.at("contact_email")) == "owner@example.com");
  CHECK(S(d.at("contact_name")) == "Olive Owner");
  CHECK(S(d.at("use_case")) == "Mobile crash triage");
  CHECK(S(d.at("admin_notes")).empty());
  CHECK(d.at("counts").at("members").as_int64() == 1);
  CHECK(d.at("counts").at("projects").as_int64() == 1);
  CHECK(d.at("counts").at("active_keys").as_int64() == 1);
  CHECK(d.at("counts").at("bugs").as_int64() == 0);
  CHECK(d.at("counts").at("open_bugs").as_int64() == 0);
  CHECK(d.at("last_bug_seen").is_null());
  CHECK(d.as_object().contains("last_activity_at"));
  const json::value& member = detail.json.at("team").at(0);
  CHECK(Keys(member) ==
        std::set<std::string>{"id", "email", "name", "email_verified", "last_login", "role", "joined_at"});
  CHECK(S(member.at("id")) == existing.user_id);
  const json::value& project = detail.json.at("projects").at(0);
  CHECK(Keys(project) == std::set<std::string>{"id", "name", "slug", "platform", "created_at", "bug_count",
                                               "active_keys", "last_key_used"});
  CHECK(project.at("active_keys").as_int64() == 1);

  // 400s: required fields, bad values; nothing created.
  for (const json::object& bad :
       {json::object{{"contactEmail", "x@example.com"}}, json::object{{"orgName", "X"}},
        json::object{{"orgName", "X"}, {"contactEmail", "not-an-email"}},
        json::object{{"orgName", "X"}, {"contactEmail", "x@example.com"}, {"plan", "gold"}},
        json::object{{"orgName", "X"}, {"contactEmail", "x@example.com"}, {"lifecycleStage", "dead"}},
        json::object{{"orgName", "X"}, {"contactEmail", "x@example.com"}, {"billingStatus", "free"}},
        json::object{{"orgName", "   "}, {"contactEmail", "x@example.com"}}}) {
    CAPTURE(json::serialize(bad));
    CHECK(t->Post("/v1/admin/customers", bad, Bearer(root.access_token)).status == 400);
  }
  CHECK(t->Get("/v1/admin/organizations", Bearer(root.access_token)).json.at("total").as_int64() == 3);
}

TEST_CASE("customers: a new person gets an approved waitlist entry whose mailed link signs up into the org") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  auto created = t->Post(
      "/v1/admin/customers",
      json::object{
          {"orgName", "Fresh Co"}, {"contactEmail", "newbie@example.com"}, {"contactName", "Nina New"}},
      Bearer(root.access_token));
  REQUIRE_MESSAGE(created.status == 201, created.body);
  const std::string org = S(created.json.at("customer").at("id"));
  CHECK(S(created.json.at("customer").at("plan")) == "free");
  CHECK(S(created.json.at("customer").at("lifecycle_stage")) == "trial");
  CHECK(S(created.json.at("customer").at("billing_status")) == "unassigned");

  auto wl = t->Get("/v1/admin/waitlist?status=approved", Bearer(root.access_token));
  REQUIRE(wl.json.at("total").as_int64() == 1);
  const json::value& entry = wl.json.at("entries").at(0);
  CHECK(S(entry.at("email")) == "newbie@example.com");
  CHECK(S(entry.at("target_org_id")) == org);
  CHECK(!entry.as_object().contains("approval_token_hash"));
  // 7 days.
  CHECK(S(entry.at("approval_expires_at")) == "2026-01-22T10:00:00.000Z");

  // The customer shows its waitlist fields and the contact before signup.
  auto before = t->Get("/v1/admin/customers/" + org, Bearer(root.access_token));
  CHECK(S(before.json.at("customer").at("waitlist_status")) == "approved");
  CHECK(S(before.json.at("customer").at("contact_email")) == "newbie@example.com");
  CHECK(before.json.at("team").as_array().empty());

  const std::string mail = LastQueuedMailText(*t, "newbie@example.com");
  const std::string token = TokenAfter(mail, "/signup#token=");
  REQUIRE(token.size() == 64);
  auto inspect = t->Get("/v1/auth/approval/" + token);
  REQUIRE(inspect.status == 200);
  CHECK(S(inspect.json.at("orgName")) == "Fresh Co");
  auto done = t->Post("/v1/auth/complete-signup",
                      json::object{{"token", token}, {"name", "Nina New"}, {"password", kTestPassword}});
  REQUIRE_MESSAGE(done.status == 201, done.body);
  CHECK(S(done.json.at("org").at("id")) == org);
  CHECK(!done.json.as_object().contains("apiKey"));  // the project exists; no key is shown again
  const std::string access = S(done.json.at("accessToken"));
  auto team = t->Get("/v1/team", BearerOrg(access, org));
  REQUIRE_MESSAGE(team.status == 200, team.body);
  REQUIRE(team.json.at("members").as_array().size() == 1);
  CHECK(S(team.json.at("members").at(0).at("role")) == "admin");
  auto projects = t->Get("/v1/projects", BearerOrg(access, org));
  REQUIRE(projects.json.at("projects").as_array().size() == 1);
  CHECK(S(projects.json.at("projects").at(0).at("id")) == S(created.json.at("project").at("id")));
  // Only one organization: none was made for the signup.
  CHECK(t->Get("/v1/admin/organizations", Bearer(root.access_token)).json.at("total").as_int64() == 2);
  CHECK(S(t->Get("/v1/admin/waitlist", Bearer(root.access_token)).json.at("entries").at(0).at("status")) ==
        "completed");
  // The link is used up.
  CHECK(t->Post("/v1/auth/complete-signup",
                json::object{{"token", token}, {"name", "Again"}, {"password", kTestPassword}})
            .status == 400);
}

TEST_CASE("customers list: filters (400 for invalid values), search, counts, paging") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  auto mk = [&](const std::string& name, const std::string& email, const json::object& extra) {
    json::object body{{"orgName", name}, {"contactEmail", email}};
    for (const auto& kv : extra) body[kv.key()] = kv.value();
    auto r = t->Post("/v1/admin/customers", body, Bearer(root.access_token));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    t->clock().Advance(1000);
    return S(r.json.at("customer").at("id"));
  };
  const std::string a = mk("Acme Paid", "acme@example.com", {{"plan", "pro"}, {"billingStatus", "paid"}});
  const std::string b = mk("Beta Churn", "beta@example.com", {{"lifecycleStage", "churned"}});
  mk("Gamma Internal", "gamma@example.com", {{"lifecycleStage", "internal"}, {"plan", "enterprise"}});

  auto list = [&](const std::string& q) {
    return t->Get("/v1/admin/customers" + q, Bearer(root.access_token));
  };
  auto all = list("");
  REQUIRE(all.status == 200);
  CHECK(all.json.at("total").as_int64() == 4);  // root's own organization too
  const json::value& row = all.json.at("customers").at(0);
  for (const char* f : {"id", "name", "slug", "plan", "created_at", "lifecycle_stage", "billing_status",
                        "admin_notes", "contact_name", "contact_email", "use_case", "waitlist_status",
                        "waitlist_created_at", "counts", "last_bug_seen", "last_activity_at"})
    CHECK_MESSAGE(row.as_object().contains(f), f);
  CHECK(Keys(row.at("counts")) ==
        std::set<std::string>{"members", "projects", "active_keys", "bugs", "open_bugs"});

  CHECK(list("?plan=pro").json.at("total").as_int64() == 1);
  CHECK(S(list("?plan=pro").json.at("customers").at(0).at("id")) == a);
  CHECK(list("?billingStatus=paid").json.at("total").as_int64() == 1);
  CHECK(list("?billingStatus=unassigned").json.at("total").as_int64() == 3);
  CHECK(S(list("?stage=churned").json.at("customers").at(0).at("id")) == b);
  // Acme (no stage given) and root's organization (no profile) read as trial.
  CHECK(list("?stage=trial").json.at("total").as_int64() == 2);
  CHECK(list("?stage=internal&plan=enterprise").json.at("total").as_int64() == 1);
  CHECK(list("?stage=internal&plan=free").json.at("total").as_int64() == 0);
  CHECK(list("?search=beta%40").json.at("total").as_int64() == 1);
  CHECK(list("?search=GAMMA").json.at("total").as_int64() == 1);
  for (const char* bad :
       {"?stage=dead", "?plan=gold", "?billingStatus=free", "?stage=trial&stage=active", "?limit=0"}) {
    CAPTURE(bad);
    CHECK(list(bad).status == 400);
  }
  CHECK(list("?limit=2").json.at("customers").as_array().size() == 2);
  CHECK(list("?limit=2&offset=3").json.at("customers").as_array().size() == 1);
  CHECK(list("?limit=201").json.at("limit").as_int64() == 200);

  // 404s.
  CHECK(
      t->Get("/v1/admin/customers/00000000-0000-7000-8000-00000000abcd", Bearer(root.access_token)).status ==
      404);
  auto nf = t->Get("/v1/admin/customers/nope", Bearer(root.access_token));
  CHECK(nf.status == 404);
  CHECK(S(nf.json.at("error")) == "Customer not found");
}

TEST_CASE("PATCH customer: plan (the one way plans change), stage, billing, notes, 400s and 404") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  const Account owner = RegisterAccount(*t, "owner@example.com", "Owner Org");
  const std::string path = "/v1/admin/customers/" + owner.org_id;
  auto r = t->Patch(path,
                    json::object{{"plan", "pro"},
                                 {"lifecycleStage", "active"},
                                 {"billingStatus", "past_due"},
                                 {"adminNotes", "Called on Monday"}},
                    Bearer(root.access_token));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json.at("customer").at("plan")) == "pro");
  CHECK(S(r.json.at("customer").at("lifecycle_stage")) == "active");
  CHECK(S(r.json.at("customer").at("billing_status")) == "past_due");
  CHECK(S(r.json.at("customer").at("admin_notes")) == "Called on Monday");
  // The organization's own view of its plan changed.
  auto usage = t->Get("/v1/org/usage", BearerOrg(owner.access_token, owner.org_id));
  REQUIRE_MESSAGE(usage.status == 200, usage.body);
  CHECK(S(usage.json.at("plan")) == "pro");
  // One field leaves the others.
  auto notes = t->Patch(path, json::object{{"adminNotes", ""}}, Bearer(root.access_token));
  CHECK(S(notes.json.at("customer").at("admin_notes")).empty());
  CHECK(S(notes.json.at("customer").at("billing_status")) == "past_due");
  CHECK(S(notes.json.at("customer").at("plan")) == "pro");

  for (const json::object& bad :
       {json::object{}, json::object{{"plan", "gold"}}, json::object{{"lifecycleStage", "x"}},
        json::object{{"billingStatus", 3}}, json::object{{"adminNotes", std::string(10001, 'n')}}}) {
    CAPTURE(json::serialize(bad));
    CHECK(t->Patch(path, bad, Bearer(root.access_token)).status == 400);
  }
  CHECK(S(t->Patch(path, json::object{}, Bearer(root.access_token)).json.at("error")) == "Nothing to update");
  CHECK(t->Patch("/v1/admin/customers/00000000-0000-7000-8000-00000000abcd", json::object{{"plan", "pro"}},
                 Bearer(root.access_token))
            .status == 404);
  CHECK(t->Patch("/v1/admin/customers/00000000-0000-7000-8000-00000000abcd",
                 json::object{{"adminNotes", "x"}}, Bearer(root.access_token))
            .status == 404);
}

TEST_CASE("POST customer team: a new email gets an invitation, 400 valid email and role, 404, 409") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  const Account owner = RegisterAccount(*t, "owner@example.com", "Owner Org");
  const std::string path = "/v1/admin/customers/" + owner.org_id + "/team";
  auto added = t->Post(path, json::object{{"email", "Dev@Example.com"}, {"role", "member"}, {"name", "Dev"}},
                       Bearer(root.access_token));
  REQUIRE_MESSAGE(added.status == 201, added.body);
  CHECK(added.json.at("success") == true);
  CHECK(S(added.json.at("role")) == "member");
  const std::string user_id = S(added.json.at("userId"));
  auto team = t->Get("/v1/team", BearerOrg(owner.access_token, owner.org_id));
  REQUIRE(team.json.at("members").as_array().size() == 2);
  const std::string mail = LastQueuedMailText(*t, "dev@example.com");
  CHECK(mail.find("#token=") != std::string::npos);
  CHECK(
      t->Post(path, json::object{{"email", "dev@example.com"}, {"role", "member"}}, Bearer(root.access_token))
          .status == 409);
  for (const json::object& bad : {json::object{{"role", "member"}}, json::object{{"email", "x@example.com"}},
                                  json::object{{"email", "nope"}, {"role", "member"}},
                                  json::object{{"email", "x@example.com"}, {"role", "boss"}}}) {
    auto r = t->Post(path, bad, Bearer(root.access_token));
    CHECK(r.status == 400);
    CHECK(S(r.json.at("error")) == "Valid email and role required");
  }
  CHECK(t->Post("/v1/admin/customers/00000000-0000-7000-8000-00000000abcd/team",
                json::object{{"email", "x@example.com"}, {"role", "member"}}, Bearer(root.access_token))
            .status == 404);
}

TEST_CASE("users: search, paging, and each user's organizations") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  const Account owner = RegisterAccount(*t, "owner@example.com", "Owner Org");
  auto r = t->Get("/v1/admin/users?search=OWNER", Bearer(root.access_token));
  REQUIRE(r.status == 200);
  REQUIRE(r.json.at("total").as_int64() == 1);
  const json::value& u = r.json.at("users").at(0);
  CHECK(S(u.at("id")) == owner.user_id);
  CHECK(!u.as_object().contains("password_hash"));
  REQUIRE(u.at("orgs").as_array().size() == 1);
  CHECK(Keys(u.at("orgs").at(0)) == std::set<std::string>{"orgId", "role", "orgName"});
  CHECK(S(u.at("orgs").at(0).at("orgId")) == owner.org_id);
  CHECK(S(u.at("orgs").at(0).at("orgName")) == "Owner Org");
  CHECK(S(u.at("orgs").at(0).at("role")) == "admin");
  auto all = t->Get("/v1/admin/users?limit=1", Bearer(root.access_token));
  CHECK(all.json.at("total").as_int64() == 2);
  CHECK(all.json.at("users").as_array().size() == 1);
  CHECK(all.json.at("limit").as_int64() == 1);
}

TEST_CASE("waitlist: list with search and status, approve, reject, resend with their rules") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  auto join = [&](const std::string& email) {
    REQUIRE(t->Post("/v1/auth/waitlist",
                    json::object{{"email", email}, {"name", "N"}, {"orgName", "Org of " + email}})
                .status == 202);
    t->clock().Advance(1000);
  };
  join("ann@example.com");
  join("bob@example.com");
  auto list = t->Get("/v1/admin/waitlist", Bearer(root.access_token));
  REQUIRE(list.status == 200);
  CHECK(list.json.at("total").as_int64() == 2);
  CHECK(S(list.json.at("entries").at(0).at("email")) == "bob@example.com");
  const std::string ann = S(list.json.at("entries").at(1).at("id"));
  const std::string bob = S(list.json.at("entries").at(0).at("id"));
  CHECK(t->Get("/v1/admin/waitlist?search=ANN", Bearer(root.access_token)).json.at("total").as_int64() == 1);
  CHECK(t->Get("/v1/admin/waitlist?status=pending", Bearer(root.access_token)).json.at("total").as_int64() ==
        2);
  CHECK(t->Get("/v1/admin/waitlist?status=done", Bearer(root.access_token)).status == 400);

  const std::string base = "/v1/admin/waitlist/";
  // Resend: approved entries only.
  auto early = t->Post(base + ann + "/resend", json::object{}, Bearer(root.access_token));
  CHECK(early.status == 400);
  CHECK(S(early.json.at("error")) == "Only approved entries can be resent");

  auto approved =
      t->Post(base + ann + "/approve", json::object{{"note", "welcome"}}, Bearer(root.access_token));
  REQUIRE_MESSAGE(approved.status == 200, approved.body);
  CHECK(approved.json == json::value(json::object{{"success", true}}));
  const std::string first = TokenAfter(LastQueuedMailText(*t, "ann@example.com"), "/signup#token=");
  REQUIRE(first.size() == 64);
  CHECK(t->Get("/v1/auth/approval/" + first).status == 200);
  auto entry = t->Get("/v1/admin/waitlist?search=ann", Bearer(root.access_token)).json.at("entries").at(0);
  CHECK(S(entry.at("status")) == "approved");
  CHECK(S(entry.at("admin_note")) == "welcome");

  // Resend: a fresh token; the old one dies.
  t->clock().Advance(1000);
  REQUIRE(t->Post(base + ann + "/resend", json::object{}, Bearer(root.access_token)).status == 200);
  const std::string second = TokenAfter(LastQueuedMailText(*t, "ann@example.com"), "/signup#token=");
  REQUIRE(second.size() == 64);
  CHECK(second != first);
  CHECK(t->Get("/v1/auth/approval/" + first).status == 400);
  CHECK(t->Get("/v1/auth/approval/" + second).status == 200);

  // Reject clears the token; reject works from any state.
  REQUIRE(t->Post(base + bob + "/reject", json::object{}, Bearer(root.access_token)).status == 200);
  CHECK(t->Get("/v1/admin/waitlist?status=rejected", Bearer(root.access_token)).json.at("total").as_int64() ==
        1);
  REQUIRE(t->Post(base + ann + "/reject", json::object{{"note", "spam"}}, Bearer(root.access_token)).status ==
          200);
  CHECK(t->Get("/v1/auth/approval/" + second).status == 400);
  // Re-approve after rejection, then complete: approve refuses afterwards.
  t->clock().Advance(1000);
  REQUIRE(t->Post(base + ann + "/approve", json::object{}, Bearer(root.access_token)).status == 200);
  const std::string third = TokenAfter(LastQueuedMailText(*t, "ann@example.com"), "/signup#token=");
  REQUIRE(t->Post("/v1/auth/complete-signup",
                  json::object{{"token", third}, {"name", "Ann"}, {"password", kTestPassword}})
              .status == 201);
  auto completed = t->Post(base + ann + "/approve", json::object{}, Bearer(root.access_token));
  CHECK(completed.status == 400);
  CHECK(S(completed.json.at("error")) == "Signup already completed");
  CHECK(t->Post(base + ann + "/resend", json::object{}, Bearer(root.access_token)).status == 400);

  // 404s; a bad note 400.
  const std::string unknown = "00000000-0000-7000-8000-00000000abcd";
  for (const char* action : {"/approve", "/reject", "/resend"}) {
    CHECK(t->Post(base + unknown + action, json::object{}, Bearer(root.access_token)).status == 404);
    CHECK(t->Post(base + "nope" + action, json::object{}, Bearer(root.access_token)).status == 404);
  }
  CHECK(t->Post(base + bob + "/approve", json::object{{"note", 5}}, Bearer(root.access_token)).status == 400);
}

TEST_CASE("projects, api-keys and api-key-stats: counts, never a key hash") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  t->clock().Advance(1000);
  const CaptureSetup s = NewCaptureSetup(*t);
  REQUIRE(Ingest(*t, s.key, Report("One")).status == 201);
  auto projects = t->Get("/v1/admin/projects", Bearer(root.access_token));
  REQUIRE(projects.status == 200);
  CHECK(projects.json.at("total").as_int64() == 2);
  const json::value& p = projects.json.at("projects").at(0);  // newest: s's
  CHECK(S(p.at("id")) == s.project_id);
  CHECK(p.at("bug_count").as_int64() == 1);
  CHECK(p.at("active_keys").as_int64() == 1);
  CHECK(p.as_object().contains("org_name"));
  CHECK(t->Get("/v1/admin/projects?limit=1&offset=1", Bearer(root.access_token))
            .json.at("projects")
            .as_array()
            .size() == 1);

  auto keys = t->Get("/v1/admin/api-keys", Bearer(root.access_token));
  REQUIRE(keys.status == 200);
  CHECK(keys.json.at("total").as_int64() == 2);
  for (const auto& k : keys.json.at("keys").as_array()) {
    CHECK(!k.as_object().contains("key_hash"));
    CHECK(!k.as_object().contains("key"));
    CHECK(keys.body.find(s.key) == std::string::npos);
    CHECK(k.as_object().contains("prefix"));
  }
  auto stats = t->Get("/v1/admin/api-key-stats", Bearer(root.access_token));
  REQUIRE(stats.status == 200);
  CHECK(Keys(stats.json) ==
        std::set<std::string>{"total_keys", "active_keys", "used_last_24h", "never_used"});
  CHECK(stats.json.at("total_keys").as_int64() == 2);
  CHECK(stats.json.at("active_keys").as_int64() == 2);
  // Key use is recorded by capture in the background: at most the one used.
  CHECK(stats.json.at("used_last_24h").as_int64() <= 1);
  CHECK(stats.json.at("never_used").as_int64() + stats.json.at("used_last_24h").as_int64() == 2);
}

TEST_CASE("activity: bug filed, status change and signups, newest first") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  t->clock().Advance(1000);
  const CaptureSetup s = NewCaptureSetup(*t);
  t->clock().Advance(1000);
  auto bug = Ingest(*t, s.key, Report("Cart is empty"));
  REQUIRE(bug.status == 201);
  t->clock().Advance(1000);
  REQUIRE(
      t->Patch("/v1/bugs/" + S(bug.json.at("id")), json::object{{"status", "resolved"}}, s.admin.headers())
          .status == 200);
  auto r = t->Get("/v1/admin/activity", Bearer(root.access_token));
  REQUIRE(r.status == 200);
  const json::array& a = r.json.at("activity").as_array();
  REQUIRE(a.size() >= 4);
  CHECK(S(a.at(0).at("type")) == "status_change");
  CHECK(S(a.at(0).at("summary")) == "Cart is empty");
  CHECK(S(a.at(1).at("type")) == "bug_filed");
  CHECK(S(a.at(1).at("id")) == S(bug.json.at("id")));
  CHECK(S(a.back().at("type")) == "user_signup");
  CHECK(S(a.back().at("summary")) == kRoot);
  CHECK(Keys(a.at(0)) == std::set<std::string>{"type", "id", "summary", "detail", "ts"});
}

// Row counts of every table the service has, for "nothing changed".
std::string TableCounts(TestService& t, const Account& root) {
  return json::serialize(t.Get("/v1/admin/db/tables", Bearer(root.access_token)).json);
}

TEST_CASE(
    "db tables: the allowlist with row counts, rows with secrets redacted, nothing else, injections "
    "refused") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  t->clock().Advance(1000);
  const Account other = RegisterAccount(*t, "other@example.com", "Other");
  REQUIRE(t->Post("/v1/auth/forgot-password", json::object{{"email", "other@example.com"}}).status == 200);
  auto tables = t->Get("/v1/admin/db/tables", Bearer(root.access_token));
  REQUIRE(tables.status == 200);
  const json::array& list = tables.json.at("tables").as_array();
  REQUIRE(list.size() == 20);
  std::set<std::string> names;
  for (const auto& row : list) {
    names.insert(S(row.at("table_name")));
    CHECK(row.at("row_count").is_int64());
  }
  CHECK(names.count("bug_attachments") == 1);
  CHECK(names.count("waitlist_entries") == 1);
  CHECK(names.count("settings") == 0);

  auto users = t->Get("/v1/admin/db/tables/users", Bearer(root.access_token));
  REQUIRE(users.status == 200);
  CHECK(S(users.json.at("table")) == "users");
  CHECK(users.json.at("total").as_int64() == 2);
  CHECK(users.json.at("limit").as_int64() == 50);
  bool has_hash_column = false;
  for (const auto& c : users.json.at("columns").as_array()) has_hash_column |= S(c) == "password_hash";
  CHECK(has_hash_column);
  for (const auto& row : users.json.at("rows").as_array()) CHECK(S(row.at("password_hash")) == "[redacted]");
  CHECK(users.body.find("scrypt") == std::string::npos);

  for (const char* name : {"api_keys", "refresh_tokens", "password_reset_tokens", "waitlist_entries"}) {
    CAPTURE(name);
    auto r = t->Get(std::string("/v1/admin/db/tables/") + name, Bearer(root.access_token));
    REQUIRE(r.status == 200);
    for (const auto& row : r.json.at("rows").as_array()) {
      for (const char* secret : {"key_hash", "token_hash", "approval_token_hash"}) {
        if (row.as_object().contains(secret) && !row.at(secret).is_null())
          CHECK(S(row.at(secret)) == "[redacted]");
      }
    }
  }
  CHECK(t->Get("/v1/admin/db/tables/api_keys", Bearer(root.access_token)).json.at("total").as_int64() == 2);
  CHECK(t->Get("/v1/admin/db/tables/refresh_tokens", Bearer(root.access_token)).json.at("total").as_int64() >=
        2);
  CHECK(t->Get("/v1/admin/db/tables/password_reset_tokens", Bearer(root.access_token))
            .json.at("total")
            .as_int64() == 1);
  auto paged = t->Get("/v1/admin/db/tables/users?limit=1&offset=1", Bearer(root.access_token));
  REQUIRE(paged.json.at("rows").as_array().size() == 1);
  CHECK(S(paged.json.at("rows").at(0).at("id")) == other.user_id);
  auto attachments = t->Get("/v1/admin/db/tables/bug_attachments", Bearer(root.access_token));
  REQUIRE(attachments.status == 200);
  CHECK(attachments.json.at("rows").as_array().empty());
  CHECK(!attachments.json.at("columns").as_array().empty());

  const std::string before = TableCounts(*t, root);
  for (const char* bad : {"users;DROP%20TABLE%20users", "users--", "sqlite_master", "pg_catalog.pg_tables",
                          "users%27", "%27users%27", "users%22", "Users", "users%20", "settings",
                          "memberships", "capture_keys", "email_tokens", "users%3BDELETE%20FROM%20users",
                          "organizations%20WHERE%201%3D1", "%2e%2e", "users%00"}) {
    CAPTURE(bad);
    auto r = t->Get(std::string("/v1/admin/db/tables/") + bad, Bearer(root.access_token));
    CHECK(r.status == 400);
    CHECK(S(r.json.at("error")) == "Table not allowed");
  }
  CHECK(TableCounts(*t, root) == before);
  CHECK(t->Get("/v1/admin/db/tables/users", Bearer(root.access_token)).json.at("total").as_int64() == 2);
}

CannedResponse Completion(int64_t prompt_tokens, int64_t completion_tokens) {
  CannedResponse r;
  r.body = json::serialize(json::object{
      {"model", "stub-model"},
      {"choices", json::array{json::object{
                      {"index", 0},
                      {"message", json::object{{"role", "assistant"},
                                               {"content", json::serialize(json::object{
                                                               {"title", "Checkout crashes"},
                                                               {"severity", "high"},
                                                               {"description", "It crashes."}})}}}}}},
      {"usage", json::object{{"prompt_tokens", prompt_tokens},
                             {"completion_tokens", completion_tokens},
                             {"total_tokens", prompt_tokens + completion_tokens}}}});
  return r;
}

TEST_CASE(
    "ai-usage: every AI call recorded with feature, provider, model and tokens, days 30 by default, at most "
    "90") {
  StubHttpServer ai;
  const std::string url = ai.url("/v1");
  auto t = NewAdminService([url](Options& o) {
    o.ai.url = url;
    o.ai.key = "sk-stub";
    o.ai.model = "tiny-model";
    o.allow_private_destinations = true;
  });
  const Account root = NewRoot(*t);
  const CaptureSetup s = NewCaptureSetup(*t);
  const json::object body{{"title", "Checkout"},
                          {"events", json::array{json::object{{"type", "error"}, {"message", "TypeError"}}}}};
  ai.QueueResponse("/v1/chat/completions", Completion(100, 20));
  REQUIRE(t->Post("/v1/ingest/ai-summary", body, KeyHeader(s.key)).status == 200);
  t->clock().Advance(int64_t{86400000});
  ai.QueueResponse("/v1/chat/completions", Completion(50, 5));
  REQUIRE(t->Post("/v1/ingest/ai-summary", body, KeyHeader(s.key)).status == 200);
  CannedResponse failure;
  failure.status = 502;
  failure.body = "{}";
  ai.QueueResponse("/v1/chat/completions", failure);
  CHECK(t->Post("/v1/ingest/ai-summary", body, KeyHeader(s.key)).status == 502);

  // A day later root's access token has expired: sign in again.
  auto login = t->Post("/v1/auth/login", json::object{{"email", kRoot}, {"password", kTestPassword}});
  REQUIRE(login.status == 200);
  const HeaderList auth = Bearer(S(login.json.at("accessToken")));
  auto r = t->Get("/v1/admin/ai-usage", auth);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("days").as_int64() == 30);
  const json::value& sum = r.json.at("summary");
  CHECK(sum.at("total_calls").as_int64() == 3);
  CHECK(sum.at("total_input_tokens").as_int64() == 150);
  CHECK(sum.at("total_output_tokens").as_int64() == 25);
  CHECK(sum.at("total_tokens").as_int64() == 175);
  const json::array& daily = r.json.at("daily").as_array();
  REQUIRE(daily.size() == 30);
  CHECK(S(daily.back().at("date")) == "2026-01-16");
  CHECK(daily.back().at("calls").as_int64() == 2);
  CHECK(daily.back().at("tokens").as_int64() == 55);
  CHECK(daily.at(daily.size() - 2).at("calls").as_int64() == 1);
  CHECK(daily.at(daily.size() - 2).at("tokens").as_int64() == 120);
  CHECK(daily.front().at("calls").as_int64() == 0);
  const json::array& by = r.json.at("byFeature").as_array();
  REQUIRE(by.size() == 2);  // the answered calls' model, and the failed call's configured one
  CHECK(S(by.at(0).at("feature")) == "ai_summary");
  CHECK(S(by.at(0).at("provider")) == "openai-compatible");
  CHECK(S(by.at(0).at("model")) == "stub-model");
  CHECK(by.at(0).at("calls").as_int64() == 2);
  CHECK(by.at(0).at("tokens").as_int64() == 175);
  CHECK(S(by.at(1).at("model")) == "tiny-model");

  // The row carries the organization (db/tables ai_usage).
  auto rows = t->Get("/v1/admin/db/tables/ai_usage", auth);
  REQUIRE(rows.json.at("total").as_int64() == 3);
  CHECK(S(rows.json.at("rows").at(0).at("org_id")) == s.admin.org_id);

  auto one = t->Get("/v1/admin/ai-usage?days=1", auth);
  CHECK(one.json.at("daily").as_array().size() == 1);
  CHECK(one.json.at("summary").at("total_calls").as_int64() == 2);
  CHECK(t->Get("/v1/admin/ai-usage?days=365", auth).json.at("days").as_int64() == 90);
  CHECK(t->Get("/v1/admin/ai-usage?days=0", auth).status == 400);
  CHECK(t->Get("/v1/admin/ai-usage?days=x", auth).status == 400);
}

TEST_CASE("backfill-signatures: recomputes a stale signature hash with the capture rules, in steps") {
  auto t = NewAdminService();
  const Account root = NewRoot(*t);
  const CaptureSetup s = NewCaptureSetup(*t);
  auto a = Ingest(*t, s.key, Report("First", "TypeError: a is undefined"));
  auto b = Ingest(*t, s.key, Report("Second", "RangeError: out of range"));
  REQUIRE(a.status == 201);
  REQUIRE(b.status == 201);
  const std::string bug = S(a.json.at("id"));
  const std::string good_key = GroupKeyVia(*t, s.admin, s.project_id, bug);
  REQUIRE(good_key.size() == 16);
  // internal state: a signature hash from an older grouping rule, which no
  // route can write.
  ExecSql(*t,
          "UPDATE bugs SET signature_hash = 'aaaaaaaaaaaaaaaa', group_key = 'aaaaaaaaaaaaaaaa' WHERE id = ?",
          {bug});
  REQUIRE(GroupKeyVia(*t, s.admin, s.project_id, bug) == "aaaaaaaaaaaaaaaa");

  json::value cursor = nullptr;
  int64_t updated = 0, scanned = 0, steps = 0;
  do {
    json::object body{{"limit", 1}};
    if (!cursor.is_null()) body["cursor"] = cursor;
    auto r = t->Post("/v1/admin/backfill-signatures", body, Bearer(root.access_token));
    REQUIRE_MESSAGE(r.status == 200, r.body);
    updated += r.json.at("updated").as_int64();
    scanned += r.json.at("scanned").as_int64();
    cursor = r.json.at("nextCursor");
    CHECK(r.json.at("done").as_bool() == cursor.is_null());
    REQUIRE(++steps < 10);
  } while (!cursor.is_null());
  CHECK(scanned == 2);
  CHECK(updated == 1);
  CHECK(GroupKeyVia(*t, s.admin, s.project_id, bug) == good_key);
  // Again: nothing to change.
  auto again = t->Post("/v1/admin/backfill-signatures", json::object{{"projectId", s.project_id}},
                       Bearer(root.access_token));
  REQUIRE(again.status == 200);
  CHECK(again.json.at("updated").as_int64() == 0);
  CHECK(again.json.at("unchanged").as_int64() == 2);
  CHECK(again.json.at("nextCursor").is_null());
  CHECK(t->Post("/v1/admin/backfill-signatures", json::object{{"limit", 0}}, Bearer(root.access_token))
            .status == 400);
  CHECK(t->Post("/v1/admin/backfill-signatures", json::object{{"projectId", "x"}}, Bearer(root.access_token))
            .status == 400);
}

int64_t Sum(const json::value& deleted) {
  int64_t n = 0;
  for (const auto& kv : deleted.as_object()) n += kv.value().as_int64();
  return n;
}

TEST_CASE("gdpr delete-org: confirmation, 404, and nothing of the organization remains") {
  StubHttpServer ai;
  const std::string url = ai.url("/v1");
  auto t = NewAdminService([url](Options& o) {
    o.ai.url = url;
    o.allow_private_destinations = true;
  });
  const Account root = NewRoot(*t);
  const CaptureSetup s = NewCaptureSetup(*t);
  const CaptureSetup keep = NewCaptureSetup(*t);
  const std::string org = s.admin.org_id;
  auto bug = Ingest(*t, s.key, Report("Doomed", "TypeError: gone"));
  REQUIRE(bug.status == 201);
  REQUIRE(Ingest(*t, keep.key, Report("Kept")).status == 201);
  const std::string bug_id = S(bug.json.at("id"));
  REQUIRE(t->Post("/v1/bugs/" + bug_id + "/comments", json::object{{"content", "looking"}}, s.admin.headers())
              .status == 201);
  REQUIRE(t->Patch("/v1/bugs/" + bug_id, json::object{{"status", "resolved"}}, s.admin.headers()).status ==
          200);
  ai.QueueResponse("/v1/chat/completions", Completion(1, 1));
  REQUIRE(t->Post("/v1/ingest/ai-summary",
                  json::object{{"title", "x"}, {"events", json::array{json::object{{"type", "error"}}}}},
                  KeyHeader(s.key))
              .status == 200);
  REQUIRE(
      t->Patch("/v1/admin/customers/" + org, json::object{{"adminNotes", "bye"}}, Bearer(root.access_token))
          .status == 200);

  const std::string path = "/v1/admin/gdpr/delete-org";
  CHECK(t->Post(path, json::object{{"orgId", org}}, Bearer(root.access_token)).status == 400);
  auto mismatch = t->Post(path, json::object{{"orgId", org}, {"confirmOrgId", keep.admin.org_id}},
                          Bearer(root.access_token));
  CHECK(mismatch.status == 400);
  CHECK(S(mismatch.json.at("error")) == "confirmOrgId must equal orgId");
  const std::string unknown = "00000000-0000-7000-8000-00000000abcd";
  CHECK(t->Post(path, json::object{{"orgId", unknown}, {"confirmOrgId", unknown}}, Bearer(root.access_token))
            .status == 404);

  auto del = t->Post(path, json::object{{"orgId", org}, {"confirmOrgId", org}}, Bearer(root.access_token));
  REQUIRE_MESSAGE(del.status == 200, del.body);
  CHECK(del.json.at("success") == true);
  CHECK(S(del.json.at("orgId")) == org);
  const json::value& deleted = del.json.at("deleted");
  CHECK(deleted.at("organizations").as_int64() == 1);
  CHECK(deleted.at("bug_reports").as_int64() == 1);
  CHECK(deleted.at("bug_comments").as_int64() == 1);
  CHECK(deleted.at("bug_status_history").as_int64() >= 1);
  CHECK(deleted.at("ai_usage").as_int64() == 1);
  CHECK(deleted.at("customer_profiles").as_int64() == 1);
  CHECK(deleted.at("team_memberships").as_int64() == 1);
  CHECK(deleted.at("api_keys").as_int64() == 1);

  // internal state: every table holding the organization's id, counted
  // directly (the footprint the route answered plus what it does not list).
  const char* per_org[] = {"SELECT COUNT(*) FROM organizations WHERE id = ?",
                           "SELECT COUNT(*) FROM memberships WHERE org_id = ?",
                           "SELECT COUNT(*) FROM projects WHERE org_id = ?",
                           "SELECT COUNT(*) FROM capture_keys WHERE org_id = ?",
                           "SELECT COUNT(*) FROM bugs WHERE org_id = ?",
                           "SELECT COUNT(*) FROM occurrences WHERE org_id = ?",
                           "SELECT COUNT(*) FROM comments WHERE org_id = ?",
                           "SELECT COUNT(*) FROM status_history WHERE org_id = ?",
                           "SELECT COUNT(*) FROM notifications WHERE org_id = ?",
                           "SELECT COUNT(*) FROM watchers WHERE org_id = ?",
                           "SELECT COUNT(*) FROM notification_preferences WHERE org_id = ?",
                           "SELECT COUNT(*) FROM end_users WHERE org_id = ?",
                           "SELECT COUNT(*) FROM usage_counters WHERE org_id = ?",
                           "SELECT COUNT(*) FROM presence WHERE org_id = ?",
                           "SELECT COUNT(*) FROM integrations WHERE org_id = ?",
                           "SELECT COUNT(*) FROM integration_deliveries WHERE org_id = ?",
                           "SELECT COUNT(*) FROM ai_usage WHERE org_id = ?",
                           "SELECT COUNT(*) FROM customer_profiles WHERE org_id = ?",
                           "SELECT COUNT(*) FROM invitations WHERE org_id = ?",
                           "SELECT COUNT(*) FROM waitlist WHERE target_org_id = ?",
                           "SELECT COUNT(*) FROM users WHERE last_org_id = ?"};
  for (const char* sql : per_org) {
    CAPTURE(sql);
    CHECK(QueryInt(*t, sql, {org}) == 0);
  }
  // The other organization is untouched.
  auto other = t->Get("/v1/admin/customers/" + keep.admin.org_id, Bearer(root.access_token));
  REQUIRE(other.status == 200);
  CHECK(other.json.at("customer").at("counts").at("bugs").as_int64() == 1);
  CHECK(t->Get("/v1/admin/customers/" + org, Bearer(root.access_token)).status == 404);
  // Deleting again: 404.
  CHECK(
      t->Post(path, json::object{{"orgId", org}, {"confirmOrgId", org}}, Bearer(root.access_token)).status ==
      404);
  CHECK(Sum(deleted) > 8);
}

}  // namespace
}  // namespace service::testing
