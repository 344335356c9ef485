// Team (Spec 1 "Team") and invitations (/v1/auth/invitations/*): the member
// list, invite with its envelope and limits, the invitation flow end to end
// through a real mail file, role changes, removal, and role enforcement.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "areas/mail/app/mail.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/api_harness.h"
#include "support/capture_fixture.h"
#include "support/triage_fixture.h"
#include "util/time.h"

namespace {

namespace json = boost::json;
using service::testing::Account;
using service::testing::AddComment;
using service::testing::AddMember;
using service::testing::AddWatcher;
using service::testing::AssignBug;
using service::testing::Bearer;
using service::testing::BearerOrg;
using service::testing::ExecSql;
using service::testing::kTestPassword;
using service::testing::NewAccountsService;
using service::testing::QueryInt;
using service::testing::RegisterAccount;
using service::testing::SetNotificationPreferences;
using service::testing::Str;
using service::testing::TestService;
using service::testing::TokenAfter;
using service::testing::WithFileMail;

// The row of GET /v1/team for `id` (members who joined in the same
// millisecond have no defined order).
// GET /v1/team as `admin` in their organization; REQUIREs 200.
json::value Team(TestService& t, const Account& admin) {
  auto r = t.Get("/v1/team", BearerOrg(admin.access_token, admin.org_id));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}

// How many members of `admin`'s organization GET /v1/team lists with `field` == `value`.
size_t CountMembers(TestService& t, const Account& admin, const char* field, const std::string& value) {
  const json::value team = Team(t, admin);
  size_t n = 0;
  for (const auto& m : team.at("members").as_array())
    if (m.at(field).as_string() == value) ++n;
  return n;
}

const json::value& MemberById(const json::value& team, const std::string& id) {
  for (const auto& m : team.at("members").as_array()) {
    if (m.at("id").as_string() == id) return m;
  }
  FAIL("member " << id << " not listed");
  static const json::value kNull;
  return kNull;
}

json::object Invite(const Account& admin, const std::string& email, const std::string& role = "member") {
  return {{"email", email}, {"role", role}, {"orgId", admin.org_id}};
}

TEST_CASE("invitation end to end through a real mail file: invite, read the link, inspect, accept, sign in") {
  const std::string dir = service::testing::FreshTempDir("acc-invite");
  auto t = NewAccountsService(WithFileMail(dir));
  const Account admin = RegisterAccount(*t, "admin@example.com", "Invite Org");

  auto inv = t->Post("/v1/team/invite", Invite(admin, "New.Person@Example.com", "manager"),
                     BearerOrg(admin.access_token, admin.org_id));
  REQUIRE_MESSAGE(inv.status == 201, inv.body);
  CHECK(inv.json.at("success") == true);
  const std::string user_id(inv.json.at("userId").as_string());
  const auto& invitation = inv.json.at("invitation").as_object();
  CHECK(invitation.at("state") == "pending");
  CHECK(invitation.at("emailStatus") == "queued");
  CHECK(service::util::ParseIso8601(std::string(invitation.at("expiresAt").as_string())).value() ==
        t->clock().NowMillis() + int64_t{7} * 24 * 3600 * 1000);
  // Setup secrets are never returned.
  CHECK(inv.body.find("token") == std::string::npos);
  CHECK(invitation.size() == 3);

  // The mail worker delivers it as an .eml file; the link carries the token
  // in its fragment.
  REQUIRE(
      service::internal::PlatformOf(t->service()).Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  std::string message;
  for (const auto& m : service::testing::ReadMailDir(dir)) {
    if (m.find("To: new.person@example.com") != std::string::npos) message = m;
  }
  REQUIRE_FALSE(message.empty());
  CHECK(message.find("Subject: You are invited to join Invite Org") != std::string::npos);
  CHECK(message.find("https://bugs.example.com/invite#token=") != std::string::npos);
  const std::string token = TokenAfter(message, "/invite#token=");
  REQUIRE(token.size() == 64);

  auto team = t->Get("/v1/team", BearerOrg(admin.access_token, admin.org_id));
  REQUIRE(team.status == 200);
  REQUIRE(team.json.at("members").as_array().size() == 2);
  const json::value& pending = MemberById(team.json, user_id);
  CHECK(Str(pending.at("id")) == user_id);
  CHECK(pending.at("state") == "pending");
  CHECK(pending.at("role") == "manager");
  CHECK(pending.at("lastLoginAt").is_null());

  auto inspect = t->Post("/v1/auth/invitations/inspect", json::object{{"token", token}});
  REQUIRE(inspect.status == 200);
  CHECK(inspect.json.at("orgName") == "Invite Org");
  CHECK(inspect.json.at("email") == "new.person@example.com");
  CHECK(inspect.json.at("expiresAt") == invitation.at("expiresAt"));

  // Wrong email: refused, and the token stays usable.
  auto wrong_email = t->Post(
      "/v1/auth/invitations/accept",
      json::object{{"token", token}, {"email", "someone@example.com"}, {"newPassword", kTestPassword}});
  CHECK(wrong_email.status == 400);
  CHECK(wrong_email.json.at("code") == "INVITATION_INVALID");
  auto short_pw =
      t->Post("/v1/auth/invitations/accept",
              json::object{{"token", token}, {"email", "new.person@example.com"}, {"newPassword", "short"}});
  CHECK(short_pw.status == 400);
  CHECK(short_pw.json.at("error") == "Validation failed");

  auto accept = t->Post(
      "/v1/auth/invitations/accept",
      json::object{{"token", token}, {"email", "NEW.person@example.com"}, {"newPassword", kTestPassword}});
  REQUIRE_MESSAGE(accept.status == 200, accept.body);
  CHECK(accept.json.at("success") == true);
  CHECK(Str(accept.json.at("orgId")) == admin.org_id);
  CHECK(accept.json.at("orgName") == "Invite Org");
  CHECK(accept.json.at("message").is_string());

  auto login = t->Post("/v1/auth/login",
                       json::object{{"email", "new.person@example.com"}, {"password", kTestPassword}});
  REQUIRE_MESSAGE(login.status == 200, login.body);
  CHECK(Str(login.json.at("org").at("id")) == admin.org_id);
  auto me = t->Get("/v1/auth/me", Bearer(std::string(login.json.at("accessToken").as_string())));
  CHECK(me.json.at("email_verified") == true);
  CHECK(me.json.at("orgs").at(0).at("role") == "manager");

  // Reused: refused for inspect and accept alike.
  CHECK(t->Post("/v1/auth/invitations/inspect", json::object{{"token", token}}).json.at("code") ==
        "INVITATION_INVALID");
  auto reused = t->Post("/v1/auth/invitations/accept", json::object{{"token", token},
                                                                    {"email", "new.person@example.com"},
                                                                    {"newPassword", "another password!"}});
  CHECK(reused.status == 400);
  CHECK(reused.json.at("code") == "INVITATION_INVALID");
  auto listed = t->Get("/v1/team", BearerOrg(admin.access_token, admin.org_id));
  CHECK(MemberById(listed.json, user_id).at("state") == "active");
  CHECK(MemberById(listed.json, user_id).at("lastLoginAt").is_string());
}

TEST_CASE("invitation links: malformed, expired and replaced by a resend are invalid") {
  auto t = NewAccountsService(WithFileMail(service::testing::FreshTempDir("acc-inv2")));
  const Account admin = RegisterAccount(*t, "admin2@example.com");
  for (const json::value& bad :
       {json::value(nullptr), json::value("abc"), json::value(std::string(64, '0')), json::value(5)}) {
    auto r = t->Post("/v1/auth/invitations/inspect", json::object{{"token", bad}});
    CHECK(r.status == 400);
    CHECK(r.json.at("code") == "INVITATION_INVALID");
  }
  REQUIRE(t->Post("/v1/team/invite", Invite(admin, "late@example.com"),
                  BearerOrg(admin.access_token, admin.org_id))
              .status == 201);
  const std::string first =
      TokenAfter(service::testing::LastQueuedMailText(*t, "late@example.com"), "#token=");
  t->clock().Advance(1);  // mails to one address sort by time
  auto resend = t->Post(
      "/v1/team/invite",
      json::object{
          {"email", "late@example.com"}, {"role", "admin"}, {"orgId", admin.org_id}, {"resend", true}},
      BearerOrg(admin.access_token, admin.org_id));
  REQUIRE_MESSAGE(resend.status == 201, resend.body);
  CHECK(resend.json.at("invitation").at("state") == "pending");
  const std::string second =
      TokenAfter(service::testing::LastQueuedMailText(*t, "late@example.com"), "#token=");
  REQUIRE(second.size() == 64);
  CHECK(second != first);
  // The earlier setup link no longer works; the role stayed member.
  CHECK(t->Post("/v1/auth/invitations/inspect", json::object{{"token", first}}).status == 400);
  CHECK(CountMembers(*t, admin, "role", "member") == 1);

  // Resend needs an existing membership.
  auto nobody =
      t->Post("/v1/team/invite",
              json::object{{"email", "nobody@example.com"}, {"orgId", admin.org_id}, {"resend", true}},
              BearerOrg(admin.access_token, admin.org_id));
  CHECK(nobody.status == 400);
  t->clock().Advance(int64_t{7} * 24 * 3600 * 1000);
  CHECK(t->Post("/v1/auth/invitations/inspect", json::object{{"token", second}}).status == 400);
  auto expired =
      t->Post("/v1/auth/invitations/accept",
              json::object{{"token", second}, {"email", "late@example.com"}, {"newPassword", kTestPassword}});
  CHECK(expired.status == 400);
  CHECK(expired.json.at("code") == "INVITATION_INVALID");
  // The invitee stays a pending account (a week later: the admin signs in again).
  Account later = admin;
  auto login = t->Post("/v1/auth/login", json::object{{"email", admin.email}, {"password", admin.password}});
  REQUIRE_MESSAGE(login.status == 200, login.body);
  later.access_token = Str(login.json.at("accessToken"));
  const json::value team = Team(*t, later);
  size_t pending = 0;
  for (const auto& m : team.at("members").as_array())
    if (m.at("email") == "late@example.com" && m.at("state") == "pending") ++pending;
  CHECK(pending == 1);
}

TEST_CASE("accepting never overwrites an active account's password, and a removed member's link is dead") {
  auto t = NewAccountsService(WithFileMail(service::testing::FreshTempDir("acc-inv3")));
  const Account admin = RegisterAccount(*t, "owner@example.com", "Owner Org");
  const Account other = RegisterAccount(*t, "active@example.com", "Other Org");
  // A pending invitee of one organization...
  REQUIRE(t->Post("/v1/team/invite", Invite(admin, "twice@example.com"),
                  BearerOrg(admin.access_token, admin.org_id))
              .status == 201);
  const std::string token1 =
      TokenAfter(service::testing::LastQueuedMailText(*t, "twice@example.com"), "#token=");
  // ... invited to a second one too.
  t->clock().Advance(1);
  REQUIRE(t->Post("/v1/team/invite", Invite(other, "twice@example.com"),
                  BearerOrg(other.access_token, other.org_id))
              .status == 201);
  const std::string token2 =
      TokenAfter(service::testing::LastQueuedMailText(*t, "twice@example.com"), "#token=");
  REQUIRE(
      t->Post("/v1/auth/invitations/accept",
              json::object{{"token", token1}, {"email", "twice@example.com"}, {"newPassword", kTestPassword}})
          .status == 200);
  // The second acceptance only adds the membership: the password stays.
  auto join = t->Post("/v1/auth/invitations/accept", json::object{{"token", token2},
                                                                  {"email", "twice@example.com"},
                                                                  {"newPassword", "an attacker password"}});
  REQUIRE_MESSAGE(join.status == 200, join.body);
  CHECK(Str(join.json.at("orgId")) == other.org_id);
  CHECK(t->Post("/v1/auth/login", json::object{{"email", "twice@example.com"}, {"password", kTestPassword}})
            .status == 200);
  CHECK(t->Post("/v1/auth/login",
                json::object{{"email", "twice@example.com"}, {"password", "an attacker password"}})
            .status == 401);

  // Invite, then remove before acceptance: the link dies with the membership.
  auto inv = t->Post("/v1/team/invite", Invite(admin, "removed@example.com"),
                     BearerOrg(admin.access_token, admin.org_id));
  REQUIRE(inv.status == 201);
  const std::string token3 =
      TokenAfter(service::testing::LastQueuedMailText(*t, "removed@example.com"), "#token=");
  REQUIRE(t->Delete("/v1/team/" + std::string(inv.json.at("userId").as_string()),
                    BearerOrg(admin.access_token, admin.org_id))
              .status == 200);
  auto dead = t->Post(
      "/v1/auth/invitations/accept",
      json::object{{"token", token3}, {"email", "removed@example.com"}, {"newPassword", kTestPassword}});
  CHECK(dead.status == 400);
  CHECK(dead.json.at("code") == "INVITATION_INVALID");
}

TEST_CASE("invite: envelope without mail, validation, org mismatch, existing member, plan limit") {
  auto t = NewAccountsService();  // no mail provider
  const Account admin = RegisterAccount(*t, "limits@example.com");
  const Account stranger = RegisterAccount(*t, "stranger@example.com", "Stranger Org");
  const auto auth = BearerOrg(admin.access_token, admin.org_id);

  auto r =
      t->Post("/v1/team/invite", json::object{{"email", "first@example.com"}, {"orgId", admin.org_id}}, auth);
  REQUIRE(r.status == 201);
  CHECK(r.json.at("invitation").at("emailStatus") == "unavailable");
  CHECK(r.json.at("invitation").at("state") == "pending");
  CHECK(r.json.at("invitation").at("expiresAt").is_string());
  // The membership stays although no mail could be queued (default role member).
  CHECK(CountMembers(*t, admin, "role", "member") == 1);

  auto active =
      t->Post("/v1/team/invite", json::object{{"email", stranger.email}, {"orgId", admin.org_id}}, auth);
  REQUIRE(active.status == 201);
  CHECK(Str(active.json.at("userId")) == stranger.user_id);
  CHECK(active.json.at("invitation").at("state") == "active");
  CHECK(active.json.at("invitation").at("expiresAt").is_null());

  auto bad =
      t->Post("/v1/team/invite",
              json::object{{"email", "x"}, {"role", "owner"}, {"orgId", "nope"}, {"resend", "yes"}}, auth);
  REQUIRE(bad.status == 400);
  std::set<std::string> fields;
  for (const auto& d : bad.json.at("details").as_array())
    fields.insert(std::string(d.at("field").as_string()));
  CHECK(fields == std::set<std::string>{"email", "role", "orgId", "resend"});

  auto mismatch =
      t->Post("/v1/team/invite", json::object{{"email", "m@example.com"}, {"orgId", stranger.org_id}}, auth);
  CHECK(mismatch.status == 403);
  CHECK(mismatch.json.at("error") == "Organization mismatch");

  CHECK(
      t->Post("/v1/team/invite", json::object{{"email", "first@example.com"}, {"orgId", admin.org_id}}, auth)
          .status == 409);

  // Free plan: 5 members. Admin + 2 now; two more fit, the sixth does not.
  CHECK(t->Post("/v1/team/invite", json::object{{"email", "m3@example.com"}, {"orgId", admin.org_id}}, auth)
            .status == 201);
  CHECK(t->Post("/v1/team/invite", json::object{{"email", "m4@example.com"}, {"orgId", admin.org_id}}, auth)
            .status == 201);
  auto limit =
      t->Post("/v1/team/invite", json::object{{"email", "m5@example.com"}, {"orgId", admin.org_id}}, auth);
  REQUIRE(limit.status == 402);
  CHECK(limit.json.at("error").is_string());
  CHECK(limit.json.at("limit") == 5);
  CHECK(limit.json.at("current") == 5);
  CHECK(limit.json.at("plan") == "free");
  CHECK(limit.json.at("upgradeUrl").is_string());
  CHECK(CountMembers(*t, admin, "email", "m5@example.com") == 0);
  // internal state: no account row is left behind either (no route reads an account by email).
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM users WHERE email = 'm5@example.com'") == 0);
}

TEST_CASE("role changes: admin or manager, no self-downgrade to viewer, 404, last admin stays") {
  auto t = NewAccountsService(WithFileMail(service::testing::FreshTempDir("acc-roles")));
  const Account admin = RegisterAccount(*t, "radmin@example.com");
  const Account manager = AddMember(*t, admin, "rmanager@example.com", "manager");
  const Account member = AddMember(*t, admin, "rmember@example.com", "member");
  const auto as_admin = BearerOrg(admin.access_token, admin.org_id);
  const auto as_manager = BearerOrg(manager.access_token, admin.org_id);

  auto ok = t->Patch("/v1/team/" + member.user_id, json::object{{"role", "tester"}}, as_manager);
  REQUIRE_MESSAGE(ok.status == 200, ok.body);
  CHECK(ok.json.at("success") == true);
  CHECK(Str(ok.json.at("membership").at("org_id")) == admin.org_id);
  CHECK(Str(ok.json.at("membership").at("user_id")) == member.user_id);
  CHECK(ok.json.at("membership").at("role") == "tester");

  auto bad_role = t->Patch("/v1/team/" + member.user_id, json::object{{"role", "owner"}}, as_admin);
  CHECK(bad_role.status == 400);
  CHECK(bad_role.json.at("details").at(0).at("field") == "role");
  auto self_viewer = t->Patch("/v1/team/" + manager.user_id, json::object{{"role", "viewer"}}, as_manager);
  CHECK(self_viewer.status == 400);
  CHECK(self_viewer.json.at("error") == "Cannot downgrade yourself to viewer");
  CHECK(t->Patch("/v1/team/01890000-0000-7000-8000-000000000000", json::object{{"role", "member"}}, as_admin)
            .status == 404);
  CHECK(t->Patch("/v1/team/not-a-uuid", json::object{{"role", "member"}}, as_admin).status == 404);
  // A manager may not touch admins or grant the admin role.
  CHECK(t->Patch("/v1/team/" + admin.user_id, json::object{{"role", "member"}}, as_manager).status == 403);
  CHECK(t->Patch("/v1/team/" + member.user_id, json::object{{"role", "admin"}}, as_manager).status == 403);
  // The only admin cannot step down.
  auto last = t->Patch("/v1/team/" + admin.user_id, json::object{{"role", "manager"}}, as_admin);
  CHECK(last.status == 400);
  CHECK(CountMembers(*t, admin, "role", "admin") == 1);
  // A member of another organization is not found here.
  const Account outsider = RegisterAccount(*t, "outsider@example.com", "Elsewhere");
  CHECK(t->Patch("/v1/team/" + outsider.user_id, json::object{{"role", "member"}}, as_admin).status == 404);
}

TEST_CASE("removal deletes membership, preferences, assignments and watchers of this organization only") {
  auto t = NewAccountsService(WithFileMail(service::testing::FreshTempDir("acc-remove")));
  const Account admin = RegisterAccount(*t, "boss@example.com", "Main");
  const Account member = AddMember(*t, admin, "leaver@example.com", "member");
  // The member also belongs to another organization with its own data.
  const Account other = RegisterAccount(*t, "other@example.com", "Other");
  REQUIRE(t->Post("/v1/team/invite", Invite(other, member.email), BearerOrg(other.access_token, other.org_id))
              .status == 201);
  // In each organization: a bug assigned to and watched by the member, with
  // their comment, and their notification preferences.
  std::map<const Account*, std::string> bugs;
  for (const Account* owner : {&admin, &other}) {
    REQUIRE_FALSE(owner->project_id.empty());
    auto ingested =
        t->Post("/v1/ingest", json::object{{"title", "Bug"}}, {{"X-Service-Key", owner->api_key}});
    REQUIRE_MESSAGE(ingested.status == 201, ingested.body);
    const std::string bug = Str(ingested.json.at("id"));
    bugs[owner] = bug;
    AssignBug(*t, owner->org_id, bug, member.user_id);
    AddWatcher(*t, owner->org_id, bug, member.user_id);
    SetNotificationPreferences(*t, owner->org_id, member.user_id);
    AddComment(*t, owner->org_id, bug, member.user_id, "hi");
  }

  const auto as_admin = BearerOrg(admin.access_token, admin.org_id);
  auto self = t->Delete("/v1/team/" + admin.user_id, as_admin);
  CHECK(self.status == 400);
  CHECK(self.json.at("error") == "Cannot remove yourself");

  auto r = t->Delete("/v1/team/" + member.user_id, as_admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("success") == true);
  CHECK(t->Delete("/v1/team/" + member.user_id, as_admin).status == 404);

  // The account stays with its one other membership.
  auto me = t->Get("/v1/auth/me", Bearer(member.access_token));
  REQUIRE_MESSAGE(me.status == 200, me.body);
  REQUIRE(me.json.at("orgs").as_array().size() == 1);
  CHECK(Str(me.json.at("orgs").at(0).at("orgId")) == other.org_id);
  // internal state: a removed member's preferences and watches in this organization are gone (no route
  // reads them for someone who is no longer a member).
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM notification_preferences WHERE user_id = ? AND org_id = ?",
                 {member.user_id, admin.org_id}) == 0);
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM watchers WHERE user_id = ? AND org_id = ?",
                 {member.user_id, admin.org_id}) == 0);
  const auto as_other = BearerOrg(other.access_token, other.org_id);
  const auto as_member_elsewhere = BearerOrg(member.access_token, other.org_id);
  auto unassigned = t->Get("/v1/bugs?signalClass=all&assignee=unassigned", as_admin);
  REQUIRE(unassigned.status == 200);
  CHECK(unassigned.json.at("total") == 1);
  CHECK(Str(unassigned.json.at("bugs").at(0).at("id")) == bugs[&admin]);
  // Everything else stays: their comments, and all their data in the other organization.
  for (const auto& [owner, bug] : bugs) {
    auto comments = t->Get("/v1/bugs/" + bug + "/comments", BearerOrg(owner->access_token, owner->org_id));
    REQUIRE(comments.status == 200);
    REQUIRE(comments.json.at("comments").as_array().size() == 1);
    CHECK(Str(comments.json.at("comments").at(0).at("user_id")) == member.user_id);
  }
  auto prefs = t->Get("/v1/team/" + member.user_id + "/notifications", as_member_elsewhere);
  REQUIRE_MESSAGE(prefs.status == 200, prefs.body);
  CHECK(prefs.json.at("emailLevel") == "all");  // the level the fixture stored, not the default
  auto watching = t->Get("/v1/bugs/" + bugs[&other] + "/watching", as_member_elsewhere);
  REQUIRE(watching.status == 200);
  CHECK(watching.json.at("watching") == true);
  auto assigned = t->Get("/v1/bugs?signalClass=all&assignee=" + member.user_id, as_other);
  REQUIRE(assigned.status == 200);
  CHECK(assigned.json.at("total") == 1);
  auto assigned_here = t->Get("/v1/bugs?signalClass=all&assignee=" + member.user_id, as_admin);
  REQUIRE(assigned_here.status == 200);
  CHECK(assigned_here.json.at("total") == 0);
  // Their session no longer opens this organization.
  CHECK(t->Get("/v1/team", BearerOrg(member.access_token, admin.org_id)).status == 403);
}

TEST_CASE("role enforcement on the team routes, per role") {
  auto t = NewAccountsService(WithFileMail(service::testing::FreshTempDir("acc-enforce")));
  const Account admin = RegisterAccount(*t, "a@example.com");
  const Account manager = AddMember(*t, admin, "mgr@example.com", "manager");
  const Account member = AddMember(*t, admin, "mem@example.com", "member");
  const Account tester = AddMember(*t, admin, "tst@example.com", "tester");
  const Account viewer = AddMember(*t, admin, "vwr@example.com", "viewer");
  const std::string target = member.user_id;

  struct Expect {
    const Account* who;
    int list, invite, patch, remove;
  };
  // Invite and remove targets are chosen so that success does not change what
  // later rows see.
  const Expect table[] = {
      {&viewer, 200, 403, 403, 403},  {&tester, 200, 403, 403, 403}, {&member, 200, 403, 403, 403},
      {&manager, 200, 402, 200, 404}, {&admin, 200, 402, 200, 404},
  };
  for (const Expect& e : table) {
    CAPTURE(e.who->email);
    const auto auth = BearerOrg(e.who->access_token, admin.org_id);
    CHECK(t->Get("/v1/team", auth).status == e.list);
    // The organization is at the free plan's 5 members: a permitted invite hits the plan limit.
    CHECK(t->Post("/v1/team/invite", Invite(admin, "newcomer@example.com"), auth).status == e.invite);
    const std::string patch_target = e.who == &member ? tester.user_id : target;
    CHECK(t->Patch("/v1/team/" + patch_target, json::object{{"role", "member"}}, auth).status == e.patch);
    CHECK(t->Delete("/v1/team/01890000-0000-7000-8000-00000000dead", auth).status == e.remove);
  }
  // A viewer's read works; managers cannot invite admins.
  auto listed = t->Get("/v1/team", BearerOrg(viewer.access_token, admin.org_id));
  CHECK(listed.json.at("total") == 5);
  // internal state: no route or repository method changes an organization's plan.
  ExecSql(*t, "UPDATE organizations SET plan = 'team'");
  CHECK(t->Post("/v1/team/invite", Invite(admin, "boss2@example.com", "admin"),
                BearerOrg(manager.access_token, admin.org_id))
            .status == 403);
  CHECK(t->Post("/v1/team/invite", Invite(admin, "peer@example.com", "manager"),
                BearerOrg(manager.access_token, admin.org_id))
            .status == 201);
}

}  // namespace
