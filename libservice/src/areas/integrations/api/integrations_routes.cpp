// Integrations and alerts (Spec 2, JWT+Org):
//   GET    /v1/integrations?projectId=                        {integrations}
//   POST   /v1/integrations                                   201 created (+ signingSecret once)
//   PATCH  /v1/integrations/:id                               updated row
//   DELETE /v1/integrations/:id                               {success}
//   POST   /v1/integrations/:id/test                          {success}; 502
//   POST   /v1/integrations/:id/rotate-secret                 {id, signingSecret, signing, bearer}
//   GET    /v1/integrations/:id/deliveries?limit=&offset=&status=
//   POST   /v1/integrations/:id/deliveries/:deliveryId/retry  {success}; 404, 409, 502
//   GET    /v1/alerts/policy?projectId=                       {policy}
//   PUT    /v1/alerts/policy                                  {policy}
//   POST   /v1/alerts/preview                                 the dry run
//   GET    /v1/alerts/overview                                the escalation overview
#include <boost/json.hpp>

#include "api/json.h"
#include "api/validate.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/capture/domain/vocabulary.h"
#include "areas/integrations/api/routes.h"
#include "areas/integrations/app/integrations.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace di = domain::integrations;
using app::integrations::IntegrationsDeps;

const std::vector<std::string_view> kConfigKeys = {"url",       "secret",  "token", "repo",
                                                   "bridgeUrl", "address", "preset"};
const std::vector<std::string_view> kDeliveryStatuses = {"pending", "deferred", "success", "failed",
                                                         "canceled"};
const std::vector<std::string_view> kPreviewEvents = {"new_bug", "regression", "recommended_bug",
                                                      "status_change"};

json::value TimeOrNull(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}

json::object SigningJson(const ports::IntegrationRow& row, int64_t now) {
  json::object s{{"present", !row.secret_sealed.empty()},
                 {"secret", row.secret_mask.empty() ? json::value(nullptr) : json::value(row.secret_mask)}};
  const bool overlap = !row.previous_secret_sealed.empty() && row.previous_secret_until > now;
  s["previousValidUntil"] =
      overlap ? json::value(util::FormatIso8601(row.previous_secret_until)) : json::value(nullptr);
  return s;
}

json::object BearerJson(const ports::IntegrationRow& row) {
  return json::object{{"present", !row.bearer_sealed.empty()}, {"last4", row.bearer_last4}};
}

json::object IntegrationJson(const ports::IntegrationRow& row, int64_t now) {
  boost::system::error_code ec;
  json::value config = json::parse(row.config_view, ec);
  json::array events;
  for (const std::string& e : row.events) events.push_back(json::value(e));
  json::object o{{"id", row.id},
                 {"project_id", row.project_id},
                 {"type", row.type},
                 {"name", OptText(row.name)},
                 {"config", ec ? json::value(json::object()) : config},
                 {"events", std::move(events)},
                 {"is_active", row.is_active},
                 {"created_at", util::FormatIso8601(row.created_at)},
                 {"updated_at", util::FormatIso8601(row.updated_at)}};
  if (di::IsSignedType(row.type)) {
    o["deliveryFeed"] = row.delivery_feed;
    o["minSeverity"] = OptText(row.min_severity);
    o["bearerToken"] = BearerJson(row);
  }
  if (di::IsSignedType(row.type) || row.type == "bridge") o["signing"] = SigningJson(row, now);
  return o;
}

int64_t Now(const IntegrationsDeps& deps) { return deps.Now(); }

// The path's id, or "" when it cannot be one (reads as 404).
std::string PathId(const Context& ctx, const char* name) {
  std::string id = util::ToLower(ctx.params.Get(name));
  return util::IsUuid(id) ? id : std::string();
}

// config: an object of string values under the known keys.
bool ReadConfig(Validator& v, di::Config* out, std::vector<std::string>* keys) {
  const json::object* c = v.Object("config");
  if (c == nullptr) return false;
  for (const auto& [key, value] : *c) {
    if (std::find(kConfigKeys.begin(), kConfigKeys.end(), std::string_view(key)) == kConfigKeys.end()) {
      v.AddError("config." + std::string(key), "unknown config key");
      continue;
    }
    if (!value.is_string() || value.get_string().size() > 4096) {
      v.AddError("config." + std::string(key), "must be a string of at most 4096 characters");
      continue;
    }
    const std::string s(value.get_string());
    keys->emplace_back(key);
    if (key == "url") out->url = s;
    if (key == "secret") out->secret = s;
    if (key == "token") out->token = s;
    if (key == "repo") out->repo = s;
    if (key == "bridgeUrl") out->bridge_url = s;
    if (key == "address") out->address = s;
    if (key == "preset") out->preset = s;
  }
  return true;
}

std::optional<std::vector<std::string>> ReadEvents(Validator& v) {
  const json::array* a = v.Array("events", false, app::integrations::kMaxEvents);
  if (a == nullptr) return std::nullopt;
  std::vector<std::string> out;
  for (const json::value& e : *a) {
    if (!e.is_string()) {
      v.AddError("events", "must be an array of event names");
      return std::nullopt;
    }
    out.emplace_back(e.get_string());
  }
  return out;
}

Response HandleList(const IntegrationsDeps& deps, Context& ctx) {
  auto project = Param(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  if (!*project || (*project)->empty()) return ErrorResponse(400, "projectId is required");
  const std::string id = util::ToLower(**project);
  if (!util::IsUuid(id)) return ErrorResponse(404, "Project not found");
  auto rows = app::integrations::ListIntegrations(deps, Actor(ctx), id);
  if (!rows.ok()) return StatusResponse(rows.status());
  json::array out;
  for (const auto& r : *rows) out.push_back(IntegrationJson(r, Now(deps)));
  return JsonResponse(200, json::object{{"integrations", std::move(out)}});
}

json::object CreatedJson(const app::integrations::CreatedIntegration& c, int64_t now) {
  json::object o = IntegrationJson(c.row, now);
  if (di::IsSignedType(c.row.type)) {
    o["signingSecret"] = c.signing_secret;
    o["bearer"] = BearerJson(c.row);
  }
  return o;
}

Response HandleCreate(const IntegrationsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::integrations::NewIntegration in;
  const auto project = v.String("projectId", StringRule{.required = true, .uuid = true});
  const auto type = v.String("type", StringRule{.required = true, .max = 32});
  in.name = v.String("name", StringRule{.max = app::integrations::kMaxNameLength});
  std::vector<std::string> keys;
  ReadConfig(v, &in.config, &keys);
  in.events = ReadEvents(v);
  in.delivery_feed = v.String("deliveryFeed", StringRule{.max = 32});
  in.min_severity = v.String("minSeverity", StringRule{.max = 32});
  in.bearer_token = v.String("bearerToken", StringRule{.max = app::integrations::kMaxBearerLength});
  if (!v.ok()) return ValidationFailed(v.details());
  in.project_id = util::ToLower(*project);
  in.type = *type;
  auto created = app::integrations::CreateIntegration(deps, Actor(ctx), in);
  if (!created.ok()) return StatusResponse(created.status());
  return JsonResponse(201, CreatedJson(*created, Now(deps)));
}

Response HandlePatch(const IntegrationsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx, "id");
  if (id.empty()) return ErrorResponse(404, "Integration not found");
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::integrations::IntegrationPatch patch;
  const json::object* o = v.body();
  if (o != nullptr && o->contains("name")) {
    patch.name = v.String("name", StringRule{.max = app::integrations::kMaxNameLength});
  }
  di::Config config;
  if (ReadConfig(v, &config, &patch.config_keys)) patch.config = config;
  patch.events = ReadEvents(v);
  patch.is_active = v.Bool("is_active");
  patch.delivery_feed = v.String("deliveryFeed", StringRule{.max = 32});
  if (o != nullptr && o->contains("minSeverity")) {
    patch.min_severity = v.String("minSeverity", StringRule{.max = 32});
  }
  patch.bearer_token = v.String("bearerToken", StringRule{.max = app::integrations::kMaxBearerLength});
  if (!v.ok()) return ValidationFailed(v.details());
  auto row = app::integrations::UpdateIntegration(deps, Actor(ctx), id, patch);
  if (!row.ok()) return StatusResponse(row.status());
  return JsonResponse(200, IntegrationJson(*row, Now(deps)));
}

Response HandleDelete(const IntegrationsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx, "id");
  if (id.empty()) return ErrorResponse(404, "Integration not found");
  Status s = app::integrations::DeleteIntegration(deps, Actor(ctx), id);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

Response HandleTest(const IntegrationsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx, "id");
  if (id.empty()) return ErrorResponse(404, "Integration not found");
  Status s = app::integrations::TestIntegration(deps, Actor(ctx), id);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

Response HandleRotate(const IntegrationsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx, "id");
  if (id.empty()) return ErrorResponse(404, "Integration not found");
  auto r = app::integrations::RotateSecret(deps, Actor(ctx), id);
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(200, json::object{{"id", r->row.id},
                                        {"signingSecret", r->signing_secret},
                                        {"signing", SigningJson(r->row, Now(deps))},
                                        {"bearer", BearerJson(r->row)}});
}

Response HandleDeliveries(const IntegrationsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx, "id");
  if (id.empty()) return ErrorResponse(404, "Integration not found");
  auto limit = IntParam(ctx, "limit", app::integrations::kDefaultDeliveryLimit, 1,
                        app::integrations::kMaxDeliveryLimit);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto offset = IntParam(ctx, "offset", 0, 0, 1'000'000'000);
  if (!offset.ok()) return StatusResponse(offset.status());
  auto status = EnumParam(ctx, "status", [](const std::string& s) {
    return std::find(kDeliveryStatuses.begin(), kDeliveryStatuses.end(), s) != kDeliveryStatuses.end();
  });
  if (!status.ok()) return StatusResponse(status.status());
  const app::ConsoleActor actor = Actor(ctx);
  auto integration = app::integrations::GetIntegration(deps, actor, id);
  if (!integration.ok()) return StatusResponse(integration.status());
  auto page = app::integrations::ListDeliveries(deps, actor, id, status->value_or(""), *limit, *offset);
  if (!page.ok()) return StatusResponse(page.status());
  json::array rows;
  for (const ports::DeliveryRow& d : page->rows) {
    rows.push_back(json::object{
        {"id", d.id},
        {"event_type", d.event_type},
        {"status", d.status},
        {"attempts", d.attempts},
        {"response_code", d.response_code ? json::value(*d.response_code) : json::value(nullptr)},
        {"error_message", OptText(d.error_message)},
        {"created_at", util::FormatIso8601(d.created_at)},
        {"completed_at", TimeOrNull(d.completed_at)},
        {"deferred_until", TimeOrNull(d.status == "deferred" ? d.deferred_until : std::nullopt)},
        {"can_retry", app::integrations::CanRetry(d, *integration)}});
  }
  return JsonResponse(
      200,
      json::object{
          {"deliveries", std::move(rows)}, {"total", page->total}, {"limit", *limit}, {"offset", *offset}});
}

Response HandleRetry(const IntegrationsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx, "id");
  const std::string delivery = PathId(ctx, "deliveryId");
  if (id.empty() || delivery.empty()) return ErrorResponse(404, "Retryable delivery not found");
  Status s = app::integrations::RetryDelivery(deps, Actor(ctx), id, delivery);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

// ---- alerts -----------------------------------------------------------------

Response HandleGetPolicy(const IntegrationsDeps& deps, Context& ctx) {
  auto project = Param(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  if (!*project || (*project)->empty()) return ErrorResponse(400, "projectId is required");
  const std::string id = util::ToLower(**project);
  if (!util::IsUuid(id)) return ErrorResponse(404, "Project not found");
  auto view = app::integrations::GetPolicy(deps, Actor(ctx), id);
  if (!view.ok()) return StatusResponse(view.status());
  return JsonResponse(
      200, json::object{{"policy", app::integrations::PolicyJson(id, view->policy, view->updated_at)}});
}

Response HandlePutPolicy(const IntegrationsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  const auto project = v.String("projectId", StringRule{.required = true, .uuid = true});
  std::vector<std::pair<std::string, std::string>> problems;
  std::optional<di::AlertPolicy> policy;
  if (v.body() != nullptr) {
    auto parsed = app::integrations::ParsePolicy(*v.body(), &problems);
    if (parsed.ok()) policy = *parsed;
  }
  for (const auto& [field, message] : problems) v.AddError(field, message);
  if (!v.ok()) return ValidationFailed(v.details());
  const std::string id = util::ToLower(*project);
  Status s = app::integrations::PutPolicy(deps, Actor(ctx), id, *policy);
  if (!s.ok()) return StatusResponse(s);
  auto view = app::integrations::GetPolicy(deps, Actor(ctx), id);
  if (!view.ok()) return StatusResponse(view.status());
  return JsonResponse(
      200, json::object{{"policy", app::integrations::PolicyJson(id, view->policy, view->updated_at)}});
}

Response HandlePreview(const IntegrationsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  if (const json::object* o = v.body()) {
    for (const auto& [key, unused] : *o) {
      if (key != "projectId" && key != "eventType" && key != "title" && key != "severity" && key != "url" &&
          key != "userEmail") {
        v.AddError(std::string(key), "unknown field");
      }
    }
  }
  static const std::vector<std::string_view> kSeverities = {"critical", "high", "medium", "low"};
  app::integrations::PreviewRequest req;
  const auto project = v.String("projectId", StringRule{.required = true, .uuid = true});
  const auto event = v.String("eventType", StringRule{.required = true, .one_of = &kPreviewEvents});
  const auto title = v.String("title", StringRule{.required = true, .min = 1, .max = 1000});
  const auto severity = v.String("severity", StringRule{.required = true, .one_of = &kSeverities});
  const auto url = v.String("url", StringRule{.max = 4096});
  const auto email = v.String("userEmail", StringRule{.max = 254, .email = true});
  if (!v.ok()) return ValidationFailed(v.details());
  req.project_id = util::ToLower(*project);
  req.event_type = *event;
  req.title = *title;
  req.severity = *severity;
  req.url = url.value_or("");
  req.user_email = email.value_or("");
  auto out = app::integrations::Preview(deps, Actor(ctx), req);
  if (!out.ok()) return StatusResponse(out.status());
  return JsonResponse(200, *out);
}

Response HandleOverview(const IntegrationsDeps& deps, Context& ctx) {
  auto out = app::integrations::Overview(deps, Actor(ctx));
  if (!out.ok()) return StatusResponse(out.status());
  return JsonResponse(200, *out);
}

}  // namespace

void RegisterIntegrationRoutes(Pipeline& p, const IntegrationsDeps& deps) {
  Router& r = p.router();
  using Fn = Response (*)(const IntegrationsDeps&, Context&);
  const auto add = [&](const char* method, const char* pattern, domain::Capability capability, Fn fn) {
    r.Add(method, pattern, RateClass::kGeneral, AuthMode::kJwtOrg, capability, Bind(deps, fn));
  };
  using domain::Capability;
  add("GET", "/v1/integrations", Capability::kViewProjects, HandleList);
  add("POST", "/v1/integrations", Capability::kManageIntegrations, HandleCreate);
  add("PATCH", "/v1/integrations/:id", Capability::kManageIntegrations, HandlePatch);
  add("DELETE", "/v1/integrations/:id", Capability::kManageIntegrations, HandleDelete);
  add("POST", "/v1/integrations/:id/test", Capability::kManageIntegrations, HandleTest);
  add("POST", "/v1/integrations/:id/rotate-secret", Capability::kManageIntegrations, HandleRotate);
  add("GET", "/v1/integrations/:id/deliveries", Capability::kViewProjects, HandleDeliveries);
  add("POST", "/v1/integrations/:id/deliveries/:deliveryId/retry", Capability::kManageIntegrations,
      HandleRetry);
  add("GET", "/v1/alerts/policy", Capability::kViewProjects, HandleGetPolicy);
  add("PUT", "/v1/alerts/policy", Capability::kManageIntegrations, HandlePutPolicy);
  add("POST", "/v1/alerts/preview", Capability::kViewProjects, HandlePreview);
  add("GET", "/v1/alerts/overview", Capability::kViewProjects, HandleOverview);
}

}  // namespace service::api
