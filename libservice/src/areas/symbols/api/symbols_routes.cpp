// Symbol publishing (issue 30 item 5; Spec 2 "Symbol publishing"):
//   POST /v1/agent-work/symbols/projects/:projectId/builds/:buildId/files
//        ?applicationId=&sha256=[&name=][&debugId=][&arch=]
//        body: the file's bytes (spooled to a file, at most 256 MiB)
//        agent token with publish_symbols and a grant for the project;
//        201 {symbolFile} (state pending); 200 with the same row when this
//        build already has these bytes
//   GET  /v1/agent-work/symbols/projects/:projectId/builds/:buildId/files
//        ?limit=20&offset=0   200 {symbolFiles, total, limit, offset}
//   GET  /v1/agent-work/symbols/projects/:projectId/files/:fileId
//        200 {symbolFile}
// The reads take an agent token with publish_symbols and a grant, or a
// member's session (X-Service-Org). Capture keys are refused (401), console
// sessions on the publish route too (401), agent tokens without the scope
// or the grant 403 (before any 404 or 400).
#include <boost/json.hpp>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/symbols/api/routes.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
using app::symbols::SymbolsDeps;

Status Coded(Code code, std::string message, const char* error_code) {
  return Status(code, std::move(message), error_code);
}

// Agent tokens: the scope, then the grant for the route's project.
Status CheckAgent(const Context& ctx, const std::string& project_id) {
  if (!HasScope(ctx.principal, app::symbols::kPublishScope)) {
    return Coded(Code::kPermissionDenied, "This token lacks the scope publish_symbols", "SCOPE_REQUIRED");
  }
  if (!HasGrant(ctx.principal, project_id)) {
    return Coded(Code::kPermissionDenied, "This token has no grant for the project",
                 "PROJECT_GRANT_REQUIRED");
  }
  return Status::Ok();
}

json::value OptText(const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

json::object FileJson(const ports::SymbolFileRow& f) {
  json::array slices;
  for (const auto& s : f.slices) slices.push_back(json::object{{"arch", s.arch}, {"debugId", s.debug_id}});
  return json::object{{"id", f.id},
                      {"projectId", f.project_id},
                      {"applicationId", f.application_id},
                      {"buildId", f.build_id},
                      {"name", OptText(f.name)},
                      {"byteCount", f.byte_count},
                      {"sha256", f.sha256},
                      {"state", f.state},
                      {"usable", f.state == "ready"},
                      {"format", OptText(f.format)},
                      {"reason", OptText(f.reason)},
                      {"declared", json::object{{"debugId", OptText(f.declared_debug_id)},
                                                {"arch", OptText(f.declared_arch)}}},
                      {"slices", std::move(slices)},
                      {"createdAt", util::FormatIso8601(f.created_at)},
                      {"processedAt", f.processed_at ? json::value(util::FormatIso8601(*f.processed_at))
                                                     : json::value(nullptr)}};
}

Response NoStore(Response r) {
  r.headers.Set("Cache-Control", "private, no-store");
  return r;
}

// The value of a query parameter given at most once ("" when absent).
Result<std::string> QueryOne(const Context& ctx, const char* name) {
  Result<std::optional<std::string>> one = ctx.query.One(name);
  if (!one.ok()) {
    return Status(Code::kInvalidArgument, "Validation failed", "VALIDATION_ERROR",
                  json::serialize(json::object{
                      {"details", json::array{json::object{{"field", name},
                                                           {"message", "must be given at most once"}}}}}));
  }
  return one->value_or("");
}

// The request body, from the spool file or from memory.
class BodyReader final : public ports::ByteSource {
 public:
  explicit BodyReader(const Request& req) : req_(req) {}
  int64_t Read(char* buf, size_t n) override {
    if (req_.body_source) return req_.body_source->Read(buf, n);
    const size_t k = std::min(n, req_.body.size() - pos_);
    std::copy_n(req_.body.data() + pos_, k, buf);
    pos_ += k;
    return static_cast<int64_t>(k);
  }
  uint64_t size() const { return req_.body_source ? req_.body_source->size() : req_.body.size(); }

 private:
  const Request& req_;
  size_t pos_ = 0;
};

Response HandlePublish(const SymbolsDeps& deps, Context& ctx) {
  if (!IsAgent(ctx.principal)) return StatusResponse(Unauthenticated("An agent token is required"));
  const std::string project_id = util::ToLower(ctx.params.Get("projectId"));
  if (Status s = CheckAgent(ctx, project_id); !s.ok()) return StatusResponse(s);
  app::symbols::PublishInput in;
  in.project_id = project_id;
  in.build_id = ctx.params.Get("buildId");
  SV_ASSIGN_OR_RESPOND(in.application_id, QueryOne(ctx, "applicationId"));
  SV_ASSIGN_OR_RESPOND(in.sha256, QueryOne(ctx, "sha256"));
  SV_ASSIGN_OR_RESPOND(in.name, QueryOne(ctx, "name"));
  SV_ASSIGN_OR_RESPOND(in.debug_id, QueryOne(ctx, "debugId"));
  SV_ASSIGN_OR_RESPOND(in.arch, QueryOne(ctx, "arch"));
  BodyReader body(ctx.req);
  SV_ASSIGN_OR_RESPOND(
      app::symbols::PublishOutcome out,
      app::symbols::Publish(deps, ctx.principal.org_id, ctx.principal.key_id, in, body, body.size()));
  return NoStore(JsonResponse(out.created ? 201 : 200, json::object{{"symbolFile", FileJson(out.file)}}));
}

// Reads: a member, or an agent token with the scope and the grant.
Status CheckReader(const Context& ctx, const std::string& project_id) {
  if (IsAgent(ctx.principal)) return CheckAgent(ctx, project_id);
  return Status::Ok();
}

Result<int64_t> IntParam(const Context& ctx, const char* name, int64_t fallback) {
  SV_ASSIGN_OR_RETURN(std::string v, QueryOne(ctx, name));
  if (v.empty()) return fallback;
  if (v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) return int64_t{-1};
  return static_cast<int64_t>(std::stoll(v));
}

Response HandleList(const SymbolsDeps& deps, Context& ctx) {
  const std::string project_id = util::ToLower(ctx.params.Get("projectId"));
  if (Status s = CheckReader(ctx, project_id); !s.ok()) return StatusResponse(s);
  SV_ASSIGN_OR_RESPOND(int64_t limit, IntParam(ctx, "limit", 20));
  SV_ASSIGN_OR_RESPOND(int64_t offset, IntParam(ctx, "offset", 0));
  SV_ASSIGN_OR_RESPOND(app::symbols::FilePage page,
                       app::symbols::ListForBuild(deps, ctx.principal.org_id, project_id,
                                                  ctx.params.Get("buildId"), limit, offset));
  json::array files;
  for (const auto& f : page.files) files.push_back(FileJson(f));
  return NoStore(JsonResponse(
      200,
      json::object{
          {"symbolFiles", std::move(files)}, {"total", page.total}, {"limit", limit}, {"offset", offset}}));
}

Response HandleGet(const SymbolsDeps& deps, Context& ctx) {
  const std::string project_id = util::ToLower(ctx.params.Get("projectId"));
  if (Status s = CheckReader(ctx, project_id); !s.ok()) return StatusResponse(s);
  SV_ASSIGN_OR_RESPOND(ports::SymbolFileRow f, app::symbols::GetFile(deps, ctx.principal.org_id, project_id,
                                                                     ctx.params.Get("fileId")));
  return NoStore(JsonResponse(200, json::object{{"symbolFile", FileJson(f)}}));
}

}  // namespace

void RegisterSymbolsRoutes(Pipeline& p, const SymbolsRouteDeps& d) {
  Router& r = p.router();
  const SymbolsDeps& deps = *d.symbols;
  const std::string publish = "/v1/agent-work/symbols/projects/:projectId/builds/:buildId/files";
  r.Add("POST", publish, RateClass::kGeneral, AuthMode::kAgentToken, Bind(deps, HandlePublish));
  r.SetBodyPolicy("POST", publish, BodyPolicy{app::symbols::kMaxSymbolFileBytes, true, d.spool_dir});
  r.Add("GET", publish, RateClass::kGeneral, AuthMode::kJwtOrgOrAgent, Bind(deps, HandleList));
  r.Add("GET", "/v1/agent-work/symbols/projects/:projectId/files/:fileId", RateClass::kGeneral,
        AuthMode::kJwtOrgOrAgent, Bind(deps, HandleGet));
}

}  // namespace service::api
