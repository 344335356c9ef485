// Capture routes (Spec 1 "Ingestion", "POST /v1/bugs/manual") and the
// capture-key authenticator.
//
//   POST /v1/ingest            (Key, ingest rate class)   201 ingest envelope
//   POST /v1/ingest/presence   (Key, ingest rate class)   202 {ok: true}
//   POST /v1/bugs              alias of /v1/ingest
//   POST /v1/bugs/presence     alias of /v1/ingest/presence
//   POST /v1/bugs/manual       (JWT+Org, general)         201 {id, occurrenceId, deduplicated}
//
// Nothing else is registered under /v1/ingest/, so every other path there
// answers 404. A capture key authenticates only the routes registered with
// AuthMode::kCaptureKey: it can read or manage nothing.
#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "api/validate.h"
#include "areas/capture/api/capture_validation.h"
#include "areas/capture/api/routes.h"
#include "areas/capture/app/console_reports.h"
#include "areas/capture/app/ingest.h"
#include "areas/capture/app/presence.h"
#include "areas/capture/app/runtime.h"
#include "util/json_writer.h"

namespace service::api {
namespace {

const std::vector<std::string_view> kSeverities = {"critical", "high", "medium", "low"};

const std::vector<std::string_view> kTestEventPlatforms = {"web",          "ios",     "android",
                                                           "react-native", "flutter", "server"};

app::ConsoleActor ActorOf(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

// The key of an authenticated ingest request (a cache hit: the authenticator
// just verified it).
Result<app::capture::ReportSource> KeySource(const app::capture::CaptureDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RETURN(app::capture::VerifiedKey key,
                      deps.capture->VerifyKey(ctx.req.headers.Get("X-Service-Key")));
  app::capture::ReportSource src;
  src.org_id = std::move(key.org_id);
  src.project_id = std::move(key.project_id);
  src.project_name = std::move(key.project_name);
  src.key_env = std::move(key.env);
  src.plan = std::move(key.plan);
  src.grouping_v3_shadow = key.grouping_v3_shadow;
  src.client_ip = ctx.client_ip;
  if (const std::string* ua = ctx.req.headers.Find("User-Agent")) src.user_agent_header = *ua;
  return src;
}

constexpr size_t kIngestArenaBytes = 32 * 1024;

Response IngestEnvelope(const app::capture::IngestResult& r) {
  util::JsonWriter j(160);
  j.BeginObject();
  j.Key("id").String(r.bug_id);
  j.Key("occurrenceId").String(r.occurrence_id);
  j.Key("fingerprint").String(r.fingerprint);
  j.Key("deduplicated").Bool(r.deduplicated);
  j.Key("regression").Bool(r.regression);
  j.Key("is_regression").Bool(r.regression);
  j.EndObject();
  return JsonTextResponse(201, j.Take());
}

Response HandleIngest(const app::capture::CaptureDeps& deps, Context& ctx) {
  Result<app::capture::ReportSource> src = KeySource(deps, ctx);
  if (!src.ok()) return StatusResponse(src.status());
  // The parsed body and everything taken from it live in one arena freed
  // at once when the request ends (a report is a few hundred JSON values).
  json::monotonic_resource arena(kIngestArenaBytes);
  Result<app::capture::ReportInput> input = ParseIngestBody(ctx.req.body, deps.Now(), &arena);
  if (!input.ok()) return StatusResponse(input.status());
  Result<app::capture::IngestResult> r = app::capture::Ingest(deps, *src, std::move(input).value());
  if (!r.ok()) return StatusResponse(r.status());
  return IngestEnvelope(*r);
}

Response HandlePresence(const app::capture::CaptureDeps& deps, Context& ctx) {
  Result<app::capture::ReportSource> src = KeySource(deps, ctx);
  if (!src.ok()) return StatusResponse(src.status());
  Result<app::capture::PresenceInput> input = ParsePresenceBody(ctx.req.body);
  if (!input.ok()) return StatusResponse(input.status());
  Status st = app::capture::RecordPresence(deps, *src, std::move(input).value());
  if (!st.ok()) return StatusResponse(st);
  return JsonResponse(202, json::object{{"ok", true}});
}

Response HandleManual(const app::capture::CaptureDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::capture::ManualReport in;
  {
    StringRule r;
    r.required = true;
    r.uuid = true;
    in.project_id = v.String("projectId", r).value_or("");
  }
  {
    StringRule r;
    r.required = true;
    r.min = 3;
    r.max = 500;
    in.title = TextField(v, "title", r).value_or("");
  }
  {
    StringRule r;
    r.max = 10'000;
    in.description = TextField(v, "description", r).value_or("");
  }
  {
    StringRule r;
    r.one_of = &kSeverities;
    in.severity = v.String("severity", r).value_or("medium");
  }
  {
    StringRule r;
    r.max = 2000;
    in.url = TextField(v, "url", r).value_or("");
  }
  {
    StringRule r;
    r.max = 100;
    in.environment = TextField(v, "environment", r);
    if (in.environment && in.environment->empty()) in.environment.reset();
  }
  if (!v.ok()) return ValidationFailed(v.details());
  Result<app::capture::IngestResult> r =
      app::capture::SubmitManualReport(deps, ActorOf(ctx), in, ctx.client_ip);
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(
      201,
      json::object{{"id", r->bug_id}, {"occurrenceId", r->occurrence_id}, {"deduplicated", r->deduplicated}});
}

// GET /v1/bugs/presence: the organization's live snapshot (sessions and
// users active in the last 75 seconds, the 5 busiest paths).
Response HandleTestEvent(const app::capture::CaptureDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  std::string platform;
  {
    StringRule r;
    r.one_of = &kTestEventPlatforms;
    platform = v.String("platform", r).value_or("web");
  }
  if (!v.ok()) return ValidationFailed(v.details());
  auto r = app::capture::SubmitTestEvent(deps, ActorOf(ctx), ctx.params.Get("id"), platform, ctx.client_ip);
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(201, json::object{{"id", r->bug_id},
                                        {"occurrenceId", r->occurrence_id},
                                        {"fingerprint", r->fingerprint},
                                        {"deduplicated", r->deduplicated},
                                        {"regression", r->regression},
                                        {"is_regression", r->regression},
                                        {"platform", platform}});
}

Response HandlePresenceRead(const app::capture::CaptureDeps& deps, Context& ctx) {
  Result<ports::PresenceSnapshot> snap = app::capture::PresenceSnapshotOf(deps, ctx.principal.org_id);
  if (!snap.ok()) return StatusResponse(snap.status());
  json::array pages;
  for (const auto& page : snap->pages) {
    pages.push_back(json::object{{"path", page.path}, {"active_sessions", page.active_sessions}});
  }
  return JsonResponse(200, json::object{{"active_sessions", snap->active_sessions},
                                        {"active_users", snap->active_users},
                                        {"pages", std::move(pages)}});
}

Status AuthenticateCaptureKey(const app::capture::CaptureDeps& deps, Context& ctx, AuthMode) {
  const std::string* header = ctx.req.headers.Find("X-Service-Key");
  if (!header || header->empty()) return Unauthenticated("Missing or invalid API key");
  SV_ASSIGN_OR_RETURN(app::capture::VerifiedKey key, deps.capture->VerifyKey(*header));
  ctx.principal.kind = Principal::Kind::kCaptureKey;
  ctx.principal.org_id = key.org_id;
  ctx.principal.project_id = key.project_id;
  ctx.principal.key_id = key.key_id;
  ctx.principal.key_env = key.env;
  deps.capture->NoteKeyUse(key.key_id, deps.Now());
  return Status::Ok();
}

}  // namespace

void RegisterCaptureRoutes(Pipeline& p, const app::capture::CaptureDeps& deps) {
  p.SetCaptureKeyAuthenticator(
      [&deps](Context& ctx, AuthMode mode) { return AuthenticateCaptureKey(deps, ctx, mode); });
  Router& r = p.router();
  for (const char* path : {"/v1/ingest", "/v1/bugs"}) {
    r.Add("POST", path, RateClass::kIngest, AuthMode::kCaptureKey, Bind(deps, HandleIngest));
  }
  for (const char* path : {"/v1/ingest/presence", "/v1/bugs/presence"}) {
    r.Add("POST", path, RateClass::kIngest, AuthMode::kCaptureKey, Bind(deps, HandlePresence));
  }
  r.Add("POST", "/v1/bugs/manual", RateClass::kGeneral, AuthMode::kJwtOrg, domain::Capability::kUpdateBugs,
        Bind(deps, HandleManual));
  // The console's setup check: a report to the project through this area.
  r.Add("POST", "/v1/projects/:id/test-event", RateClass::kGeneral, AuthMode::kJwtOrg,
        domain::Capability::kManageKeys, Bind(deps, HandleTestEvent));
  r.Add("GET", "/v1/bugs/presence", RateClass::kGeneral, AuthMode::kJwtOrg, domain::Capability::kViewBugs,
        Bind(deps, HandlePresenceRead));
}

}  // namespace service::api
