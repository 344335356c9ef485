// Projects and capture keys (Spec 1 "Projects and capture keys", JWT+Org)
// and the console's setup check:
//
//   GET    /v1/projects                      200 {projects}
//   POST   /v1/projects                      201 {id, name, slug, org_id, platform, created_at}
//   POST   /v1/projects/:id/keys             201 {id, key, prefix, env, label, expiresAt, last_used, ...}
//   GET    /v1/projects/:id/keys             200 {keys[{id, prefix, env, label, last_used, expiresAt,
//   created_at}]}
//   DELETE /v1/projects/:id/keys/:keyId      200 {success: true}
//
// POST /v1/projects/:id/test-event is the capture area's (a report through
// its pipeline).
#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "api/validate.h"
#include "areas/projects/api/routes.h"
#include "areas/projects/app/projects.h"
#include "util/time.h"

namespace service::api {
namespace {

const std::vector<std::string_view> kPlatforms = {"web",     "ios",    "android", "react-native",
                                                  "flutter", "server", "other"};
const std::vector<std::string_view> kKeyEnvs = {"live", "test"};

app::ConsoleActor ActorOf(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

json::value OptTime(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}

json::object ProjectJson(const ports::Project& p, bool with_counts) {
  json::object o{{"id", p.id},
                 {"org_id", p.org_id},
                 {"name", p.name},
                 {"slug", p.slug},
                 {"platform", p.platform},
                 {"created_at", util::FormatIso8601(p.created_at)},
                 {"project_number", p.project_number}};
  if (with_counts) {
    o["bug_count"] = p.bug_count;
    o["new_bug_count"] = p.new_bug_count;
  }
  return o;
}

json::object KeyJson(const ports::CaptureKey& k) {
  return json::object{{"id", k.id},
                      {"prefix", k.prefix},
                      {"env", k.env},
                      {"label", k.label},
                      {"last_used", OptTime(k.last_used)},
                      {"expiresAt", OptTime(k.expires_at)},
                      {"created_at", util::FormatIso8601(k.created_at)}};
}

Response HandleList(const app::projects::ProjectsDeps& deps, Context& ctx) {
  auto r = app::projects::ListProjects(deps, ActorOf(ctx));
  if (!r.ok()) return StatusResponse(r.status());
  json::array projects;
  for (const auto& p : *r) projects.push_back(ProjectJson(p, true));
  return JsonResponse(200, json::object{{"projects", std::move(projects)}});
}

Response HandleCreate(const app::projects::ProjectsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::projects::NewProject in;
  {
    StringRule r;
    r.required = true;
    r.min = 1;
    r.max = 100;
    in.name = TextField(v, "name", r).value_or("");
  }
  {
    StringRule r;
    r.required = true;
    r.min = 1;
    r.max = 100;
    in.org_id = TextField(v, "orgId", r).value_or("");
  }
  {
    StringRule r;
    r.one_of = &kPlatforms;
    in.platform = v.String("platform", r).value_or("web");
  }
  if (!v.ok()) return ErrorResponse(400, "name and orgId required", json::object{{"details", v.details()}});
  auto r = app::projects::CreateProject(deps, ActorOf(ctx), in);
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(201, ProjectJson(*r, false));
}

Response HandleCreateKey(const app::projects::ProjectsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::projects::NewKey in;
  {
    StringRule r;
    r.one_of = &kKeyEnvs;
    in.env = v.String("env", r).value_or("live");
  }
  {
    StringRule r;
    r.max = 100;
    in.label = TextField(v, "label", r).value_or("");
  }
  {
    StringRule r;
    r.max = 40;
    if (std::optional<std::string> at = TextField(v, "expiresAt", r)) {
      std::optional<int64_t> ms = util::ParseIso8601(*at);
      if (!ms) {
        v.AddError("expiresAt", "must be an ISO 8601 timestamp or null");
      } else {
        in.expires_at = ms;
      }
    }
  }
  if (!v.ok()) return ValidationFailed(v.details());
  auto r = app::projects::CreateKey(deps, ActorOf(ctx), ctx.params.Get("id"), in);
  if (!r.ok()) {
    if (r.status().code() == Code::kInvalidArgument) {
      return ValidationFailed(
          json::array{json::object{{"field", "expiresAt"}, {"message", r.status().message()}}});
    }
    return StatusResponse(r.status());
  }
  json::object o = KeyJson(r->record);
  o["key"] = r->full_key;
  o["dsn"] = r->dsn;
  o["projectId"] = r->record.project_id;
  return JsonResponse(201, o);
}

Response HandleListKeys(const app::projects::ProjectsDeps& deps, Context& ctx) {
  auto r = app::projects::ListKeys(deps, ActorOf(ctx), ctx.params.Get("id"));
  if (!r.ok()) return StatusResponse(r.status());
  json::array keys;
  for (const auto& k : *r) keys.push_back(KeyJson(k));
  return JsonResponse(200, json::object{{"keys", std::move(keys)}});
}

Response HandleRevokeKey(const app::projects::ProjectsDeps& deps, Context& ctx) {
  Status st = app::projects::RevokeKey(deps, ActorOf(ctx), ctx.params.Get("id"), ctx.params.Get("keyId"));
  if (!st.ok()) return StatusResponse(st);
  return JsonResponse(200, json::object{{"success", true}});
}

}  // namespace

void RegisterProjectRoutes(Pipeline& p, const app::projects::ProjectsDeps& deps) {
  using domain::Capability;
  Router& r = p.router();
  // The bearer authenticator checks the capability; the use cases check it
  // again for embedders that call them directly.
  r.Add("GET", "/v1/projects", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kViewProjects,
        Bind(deps, HandleList));
  r.Add("POST", "/v1/projects", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kCreateProjects,
        Bind(deps, HandleCreate));
  r.Add("POST", "/v1/projects/:id/keys", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageKeys,
        Bind(deps, HandleCreateKey));
  r.Add("GET", "/v1/projects/:id/keys", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kViewProjects,
        Bind(deps, HandleListKeys));
  r.Add("DELETE", "/v1/projects/:id/keys/:keyId", RateClass::kGeneral, AuthMode::kJwtOrg,
        Capability::kManageKeys, Bind(deps, HandleRevokeKey));
}

}  // namespace service::api
