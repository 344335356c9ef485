// Source map uploads with sentry-cli (issue 31 item 1), Sentry's routes as
// `sentry-cli sourcemaps upload` calls them:
//   GET  /api/0/organizations/:org/chunk-upload/         chunk options
//   POST /api/0/organizations/:org/chunk-upload/         multipart chunks
//   POST /api/0/organizations/:org/artifactbundle/assemble/
//        {checksum, chunks, projects, version?, dist?} -> {state, missingChunks[, detail]}
// (the trailing slash optional). Agent tokens only (AuthMode::kAgentToken:
// anything else is the pipeline's 401), with publish_symbols, `:org` the
// token's organization (slug or id, else 404), and on assemble a grant for
// every project named (slug or id; unknown or ungranted: 403). Errors are
// Sentry's shape, {"detail": "..."}, which the CLI prints.
//
// The console's reads (a member's session, or an agent token with
// publish_symbols and a grant for the project; a project id that is not
// the caller's organization's answers 404 "Project not found"):
//   GET /v1/sourcemaps/projects/:projectId/bundles?limit=&offset=
//   GET /v1/sourcemaps/projects/:projectId/bundles/:bundleId
//   GET /v1/sourcemaps/projects/:projectId/debug-ids?limit=&offset=
//   GET /v1/sourcemaps/projects/:projectId/releases?limit=&offset=
#include <boost/json.hpp>

#include <algorithm>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/sourcemaps/api/routes.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace sm = app::sourcemaps;
using sm::SourcemapsDeps;

Response Detail(int status, std::string_view detail) {
  return JsonResponse(status, json::object{{"detail", detail}});
}

// A use case's failure in Sentry's shape; unexpected failures go through
// the error table (logged, 500 with a request id).
Response DetailFor(const Status& s) {
  const int http = HttpStatusFor(s.code());
  if (http >= 500 && !s.is_public()) return StatusResponse(s);
  return Detail(http, s.message());
}

// The token's scope and organization. Fills `target` with the projects
// `refs` name.
std::optional<Response> CheckCaller(const SourcemapsDeps& deps, const Context& ctx,
                                    const std::vector<std::string>& refs,
                                    ports::SourcemapRepository::Target* target) {
  if (!HasScope(ctx.principal, sm::kPublishScope))
    return Detail(403, "This token lacks the scope publish_symbols");
  Result<ports::SourcemapRepository::Target> t = sm::ResolveTarget(deps, ctx.principal.org_id, refs);
  if (!t.ok()) return DetailFor(t.status());
  const std::string org = ctx.params.Get("org");
  if (org != t->org_slug && util::ToLower(org) != ctx.principal.org_id)
    return Detail(404, "Organization not found");
  *target = std::move(*t);
  return std::nullopt;
}

Response HandleOptions(const SourcemapsDeps& deps, Context& ctx) {
  ports::SourcemapRepository::Target target;
  if (auto refused = CheckCaller(deps, ctx, {}, &target)) return *refused;
  if (ctx.principal.granted_projects.empty()) return Detail(403, "This token has no project grant");
  if (Status s = sm::RequireStorage(deps); !s.ok()) return DetailFor(s);
  return JsonResponse(
      200, json::object{{"url", "/api/0/organizations/" + ctx.params.Get("org") + "/chunk-upload/"},
                        {"chunkSize", sm::kChunkSize},
                        {"chunksPerRequest", sm::kChunksPerRequest},
                        {"maxFileSize", sm::kMaxBundleBytes},
                        {"maxRequestSize", sm::kMaxRequestSize},
                        {"concurrency", sm::kConcurrency},
                        {"hashAlgorithm", "sha1"},
                        {"compression", json::array{"gzip"}},
                        {"accept", json::array{"artifact_bundles"}}});
}

Response HandleChunks(const SourcemapsDeps& deps, Context& ctx) {
  ports::SourcemapRepository::Target target;
  if (auto refused = CheckCaller(deps, ctx, {}, &target)) return *refused;
  if (ctx.principal.granted_projects.empty()) return Detail(403, "This token has no project grant");
  const std::string boundary = domain::sourcemaps::MultipartBoundary(ctx.req.headers.Get("Content-Type"));
  if (boundary.empty()) return Detail(400, "The body must be multipart/form-data");
  Result<std::vector<domain::sourcemaps::FormPart>> parts =
      domain::sourcemaps::ParseMultipart(ctx.req.body, boundary, static_cast<size_t>(sm::kChunksPerRequest));
  if (!parts.ok()) return Detail(400, parts.status().message());
  std::vector<sm::ChunkPart> chunks;
  for (const auto& p : *parts) {
    if (p.name != "file" && p.name != "file_gzip") continue;  // other fields are not chunks
    chunks.push_back(sm::ChunkPart{p.filename, p.data, p.name == "file_gzip"});
  }
  if (chunks.empty()) return Detail(400, "The body holds no chunk (file or file_gzip)");
  Result<int64_t> stored = sm::UploadChunks(deps, ctx.principal.org_id, chunks);
  if (!stored.ok()) return DetailFor(stored.status());
  return JsonResponse(200, json::object{});
}

bool ShortText(const json::value& v, size_t max) {
  return v.is_string() && v.as_string().size() <= max && util::IsValidUtf8(v.as_string());
}

Response HandleAssemble(const SourcemapsDeps& deps, Context& ctx) {
  ports::SourcemapRepository::Target target;
  if (auto refused = CheckCaller(deps, ctx, {}, &target)) return *refused;
  Result<json::value> parsed = ParseJsonBody(ctx.req.body);
  if (!parsed.ok() || !parsed->is_object()) return Detail(400, "The body must be a JSON object");
  const json::object& o = parsed->as_object();
  sm::AssembleInput in;
  std::vector<std::string> refs;
  const json::value* checksum = Field(o, "checksum");
  if (!checksum || !checksum->is_string() || !domain::sourcemaps::IsSha1Hex(checksum->as_string()))
    return Detail(400, "checksum must be a SHA-1 (40 hex digits)");
  in.checksum = std::string(checksum->as_string());
  const json::value* chunks = Field(o, "chunks");
  if (!chunks || !chunks->is_array() || chunks->as_array().size() > sm::kMaxChunksPerBundle)
    return Detail(400, "chunks must be an array of at most 64 SHA-1s");
  for (const auto& c : chunks->as_array()) {
    if (!c.is_string() || !domain::sourcemaps::IsSha1Hex(c.as_string()))
      return Detail(400, "chunks must be an array of at most 64 SHA-1s");
    in.chunks.emplace_back(c.as_string());
  }
  const json::value* projects = Field(o, "projects");
  if (!projects || !projects->is_array() || projects->as_array().empty() ||
      projects->as_array().size() > sm::kMaxProjects)
    return Detail(400, "projects must name 1 to 20 projects");
  for (const auto& p : projects->as_array()) {
    if (!ShortText(p, 200) || p.as_string().empty())
      return Detail(400, "projects must name 1 to 20 projects");
    refs.emplace_back(p.as_string());
  }
  if (const json::value* v = Field(o, "version"); v && !v->is_null()) {
    if (!ShortText(*v, sm::kMaxReleaseBytes))
      return Detail(400, "version must be a string of at most 250 bytes");
    in.release = std::string(v->as_string());
  }
  if (const json::value* v = Field(o, "dist"); v && !v->is_null()) {
    if (!ShortText(*v, sm::kMaxDistBytes)) return Detail(400, "dist must be a string of at most 64 bytes");
    in.dist = std::string(v->as_string());
  }

  SV_ASSIGN_OR_RESPOND(target, sm::ResolveTarget(deps, ctx.principal.org_id, refs));
  for (const std::string& ref : refs) {
    std::string id;
    for (const auto& [r, pid] : target.projects) {
      if (r == ref) id = pid;
    }
    // An unknown project answers as one without a grant: a token learns
    // nothing about projects it may not publish to.
    if (id.empty() || !HasGrant(ctx.principal, id))
      return Detail(403, "This token has no grant for the project " + ref);
    if (std::find(in.project_ids.begin(), in.project_ids.end(), id) == in.project_ids.end())
      in.project_ids.push_back(id);
  }
  Result<sm::AssembleOutcome> out = sm::Assemble(deps, ctx.principal.org_id, ctx.principal.key_id, in);
  if (!out.ok()) return DetailFor(out.status());
  json::array missing;
  for (const auto& m : out->missing_chunks) missing.emplace_back(m);
  json::object body{{"state", out->state}, {"missingChunks", std::move(missing)}};
  if (!out->detail.empty()) body["detail"] = out->detail;
  return JsonResponse(200, body);
}

// ---- the console's reads ----

json::value OptText(const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

json::object BundleJson(const ports::SourcemapBundleRow& b) {
  return json::object{{"id", b.id},
                      {"projectId", b.project_id},
                      {"checksum", b.checksum},
                      {"bundleId", OptText(b.bundle_id)},
                      {"release", OptText(b.release)},
                      {"dist", OptText(b.dist)},
                      {"byteCount", b.byte_count},
                      {"sha256", b.sha256},
                      {"fileCount", b.file_count},
                      {"createdAt", util::FormatIso8601(b.created_at)}};
}

json::object FileJson(const ports::SourcemapFileRow& f) {
  return json::object{{"url", f.url},
                      {"urlPath", f.url_path},
                      {"type", f.file_type},
                      {"debugId", OptText(f.debug_id)},
                      {"sourcemap", OptText(f.sourcemap)},
                      {"byteCount", f.byte_count}};
}

Response NoStore(Response r) {
  r.headers.Set("Cache-Control", "private, no-store");
  return r;
}

// The project must be the caller's organization's: another organization's
// project id (or no such project, or anything but an id) reads as 404
// "Project not found", as everywhere in the API, before any other check.
// Then an agent token needs publish_symbols and a grant for the project.
Status CheckReader(const SourcemapsDeps& deps, const Context& ctx, const std::string& project_id) {
  if (!util::IsUuid(project_id)) return NotFound("Project not found");
  SV_ASSIGN_OR_RETURN(ports::SourcemapRepository::Target t,
                      sm::ResolveTarget(deps, ctx.principal.org_id, {project_id}));
  const bool own = std::any_of(t.projects.begin(), t.projects.end(),
                               [&](const auto& p) { return p.second == project_id; });
  if (!own) return NotFound("Project not found");
  if (!IsAgent(ctx.principal)) return Status::Ok();
  if (!HasScope(ctx.principal, sm::kPublishScope))
    return Status(Code::kPermissionDenied, "This token lacks the scope publish_symbols", "SCOPE_REQUIRED");
  if (!HasGrant(ctx.principal, project_id))
    return Status(Code::kPermissionDenied, "This token has no grant for the project",
                  "PROJECT_GRANT_REQUIRED");
  return Status::Ok();
}

struct Paging {
  int64_t limit = 20;
  int64_t offset = 0;
};

Result<Paging> PagingOf(const Context& ctx) {
  Paging p;
  json::array details;
  const auto one = [&](const char* name, int64_t lo, int64_t hi, int64_t* out) {
    Result<std::optional<std::string>> v = ctx.query.One(name);
    if (!v.ok()) {
      details.push_back(json::object{{"field", name}, {"message", "must be given at most once"}});
      return;
    }
    if (!v->has_value()) return;
    const std::string& s = **v;
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos ||
        std::stoll(s) < lo || std::stoll(s) > hi) {
      details.push_back(json::object{
          {"field", name},
          {"message", "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi)}});
      return;
    }
    *out = std::stoll(s);
  };
  one("limit", 1, 100, &p.limit);
  one("offset", 0, 10000, &p.offset);
  if (!details.empty())
    return Status(Code::kInvalidArgument, "Validation failed", "VALIDATION_ERROR",
                  json::serialize(json::object{{"details", std::move(details)}}));
  return p;
}

Response HandleListBundles(const SourcemapsDeps& deps, Context& ctx) {
  const std::string project_id = util::ToLower(ctx.params.Get("projectId"));
  if (Status s = CheckReader(deps, ctx, project_id); !s.ok()) return StatusResponse(s);
  SV_ASSIGN_OR_RESPOND(Paging p, PagingOf(ctx));
  SV_ASSIGN_OR_RESPOND(sm::BundlePage page,
                       sm::ListBundles(deps, ctx.principal.org_id, project_id, p.limit, p.offset));
  json::array bundles;
  for (const auto& b : page.bundles) bundles.push_back(BundleJson(b));
  return NoStore(JsonResponse(
      200,
      json::object{
          {"bundles", std::move(bundles)}, {"total", page.total}, {"limit", p.limit}, {"offset", p.offset}}));
}

Response HandleGetBundle(const SourcemapsDeps& deps, Context& ctx) {
  const std::string project_id = util::ToLower(ctx.params.Get("projectId"));
  if (Status s = CheckReader(deps, ctx, project_id); !s.ok()) return StatusResponse(s);
  SV_ASSIGN_OR_RESPOND(sm::BundleWithFiles b,
                       sm::GetBundle(deps, ctx.principal.org_id, project_id, ctx.params.Get("bundleId")));
  json::object bundle = BundleJson(b.bundle);
  json::array files;
  for (const auto& f : b.files) files.push_back(FileJson(f));
  bundle["files"] = std::move(files);
  return NoStore(JsonResponse(200, json::object{{"bundle", std::move(bundle)}}));
}

Response HandleDebugIds(const SourcemapsDeps& deps, Context& ctx) {
  const std::string project_id = util::ToLower(ctx.params.Get("projectId"));
  if (Status s = CheckReader(deps, ctx, project_id); !s.ok()) return StatusResponse(s);
  SV_ASSIGN_OR_RESPOND(Paging p, PagingOf(ctx));
  SV_ASSIGN_OR_RESPOND(auto ids, sm::ListDebugIds(deps, ctx.principal.org_id, project_id, p.limit, p.offset));
  json::array out;
  for (const auto& d : ids) {
    json::array types, urls;
    for (const auto& t : d.file_types) types.emplace_back(t);
    for (const auto& u : d.urls) urls.emplace_back(u);
    out.push_back(json::object{{"debugId", d.debug_id},
                               {"bundleId", d.bundle_id},
                               {"types", std::move(types)},
                               {"urls", std::move(urls)},
                               {"lastUploadAt", util::FormatIso8601(d.created_at)}});
  }
  return NoStore(JsonResponse(
      200, json::object{{"debugIds", std::move(out)}, {"limit", p.limit}, {"offset", p.offset}}));
}

Response HandleReleases(const SourcemapsDeps& deps, Context& ctx) {
  const std::string project_id = util::ToLower(ctx.params.Get("projectId"));
  if (Status s = CheckReader(deps, ctx, project_id); !s.ok()) return StatusResponse(s);
  SV_ASSIGN_OR_RESPOND(Paging p, PagingOf(ctx));
  SV_ASSIGN_OR_RESPOND(auto rels,
                       sm::ListReleases(deps, ctx.principal.org_id, project_id, p.limit, p.offset));
  json::array out;
  for (const auto& r : rels) {
    out.push_back(json::object{{"release", r.release},
                               {"dist", OptText(r.dist)},
                               {"bundleCount", r.bundle_count},
                               {"fileCount", r.file_count},
                               {"lastUploadAt", util::FormatIso8601(r.last_upload_at)}});
  }
  return NoStore(JsonResponse(
      200, json::object{{"releases", std::move(out)}, {"limit", p.limit}, {"offset", p.offset}}));
}

}  // namespace

void RegisterSourcemapsRoutes(Pipeline& p, const SourcemapsRouteDeps& d) {
  Router& r = p.router();
  const SourcemapsDeps& deps = *d.sourcemaps;
  // The trailing slash the CLI sends is optional (the router ignores it).
  const std::string chunks = "/api/0/organizations/:org/chunk-upload";
  r.Add("GET", chunks, RateClass::kGeneral, AuthMode::kAgentToken, Bind(deps, HandleOptions));
  r.Add("POST", chunks, RateClass::kGeneral, AuthMode::kAgentToken, Bind(deps, HandleChunks));
  // Multipart overhead on top of the advertised request size.
  r.SetBodyPolicy("POST", chunks, BodyPolicy{sm::kMaxRequestSize + 1024 * 1024, false, ""});
  r.Add("POST", "/api/0/organizations/:org/artifactbundle/assemble", RateClass::kGeneral,
        AuthMode::kAgentToken, Bind(deps, HandleAssemble));
  const std::string base = "/v1/sourcemaps/projects/:projectId";
  r.Add("GET", base + "/bundles", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Bind(deps, HandleListBundles));
  r.Add("GET", base + "/bundles/:bundleId", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Bind(deps, HandleGetBundle));
  r.Add("GET", base + "/debug-ids", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Bind(deps, HandleDebugIds));
  r.Add("GET", base + "/releases", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent, Bind(deps, HandleReleases));
}

}  // namespace service::api
