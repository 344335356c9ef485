// Alert email batches (issue 32 items 1-3; Spec 2 "Alert digest batch", the
// digest states, the digest rows of "Alerts", DIGEST_BUSY, the digest
// limits): each SMTP answer of a real exchange with a scriptable local relay
// becomes a batch state; the caller-only history; the recipient's decisions.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <thread>
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

// An organization with two projects, a bug in each, and a member on hourly
// digests who is assigned both bugs: one digest with events of two projects.
struct Team {
  CaptureSetup s;
  Member member;
  std::string other_project;
  std::vector<std::string> bugs;
};

std::string NewBug(TestService& t, const std::string& key, const std::string& title) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, key, Report(title));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

void Assign(TestService& t, const Team& x, const std::string& bug, const std::string& user_id) {
  t.clock().Advance(1000);
  TestResponse r = t.Patch("/v1/bugs/" + bug, json::object{{"assignedTo", user_id}}, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
}

Team NewTeam(TestService& t, const std::string& digest_freq = "hourly") {
  Team x;
  x.s = NewCaptureSetup(t, "pro");  // pro: agent tokens exist (refused below)
  // The bugs' new-bug alert emails (alerts_email_test.cpp) stay out of these
  // tests: the admin turned email off, the member joins after the bugs.
  TestResponse off = t.Patch("/v1/team/" + x.s.admin.user_id + "/notifications",
                             json::object{{"emailLevel", "off"}}, x.s.admin.headers());
  REQUIRE_MESSAGE(off.status == 200, off.body);
  x.other_project = CreateProjectVia(t, x.s.admin, "Second");
  const std::string other_key = CreateKeyVia(t, x.s.admin, x.other_project);
  x.bugs.push_back(NewBug(t, x.s.key, "Checkout button broken"));
  x.bugs.push_back(NewBug(t, other_key, "Search returns nothing"));
  x.member = AddMemberWithRole(t, x.s.admin.org_id, "member");
  TestResponse r = t.Patch("/v1/team/" + x.member.user_id + "/notifications",
                           json::object{{"digestFreq", digest_freq}}, x.member.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return x;
}

// Both assignments, then the hour ends and the digest is queued.
void QueueDigest(TestService& t, Team& x) {
  for (const std::string& bug : x.bugs) Assign(t, x, bug, x.member.user_id);
  t.clock().Advance(3'600'000);
  RenewToken(t, x.member);
  RenewToken(t, x.s.admin);
  QueueDueDigests(t);
}

TestResponse History(TestService& t, const Member& m, const std::string& project,
                     const std::string& extra = "") {
  return t.Get("/v1/alerts/digests?projectId=" + project + extra, m.headers());
}

// The member's only digest batch as the history shows it (with a fresh token:
// the tests move the clock by hours).
json::value OnlyBatch(TestService& t, Team& x) {
  RenewToken(t, x.member);
  TestResponse r = History(t, x.member, x.s.project_id);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  REQUIRE(r.json.at("batches").as_array().size() == 1);
  return r.json.at("batches").at(0);
}

int counter = 0;
std::string NewRequestId() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012d", ++counter);
  return buf;
}

TestResponse Resolve(TestService& t, const Member& m, const std::string& batch, const json::object& body) {
  return t.Post("/v1/alerts/digests/" + batch + "/resolution", body, m.headers());
}

json::object Body(const Team& x, const std::string& action, int64_t generation,
                  const std::string& request_id = NewRequestId()) {
  json::object b{{"projectId", x.s.project_id},
                 {"requestId", request_id},
                 {"expectedGeneration", generation},
                 {"action", action}};
  if (action == "retry") b["acceptDuplicateRisk"] = true;
  return b;
}

std::string Code(const TestResponse& r) {
  return r.json.is_object() && r.json.as_object().contains("code") ? S(r.json, "code") : "";
}

TEST_CASE("digest batches: every SMTP answer becomes the batch's state, through the real SMTP mailer") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t);
  QueueDigest(t, x);
  json::value b = OnlyBatch(t, x);
  CHECK(S(b, "state") == "queued");
  CHECK(b.at("attempts").as_int64() == 0);
  CHECK(b.at("generation").as_int64() == 0);
  CHECK(b.at("sentAt").is_null());
  CHECK(b.at("resolution").is_null());

  SUBCASE("250 after DATA: succeeded (the provider accepted it, nothing more)") {
    SendAlertBatches(t);
    b = OnlyBatch(t, x);
    CHECK(S(b, "state") == "succeeded");
    CHECK(b.at("attempts").as_int64() == 1);
    CHECK(!b.at("sentAt").is_null());
    REQUIRE(srv.messages().size() == 1);
    CHECK(srv.messages()[0].rcpt_to.at(0) == x.member.email);
    CHECK(srv.messages()[0].data.find("Checkout button broken") != std::string::npos);
    CHECK(srv.messages()[0].data.find("Search returns nothing") != std::string::npos);
    SendAlertBatches(t);
    CHECK(srv.messages().size() == 1);  // sent once
  }
  SUBCASE("451: retryable with backoff, then succeeded on a later attempt") {
    srv.FailNext(SmtpServer::Stage::kData, "451 4.3.0 try later");
    SendAlertBatches(t);
    b = OnlyBatch(t, x);
    CHECK(S(b, "state") == "retryable");
    CHECK(b.at("attempts").as_int64() == 1);
    SendAlertBatches(t);  // not due yet (1 minute backoff)
    CHECK(OnlyBatch(t, x).at("attempts").as_int64() == 1);
    t.clock().Advance(60'000);
    SendAlertBatches(t);
    b = OnlyBatch(t, x);
    CHECK(S(b, "state") == "succeeded");
    CHECK(b.at("attempts").as_int64() == 2);
    CHECK(srv.messages().size() == 1);
  }
  SUBCASE("550: permanent_failure, never sent again on its own") {
    srv.FailNext(SmtpServer::Stage::kData, "550 5.1.1 no such user");
    SendAlertBatches(t);
    b = OnlyBatch(t, x);
    CHECK(S(b, "state") == "permanent_failure");
    t.clock().Advance(3'600'000);
    SendAlertBatches(t);
    CHECK(srv.mail_commands() == 1);
    CHECK(OnlyBatch(t, x).at("attempts").as_int64() == 1);
  }
  SUBCASE("550 to RCPT TO: permanent_failure") {
    srv.FailNext(SmtpServer::Stage::kRcptTo, "550 5.1.1 no such user");
    SendAlertBatches(t);
    CHECK(S(OnlyBatch(t, x), "state") == "permanent_failure");
  }
  SUBCASE("the connection dropped after the final dot: outcome_unknown, never resent automatically") {
    srv.FailNext(SmtpServer::Stage::kData, SmtpServer::kDropConnection);
    SendAlertBatches(t);
    b = OnlyBatch(t, x);
    CHECK(S(b, "state") == "outcome_unknown");
    CHECK(b.at("attempts").as_int64() == 1);
    CHECK(b.at("sentAt").is_null());
    t.clock().Advance(24 * 3'600'000);
    SendAlertBatches(t);
    CHECK(srv.mail_commands() == 1);
    CHECK(srv.messages().size() == 1);  // the relay got it once; the service cannot know
  }
  SUBCASE("a relay that is down: retryable (nothing was handed over)") {
    srv.FailNext(SmtpServer::Stage::kMailFrom, "421 4.3.2 shutting down");
    SendAlertBatches(t);
    CHECK(S(OnlyBatch(t, x), "state") == "retryable");
  }
  SUBCASE("eight failed attempts: permanent_failure at the limit") {
    srv.FailNext(SmtpServer::Stage::kData, "451 4.3.0 try later", 20);
    for (int i = 0; i < 10; ++i) {
      SendAlertBatches(t);
      t.clock().Advance(3'600'000);
    }
    b = OnlyBatch(t, x);
    CHECK(S(b, "state") == "permanent_failure");
    CHECK(b.at("attempts").as_int64() == 8);
    CHECK(srv.mail_commands() == 8);
  }
  SUBCASE("the recipient turned email off before the send: cancelled, nothing sent") {
    REQUIRE(t.Patch("/v1/team/" + x.member.user_id + "/notifications", json::object{{"emailLevel", "off"}},
                    x.member.headers())
                .status == 200);
    SendAlertBatches(t);
    CHECK(S(OnlyBatch(t, x), "state") == "cancelled");
    CHECK(srv.mail_commands() == 0);
  }
  SUBCASE("a send whose process stopped: outcome_unknown after the lease, not resent") {
    // internal state: a crash between the claim and the answer cannot be caused through the API.
    ExecSql(t, "UPDATE digest_batches SET state = 'sending', attempts = 1, lease_until = ?",
            {t.clock().NowMillis() + domain::triage::kDigestLeaseMs});
    SendAlertBatches(t);
    CHECK(S(OnlyBatch(t, x), "state") == "sending");
    CHECK(srv.mail_commands() == 0);
    TestResponse busy = Resolve(t, x.member, S(OnlyBatch(t, x), "id"), Body(x, "received", 0));
    CHECK(busy.status == 409);
    CHECK(Code(busy) == "DIGEST_BUSY");
    t.clock().Advance(domain::triage::kDigestLeaseMs + 1);
    SendAlertBatches(t);
    CHECK(S(OnlyBatch(t, x), "state") == "outcome_unknown");
    CHECK(srv.mail_commands() == 0);
  }
}

TEST_CASE("instant alert email is a batch too, sent through the relay, and absent from the history") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t, "realtime");
  Assign(t, x, x.bugs[0], x.member.user_id);
  SendAlertBatches(t);
  REQUIRE(srv.messages().size() == 1);
  CHECK(srv.messages()[0].rcpt_to.at(0) == x.member.email);
  // internal state: instant email is absent from the only route that lists batches.
  CHECK(QueryText(t, "SELECT state FROM digest_batches WHERE kind = 'instant'") == "succeeded");
  TestResponse r = History(t, x.member, x.s.project_id);
  REQUIRE(r.status == 200);
  CHECK(r.json.at("batches").as_array().empty());
}

TEST_CASE("digest history: the caller's own batches of the project, counts of that project, 50 per page") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t);
  QueueDigest(t, x);
  SendAlertBatches(t);

  TestResponse r = History(t, x.member, x.s.project_id);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.Header("Cache-Control") == "no-store");
  const json::value b = r.json.at("batches").at(0);
  CHECK(b.at("batchProjectCount").as_int64() == 2);
  CHECK(b.at("eventCount").as_int64() == 1);  // only the selected project's
  CHECK(r.json.at("nextCursor").is_null());
  CHECK(r.body.find(x.member.email) == std::string::npos);  // no recipient address
  CHECK(b.as_object().contains("allowedActions"));
  CHECK(b.at("allowedActions").at("received").as_bool());
  CHECK(b.at("allowedActions").at("retry").as_bool());
  // The other project lists the same batch.
  r = History(t, x.member, x.other_project);
  REQUIRE(r.status == 200);
  CHECK(S(r.json.at("batches").at(0), "id") == S(b, "id"));

  // pendingEvents: what waits for the next digest, of this project only.
  Assign(t, x, x.bugs[0], x.s.admin.user_id);
  Assign(t, x, x.bugs[0], x.member.user_id);
  r = History(t, x.member, x.s.project_id);
  CHECK(r.json.at("pendingEvents").as_int64() == 1);
  CHECK(History(t, x.member, x.other_project).json.at("pendingEvents").as_int64() == 0);

  // Another member (the admin) sees none of them; a project of another organization is 404.
  r = History(t, x.s.admin, x.s.project_id);
  REQUIRE(r.status == 200);
  CHECK(r.json.at("batches").as_array().empty());
  CaptureSetup stranger = NewCaptureSetup(t);
  CHECK(History(t, x.member, stranger.project_id).status == 404);
  CHECK(t.Get("/v1/alerts/digests", x.member.headers()).status == 400);
  CHECK(History(t, x.member, "nope").status == 404);
  // Cursors: the admin's or an unknown id is 404.
  CHECK(History(t, x.member, x.s.project_id, "&after=00000000-0000-4000-8000-000000000000").status == 404);
  CHECK(History(t, x.s.admin, x.s.project_id, "&after=" + S(b, "id")).status == 404);

  // 50 per page in creation order, the cursor passed back unchanged.
  const std::string notification =
      QueryText(t, "SELECT notification_id FROM digest_batch_events WHERE project_id = ?", {x.s.project_id});
  const Status s = TriageOf(t).db->Write([&](ports::Tx& tx) -> Status {
    for (int i = 0; i < 55; ++i) {
      t.clock().Advance(1);
      SV_RETURN_IF_ERROR(app::triage::QueueAlertEmail(TriageOf(t), tx, x.s.admin.org_id, x.member.user_id,
                                                      "digest", "Your hourly digest", "text",
                                                      {notification}));
    }
    return Status::Ok();
  });
  REQUIRE(s.ok());
  r = History(t, x.member, x.s.project_id);
  REQUIRE(r.status == 200);
  REQUIRE(r.json.at("batches").as_array().size() == 50);
  CHECK(S(r.json.at("batches").at(0), "id") == S(b, "id"));
  const std::string cursor = S(r.json, "nextCursor");
  CHECK(cursor == S(r.json.at("batches").at(49), "id"));
  r = History(t, x.member, x.s.project_id, "&after=" + cursor);
  REQUIRE(r.status == 200);
  CHECK(r.json.at("batches").as_array().size() == 6);
  CHECK(r.json.at("nextCursor").is_null());
}

TEST_CASE("digest resolution: the rules, table-driven") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t);
  QueueDigest(t, x);
  SendAlertBatches(t);
  const std::string batch = S(OnlyBatch(t, x), "id");

  struct Case {
    const char* name;
    std::function<json::object()> body;
    int status;
    const char* code;
  };
  const std::vector<Case> invalid = {
      {"unknown field",
       [&] {
         auto b = Body(x, "received", 0);
         b["note"] = "x";
         return b;
       },
       400, ""},
      {"requestId not a UUID",
       [&] {
         auto b = Body(x, "received", 0);
         b["requestId"] = "r1";
         return b;
       },
       400, ""},
      {"generation above 3",
       [&] {
         auto b = Body(x, "received", 0);
         b["expectedGeneration"] = 4;
         return b;
       },
       400, ""},
      {"generation not an integer",
       [&] {
         auto b = Body(x, "received", 0);
         b["expectedGeneration"] = "0";
         return b;
       },
       400, ""},
      {"unknown action", [&] { return Body(x, "ignore", 0); }, 400, ""},
      {"retry without acceptDuplicateRisk",
       [&] {
         auto b = Body(x, "retry", 0);
         b.erase("acceptDuplicateRisk");
         return b;
       },
       400, ""},
      {"retry with acceptDuplicateRisk false",
       [&] {
         auto b = Body(x, "retry", 0);
         b["acceptDuplicateRisk"] = false;
         return b;
       },
       400, ""},
      {"received with acceptDuplicateRisk",
       [&] {
         auto b = Body(x, "received", 0);
         b["acceptDuplicateRisk"] = true;
         return b;
       },
       400, ""},
      {"missing projectId",
       [&] {
         auto b = Body(x, "received", 0);
         b.erase("projectId");
         return b;
       },
       400, ""},
      {"stale generation", [&] { return Body(x, "received", 1); }, 409, ""},
      {"a project the batch does not hold",
       [&] {
         auto b = Body(x, "received", 0);
         b["projectId"] = CreateProjectVia(t, x.s.admin, "Third");
         return b;
       },
       404, ""},
  };
  for (const Case& c : invalid) {
    CAPTURE(c.name);
    TestResponse r = Resolve(t, x.member, batch, c.body());
    CHECK_MESSAGE(r.status == c.status, r.body);
    CHECK(r.Header("Cache-Control") == "no-store");
  }
  // Only the current recipient: another member of the organization, an agent token.
  CHECK(Resolve(t, x.s.admin, batch, Body(x, "received", 0)).status == 404);
  CHECK(t.Post("/v1/alerts/digests/00000000-0000-4000-8000-000000000000/resolution", Body(x, "received", 0),
               x.member.headers())
            .status == 404);
  TestResponse pat = t.Post(
      "/v1/org/agent-pats",
      json::object{
          {"name", "bot"}, {"scopes", json::array{"read_bugs"}}, {"expiresAt", "2027-01-01T00:00:00Z"}},
      x.s.admin.headers());
  REQUIRE_MESSAGE(pat.status == 201, pat.body);
  {
    const HeaderList agent{{"Authorization", "Bearer " + S(pat.json, "token")},
                           {"X-Service-Org", x.s.admin.org_id}};
    const int status =
        t.Post("/v1/alerts/digests/" + batch + "/resolution", Body(x, "received", 0), agent).status;
    CHECK((status == 401 || status == 403));
    const int history = t.Get("/v1/alerts/digests?projectId=" + x.s.project_id, agent).status;
    CHECK((history == 401 || history == 403));
  }
  // A capture key is no bearer for these routes.
  CHECK(t.Post("/v1/alerts/digests/" + batch + "/resolution", Body(x, "received", 0), KeyHeader(x.s.key))
            .status == 401);

  // Retry: same batch, new generation, attempts kept; replay returns the same receipt.
  const std::string rid = NewRequestId();
  TestResponse r = Resolve(t, x.member, batch, Body(x, "retry", 0, rid));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.Header("Cache-Control") == "no-store");
  const json::value receipt = r.json;
  CHECK(S(receipt, "batchId") == batch);
  CHECK(S(receipt, "projectId") == x.s.project_id);
  CHECK(S(receipt, "requestId") == rid);
  CHECK(S(receipt, "action") == "retry");
  CHECK(receipt.at("generation").as_int64() == 0);
  CHECK(receipt.at("nextGeneration").as_int64() == 1);
  CHECK_FALSE(receipt.at("replayed").as_bool());
  json::value b = OnlyBatch(t, x);
  CHECK(S(b, "state") == "queued");
  CHECK(b.at("generation").as_int64() == 1);
  CHECK(b.at("attempts").as_int64() == 1);
  CHECK(S(b.at("resolution"), "action") == "retry");
  r = Resolve(t, x.member, batch, Body(x, "retry", 0, rid));
  REQUIRE(r.status == 200);
  CHECK(r.json.at("replayed").as_bool());
  CHECK(S(r.json, "id") == S(receipt, "id"));
  CHECK(S(r.json, "createdAt") == S(receipt, "createdAt"));
  // Changed content under the same requestId: 409.
  r = Resolve(t, x.member, batch, Body(x, "received", 0, rid));
  CHECK(r.status == 409);
  // While queued nothing more can be decided (the send has not happened).
  CHECK(Resolve(t, x.member, batch, Body(x, "retry", 1)).status == 409);

  // The resend carries the whole batch, both projects' events.
  SendAlertBatches(t);
  REQUIRE(srv.messages().size() == 2);
  CHECK(srv.messages()[1].data.find("Search returns nothing") != std::string::npos);
  b = OnlyBatch(t, x);
  CHECK(S(b, "state") == "succeeded");
  CHECK(b.at("attempts").as_int64() == 2);

  // Two more manual retries, then the limit; received stays possible.
  for (int g = 1; g <= 2; ++g) {
    REQUIRE(Resolve(t, x.member, batch, Body(x, "retry", g)).status == 200);
    SendAlertBatches(t);
  }
  b = OnlyBatch(t, x);
  CHECK(b.at("generation").as_int64() == 3);
  CHECK_FALSE(b.at("allowedActions").at("retry").as_bool());
  CHECK(S(b.at("allowedActions"), "reason") == "manual_retry_limit");
  CHECK(b.at("allowedActions").at("received").as_bool());
  CHECK(Resolve(t, x.member, batch, Body(x, "retry", 3)).status == 409);

  // received: an immutable recipient record; the provider state is unchanged.
  srv.FailNext(SmtpServer::Stage::kData, "550 5.7.1 rejected");
  const std::string received_id = NewRequestId();
  r = Resolve(t, x.member, batch, Body(x, "received", 3, received_id));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("nextGeneration").as_int64() == 3);
  b = OnlyBatch(t, x);
  CHECK(S(b, "state") == "succeeded");
  CHECK(S(b.at("resolution"), "action") == "received");
  CHECK(b.at("resolution").at("confirmedByRecipient").as_bool());
  CHECK_FALSE(b.at("allowedActions").at("received").as_bool());
  CHECK(Resolve(t, x.member, batch, Body(x, "received", 3)).status == 409);
  CHECK(Resolve(t, x.member, batch, Body(x, "received", 3, received_id)).json.at("replayed").as_bool());
}

TEST_CASE("digest resolution: received remains possible at the attempt limit, retry does not") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t);
  QueueDigest(t, x);
  srv.FailNext(SmtpServer::Stage::kData, "451 4.3.0 try later", 20);
  for (int i = 0; i < 9; ++i) {
    SendAlertBatches(t);
    t.clock().Advance(3'600'000);
  }
  RenewToken(t, x.member);
  json::value b = OnlyBatch(t, x);
  REQUIRE(b.at("attempts").as_int64() == 8);
  CHECK(S(b, "state") == "permanent_failure");
  CHECK_FALSE(b.at("allowedActions").at("retry").as_bool());
  CHECK(S(b.at("allowedActions"), "reason") == "attempt_limit");
  CHECK(Resolve(t, x.member, S(b, "id"), Body(x, "retry", 0)).status == 409);
  CHECK(Resolve(t, x.member, S(b, "id"), Body(x, "received", 0)).status == 200);
}

TEST_CASE("a retry re-checks the recipient when preparing the send: email turned off cancels it") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t);
  QueueDigest(t, x);
  srv.FailNext(SmtpServer::Stage::kData, SmtpServer::kDropConnection);
  SendAlertBatches(t);
  const std::string batch = S(OnlyBatch(t, x), "id");
  REQUIRE(Resolve(t, x.member, batch, Body(x, "retry", 0)).status == 200);
  REQUIRE(t.Patch("/v1/team/" + x.member.user_id + "/notifications", json::object{{"emailLevel", "off"}},
                  x.member.headers())
              .status == 200);
  SendAlertBatches(t);
  json::value b = OnlyBatch(t, x);
  CHECK(S(b, "state") == "cancelled");
  CHECK(b.at("attempts").as_int64() == 2);  // the preparation counts
  CHECK(srv.mail_commands() == 1);
}

TEST_CASE("SERVICE_DIGEST_PERIODS shortens the digest period: a 2 s hourly digest") {
  SmtpServer srv;
  TestService t([&srv](Options& o) {
    WithSmtpRelay(srv)(o);
    REQUIRE(ApplySetting(o, "SERVICE_DIGEST_PERIODS", "hourly=2").ok());
  });
  Team x = NewTeam(t);
  for (const std::string& bug : x.bugs) Assign(t, x, bug, x.member.user_id);
  t.clock().Advance(2'000);
  QueueDueDigests(t);
  SendAlertBatches(t);
  json::value b = OnlyBatch(t, x);
  CHECK(S(b, "state") == "succeeded");
  CHECK(S(b, "subject").find("hourly digest (2)") != std::string::npos);
}

TEST_CASE("finished digest batches are swept after SERVICE_RETENTION digest_batches (default 90 days)") {
  SmtpServer srv;
  TestService t(WithSmtpRelay(srv));
  Team x = NewTeam(t);
  QueueDigest(t, x);
  SendAlertBatches(t);
  REQUIRE(S(OnlyBatch(t, x), "state") == "succeeded");
  t.clock().Advance(89LL * 86'400'000);
  auto swept = app::triage::SweepDigestBatches(TriageOf(t), 1000);
  REQUIRE(swept.ok());
  CHECK(*swept == 0);
  CHECK(OnlyBatch(t, x).is_object());
  t.clock().Advance(2LL * 86'400'000);
  swept = app::triage::SweepDigestBatches(TriageOf(t), 1000);
  REQUIRE(swept.ok());
  CHECK(*swept == 1);
  RenewToken(t, x.member);
  CHECK(History(t, x.member, x.s.project_id).json.at("batches").as_array().empty());
}

TEST_CASE("two processes on one PostgreSQL database never send one batch twice") {
  if (TestBackend() != "postgres") {
    MESSAGE("PostgreSQL only: one process per SQLite file");
    return;
  }
  SmtpServer srv;
  TestService a(WithSmtpRelay(srv));
  // The second process: its own Service, pool, clock and workers on the same database.
  Options o;
  o.database_url = a.database_url();
  o.clock = std::make_shared<ManualClock>(a.clock().NowMillis());
  o.rate_limits.enabled = false;
  o.db_pool_size = 2;
  WithSmtpRelay(srv)(o);
  auto opened = Service::Open(std::move(o));
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  std::unique_ptr<Service> b = std::move(opened).value();
  const app::triage::TriageDeps& deps_b =
      internal::ModulesOf(*b).Get<service::modules::TriageModule>().deps();

  Team x = NewTeam(a);
  constexpr int kBatches = 40;
  REQUIRE(TriageOf(a)
              .db
              ->Write([&](ports::Tx& tx) -> Status {
                for (int i = 0; i < kBatches; ++i) {
                  SV_RETURN_IF_ERROR(app::triage::QueueAlertEmail(TriageOf(a), tx, x.s.admin.org_id,
                                                                  x.member.user_id, "digest",
                                                                  "Digest " + std::to_string(i), "text", {}));
                }
                return Status::Ok();
              })
              .ok());
  Status sa, sb;
  std::thread ta([&] { sa = app::triage::SendDueBatches(TriageOf(a)); });
  std::thread tb([&] { sb = app::triage::SendDueBatches(deps_b); });
  ta.join();
  tb.join();
  CHECK_MESSAGE(sa.ok(), sa.ToString());
  CHECK_MESSAGE(sb.ok(), sb.ToString());
  b->Shutdown();

  CHECK(srv.mail_commands() == kBatches);
  std::set<std::string> subjects;
  for (const ReceivedMail& m : srv.messages()) {
    const size_t at = m.data.find("Subject: ");
    REQUIRE(at != std::string::npos);
    subjects.insert(m.data.substr(at, m.data.find("\r\n", at) - at));
  }
  CHECK(srv.messages().size() == kBatches);
  CHECK(subjects.size() == kBatches);  // each batch once
  // internal state: every batch took exactly one attempt (these test batches carry no events, so no history
  // lists them).
  CHECK(QueryInt(a, "SELECT COUNT(*) FROM digest_batches WHERE state = 'succeeded' AND attempts = 1") ==
        kBatches);
}

}  // namespace
}  // namespace service::testing
