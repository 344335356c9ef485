// Notifications, notification preferences, digests, chat posts, team
// activity and organization usage (Spec 1 "Notifications", "Notification
// preferences", "Team", "Organization usage"; issue 11 items 5 and 6).
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/projects/ports/project_repository.h"
#include "areas/triage/app/triage.h"
#include "areas/triage/module.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/alert_mail.h"
#include "support/capture_fixture.h"
#include "support/stub_http_server.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

struct Team {
  CaptureSetup s;
  Member member;
  std::string bug;
};

Team NewTeam(TestService& t) {
  Team x;
  x.s = NewCaptureSetup(t);
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, x.s.key, Report("Checkout button broken"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  x.bug = S(r.json, "id");
  // The member joins after the bug: its new-bug alert email (alerts_email_test.cpp) is the admin's only.
  x.member = AddMemberWithRole(t, x.s.admin.org_id, "member");
  return x;
}

// Assigns the bug to `to` (an `assigned` notification for them).
void Assign(TestService& t, const Team& x, const Member& to) {
  t.clock().Advance(1000);
  TestResponse r = t.Patch("/v1/bugs/" + x.bug, json::object{{"assignedTo", nullptr}}, x.s.admin.headers());
  REQUIRE(r.status == 200);
  r = t.Patch("/v1/bugs/" + x.bug, json::object{{"assignedTo", to.user_id}}, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
}

void Mention(TestService& t, const Team& x, const Member& who, const std::string& words = "please look") {
  t.clock().Advance(1000);
  TestResponse r = t.Post("/v1/bugs/" + x.bug + "/comments",
                          json::object{{"content", "@" + who.email + " " + words}}, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
}

TestResponse SetPrefs(TestService& t, const Member& by, const Member& of, const json::object& body) {
  return t.Patch("/v1/team/" + of.user_id + "/notifications", body, by.headers());
}

// Alert email queued to `to` ({to, subject, text} of each alert email batch,
// instant and digest, oldest first).
// internal state: the queued mail is what these rules are about; the history route omits instant
// email, and delivering it would change what later checks see.
std::vector<json::value> MailTo(TestService& t, const std::string& to) {
  std::vector<json::value> out;
  const char* kFrom = " FROM digest_batches b JOIN users u ON u.id = b.user_id WHERE u.email = ?";
  const int64_t n = QueryInt(t, std::string("SELECT COUNT(*)") + kFrom, {to});
  for (int64_t i = 0; i < n; ++i) {
    const std::string tail = std::string(kFrom) + " ORDER BY b.created_at, b.id LIMIT 1 OFFSET ?";
    out.push_back(json::object{{"to", to},
                               {"subject", QueryText(t, "SELECT b.subject" + tail, {to, i})},
                               {"text", QueryText(t, "SELECT b.body" + tail, {to, i})}});
  }
  return out;
}

TEST_CASE(
    "notifications: list newest first, unread filter and count, mark one and all, scoped to the member") {
  TestService t;
  Team x = NewTeam(t);
  Assign(t, x, x.member);
  Mention(t, x, x.member);
  TestResponse r = t.Get("/v1/notifications", x.member.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  const json::array& list = r.json.at("notifications").as_array();
  REQUIRE(list.size() == 2);
  CHECK(S(list[0], "type") == "mention");
  CHECK(S(list[1], "type") == "assigned");
  CHECK(S(list[0], "bug_id") == x.bug);
  CHECK(S(list[0], "actor_id") == x.s.admin.user_id);
  CHECK(S(list[0], "user_id") == x.member.user_id);
  CHECK(S(list[0], "org_id") == x.s.admin.org_id);
  CHECK_FALSE(list[0].at("read").as_bool());
  CHECK(list[0].at("title").as_string().size() > 0);
  CHECK(list[0].as_object().contains("body"));
  CHECK(list[0].as_object().contains("created_at"));
  CHECK(r.json.at("unreadCount").as_int64() == 2);
  CHECK(t.Get("/v1/notifications?limit=1", x.member.headers()).json.at("notifications").as_array().size() ==
        1);

  const std::string first = S(list[0], "id");
  // Nobody else can mark it.
  CHECK(t.Post("/v1/notifications/" + first + "/read", json::object{}, x.s.admin.headers()).status == 404);
  CHECK(t.Post("/v1/notifications/nope/read", json::object{}, x.member.headers()).status == 404);
  r = t.Post("/v1/notifications/" + first + "/read", json::object{}, x.member.headers());
  REQUIRE(r.status == 200);
  CHECK(r.json.at("success").as_bool());
  r = t.Get("/v1/notifications?unread=true", x.member.headers());
  REQUIRE(r.json.at("notifications").as_array().size() == 1);
  CHECK(S(r.json.at("notifications").as_array()[0], "type") == "assigned");
  CHECK(r.json.at("unreadCount").as_int64() == 1);

  REQUIRE(t.Post("/v1/notifications/read-all", json::object{}, x.member.headers()).status == 200);
  r = t.Get("/v1/notifications?unread=true", x.member.headers());
  CHECK(r.json.at("notifications").as_array().empty());
  CHECK(r.json.at("unreadCount").as_int64() == 0);
  CHECK(t.Get("/v1/notifications", x.member.headers()).json.at("notifications").as_array().size() == 2);
  CHECK(t.Get("/v1/notifications?unread=maybe", x.member.headers()).status == 400);
  CHECK(t.Get("/v1/notifications?limit=1&limit=2", x.member.headers()).status == 400);
}

TEST_CASE("preferences: every field validated, a member edits their own, admins anyone's") {
  TestService t;
  Team x = NewTeam(t);
  Member other = NewOrgWithMember(t);
  TestResponse r = t.Get("/v1/team/" + x.member.user_id + "/notifications", x.member.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "emailLevel") == "full");
  CHECK(S(r.json, "digestFreq") == "realtime");
  CHECK(r.json.at("inAppEnabled").as_bool());
  CHECK_FALSE(r.json.at("chatEnabled").as_bool());

  r = SetPrefs(t, x.member, x.member,
               {{"emailLevel", "digest"}, {"digestFreq", "daily"}, {"inAppEnabled", false}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("success").as_bool());
  r = t.Get("/v1/team/" + x.member.user_id + "/notifications", x.member.headers());
  CHECK(S(r.json, "emailLevel") == "digest");
  CHECK(S(r.json, "digestFreq") == "daily");
  CHECK_FALSE(r.json.at("inAppEnabled").as_bool());

  CHECK(SetPrefs(t, x.member, x.s.admin, {{"emailLevel", "off"}}).status == 403);
  CHECK(SetPrefs(t, x.s.admin, x.member, {{"emailLevel", "off"}}).status == 200);
  CHECK(S(t.Get("/v1/team/" + x.member.user_id + "/notifications", x.member.headers()).json, "emailLevel") ==
        "off");
  CHECK(SetPrefs(t, x.s.admin, other, {{"emailLevel", "off"}}).status == 404);

  for (const json::object& bad : std::vector<json::object>{{{"emailLevel", "all"}},
                                                           {{"digestFreq", "weekly"}},
                                                           {{"inAppEnabled", "yes"}},
                                                           {{"chatEnabled", 1}},
                                                           {{"chatWebhook", "ftp://chat.example.com/hook"}},
                                                           {{"chatWebhook", 7}},
                                                           {{"chatEnabled", true}}}) {
    CAPTURE(json::serialize(bad));
    CHECK(SetPrefs(t, x.member, x.member, bad).status == 400);
  }
  CHECK(SetPrefs(t, x.member, x.member,
                 {{"chatEnabled", true}, {"chatWebhook", "https://chat.example.com/hook"}})
            .status == 200);
  CHECK(SetPrefs(t, x.member, x.member, {{"chatEnabled", false}, {"chatWebhook", nullptr}}).status == 200);
}

TEST_CASE("in-app notifications honour inAppEnabled, email honours emailLevel and digestFreq") {
  const std::string dir = FreshTempDir("triage-mail");
  TestService t(WithFileMail(dir));
  Team x = NewTeam(t);

  // Default: in-app and one email per notification, with the detail.
  Mention(t, x, x.member, "the cart total is wrong");
  std::vector<json::value> mail = MailTo(t, x.member.email);
  REQUIRE(mail.size() == 1);
  CHECK(S(mail[0], "text").find("the cart total is wrong") != std::string::npos);
  CHECK(S(mail[0], "text").find("https://bugs.example.com/bugs/" + x.bug) != std::string::npos);

  // notification level: title and link only.
  REQUIRE(SetPrefs(t, x.member, x.member, {{"emailLevel", "notification"}}).status == 200);
  Mention(t, x, x.member, "secret detail");
  mail = MailTo(t, x.member.email);
  REQUIRE(mail.size() == 2);
  CHECK(S(mail[1], "text").find("secret detail") == std::string::npos);

  // off: no email; in-app off: no list entry.
  REQUIRE(SetPrefs(t, x.member, x.member, {{"emailLevel", "off"}, {"inAppEnabled", false}}).status == 200);
  const size_t listed =
      t.Get("/v1/notifications", x.member.headers()).json.at("notifications").as_array().size();
  Assign(t, x, x.member);
  CHECK(MailTo(t, x.member.email).size() == 2);
  CHECK(t.Get("/v1/notifications", x.member.headers()).json.at("notifications").as_array().size() == listed);
}

TEST_CASE("hourly and daily digests gather what waited and are sent once the period is over") {
  const std::string dir = FreshTempDir("triage-digest");
  TestService t(WithFileMail(dir));
  Team x = NewTeam(t);
  REQUIRE(SetPrefs(t, x.member, x.member, {{"digestFreq", "hourly"}}).status == 200);
  // The test clock starts at 10:00:00; two notifications wait in the 10:00 hour.
  Mention(t, x, x.member, "first");
  Mention(t, x, x.member, "second");
  CHECK(MailTo(t, x.member.email).empty());
  CHECK(t.Get("/v1/notifications", x.member.headers()).json.at("notifications").as_array().size() == 2);

  QueueDueDigests(t);
  CHECK(MailTo(t, x.member.email).empty());  // the hour is not over

  t.clock().Advance(3'600'000);
  QueueDueDigests(t);
  std::vector<json::value> mail = MailTo(t, x.member.email);
  REQUIRE(mail.size() == 1);
  CHECK(S(mail[0], "subject").find("hourly digest") != std::string::npos);
  CHECK(S(mail[0], "text").find("first") != std::string::npos);
  CHECK(S(mail[0], "text").find("second") != std::string::npos);
  QueueDueDigests(t);
  CHECK(MailTo(t, x.member.email).size() == 1);  // sent once

  // emailLevel digest with daily: waits for the end of the UTC day.
  RenewToken(t, x.member);
  RenewToken(t, x.s.admin);
  REQUIRE(SetPrefs(t, x.member, x.member, {{"emailLevel", "digest"}, {"digestFreq", "daily"}}).status == 200);
  Mention(t, x, x.member, "third");
  t.clock().Advance(60'000);
  QueueDueDigests(t);
  CHECK(MailTo(t, x.member.email).size() == 1);
  t.clock().Advance(24 * 3'600'000);
  QueueDueDigests(t);
  mail = MailTo(t, x.member.email);
  REQUIRE(mail.size() == 2);
  CHECK(S(mail[1], "subject").find("daily digest") != std::string::npos);
}

TEST_CASE("chat posts go through the outbound client, refused for private destinations unless allowed") {
  StubHttpServer chat;
  chat.SetResponse("/hook", CannedResponse{200, "ok", "text/plain", {}, 0});
  SUBCASE("allowed") {
    TestService t([](Options& o) { o.allow_private_destinations = true; });
    Team x = NewTeam(t);
    REQUIRE(
        SetPrefs(t, x.member, x.member, {{"chatEnabled", true}, {"chatWebhook", chat.url("/hook")}}).status ==
        200);
    Assign(t, x, x.member);
    REQUIRE(app::triage::SendChatPosts(TriageOf(t)).ok());
    REQUIRE(chat.request_count() == 1);
    const RecordedRequest req = chat.requests()[0];
    CHECK(req.method == "POST");
    CHECK(req.Header("Content-Type").find("application/json") == 0);
    CHECK(S(json::parse(req.body), "text").find("Checkout button broken") != std::string::npos);
    REQUIRE(app::triage::SendChatPosts(TriageOf(t)).ok());
    CHECK(chat.request_count() == 1);
  }
  SUBCASE("refused") {
    TestService t;
    Team x = NewTeam(t);
    REQUIRE(
        SetPrefs(t, x.member, x.member, {{"chatEnabled", true}, {"chatWebhook", chat.url("/hook")}}).status ==
        200);
    Assign(t, x, x.member);
    REQUIRE(app::triage::SendChatPosts(TriageOf(t)).ok());
    CHECK(chat.request_count() == 0);
    // internal state: the refused chat post stays in the outbox as failed (no route reads the outbox).
    CHECK(QueryInt(t, "SELECT COUNT(*) FROM outbox WHERE kind = 'chat' AND status = 'failed'") == 1);
  }
}

TEST_CASE("team activity: comments, status changes and new bugs, newest first, limited") {
  TestService t;
  Team x = NewTeam(t);
  Member viewer = AddMemberWithRole(t, x.s.admin.org_id, "viewer");
  t.clock().Advance(1000);
  REQUIRE(t.Patch("/v1/bugs/" + x.bug, json::object{{"status", "working"}}, x.s.admin.headers()).status ==
          200);
  t.clock().Advance(1000);
  REQUIRE(t.Post("/v1/bugs/" + x.bug + "/comments", json::object{{"content", "fixing the cart"}},
                 x.member.headers())
              .status == 201);
  Member outsider = NewOrgWithMember(t);

  TestResponse r = t.Get("/v1/team/activity", viewer.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  const json::array& a = r.json.at("activity").as_array();
  REQUIRE(a.size() == 3);
  CHECK(S(a[0], "type") == "comment");
  CHECK(S(a[0], "summary").find("fixing the cart") != std::string::npos);
  CHECK(S(a[0], "bug_id") == x.bug);
  CHECK(S(a[0], "bug_title") == "Checkout button broken");
  CHECK(a[0].at("actor").is_string());
  CHECK(S(a[1], "type") == "status_change");
  CHECK(S(a[1], "summary").find("working") != std::string::npos);
  CHECK(S(a[2], "type") == "new_bug");
  CHECK(a[2].at("actor").is_null());
  CHECK(a[0].as_object().contains("ts"));
  CHECK(t.Get("/v1/team/activity?limit=2", viewer.headers()).json.at("activity").as_array().size() == 2);
  CHECK(t.Get("/v1/team/activity", outsider.headers()).json.at("activity").as_array().empty());
}

TEST_CASE("organization usage: plan, limits and current counts, overage flags and agent access source") {
  TestService t;
  Team x = NewTeam(t);
  TestResponse r = t.Get("/v1/org/usage", x.member.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "plan") == "free");
  CHECK(r.json.at("projects").at("current").as_int64() == 1);
  CHECK(r.json.at("members").at("current").as_int64() == 2);
  CHECK(r.json.at("bugsThisMonth").at("current").as_int64() == 1);
  CHECK(r.json.at("projects").as_object().contains("limit"));
  CHECK_FALSE(r.json.at("overage").at("any").as_bool());
  CHECK_FALSE(r.json.at("features").at("mcp").as_bool());
  CHECK(S(r.json.at("features"), "mcp_source") == "none");

  // internal state: a prepaid balance on the billing account (billing_test.cpp buys credits through the
  // payment provider's signed event; the plan below has no route here).
  ExecSql(
      t, "INSERT INTO billing_accounts (org_id, prepaid_credits, created_at, updated_at) VALUES (?, 5, 0, 0)",
      {x.s.admin.org_id});
  r = t.Get("/v1/org/usage", x.member.headers());
  CHECK(r.json.at("features").at("mcp").as_bool());
  CHECK(S(r.json.at("features"), "mcp_source") == "credits");

  // internal state: as above.
  ExecSql(t, "UPDATE organizations SET plan = 'team' WHERE id = ?", {x.s.admin.org_id});
  r = t.Get("/v1/org/usage", x.member.headers());
  CHECK(S(r.json, "plan") == "team");
  CHECK(S(r.json.at("features"), "mcp_source") == "plan");

  // A plan whose limits the organization now exceeds reports the overage.
  TestService small([](Options& o) { o.plan_limits["free"]["projects"] = 1; });
  Team y = NewTeam(small);
  // The route refuses a project past the limit: the extra one comes from the projects repository.
  modules::Platform& core = internal::PlatformOf(small.service());
  ports::Project extra;
  extra.id = "00000000-0000-4000-8000-00000000abcd";
  extra.org_id = y.s.admin.org_id;
  extra.name = "Extra";
  extra.slug = "extra";
  extra.platform = "web";
  REQUIRE(core.tx
              ->Write([&](ports::Tx& tx) {
                return core.Shared<service::ports::ProjectRepository>()->Insert(tx, extra);
              })
              .ok());
  r = small.Get("/v1/org/usage", y.s.admin.headers());
  CHECK(r.json.at("projects").at("overage").as_bool());
  CHECK(r.json.at("overage").at("any").as_bool());
}

}  // namespace
}  // namespace service::testing
