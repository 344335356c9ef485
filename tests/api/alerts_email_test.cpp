// Members' alert emails (issue 32; server contract "Digests"): a new bug or
// a regression the project's alert policy lets through reaches every active
// member whose preferences send email: at once as an instant batch, or in
// their hourly or daily digest across the organization's projects. The
// policy's severity floor and excludes stop it, quiet hours hold it, and
// both are checked again before every send, a recipient's retry included.
// Through the router on both backends, with a real SMTP exchange.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "areas/triage/app/digests.h"
#include "areas/triage/module.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/alert_mail.h"
#include "support/capture_fixture.h"
#include "support/smtp_server.h"
#include "support/test_db.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::string NewBug(TestService& t, const std::string& key, const std::string& title) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, key, Report(title, title + " failed"));  // a fingerprint per title
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

void SetPrefs(TestService& t, Member& m, const json::object& prefs) {
  RenewToken(t, m);
  TestResponse r = t.Patch("/v1/team/" + m.user_id + "/notifications", prefs, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
}

void PutPolicy(TestService& t, Member& admin, const json::object& body) {
  RenewToken(t, admin);
  TestResponse r = t.Request("PUT", "/v1/alerts/policy", json::serialize(body), admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
}

// The messages the relay accepted for `email`.
std::vector<ReceivedMail> MailTo(const SmtpServer& srv, const std::string& email) {
  std::vector<ReceivedMail> out;
  for (const ReceivedMail& m : srv.messages()) {
    if (!m.rcpt_to.empty() && m.rcpt_to[0] == email) out.push_back(m);
  }
  return out;
}

json::value History(TestService& t, Member& m, const std::string& project) {
  RenewToken(t, m);
  TestResponse r = t.Get("/v1/alerts/digests?projectId=" + project, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}

int counter = 0;
std::string NewRequestId() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012d", ++counter);
  return buf;
}

// An organization whose admin turned email off, with a second project and
// a member who takes alert emails as `prefs` say.
struct Team {
  CaptureSetup s;
  Member member;
  std::string other_project;
  std::string other_key;
};

Team NewTeam(TestService& t, const json::object& prefs) {
  Team x;
  x.s = NewCaptureSetup(t, "pro");
  SetPrefs(t, x.s.admin, {{"emailLevel", "off"}});
  x.other_project = CreateProjectVia(t, x.s.admin, "Storefront");
  x.other_key = CreateKeyVia(t, x.s.admin, x.other_project);
  x.member = AddMemberWithRole(t, x.s.admin.org_id, "member");
  if (!prefs.empty()) SetPrefs(t, x.member, prefs);
  return x;
}

TEST_CASE("alert emails: a new bug and a regression reach each member at once, outside the in-app list") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t, {});  // the defaults: emailLevel full, digestFreq realtime
  Member quiet = AddMemberWithRole(t, x.s.admin.org_id, "member");
  SetPrefs(t, quiet, {{"emailLevel", "off"}});

  const std::string bug = NewBug(t, x.s.key, "Checkout button broken");
  SendAlertBatches(t);
  std::vector<ReceivedMail> mail = MailTo(srv, x.member.email);
  REQUIRE(mail.size() == 1);
  CHECK(mail[0].data.find("New bug: Checkout button broken") != std::string::npos);
  CHECK(mail[0].data.find("https://bugs.example.com/bugs/" + bug) != std::string::npos);
  CHECK(MailTo(srv, quiet.email).empty());      // emailLevel off
  CHECK(MailTo(srv, x.s.admin.email).empty());  // emailLevel off
  CHECK(srv.messages().size() == 1);
  // Not an in-app notification (Spec 1's types only), not in the digest history (instant).
  RenewToken(t, x.member);
  CHECK(t.Get("/v1/notifications", x.member.headers()).json.at("notifications").as_array().empty());
  CHECK(History(t, x.member, x.s.project_id).at("batches").as_array().empty());

  // A second report of the same bug is no new bug: no email.
  NewBug(t, x.s.key, "Checkout button broken");
  SendAlertBatches(t);
  CHECK(MailTo(srv, x.member.email).size() == 1);

  // Resolved, then seen again: a regression email.
  RenewToken(t, x.s.admin);
  REQUIRE(t.Patch("/v1/bugs/" + bug, {{"status", "resolved"}}, x.s.admin.headers()).status == 200);
  NewBug(t, x.s.key, "Checkout button broken");
  SendAlertBatches(t);
  mail = MailTo(srv, x.member.email);
  REQUIRE(mail.size() == 2);
  CHECK(mail[1].data.find("Regression: Checkout button broken") != std::string::npos);
}

TEST_CASE("alert emails: a digest member gets new bugs of every project in one batch per period") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t, {{"digestFreq", "hourly"}});
  NewBug(t, x.s.key, "Checkout button broken");
  NewBug(t, x.other_key, "Search returns nothing");
  NewBug(t, x.other_key, "Images do not load");
  SendAlertBatches(t);
  QueueDueDigests(t);
  CHECK(srv.messages().empty());  // the hour is not over
  CHECK(History(t, x.member, x.s.project_id).at("pendingEvents").as_int64() == 1);
  CHECK(History(t, x.member, x.other_project).at("pendingEvents").as_int64() == 2);

  t.clock().Advance(3'600'000);
  QueueDueDigests(t);
  SendAlertBatches(t);
  std::vector<ReceivedMail> mail = MailTo(srv, x.member.email);
  REQUIRE(mail.size() == 1);
  CHECK(mail[0].data.find("Checkout button broken") != std::string::npos);
  CHECK(mail[0].data.find("Search returns nothing") != std::string::npos);
  CHECK(mail[0].data.find("Images do not load") != std::string::npos);
  const json::value first = History(t, x.member, x.s.project_id);
  REQUIRE(first.at("batches").as_array().size() == 1);
  const json::value& b = first.at("batches").at(0);
  CHECK(S(b, "state") == "succeeded");
  CHECK(b.at("batchProjectCount").as_int64() == 2);
  CHECK(b.at("eventCount").as_int64() == 1);  // counts of the selected project only
  CHECK(first.at("pendingEvents").as_int64() == 0);
  const json::value second = History(t, x.member, x.other_project);
  REQUIRE(second.at("batches").as_array().size() == 1);
  CHECK(second.at("batches").at(0).at("eventCount").as_int64() == 2);
}

TEST_CASE("alert emails: the severity floor and excludes stop them, as the preview says") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t, {});
  PutPolicy(t, x.s.admin, {{"projectId", x.s.project_id}, {"severityFloor", "critical"}});
  PutPolicy(t, x.s.admin,
            {{"projectId", x.other_project}, {"excludes", {{"titleContains", {"ResizeObserver"}}}}});
  RenewToken(t, x.member);
  TestResponse preview = t.Post("/v1/alerts/preview",
                                json::object{{"projectId", x.s.project_id},
                                             {"eventType", "new_bug"},
                                             {"title", "Checkout button broken"},
                                             {"severity", "medium"}},
                                x.member.headers());
  REQUIRE_MESSAGE(preview.status == 200, preview.body);
  CHECK(preview.json.at("email").at("disposition") == "not_scheduled");

  NewBug(t, x.s.key, "Checkout button broken");                  // below the floor
  NewBug(t, x.other_key, "ResizeObserver loop limit exceeded");  // excluded by title
  SendAlertBatches(t);
  CHECK(srv.messages().empty());
  NewBug(t, x.other_key, "Search returns nothing");  // let through
  SendAlertBatches(t);
  std::vector<ReceivedMail> mail = MailTo(srv, x.member.email);
  REQUIRE(mail.size() == 1);
  CHECK(mail[0].data.find("[Storefront] New bug: Search returns nothing") != std::string::npos);
}

TEST_CASE("alert emails: quiet hours hold an instant alert and a digest item until they end") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t, {});
  Member hourly = AddMemberWithRole(t, x.s.admin.org_id, "member");
  SetPrefs(t, hourly, {{"digestFreq", "hourly"}});
  // The test clock starts at 10:00 UTC: quiet 09:00-12:00 UTC.
  PutPolicy(t, x.s.admin,
            {{"projectId", x.s.project_id},
             {"quietHours", {{"start", "09:00"}, {"end", "12:00"}, {"timeZone", "UTC"}}}});
  NewBug(t, x.s.key, "Checkout button broken");
  SendAlertBatches(t);
  t.clock().Advance(3'600'000);  // 11:00: the first hour is over, quiet hours are not
  QueueDueDigests(t);
  SendAlertBatches(t);
  CHECK(srv.messages().empty());
  CHECK(History(t, hourly, x.s.project_id).at("pendingEvents").as_int64() == 1);

  t.clock().Set(kTestEpochMs + 2 * 3'600'000);  // 12:00: quiet hours end
  QueueDueDigests(t);
  SendAlertBatches(t);
  CHECK(MailTo(srv, x.member.email).size() == 1);  // the instant alert, held until now
  std::vector<ReceivedMail> digest = MailTo(srv, hourly.email);
  REQUIRE(digest.size() == 1);  // the waiting item joined the digest once deliverable
  CHECK(digest[0].data.find("Checkout button broken") != std::string::npos);
}

TEST_CASE("alert emails: a recipient's retry honours the policy in force and quiet hours") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t, {{"digestFreq", "hourly"}});
  NewBug(t, x.s.key, "Checkout button broken");
  t.clock().Advance(3'600'000);
  QueueDueDigests(t);
  SendAlertBatches(t);
  REQUIRE(srv.messages().size() == 1);
  json::value b = History(t, x.member, x.s.project_id).at("batches").at(0);
  REQUIRE(S(b, "state") == "succeeded");
  const std::string id = S(b, "id");
  auto retry = [&](int64_t generation) {
    RenewToken(t, x.member);
    return t.Post("/v1/alerts/digests/" + id + "/resolution",
                  json::object{{"projectId", x.s.project_id},
                               {"requestId", NewRequestId()},
                               {"expectedGeneration", generation},
                               {"action", "retry"},
                               {"acceptDuplicateRisk", true}},
                  x.member.headers());
  };

  SUBCASE("quiet hours now: held, its attempt not counted, sent when they end") {
    const int64_t now = t.clock().NowMillis();  // 11:00:01 UTC
    PutPolicy(t, x.s.admin,
              {{"projectId", x.s.project_id},
               {"quietHours", {{"start", "11:00"}, {"end", "13:00"}, {"timeZone", "UTC"}}}});
    TestResponse r = retry(0);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    SendAlertBatches(t);
    CHECK(srv.messages().size() == 1);
    b = History(t, x.member, x.s.project_id).at("batches").at(0);
    CHECK(S(b, "state") == "queued");
    CHECK(b.at("attempts").as_int64() == 1);
    CHECK(b.at("generation").as_int64() == 1);
    t.clock().Set(now + 2 * 3'600'000);  // past 13:00
    SendAlertBatches(t);
    CHECK(srv.messages().size() == 2);
    b = History(t, x.member, x.s.project_id).at("batches").at(0);
    CHECK(S(b, "state") == "succeeded");
    CHECK(b.at("attempts").as_int64() == 2);
  }
  SUBCASE("excluded now: cancelled, nothing sent") {
    PutPolicy(t, x.s.admin, {{"projectId", x.s.project_id}, {"severityFloor", "critical"}});
    TestResponse r = retry(0);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    SendAlertBatches(t);
    CHECK(srv.messages().size() == 1);
    b = History(t, x.member, x.s.project_id).at("batches").at(0);
    CHECK(S(b, "state") == "cancelled");
    CHECK(b.at("allowedActions").at("retry").as_bool());  // the recipient may try again later
  }
}

}  // namespace
}  // namespace service::testing
