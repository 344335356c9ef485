// POST /v1/bugs/manual and POST /v1/projects/:id/test-event: console reports
// through the same ingest pipeline (issue 4 item 8).
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "support/capture_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// GET /v1/bugs/:id as `m`; REQUIREs 200.
json::value Bug(TestService& t, const Member& m, const std::string& bug) {
  TestResponse r = t.Get("/v1/bugs/" + bug, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}

// The occurrence a console report answered with, from GET /v1/bugs/:id/occurrences.
json::value Occurrence(TestService& t, const Member& m, const TestResponse& reported) {
  TestResponse r = t.Get("/v1/bugs/" + Str(reported.json, "id") + "/occurrences?limit=200", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  for (const auto& o : r.json.at("occurrences").as_array())
    if (o.at("id") == reported.json.at("occurrenceId")) return o;
  FAIL("occurrence not listed: ", Str(reported.json, "occurrenceId"));
  return nullptr;
}

// How many occurrences the organization of `m` holds, read through the API.
int64_t OrgOccurrences(TestService& t, const Member& m) {
  TestResponse list = t.Get("/v1/bugs?signalClass=all&limit=200", m.headers());
  REQUIRE_MESSAGE(list.status == 200, list.body);
  int64_t n = 0;
  for (const auto& b : list.json.at("bugs").as_array()) {
    TestResponse r = t.Get("/v1/bugs/" + Str(b, "id") + "/occurrences", m.headers());
    REQUIRE_MESSAGE(r.status == 200, r.body);
    n += r.json.at("total").as_int64();
  }
  return n;
}

}  // namespace

TEST_CASE("manual reports answer {id, occurrenceId, deduplicated} and deduplicate like ingest") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EventRecorder rec(t);
  json::object body{{"projectId", s.project_id},
                    {"title", "Button does nothing"},
                    {"description", "Clicked Save twice"},
                    {"severity", "high"},
                    {"url", "https://app.example.com/settings/42"},
                    {"environment", "production"}};
  TestResponse a = t.Post("/v1/bugs/manual", body, s.admin.headers());
  REQUIRE_MESSAGE(a.status == 201, a.body);
  CHECK(a.json.at("deduplicated") == false);
  CHECK(a.json.at("occurrenceId").is_string());
  const std::string bug = Str(a.json, "id");
  const json::value stored = Bug(t, s.admin, bug);
  CHECK(Str(stored, "severity") == "high");
  CHECK(Str(stored, "latest_environment") == "production");
  CHECK(Str(stored, "signal_family") == "user_report");
  // The caller is the reporter and the end user.
  const json::value occ = Occurrence(t, s.admin, a);
  CHECK(Str(occ, "reporter_email") == s.admin.email);
  CHECK(Str(occ, "user_key") == s.admin.email);

  // Same title and page (ids normalized): the same bug.
  body["url"] = "https://app.example.com/settings/77";
  TestResponse b = t.Post("/v1/bugs/manual", body, s.admin.headers());
  REQUIRE(b.status == 201);
  CHECK(Str(b.json, "id") == bug);
  CHECK(b.json.at("deduplicated") == true);
  CHECK(Bug(t, s.admin, bug).at("report_count") == 2);

  // An ingested user report with the same title and page joins it too.
  TestResponse ingested =
      Ingest(t, s.key,
             json::object{{"title", "Button does nothing"}, {"url", "https://app.example.com/settings/1"}});
  REQUIRE(ingested.status == 201);
  CHECK(Str(ingested.json, "id") == bug);

  CHECK(rec.OfType("new_bug").size() == 1);
  CHECK(rec.OfType("duplicate").size() == 2);
}

TEST_CASE("manual reports: validation, project scoping and roles") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  auto post = [&](const json::object& body, const Member& m) {
    return t.Post("/v1/bugs/manual", body, m.headers());
  };
  CHECK(post({{"title", "abc"}}, s.admin).status == 400);
  CHECK(post({{"projectId", "not-a-uuid"}, {"title", "abc"}}, s.admin).status == 400);
  CHECK(post({{"projectId", s.project_id}, {"title", "ab"}}, s.admin).status == 400);
  CHECK(post({{"projectId", s.project_id}, {"title", std::string(501, 't')}}, s.admin).status == 400);
  CHECK(post({{"projectId", s.project_id}, {"title", "abc"}, {"severity", "meh"}}, s.admin).status == 400);
  CHECK(post({{"projectId", s.project_id}, {"title", "abc"}, {"description", std::string(10'001, 'd')}},
             s.admin)
            .status == 400);
  CHECK(post({{"projectId", s.project_id}, {"title", "abc"}, {"url", std::string(2001, 'u')}}, s.admin)
            .status == 400);
  CHECK(post({{"projectId", s.project_id}, {"title", "abc"}, {"environment", std::string(101, 'e')}}, s.admin)
            .status == 400);
  TestResponse bad_json = t.Request("POST", "/v1/bugs/manual", "{oops", s.admin.headers());
  CHECK(bad_json.status == 400);
  CHECK(bad_json.json.at("error") == "Invalid JSON in request body");

  // Another organization's project reads as absent.
  CaptureSetup other = NewCaptureSetup(t);
  TestResponse foreign = post({{"projectId", other.project_id}, {"title", "abc"}}, s.admin);
  CHECK(foreign.status == 404);
  CHECK(foreign.json.at("error") == "Project not found");

  Member viewer = AddMemberWithRole(t, s.admin.org_id, "viewer");
  CHECK(post({{"projectId", s.project_id}, {"title", "abc"}}, viewer).status == 403);
  Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  CHECK(post({{"projectId", s.project_id}, {"title", "abc"}}, member).status == 201);
  CHECK(t.Post("/v1/bugs/manual", json::object{{"projectId", s.project_id}, {"title", "abc"}}).status == 401);
  CHECK(OrgOccurrences(t, s.admin) == 1);
  CHECK(OrgOccurrences(t, other.admin) == 0);
}

TEST_CASE("test events create a real occurrence through the pipeline with the caller as end user") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EventRecorder rec(t);
  TestResponse a = t.Post("/v1/projects/" + s.project_id + "/test-event", json::object{{"platform", "ios"}},
                          s.admin.headers());
  REQUIRE_MESSAGE(a.status == 201, a.body);
  CHECK(a.json.at("platform") == "ios");
  CHECK(a.json.at("deduplicated") == false);
  CHECK(a.json.at("regression") == false);
  CHECK(a.json.at("is_regression") == false);
  CHECK(Str(a.json, "fingerprint").size() == 16);
  const std::string bug = Str(a.json, "id");
  const json::value stored = Bug(t, s.admin, bug);
  CHECK(Str(stored, "title").find("iOS") != std::string::npos);
  CHECK(Str(stored, "signal_class") == "issue");
  const json::value occ = Occurrence(t, s.admin, a);
  CHECK(Str(occ, "platform") == "ios");
  CHECK(Str(occ, "user_key") == s.admin.user_id);
  CHECK(rec.OfType("new_bug").size() == 1);

  TestResponse b = t.Post("/v1/projects/" + s.project_id + "/test-event", json::object{{"platform", "ios"}},
                          s.admin.headers());
  CHECK(Str(b.json, "id") == bug);
  CHECK(b.json.at("deduplicated") == true);
  TestResponse web =
      t.Post("/v1/projects/" + s.project_id + "/test-event", json::object{}, s.admin.headers());
  REQUIRE(web.status == 201);
  CHECK(web.json.at("platform") == "web");
  CHECK(Str(web.json, "id") != bug);

  CHECK(t.Post("/v1/projects/" + s.project_id + "/test-event", json::object{{"platform", "other"}},
               s.admin.headers())
            .status == 400);
  CHECK(
      t.Post("/v1/projects/" + s.project_id + "/test-event", json::object{{"platform", 3}}, s.admin.headers())
          .status == 400);
  CaptureSetup other = NewCaptureSetup(t);
  CHECK(
      t.Post("/v1/projects/" + other.project_id + "/test-event", json::object{}, s.admin.headers()).status ==
      404);
  Member viewer = AddMemberWithRole(t, s.admin.org_id, "viewer");
  CHECK(t.Post("/v1/projects/" + s.project_id + "/test-event", json::object{}, viewer.headers()).status ==
        403);
}

}  // namespace service::testing
