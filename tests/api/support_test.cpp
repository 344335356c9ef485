// Support sessions (Spec 2 "Superadmin" POST /v1/admin/support/session,
// server contract "Support sessions"): opening one (superadmins only: a
// verified address on SERVICE_SUPERADMIN_EMAILS), acting with an admin's
// rights in that organization only with the session header, the refusals
// (no header, another operator's session, another organization, expired,
// ended, unverified), the log the organization's admins read
// (GET /v1/org/support-sessions) and the organization's deletion taking it.
#include <doctest/doctest.h>

#include <string>

#include "support/accounts.h"
#include "support/api_harness.h"
#include "util/strings.h"
#include "util/time.h"

namespace {

namespace json = boost::json;
using service::testing::Account;
using service::testing::AddMember;
using service::testing::Bearer;
using service::testing::BearerOrg;
using service::testing::HeaderList;
using service::testing::kTestEpochMs;
using service::testing::LastQueuedMailText;
using service::testing::NewAccountsService;
using service::testing::QueryInt;
using service::testing::RegisterAccount;
using service::testing::Str;
using service::testing::TestService;
using service::testing::TokenAfter;
using service::testing::WithFileMail;

constexpr int64_t kHour = int64_t{60} * 60 * 1000;
constexpr const char* kUnknownId = "01900000-0000-7000-8000-00000000abcd";

// A service with a mail provider (verification links) and two allowlisted
// addresses.
std::unique_ptr<TestService> NewSupportService() {
  const std::string dir = service::testing::FreshTempDir("support");
  auto mail = WithFileMail(dir);
  return NewAccountsService([mail](service::Options& o) {
    mail(o);
    o.superadmin_emails = {"root@example.com", "ops@example.com", "lazy@example.com"};
  });
}

// Confirms `a`'s address through the link of its verification mail.
void Verify(TestService& t, const Account& a) {
  const std::string token = TokenAfter(LastQueuedMailText(t, a.email), "/verify-email#token=");
  REQUIRE_MESSAGE(!token.empty(), "no verification mail to " << a.email);
  auto r = t.Post("/v1/auth/verify-email", json::object{{"token", token}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
}

// Signs `a` in again (a fresh access token after the clock moved).
std::string SignIn(TestService& t, const Account& a) {
  auto r = t.Post("/v1/auth/login", json::object{{"email", a.email}, {"password", a.password}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return Str(r.json.at("accessToken"));
}

json::value Start(TestService& t, const std::string& token, const std::string& org_id, int expect = 201) {
  auto r = t.Post("/v1/admin/support/session", json::object{{"orgId", org_id}}, Bearer(token));
  REQUIRE_MESSAGE(r.status == expect, r.body);
  return r.json;
}

HeaderList Under(const std::string& token, const std::string& org_id, const std::string& session_id) {
  HeaderList h = BearerOrg(token, org_id);
  h.emplace_back("X-Service-Support-Session", session_id);
  return h;
}

struct World {
  std::unique_ptr<TestService> t = NewSupportService();
  Account root = RegisterAccount(*t, "root@example.com", "Operators");
  Account customer = RegisterAccount(*t, "owner@customer.example", "Customer Co");
  World() { Verify(*t, root); }
};

TEST_CASE("opening a support session: superadmins only, 400 for a bad orgId, 404 for an unknown one") {
  World w;
  TestService& t = *w.t;
  const int64_t now = t.clock().NowMillis();
  const json::value body = Start(t, w.root.access_token, w.customer.org_id);
  const json::object& s = body.at("session").as_object();
  CHECK(s.size() == 6);
  CHECK(service::util::IsUuid(Str(s.at("id"))));
  CHECK(Str(s.at("orgId")) == w.customer.org_id);
  CHECK(Str(s.at("orgName")) == "Customer Co");
  CHECK(Str(s.at("orgSlug")).find("customer-co") == 0);
  CHECK(Str(s.at("mode")) == "admin");
  CHECK(Str(s.at("expiresAt")) == service::util::FormatIso8601(now + 8 * kHour));
  // The org id in upper case is the same organization.
  std::string upper = w.customer.org_id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(Str(Start(t, w.root.access_token, upper).at("session").at("orgId")) == w.customer.org_id);

  auto missing = t.Post("/v1/admin/support/session", json::object{}, Bearer(w.root.access_token));
  CHECK(missing.status == 400);
  CHECK(Str(missing.json.at("error")) == "orgId required");
  for (const json::value& bad : {json::value("not-a-uuid"), json::value(42), json::value(nullptr)}) {
    auto r = t.Post("/v1/admin/support/session", json::object{{"orgId", bad}}, Bearer(w.root.access_token));
    CHECK_MESSAGE(r.status == 400, json::serialize(bad));
  }
  auto unknown =
      t.Post("/v1/admin/support/session", json::object{{"orgId", kUnknownId}}, Bearer(w.root.access_token));
  CHECK(unknown.status == 404);
  CHECK(Str(unknown.json.at("error")) == "Organization not found");

  // Not a superadmin: an ordinary account (even the organization's own
  // admin), an allowlisted address not yet verified, no token, a capture key.
  const Account lazy = RegisterAccount(t, "lazy@example.com", "Unverified");
  Start(t, w.customer.access_token, w.customer.org_id, 403);
  Start(t, lazy.access_token, w.customer.org_id, 403);
  CHECK(t.Post("/v1/admin/support/session", json::object{{"orgId", w.customer.org_id}}).status == 401);
  CHECK(
      t.Post("/v1/admin/support/session", json::object{{"orgId", w.customer.org_id}}, Bearer("sv_pat_abcdef"))
          .status == 403);
  CHECK(t.Post("/v1/admin/support/session", json::object{{"orgId", w.customer.org_id}},
               {{"X-Service-Key", w.customer.api_key}})
            .status == 403);
}

TEST_CASE(
    "under a support session the superadmin acts as an admin of that organization, and only with the "
    "header") {
  World w;
  TestService& t = *w.t;
  const std::string id = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));

  // Without the header the superadmin is an ordinary user: not a member.
  auto plain = t.Get("/v1/team", BearerOrg(w.root.access_token, w.customer.org_id));
  CHECK(plain.status == 403);
  CHECK(Str(plain.json.at("error")) == "Not a member of this organization");

  auto team = t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, id));
  REQUIRE_MESSAGE(team.status == 200, team.body);
  CHECK(team.json.at("members").as_array().size() == 1);
  // Admin rights: create a project, read the admin-only log.
  auto made = t.Post("/v1/projects", json::object{{"name", "Made by support"}, {"orgId", w.customer.org_id}},
                     Under(w.root.access_token, w.customer.org_id, id));
  CHECK_MESSAGE(made.status == 201, made.body);
  CHECK(Str(made.json.at("org_id")) == w.customer.org_id);
  CHECK(t.Get("/v1/org/support-sessions", Under(w.root.access_token, w.customer.org_id, id)).status == 200);
  // The header's id is case-insensitive, like the organization's.
  std::string upper = id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, upper)).status == 200);
  // Routes without an organization ignore the header.
  CHECK(t.Get("/v1/auth/me", Under(w.root.access_token, w.customer.org_id, id)).status == 200);

  // The session opens that organization only: another one (the
  // superadmin's own included) refuses it.
  auto other_org = t.Get("/v1/team", Under(w.root.access_token, w.root.org_id, id));
  CHECK(other_org.status == 403);
  CHECK(Str(other_org.json.at("error")) == "Support session not found for this organization");
  // Unknown and malformed ids.
  CHECK(t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, kUnknownId)).status == 403);
  CHECK(t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, "garbage")).status == 403);
  // Without X-Service-Org the route still asks for it.
  CHECK(t.Get("/v1/team",
              {{"Authorization", "Bearer " + w.root.access_token}, {"X-Service-Support-Session", id}})
            .status == 400);
}

TEST_CASE(
    "a support session is its operator's: another superadmin, a member, an unverified allowlisted account "
    "get 403") {
  World w;
  TestService& t = *w.t;
  const std::string id = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));

  const Account ops = RegisterAccount(t, "ops@example.com", "Ops");
  Verify(t, ops);
  auto foreign = t.Get("/v1/team", Under(ops.access_token, w.customer.org_id, id));
  CHECK(foreign.status == 403);
  CHECK(Str(foreign.json.at("error")) == "Support session not found for this organization");
  // ops may not end root's session either.
  CHECK(t.Delete("/v1/admin/support/session/" + id, Bearer(ops.access_token)).status == 404);

  // The organization's own admin naming the session: not a superadmin.
  auto member = t.Get("/v1/team", Under(w.customer.access_token, w.customer.org_id, id));
  CHECK(member.status == 403);
  CHECK(Str(member.json.at("error")) == "Support sessions are for superadmins");

  // An allowlisted address that is not verified is nobody's superadmin,
  // even once it holds a session opened while verified... here: never
  // verified, so it can neither open nor use one.
  const Account lazy = RegisterAccount(t, "lazy@example.com", "Lazy");
  CHECK(t.Get("/v1/team", Under(lazy.access_token, w.customer.org_id, id)).status == 403);
}

TEST_CASE("a support session expires after 8 hours and can be ended early") {
  World w;
  TestService& t = *w.t;
  const std::string id = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));

  // Access tokens last an hour: sign in again after moving the clock.
  t.clock().Advance(8 * kHour - 1000);
  std::string token = SignIn(t, w.root);
  CHECK(t.Get("/v1/team", Under(token, w.customer.org_id, id)).status == 200);
  t.clock().Advance(1000);
  auto expired = t.Get("/v1/team", Under(token, w.customer.org_id, id));
  CHECK(expired.status == 403);
  CHECK(Str(expired.json.at("error")) == "Support session expired");
  CHECK(Str(expired.json.at("code")) == "SUPPORT_SESSION_EXPIRED");

  // A new one, ended by its operator: refused at once; ending twice: 404.
  const std::string second = Str(Start(t, token, w.customer.org_id).at("session").at("id"));
  CHECK(t.Get("/v1/team", Under(token, w.customer.org_id, second)).status == 200);
  auto end = t.Delete("/v1/admin/support/session/" + second, Bearer(token));
  CHECK_MESSAGE(end.status == 200, end.body);
  CHECK(end.json.at("success") == true);
  auto ended = t.Get("/v1/team", Under(token, w.customer.org_id, second));
  CHECK(ended.status == 403);
  CHECK(Str(ended.json.at("code")) == "SUPPORT_SESSION_ENDED");
  CHECK(t.Delete("/v1/admin/support/session/" + second, Bearer(token)).status == 404);
  CHECK(t.Delete(std::string("/v1/admin/support/session/") + kUnknownId, Bearer(token)).status == 404);
  CHECK(t.Delete("/v1/admin/support/session/nope", Bearer(token)).status == 404);
  // Ending is a superadmin route.
  CHECK(t.Delete("/v1/admin/support/session/" + second, Bearer(SignIn(t, w.customer))).status == 403);
}

TEST_CASE("a member superadmin acts under the session when it names one: admin rights, recorded") {
  World w;
  TestService& t = *w.t;
  // root joins the customer's organization as a viewer.
  const Account viewer_root = [&] {
    auto inv =
        t.Post("/v1/team/invite",
               json::object{{"email", "root@example.com"}, {"role", "viewer"}, {"orgId", w.customer.org_id}},
               BearerOrg(w.customer.access_token, w.customer.org_id));
    REQUIRE_MESSAGE(inv.status == 201, inv.body);
    return w.root;
  }();
  // An existing account joins at once; as a viewer it may not invite.
  const json::value invite{{"email", "x@customer.example"}, {"role", "member"}, {"orgId", w.customer.org_id}};
  CHECK(t.Post("/v1/team/invite", invite, BearerOrg(viewer_root.access_token, w.customer.org_id)).status ==
        403);
  const std::string id = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));
  auto as_admin = t.Post("/v1/team/invite", invite, Under(w.root.access_token, w.customer.org_id, id));
  CHECK_MESSAGE(as_admin.status == 201, as_admin.body);

  auto log = t.Get("/v1/org/support-sessions", BearerOrg(w.customer.access_token, w.customer.org_id));
  REQUIRE_MESSAGE(log.status == 200, log.body);
  REQUIRE(log.json.at("activity").as_array().size() == 1);
  CHECK(Str(log.json.at("activity").at(0).at("path")) == "/v1/team/invite");
  CHECK(Str(log.json.at("activity").at(0).at("method")) == "POST");
}

TEST_CASE("the organization's admins see every request made under a support session, members do not") {
  World w;
  TestService& t = *w.t;
  const Account member = AddMember(t, w.customer, "member@customer.example", "member");
  const Account manager = AddMember(t, w.customer, "manager@customer.example", "manager");
  const Account other = RegisterAccount(t, "admin@other.example", "Other Co");

  const std::string first = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));
  t.clock().Advance(1000);
  CHECK(t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, first)).status == 200);
  t.clock().Advance(1000);
  CHECK(t.Get("/v1/projects", Under(w.root.access_token, w.customer.org_id, first)).status == 200);
  t.clock().Advance(1000);
  // A refused request is recorded too: it was made under the session.
  auto bad = t.Patch("/v1/team/" + w.customer.user_id, json::object{{"role", "nonsense"}},
                     Under(w.root.access_token, w.customer.org_id, first));
  CHECK(bad.status == 400);
  t.clock().Advance(1000);
  CHECK(t.Delete("/v1/admin/support/session/" + first, Bearer(w.root.access_token)).status == 200);
  t.clock().Advance(1000);
  const json::value second_body = Start(t, w.root.access_token, w.customer.org_id);
  const std::string second = Str(second_body.at("session").at("id"));
  t.clock().Advance(1000);
  CHECK(t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, second)).status == 200);
  // Refused requests (ended session, wrong organization) are not the
  // organization's activity.
  CHECK(t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, first)).status == 403);

  auto log = t.Get("/v1/org/support-sessions", BearerOrg(w.customer.access_token, w.customer.org_id));
  REQUIRE_MESSAGE(log.status == 200, log.body);
  const json::array& sessions = log.json.at("sessions").as_array();
  REQUIRE(sessions.size() == 2);
  CHECK(Str(sessions.at(0).at("id")) == second);  // newest first
  CHECK(Str(sessions.at(0).at("operatorEmail")) == "root@example.com");
  CHECK(Str(sessions.at(0).at("mode")) == "admin");
  CHECK(sessions.at(0).at("active") == true);
  CHECK(sessions.at(0).at("endedAt").is_null());
  CHECK(sessions.at(0).at("requests") == 1);
  CHECK(Str(sessions.at(0).at("expiresAt")) == Str(second_body.at("session").at("expiresAt")));
  CHECK(Str(sessions.at(1).at("id")) == first);
  CHECK(sessions.at(1).at("active") == false);
  CHECK(Str(sessions.at(1).at("endedAt")) == service::util::FormatIso8601(kTestEpochMs + 4000));
  CHECK(sessions.at(1).at("requests") == 3);
  CHECK(Str(sessions.at(1).at("lastRequestAt")) == service::util::FormatIso8601(kTestEpochMs + 3000));
  const json::array& activity = log.json.at("activity").as_array();
  REQUIRE(activity.size() == 4);
  CHECK(Str(activity.at(0).at("sessionId")) == second);
  CHECK(Str(activity.at(0).at("path")) == "/v1/team");
  CHECK(Str(activity.at(0).at("ts")) == service::util::FormatIso8601(kTestEpochMs + 6000));
  CHECK(Str(activity.at(1).at("method")) == "PATCH");
  CHECK(Str(activity.at(1).at("path")) == "/v1/team/:userId");  // the pattern, not the id
  CHECK(Str(activity.at(2).at("path")) == "/v1/projects");
  CHECK(Str(activity.at(3).at("path")) == "/v1/team");
  CHECK(Str(activity.at(3).at("sessionId")) == first);

  // Bounded: ?limit (default 50, larger values taken as 200, below 1: 400).
  auto one = t.Get("/v1/org/support-sessions?limit=1", BearerOrg(w.customer.access_token, w.customer.org_id));
  CHECK(one.json.at("sessions").as_array().size() == 1);
  CHECK(one.json.at("activity").as_array().size() == 1);
  CHECK(t.Get("/v1/org/support-sessions?limit=5000", BearerOrg(w.customer.access_token, w.customer.org_id))
            .json.at("limit") == 200);
  CHECK(t.Get("/v1/org/support-sessions", BearerOrg(w.customer.access_token, w.customer.org_id))
            .json.at("limit") == 50);
  CHECK(t.Get("/v1/org/support-sessions?limit=0", BearerOrg(w.customer.access_token, w.customer.org_id))
            .status == 400);
  CHECK(t.Get("/v1/org/support-sessions?limit=x", BearerOrg(w.customer.access_token, w.customer.org_id))
            .status == 400);

  // Admins only.
  CHECK(t.Get("/v1/org/support-sessions", BearerOrg(member.access_token, w.customer.org_id)).status == 403);
  CHECK(t.Get("/v1/org/support-sessions", BearerOrg(manager.access_token, w.customer.org_id)).status == 403);
  // Another organization's admin sees their own (none).
  auto theirs = t.Get("/v1/org/support-sessions", BearerOrg(other.access_token, other.org_id));
  REQUIRE(theirs.status == 200);
  CHECK(theirs.json.at("sessions").as_array().empty());
  CHECK(theirs.json.at("activity").as_array().empty());
  CHECK(t.Get("/v1/org/support-sessions", BearerOrg(other.access_token, w.customer.org_id)).status == 403);
}

TEST_CASE(
    "deleting the organization deletes its support sessions and their log, a deleted operator's stay "
    "unusable") {
  World w;
  TestService& t = *w.t;
  const std::string id = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));
  CHECK(t.Get("/v1/team", Under(w.root.access_token, w.customer.org_id, id)).status == 200);

  // The customer deletes their account: their organization (no other
  // member) goes with it.
  t.clock().Advance(1);  // mails to one address sort by time
  REQUIRE(t.Post("/v1/auth/data-delete/request", json::object{}, Bearer(w.customer.access_token)).status ==
          202);
  const std::string token = TokenAfter(LastQueuedMailText(t, w.customer.email), "/delete-account#token=");
  auto done = t.Post("/v1/auth/data-delete/confirm", json::object{{"token", token}});
  REQUIRE_MESSAGE(done.status == 200, done.body);
  REQUIRE(done.json.at("deletedOrganizations") == json::array{json::value(w.customer.org_id)});
  // internal state: nothing reads a deleted organization's rows back.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM support_sessions WHERE org_id = ?", {w.customer.org_id}) == 0);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM support_requests WHERE org_id = ?", {w.customer.org_id}) == 0);

  // An operator whose account is deleted: the organization keeps the record
  // (with the address), no longer active.
  const Account second = RegisterAccount(t, "second@customer.example", "Second Co");
  const Account ops = RegisterAccount(t, "ops@example.com", "Ops Home");
  Verify(t, ops);
  const std::string ops_session = Str(Start(t, ops.access_token, second.org_id).at("session").at("id"));
  CHECK(t.Get("/v1/team", Under(ops.access_token, second.org_id, ops_session)).status == 200);
  t.clock().Advance(1);
  REQUIRE(t.Post("/v1/auth/data-delete/request", json::object{}, Bearer(ops.access_token)).status == 202);
  const std::string ops_token = TokenAfter(LastQueuedMailText(t, ops.email), "/delete-account#token=");
  REQUIRE(t.Post("/v1/auth/data-delete/confirm", json::object{{"token", ops_token}}).status == 200);
  auto log = t.Get("/v1/org/support-sessions", BearerOrg(second.access_token, second.org_id));
  REQUIRE(log.status == 200);
  REQUIRE(log.json.at("sessions").as_array().size() == 1);
  CHECK(Str(log.json.at("sessions").at(0).at("operatorEmail")) == "ops@example.com");
  CHECK(log.json.at("sessions").at(0).at("active") == false);
  CHECK(log.json.at("sessions").at(0).at("requests") == 1);
}

}  // namespace

namespace {

TEST_CASE("routes Spec 2 closes to support sessions refuse them: the budget") {
  World w;
  TestService& t = *w.t;
  const std::string id = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));
  const HeaderList own = BearerOrg(w.customer.access_token, w.customer.org_id);
  REQUIRE(t.Get("/v1/billing/budget", own).status == 200);
  auto read = t.Get("/v1/billing/budget", Under(w.root.access_token, w.customer.org_id, id));
  CHECK(read.status == 403);
  t.clock().Advance(1000);  // the log orders by time, then by id (random within a millisecond)
  auto write = t.Request("PUT", "/v1/billing/budget", R"({"monthlyBudgetCents": 500})",
                         Under(w.root.access_token, w.customer.org_id, id));
  CHECK(write.status == 403);
  // The organization's own admin may; the operator's attempts are on record.
  CHECK(t.Request("PUT", "/v1/billing/budget", R"({"monthlyBudgetCents": 500})", own).status == 200);
  auto log = t.Get("/v1/org/support-sessions", own);
  REQUIRE(log.status == 200);
  CHECK(log.json.at("sessions").at(0).at("requests") == 2);
  CHECK(Str(log.json.at("activity").at(0).at("method")) == "PUT");
  CHECK(Str(log.json.at("activity").at(0).at("path")) == "/v1/billing/budget");
}

TEST_CASE("routes Spec 2 closes to support sessions refuse them: digest decisions") {
  World w;
  TestService& t = *w.t;
  const std::string id = Str(Start(t, w.root.access_token, w.customer.org_id).at("session").at("id"));
  const json::object body{{"projectId", "00000000-0000-4000-8000-000000000001"},
                          {"requestId", "00000000-0000-4000-8000-000000000002"},
                          {"expectedGeneration", 0},
                          {"action", "received"}};
  auto r = t.Post("/v1/alerts/digests/00000000-0000-4000-8000-000000000003/resolution", body,
                  Under(w.root.access_token, w.customer.org_id, id));
  CHECK(r.status == 403);
  CHECK(Str(r.json.at("error")) == "Support sessions cannot decide on digests");
  // The organization's own member reaches the route (no such batch here).
  CHECK(t.Post("/v1/alerts/digests/00000000-0000-4000-8000-000000000003/resolution", body,
               BearerOrg(w.customer.access_token, w.customer.org_id))
            .status == 404);
}

}  // namespace
