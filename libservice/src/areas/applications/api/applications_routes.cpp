// The application registry (Spec 2 "Applications"; contract "Capture
// identity"). Every route: JWT+Org, manage_applications (admins and
// managers; others 403); agent tokens and capture keys are refused by the
// authenticator (401). Path ids that are not UUIDs read as 404.
//
//   POST   /v1/applications/projects/:projectId                   {requestId, name, identifier}
//                                                                  201 {application} / 200 same row
//   GET    /v1/applications/projects/:projectId                   ?cursor=&limit= {items, nextCursor}
//   POST   /v1/applications/projects/:projectId/:applicationId/installations   {requestId, label?}
//   GET    /v1/applications/projects/:projectId/:applicationId/installations
//   POST   /v1/applications/projects/:projectId/:applicationId/builds
//                                                                  {requestId, sourceRevision,
//                                                                  artifactSha256}
//   GET    /v1/applications/projects/:projectId/:applicationId/builds
//   GET    /v1/applications/projects/:projectId/:applicationId/installations/:installationId/capture-status
//          path only (a query string or a body: 400), Cache-Control: no-store,
//          {state, checkedAt, firstCapture}
//   DELETE /v1/applications/projects/:projectId/:applicationId    (ours) 200 {success}
//   DELETE /v1/applications/projects/:projectId/:applicationId/installations/:installationId   (ours)
#include <boost/json.hpp>

#include "api/json.h"
#include "areas/applications/api/routes.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace da = domain::applications;
using app::applications::ApplicationsDeps;

app::ConsoleActor ActorOf(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

// The path parameter as a lower-case UUID, or "" (reads as 404).
std::string PathId(const Context& ctx, std::string_view name) {
  std::string id = util::ToLower(ctx.params.Get(name));
  return util::IsUuid(id) ? id : std::string();
}

json::value Time(int64_t ms) { return json::value(util::FormatIso8601(ms)); }

json::value TextOrNull(const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

json::object ApplicationJson(const ports::ApplicationRow& a) {
  return json::object{{"id", a.id},     {"projectId", a.project_id},  {"requestId", a.request_id},
                      {"name", a.name}, {"identifier", a.identifier}, {"createdAt", Time(a.created_at)}};
}

json::object InstallationJson(const ports::InstallationRow& i) {
  return json::object{{"id", i.id},
                      {"projectId", i.project_id},
                      {"applicationId", i.application_id},
                      {"requestId", i.request_id},
                      {"label", i.has_label ? json::value(i.label) : json::value(nullptr)},
                      {"captureState", i.capture_received ? da::kCaptureReceived : da::kWaiting},
                      {"createdAt", Time(i.created_at)}};
}

json::object BuildJson(const ports::BuildRow& b) {
  return json::object{{"id", b.id},
                      {"projectId", b.project_id},
                      {"applicationId", b.application_id},
                      {"requestId", b.request_id},
                      {"sourceRevision", b.source_revision},
                      {"artifactSha256", b.artifact_sha256},
                      {"createdAt", Time(b.created_at)}};
}

// The body as JSON: malformed text is the same 400 VALIDATION_ERROR.
Result<const json::value*> BodyOf(Context& ctx) {
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) {
    return Status(Code::kInvalidArgument, body.status().message(), std::string(da::kValidationError));
  }
  return body;
}

// ?cursor= and ?limit= (1-50, default 50); anything else 400.
Status ListParams(const Context& ctx, std::optional<std::string>* cursor, int64_t* limit) {
  for (const auto& [key, value] : ctx.query.items()) {
    if (key != "cursor" && key != "limit") {
      return Status(Code::kInvalidArgument, "Unknown query parameter: " + key,
                    std::string(da::kValidationError));
    }
  }
  SV_ASSIGN_OR_RETURN(*cursor, ctx.query.One("cursor"));
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, ctx.query.One("limit"));
  *limit = da::kMaxPageSize;
  if (raw) {
    const std::optional<int64_t> n = util::ParseInt(*raw);
    if (!n || *n < 1 || *n > da::kMaxPageSize) {
      return Status(Code::kInvalidArgument, "limit must be a whole number from 1 to 50",
                    std::string(da::kValidationError));
    }
    *limit = *n;
  }
  return Status::Ok();
}

template <typename Row, typename ToJson>
Response PageResponse(const Result<app::applications::Page<Row>>& page, ToJson to_json) {
  if (!page.ok()) return StatusResponse(page.status());
  json::array items;
  for (const Row& row : page->items) items.push_back(to_json(row));
  return JsonResponse(200, json::object{{"items", std::move(items)},
                                        {"nextCursor", page->next_cursor ? json::value(*page->next_cursor)
                                                                         : json::value(nullptr)}});
}

template <typename Row, typename ToJson>
Response CreatedResponse(const Result<app::applications::Created<Row>>& r, const char* key, ToJson to_json) {
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(r->created ? 201 : 200, json::object{{key, to_json(r->row)}});
}

Response HandleCreateApplication(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  SV_ASSIGN_OR_RESPOND(const json::value* body, BodyOf(ctx));
  SV_ASSIGN_OR_RESPOND(da::ApplicationRequest req, da::ParseApplicationRequest(*body));
  return CreatedResponse(app::applications::CreateApplication(deps, ActorOf(ctx), project, req),
                         "application", ApplicationJson);
}

Response HandleCreateInstallation(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  const std::string application = PathId(ctx, "applicationId");
  if (application.empty()) return ErrorResponse(404, "Application not found");
  SV_ASSIGN_OR_RESPOND(const json::value* body, BodyOf(ctx));
  SV_ASSIGN_OR_RESPOND(da::InstallationRequest req, da::ParseInstallationRequest(*body));
  return CreatedResponse(app::applications::CreateInstallation(deps, ActorOf(ctx), project, application, req),
                         "installation", InstallationJson);
}

Response HandleCreateBuild(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  const std::string application = PathId(ctx, "applicationId");
  if (application.empty()) return ErrorResponse(404, "Application not found");
  SV_ASSIGN_OR_RESPOND(const json::value* body, BodyOf(ctx));
  SV_ASSIGN_OR_RESPOND(da::BuildRequest req, da::ParseBuildRequest(*body));
  return CreatedResponse(app::applications::CreateBuild(deps, ActorOf(ctx), project, application, req),
                         "build", BuildJson);
}

Response HandleListApplications(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  std::optional<std::string> cursor;
  int64_t limit = 0;
  if (Status st = ListParams(ctx, &cursor, &limit); !st.ok()) return StatusResponse(st);
  return PageResponse(app::applications::ListApplications(deps, ActorOf(ctx), project, cursor, limit),
                      ApplicationJson);
}

Response HandleListInstallations(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  const std::string application = PathId(ctx, "applicationId");
  if (application.empty()) return ErrorResponse(404, "Application not found");
  std::optional<std::string> cursor;
  int64_t limit = 0;
  if (Status st = ListParams(ctx, &cursor, &limit); !st.ok()) return StatusResponse(st);
  return PageResponse(
      app::applications::ListInstallations(deps, ActorOf(ctx), project, application, cursor, limit),
      InstallationJson);
}

Response HandleListBuilds(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  const std::string application = PathId(ctx, "applicationId");
  if (application.empty()) return ErrorResponse(404, "Application not found");
  std::optional<std::string> cursor;
  int64_t limit = 0;
  if (Status st = ListParams(ctx, &cursor, &limit); !st.ok()) return StatusResponse(st);
  return PageResponse(app::applications::ListBuilds(deps, ActorOf(ctx), project, application, cursor, limit),
                      BuildJson);
}

json::object FirstCaptureJson(const ports::ReceiptView& v) {
  const ports::ReceiptRow& r = v.receipt;
  const bool available = v.live_bug_id.has_value();
  return json::object{{"captureId", r.capture_id},
                      {"occurrenceId", r.occurrence_id},
                      {"bugId", available ? json::value(*v.live_bug_id) : json::value(nullptr)},
                      {"acceptedAt", Time(r.accepted_at)},
                      {"sdkName", r.sdk_name},
                      {"sdkVersion", r.sdk_version},
                      {"captureSource", r.capture_source},
                      {"platform", r.platform},
                      {"osFamily", TextOrNull(r.os_family)},
                      {"framework", TextOrNull(r.framework)},
                      {"runtime", TextOrNull(r.runtime)},
                      {"evidenceAvailability", available ? da::kEvidenceAvailable : da::kEvidenceGone}};
}

Response NoStore(Response res) {
  res.headers.Set("Cache-Control", "no-store");
  return res;
}

Response HandleCaptureStatus(const ApplicationsDeps& deps, Context& ctx) {
  // Path only: no query string, no body.
  if (!ctx.req.query.empty()) {
    return NoStore(ErrorResponse(400, "capture-status takes no query parameters",
                                 json::object{{"code", da::kQueryNotAllowed}}));
  }
  if (!ctx.req.body.empty()) {
    return NoStore(ErrorResponse(400, "capture-status takes no request body",
                                 json::object{{"code", da::kBodyNotAllowed}}));
  }
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return NoStore(ErrorResponse(404, "Project not found"));
  const std::string application = PathId(ctx, "applicationId");
  if (application.empty()) return NoStore(ErrorResponse(404, "Application not found"));
  const std::string installation = PathId(ctx, "installationId");
  if (installation.empty()) return NoStore(ErrorResponse(404, "Installation not found"));
  Result<app::applications::CaptureStatus> s =
      app::applications::GetCaptureStatus(deps, ActorOf(ctx), project, application, installation);
  if (!s.ok()) return NoStore(StatusResponse(s.status()));
  return NoStore(
      JsonResponse(200, json::object{{"state", s->state},
                                     {"checkedAt", Time(s->checked_at)},
                                     {"firstCapture", s->receipt ? json::value(FirstCaptureJson(*s->receipt))
                                                                 : json::value(nullptr)}}));
}

Response HandleDeleteApplication(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  const std::string application = PathId(ctx, "applicationId");
  if (application.empty()) return ErrorResponse(404, "Application not found");
  Status st = app::applications::DeleteApplication(deps, ActorOf(ctx), project, application);
  if (!st.ok()) return StatusResponse(st);
  return JsonResponse(200, json::object{{"success", true}});
}

Response HandleDeleteInstallation(const ApplicationsDeps& deps, Context& ctx) {
  const std::string project = PathId(ctx, "projectId");
  if (project.empty()) return ErrorResponse(404, "Project not found");
  const std::string application = PathId(ctx, "applicationId");
  if (application.empty()) return ErrorResponse(404, "Application not found");
  const std::string installation = PathId(ctx, "installationId");
  if (installation.empty()) return ErrorResponse(404, "Installation not found");
  Status st = app::applications::DeleteInstallation(deps, ActorOf(ctx), project, application, installation);
  if (!st.ok()) return StatusResponse(st);
  return JsonResponse(200, json::object{{"success", true}});
}

}  // namespace

void RegisterApplicationsRoutes(Pipeline& p, const ApplicationsDeps& deps) {
  Router& r = p.router();
  using domain::Capability;
  const std::string base = "/v1/applications/projects/:projectId";
  const std::string app = base + "/:applicationId";
  auto add = [&](const char* method, const std::string& pattern,
                 Response (*fn)(const ApplicationsDeps&, Context&)) {
    r.Add(method, pattern, RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageApplications,
          Bind(deps, fn));
  };
  add("POST", base, HandleCreateApplication);
  add("GET", base, HandleListApplications);
  add("DELETE", app, HandleDeleteApplication);
  add("POST", app + "/installations", HandleCreateInstallation);
  add("GET", app + "/installations", HandleListInstallations);
  add("DELETE", app + "/installations/:installationId", HandleDeleteInstallation);
  add("GET", app + "/installations/:installationId/capture-status", HandleCaptureStatus);
  add("POST", app + "/builds", HandleCreateBuild);
  add("GET", app + "/builds", HandleListBuilds);
}

}  // namespace service::api
