// Evidence (Spec 2 "Evidence", server contract "Evidence"):
//   GET    /v1/evidence/capabilities                          human JWT, agent token or capture key
//   POST   /v1/evidence/projects/:projectId/artifacts          201 {artifact} (reserved)
//   PUT    /v1/evidence/projects/:projectId/artifacts/:artifactId/content   200 {artifact} (ready)
//   GET    /v1/evidence/projects/:projectId/artifacts/:artifactId           200 {artifact} (ready only)
//   GET    /v1/evidence/projects/:projectId/artifacts/:artifactId/content   the bytes, as an attachment
//   DELETE /v1/evidence/projects/:projectId/artifacts/:artifactId           200 {artifact} (deleted)
//   GET    /v1/evidence/projects/:projectId/occurrences/:occurrenceId/artifacts?limit=&offset=
//                                                              200 {artifacts, total, limit, offset}
// Every route takes a bearer (a console token with X-Service-Org, or an
// agent token) or a capture key (X-Service-Key), so the routes are
// registered without an AuthMode and authenticate here: a bearer through
// the accounts area's authenticator (as AuthMode::kJwtOrgOrAgent; the
// capabilities also take a console token without X-Service-Org), a capture
// key through capture's key check. Who may then do what: app/evidence.h.
// Every answer is `Cache-Control: private, no-store`.
#include <boost/json.hpp>
#include <stdexcept>

#include "api/context.h"
#include "api/json.h"
#include "areas/accounts/api/routes.h"
#include "areas/evidence/api/routes.h"
#include "util/strings.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace de = domain::evidence;
using app::evidence::EvidenceCaller;

constexpr std::string_view kNoStore = "private, no-store";

Response NoStore(Response r) {
  r.headers.Set("Cache-Control", std::string(kNoStore));
  return r;
}
Response Fail(const Status& s) { return NoStore(StatusResponse(s)); }

// The caller of this request, or the refusal (401 without credentials).
Result<EvidenceCaller> Authenticate(const EvidenceRouteDeps& d, Context& ctx, bool capabilities) {
  const std::string token = BearerToken(ctx.req);
  EvidenceCaller caller;
  if (token.empty()) {
    const std::string* key = ctx.req.headers.Find("X-Service-Key");
    if (key == nullptr || key->empty() || d.capture == nullptr) {
      return Unauthenticated("Missing or invalid token");
    }
    SV_ASSIGN_OR_RETURN(app::capture::VerifiedKey verified, d.capture->VerifyKey(*key));
    d.capture->NoteKeyUse(verified.key_id, d.evidence->Now());
    ctx.principal.kind = Principal::Kind::kCaptureKey;
    ctx.principal.org_id = verified.org_id;
    ctx.principal.project_id = verified.project_id;
    ctx.principal.key_id = verified.key_id;
    caller.kind = EvidenceCaller::Kind::kCaptureKey;
    caller.org_id = verified.org_id;
    caller.project_id = verified.project_id;
    return caller;
  }
  // The capabilities need no organization: a console token without
  // X-Service-Org is enough there.
  const bool org_less =
      capabilities && !util::StartsWith(token, "sv_pat_") && !ctx.req.headers.Has("X-Service-Org");
  SV_RETURN_IF_ERROR(
      AuthenticateBearer(*d.accounts, ctx, org_less ? AuthMode::kJwt : AuthMode::kJwtOrgOrAgent));
  const Principal& p = ctx.principal;
  caller.kind =
      p.kind == Principal::Kind::kAgent ? EvidenceCaller::Kind::kAgent : EvidenceCaller::Kind::kUser;
  caller.org_id = p.org_id;
  caller.user_id = p.user_id;
  caller.role = p.role;
  caller.token_id = p.kind == Principal::Kind::kAgent ? p.key_id : std::string();
  caller.scopes = p.scopes;
  caller.granted_projects = p.granted_projects;
  return caller;
}

std::string Param(const Context& ctx, std::string_view name) { return util::ToLower(ctx.params.Get(name)); }

Response ArtifactResponse(int status, const de::ArtifactView& a) {
  return NoStore(JsonResponse(status, json::object{{"artifact", de::ArtifactJson(a)}}));
}

Response HandleCapabilities(const EvidenceRouteDeps& d, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const EvidenceCaller caller, Authenticate(d, ctx, true));
  const app::evidence::Capabilities c = app::evidence::GetCapabilities(*d.evidence, caller);
  json::array formats;
  if (c.configured) {
    for (const de::Format& f : de::kFormats) {
      formats.push_back(
          json::object{{"kind", f.kind}, {"contentType", f.content_type}, {"maxBytes", f.max_bytes}});
    }
  }
  json::object body{{"schemaVersion", de::kSchemaVersion},
                    {"configured", c.configured},
                    {"formats", std::move(formats)},
                    {"reason", c.configured ? json::value(nullptr) : json::value(de::kStorageUnavailable)}};
  if (c.project_id) body["projectId"] = *c.project_id;
  return NoStore(JsonResponse(200, body));
}

Response HandleReserve(const EvidenceRouteDeps& d, Context& ctx) {
  Result<EvidenceCaller> caller = Authenticate(d, ctx, false);
  if (!caller.ok()) return Fail(caller.status());
  // The caller's right first: a refused caller learns nothing from the body
  // (403 and 503 before 400).
  const std::string project_id = Param(ctx, "projectId");
  if (Status s = app::evidence::Authorize(*d.evidence, *caller, project_id, app::evidence::Access::kWrite);
      !s.ok()) {
    return Fail(s);
  }
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) {
    return Fail(de::ValidationError(
        json::array{json::object{{"field", "body"}, {"message", body.status().message()}}}));
  }
  Result<de::ReserveInput> in = de::ParseReserveInput(**body);
  if (!in.ok()) return Fail(in.status());
  Result<de::ArtifactView> a = app::evidence::Reserve(*d.evidence, *caller, project_id, *in);
  if (!a.ok()) return Fail(a.status());
  return ArtifactResponse(201, *a);
}

// A request body as a ByteSource: the spooled source, else the in-memory body.
class RequestBodySource final : public ports::ByteSource {
 public:
  explicit RequestBodySource(const Request& req) : req_(req), memory_(req.body) {}
  int64_t Read(char* buf, size_t n) override {
    return req_.body_source ? req_.body_source->Read(buf, n) : memory_.Read(buf, n);
  }
  uint64_t size() const { return req_.body_source ? req_.body_source->size() : req_.body.size(); }

 private:
  const Request& req_;
  ports::StringByteSource memory_;
};

Response HandleUpload(const EvidenceRouteDeps& d, Context& ctx) {
  Result<EvidenceCaller> caller = Authenticate(d, ctx, false);
  if (!caller.ok()) return Fail(caller.status());
  RequestBodySource body(ctx.req);
  Result<de::ArtifactView> a = app::evidence::Upload(*d.evidence, *caller, Param(ctx, "projectId"),
                                                     Param(ctx, "artifactId"), body, body.size());
  if (!a.ok()) return Fail(a.status());
  return ArtifactResponse(200, *a);
}

Response HandleGet(const EvidenceRouteDeps& d, Context& ctx) {
  Result<EvidenceCaller> caller = Authenticate(d, ctx, false);
  if (!caller.ok()) return Fail(caller.status());
  Result<de::ArtifactView> a =
      app::evidence::GetArtifact(*d.evidence, *caller, Param(ctx, "projectId"), Param(ctx, "artifactId"));
  if (!a.ok()) return Fail(a.status());
  return ArtifactResponse(200, *a);
}

Response HandleDelete(const EvidenceRouteDeps& d, Context& ctx) {
  Result<EvidenceCaller> caller = Authenticate(d, ctx, false);
  if (!caller.ok()) return Fail(caller.status());
  Result<de::ArtifactView> a =
      app::evidence::Delete(*d.evidence, *caller, Param(ctx, "projectId"), Param(ctx, "artifactId"));
  if (!a.ok()) return Fail(a.status());
  return ArtifactResponse(200, *a);
}

Response HandleList(const EvidenceRouteDeps& d, Context& ctx) {
  Result<EvidenceCaller> caller = Authenticate(d, ctx, false);
  if (!caller.ok()) return Fail(caller.status());
  const std::string project_id = Param(ctx, "projectId");
  if (Status s = app::evidence::Authorize(*d.evidence, *caller, project_id, app::evidence::Access::kRead);
      !s.ok()) {
    return Fail(s);
  }
  std::optional<std::string> limit, offset;
  json::array details;
  for (auto [name, out] : {std::pair<const char*, std::optional<std::string>*>{"limit", &limit},
                           std::pair<const char*, std::optional<std::string>*>{"offset", &offset}}) {
    Result<std::optional<std::string>> one = ctx.query.One(name);
    if (!one.ok()) {
      details.push_back(json::object{{"field", name}, {"message", "must be given at most once"}});
    } else {
      *out = *one;
    }
  }
  if (!details.empty()) return Fail(de::ValidationError(std::move(details)));
  Result<de::ListBounds> bounds = de::ParseListBounds(limit, offset);
  if (!bounds.ok()) return Fail(bounds.status());
  Result<app::evidence::ArtifactList> list =
      app::evidence::ListForOccurrence(*d.evidence, *caller, project_id, Param(ctx, "occurrenceId"), *bounds);
  if (!list.ok()) return Fail(list.status());
  json::array artifacts;
  for (const auto& a : list->artifacts) artifacts.push_back(de::ArtifactJson(a));
  return NoStore(JsonResponse(200, json::object{{"artifacts", std::move(artifacts)},
                                                {"total", list->total},
                                                {"limit", list->limit},
                                                {"offset", list->offset}}));
}

// An artifact's bytes, one chunk per Next (never the whole blob in memory).
class BlobStream final : public ResponseStream {
 public:
  explicit BlobStream(std::unique_ptr<ports::BlobReader> reader) : reader_(std::move(reader)) {}
  State Next(std::string* chunk) override {
    if (!reader_) return State::kEnd;
    chunk->resize(kChunkBytes);
    const int64_t n = reader_->Read(chunk->data(), chunk->size());
    if (n < 0) {
      reader_.reset();
      // The transport ends the connection without the last chunk, so the
      // client sees a cut-off download rather than a short file.
      throw std::runtime_error("evidence download: the blob could not be read");
    }
    if (n == 0) {
      chunk->clear();
      reader_.reset();
      return State::kEnd;
    }
    chunk->resize(static_cast<size_t>(n));
    return State::kData;
  }
  void Close() override { reader_.reset(); }

 private:
  static constexpr size_t kChunkBytes = 64 * 1024;
  std::unique_ptr<ports::BlobReader> reader_;
};

Response HandleDownload(const EvidenceRouteDeps& d, Context& ctx) {
  Result<EvidenceCaller> caller = Authenticate(d, ctx, false);
  if (!caller.ok()) return Fail(caller.status());
  Result<app::evidence::Download> dl =
      app::evidence::OpenContent(*d.evidence, *caller, Param(ctx, "projectId"), Param(ctx, "artifactId"));
  if (!dl.ok()) return Fail(dl.status());
  Response r;
  r.status = 200;
  r.headers.Set("Content-Type", dl->artifact.content_type);
  r.headers.Set("Content-Disposition", "attachment; filename=\"" + de::FileName(dl->artifact) + "\"");
  r.headers.Set("X-Content-Type-Options", "nosniff");
  r.headers.Set("Content-Security-Policy", "default-src 'none'; sandbox");
  r.headers.Set("X-Evidence-Sha256", dl->artifact.sha256);
  r.headers.Set("X-Evidence-Byte-Count", std::to_string(dl->artifact.byte_count));
  r.stream = std::make_shared<BlobStream>(std::move(dl->reader));
  return NoStore(std::move(r));
}

}  // namespace

void RegisterEvidenceRoutes(Pipeline& p, const EvidenceRouteDeps& deps) {
  Router& r = p.router();
  const std::string artifacts = "/v1/evidence/projects/:projectId/artifacts";
  const std::string content = artifacts + "/:artifactId/content";
  r.Add("GET", "/v1/evidence/capabilities", RateClass::kGeneral, AuthMode::kNone,
        Bind(deps, HandleCapabilities));
  r.Add("POST", artifacts, RateClass::kGeneral, AuthMode::kNone, Bind(deps, HandleReserve));
  r.Add("PUT", content, RateClass::kGeneral, AuthMode::kNone, Bind(deps, HandleUpload));
  r.Add("GET", content, RateClass::kGeneral, AuthMode::kNone, Bind(deps, HandleDownload));
  r.Add("GET", artifacts + "/:artifactId", RateClass::kGeneral, AuthMode::kNone, Bind(deps, HandleGet));
  r.Add("DELETE", artifacts + "/:artifactId", RateClass::kGeneral, AuthMode::kNone, Bind(deps, HandleDelete));
  r.Add("GET", "/v1/evidence/projects/:projectId/occurrences/:occurrenceId/artifacts", RateClass::kGeneral,
        AuthMode::kNone, Bind(deps, HandleList));
  // Uploads up to the largest format, spooled to the evidence folder (the
  // blob store's filesystem) by the server's transports, never whole in
  // memory.
  BodyPolicy upload;
  upload.max_bytes = de::kMaxUploadBytes;
  upload.spooled = !deps.spool_dir.empty();
  upload.spool_dir = deps.spool_dir;
  r.SetBodyPolicy("PUT", content, upload);
}

}  // namespace service::api
