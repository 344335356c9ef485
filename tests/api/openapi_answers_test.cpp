// The answers of real requests against GET /v1/openapi.json (issue 34 item
// 4), on both backends: a walk through the routes a console user and an agent
// use (accounts, projects and keys, capture, bugs reads and triage writes,
// team, tickets, notifications, integrations, agent tokens and claims,
// settings, operations), each answer checked against its operation in the
// document the service serves (support/openapi_check.h): the status is
// documented and the JSON body matches that response's schema. A handler
// whose answer changes without its catalogue schema fails here.
//
// Every other API test's answers are checked the same way by the harness
// (support/openapi_check.h; SERVICE_TEST_OPENAPI=0 turns that off).
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <functional>
#include <string>
#include <vector>

#include "support/accounts.h"
#include "support/openapi_check.h"

namespace service::testing {
namespace {

namespace json = boost::json;

class Walk {
 public:
  explicit Walk(TestService& t) : t_(t), doc_(OpenApiDocumentOf(t.service())) {}

  // The answer of `method` `path`, checked; `expect`: its status.
  TestResponse Call(const std::string& method, const std::string& path, const HeaderList& headers,
                    const json::value& body = nullptr, int expect = 0) {
    TestResponse r = t_.Request(method, path, body.is_null() ? "" : json::serialize(body), headers);
    if (expect != 0)
      CHECK_MESSAGE(r.status == expect, method << " " << path << ": " << r.status << " " << r.body);
    const AnswerCheck c = CheckAnswer(doc_, method, r);
    CHECK_MESSAGE(c.checked, method << " " << path << " matched no route");
    for (const std::string& p : c.problems) FAIL_CHECK(r.route << " " << p);
    if (c.checked) ++checked_;
    return r;
  }
  int checked() const { return checked_; }

 private:
  TestService& t_;
  const json::value doc_;  // a copy: the cache behind OpenApiDocumentOf follows other route tables
  int checked_ = 0;
};

std::string S(const json::value& v) { return std::string(v.as_string()); }

TEST_CASE("openapi answers of real requests match their operations") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "owner@example.com");
  ExecSql(*t, "UPDATE organizations SET plan = 'pro' WHERE id = ?", {a.org_id});
  Walk w(*t);
  const HeaderList h = BearerOrg(a.access_token, a.org_id);
  const HeaderList none;

  // Public and session routes.
  w.Call("GET", "/v1/health", none, nullptr, 200);
  w.Call("GET", "/v1/openapi.json", none, nullptr, 200);
  w.Call("GET", "/v1/auth/me", Bearer(a.access_token), nullptr, 200);
  w.Call("GET", "/v1/auth/whats-new", Bearer(a.access_token), nullptr, 200);
  w.Call("POST", "/v1/auth/login", none, json::object{{"email", a.email}, {"password", a.password}}, 200);
  w.Call("POST", "/v1/auth/refresh", none, json::object{{"refreshToken", a.refresh_token}}, 200);
  w.Call("POST", "/v1/auth/forgot-password", none, json::object{{"email", a.email}}, 200);
  w.Call("POST", "/v1/auth/login", none, json::object{{"email", a.email}, {"password", "wrong one"}}, 401);
  w.Call("GET", "/v1/projects", none, nullptr, 401);

  // Projects and keys.
  w.Call("GET", "/v1/projects", h, nullptr, 200);
  const TestResponse project =
      w.Call("POST", "/v1/projects", h, json::object{{"name", "Second"}, {"orgId", a.org_id}}, 201);
  REQUIRE(project.status == 201);
  const std::string second = S(project.json.at("id"));
  w.Call("GET", "/v1/projects/" + a.project_id + "/keys", h, nullptr, 200);
  w.Call("POST", "/v1/projects/" + second + "/keys", h, json::object{{"environment", "live"}}, 201);
  w.Call("GET", "/v1/projects/" + a.project_id + "/scrubbing", h, nullptr, 200);
  w.Call("GET", "/v1/projects/" + a.project_id + "/agent-settings", h, nullptr, 200);
  w.Call("GET", "/v1/projects/" + a.project_id + "/agent-notifications", h, nullptr, 200);
  w.Call("DELETE", "/v1/projects/" + a.project_id + "/keys/nope", h, nullptr, 404);

  // Capture, then the bug's reads.
  const HeaderList key{{"X-Service-Key", a.api_key}};
  json::object report{
      {"title", "Checkout fails"},
      {"url", "https://app.example.com/orders/123"},
      {"events", json::array{json::object{
                     {"type", "error"},
                     {"timestamp", 1768471100000},
                     {"data", json::object{{"name", "TypeError"}, {"message", "x is undefined"}}}}}}};
  w.Call("POST", "/v1/ingest", key, report, 0);
  w.Call("POST", "/v1/ingest", none, report, 401);
  const TestResponse bugs = w.Call("GET", "/v1/bugs", h, nullptr, 200);
  REQUIRE(bugs.json.is_object());
  REQUIRE(!bugs.json.at("bugs").as_array().empty());
  const std::string bug = S(bugs.json.at("bugs").as_array()[0].at("id"));
  const std::string b = "/v1/bugs/" + bug;
  w.Call("GET", b, h, nullptr, 200);
  for (const char* sub : {"/events", "/occurrences", "/history", "/comments", "/users", "/similar",
                          "/anomalies", "/watching", "/agent-status", "/verification"})
    w.Call("GET", b + sub, h, nullptr, 200);
  for (const char* list : {"/v1/bugs/stats", "/v1/bugs/groups", "/v1/bugs/search?q=checkout", "/v1/bugs/live",
                           "/v1/bugs/recommended", "/v1/bugs/presence", "/v1/end-users?q=us"})
    w.Call("GET", list, h, nullptr, 200);
  w.Call("GET", "/v1/bugs/00000000-0000-0000-0000-000000000000", h, nullptr, 404);

  // Triage writes.
  w.Call("POST", b + "/comments", h, json::object{{"content", "looking"}}, 201);
  w.Call("POST", b + "/watch", h, nullptr, 200);
  w.Call("DELETE", b + "/watch", h, nullptr, 200);
  w.Call("PATCH", b, h, json::object{{"status", "working"}, {"note", "on it"}}, 200);
  w.Call("PATCH", b, h, json::object{{"status", "not a status"}}, 400);

  // Team, tickets, notifications, integrations, agent tokens.
  w.Call("GET", "/v1/team", h, nullptr, 200);
  w.Call("GET", "/v1/team/activity", h, nullptr, 200);
  w.Call("GET", "/v1/team/" + a.user_id + "/notifications", h, nullptr, 200);
  w.Call("POST", "/v1/team/invite", h,
         json::object{{"email", "new@example.com"}, {"role", "member"}, {"orgId", a.org_id}}, 201);
  w.Call("GET", "/v1/tickets", h, nullptr, 200);
  const TestResponse ticket = w.Call("POST", "/v1/tickets", h, json::object{{"title", "Follow up"}}, 201);
  if (ticket.json.is_object() && ticket.json.as_object().contains("ticket"))
    w.Call("GET", "/v1/tickets/" + S(ticket.json.at("ticket").at("id")), h, nullptr, 200);
  w.Call("GET", "/v1/notifications", h, nullptr, 200);
  w.Call("POST", "/v1/notifications/read-all", h, nullptr, 200);
  w.Call("GET", "/v1/integrations?projectId=" + a.project_id, h, nullptr, 200);
  w.Call("GET", "/v1/org/agent-pats", h, nullptr, 200);
  const TestResponse pat =
      w.Call("POST", "/v1/org/agent-pats", h,
             json::object{{"name", "ci agent"},
                          {"scopes", json::array{"read_bugs", "claim_issue"}},
                          {"expiresAt", "2026-02-14T10:00:00.000Z"},
                          {"projectGrants", json::array{json::object{{"projectId", a.project_id}}}}},
             201);
  REQUIRE(pat.status == 201);
  const HeaderList agent = Bearer(S(pat.json.at("token")));
  w.Call("GET", b, agent, nullptr, 200);
  w.Call("GET", "/v1/agent-work/claims", agent, nullptr, 0);
  w.Call("GET", "/v1/auth/agent-context", agent, nullptr, 200);

  // Settings and operations.
  for (const char* get :
       {"/v1/org/usage", "/v1/billing/subscription", "/v1/billing/budget", "/v1/portfolio/overview",
        "/v1/alerts/overview", "/v1/evidence/capabilities", "/v1/org/support-sessions"})
    w.Call("GET", get, h, nullptr, 200);
  const std::string in_project = "?projectId=" + a.project_id;
  w.Call("GET", "/v1/alerts/policy" + in_project, h, nullptr, 200);
  w.Call("GET", "/v1/alerts/digests" + in_project, h, nullptr, 200);

  MESSAGE(w.checked() << " answers checked");
  CHECK(w.checked() >= 60);
}

TEST_CASE("openapi answer check reports an answer that left its schema") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "owner@example.com");
  const json::value doc = OpenApiDocumentOf(t->service());
  TestResponse r = t->Get("/v1/projects", BearerOrg(a.access_token, a.org_id));
  REQUIRE(r.status == 200);
  REQUIRE(CheckAnswer(doc, "GET", r).problems.empty());

  auto problems = [&](const std::function<void(TestResponse&)>& change) {
    TestResponse copy = r;
    change(copy);
    const AnswerCheck c = CheckAnswer(doc, "GET", copy);
    CHECK(c.checked);
    std::string all;
    for (const std::string& p : c.problems) all += p + "\n";
    return all;
  };
  CHECK(problems([](TestResponse& x) {
          x.json.at("projects").as_array()[0].as_object().erase("slug");
        }).find("$.projects[0]: required member \"slug\" missing") != std::string::npos);
  CHECK(problems([](TestResponse& x) {
          x.json.at("projects").as_array()[0].as_object()["project_number"] = "7";
        }).find("$.projects[0].project_number: \"7\" is not of type \"integer\"") != std::string::npos);
  // Project lists its members exactly (additionalProperties false).
  CHECK(problems([](TestResponse& x) {
          x.json.at("projects").as_array()[0].as_object()["secret"] = 1;
        }).find("member \"secret\" is not in the schema") != std::string::npos);
  CHECK(problems([](TestResponse& x) { x.json = json::array(); }).find("is not of type \"object\"") !=
        std::string::npos);
  // A status the operation does not declare falls to "default", the error
  // envelope; a media type it does not list.
  CHECK(problems([](TestResponse& x) { x.status = 202; }).find("202 $: required member \"error\" missing") !=
        std::string::npos);
  CHECK(problems([](TestResponse& x) {
          x.headers.Set("Content-Type", "text/plain");
        }).find("answers text/plain") != std::string::npos);
  // An error answer checks against the error envelope.
  CHECK(problems([](TestResponse& x) {
          x.status = 401;
          x.json = json::object{{"message", "no"}};
        }).find("required member \"error\" missing") != std::string::npos);
}

// An "open" schema says nothing of an answer's fields: {} or an object
// without properties (components/schemas/OpenObject).
bool IsOpen(const json::value& doc, const json::value& schema) {
  const json::value* s = &schema;
  while (s->is_object() && s->as_object().contains("$ref")) {
    const std::string ref(s->at("$ref").as_string());
    s = &doc.at("components").at("schemas").at(ref.substr(ref.rfind('/') + 1));
  }
  if (!s->is_object()) return true;
  const json::object& o = s->as_object();
  for (const char* exact : {"properties", "items", "anyOf", "oneOf", "allOf", "const", "enum"})
    if (o.contains(exact)) return false;
  return true;
}

TEST_CASE("openapi every JSON answer of a success status has an exact schema") {
  TestService t;
  const json::value doc = OpenApiDocumentOf(t.service());
  int exact = 0;
  std::vector<std::string> open;
  for (const auto& path : doc.at("paths").as_object()) {
    for (const auto& op : path.value().as_object()) {
      bool any_json = false;
      bool is_open = false;
      for (const auto& resp : op.value().at("responses").as_object()) {
        if (resp.key().empty() || resp.key()[0] != '2') continue;
        const json::value* content = resp.value().as_object().if_contains("content");
        const json::value* media = content ? content->as_object().if_contains("application/json") : nullptr;
        if (!media) continue;
        any_json = true;
        if (IsOpen(doc, media->at("schema"))) is_open = true;
      }
      if (!any_json) continue;
      if (is_open)
        open.push_back(std::string(op.key()) + " " + std::string(path.key()));
      else
        ++exact;
    }
  }
  MESSAGE(exact << " operations with exact answer schemas, " << open.size() << " open");
  std::string listed;
  for (const std::string& o : open) listed += "\n  " + o;
  // A new route's answer needs its schema in openapi_catalogue.cpp.
  CHECK_MESSAGE(open.empty(), "operations answering an open schema:" << listed);
  CHECK(exact > 150);
}

}  // namespace
}  // namespace service::testing
