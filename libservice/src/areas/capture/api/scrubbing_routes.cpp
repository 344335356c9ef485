// Scrubbing settings (issue 31 items 3-4; README "Scrubbing"):
//
//   GET /v1/projects/:id/scrubbing   JWT+Org, view_projects (every role)
//   PUT /v1/projects/:id/scrubbing   JWT+Org, manage_projects (admin,
//                                    manager); support sessions 403; body
//                                    {extraKeys?, scrubMessages?,
//                                    storeIpAddress?}, at least one,
//                                    nothing else
//
// Both answer {projectId, extraKeys, scrubMessages, storeIpAddress,
// defaultKeys, exactKeys, marker, counts{key, pair, card, bearer, token,
// ip}, total, lastScrubbedAt, updatedAt, updatedBy}. A project of another
// organization (or no such project) is 404 "Project not found".
#include <boost/json.hpp>

#include "api/json.h"
#include "api/pipeline.h"
#include "areas/capture/api/routes.h"
#include "areas/capture/app/scrubbing.h"
#include "util/strings.h"

namespace service::api {
namespace {

namespace dc = domain::capture;

std::string ProjectIdOf(const Context& ctx) {
  std::string id = util::ToLower(ctx.params.Get("id"));
  return util::IsUuid(id) ? id : std::string();
}

Response Invalid(std::string message) {
  return ErrorResponse(400, message, json::object{{"code", "VALIDATION_ERROR"}});
}

app::ConsoleActor ActorOf(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

json::value MillisOrNull(int64_t ms) { return ms > 0 ? json::value(ms) : json::value(nullptr); }

json::object ViewJson(const app::capture::ScrubbingView& v) {
  json::array extra;
  for (const std::string& k : v.settings.extra_keys) extra.push_back(json::string(k));
  json::array words;
  for (std::string_view w : dc::kSensitiveKeyWords) words.push_back(json::string(w));
  json::array exact;
  for (std::string_view w : dc::kSensitiveExactKeys) exact.push_back(json::string(w));
  json::object counts;
  for (int i = 0; i < dc::kScrubRuleCount; ++i) {
    counts[dc::ScrubRuleName(static_cast<dc::ScrubRule>(i))] = v.counts.by_rule[i];
  }
  json::object o;
  o["projectId"] = v.project_id;
  o["extraKeys"] = std::move(extra);
  o["scrubMessages"] = v.settings.scrub_messages;
  o["storeIpAddress"] = v.settings.store_ip;
  o["defaultKeys"] = std::move(words);
  o["exactKeys"] = std::move(exact);
  o["marker"] = dc::kFilteredMarker;
  o["counts"] = std::move(counts);
  o["total"] = v.counts.Total();
  o["lastScrubbedAt"] = MillisOrNull(v.last_scrubbed_at);
  o["updatedAt"] = MillisOrNull(v.settings.updated_at);
  o["updatedBy"] = v.settings.updated_by.empty() ? json::value(nullptr) : json::value(v.settings.updated_by);
  return o;
}

Response HandleGet(const app::capture::CaptureDeps& deps, Context& ctx) {
  const std::string id = ProjectIdOf(ctx);
  if (id.empty()) return ErrorResponse(404, "Project not found");
  auto v = app::capture::GetScrubbing(deps, ActorOf(ctx), id);
  if (!v.ok()) return StatusResponse(v.status());
  return JsonResponse(200, ViewJson(*v));
}

Response HandlePut(const app::capture::CaptureDeps& deps, Context& ctx) {
  if (!ctx.principal.support_session_id.empty()) {
    return ErrorResponse(403, "Support sessions cannot change scrubbing settings");
  }
  const std::string id = ProjectIdOf(ctx);
  if (id.empty()) return ErrorResponse(404, "Project not found");
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) return Invalid(body.status().message());
  if (!(*body)->is_object()) return Invalid("Body must be a JSON object");
  app::capture::ScrubbingPatch patch;
  for (const auto& [key, value] : (*body)->get_object()) {
    if (key == "extraKeys") {
      if (!value.is_array()) return Invalid("extraKeys must be an array of strings");
      std::vector<std::string> keys;
      for (const json::value& k : value.get_array()) {
        if (!k.is_string()) return Invalid("extraKeys must be an array of strings");
        keys.emplace_back(k.get_string());
      }
      patch.extra_keys = std::move(keys);
    } else if (key == "scrubMessages") {
      if (!value.is_bool()) return Invalid("scrubMessages must be a boolean");
      patch.scrub_messages = value.get_bool();
    } else if (key == "storeIpAddress") {
      if (!value.is_bool()) return Invalid("storeIpAddress must be a boolean");
      patch.store_ip = value.get_bool();
    } else {
      return Invalid("Unknown field: " + std::string(key));
    }
  }
  if (!patch.extra_keys && !patch.scrub_messages && !patch.store_ip) {
    return Invalid("extraKeys, scrubMessages or storeIpAddress is required");
  }
  auto v = app::capture::PutScrubbing(deps, ActorOf(ctx), id, patch);
  if (!v.ok()) {
    if (v.status().code() == Code::kInvalidArgument) return Invalid(v.status().message());
    return StatusResponse(v.status());
  }
  return JsonResponse(200, ViewJson(*v));
}

}  // namespace

void RegisterScrubbingRoutes(Pipeline& p, const app::capture::CaptureDeps& deps) {
  Router& r = p.router();
  r.Add("GET", "/v1/projects/:id/scrubbing", RateClass::kGeneral, AuthMode::kJwtOrg,
        domain::Capability::kViewProjects, Bind(deps, HandleGet));
  r.Add("PUT", "/v1/projects/:id/scrubbing", RateClass::kGeneral, AuthMode::kJwtOrg,
        domain::Capability::kManageProjects, Bind(deps, HandlePut));
}

}  // namespace service::api
