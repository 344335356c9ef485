// Symbol publishing (issue 30 item 5; Spec 2 "Symbol publishing") through
// the routes, in-process, on the backend under test: an agent token with
// publish_symbols and an exact grant stores a file of an existing
// application build (the body as a spooled body source), the file is
// pending and unusable until the verifier read it, then ready with the
// format, architectures and identifiers it read, or rejected with a reason
// (another format, truncated, no identifier, a declaration that does not
// match, the bytes gone); capture keys, console sessions, tokens without
// the scope or the grant are refused; validation, SYMBOLS_MISMATCH, the
// route's own body limit, 503 without storage; the reads (members, agent
// tokens, another organization), and no storage key or uploader in any
// answer.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/symbols/module.h"
#include "ports/blob_store.h"
#include "service/http.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "support/symbol_files.h"
#include "util/crypto.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;
namespace sf = symbol_files;

constexpr int64_t kDayMs = 86'400'000;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::string NewToken(TestService& t, const Member& admin, const std::vector<std::string>& scopes,
                     const std::vector<std::string>& projects) {
  json::array s;
  for (const auto& x : scopes) s.emplace_back(x);
  json::array grants;
  for (const auto& p : projects) grants.push_back(json::object{{"projectId", p}});
  TestResponse r =
      t.Post("/v1/org/agent-pats",
             json::object{{"name", "symbols test"},
                          {"scopes", std::move(s)},
                          {"expiresAt", util::FormatIso8601(t.clock().NowMillis() + 30 * kDayMs)},
                          {"projectGrants", std::move(grants)}},
             admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "token");
}

HeaderList AgentHeaders(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

std::string RequestId(TestService& t) { return internal::PlatformOf(t.service()).ids->NewId(); }

std::string CreateApplication(TestService& t, const Member& admin, const std::string& project,
                              const std::string& identifier) {
  TestResponse r = t.Post(
      "/v1/applications/projects/" + project,
      json::object{{"requestId", RequestId(t)}, {"name", "App " + identifier}, {"identifier", identifier}},
      admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json.at("application"), "id");
}

std::string CreateBuild(TestService& t, const Member& admin, const std::string& project,
                        const std::string& application, const std::string& revision) {
  TestResponse r = t.Post("/v1/applications/projects/" + project + "/" + application + "/builds",
                          json::object{{"requestId", RequestId(t)},
                                       {"sourceRevision", revision},
                                       {"artifactSha256", util::Sha256Hex(revision)}},
                          admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json.at("build"), "id");
}

struct Fixture {
  std::string dir;
  TestService t;
  CaptureSetup s;
  std::string application, build, other_app, other_build;
  std::string publisher;
  std::vector<std::string> bodies;  // every answer, checked for storage details at the end

  explicit Fixture(bool storage = true)
      : dir(FreshTempDir("symbols")),
        t([this, storage](Options& o) {
          if (storage) o.evidence_dir = dir;
        }),
        s(NewCaptureSetup(t, "pro")) {
    application = CreateApplication(t, s.admin, s.project_id, "com.example.app");
    build = CreateBuild(t, s.admin, s.project_id, application, "rev-1");
    other_app = CreateApplication(t, s.admin, s.project_id, "com.example.other");
    other_build = CreateBuild(t, s.admin, s.project_id, other_app, "rev-2");
    publisher = NewToken(t, s.admin, {"publish_symbols"}, {s.project_id});
  }
  ~Fixture() {
    for (const std::string& b : bodies) {
      CHECK_MESSAGE(b.find(dir) == std::string::npos, b);
      const bool storage_named = b.find("storage") != std::string::npos;
      const bool only_the_code = b.find("storage_unavailable") != std::string::npos;
      CHECK_MESSAGE((!storage_named || only_the_code), b);
      CHECK_MESSAGE(b.find("blobs/") == std::string::npos, b);
      CHECK_MESSAGE(b.find("uploaded") == std::string::npos, b);
      CHECK_MESSAGE(b.find(s.admin.user_id) == std::string::npos, b);
    }
  }

  std::string Files(const std::string& project, const std::string& build_id) {
    return "/v1/agent-work/symbols/projects/" + project + "/builds/" + build_id + "/files";
  }

  // POST with the body as a body source (what the shells hand over).
  TestResponse Publish(const std::string& bytes, const std::string& query, const HeaderList& h,
                       const std::string& project = "", const std::string& build_id = "",
                       bool too_large = false) {
    api::Request req;
    req.method = "POST";
    req.path = Files(project.empty() ? s.project_id : project, build_id.empty() ? build : build_id);
    req.query = query;
    for (const auto& [k, v] : h) req.headers.Add(k, v);
    req.headers.Add("Content-Type", "application/octet-stream");
    req.body_source = api::NewStringBodySource(bytes);
    req.body_too_large = too_large;
    req.remote_addr = "127.0.0.1";
    api::Response res = t.service().Handle(req);
    TestResponse out;
    out.status = res.status;
    out.headers = res.headers;
    out.body = res.body;
    boost::system::error_code ec;
    out.json = json::parse(res.body, ec);
    if (ec) out.json = nullptr;
    bodies.push_back(res.body);
    return out;
  }
  std::string Query(const std::string& bytes, const std::string& extra = "", const std::string& app_id = "") {
    return "applicationId=" + (app_id.empty() ? application : app_id) + "&sha256=" + util::Sha256Hex(bytes) +
           extra;
  }
  // Publishes as `publisher`; REQUIREs 201; the file.
  json::object PublishOk(const std::string& bytes, const std::string& extra = "") {
    TestResponse r = Publish(bytes, Query(bytes, extra), AgentHeaders(publisher));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return r.json.at("symbolFile").as_object();
  }
  TestResponse Get(const std::string& path, const HeaderList& h) {
    TestResponse r = t.Get(path, h);
    bodies.push_back(r.body);
    return r;
  }
  json::object File(const std::string& id) {
    TestResponse r =
        Get("/v1/agent-work/symbols/projects/" + s.project_id + "/files/" + id, AgentHeaders(publisher));
    REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json.at("symbolFile").as_object();
  }
  int64_t Verify() {
    const auto& deps = internal::ModulesOf(t.service()).Get<modules::SymbolsModule>().deps();
    Result<int64_t> n = app::symbols::VerifyPending(deps);
    REQUIRE(n.ok());
    return *n;
  }
};

const std::string kId20 = sf::Bytes(20, 0xa0, 3);
const std::string kUuid = sf::Bytes(16, 0x10, 0x11);
const std::string kUuidText = "10213243-5465-7687-98a9-bacbdcedfe0f";

TEST_CASE("a published symbol file is pending and unusable until the verifier read it, then ready") {
  Fixture f;
  const std::string elf = sf::ElfWithBuildId(kId20);
  json::object file = f.PublishOk(elf, "&name=libapp.so.debug&debugId=" + sf::Hex(kId20) + "&arch=x86_64");
  CHECK(file.at("state") == "pending");
  CHECK(file.at("usable") == false);
  CHECK(file.at("format").is_null());
  CHECK(file.at("slices").as_array().empty());
  CHECK(file.at("name") == "libapp.so.debug");
  CHECK(file.at("byteCount") == elf.size());
  CHECK(file.at("sha256") == json::value(util::Sha256Hex(elf)));
  CHECK(file.at("buildId") == json::value(f.build));
  CHECK(file.at("applicationId") == json::value(f.application));
  CHECK(file.at("declared").at("debugId") == json::value(sf::Hex(kId20)));
  CHECK(file.at("declared").at("arch") == "x86_64");
  CHECK(file.at("processedAt").is_null());
  const std::string elf_id = S(file, "id");
  CHECK(f.File(elf_id).at("state") == "pending");

  // The same bytes for the same build: the same row.
  TestResponse again = f.Publish(elf, f.Query(elf), AgentHeaders(f.publisher));
  CHECK(again.status == 200);
  CHECK(S(again.json.at("symbolFile"), "id") == elf_id);

  // A universal Mach-O, the declared id naming its second slice (hyphens,
  // upper case); a second later, so the list's order (oldest first, then
  // the random id) is the publishing order.
  f.t.clock().Advance(1000);
  const std::string arm64_uuid = sf::Bytes(16, 0xf0, 1);
  const std::string fat =
      sf::Fat(false, {sf::MachOWithUuid(0x01000007, 3, kUuid), sf::MachOWithUuid(0x0100000c, 0, arm64_uuid)},
              {0x01000007, 0x0100000c}, {3, 0});
  const std::string fat_id =
      S(f.PublishOk(fat, "&debugId=F0F1F2F3-F4F5-F6F7-F8F9-FAFBFCFDFEFF&arch=arm64"), "id");

  CHECK(f.Verify() == 2);
  CHECK(f.Verify() == 0);  // nothing pending any more

  json::object ready = f.File(elf_id);
  CHECK(ready.at("state") == "ready");
  CHECK(ready.at("usable") == true);
  CHECK(ready.at("format") == "elf");
  CHECK(ready.at("reason").is_null());
  CHECK(ready.at("slices") ==
        json::array{json::object{{"arch", "x86_64"}, {"debugId", json::value(sf::Hex(kId20))}}});
  CHECK(ready.at("processedAt").is_string());

  // The build's list, oldest first.
  TestResponse list = f.Get(f.Files(f.s.project_id, f.build), AgentHeaders(f.publisher));
  REQUIRE(list.status == 200);
  CHECK(list.Header("Cache-Control") == "private, no-store");
  CHECK(list.json.at("total") == 2);
  CHECK(list.json.at("limit") == 20);
  CHECK(list.json.at("offset") == 0);
  const json::array& files = list.json.at("symbolFiles").as_array();
  REQUIRE(files.size() == 2);
  CHECK(S(files[0], "id") == elf_id);
  CHECK(S(files[1], "id") == fat_id);
  CHECK(files[1].at("format") == "macho");
  CHECK(files[1].at("state") == "ready");
  CHECK(files[1].at("slices") ==
        json::array{json::object{{"arch", "x86_64"}, {"debugId", kUuidText}},
                    json::object{{"arch", "arm64"}, {"debugId", "f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff"}}});
  // Paging.
  TestResponse page = f.Get(f.Files(f.s.project_id, f.build) + "?limit=1&offset=1", f.s.admin.headers());
  REQUIRE(page.status == 200);
  CHECK(page.json.at("total") == 2);
  REQUIRE(page.json.at("symbolFiles").as_array().size() == 1);
  CHECK(S(page.json.at("symbolFiles").at(0), "id") == fat_id);
}

TEST_CASE("the verifier rejects what is not ELF or Mach-O, damaged files and false declarations") {
  Fixture f;
  struct Case {
    const char* name;
    std::string bytes;
    std::string extra;
    std::string reason;
    bool slices_read;
  };
  const std::string elf = sf::ElfWithBuildId(kId20);
  const std::vector<Case> cases = {
      {"text", "not a binary at all, just text", "", "unsupported_format", false},
      {"a Java class file", std::string("\xca\xfe\xba\xbe\x00\x00\x00\x34", 8) + std::string(64, '\0'), "",
       "unsupported_format", false},
      {"a truncated ELF", elf.substr(0, 140), "", "truncated", false},
      {"a Mach-O without LC_UUID", sf::MachO(true, true, 0x0100000c, 0, {{0x19, std::string(64, '\0')}}), "",
       "no_identifier", false},
      {"an ELF whose build id is not the declared one", sf::ElfWithBuildId(sf::Bytes(20, 1, 1)),
       "&debugId=" + std::string(40, 'a'), "identifier_mismatch", true},
      {"a Mach-O of another architecture than declared", sf::MachOWithUuid(0x01000007, 3, kUuid),
       "&arch=arm64", "architecture_mismatch", true},
  };
  std::vector<std::string> ids;
  for (const Case& c : cases) ids.push_back(S(f.PublishOk(c.bytes, c.extra), "id"));
  CHECK(f.Verify() == static_cast<int64_t>(cases.size()));
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(cases[i].name);
    json::object file = f.File(ids[i]);
    CHECK(file.at("state") == "rejected");
    CHECK(file.at("usable") == false);
    CHECK(file.at("reason") == json::value(cases[i].reason));
    CHECK(file.at("slices").as_array().empty() != cases[i].slices_read);
  }

  // Bytes gone from storage before the verifier came: content_missing.
  const std::string gone = sf::ElfWithBuildId(sf::Bytes(20, 7, 7));
  const std::string gone_id = S(f.PublishOk(gone), "id");
  ports::BlobStore* blobs = internal::ModulesOf(f.t.service()).Get<modules::SymbolsModule>().deps().blobs;
  REQUIRE(blobs != nullptr);
  Result<std::string> key = blobs->KeyFor(util::Sha256Hex(gone));
  REQUIRE(key.ok());
  REQUIRE(blobs->Delete(*key).ok());
  CHECK(f.Verify() == 1);
  CHECK(f.File(gone_id).at("reason") == "content_missing");
}

TEST_CASE("only agent tokens with publish_symbols and a grant for the project publish") {
  Fixture f;
  const std::string elf = sf::ElfWithBuildId(kId20);
  const std::string q = f.Query(elf);
  // Capture keys, console sessions, no credential: 401.
  CHECK(f.Publish(elf, q, KeyHeader(f.s.key)).status == 401);
  CHECK(f.Publish(elf, q, f.s.admin.headers()).status == 401);
  CHECK(f.Publish(elf, q, {}).status == 401);
  CHECK(f.Publish(elf, q, AgentHeaders("sv_pat_" + std::string(40, 'x'))).status == 401);
  // Without the scope (create_bug is not it), or without the grant: 403,
  // before anything about the build.
  const std::string creator = NewToken(f.t, f.s.admin, {"create_bug", "read_bugs"}, {f.s.project_id});
  TestResponse r = f.Publish(elf, q, AgentHeaders(creator));
  CHECK(r.status == 403);
  CHECK(r.json.at("code") == "SCOPE_REQUIRED");
  const std::string other_project = CreateProjectVia(f.t, f.s.admin, "Other");
  const std::string elsewhere = NewToken(f.t, f.s.admin, {"publish_symbols"}, {other_project});
  r = f.Publish(elf, q, AgentHeaders(elsewhere));
  CHECK(r.status == 403);
  CHECK(r.json.at("code") == "PROJECT_GRANT_REQUIRED");
  r = f.Publish(elf, q, AgentHeaders(elsewhere), f.s.project_id, "00000000-0000-4000-8000-000000000000");
  CHECK(r.status == 403);
  // Another organization's token on this project: no grant for it.
  Member stranger = NewOrgWithMember(f.t, "admin", "pro");
  const std::string stranger_project = CreateProjectVia(f.t, stranger, "Theirs");
  const std::string foreign = NewToken(f.t, stranger, {"publish_symbols"}, {stranger_project});
  CHECK(f.Publish(elf, q, AgentHeaders(foreign)).status == 403);
  // ...and on its own project, our build id is not found there.
  r = f.Publish(elf, q, AgentHeaders(foreign), stranger_project);
  CHECK(r.status == 404);
  CHECK(r.json.at("code") == "APPLICATION_NOT_FOUND");
  // The build must exist and belong to the named application.
  r = f.Publish(elf, q, AgentHeaders(f.publisher), "", f.other_build);
  CHECK(r.status == 404);
  CHECK(r.json.at("code") == "BUILD_NOT_FOUND");
  r = f.Publish(elf, q, AgentHeaders(f.publisher), "", "00000000-0000-4000-8000-000000000000");
  CHECK(r.status == 404);
  r = f.Publish(elf, f.Query(elf, "", "00000000-0000-4000-8000-000000000000"), AgentHeaders(f.publisher));
  CHECK(r.status == 404);
  CHECK(r.json.at("code") == "APPLICATION_NOT_FOUND");
  // None of it stored anything.
  CHECK(f.Get(f.Files(f.s.project_id, f.build), f.s.admin.headers()).json.at("total") == 0);
  // The right token, the other application's build: fine.
  r = f.Publish(elf, f.Query(elf, "", f.other_app), AgentHeaders(f.publisher), "", f.other_build);
  CHECK(r.status == 201);
}

TEST_CASE("publish input: validation, the declared digest, the route's own body limit") {
  Fixture f;
  const std::string elf = sf::ElfWithBuildId(kId20);
  const HeaderList h = AgentHeaders(f.publisher);
  const std::string sha = util::Sha256Hex(elf);
  const std::string app_q = "applicationId=" + f.application;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sha256=" + sha, "applicationId"},
      {app_q + "&sha256=" + sha + "&applicationId=" + f.application, "applicationId"},
      {app_q, "sha256"},
      {app_q + "&sha256=abc", "sha256"},
      {app_q + "&sha256=" + sha + "&debugId=xyz", "debugId"},
      {app_q + "&sha256=" + sha + "&arch=mips", "arch"},
      {app_q + "&sha256=" + sha + "&name=a%2Fb", "name"},
      {app_q + "&sha256=" + sha + "&name=%FF", "name"},  // not UTF-8 (PostgreSQL text refuses it)
      {"applicationId=nope&sha256=" + sha, "applicationId"},
  };
  for (const auto& c : cases) {
    // Named references: clang 14 cannot capture a structured binding in CAPTURE's lambda.
    const std::string& query = c.first;
    const std::string& field = c.second;
    CAPTURE(query);
    TestResponse r = f.Publish(elf, query, h);
    CHECK(r.status == 400);
    CHECK(r.json.at("code") == "VALIDATION_ERROR");
    CHECK(r.json.at("details").at(0).at("field") == json::value(field));
  }
  TestResponse r = f.Publish("", app_q + "&sha256=" + util::Sha256Hex(""), h);
  CHECK(r.status == 400);
  // Other bytes than declared: SYMBOLS_MISMATCH, nothing stored.
  r = f.Publish(elf + "x", app_q + "&sha256=" + sha, h);
  CHECK(r.status == 400);
  CHECK(r.json.at("code") == "SYMBOLS_MISMATCH");
  CHECK(f.Get(f.Files(f.s.project_id, f.build), h).json.at("total") == 0);

  // Larger than the global 10 MB: the route takes it (12 MiB: an ELF with
  // a large section after its notes).
  std::string big = elf + std::string(12 * 1024 * 1024, '\xcc');
  json::object file = f.PublishOk(big);
  CHECK(file.at("byteCount") == big.size());
  CHECK(f.Verify() == 1);
  CHECK(f.File(S(file, "id")).at("state") == "ready");
  // Over the route's limit (the shell refused it from its length): 413.
  r = f.Publish("", app_q, h, "", "", /*too_large=*/true);
  CHECK(r.status == 413);
  CHECK(r.json.at("limit") == app::symbols::kMaxSymbolFileBytes);
}

TEST_CASE("reading symbol files: members and granted tokens, others 403 or 404") {
  Fixture f;
  const std::string id = S(f.PublishOk(sf::ElfWithBuildId(kId20)), "id");
  const std::string list = f.Files(f.s.project_id, f.build);
  const std::string one = "/v1/agent-work/symbols/projects/" + f.s.project_id + "/files/" + id;
  CHECK(f.Get(list, f.s.admin.headers()).status == 200);
  CHECK(f.Get(one, f.s.admin.headers()).status == 200);
  Member viewer = NewOrgWithMember(f.t, "admin", "pro");  // another organization
  TestResponse r = f.Get(list, viewer.headers());
  CHECK(r.status == 404);
  CHECK(f.Get(one, viewer.headers()).status == 404);
  const std::string creator = NewToken(f.t, f.s.admin, {"create_bug"}, {f.s.project_id});
  CHECK(f.Get(list, AgentHeaders(creator)).status == 403);
  CHECK(f.Get(one, AgentHeaders(creator)).status == 403);
  CHECK(f.Get(list, KeyHeader(f.s.key)).status == 401);
  CHECK(f.Get(list + "?limit=0", f.s.admin.headers()).status == 400);
  CHECK(f.Get(list + "?limit=101", f.s.admin.headers()).status == 400);
  CHECK(f.Get(list + "?offset=10001", f.s.admin.headers()).status == 400);
  CHECK(f.Get(list + "?limit=x", f.s.admin.headers()).status == 400);
  CHECK(f.Get(f.Files(f.s.project_id, f.other_build), f.s.admin.headers()).json.at("total") == 0);
  CHECK(f.Get("/v1/agent-work/symbols/projects/" + f.s.project_id + "/files/nope", f.s.admin.headers())
            .status == 404);
  // Deleting the application takes its builds' symbol files with it.
  REQUIRE(f.t.Delete("/v1/applications/projects/" + f.s.project_id + "/" + f.application, f.s.admin.headers())
              .status == 200);
  CHECK(QueryInt(f.t, "SELECT COUNT(*) FROM symbol_files") == 0);
  CHECK(f.Get(one, f.s.admin.headers()).status == 404);
}

TEST_CASE("without storage, publishing answers 503 storage_unavailable after the checks") {
  Fixture f(/*storage=*/false);
  const std::string elf = sf::ElfWithBuildId(kId20);
  TestResponse r = f.Publish(elf, f.Query(elf), AgentHeaders(f.publisher));
  CHECK(r.status == 503);
  CHECK(r.json.at("code") == "storage_unavailable");
  // The checks come first.
  CHECK(f.Publish(elf, f.Query(elf), f.s.admin.headers()).status == 401);
  CHECK(f.Publish(elf, f.Query(elf), AgentHeaders(f.publisher), "", f.other_build).status == 404);
  CHECK(f.Verify() == 0);
}

}  // namespace
}  // namespace service::testing
