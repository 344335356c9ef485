// What's new, data export and account deletion (/v1/auth/whats-new,
// /v1/auth/data-export, /v1/auth/data-delete/*).
#include <doctest/doctest.h>

#include <set>

#include "areas/mail/app/mail.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/api_harness.h"
#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace {

namespace json = boost::json;
using service::testing::Account;
using service::testing::AddComment;
using service::testing::AddMember;
using service::testing::AddNotification;
using service::testing::AddWatcher;
using service::testing::AssignBug;
using service::testing::Bearer;
using service::testing::BearerOrg;
using service::testing::NewAccountsService;
using service::testing::QueryInt;
using service::testing::RegisterAccount;
using service::testing::SetBugStatus;
using service::testing::SetNotificationPreferences;
using service::testing::Str;
using service::testing::TestService;
using service::testing::TokenAfter;
using service::testing::WithFileMail;

// A new bug in the account's first project, reported through POST /v1/ingest
// with its live key, or with a new test key of that project (`key_env` "test").
std::string AddBug(TestService& t, const Account& a, const std::string& title,
                   const std::string& severity = "high", const std::string& key_env = "live") {
  std::string key = a.api_key;
  if (key_env != "live") {
    auto k = t.Post("/v1/projects/" + a.project_id + "/keys", json::object{{"env", key_env}},
                    BearerOrg(a.access_token, a.org_id));
    REQUIRE_MESSAGE(k.status == 201, k.body);
    key = Str(k.json.at("key"));
  }
  auto r =
      t.Post("/v1/ingest", json::object{{"title", title}, {"severity", severity}}, {{"X-Service-Key", key}});
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return Str(r.json.at("id"));
}

// POST /v1/auth/login: a new sign-in; its access token.
std::string SignIn(TestService& t, const Account& a) {
  auto r = t.Post("/v1/auth/login", json::object{{"email", a.email}, {"password", a.password}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return Str(r.json.at("accessToken"));
}

TEST_CASE("whats-new: firstLogin only while the session is the account's first sign-in") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "first@example.com");  // signing up is the first sign-in
  const auto first_session = BearerOrg(a.access_token, a.org_id);
  const json::value first_login = json::parse(R"({"items":[],"firstLogin":true})");
  CHECK(t->Get("/v1/auth/whats-new", first_session).json == first_login);
  t->clock().Advance(1000);
  AddBug(*t, a, "While still in the first session");
  // Reading the feed does not end the first sign-in, and neither do a
  // refresh or an organization switch of that session.
  CHECK(t->Get("/v1/auth/whats-new", first_session).json == first_login);
  auto refreshed = t->Post("/v1/auth/refresh", json::object{{"refreshToken", a.refresh_token}});
  REQUIRE(refreshed.status == 200);
  CHECK(t->Get("/v1/auth/whats-new", BearerOrg(Str(refreshed.json.at("accessToken")), a.org_id)).json ==
        first_login);
  auto switched = t->Post("/v1/auth/switch-org", json::object{{"orgId", a.org_id}}, first_session);
  REQUIRE_MESSAGE(switched.status == 200, switched.body);
  CHECK(t->Get("/v1/auth/whats-new", BearerOrg(Str(switched.json.at("accessToken")), a.org_id)).json ==
        first_login);

  // A second sign-in: the feed with its counts, since the later of the
  // previous sign-in and the last read (the read above, after the bug).
  t->clock().Advance(1000);
  const std::string second = SignIn(*t, a);
  auto feed = t->Get("/v1/auth/whats-new", BearerOrg(second, a.org_id));
  REQUIRE_MESSAGE(feed.status == 200, feed.body);
  CHECK_FALSE(feed.json.as_object().contains("firstLogin"));
  CHECK(feed.json.at("items").as_array().empty());
  CHECK(feed.json.at("counts") == json::parse(R"({"newBugs":0,"regressions":0,"resolved":0})"));
  CHECK(Str(feed.json.at("since")) == "2026-01-15T10:00:01.000Z");
  // The first session is still the first sign-in.
  CHECK(t->Get("/v1/auth/whats-new", first_session).json == first_login);

  // Someone who signed in twice and never opened the feed: since the
  // previous sign-in.
  const Account b = RegisterAccount(*t, "twice@example.com", "Twice");
  t->clock().Advance(1000);
  const std::string bug = AddBug(*t, b, "Since the signup");
  t->clock().Advance(1000);
  auto twice = t->Get("/v1/auth/whats-new", BearerOrg(SignIn(*t, b), b.org_id));
  REQUIRE(twice.status == 200);
  CHECK_FALSE(twice.json.as_object().contains("firstLogin"));
  REQUIRE(twice.json.at("items").as_array().size() == 1);
  CHECK(Str(twice.json.at("items").at(0).at("id")) == bug);
  CHECK(twice.json.at("counts").at("newBugs") == 1);
  CHECK(Str(twice.json.at("since")) == "2026-01-15T10:00:02.000Z");
}

TEST_CASE(
    "whats-new: first sign-in, no workspace, then new bugs, regressions and resolutions since the last "
    "read") {
  auto t = NewAccountsService();
  Account a = RegisterAccount(*t, "news@example.com");
  const Account stranger = RegisterAccount(*t, "stranger@example.com", "Stranger");

  auto none = t->Get("/v1/auth/whats-new", Bearer(a.access_token));
  REQUIRE(none.status == 200);
  CHECK(none.json == json::parse(R"({"items":[]})"));
  auto first = t->Get("/v1/auth/whats-new", BearerOrg(a.access_token, a.org_id));
  REQUIRE(first.status == 200);
  CHECK(first.json == json::parse(R"({"items":[],"firstLogin":true})"));
  CHECK(t->Get("/v1/auth/whats-new", BearerOrg(a.access_token, stranger.org_id)).status == 403);
  CHECK(t->Get("/v1/auth/whats-new").status == 401);
  a.access_token = SignIn(*t, a);
  const auto auth = BearerOrg(a.access_token, a.org_id);

  t->clock().Advance(1000);
  const std::string old_bug = AddBug(*t, a, "Old bug");  // seen already below
  t->clock().Advance(1000);
  auto second = t->Get("/v1/auth/whats-new", auth);
  REQUIRE(second.status == 200);
  CHECK_FALSE(second.json.as_object().contains("firstLogin"));
  CHECK(second.json.at("items").as_array().size() == 1);

  t->clock().Advance(1000);
  const std::string fresh = AddBug(*t, a, "Fresh crash", "critical");
  AddBug(*t, a, "Test-key noise", "low", "test");
  AddBug(*t, stranger, "Not ours");
  t->clock().Advance(1000);
  SetBugStatus(*t, a.org_id, old_bug, "resolved", a.user_id);
  t->clock().Advance(1000);
  const std::string regressed = AddBug(*t, a, "Came back");
  SetBugStatus(*t, a.org_id, regressed, "resolved");
  SetBugStatus(*t, a.org_id, regressed, "new", a.user_id);

  auto feed = t->Get("/v1/auth/whats-new", auth);
  REQUIRE_MESSAGE(feed.status == 200, feed.body);
  const auto& items = feed.json.at("items").as_array();
  REQUIRE(items.size() == 4);
  // Newest first.
  // The regressed bug appeared and regressed in the same instant: both items.
  CHECK(Str(items[0].at("id")) == regressed);
  CHECK(Str(items[1].at("id")) == regressed);
  CHECK(std::set<std::string>{Str(items[0].at("type")), Str(items[1].at("type"))} ==
        std::set<std::string>{"new_bug", "regression"});
  CHECK(Str(items[2].at("id")) == old_bug);
  CHECK(items[2].at("type") == "resolved");
  CHECK(Str(items[3].at("id")) == fresh);
  CHECK(items[3].at("type") == "new_bug");
  CHECK(items[3].at("title") == "Fresh crash");
  CHECK(items[3].at("severity") == "critical");
  CHECK(items[3].at("ts").is_string());
  CHECK(feed.json.at("counts") == json::parse(R"({"newBugs":2,"regressions":1,"resolved":1})"));
  CHECK(feed.json.at("since").is_string());

  t->clock().Advance(1000);
  auto empty = t->Get("/v1/auth/whats-new", auth);
  CHECK(empty.json.at("items").as_array().empty());
  CHECK(empty.json.at("counts").at("newBugs") == 0);
}

TEST_CASE("whats-new follows real ingest: a new bug, then a regression after resolution") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "ingest-news@example.com");
  REQUIRE(t->Get("/v1/auth/whats-new", BearerOrg(a.access_token, a.org_id)).json.at("firstLogin") == true);
  const auto auth = BearerOrg(SignIn(*t, a), a.org_id);
  t->clock().Advance(1000);
  const json::object report{{"title", "TypeError: x is undefined"}, {"url", "https://app.example.com/cart"}};
  auto first = t->Post("/v1/ingest", report, {{"X-Service-Key", a.api_key}});
  REQUIRE_MESSAGE(first.status == 201, first.body);
  const std::string bug = Str(first.json.at("id"));
  t->clock().Advance(1000);
  auto feed = t->Get("/v1/auth/whats-new", auth);
  REQUIRE(feed.status == 200);
  REQUIRE(feed.json.at("items").as_array().size() == 1);
  CHECK(feed.json.at("items").at(0).at("type") == "new_bug");
  CHECK(Str(feed.json.at("items").at(0).at("id")) == bug);

  SetBugStatus(*t, a.org_id, bug, "resolved");
  t->clock().Advance(1000);
  auto again = t->Post("/v1/ingest", report, {{"X-Service-Key", a.api_key}});
  REQUIRE(again.status == 201);
  CHECK(again.json.at("regression") == true);
  t->clock().Advance(1000);
  auto regression = t->Get("/v1/auth/whats-new", auth);
  REQUIRE(regression.json.at("items").as_array().size() == 1);
  CHECK(regression.json.at("items").at(0).at("type") == "regression");
  CHECK(regression.json.at("counts") == json::parse(R"({"newBugs":0,"regressions":1,"resolved":0})"));
}

TEST_CASE("data export: 202, a mailed one-time link, a JSON bundle of the account's data") {
  const std::string dir = service::testing::FreshTempDir("acc-export");
  auto t = NewAccountsService(WithFileMail(dir));
  const Account a = RegisterAccount(*t, "export@example.com", "Export Org");
  const std::string bug = AddBug(*t, a, "Exported bug");
  AddComment(*t, a.org_id, bug, a.user_id, "my comment");
  AddNotification(*t, a.org_id, a.user_id, bug, "assigned", "Assigned");
  AddWatcher(*t, a.org_id, bug, a.user_id);
  SetNotificationPreferences(*t, a.org_id, a.user_id, "digest");

  auto req = t->Post("/v1/auth/data-export", json::object{}, Bearer(a.access_token));
  REQUIRE_MESSAGE(req.status == 202, req.body);
  CHECK(req.json.at("success") == true);
  CHECK(req.json.at("expiresAt").is_string());
  CHECK(req.body.find("token") == std::string::npos);
  CHECK(t->Post("/v1/auth/data-export", json::object{}).status == 401);

  REQUIRE(
      service::internal::PlatformOf(t->service()).Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  std::string link_token;
  for (const auto& m : service::testing::ReadMailDir(dir)) {
    if (m.find("Subject: Your data export is ready") != std::string::npos) {
      link_token = TokenAfter(m, "https://bugs.example.com/v1/auth/data-export/");
    }
  }
  REQUIRE(link_token.size() == 64);

  auto dl = t->Get("/v1/auth/data-export/" + link_token);
  REQUIRE_MESSAGE(dl.status == 200, dl.body);
  CHECK(dl.Header("Content-Disposition").find("attachment") == 0);
  const auto& b = dl.json.as_object();
  CHECK(b.at("user").at("email") == "export@example.com");
  CHECK_FALSE(b.at("user").as_object().contains("password_hash"));
  CHECK(dl.body.find("scrypt$") == std::string::npos);
  CHECK(b.at("memberships").at(0).at("orgName") == "Export Org");
  CHECK(b.at("memberships").at(0).at("role") == "admin");
  CHECK(b.at("comments").at(0).at("content") == "my comment");
  // The assignment, and the new-bug alert email the account was sent (its own data too).
  std::set<std::string> notification_types;
  for (const json::value& n : b.at("notifications").as_array()) notification_types.insert(Str(n.at("type")));
  CHECK(notification_types == std::set<std::string>{"assigned", "new_bug"});
  CHECK(b.at("notificationPreferences").at(0).at("emailLevel") == "digest");
  CHECK(Str(b.at("watching").at(0).at("bug_id")) == bug);
  CHECK(b.at("assignedBugs").as_array().empty());
  CHECK(b.at("exportedAt").is_string());
  // One download per link.
  auto again = t->Get("/v1/auth/data-export/" + link_token);
  CHECK(again.status == 400);
  CHECK(again.json.at("error") == "Invalid or expired export link");
  CHECK(t->Get("/v1/auth/data-export/nothex").status == 400);

  // Without a mail provider the request cannot be honoured.
  auto plain = NewAccountsService();
  const Account p = RegisterAccount(*plain, "plain@example.com");
  CHECK(plain->Post("/v1/auth/data-export", json::object{}, Bearer(p.access_token)).status == 503);
  CHECK(plain->Post("/v1/auth/data-delete/request", json::object{}, Bearer(p.access_token)).status == 503);
}

TEST_CASE("account deletion: refused while the only admin of a team, then confirmed by the mailed token") {
  const std::string dir = service::testing::FreshTempDir("acc-delete");
  auto t = NewAccountsService(WithFileMail(dir));
  const Account admin = RegisterAccount(*t, "leaving@example.com", "Team Org");
  const Account member = AddMember(*t, admin, "stays@example.com", "member");
  const Account solo = RegisterAccount(*t, "solo@example.com", "Solo Org");
  const std::string bug = AddBug(*t, admin, "Shared bug");
  AddComment(*t, admin.org_id, bug, admin.user_id, "bye");
  AssignBug(*t, admin.org_id, bug, admin.user_id);

  // The only admin of an organization with other members: 409, nothing mailed.
  auto refused = t->Post("/v1/auth/data-delete/request", json::object{}, Bearer(admin.access_token));
  REQUIRE(refused.status == 409);
  CHECK(refused.json.at("code") == "SOLE_ADMIN");
  CHECK(Str(refused.json.at("organizations").at(0).at("orgId")) == admin.org_id);
  CHECK(refused.json.at("organizations").at(0).at("orgName") == "Team Org");

  // With a second admin the request goes through.
  t->clock().Advance(1);  // mails to one address sort by time
  REQUIRE(t->Patch("/v1/team/" + member.user_id, json::object{{"role", "admin"}},
                   BearerOrg(admin.access_token, admin.org_id))
              .status == 200);
  auto req = t->Post("/v1/auth/data-delete/request", json::object{}, Bearer(admin.access_token));
  REQUIRE_MESSAGE(req.status == 202, req.body);
  CHECK(req.json.at("expiresAt").is_string());
  const std::string token =
      TokenAfter(service::testing::LastQueuedMailText(*t, admin.email), "/delete-account#token=");
  REQUIRE(token.size() == 64);

  CHECK(t->Post("/v1/auth/data-delete/confirm", json::object{}).json.at("error") == "Token is required");
  CHECK(t->Post("/v1/auth/data-delete/confirm", json::object{{"token", std::string(64, 'c')}}).status == 400);

  // The team changed meanwhile: the confirmation re-checks and keeps the link usable.
  REQUIRE(t->Patch("/v1/team/" + member.user_id, json::object{{"role", "member"}},
                   BearerOrg(admin.access_token, admin.org_id))
              .status == 200);
  auto blocked = t->Post("/v1/auth/data-delete/confirm", json::object{{"token", token}});
  CHECK(blocked.status == 409);
  REQUIRE(t->Patch("/v1/team/" + member.user_id, json::object{{"role", "admin"}},
                   BearerOrg(admin.access_token, admin.org_id))
              .status == 200);

  auto done = t->Post("/v1/auth/data-delete/confirm", json::object{{"token", token}});
  REQUIRE_MESSAGE(done.status == 200, done.body);
  CHECK(done.json.at("success") == true);
  CHECK(Str(done.json.at("deleted")) == admin.user_id);
  CHECK(done.json.at("deletedOrganizations").as_array().empty());
  // internal state: the account row itself is gone (no route reads an account but its own session).
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM users WHERE id = ?", {admin.user_id}) == 0);
  const auto as_member = BearerOrg(member.access_token, admin.org_id);
  auto team = t->Get("/v1/team", as_member);
  REQUIRE(team.status == 200);
  for (const auto& m : team.json.at("members").as_array()) CHECK(Str(m.at("id")) != admin.user_id);
  auto comments = t->Get("/v1/bugs/" + bug + "/comments", as_member);
  REQUIRE(comments.status == 200);
  CHECK(comments.json.at("comments").as_array().empty());
  auto shared = t->Get("/v1/bugs/" + bug, as_member);
  REQUIRE(shared.status == 200);
  CHECK(shared.json.at("assigned_to").is_null());
  // The organization and its other member stay.
  auto me = t->Get("/v1/auth/me", Bearer(member.access_token));
  REQUIRE(me.status == 200);
  REQUIRE(me.json.at("orgs").as_array().size() == 1);
  CHECK(Str(me.json.at("orgs").at(0).at("orgId")) == admin.org_id);
  CHECK(team.json.at("total") == 1);
  // Sessions of the deleted account are dead, and the link is spent.
  CHECK(t->Get("/v1/auth/me", Bearer(admin.access_token)).status == 401);
  CHECK(t->Post("/v1/auth/data-delete/confirm", json::object{{"token", token}}).status == 400);

  // An organization the account is alone in goes with it.
  t->clock().Advance(1);
  REQUIRE(t->Post("/v1/auth/data-delete/request", json::object{}, Bearer(solo.access_token)).status == 202);
  const std::string solo_token = TokenAfter(service::testing::LastQueuedMailText(*t, solo.email), "#token=");
  auto gone = t->Post("/v1/auth/data-delete/confirm", json::object{{"token", solo_token}});
  REQUIRE_MESSAGE(gone.status == 200, gone.body);
  CHECK(gone.json.at("deletedOrganizations") == json::array{json::value(solo.org_id)});
  // internal state (these three): an organization without members has no reader left.
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM organizations WHERE id = ?", {solo.org_id}) == 0);
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM projects WHERE org_id = ?", {solo.org_id}) == 0);
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM capture_keys WHERE org_id = ?", {solo.org_id}) == 0);
}

}  // namespace
