// The application registry and first-capture receipts (issue 30 items 2 and
// 3; Spec 2 "Application registry", "Applications", "States and
// transitions"; contract "Capture identity"), through the routes on both
// backends: creation with fixed requestId retries (201, 200 with the same
// row, 409 for another body), strict bodies, roles and callers (admins and
// managers; members, testers, viewers 403; agent tokens and capture keys
// 401), another organization's or project's ids 404, cursor pages (at most
// 50, opaque cursors: garbled 400, another list's 404); capture-status
// (path only, no-store, waiting and capture_received with every field);
// the identity matrix through real ingests (the browser and Swift SDKs,
// the native flag off and on, sources, platform/OS pairs, fatal captures,
// console samples, null sources, another installation or project); the
// first capture wins (also with concurrent ingests); retries of a capture
// (its captureId seen before) and captures from before the flag never
// create a receipt and nothing is back-filled; turning the flag off keeps
// reads; a deleted bug leaves minimal identifiers (deleted_or_expired); a
// deleted installation or project takes the receipt; the directory's
// observed targets come from the recorded identities.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "areas/applications/module.h"
#include "service_internal.h"
#include "store/database.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

constexpr const char* kUnknownId = "00000000-0000-4000-8000-00000000abcd";

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::string Code(const TestResponse& r) {
  return r.json.is_object() && r.json.as_object().contains("code") ? S(r.json, "code") : "";
}

int n_request = 0;
std::string NewRequestId() {
  char id[40];
  std::snprintf(id, sizeof id, "0190f000-0000-7000-8000-%012d", ++n_request);
  return id;
}

std::string Base(const std::string& project) { return "/v1/applications/projects/" + project; }

json::value CreateApp(TestService& t, const Member& m, const std::string& project,
                      const std::string& identifier, const std::string& name = "Shop") {
  TestResponse r = t.Post(
      Base(project), json::object{{"requestId", NewRequestId()}, {"name", name}, {"identifier", identifier}},
      m.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json.at("application");
}

json::value CreateInstallation(TestService& t, const Member& m, const std::string& project,
                               const std::string& app, json::object extra = {}) {
  json::object body{{"requestId", NewRequestId()}};
  for (const auto& [k, v] : extra) body[k] = v;
  TestResponse r = t.Post(Base(project) + "/" + app + "/installations", body, m.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json.at("installation");
}

std::string StatusPath(const std::string& project, const std::string& app, const std::string& inst) {
  return Base(project) + "/" + app + "/installations/" + inst + "/capture-status";
}

TestResponse CaptureStatus(TestService& t, const Member& m, const std::string& project,
                           const std::string& app, const std::string& inst) {
  return t.Get(StatusPath(project, app, inst), m.headers());
}

std::string StateOf(TestService& t, const Member& m, const std::string& project, const std::string& app,
                    const std::string& inst) {
  TestResponse r = CaptureStatus(t, m, project, app, inst);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return S(r.json, "state");
}

json::object BrowserIdentity(const std::string& app, const std::string& inst,
                             const std::string& source = "automatic") {
  return json::object{{"applicationId", app},
                      {"installationId", inst},
                      {"sdkName", "service-browser"},
                      {"sdkVersion", "2.3.1"},
                      {"source", source}};
}

json::object SwiftIdentity(const std::string& app, const std::string& inst,
                           const std::string& source = "handled_error", const std::string& os = "ios") {
  return json::object{{"applicationId", app},  {"installationId", inst}, {"sdkName", "service-swift"},
                      {"sdkVersion", "1.4.0"}, {"source", source},       {"framework", "native"},
                      {"runtime", "swift"},    {"osFamily", os}};
}

int n_capture = 0;
// POST /v1/ingest naming `identity` in metadata.capture, on `platform`; returns the answer.
TestResponse Capture(TestService& t, const std::string& key, const json::value& identity,
                     const std::string& platform = "web", const std::string& title = "") {
  t.clock().Advance(1000);
  json::object extra{{"platform", platform}, {"metadata", json::object{{"capture", identity}}}};
  const std::string name = title.empty() ? "Capture " + std::to_string(++n_capture) : title;
  TestResponse r = Ingest(t, key, Report(name, name + " failed", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r;
}

std::function<void(Options&)> NativeOn(bool on = true) {
  return [on](Options& o) { o.native_capture_receipts = on; };
}

TEST_CASE("applications: creation with fixed requestId retries and strict bodies") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const HeaderList h = s.admin.headers();
  const std::string base = Base(s.project_id);

  const std::string req = NewRequestId();
  json::object body{{"requestId", req}, {"name", "Shop"}, {"identifier", "com.example.shop"}};
  TestResponse first = t.Post(base, body, h);
  REQUIRE_MESSAGE(first.status == 201, first.body);
  const json::value app = first.json.at("application");
  CHECK(S(app, "name") == "Shop");
  CHECK(S(app, "identifier") == "com.example.shop");
  CHECK(S(app, "requestId") == req);
  CHECK(S(app, "projectId") == s.project_id);
  const std::string app_id = S(app, "id");

  t.clock().Advance(5000);
  TestResponse again = t.Post(base, body, h);
  CHECK(again.status == 200);
  CHECK(again.json.at("application") == app);  // the same row, createdAt included
  json::object changed = body;
  changed["name"] = "Shop 2";
  TestResponse conflict = t.Post(base, changed, h);
  CHECK(conflict.status == 409);
  CHECK(Code(conflict) == "REQUEST_ID_CONFLICT");
  json::object taken{{"requestId", NewRequestId()}, {"name", "Other"}, {"identifier", "com.example.shop"}};
  TestResponse identifier = t.Post(base, taken, h);
  CHECK(identifier.status == 409);
  CHECK(Code(identifier) == "IDENTIFIER_TAKEN");

  // Installations: label optional; the body includes the path's application.
  const std::string ireq = NewRequestId();
  TestResponse inst = t.Post(base + "/" + app_id + "/installations", json::object{{"requestId", ireq}}, h);
  REQUIRE_MESSAGE(inst.status == 201, inst.body);
  CHECK(inst.json.at("installation").at("label").is_null());
  CHECK(S(inst.json.at("installation"), "applicationId") == app_id);
  CHECK(S(inst.json.at("installation"), "captureState") == "waiting");
  CHECK(t.Post(base + "/" + app_id + "/installations", json::object{{"requestId", ireq}}, h).status == 200);
  CHECK(t.Post(base + "/" + app_id + "/installations", json::object{{"requestId", ireq}, {"label", "x"}}, h)
            .status == 409);
  const std::string other_app = S(CreateApp(t, s.admin, s.project_id, "com.example.other"), "id");
  TestResponse moved =
      t.Post(base + "/" + other_app + "/installations", json::object{{"requestId", ireq}}, h);
  CHECK(moved.status == 409);
  CHECK(Code(moved) == "REQUEST_ID_CONFLICT");
  TestResponse labelled = t.Post(base + "/" + app_id + "/installations",
                                 json::object{{"requestId", NewRequestId()}, {"label", "Lab"}}, h);
  CHECK(labelled.status == 201);
  CHECK(S(labelled.json.at("installation"), "label") == "Lab");

  // Builds: the digest kept lower-case; a retry spelling it in upper case is the same request.
  const std::string breq = NewRequestId();
  const std::string sha = std::string(32, 'A') + std::string(32, 'b');
  json::object build{{"requestId", breq}, {"sourceRevision", "9f1c2ab"}, {"artifactSha256", sha}};
  TestResponse b1 = t.Post(base + "/" + app_id + "/builds", build, h);
  REQUIRE_MESSAGE(b1.status == 201, b1.body);
  CHECK(S(b1.json.at("build"), "artifactSha256") == std::string(32, 'a') + std::string(32, 'b'));
  CHECK(S(b1.json.at("build"), "sourceRevision") == "9f1c2ab");
  CHECK_FALSE(S(b1.json.at("build"), "id").empty());
  TestResponse b2 = t.Post(base + "/" + app_id + "/builds", build, h);
  CHECK(b2.status == 200);
  CHECK(b2.json.at("build") == b1.json.at("build"));
  build["sourceRevision"] = "other";
  CHECK(t.Post(base + "/" + app_id + "/builds", build, h).status == 409);
  TestResponse same_artifact = t.Post(
      base + "/" + app_id + "/builds",
      json::object{{"requestId", NewRequestId()}, {"sourceRevision", "x"}, {"artifactSha256", sha}}, h);
  CHECK(same_artifact.status == 409);
  CHECK(Code(same_artifact) == "BUILD_EXISTS");

  // Strict bodies: 400 VALIDATION_ERROR with a clear message.
  struct Bad {
    std::string path;
    std::string body;
    std::string message;
  };
  const std::string r = NewRequestId();
  const std::vector<Bad> bads = {
      {base, R"({"name":"A","identifier":"a"})", "requestId is required"},
      {base, R"({"requestId":"x","name":"A","identifier":"a"})", "requestId must be a UUID"},
      {base, R"({"requestId":")" + r + R"(","identifier":"a"})", "name is required"},
      {base, R"({"requestId":")" + r + R"(","name":"A","identifier":"a b"})",
       "identifier must not contain white space"},
      {base, R"({"requestId":")" + r + R"(","name":"A","identifier":"a","x":1})", "Unknown field: x"},
      {base, R"(["x"])", "Body must be a JSON object"},
      {base, R"({"requestId":)", "Invalid JSON"},
      {base + "/" + app_id + "/installations", R"({"requestId":")" + r + R"(","label":""})",
       "label must not be empty"},
      {base + "/" + app_id + "/installations", R"({"requestId":")" + r + R"(","name":"x"})",
       "Unknown field: name"},
      {base + "/" + app_id + "/builds",
       R"({"requestId":")" + r + R"(","sourceRevision":"a","artifactSha256":"abc"})",
       "artifactSha256 must be 64 hexadecimal digits"},
      {base + "/" + app_id + "/builds", R"({"requestId":")" + r + R"(","artifactSha256":")" + sha + R"("})",
       "sourceRevision is required"},
  };
  for (const Bad& bad : bads) {
    CAPTURE(bad.body);
    TestResponse res = t.Request("POST", bad.path, bad.body, h);
    CHECK(res.status == 400);
    CHECK(Code(res) == "VALIDATION_ERROR");
    CHECK(S(res.json, "error").find(bad.message) != std::string::npos);
  }
}

TEST_CASE("applications: admins and managers only, agent tokens and capture keys refused, foreign ids 404") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string app = S(CreateApp(t, s.admin, s.project_id, "com.example.roles"), "id");
  const std::string inst = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
  const std::string base = Base(s.project_id);

  Member manager = AddMemberWithRole(t, s.admin.org_id, "manager");
  TestResponse by_manager = t.Post(base + "/" + app + "/installations",
                                   json::object{{"requestId", NewRequestId()}}, manager.headers());
  CHECK(by_manager.status == 201);
  CHECK(t.Get(base, manager.headers()).status == 200);
  CHECK(CaptureStatus(t, manager, s.project_id, app, inst).status == 200);

  const std::vector<std::pair<std::string, std::string>> gets = {
      {"GET", base},
      {"GET", base + "/" + app + "/installations"},
      {"GET", base + "/" + app + "/builds"},
      {"GET", StatusPath(s.project_id, app, inst)}};
  const std::vector<std::pair<std::string, std::string>> posts = {
      {"POST", base},
      {"POST", base + "/" + app + "/installations"},
      {"POST", base + "/" + app + "/builds"},
      {"DELETE", base + "/" + app + "/installations/" + inst},
      {"DELETE", base + "/" + app}};
  for (const char* role : {"member", "tester", "viewer"}) {
    Member m = AddMemberWithRole(t, s.admin.org_id, role);
    for (const auto& list : {gets, posts}) {
      for (const auto& entry : list) {
        // Named references, not a structured binding: clang 14 cannot capture
        // one in CAPTURE's lambda.
        const std::string& method = entry.first;
        const std::string& path = entry.second;
        CAPTURE(role);
        CAPTURE(path);
        CHECK(t.Request(method, path, method == "POST" ? "{}" : "", m.headers()).status == 403);
      }
    }
  }
  // An agent token (even with every scope and a grant) and a capture key: 401; no credentials: 401.
  const std::string expires = util::FormatIso8601(t.clock().NowMillis() + 86'400'000);
  TestResponse pat =
      t.Post("/v1/org/agent-pats",
             json::object{{"scopes", json::array{"read_bugs", "create_bug", "get_repro_context",
                                                 "publish_symbols", "submit_verification"}},
                          {"expiresAt", expires},
                          {"projectGrants", json::array{json::object{{"projectId", s.project_id}}}}},
             s.admin.headers());
  REQUIRE_MESSAGE(pat.status == 201, pat.body);
  const HeaderList agent = {{"Authorization", "Bearer " + S(pat.json, "token")},
                            {"X-Service-Org", s.admin.org_id}};
  for (const auto& list : {gets, posts}) {
    for (const auto& entry : list) {
      const std::string& method = entry.first;
      const std::string& path = entry.second;
      CAPTURE(path);
      CHECK(t.Request(method, path, method == "POST" ? "{}" : "", agent).status == 401);
      CHECK(t.Request(method, path, method == "POST" ? "{}" : "", KeyHeader(s.key)).status == 401);
      CHECK(t.Request(method, path, method == "POST" ? "{}" : "").status == 401);
    }
  }

  // Another organization's admin: every id of this one reads as 404.
  CaptureSetup other = NewCaptureSetup(t);
  CHECK(t.Get(base, other.admin.headers()).status == 404);
  CHECK(t.Post(base, json::object{{"requestId", NewRequestId()}, {"name", "X"}, {"identifier", "x"}},
               other.admin.headers())
            .status == 404);
  CHECK(CaptureStatus(t, other.admin, s.project_id, app, inst).status == 404);
  // Its own project with this organization's application: 404 too.
  CHECK(CaptureStatus(t, other.admin, other.project_id, app, inst).status == 404);
  CHECK(t.Get(Base(other.project_id) + "/" + app + "/installations", other.admin.headers()).status == 404);
  // Unknown and malformed ids.
  CHECK(CaptureStatus(t, s.admin, s.project_id, app, kUnknownId).status == 404);
  CHECK(CaptureStatus(t, s.admin, s.project_id, kUnknownId, inst).status == 404);
  CHECK(CaptureStatus(t, s.admin, kUnknownId, app, inst).status == 404);
  CHECK(CaptureStatus(t, s.admin, s.project_id, app, "not-a-uuid").status == 404);
  CHECK(t.Get(Base("nope"), s.admin.headers()).status == 404);
  // An installation of another application of the same project: 404.
  const std::string app2 = S(CreateApp(t, s.admin, s.project_id, "com.example.two"), "id");
  CHECK(CaptureStatus(t, s.admin, s.project_id, app2, inst).status == 404);
}

TEST_CASE("applications: lists are cursor pages of at most 50, bad cursors 400, another list's 404") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const HeaderList h = s.admin.headers();
  std::vector<std::string> ids;
  for (int i = 0; i < 53; ++i) {
    if (i % 10 == 0) t.clock().Advance(1000);  // some rows share a creation time
    ids.push_back(S(CreateApp(t, s.admin, s.project_id, "app." + std::to_string(i)), "id"));
  }
  std::sort(ids.begin(), ids.end());  // UUIDv7 ids grow; within one millisecond the id orders
  TestResponse p1 = t.Get(Base(s.project_id), h);
  REQUIRE(p1.status == 200);
  const json::array& items1 = p1.json.at("items").as_array();
  REQUIRE(items1.size() == 50);
  REQUIRE(p1.json.at("nextCursor").is_string());
  TestResponse p2 = t.Get(Base(s.project_id) + "?cursor=" + S(p1.json, "nextCursor"), h);
  REQUIRE(p2.status == 200);
  const json::array& items2 = p2.json.at("items").as_array();
  CHECK(items2.size() == 3);
  CHECK(p2.json.at("nextCursor").is_null());
  std::vector<std::string> seen;
  for (const auto& v : items1) seen.push_back(S(v, "id"));
  for (const auto& v : items2) seen.push_back(S(v, "id"));
  std::vector<std::string> sorted_seen = seen;
  std::sort(sorted_seen.begin(), sorted_seen.end());
  CHECK(sorted_seen == ids);  // every row once
  // Order: creation time, then id.
  for (size_t i = 1; i < seen.size(); ++i) {
    const json::value& a = i - 1 < 50 ? items1[i - 1] : items2[i - 1 - 50];
    const json::value& b = i < 50 ? items1[i] : items2[i - 50];
    const bool ordered = S(a, "createdAt") < S(b, "createdAt") ||
                         (S(a, "createdAt") == S(b, "createdAt") && S(a, "id") < S(b, "id"));
    CHECK(ordered);
  }
  // limit
  TestResponse small = t.Get(Base(s.project_id) + "?limit=2", h);
  CHECK(small.json.at("items").as_array().size() == 2);
  for (const char* q :
       {"?limit=0", "?limit=51", "?limit=x", "?limit=1&limit=2", "?page=2", "?cursor=a&cursor=b"}) {
    CAPTURE(q);
    CHECK(t.Get(Base(s.project_id) + q, h).status == 400);
  }
  // Garbled cursors 400; a cursor of another list (installations, another project) 404.
  for (const char* c : {"garbage", "%00", "Zm9vfGJhcg"}) {
    CAPTURE(c);
    TestResponse bad = t.Get(Base(s.project_id) + "?cursor=" + c, h);
    CHECK(bad.status == 400);
    CHECK(Code(bad) == "INVALID_CURSOR");
  }
  const std::string cursor = S(p1.json, "nextCursor");
  const std::string project2 = CreateProjectVia(t, s.admin, "Second");
  TestResponse foreign = t.Get(Base(project2) + "?cursor=" + cursor, h);
  CHECK(foreign.status == 404);
  CHECK(Code(foreign) == "CURSOR_NOT_FOUND");
  const std::string app = ids.front();
  TestResponse other_kind = t.Get(Base(s.project_id) + "/" + app + "/installations?cursor=" + cursor, h);
  CHECK(other_kind.status == 404);

  // Installations and builds page the same way.
  for (int i = 0; i < 51; ++i) CreateInstallation(t, s.admin, s.project_id, app);
  TestResponse i1 = t.Get(Base(s.project_id) + "/" + app + "/installations", h);
  REQUIRE(i1.json.at("items").as_array().size() == 50);
  TestResponse i2 =
      t.Get(Base(s.project_id) + "/" + app + "/installations?cursor=" + S(i1.json, "nextCursor"), h);
  CHECK(i2.json.at("items").as_array().size() == 1);
  CHECK(i2.json.at("nextCursor").is_null());
  TestResponse builds = t.Get(Base(s.project_id) + "/" + app + "/builds", h);
  CHECK(builds.status == 200);
  CHECK(builds.json.at("items").as_array().empty());
  CHECK(builds.json.at("nextCursor").is_null());
}

TEST_CASE("applications: capture-status is path only, no-store, waiting until a first capture") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string app = S(CreateApp(t, s.admin, s.project_id, "https://shop.example"), "id");
  const std::string inst = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
  const std::string path = StatusPath(s.project_id, app, inst);

  TestResponse waiting = t.Get(path, s.admin.headers());
  REQUIRE(waiting.status == 200);
  CHECK(waiting.Header("Cache-Control") == "no-store");
  CHECK(S(waiting.json, "state") == "waiting");
  CHECK(waiting.json.at("firstCapture").is_null());
  CHECK(S(waiting.json, "checkedAt") == util::FormatIso8601(t.clock().NowMillis()));

  TestResponse query = t.Get(path + "?fresh=1", s.admin.headers());
  CHECK(query.status == 400);
  CHECK(Code(query) == "QUERY_NOT_ALLOWED");
  CHECK(query.Header("Cache-Control") == "no-store");
  TestResponse body = t.Request("GET", path, "{}", s.admin.headers());
  CHECK(body.status == 400);
  CHECK(Code(body) == "BODY_NOT_ALLOWED");
  CHECK(t.Request("POST", path, "", s.admin.headers()).status == 404);
  CHECK(CaptureStatus(t, s.admin, s.project_id, app, kUnknownId).Header("Cache-Control") == "no-store");

  const TestResponse captured = Capture(t, s.key, BrowserIdentity(app, inst, "user_report"));
  const int64_t accepted_at = t.clock().NowMillis();
  t.clock().Advance(60'000);
  TestResponse received = t.Get(path, s.admin.headers());
  REQUIRE(received.status == 200);
  CHECK(S(received.json, "state") == "capture_received");
  CHECK(S(received.json, "checkedAt") == util::FormatIso8601(t.clock().NowMillis()));
  const json::value& fc = received.json.at("firstCapture");
  CHECK_FALSE(S(fc, "captureId").empty());
  CHECK(S(fc, "occurrenceId") == S(captured.json, "occurrenceId"));
  CHECK(S(fc, "bugId") == S(captured.json, "id"));
  CHECK(S(fc, "acceptedAt") == util::FormatIso8601(accepted_at));
  CHECK(S(fc, "sdkName") == "service-browser");
  CHECK(S(fc, "sdkVersion") == "2.3.1");
  CHECK(S(fc, "captureSource") == "user_report");
  CHECK(S(fc, "platform") == "web");
  CHECK(S(fc, "evidenceAvailability") == "available");
  CHECK(fc.at("osFamily").is_null());
  // The installation list shows it too.
  TestResponse list = t.Get(Base(s.project_id) + "/" + app + "/installations", s.admin.headers());
  CHECK(S(list.json.at("items").at(0), "captureState") == "capture_received");
}

// One identity through a real ingest: does the installation get a receipt?
struct MatrixRow {
  const char* name;
  std::function<json::value(const std::string& app, const std::string& inst)> identity;
  const char* platform;
  bool want_native_off;
  bool want_native_on;
};

TEST_CASE("applications: which accepted captures create a receipt (the identity matrix, flag off and on)") {
  auto with = [](json::object o, const char* key, json::value v) {
    if (v.is_null() && std::string(key) != "source") {
      o.erase(key);
    } else {
      o[key] = std::move(v);
    }
    return json::value(std::move(o));
  };
  const std::vector<MatrixRow> rows = {
      {"browser automatic on web", [](auto a, auto i) { return json::value(BrowserIdentity(a, i)); }, "web",
       true, true},
      {"browser user_report on web",
       [](auto a, auto i) { return json::value(BrowserIdentity(a, i, "user_report")); }, "web", true, true},
      {"browser console sample", [](auto a, auto i) { return json::value(BrowserIdentity(a, i, "console")); },
       "web", false, false},
      {"browser handled_error",
       [](auto a, auto i) { return json::value(BrowserIdentity(a, i, "handled_error")); }, "web", false,
       false},
      {"browser legacy null source",
       [&](auto a, auto i) { return with(BrowserIdentity(a, i), "source", nullptr); }, "web", false, false},
      {"browser without source",
       [&](auto a, auto i) {
         json::object o = BrowserIdentity(a, i);
         o.erase("source");
         return json::value(o);
       },
       "web", false, false},
      {"browser on ios", [](auto a, auto i) { return json::value(BrowserIdentity(a, i)); }, "ios", false,
       false},
      {"browser without sdkVersion",
       [&](auto a, auto i) { return with(BrowserIdentity(a, i), "sdkVersion", nullptr); }, "web", false,
       false},
      {"unknown sdk",
       [&](auto a, auto i) { return with(BrowserIdentity(a, i), "sdkName", "service-android"); }, "web",
       false, false},
      {"swift handled_error ios/ios", [](auto a, auto i) { return json::value(SwiftIdentity(a, i)); }, "ios",
       false, true},
      {"swift user_report ios/ios",
       [](auto a, auto i) { return json::value(SwiftIdentity(a, i, "user_report")); }, "ios", false, true},
      {"swift handled_error other/macos",
       [](auto a, auto i) { return json::value(SwiftIdentity(a, i, "handled_error", "macos")); }, "other",
       false, true},
      {"swift fatal", [](auto a, auto i) { return json::value(SwiftIdentity(a, i, "fatal")); }, "ios", false,
       false},
      {"swift legacy null source",
       [&](auto a, auto i) { return with(SwiftIdentity(a, i), "source", nullptr); }, "ios", false, false},
      {"swift ios/macos",
       [](auto a, auto i) { return json::value(SwiftIdentity(a, i, "handled_error", "macos")); }, "ios",
       false, false},
      {"swift android/ios", [](auto a, auto i) { return json::value(SwiftIdentity(a, i)); }, "android", false,
       false},
      {"swift framework react-native",
       [&](auto a, auto i) { return with(SwiftIdentity(a, i), "framework", "react-native"); }, "ios", false,
       false},
      {"swift runtime kotlin", [&](auto a, auto i) { return with(SwiftIdentity(a, i), "runtime", "kotlin"); },
       "ios", false, false},
      {"identity not an object", [](auto, auto) { return json::value("service-browser"); }, "web", false,
       false},
      {"installation id of another application",
       [](auto, auto i) { return json::value(BrowserIdentity("00000000-0000-4000-8000-000000000001", i)); },
       "web", false, false},
      {"unknown installation", [](auto a, auto) { return json::value(BrowserIdentity(a, kUnknownId)); },
       "web", false, false},
  };
  for (bool native_on : {false, true}) {
    TestService t(NativeOn(native_on));
    CaptureSetup s = NewCaptureSetup(t);
    const std::string app = S(CreateApp(t, s.admin, s.project_id, "com.example.matrix"), "id");
    for (const MatrixRow& row : rows) {
      CAPTURE(native_on);
      CAPTURE(row.name);
      const std::string inst = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
      Capture(t, s.key, row.identity(app, inst), row.platform);
      const bool want = native_on ? row.want_native_on : row.want_native_off;
      CHECK(StateOf(t, s.admin, s.project_id, app, inst) == (want ? "capture_received" : "waiting"));
    }
  }
}

TEST_CASE("applications: the first qualifying capture wins and stays, others never touch the receipt") {
  TestService t(NativeOn());
  CaptureSetup s = NewCaptureSetup(t);
  const std::string app = S(CreateApp(t, s.admin, s.project_id, "com.example.first"), "id");
  const std::string inst = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
  const std::string other = S(CreateInstallation(t, s.admin, s.project_id, app), "id");

  // Captures that do not qualify come first; another installation's capture does not count.
  Capture(t, s.key, SwiftIdentity(app, inst, "fatal"), "ios");
  Capture(t, s.key, BrowserIdentity(app, other), "web");
  CHECK(StateOf(t, s.admin, s.project_id, app, inst) == "waiting");
  CHECK(StateOf(t, s.admin, s.project_id, app, other) == "capture_received");

  json::object first_identity = SwiftIdentity(app, inst, "user_report", "ios");
  first_identity["captureId"] = "swift-capture-1";
  const TestResponse first = Capture(t, s.key, first_identity, "ios");
  const json::value before = CaptureStatus(t, s.admin, s.project_id, app, inst).json.at("firstCapture");
  CHECK(S(before, "captureId") == "swift-capture-1");
  CHECK(S(before, "occurrenceId") == S(first.json, "occurrenceId"));
  CHECK(S(before, "osFamily") == "ios");
  CHECK(S(before, "framework") == "native");
  CHECK(S(before, "runtime") == "swift");
  CHECK(S(before, "captureSource") == "user_report");
  CHECK(S(before, "platform") == "ios");
  CHECK(S(before, "sdkVersion") == "1.4.0");

  Capture(t, s.key, SwiftIdentity(app, inst, "handled_error", "macos"), "other");
  Capture(t, s.key, SwiftIdentity(app, inst), "ios");
  CHECK(CaptureStatus(t, s.admin, s.project_id, app, inst).json.at("firstCapture") == before);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_receipts WHERE installation_id = ?", {inst}) == 1);
  // Every capture of a registered installation is recorded (fatal ones too).
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_identities WHERE installation_id = ?", {inst}) == 4);
}

TEST_CASE("applications: concurrent first captures of one installation create exactly one receipt") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string app = S(CreateApp(t, s.admin, s.project_id, "com.example.race"), "id");
  const std::string inst = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
  std::vector<std::thread> threads;
  std::atomic<int> accepted{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      json::object extra{{"platform", "web"},
                         {"metadata", json::object{{"capture", BrowserIdentity(app, inst)}}}};
      const std::string title = "Race " + std::to_string(i);
      TestResponse r = Ingest(t, s.key, Report(title, title + " failed", extra));
      if (r.status == 201) ++accepted;
    });
  }
  for (auto& th : threads) th.join();
  CHECK(accepted == 8);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_receipts WHERE installation_id = ?", {inst}) == 1);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_identities WHERE installation_id = ?", {inst}) == 8);
  const std::string occurrence =
      QueryText(t, "SELECT occurrence_id FROM capture_receipts WHERE installation_id = ?", {inst});
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM occurrences WHERE id = ?", {occurrence}) == 1);
}

TEST_CASE("applications: retries of old captures and captures before the flag never create a receipt") {
  std::string url;
  std::string project, app, inst, key;
  Member admin;
  {
    TestService t(NativeOn(false));
    url = t.database_url();
    CaptureSetup s = NewCaptureSetup(t);
    admin = s.admin;
    project = s.project_id;
    key = s.key;
    app = S(CreateApp(t, s.admin, project, "com.example.retry"), "id");
    inst = S(CreateInstallation(t, s.admin, project, app), "id");
    json::object identity = SwiftIdentity(app, inst);
    identity["captureId"] = "old-capture";
    Capture(t, key, identity, "ios");  // accepted while native receipts are off
    CHECK(StateOf(t, admin, project, app, inst) == "waiting");
    // A retry of a browser capture whose first delivery made the receipt: nothing changes either.
  }
  // The flag turned on: nothing is back-filled, and a retry of the old capture does not qualify.
  TestService t([&](Options& o) {
    o.native_capture_receipts = true;
    o.database_url = url;
  });
  RenewToken(t, admin);
  CHECK(StateOf(t, admin, project, app, inst) == "waiting");
  json::object retry = SwiftIdentity(app, inst);
  retry["captureId"] = "old-capture";
  Capture(t, key, retry, "ios");
  CHECK(StateOf(t, admin, project, app, inst) == "waiting");
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_identities WHERE installation_id = ?", {inst}) == 2);
  json::object fresh = SwiftIdentity(app, inst);
  fresh["captureId"] = "new-capture";
  const TestResponse r = Capture(t, key, fresh, "ios");
  TestResponse status = CaptureStatus(t, admin, project, app, inst);
  CHECK(S(status.json, "state") == "capture_received");
  CHECK(S(status.json.at("firstCapture"), "captureId") == "new-capture");
  CHECK(S(status.json.at("firstCapture"), "occurrenceId") == S(r.json, "occurrenceId"));
}

TEST_CASE("applications: turning the native flag off keeps reads of existing receipts") {
  std::string url, project, app, inst, key;
  Member admin;
  {
    TestService t(NativeOn(true));
    url = t.database_url();
    CaptureSetup s = NewCaptureSetup(t);
    admin = s.admin;
    project = s.project_id;
    key = s.key;
    app = S(CreateApp(t, s.admin, project, "com.example.flag"), "id");
    inst = S(CreateInstallation(t, s.admin, project, app), "id");
    Capture(t, key, SwiftIdentity(app, inst), "ios");
    CHECK(StateOf(t, admin, project, app, inst) == "capture_received");
  }
  TestService t([&](Options& o) { o.database_url = url; });
  RenewToken(t, admin);
  TestResponse r = CaptureStatus(t, admin, project, app, inst);
  CHECK(S(r.json, "state") == "capture_received");
  CHECK(S(r.json.at("firstCapture"), "sdkName") == "service-swift");
  // And a new installation's native captures wait now.
  const std::string inst2 = S(CreateInstallation(t, admin, project, app), "id");
  Capture(t, key, SwiftIdentity(app, inst2), "ios");
  CHECK(StateOf(t, admin, project, app, inst2) == "waiting");
}

TEST_CASE(
    "applications: a deleted bug leaves minimal identifiers, deleting the installation or project cascades") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string app = S(CreateApp(t, s.admin, s.project_id, "com.example.cascade"), "id");
  const std::string inst = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
  const TestResponse captured = Capture(t, s.key, BrowserIdentity(app, inst));
  const json::value before = CaptureStatus(t, s.admin, s.project_id, app, inst).json.at("firstCapture");
  REQUIRE(S(before, "evidenceAvailability") == "available");

  TestResponse del = t.Delete("/v1/bugs/" + S(captured.json, "id"), s.admin.headers());
  REQUIRE_MESSAGE(del.status == 200, del.body);
  TestResponse after = CaptureStatus(t, s.admin, s.project_id, app, inst);
  CHECK(S(after.json, "state") == "capture_received");
  const json::value& fc = after.json.at("firstCapture");
  CHECK(S(fc, "captureId") == S(before, "captureId"));
  CHECK(S(fc, "occurrenceId") == S(before, "occurrenceId"));
  CHECK(S(fc, "acceptedAt") == S(before, "acceptedAt"));
  CHECK(fc.at("bugId").is_null());
  CHECK(S(fc, "evidenceAvailability") == "deleted_or_expired");

  // Deleting the installation takes its receipt and capture records.
  const std::string base = Base(s.project_id) + "/" + app;
  TestResponse gone = t.Delete(base + "/installations/" + inst, s.admin.headers());
  CHECK(gone.status == 200);
  CHECK(t.Delete(base + "/installations/" + inst, s.admin.headers()).status == 404);
  CHECK(CaptureStatus(t, s.admin, s.project_id, app, inst).status == 404);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_receipts WHERE installation_id = ?", {inst}) == 0);
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_identities WHERE installation_id = ?", {inst}) == 0);

  // Deleting the project takes everything of it.
  const std::string inst2 = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
  Capture(t, s.key, BrowserIdentity(app, inst2));
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_receipts WHERE installation_id = ?", {inst2}) == 1);
  ExecSql(t, "DELETE FROM projects WHERE id = ?", {s.project_id});
  for (const char* table :
       {"capture_receipts", "capture_identities", "application_installations", "applications"}) {
    CAPTURE(table);
    CHECK(QueryInt(t, std::string("SELECT COUNT(*) FROM ") + table) == 0);
  }
  // Deleting an application (ours) answers 404 once it is gone.
  CaptureSetup s2 = NewCaptureSetup(t);
  const std::string app2 = S(CreateApp(t, s2.admin, s2.project_id, "com.example.two"), "id");
  CHECK(t.Delete(Base(s2.project_id) + "/" + app2, s2.admin.headers()).status == 200);
  CHECK(t.Delete(Base(s2.project_id) + "/" + app2, s2.admin.headers()).status == 404);
}

TEST_CASE(
    "applications: captures naming another project's installation, or without identity, record nothing") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  CaptureSetup other = NewCaptureSetup(t);
  const std::string app = S(CreateApp(t, s.admin, s.project_id, "com.example.scope"), "id");
  const std::string inst = S(CreateInstallation(t, s.admin, s.project_id, app), "id");
  Capture(t, other.key, BrowserIdentity(app, inst));  // another organization's key
  const std::string project2 = CreateProjectVia(t, s.admin, "Second");
  const std::string key2 = CreateKeyVia(t, s.admin, project2);
  Capture(t, key2, BrowserIdentity(app, inst));  // the same organization, another project
  t.clock().Advance(1000);
  REQUIRE(Ingest(t, s.key, Report("No identity", "plain", json::object{{"platform", "web"}})).status == 201);
  REQUIRE(Ingest(t, s.key,
                 Report("Evidence only", "plain",
                        json::object{{"metadata", json::object{{"evidence", json::array{"x"}}}}}))
              .status == 201);
  CHECK(StateOf(t, s.admin, s.project_id, app, inst) == "waiting");
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_identities") == 0);
}

TEST_CASE("applications: the directory's observed targets come from the recorded capture identities") {
  TestService t(NativeOn());
  CaptureSetup s = NewCaptureSetup(t);
  const std::string ios = S(CreateApp(t, s.admin, s.project_id, "com.example.ios"), "id");
  const std::string web = S(CreateApp(t, s.admin, s.project_id, "https://example.com"), "id");
  const std::string ios_inst = S(CreateInstallation(t, s.admin, s.project_id, ios), "id");
  const std::string web_inst = S(CreateInstallation(t, s.admin, s.project_id, web), "id");
  // One bug observed on both applications (same title and message: one fingerprint).
  const std::string bug =
      S(Capture(t, s.key, SwiftIdentity(ios, ios_inst), "ios", "Checkout fails").json, "id");
  CHECK(S(Capture(t, s.key, BrowserIdentity(web, web_inst), "web", "Checkout fails").json, "id") == bug);
  auto& module = internal::ModulesOf(t.service()).Get<modules::ApplicationsModule>();
  std::vector<ports::ObservedTarget> targets;
  REQUIRE(internal::PlatformOf(t.service())
              .db
              ->Read([&](store::Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(targets, module.directory().ObservedTargets(c, s.admin.org_id, {bug}));
                return Status::Ok();
              })
              .ok());
  REQUIRE(targets.size() == 2);
  bool saw_ios = false, saw_web = false;
  for (const auto& target : targets) {
    if (target.application_id == ios) {
      saw_ios = true;
      CHECK(target.runtime == "swift");
      CHECK(target.platform == "ios");
      CHECK(target.os_family == "ios");
    } else if (target.application_id == web) {
      saw_web = true;
      CHECK(target.runtime.empty());
      CHECK(target.platform == "web");
    }
  }
  CHECK(saw_ios);
  CHECK(saw_web);
}

}  // namespace
}  // namespace service::testing
