// Source map uploads as sentry-cli makes them (issue 31 item 1) through the
// routes, in-process, on the backend under test: the chunk options, chunk
// uploads (gzip and plain, multipart), assembly with its missing chunks, the
// stored bundle and its files (debug id, release, dist, URL path), the
// console's reads; every credential but an agent token with publish_symbols
// and a grant refused in Sentry's {"detail"} shape; deduplication of chunks
// and bundles; bad chunks, bad bundles and the limits; 503 without storage.
// The bundles are hand-made ZIP archives (stored and deflated entries)
// behind sentry-cli's "SYSB" header.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "areas/sourcemaps/domain/artifact_bundle.h"
#include "areas/sourcemaps/module.h"
#include "service/http.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "support/zip_bundle.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;
namespace dsm = domain::sourcemaps;

constexpr int64_t kDayMs = 86'400'000;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::string Gzip(const std::string& in) { return GzipBytes(in); }
std::string Zip(const std::vector<ZipEntry>& entries, bool header = true) {
  return ZipBytes(entries, header);
}

const char* kDebugId = "F527D323-851D-5953-8233-2A2946795FAD";
const std::string kMinified =
    "function p(r){if(!r)throw new Error(\"no name\");return\"hello \"+r}p(process.argv[2]);\n"
    "//# sourceMappingURL=app.js.map\n//# debugId=f527d323-851d-5953-8233-2a2946795fad\n";
const std::string kMap =
    R"({"version":3,"sources":["../src.js"],"names":["greet"],"mappings":"AAAA","debug_id":"f527d323-851d-5953-8233-2a2946795fad"})";

std::string Bundle(const std::string& release = "1.0", const std::string& salt = "") {
  json::object files{
      {"files/_/_/app.js",
       json::object{{"type", "minified_source"},
                    {"url", "~/static/app.js"},
                    {"headers", json::object{{"debug-id", kDebugId}, {"Sourcemap", "app.js.map"}}}}},
      {"files/_/_/app.js.map", json::object{{"type", "source_map"},
                                            {"url", "~/static/app.js.map"},
                                            {"headers", json::object{{"debug-id", kDebugId}}}}}};
  json::object manifest{{"files", files},
                        {"debug_id", "4bc72816-1e5e-5d37-a400-7e1452609eee"},
                        {"org", "acme"},
                        {"project", "web"},
                        {"release", release}};
  return Zip({{"files/_/_/app.js", kMinified + salt, true},
              {"files/_/_/app.js.map", kMap, false},
              {"manifest.json", json::serialize(manifest), true}});
}

std::vector<std::string> Split(const std::string& bytes, size_t parts) {
  std::vector<std::string> out;
  const size_t step = (bytes.size() + parts - 1) / parts;
  for (size_t at = 0; at < bytes.size(); at += step) out.push_back(bytes.substr(at, step));
  return out;
}

// ---- the fixture ----

std::string NewToken(TestService& t, const Member& admin, const std::vector<std::string>& scopes,
                     const std::vector<std::string>& projects) {
  json::array s;
  for (const auto& x : scopes) s.emplace_back(x);
  json::array grants;
  for (const auto& p : projects) grants.push_back(json::object{{"projectId", p}});
  TestResponse r =
      t.Post("/v1/org/agent-pats",
             json::object{{"name", "sourcemaps test"},
                          {"scopes", std::move(s)},
                          {"expiresAt", util::FormatIso8601(t.clock().NowMillis() + 30 * kDayMs)},
                          {"projectGrants", std::move(grants)}},
             admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "token");
}

struct Fixture {
  std::string dir;
  TestService t;
  CaptureSetup s;
  std::string org_slug, project_slug, other_project, other_slug;
  std::string token;

  explicit Fixture(bool storage = true)
      : dir(FreshTempDir("sourcemaps")),
        t([this, storage](Options& o) {
          if (storage) o.evidence_dir = dir;
        }),
        s(NewCaptureSetup(t, "pro")) {
    org_slug = "org-" + s.admin.org_id;
    TestResponse other = t.Post(
        "/v1/projects", json::object{{"name", "Other Site"}, {"orgId", s.admin.org_id}}, s.admin.headers());
    REQUIRE_MESSAGE(other.status == 201, other.body);
    other_project = S(other.json, "id");
    other_slug = S(other.json, "slug");
    TestResponse list = t.Get("/v1/projects", s.admin.headers());
    REQUIRE_MESSAGE(list.status == 200, list.body);
    const json::array& projects =
        list.json.is_array() ? list.json.as_array() : list.json.at("projects").as_array();
    for (const auto& p : projects)
      if (S(p, "id") == s.project_id) project_slug = S(p, "slug");
    REQUIRE_FALSE(project_slug.empty());
    token = NewToken(t, s.admin, {"publish_symbols"}, {s.project_id});
  }

  std::string Base(const std::string& org = "") const {
    return "/api/0/organizations/" + (org.empty() ? org_slug : org);
  }

  TestResponse ChunkOptions(const HeaderList& h, const std::string& org = "") {
    return t.Get(Base(org) + "/chunk-upload/", h);
  }

  // One multipart POST of `chunks` (gzip'd as sentry-cli sends them, or as
  // they are).
  TestResponse Upload(const std::vector<std::string>& chunks, const HeaderList& h, bool gzip = true,
                      const std::vector<std::string>& names = {}) {
    const std::string boundary = "------------------------b0und4ry";
    std::string body;
    for (size_t i = 0; i < chunks.size(); ++i) {
      const std::string name = i < names.size() ? names[i] : dsm::Sha1Hex(chunks[i]);
      body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" +
              std::string(gzip ? "file_gzip" : "file") + "\"; filename=\"" + name +
              "\"\r\nContent-Type: application/octet-stream\r\n\r\n" + (gzip ? Gzip(chunks[i]) : chunks[i]) +
              "\r\n";
    }
    body += "--" + boundary + "--\r\n";
    return Raw(Base() + "/chunk-upload/", body, "multipart/form-data; boundary=" + boundary, h);
  }

  // A POST with its own Content-Type (the harness's Request says JSON).
  TestResponse Raw(const std::string& path, const std::string& body, const std::string& content_type,
                   const HeaderList& h) {
    api::Request req;
    req.method = "POST";
    req.path = path;
    req.body = body;
    req.remote_addr = "127.0.0.1";
    req.headers.Add("Content-Type", content_type);
    for (const auto& [k, v] : h) req.headers.Add(k, v);
    api::Response res = t.service().Handle(req);
    TestResponse out;
    out.status = res.status;
    out.headers = res.headers;
    out.body = res.body;
    boost::system::error_code ec;
    out.json = json::parse(res.body, ec);
    if (ec) out.json = nullptr;
    return out;
  }

  TestResponse Assemble(const std::string& bundle, const std::vector<std::string>& chunks,
                        const HeaderList& h, const json::array& projects = {},
                        const std::string& release = "1.0", const std::string& dist = "") {
    json::array sums;
    for (const auto& c : chunks) sums.emplace_back(dsm::Sha1Hex(c));
    json::object body{{"checksum", dsm::Sha1Hex(bundle)},
                      {"chunks", std::move(sums)},
                      {"projects", projects.empty() ? json::array{json::value(project_slug)} : projects}};
    if (!release.empty()) body["version"] = release;
    if (!dist.empty()) body["dist"] = dist;
    return t.Post(Base() + "/artifactbundle/assemble/", body, h);
  }

  size_t ChunkRows() {
    size_t n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/sourcemaps"))
      n += e.is_regular_file() ? 1 : 0;
    return n;
  }
};

std::string State(const TestResponse& r) { return r.json.is_object() ? S(r.json, "state") : r.body; }

}  // namespace

TEST_CASE("sourcemaps: every credential but an agent token with publish_symbols and a grant is refused") {
  Fixture f;
  const HeaderList ok = Bearer(f.token);
  // No credential, a capture key, a member's session: the pipeline's 401.
  CHECK(f.ChunkOptions({}).status == 401);
  CHECK(f.ChunkOptions(KeyHeader(f.s.key)).status == 401);
  CHECK(f.ChunkOptions(f.s.admin.headers()).status == 401);
  CHECK(f.ChunkOptions(Bearer("sv_pat_not-a-token")).status == 401);
  const std::string bundle = Bundle();
  CHECK(f.Assemble(bundle, {bundle}, f.s.admin.headers()).status == 401);
  // A token without the scope: 403 in Sentry's shape (what sentry-cli prints).
  const std::string no_scope = NewToken(f.t, f.s.admin, {"create_bug"}, {f.s.project_id});
  TestResponse r = f.ChunkOptions(Bearer(no_scope));
  CHECK(r.status == 403);
  CHECK(r.json == json::value(json::object{{"detail", "This token lacks the scope publish_symbols"}}));
  CHECK(f.Upload({"x"}, Bearer(no_scope)).status == 403);
  CHECK(f.Assemble(bundle, {bundle}, Bearer(no_scope)).status == 403);
  // Another organization's slug, or one that does not exist: 404.
  Member stranger = NewOrgWithMember(f.t, "admin", "pro");
  r = f.ChunkOptions(ok, "org-" + stranger.org_id);
  CHECK(r.status == 404);
  CHECK(r.json == json::value(json::object{{"detail", "Organization not found"}}));
  CHECK(f.ChunkOptions(ok, "no-such-org").status == 404);
  // The organization by slug or by id.
  CHECK(f.ChunkOptions(ok).status == 200);
  CHECK(f.ChunkOptions(ok, f.s.admin.org_id).status == 200);
  // A project without a grant, an unknown one and another organization's: the same 403.
  for (const std::string& p : {f.other_slug, std::string("no-such-project"), stranger.org_id}) {
    r = f.Assemble(bundle, {bundle}, ok, json::array{json::value(p)});
    CHECK(r.status == 403);
    CHECK(S(r.json, "detail") == "This token has no grant for the project " + p);
  }
  // One granted and one not: refused whole.
  CHECK(f.Assemble(bundle, {bundle}, ok, json::array{json::value(f.project_slug), json::value(f.other_slug)})
            .status == 403);
  // A token with a grant for another project only may not upload chunks to it either.
  const std::string other_only = NewToken(f.t, f.s.admin, {"publish_symbols"}, {f.other_project});
  CHECK(f.Assemble(bundle, {bundle}, Bearer(other_only)).status == 403);
}

TEST_CASE("sourcemaps: chunk options, missing chunks, upload and assembly store the bundle and its files") {
  Fixture f;
  const HeaderList h = Bearer(f.token);
  TestResponse opts = f.ChunkOptions(h);
  REQUIRE_MESSAGE(opts.status == 200, opts.body);
  CHECK(S(opts.json, "url") == "/api/0/organizations/" + f.org_slug + "/chunk-upload/");
  CHECK(opts.json.at("chunkSize").as_int64() == 8 * 1024 * 1024);
  CHECK(opts.json.at("chunksPerRequest").as_int64() == 8);
  CHECK(opts.json.at("maxRequestSize").as_int64() == 32 * 1024 * 1024);
  CHECK(opts.json.at("maxFileSize").as_int64() == 64 * 1024 * 1024);
  CHECK(S(opts.json, "hashAlgorithm") == "sha1");
  CHECK(opts.json.at("compression") == json::value(json::array{"gzip"}));
  CHECK(opts.json.at("accept") == json::value(json::array{"artifact_bundles"}));

  const std::string bundle = Bundle("1.0");
  const std::vector<std::string> chunks = Split(bundle, 2);
  REQUIRE(chunks.size() == 2);
  // Nothing uploaded: both chunks missing.
  TestResponse r = f.Assemble(bundle, chunks, h, {}, "1.0", "web");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(State(r) == "not_found");
  CHECK(r.json.at("missingChunks") ==
        json::value(json::array{json::value(dsm::Sha1Hex(chunks[0])), json::value(dsm::Sha1Hex(chunks[1]))}));
  // The first chunk (gzip), then only the second is missing.
  r = f.Upload({chunks[0]}, h);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  r = f.Assemble(bundle, chunks, h, {}, "1.0", "web");
  CHECK(State(r) == "not_found");
  CHECK(r.json.at("missingChunks") == json::value(json::array{json::value(dsm::Sha1Hex(chunks[1]))}));
  // The second as a plain "file" part: assembled now.
  REQUIRE(f.Upload({chunks[1]}, h, false).status == 200);
  r = f.Assemble(bundle, chunks, h, {}, "1.0", "web");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json == json::value(json::object{{"state", "ok"}, {"missingChunks", json::array{}}}));
  // Polled again (sentry-cli --wait): still ok, one bundle.
  CHECK(State(f.Assemble(bundle, chunks, h, {}, "1.0", "web")) == "ok");

  // The reads: a member's session and the token.
  for (const HeaderList& reader : {f.s.admin.headers(), h}) {
    TestResponse list = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", reader);
    REQUIRE_MESSAGE(list.status == 200, list.body);
    CHECK(list.json.at("total").as_int64() == 1);
    const json::value& b = list.json.at("bundles").as_array().at(0);
    CHECK(S(b, "checksum") == dsm::Sha1Hex(bundle));
    CHECK(S(b, "bundleId") == "4bc72816-1e5e-5d37-a400-7e1452609eee");
    CHECK(S(b, "release") == "1.0");
    CHECK(S(b, "dist") == "web");
    CHECK(b.at("fileCount").as_int64() == 2);
    CHECK(b.at("byteCount").as_int64() == static_cast<int64_t>(bundle.size()));
    CHECK(list.body.find("storage") == std::string::npos);
    CHECK(list.body.find(f.dir) == std::string::npos);

    TestResponse one =
        f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles/" + S(b, "id"), reader);
    REQUIRE_MESSAGE(one.status == 200, one.body);
    const json::array& files = one.json.at("bundle").at("files").as_array();
    REQUIRE(files.size() == 2);
    CHECK(S(files[0], "url") == "~/static/app.js");
    CHECK(S(files[0], "urlPath") == "/static/app.js");
    CHECK(S(files[0], "type") == "minified_source");
    CHECK(S(files[0], "debugId") == "f527d323-851d-5953-8233-2a2946795fad");
    CHECK(S(files[0], "sourcemap") == "app.js.map");
    CHECK(S(files[1], "type") == "source_map");
    CHECK(files[1].at("byteCount").as_int64() == static_cast<int64_t>(kMap.size()));

    TestResponse ids = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/debug-ids", reader);
    REQUIRE_MESSAGE(ids.status == 200, ids.body);
    REQUIRE(ids.json.at("debugIds").as_array().size() == 1);
    CHECK(S(ids.json.at("debugIds").as_array()[0], "debugId") == "f527d323-851d-5953-8233-2a2946795fad");
    CHECK(ids.json.at("debugIds").as_array()[0].at("types") ==
          json::value(json::array{"minified_source", "source_map"}));

    TestResponse rels = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/releases", reader);
    REQUIRE_MESSAGE(rels.status == 200, rels.body);
    REQUIRE(rels.json.at("releases").as_array().size() == 1);
    CHECK(S(rels.json.at("releases").as_array()[0], "release") == "1.0");
    CHECK(S(rels.json.at("releases").as_array()[0], "dist") == "web");
  }
  // The resolver's lookups and the stored bytes of each file.
  const auto& deps = internal::ModulesOf(f.t.service()).Get<modules::SourcemapsModule>().deps();
  std::vector<ports::SourcemapFileRow> by_id, by_url;
  REQUIRE(deps.db
              ->Read([&](ports::Tx& tx) -> Status {
                SV_ASSIGN_OR_RETURN(by_id, deps.repo->FindByDebugId(tx, f.s.admin.org_id, f.s.project_id,
                                                                    "f527d323-851d-5953-8233-2a2946795fad"));
                SV_ASSIGN_OR_RETURN(by_url, deps.repo->FindByUrl(tx, f.s.admin.org_id, f.s.project_id, "1.0",
                                                                 "web", "/static/app.js.map"));
                return Status::Ok();
              })
              .ok());
  REQUIRE(by_id.size() == 2);
  REQUIRE(by_url.size() == 1);
  Result<std::string> minified = app::sourcemaps::ReadFile(deps, by_id[0]);
  REQUIRE_MESSAGE(minified.ok(), minified.status().ToString());
  CHECK(*minified == kMinified);
  Result<std::string> map = app::sourcemaps::ReadFile(deps, by_url[0]);
  REQUIRE(map.ok());
  CHECK(*map == kMap);
  // Another organization's member reads nothing of the project (404; the
  // next case reads every route that way).
  Member stranger = NewOrgWithMember(f.t, "admin", "pro");
  TestResponse none = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", stranger.headers());
  CHECK(none.status == 404);
  // A token without a grant for the project may not read it.
  const std::string other_only = NewToken(f.t, f.s.admin, {"publish_symbols"}, {f.other_project});
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", Bearer(other_only)).status == 403);
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles?limit=0", h).status == 400);
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles/" + f.s.admin.org_id, h).status ==
        404);
}

TEST_CASE("sourcemaps: another organization's project id reads as 404 on every console read") {
  Fixture f;
  const HeaderList h = Bearer(f.token);
  const std::string bundle = Bundle("1.0");
  REQUIRE(f.Upload({bundle}, h).status == 200);
  REQUIRE(State(f.Assemble(bundle, {bundle}, h, {}, "1.0")) == "ok");
  const std::string base = "/v1/sourcemaps/projects/" + f.s.project_id;
  TestResponse list = f.t.Get(base + "/bundles", f.s.admin.headers());
  REQUIRE_MESSAGE(list.status == 200, list.body);
  REQUIRE(list.json.at("total").as_int64() == 1);
  const std::string bundle_id = S(list.json.at("bundles").as_array().at(0), "id");
  const std::vector<std::string> reads = {"/bundles", "/bundles/" + bundle_id, "/debug-ids", "/releases"};
  // The owner's member and token read every route.
  for (const std::string& path : reads) {
    CAPTURE(path);
    CHECK(f.t.Get(base + path, f.s.admin.headers()).status == 200);
    CHECK(f.t.Get(base + path, h).status == 200);
  }

  // Another organization: its admin, and its own token with publish_symbols
  // and a grant for its own project, read the first organization's project
  // as 404 "Project not found" (not an empty list), like the rest of the API.
  Member stranger = NewOrgWithMember(f.t, "admin", "pro");
  TestResponse p = f.t.Post("/v1/projects", json::object{{"name", "Theirs"}, {"orgId", stranger.org_id}},
                            stranger.headers());
  REQUIRE_MESSAGE(p.status == 201, p.body);
  const std::string theirs = S(p.json, "id");
  const std::string their_token = NewToken(f.t, stranger, {"publish_symbols"}, {theirs});
  for (const std::string& path : reads) {
    for (const HeaderList& foreign : {stranger.headers(), Bearer(their_token)}) {
      CAPTURE(path);
      TestResponse r = f.t.Get(base + path, foreign);
      CHECK(r.status == 404);
      CHECK_MESSAGE(r.json.is_object(), r.body);
      if (r.json.is_object()) CHECK(S(r.json, "error") == "Project not found");
      CHECK(r.body.find(bundle_id) == std::string::npos);
      CHECK(r.body.find("\"total\"") == std::string::npos);
    }
  }
  // Their own project reads as an empty list; an unknown id and a slug read as 404.
  TestResponse own = f.t.Get("/v1/sourcemaps/projects/" + theirs + "/bundles", stranger.headers());
  REQUIRE_MESSAGE(own.status == 200, own.body);
  CHECK(own.json.at("total").as_int64() == 0);
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + theirs + "/releases", Bearer(their_token)).status == 200);
  const std::string unknown = "00000000-0000-4000-8000-000000000000";
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + unknown + "/bundles", f.s.admin.headers()).status == 404);
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + f.project_slug + "/bundles", f.s.admin.headers()).status == 404);
  // The first organization's token asking for the stranger's project: 404
  // too (before the grant check's 403).
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + theirs + "/debug-ids", h).status == 404);
}

TEST_CASE("sourcemaps: chunks and bundles are stored once, a known bundle is reused for another release") {
  Fixture f;
  const HeaderList h = Bearer(f.token);
  const std::string bundle = Bundle("2.0");
  REQUIRE(f.Upload({bundle}, h).status == 200);
  const size_t blobs = f.ChunkRows();
  // The same chunk again, in two parts of one request: nothing new.
  REQUIRE(f.Upload({bundle, bundle}, h).status == 200);
  CHECK(f.ChunkRows() == blobs);
  REQUIRE(State(f.Assemble(bundle, {bundle}, h, {}, "2.0")) == "ok");
  const size_t with_bundle = f.ChunkRows();
  CHECK(with_bundle == blobs);  // the bundle's bytes are its one chunk's: one blob
  // The same checksum for another release and dist: no chunk needed (none named), same blob.
  json::object body{{"checksum", dsm::Sha1Hex(bundle)},
                    {"chunks", json::array{}},
                    {"projects", json::array{json::value(f.s.project_id)}},
                    {"version", "2.1"}};
  TestResponse r = f.t.Post(f.Base() + "/artifactbundle/assemble/", body, h);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(State(r) == "ok");
  CHECK(f.ChunkRows() == with_bundle);
  TestResponse rels = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/releases", h);
  CHECK(rels.json.at("releases").as_array().size() == 2);
  TestResponse list = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", h);
  CHECK(list.json.at("total").as_int64() == 2);
  // The project named twice (slug and id): one row.
  const std::string third = Bundle("3.0", "// 3");
  REQUIRE(f.Upload({third}, h).status == 200);
  CHECK(State(f.Assemble(third, {third}, h,
                         json::array{json::value(f.project_slug), json::value(f.s.project_id)}, "3.0")) ==
        "ok");
  list = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", h);
  CHECK(list.json.at("total").as_int64() == 3);
  // Chunks are the organization's: another organization's token still misses them.
  Member stranger = NewOrgWithMember(f.t, "admin", "pro");
  TestResponse p = f.t.Post("/v1/projects", json::object{{"name", "Theirs"}, {"orgId", stranger.org_id}},
                            stranger.headers());
  REQUIRE(p.status == 201);
  const std::string theirs = NewToken(f.t, stranger, {"publish_symbols"}, {S(p.json, "id")});
  json::object foreign{{"checksum", dsm::Sha1Hex(bundle)},
                       {"chunks", json::array{json::value(dsm::Sha1Hex(bundle))}},
                       {"projects", json::array{json::value(S(p.json, "slug"))}}};
  r = f.t.Post("/api/0/organizations/org-" + stranger.org_id + "/artifactbundle/assemble/", foreign,
               Bearer(theirs));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(State(r) == "not_found");
}

TEST_CASE("sourcemaps: bad chunks, bad bundles and the limits") {
  Fixture f;
  const HeaderList h = Bearer(f.token);
  // A chunk whose bytes are not its name.
  TestResponse r = f.Upload({"abc"}, h, true, {std::string(40, 'a')});
  CHECK(r.status == 400);
  CHECK(S(r.json, "detail") == "chunk " + std::string(40, 'a') + " does not match its SHA-1");
  CHECK(f.Upload({"abc"}, h, true, {"not-a-sha1"}).status == 400);
  // Not multipart, not gzip, too many parts, a chunk over 8 MiB once inflated.
  CHECK(f.Raw(f.Base() + "/chunk-upload/", "x", "application/octet-stream", h).status == 400);
  std::vector<std::string> nine;
  for (int i = 0; i < 9; ++i) nine.push_back("chunk " + std::to_string(i));
  r = f.Upload(nine, h);
  CHECK(r.status == 400);
  CHECK(S(r.json, "detail") == "too many chunks in one request");
  const std::string big(8 * 1024 * 1024 + 1, 'z');
  r = f.Upload({big}, h);
  CHECK(r.status == 400);
  CHECK(S(r.json, "detail") == "a chunk is larger than the chunk size (8 MiB)");
  // Malformed assemble calls.
  for (const json::value& body :
       {json::value(json::array{}),
        json::value(
            json::object{{"checksum", "x"}, {"chunks", json::array{}}, {"projects", json::array{"p"}}}),
        json::value(json::object{
            {"checksum", std::string(40, '0')}, {"chunks", json::array{}}, {"projects", json::array{}}}),
        json::value(json::object{{"checksum", std::string(40, '0')},
                                 {"chunks", json::array{1}},
                                 {"projects", json::array{"p"}}})}) {
    CHECK(f.t.Post(f.Base() + "/artifactbundle/assemble/", body, h).status == 400);
  }
  json::array many;
  for (int i = 0; i < 65; ++i) many.emplace_back(std::string(40, 'a'));
  CHECK(f.t.Post(f.Base() + "/artifactbundle/assemble/",
                 json::object{{"checksum", std::string(40, '0')},
                              {"chunks", many},
                              {"projects", json::array{json::value(f.project_slug)}}},
                 h)
            .status == 400);

  // Chunks that are not the checksum: state error with a detail.
  const std::string bundle = Bundle();
  REQUIRE(f.Upload({bundle}, h).status == 200);
  json::object wrong{{"checksum", std::string(40, 'b')},
                     {"chunks", json::array{json::value(dsm::Sha1Hex(bundle))}},
                     {"projects", json::array{json::value(f.project_slug)}}};
  r = f.t.Post(f.Base() + "/artifactbundle/assemble/", wrong, h);
  CHECK(State(r) == "error");
  CHECK(S(r.json, "detail") == "the assembled bundle does not match its checksum");
  // Not a zip; a manifest naming a file the archive lacks; no manifest.
  const auto assembled = [&](const std::string& bytes) {
    REQUIRE(f.Upload({bytes}, h).status == 200);
    TestResponse a = f.Assemble(bytes, {bytes}, h);
    REQUIRE_MESSAGE(a.status == 200, a.body);
    return a;
  };
  r = assembled("just some text, not a bundle");
  CHECK(State(r) == "error");
  CHECK(S(r.json, "detail") == "the bundle is not a zip archive");
  r = assembled(
      Zip({{"manifest.json", R"({"files":{"files/a.js":{"url":"~/a.js","type":"minified_source"}}})"}}));
  CHECK(State(r) == "error");
  CHECK(S(r.json, "detail") == "manifest.json names files/a.js, which the bundle does not hold");
  r = assembled(Zip({{"files/a.js", "x"}}, false));
  CHECK(S(r.json, "detail") == "the bundle has no manifest.json");
  // A plain zip (no SYSB header) is accepted.
  r = assembled(
      Zip({{"files/a.js", "var a;"},
           {"manifest.json", R"({"files":{"files/a.js":{"url":"~/a.js","type":"minified_source"}}})"}},
          false));
  CHECK(State(r) == "ok");
  TestResponse list = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", h);
  CHECK(list.json.at("total").as_int64() == 1);

  // A bundle over 64 MiB: nine distinct 8 MiB chunks, refused before assembly.
  std::vector<std::string> huge;
  for (int i = 0; i < 9; ++i) {
    std::string c(8 * 1024 * 1024, '\0');
    c[0] = static_cast<char>('a' + i);
    huge.push_back(std::move(c));
  }
  REQUIRE(f.Upload(std::vector<std::string>(huge.begin(), huge.begin() + 5), h).status == 200);
  REQUIRE(f.Upload(std::vector<std::string>(huge.begin() + 5, huge.end()), h).status == 200);
  json::array sums;
  for (const auto& c : huge) sums.emplace_back(dsm::Sha1Hex(c));
  r = f.t.Post(f.Base() + "/artifactbundle/assemble/",
               json::object{{"checksum", std::string(40, 'c')},
                            {"chunks", sums},
                            {"projects", json::array{json::value(f.project_slug)}}},
               h);
  CHECK(State(r) == "error");
  CHECK(S(r.json, "detail") == "the bundle is larger than 64 MiB");
}

TEST_CASE("sourcemaps: without storage the upload routes answer 503") {
  Fixture f(false);
  const HeaderList h = Bearer(f.token);
  TestResponse r = f.ChunkOptions(h);
  CHECK(r.status == 503);
  // A 5xx carries the request id beside the detail (the pipeline's rule).
  CHECK(S(r.json, "detail") == "Source map storage is not configured");
  const std::string bundle = Bundle();
  CHECK(f.Upload({bundle}, h).status == 503);
  CHECK(f.Assemble(bundle, {bundle}, h).status == 503);
  CHECK(f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", h).status == 200);
}

// ---- Resolution at ingest (issue 31 item 2) ----

namespace {

std::string ReadData(const std::string& name) {
  std::ifstream in(std::string(SERVICE_SOURCE_DIR) + "/tests/unit/data/sourcemaps/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  REQUIRE_MESSAGE(!ss.str().empty(), name);
  return ss.str();
}

constexpr const char* kEsbuildDebugId = "9a1b7c4e-0f4a-4d4b-8e8e-3c0d5f6a7b81";

// The real esbuild bundle of tests/unit/data/sourcemaps as sentry-cli packs
// it: ~/static/app.min.js (naming its map) and ~/static/app.min.js.map, both
// with the debug id.
std::string EsbuildBundle(const std::string& release) {
  json::object files{
      {"files/_/_/app.min.js", json::object{{"type", "minified_source"},
                                            {"url", "~/static/app.min.js"},
                                            {"headers", json::object{{"debug-id", kEsbuildDebugId},
                                                                     {"Sourcemap", "app.min.js.map"}}}}},
      {"files/_/_/app.min.js.map", json::object{{"type", "source_map"},
                                                {"url", "~/static/app.min.js.map"},
                                                {"headers", json::object{{"debug-id", kEsbuildDebugId}}}}}};
  json::object manifest{{"files", files}, {"org", "acme"}, {"project", "web"}, {"release", release}};
  return Zip({{"files/_/_/app.min.js", ReadData("app.min.js"), true},
              {"files/_/_/app.min.js.map", ReadData("app.min.js.map"), true},
              {"manifest.json", json::serialize(manifest), true}});
}

// A browser event thrown in the bundle: Node's stack for it (outermost
// first, as Sentry sends frames), plus a vendor frame no map covers and a
// frame without a column.
json::object BundleEvent(const std::string& event_id, const std::string& message, bool debug_meta,
                         const std::string& release = "1.0") {
  const std::string file = "https://shop.example/static/app.min.js";
  json::array frames{
      json::object{{"function", "n"},
                   {"abs_path", "https://shop.example/static/vendor.js"},
                   {"lineno", 1},
                   {"colno", 10},
                   {"in_app", false}},
      json::object{{"function", "Object.<anonymous>"}, {"abs_path", file}, {"lineno", 1}, {"colno", 184}},
      json::object{{"function", "c"}, {"abs_path", file}, {"lineno", 1}, {"colno", 153}},
      json::object{{"function", "r"}, {"abs_path", file}, {"lineno", 1}},
      json::object{{"function", "r"}, {"abs_path", file}, {"lineno", 1}, {"colno", 58}}};
  json::object e{
      {"event_id", event_id},
      {"platform", "javascript"},
      {"release", release},
      {"sdk", json::object{{"name", "sentry.javascript.browser"}, {"version", "8.55.0"}}},
      {"exception", json::object{{"values", json::array{json::object{
                                                {"type", "TypeError"},
                                                {"value", message},
                                                {"stacktrace", json::object{{"frames", frames}}}}}}}}};
  if (debug_meta) {
    e["debug_meta"] = json::object{
        {"images", json::array{json::object{
                       {"type", "sourcemap"}, {"code_file", file}, {"debug_id", kEsbuildDebugId}}}}};
  }
  return e;
}

std::string EnvelopeOf(const json::object& event) {
  const std::string payload = json::serialize(event);
  return "{\"event_id\":\"" + std::string(event.at("event_id").as_string()) +
         "\"}\n{\"type\":\"event\",\"length\":" + std::to_string(payload.size()) + "}\n" + payload + "\n";
}

int64_t ProjectNumberOf(TestService& t, const Member& m, const std::string& project_id) {
  TestResponse list = t.Get("/v1/projects", m.headers());
  REQUIRE_MESSAGE(list.status == 200, list.body);
  for (const auto& pr : list.json.at("projects").as_array())
    if (pr.at("id").as_string() == project_id) return pr.at("project_number").as_int64();
  FAIL("project not listed: ", project_id);
  return 0;
}

// Uploads a bundle in one chunk and assembles it for the fixture's project.
void UploadBundle(Fixture& f, const std::string& bundle, const std::string& release) {
  const HeaderList h = Bearer(f.token);
  TestResponse up = f.Upload({bundle}, h);
  REQUIRE_MESSAGE(up.status == 200, up.body);
  TestResponse done = f.Assemble(bundle, {bundle}, h, {}, release);
  REQUIRE_MESSAGE(done.status == 200, done.body);
  REQUIRE_MESSAGE(State(done) == "ok", done.body);
}

// Posts a Sentry envelope with the fixture's key; returns the event's bug
// and the stored error event's data.
struct Stored {
  std::string bug_id;
  std::string title;
  json::object data;
};
Stored Send(Fixture& f, const std::string& key, const std::string& project_id, const json::object& event) {
  const int64_t number = ProjectNumberOf(f.t, f.s.admin, project_id);
  TestResponse r = f.t.Request(
      "POST", "/api/" + std::to_string(number) + "/envelope/", EnvelopeOf(event),
      {{"X-Sentry-Auth",
        "Sentry sentry_version=7, sentry_client=sentry.javascript.browser/8.55.0, sentry_key=" + key}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  TestResponse bugs =
      f.t.Get("/v1/bugs?signalClass=all&limit=200&projectId=" + project_id, f.s.admin.headers());
  REQUIRE_MESSAGE(bugs.status == 200, bugs.body);
  Stored out;
  for (const auto& b : bugs.json.at("bugs").as_array()) {
    TestResponse occ = f.t.Get("/v1/bugs/" + S(b, "id") + "/events", f.s.admin.headers());
    REQUIRE_MESSAGE(occ.status == 200, occ.body);
    for (const auto& ev : occ.json.at("events").as_array()) {
      if (S(ev, "event_type") != "error") continue;
      const json::object& d = ev.at("data").as_object();
      if (d.at("message").as_string() != event.at("exception").at("values").at(0).at("value").as_string())
        continue;
      out.bug_id = S(b, "id");
      out.title = S(b, "title");
      out.data = d;
    }
  }
  REQUIRE_MESSAGE(!out.bug_id.empty(), bugs.body);
  return out;
}

const json::object& FrameAt(const Stored& s, size_t i) {
  return s.data.at("frames").as_array().at(i).as_object();
}
// Why frame i stayed minified ("" when it resolved).
std::string ReasonAt(const Stored& s, size_t i) {
  const json::object& sm = FrameAt(s, i).at("sourcemap").as_object();
  return sm.contains("reason") ? S(sm, "reason") : "";
}

}  // namespace

TEST_CASE(
    "sourcemaps: a Sentry event's minified frames are resolved at ingest by debug id, else by release and "
    "URL") {
  Fixture f;
  // Before any upload: frames stored as sent, nothing attempted.
  const Stored before = Send(f, f.s.key, f.s.project_id,
                             BundleEvent("00000000000000000000000000000001", "before upload", true));
  for (const auto& fr : before.data.at("frames").as_array()) {
    CHECK_FALSE(fr.as_object().contains("sourcemap"));
    CHECK_FALSE(fr.as_object().contains("minified"));
  }
  CHECK_FALSE(before.data.contains("minified_stack"));

  UploadBundle(f, EsbuildBundle("1.0"), "1.0");

  SUBCASE("by debug id") {
    const Stored s =
        Send(f, f.s.key, f.s.project_id,
             BundleEvent("00000000000000000000000000000002", "by debug id", true, "other-release"));
    CHECK(ReasonAt(s, 0) == "map_not_found");  // vendor.js
    CHECK(S(FrameAt(s, 0), "abs_path") == "https://shop.example/static/vendor.js");
    // The innermost frame: the original read where the SDK's values were,
    // those kept beside it.
    const json::object& top = FrameAt(s, 4);
    CHECK(S(top, "filename") == "../src/cart.js");
    CHECK(S(top, "abs_path") == "../src/cart.js");
    CHECK(top.at("lineno").as_int64() == 6);
    CHECK(top.at("colno").as_int64() == 13);
    CHECK(S(top, "function") == "computeTotal");
    CHECK(S(top, "context_line").find("throw new Error") != std::string::npos);
    CHECK_FALSE(top.at("pre_context").as_array().empty());
    CHECK(S(top.at("sourcemap"), "resolved_with") == "debug_id");
    const json::object& minified = top.at("minified").as_object();
    CHECK(S(minified, "function") == "r");
    CHECK(S(minified, "abs_path") == "https://shop.example/static/app.min.js");
    CHECK(minified.at("lineno").as_int64() == 1);
    CHECK(minified.at("colno").as_int64() == 58);
    CHECK(ReasonAt(s, 3) == "no_location");
    CHECK(S(FrameAt(s, 3), "function") == "r");
    CHECK(S(FrameAt(s, 2), "filename") == "../src/main.js");
    CHECK(S(FrameAt(s, 2), "function") == "checkout");
    const std::string stack = S(s.data, "stack");
    CHECK_MESSAGE(stack.find("at computeTotal (../src/cart.js:6:13)") != std::string::npos, stack);
    CHECK(stack.starts_with("TypeError: by debug id"));
    CHECK(S(s.data, "minified_stack").find("at r (https://shop.example/static/app.min.js:1:58)") !=
          std::string::npos);
  }
  SUBCASE("by release, dist and URL when the event has no debug ids") {
    const Stored s = Send(f, f.s.key, f.s.project_id,
                          BundleEvent("00000000000000000000000000000003", "by release", false));
    CHECK(S(FrameAt(s, 4), "filename") == "../src/cart.js");
    CHECK(S(FrameAt(s, 4), "function") == "computeTotal");
    CHECK(S(FrameAt(s, 4).at("sourcemap"), "resolved_with") == "release");
    // Another release finds nothing.
    const Stored other = Send(f, f.s.key, f.s.project_id,
                              BundleEvent("00000000000000000000000000000004", "other release", false, "2.0"));
    CHECK(ReasonAt(other, 4) == "map_not_found");
    CHECK_FALSE(other.data.contains("minified_stack"));
  }
  SUBCASE("a broken map leaves the frames as sent with the decoder's reason, and the event is stored") {
    const std::string broken_id = "1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9";
    json::object files{
        {"files/_/_/bad.js.map", json::object{{"type", "source_map"},
                                              {"url", "~/static/bad.js.map"},
                                              {"headers", json::object{{"debug-id", broken_id}}}}}};
    const std::string bad =
        Zip({{"files/_/_/bad.js.map", R"({"version":3,"sources":["a.js"],"mappings":"!!"})", true},
             {"manifest.json", json::serialize(json::object{{"files", files}}), true}});
    UploadBundle(f, bad, "1.0");
    json::object e = BundleEvent("00000000000000000000000000000005", "broken map", true, "9.9");
    e["debug_meta"].as_object()["images"].as_array()[0].as_object()["debug_id"] = broken_id;
    const Stored s = Send(f, f.s.key, f.s.project_id, e);
    CHECK(ReasonAt(s, 4) == "map_malformed");
    CHECK(S(s.data.at("frames").as_array().at(4), "function") == "r");
  }
}

TEST_CASE("sourcemaps: two builds whose messages differ by minified names group by their resolved frames") {
  Fixture f;
  UploadBundle(f, EsbuildBundle("1.0"), "1.0");
  const Stored a = Send(f, f.s.key, f.s.project_id,
                        BundleEvent("00000000000000000000000000000011", "r is not a function", true));
  const Stored b = Send(f, f.s.key, f.s.project_id,
                        BundleEvent("00000000000000000000000000000012", "o is not a function", true));
  CHECK(S(a.data, "message") != S(b.data, "message"));
  CHECK(a.bug_id == b.bug_id);
  // A different resolved stack (another throw site) is another bug.
  json::object other = BundleEvent("00000000000000000000000000000013", "x is not a function", true);
  other["exception"]
      .as_object()["values"]
      .as_array()[0]
      .as_object()["stacktrace"]
      .as_object()["frames"]
      .as_array()
      .pop_back();
  const Stored c = Send(f, f.s.key, f.s.project_id, other);
  CHECK(c.bug_id != a.bug_id);

  // The control: a project without uploads groups by message, so the same
  // two events are two bugs there.
  const std::string key2 = CreateKeyVia(f.t, f.s.admin, f.other_project);
  const Stored x = Send(f, key2, f.other_project,
                        BundleEvent("00000000000000000000000000000021", "r is not a function", true));
  const Stored y = Send(f, key2, f.other_project,
                        BundleEvent("00000000000000000000000000000022", "o is not a function", true));
  CHECK(x.bug_id != y.bug_id);
}

}  // namespace service::testing

namespace service::testing {

TEST_CASE("sourcemaps: chunks are forgotten a day after their upload, their bytes with them, bundles stay") {
  Fixture f;
  const HeaderList h = Bearer(f.token);
  const std::string bundle = Bundle("1.0");
  const std::vector<std::string> chunks = Split(bundle, 2);
  REQUIRE(f.Upload(chunks, h).status == 200);
  REQUIRE(State(f.Assemble(bundle, chunks, h)) == "ok");
  const std::string leftover = "a chunk no bundle used";
  REQUIRE(f.Upload({leftover}, h).status == 200);
  const size_t with_chunks = f.ChunkRows();  // 3 chunk blobs + the bundle's
  CHECK(with_chunks == 4);

  const auto& deps = internal::ModulesOf(f.t.service()).Get<modules::SourcemapsModule>().deps();
  f.t.clock().Advance(app::sourcemaps::kChunkTtlMs - 1000);
  Result<int64_t> none = app::sourcemaps::ForgetOldChunks(deps);
  REQUIRE(none.ok());
  CHECK(*none == 0);
  f.t.clock().Advance(2000);
  Result<int64_t> forgot = app::sourcemaps::ForgetOldChunks(deps);
  REQUIRE_MESSAGE(forgot.ok(), forgot.status().ToString());
  CHECK(*forgot == 3);
  CHECK(f.ChunkRows() == 1);  // the bundle's blob only

  // The bundle stays: listed, and assembled again for another release from
  // its stored bytes though its chunks are gone.
  TestResponse list = f.t.Get("/v1/sourcemaps/projects/" + f.s.project_id + "/bundles", h);
  REQUIRE_MESSAGE(list.status == 200, list.body);
  CHECK(list.json.at("total").as_int64() == 1);
  CHECK(State(f.Assemble(bundle, chunks, h, {}, "2.0")) == "ok");
  // The forgotten leftover is asked for again.
  TestResponse again = f.Assemble(leftover, {leftover}, h);
  CHECK(State(again) == "not_found");
}

TEST_CASE("sourcemaps: a chunk row whose bytes are gone asks for the chunk again, and the upload stores it") {
  Fixture f;
  const HeaderList h = Bearer(f.token);
  const std::string bundle = Bundle("1.0");
  REQUIRE(f.Upload({bundle}, h).status == 200);
  // The bytes vanish (another process's sweep raced this upload).
  for (const auto& e : std::filesystem::recursive_directory_iterator(f.dir + "/sourcemaps"))
    if (e.is_regular_file()) std::filesystem::remove(e.path());
  TestResponse r = f.Assemble(bundle, {bundle}, h);
  CHECK(State(r) == "not_found");
  REQUIRE(f.Upload({bundle}, h).status == 200);
  CHECK(State(f.Assemble(bundle, {bundle}, h)) == "ok");
}

}  // namespace service::testing
