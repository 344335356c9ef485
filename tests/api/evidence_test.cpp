// Evidence (Spec 2 "Evidence", server contract "Evidence"; issue 30 item 1)
// through the routes, in-process, on the backend under test: capabilities
// for each credential, reservation (strict body, formats and sizes, who may),
// upload of the exact bytes (EVIDENCE_MISMATCH and nothing stored, 409 on a
// second upload, a streamed body source, the largest replay), metadata,
// attachment from an ingest's metadata.evidence, the occurrence listing
// (order, bounds, 403 before 404, another organization's ids), the download
// (headers, bytes), deletion, expiry and the sweep, 503 without storage,
// capture keys refused, scopes and grants, and no storage key, path or
// uploader in any answer.
#include <doctest/doctest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/evidence/module.h"
#include "service/http.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "util/crypto.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

constexpr int64_t kDayMs = 86'400'000;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// Regular files under `dir` (recursively).
int CountFiles(const std::string& dir) {
  int n = 0;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) continue;
    n += S_ISDIR(st.st_mode) ? CountFiles(path) : 1;
  }
  ::closedir(d);
  return n;
}

std::string NewToken(TestService& t, const Member& admin, const std::vector<std::string>& scopes,
                     const std::vector<std::string>& projects) {
  json::array s;
  for (const auto& x : scopes) s.emplace_back(x);
  json::array grants;
  for (const auto& p : projects) grants.push_back(json::object{{"projectId", p}});
  TestResponse r =
      t.Post("/v1/org/agent-pats",
             json::object{{"name", "evidence test"},
                          {"scopes", std::move(s)},
                          {"expiresAt", util::FormatIso8601(t.clock().NowMillis() + 30 * kDayMs)},
                          {"projectGrants", std::move(grants)}},
             admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "token");
}

HeaderList AgentHeaders(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

struct Fixture {
  std::string dir = FreshTempDir("evidence");
  TestService t{[this](Options& o) { o.evidence_dir = dir; }};
  CaptureSetup s = NewCaptureSetup(t, "pro");
  std::string other_project = CreateProjectVia(t, s.admin, "Other");
  // Every scope, a grant for s.project_id only.
  std::string agent = NewToken(
      t, s.admin, {"read_bugs", "create_bug", "get_repro_context", "request_evidence"}, {s.project_id});
  std::vector<std::string> bodies;  // every answer's body, checked for storage details at the end

  ~Fixture() {
    for (const std::string& b : bodies) {
      CHECK_MESSAGE(b.find("sha256/") == std::string::npos, b);
      CHECK_MESSAGE(b.find(dir) == std::string::npos, b);
      CHECK_MESSAGE(b.find("storageKey") == std::string::npos, b);
      CHECK_MESSAGE(b.find("storage_key") == std::string::npos, b);
      CHECK_MESSAGE(b.find("blobs/") == std::string::npos, b);
      CHECK_MESSAGE(b.find("uploader") == std::string::npos, b);
      CHECK_MESSAGE(b.find("user:") == std::string::npos, b);
      CHECK_MESSAGE(b.find(s.admin.user_id) == std::string::npos, b);
    }
  }

  std::string Base(const std::string& project) { return "/v1/evidence/projects/" + project; }

  TestResponse Call(const std::string& method, const std::string& path, const std::string& body,
                    const HeaderList& h) {
    TestResponse r = t.Request(method, path, body, h);
    if (r.Header("Content-Type").find("application/json") == 0) bodies.push_back(r.body);
    return r;
  }

  json::object Reservation(const std::string& bytes, const std::string& kind = "log",
                           const std::string& type = "text/plain") {
    return json::object{{"kind", kind},
                        {"contentType", type},
                        {"byteCount", bytes.size()},
                        {"sha256", util::Sha256Hex(bytes)}};
  }

  TestResponse Reserve(const std::string& project, const json::object& body, const HeaderList& h) {
    return Call("POST", Base(project) + "/artifacts", json::serialize(body), h);
  }
  // Reserves `bytes` in s.project_id as the admin; REQUIREs 201; the artifact id.
  std::string ReserveOk(const std::string& bytes, const std::string& kind = "log",
                        const std::string& type = "text/plain") {
    TestResponse r = Reserve(s.project_id, Reservation(bytes, kind, type), s.admin.headers());
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return S(r.json.at("artifact"), "id");
  }
  TestResponse Upload(const std::string& project, const std::string& id, const std::string& bytes,
                      const HeaderList& h) {
    return Call("PUT", Base(project) + "/artifacts/" + id + "/content", bytes, h);
  }
  // Reserves and uploads `bytes` as the admin; the artifact id.
  std::string Stored(const std::string& bytes, const std::string& kind = "log",
                     const std::string& type = "text/plain") {
    const std::string id = ReserveOk(bytes, kind, type);
    TestResponse r = Upload(s.project_id, id, bytes, s.admin.headers());
    REQUIRE_MESSAGE(r.status == 200, r.body);
    return id;
  }
  // An ingest naming `evidence` in metadata.evidence; the occurrence id.
  std::string IngestWith(const json::array& evidence, const std::string& key = "") {
    TestResponse r = Ingest(t, key.empty() ? s.key : key,
                            Report("Checkout fails", "x is undefined",
                                   json::object{{"metadata", json::object{{"evidence", evidence}}}}));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return S(r.json, "occurrenceId");
  }
  TestResponse List(const std::string& project, const std::string& occurrence, const HeaderList& h,
                    const std::string& query = "") {
    return Call("GET", Base(project) + "/occurrences/" + occurrence + "/artifacts" + query, "", h);
  }
  const app::evidence::EvidenceDeps& deps() {
    return internal::ModulesOf(t.service()).Get<modules::EvidenceModule>().deps();
  }
};

TEST_CASE("evidence: capabilities for a person, an agent token and a capture key, private, no-store") {
  Fixture f;
  for (const HeaderList& h :
       {f.s.admin.headers(), Bearer(f.s.admin.token), AgentHeaders(f.agent), KeyHeader(f.s.key)}) {
    TestResponse r = f.Call("GET", "/v1/evidence/capabilities", "", h);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(r.Header("Cache-Control") == "private, no-store");
    CHECK(r.json.at("schemaVersion") == 1);
    CHECK(r.json.at("configured") == true);
    CHECK(r.json.at("reason").is_null());
    const json::array& formats = r.json.at("formats").as_array();
    REQUIRE(formats.size() == 2);
    CHECK(formats[0] == json::parse(R"({"kind":"log","contentType":"text/plain","maxBytes":1048576})"));
    CHECK(formats[1] ==
          json::parse(R"({"kind":"replay","contentType":"application/json","maxBytes":10485760})"));
    const bool key = h.front().first == "X-Service-Key";
    CHECK(r.json.as_object().contains("projectId") == key);
    if (key) CHECK(S(r.json, "projectId") == f.s.project_id);
  }
  CHECK(f.Call("GET", "/v1/evidence/capabilities", "", {}).status == 401);
  CHECK(f.Call("GET", "/v1/evidence/capabilities", "", KeyHeader("sv_live_nope")).status == 401);
  CHECK(f.Call("GET", "/v1/evidence/capabilities", "", Bearer("garbage")).status == 401);
}

TEST_CASE("evidence: without SERVICE_EVIDENCE_DIR the capabilities say so and every route answers 503") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  for (const HeaderList& h : {s.admin.headers(), KeyHeader(s.key)}) {
    TestResponse r = t.Get("/v1/evidence/capabilities", h);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(r.Header("Cache-Control") == "private, no-store");
    CHECK(r.json.at("schemaVersion") == 1);
    CHECK(r.json.at("configured") == false);
    CHECK(r.json.at("formats").as_array().empty());
    CHECK(r.json.at("reason") == "storage_unavailable");
  }
  const std::string base = "/v1/evidence/projects/" + s.project_id;
  const std::string id = "0190aaaa-0000-7000-8000-000000000001";
  const std::string bytes = "log";
  const json::object reserve{
      {"kind", "log"}, {"contentType", "text/plain"}, {"byteCount", 3}, {"sha256", util::Sha256Hex(bytes)}};
  const struct {
    const char* method;
    std::string path;
    std::string body;
  } calls[] = {{"POST", base + "/artifacts", json::serialize(reserve)},
               {"PUT", base + "/artifacts/" + id + "/content", bytes},
               {"GET", base + "/artifacts/" + id, ""},
               {"GET", base + "/artifacts/" + id + "/content", ""},
               {"DELETE", base + "/artifacts/" + id, ""},
               {"GET", base + "/occurrences/" + id + "/artifacts", ""}};
  for (const auto& c : calls) {
    CAPTURE(c.method);
    CAPTURE(c.path);
    TestResponse r = t.Request(c.method, c.path, c.body, s.admin.headers());
    CHECK(r.status == 503);
    CHECK(S(r.json, "code") == "storage_unavailable");
    // Capture keys are refused before storage is considered.
    CHECK(t.Request(c.method, c.path, c.body, KeyHeader(s.key)).status == 403);
  }
}

TEST_CASE(
    "evidence: a reservation answers 201 reserved, the body is strict and the formats and sizes bounded") {
  Fixture f;
  const std::string bytes = "line one\nline two\n";
  TestResponse r = f.Reserve(f.s.project_id, f.Reservation(bytes), f.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK(r.Header("Cache-Control") == "private, no-store");
  const json::value& a = r.json.at("artifact");
  CHECK(S(a, "state") == "reserved");
  CHECK(a.at("generation") == 1);
  CHECK(S(a, "projectId") == f.s.project_id);
  CHECK(a.at("occurrenceId").is_null());
  CHECK(S(a, "kind") == "log");
  CHECK(S(a, "contentType") == "text/plain");
  CHECK(a.at("byteCount") == bytes.size());
  CHECK(S(a, "sha256") == util::Sha256Hex(bytes));
  CHECK(S(a, "id") == S(a, "artifactId"));
  // Reservations expire after 24 hours.
  CHECK(util::ParseIso8601(S(a, "expiresAt")).value() - util::ParseIso8601(S(a, "createdAt")).value() ==
        kDayMs);
  CHECK(a.at("redaction").is_null());

  json::object with_redaction = f.Reservation(bytes);
  with_redaction["redaction"] = json::object{{"emails", "masked"}};
  r = f.Reserve(f.s.project_id, with_redaction, f.s.admin.headers());
  REQUIRE(r.status == 201);
  CHECK(r.json.at("artifact").at("redaction") == json::parse(R"({"emails":"masked"})"));

  // A replay of exactly 10 MiB may be reserved; one byte more may not.
  json::object replay{{"kind", "replay"},
                      {"contentType", "application/json"},
                      {"byteCount", 10 * 1024 * 1024},
                      {"sha256", std::string(64, 'a')}};
  CHECK(f.Reserve(f.s.project_id, replay, f.s.admin.headers()).status == 201);
  const struct {
    const char* name;
    json::object body;
    const char* field;
  } bad[] = {
      {"replay above 10 MiB",
       {{"kind", "replay"},
        {"contentType", "application/json"},
        {"byteCount", 10 * 1024 * 1024 + 1},
        {"sha256", std::string(64, 'a')}},
       "byteCount"},
      {"log above 1 MiB",
       {{"kind", "log"},
        {"contentType", "text/plain"},
        {"byteCount", 1024 * 1024 + 1},
        {"sha256", std::string(64, 'a')}},
       "byteCount"},
      {"image",
       {{"kind", "image"}, {"contentType", "image/png"}, {"byteCount", 5}, {"sha256", std::string(64, 'a')}},
       "kind"},
      {"log as json",
       {{"kind", "log"},
        {"contentType", "application/json"},
        {"byteCount", 5},
        {"sha256", std::string(64, 'a')}},
       "contentType"},
      {"zero bytes",
       {{"kind", "log"}, {"contentType", "text/plain"}, {"byteCount", 0}, {"sha256", std::string(64, 'a')}},
       "byteCount"},
      {"short digest",
       {{"kind", "log"}, {"contentType", "text/plain"}, {"byteCount", 5}, {"sha256", "abc"}},
       "sha256"},
      {"unknown field",
       {{"kind", "log"},
        {"contentType", "text/plain"},
        {"byteCount", 5},
        {"sha256", std::string(64, 'a')},
        {"fileName", "x"}},
       "fileName"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.name);
    TestResponse refused = f.Reserve(f.s.project_id, b.body, f.s.admin.headers());
    CHECK(refused.status == 400);
    CHECK(S(refused.json, "code") == "VALIDATION_ERROR");
    CHECK(S(refused.json.at("details").at(0), "field") == b.field);
  }
  TestResponse not_json = f.Call("POST", f.Base(f.s.project_id) + "/artifacts", "{", f.s.admin.headers());
  CHECK(not_json.status == 400);
  CHECK(S(not_json.json, "code") == "VALIDATION_ERROR");
}

TEST_CASE(
    "evidence: who may reserve: members but viewers, agent tokens with create_bug and a grant, not capture "
    "keys") {
  Fixture f;
  const json::object body = f.Reservation("x");
  for (const char* role : {"manager", "member", "tester"}) {
    CAPTURE(role);
    Member m = AddMemberWithRole(f.t, f.s.admin.org_id, role);
    CHECK(f.Reserve(f.s.project_id, body, m.headers()).status == 201);
  }
  Member viewer = AddMemberWithRole(f.t, f.s.admin.org_id, "viewer");
  CHECK(f.Reserve(f.s.project_id, body, viewer.headers()).status == 403);
  TestResponse key = f.Reserve(f.s.project_id, body, KeyHeader(f.s.key));
  CHECK(key.status == 403);
  // Agent tokens: the scope, then the grant.
  TestResponse ok = f.Reserve(f.s.project_id, body, AgentHeaders(f.agent));
  REQUIRE_MESSAGE(ok.status == 201, ok.body);
  TestResponse no_grant = f.Reserve(f.other_project, body, AgentHeaders(f.agent));
  CHECK(no_grant.status == 403);
  CHECK(S(no_grant.json, "code") == "PROJECT_GRANT_REQUIRED");
  const std::string reader = NewToken(f.t, f.s.admin, {"get_repro_context"}, {f.s.project_id});
  TestResponse no_scope = f.Reserve(f.s.project_id, body, AgentHeaders(reader));
  CHECK(no_scope.status == 403);
  CHECK(S(no_scope.json, "code") == "SCOPE_REQUIRED");
  // 403 comes before the body is looked at.
  CHECK(f.Call("POST", f.Base(f.s.project_id) + "/artifacts", "{", AgentHeaders(reader)).status == 403);
  // No credentials.
  CHECK(f.Reserve(f.s.project_id, body, {}).status == 401);
  // Another organization's project, a missing one: 404.
  CaptureSetup other = NewCaptureSetup(f.t, "pro");
  CHECK(f.Reserve(other.project_id, body, f.s.admin.headers()).status == 404);
  CHECK(f.Reserve("0190aaaa-0000-7000-8000-0000000000ff", body, f.s.admin.headers()).status == 404);
  CHECK(f.Reserve("not-a-uuid", body, f.s.admin.headers()).status == 404);
  // An occurrenceId must be an occurrence of the project.
  const std::string occ = f.IngestWith(json::array{});
  json::object named = body;
  named["occurrenceId"] = occ;
  TestResponse attached = f.Reserve(f.s.project_id, named, f.s.admin.headers());
  REQUIRE(attached.status == 201);
  CHECK(S(attached.json.at("artifact"), "occurrenceId") == occ);
  CHECK(f.Reserve(f.other_project, named, f.s.admin.headers()).status == 404);
  named["occurrenceId"] = "0190aaaa-0000-7000-8000-0000000000ff";
  CHECK(f.Reserve(f.s.project_id, named, f.s.admin.headers()).status == 404);
}

TEST_CASE("evidence: the upload takes exactly the reserved bytes once, anything else stores nothing") {
  Fixture f;
  const std::string bytes = "2026-01-15 checkout failed: x is undefined\n";
  const std::string id = f.ReserveOk(bytes);
  const int files_before = CountFiles(f.dir);
  for (const std::string& wrong :
       {bytes.substr(1), bytes + "!", std::string(bytes.size(), 'x'), std::string()}) {
    TestResponse r = f.Upload(f.s.project_id, id, wrong, f.s.admin.headers());
    CHECK(r.status == 400);
    CHECK(S(r.json, "code") == "EVIDENCE_MISMATCH");
    CHECK(CountFiles(f.dir) == files_before);
  }
  CHECK(f.Call("GET", f.Base(f.s.project_id) + "/artifacts/" + id, "", f.s.admin.headers()).status == 404);
  // Capture keys and viewers cannot upload.
  CHECK(f.Upload(f.s.project_id, id, bytes, KeyHeader(f.s.key)).status == 403);
  Member viewer = AddMemberWithRole(f.t, f.s.admin.org_id, "viewer");
  CHECK(f.Upload(f.s.project_id, id, bytes, viewer.headers()).status == 403);
  // Another project's path, another organization: 404.
  CHECK(f.Upload(f.other_project, id, bytes, f.s.admin.headers()).status == 404);
  CaptureSetup other = NewCaptureSetup(f.t, "pro");
  CHECK(f.Upload(f.s.project_id, id, bytes, other.admin.headers()).status == 404);

  TestResponse ok = f.Upload(f.s.project_id, id, bytes, f.s.admin.headers());
  REQUIRE_MESSAGE(ok.status == 200, ok.body);
  const json::value& a = ok.json.at("artifact");
  CHECK(S(a, "state") == "ready");
  CHECK(a.at("generation") == 2);
  // Kept 30 days from the upload.
  CHECK(util::ParseIso8601(S(a, "expiresAt")).value() == f.t.clock().NowMillis() + 30 * kDayMs);
  CHECK(CountFiles(f.dir) == files_before + 1);
  TestResponse again = f.Upload(f.s.project_id, id, bytes, f.s.admin.headers());
  CHECK(again.status == 409);
  CHECK(S(again.json, "code") == "EVIDENCE_ALREADY_UPLOADED");

  // The same bytes under a second artifact: one file.
  f.Stored(bytes);
  CHECK(CountFiles(f.dir) == files_before + 1);

  // An agent token with create_bug and the grant uploads too.
  const std::string other_bytes = "agent log\n";
  TestResponse reserved = f.Reserve(f.s.project_id, f.Reservation(other_bytes), AgentHeaders(f.agent));
  REQUIRE(reserved.status == 201);
  const std::string agent_id = S(reserved.json.at("artifact"), "id");
  CHECK(f.Upload(f.s.project_id, agent_id, other_bytes, AgentHeaders(f.agent)).status == 200);

  // A reservation not uploaded within 24 hours takes no upload.
  const std::string late = f.ReserveOk("late bytes");
  f.t.clock().Advance(kDayMs);
  RenewToken(f.t, f.s.admin);
  TestResponse expired = f.Upload(f.s.project_id, late, "late bytes", f.s.admin.headers());
  CHECK(expired.status == 409);
  CHECK(S(expired.json, "code") == "EVIDENCE_NOT_UPLOADABLE");
}

TEST_CASE("evidence: an upload streams from the request's body source, a 10 MiB replay round-trips") {
  Fixture f;
  std::string replay = "[";
  while (replay.size() < 10 * 1024 * 1024 - 64) replay += "{\"t\":1,\"e\":\"click\",\"x\":12345},";
  replay.back() = ']';
  replay.resize(10 * 1024 * 1024, ' ');
  replay.back() = '\n';
  REQUIRE(replay.size() == 10 * 1024 * 1024);
  const std::string id = f.ReserveOk(replay, "replay", "application/json");
  api::Request req;
  req.method = "PUT";
  req.path = f.Base(f.s.project_id) + "/artifacts/" + id + "/content";
  for (const auto& [k, v] : f.s.admin.headers()) req.headers.Add(k, v);
  req.headers.Add("Content-Type", "application/json");
  req.body_source = api::NewStringBodySource(replay);
  api::Response res = f.t.service().Handle(req);
  REQUIRE_MESSAGE(res.status == 200, res.body);
  // A body above the route's limit is 413 before anything is read.
  req.body_source = api::NewStringBodySource(replay + "x");
  CHECK(f.t.service().Handle(req).status == 413);

  TestResponse got =
      f.Call("GET", f.Base(f.s.project_id) + "/artifacts/" + id + "/content", "", f.s.admin.headers());
  REQUIRE(got.status == 200);
  CHECK(got.body.size() == replay.size());
  CHECK(got.body == replay);
}

TEST_CASE(
    "evidence: metadata of ready artifacts, for members and agent tokens with get_repro_context and a "
    "grant") {
  Fixture f;
  const std::string reserved = f.ReserveOk("not yet");
  const std::string id = f.Stored("ready bytes");
  const std::string path = f.Base(f.s.project_id) + "/artifacts/" + id;
  TestResponse r = f.Call("GET", path, "", f.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.Header("Cache-Control") == "private, no-store");
  CHECK(S(r.json.at("artifact"), "state") == "ready");
  CHECK(S(r.json.at("artifact"), "sha256") == util::Sha256Hex("ready bytes"));
  Member viewer = AddMemberWithRole(f.t, f.s.admin.org_id, "viewer");
  CHECK(f.Call("GET", path, "", viewer.headers()).status == 200);
  CHECK(f.Call("GET", path, "", AgentHeaders(f.agent)).status == 200);
  CHECK(f.Call("GET", f.Base(f.s.project_id) + "/artifacts/" + reserved, "", f.s.admin.headers()).status ==
        404);
  const std::string writer = NewToken(f.t, f.s.admin, {"create_bug"}, {f.s.project_id});
  TestResponse no_scope = f.Call("GET", path, "", AgentHeaders(writer));
  CHECK(no_scope.status == 403);
  CHECK(S(no_scope.json, "code") == "SCOPE_REQUIRED");
  const std::string elsewhere = NewToken(f.t, f.s.admin, {"get_repro_context"}, {f.other_project});
  CHECK(S(f.Call("GET", path, "", AgentHeaders(elsewhere)).json, "code") == "PROJECT_GRANT_REQUIRED");
  CHECK(f.Call("GET", path, "", KeyHeader(f.s.key)).status == 403);
  CHECK(f.Call("GET", f.Base(f.other_project) + "/artifacts/" + id, "", f.s.admin.headers()).status == 404);
  CaptureSetup other = NewCaptureSetup(f.t, "pro");
  CHECK(f.Call("GET", path, "", other.admin.headers()).status == 404);
  CHECK(f.Call("GET", f.Base(other.project_id) + "/artifacts/" + id, "", other.admin.headers()).status ==
        404);
}

TEST_CASE("evidence: an ingest attaches the ready artifacts it names, the listing is ordered and bounded") {
  Fixture f;
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    ids.push_back(f.Stored("log " + std::to_string(i)));
    f.t.clock().Advance(i % 2 == 0 ? 1000 : 0);  // two pairs created at the same time
  }
  const std::string reserved = f.ReserveOk("reserved only");
  const std::string other_project_artifact = [&] {
    TestResponse r = f.Reserve(f.other_project, f.Reservation("elsewhere"), f.s.admin.headers());
    REQUIRE(r.status == 201);
    const std::string id = S(r.json.at("artifact"), "id");
    REQUIRE(f.Upload(f.other_project, id, "elsewhere", f.s.admin.headers()).status == 200);
    return id;
  }();
  json::array named;
  // Newest first, with ids that do not qualify and junk: all ignored.
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) named.emplace_back(*it);
  named.emplace_back(reserved);
  named.emplace_back(other_project_artifact);
  named.emplace_back("../../etc/passwd");
  named.emplace_back("0190aaaa-0000-7000-8000-0000000000ff");
  named.emplace_back(42);
  const std::string occ = f.IngestWith(named);
  // An artifact attaches once: a second ingest naming it leaves it where it is.
  const std::string later = f.IngestWith(json::array{ids[0]});
  // metadata.evidence that is no array is ignored too.
  TestResponse odd = Ingest(
      f.t, f.s.key, Report("Odd", "x", json::object{{"metadata", json::object{{"evidence", "nope"}}}}));
  CHECK(odd.status == 201);

  TestResponse all = f.List(f.s.project_id, occ, f.s.admin.headers());
  REQUIRE_MESSAGE(all.status == 200, all.body);
  CHECK(all.Header("Cache-Control") == "private, no-store");
  CHECK(all.json.at("total") == 5);
  CHECK(all.json.at("limit") == 20);
  CHECK(all.json.at("offset") == 0);
  const json::array& listed = all.json.at("artifacts").as_array();
  REQUIRE(listed.size() == 5);
  for (size_t i = 0; i < listed.size(); ++i) {
    CHECK(S(listed[i], "occurrenceId") == occ);
    CHECK(S(listed[i], "state") == "ready");
    CHECK(listed[i].at("generation") == 3);  // reserved, uploaded, attached
    if (i > 0) {
      const std::string a = S(listed[i - 1], "createdAt"), b = S(listed[i], "createdAt");
      CHECK((a < b || (a == b && S(listed[i - 1], "id") < S(listed[i], "id"))));
    }
  }
  CHECK(f.List(f.s.project_id, later, f.s.admin.headers()).json.at("total") == 0);

  TestResponse page = f.List(f.s.project_id, occ, f.s.admin.headers(), "?limit=2&offset=1");
  REQUIRE(page.status == 200);
  CHECK(page.json.at("total") == 5);
  CHECK(page.json.at("limit") == 2);
  CHECK(page.json.at("offset") == 1);
  REQUIRE(page.json.at("artifacts").as_array().size() == 2);
  CHECK(page.json.at("artifacts").at(0).at("id") == listed[1].at("id"));
  CHECK(page.json.at("artifacts").at(1).at("id") == listed[2].at("id"));
  CHECK(f.List(f.s.project_id, occ, f.s.admin.headers(), "?limit=100&offset=10000")
            .json.at("artifacts")
            .as_array()
            .empty());
  for (const char* q :
       {"?limit=0", "?limit=101", "?offset=-1", "?offset=10001", "?limit=abc", "?limit=1&limit=2"}) {
    CAPTURE(q);
    TestResponse bad = f.List(f.s.project_id, occ, f.s.admin.headers(), q);
    CHECK(bad.status == 400);
    CHECK(S(bad.json, "code") == "VALIDATION_ERROR");
  }
  // Agent tokens with get_repro_context and the grant read it; others not.
  CHECK(f.List(f.s.project_id, occ, AgentHeaders(f.agent)).json.at("total") == 5);
  const std::string writer = NewToken(f.t, f.s.admin, {"create_bug"}, {f.s.project_id});
  CHECK(S(f.List(f.s.project_id, occ, AgentHeaders(writer)).json, "code") == "SCOPE_REQUIRED");
  CHECK(f.List(f.s.project_id, occ, KeyHeader(f.s.key)).status == 403);
  Member viewer = AddMemberWithRole(f.t, f.s.admin.org_id, "viewer");
  CHECK(f.List(f.s.project_id, occ, viewer.headers()).status == 200);
}

TEST_CASE(
    "evidence: the listing answers 403 for an unauthorized project before 404 for a missing or foreign "
    "occurrence") {
  Fixture f;
  const std::string occ = f.IngestWith(json::array{});
  const std::string missing = "0190aaaa-0000-7000-8000-0000000000ff";
  CaptureSetup other = NewCaptureSetup(f.t, "pro");
  const std::string foreign_occ = f.IngestWith(json::array{}, other.key);
  // No grant for the project: 403 whether the occurrence exists or not.
  for (const std::string& o : {occ, missing, foreign_occ}) {
    TestResponse r = f.List(f.other_project, o, AgentHeaders(f.agent));
    CHECK(r.status == 403);
    CHECK(S(r.json, "code") == "PROJECT_GRANT_REQUIRED");
  }
  // The project granted: a missing occurrence, one of another project or
  // organization: 404.
  CHECK(f.List(f.s.project_id, missing, AgentHeaders(f.agent)).status == 404);
  CHECK(f.List(f.s.project_id, foreign_occ, AgentHeaders(f.agent)).status == 404);
  CHECK(f.List(f.s.project_id, foreign_occ, f.s.admin.headers()).status == 404);
  CHECK(f.List(f.other_project, occ, f.s.admin.headers()).status == 404);
  // Another organization's project reads as missing for a person.
  CHECK(f.List(other.project_id, foreign_occ, f.s.admin.headers()).status == 404);
  CHECK(f.List(f.s.project_id, occ, f.s.admin.headers()).status == 200);
}

TEST_CASE(
    "evidence: the download is an attachment of the admitted type with nosniff, for people and repro "
    "tokens") {
  Fixture f;
  const std::string bytes = "<script>alert(1)</script>\n";
  const std::string id = f.Stored(bytes);
  const std::string path = f.Base(f.s.project_id) + "/artifacts/" + id + "/content";
  TestResponse r = f.Call("GET", path, "", f.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.body == bytes);
  CHECK(r.Header("Content-Type") == "text/plain");
  CHECK(r.Header("Content-Disposition") == "attachment; filename=\"" + id + ".log\"");
  CHECK(r.Header("X-Content-Type-Options") == "nosniff");
  CHECK(r.Header("Cache-Control") == "private, no-store");
  CHECK(r.Header("Content-Security-Policy").find("sandbox") != std::string::npos);
  const std::string replay = R"([{"type":"click"}])";
  const std::string replay_id = f.Stored(replay, "replay", "application/json");
  TestResponse rj = f.Call("GET", f.Base(f.s.project_id) + "/artifacts/" + replay_id + "/content", "",
                           AgentHeaders(f.agent));
  REQUIRE(rj.status == 200);
  CHECK(rj.body == replay);
  CHECK(rj.Header("Content-Type") == "application/json");
  CHECK(rj.Header("Content-Disposition") == "attachment; filename=\"" + replay_id + ".json\"");
  // HEAD answers the headers without the bytes.
  TestResponse head = f.Call("HEAD", path, "", f.s.admin.headers());
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(f.Call("GET", path, "", KeyHeader(f.s.key)).status == 403);
  const std::string writer = NewToken(f.t, f.s.admin, {"create_bug"}, {f.s.project_id});
  CHECK(f.Call("GET", path, "", AgentHeaders(writer)).status == 403);
  CaptureSetup other = NewCaptureSetup(f.t, "pro");
  CHECK(f.Call("GET", path, "", other.admin.headers()).status == 404);
  CHECK(f.Call("GET", f.Base(f.s.project_id) + "/artifacts/" + f.ReserveOk("no bytes yet") + "/content", "",
               f.s.admin.headers())
            .status == 404);
}

TEST_CASE(
    "evidence: people but viewers delete artifacts, the sweep expires them and removes unreferenced bytes") {
  Fixture f;
  const std::string shared_bytes = "shared bytes";
  const std::string a = f.Stored(shared_bytes);
  const std::string b = f.Stored(shared_bytes);
  const std::string lone = f.Stored("lone bytes");
  CHECK(CountFiles(f.dir) == 2);
  const std::string path = f.Base(f.s.project_id) + "/artifacts/";
  Member viewer = AddMemberWithRole(f.t, f.s.admin.org_id, "viewer");
  CHECK(f.Call("DELETE", path + a, "", viewer.headers()).status == 403);
  CHECK(f.Call("DELETE", path + a, "", AgentHeaders(f.agent)).status == 403);
  CHECK(f.Call("DELETE", path + a, "", KeyHeader(f.s.key)).status == 403);
  TestResponse del = f.Call("DELETE", path + a, "", f.s.admin.headers());
  REQUIRE_MESSAGE(del.status == 200, del.body);
  CHECK(S(del.json.at("artifact"), "state") == "deleted");
  CHECK(f.Call("DELETE", path + a, "", f.s.admin.headers()).status == 404);
  CHECK(f.Call("GET", path + a, "", f.s.admin.headers()).status == 404);
  REQUIRE(app::evidence::Sweep(f.deps()).ok());
  CHECK(CountFiles(f.dir) == 2);  // b still holds the shared bytes
  CHECK(f.Call("GET", path + b + "/content", "", f.s.admin.headers()).body == shared_bytes);

  // 30 days after the upload everything expired: reads 404, the sweep
  // writes it and removes the files.
  f.t.clock().Advance(30 * kDayMs);
  RenewToken(f.t, f.s.admin);
  CHECK(f.Call("GET", path + b, "", f.s.admin.headers()).status == 404);
  CHECK(f.Call("GET", path + lone + "/content", "", f.s.admin.headers()).status == 404);
  REQUIRE(app::evidence::Sweep(f.deps()).ok());
  CHECK(CountFiles(f.dir) == 0);
  CHECK(QueryText(f.t, "SELECT state FROM evidence_artifacts WHERE id = ?", {b}) == "expired");
  CHECK(QueryInt(f.t, "SELECT COUNT(*) FROM evidence_blobs") == 0);

  // The same bytes reserved again are stored anew.
  const std::string again = f.Stored(shared_bytes);
  CHECK(CountFiles(f.dir) == 1);
  CHECK(f.Call("GET", path + again + "/content", "", f.s.admin.headers()).body == shared_bytes);
  // A reservation never uploaded expires after a day and leaves nothing.
  f.ReserveOk("never sent");
  f.t.clock().Advance(kDayMs + 1);
  REQUIRE(app::evidence::Sweep(f.deps()).ok());
  CHECK(QueryInt(f.t, "SELECT COUNT(*) FROM evidence_artifacts WHERE state = 'reserved'") == 0);
  CHECK(CountFiles(f.dir) == 1);
}

}  // namespace
}  // namespace service::testing
