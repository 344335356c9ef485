#include "areas/ai/api/routes.h"

#include <cstdint>
#include <limits>
#include <string>

#include "api/json.h"
#include "api/pipeline.h"
#include "api/validate.h"
#include "areas/ai/app/ai.h"
#include "areas/capture/api/capture_validation.h"

namespace service::api {
namespace {

// At most this many "events[i] must be an object" details in one answer.
constexpr size_t kMaxEventDetails = 10;

std::string OptionalString(Validator& v, std::string_view field, size_t max) {
  StringRule rule;
  rule.max = max;
  return v.String(field, rule).value_or("");
}

}  // namespace

Response HandleAiSummary(const app::ai::AiDeps& deps, Context& ctx) {
  Result<json::value> doc = ParseCaptureJson(ctx.req.body);
  if (!doc.ok()) return StatusResponse(doc.status());
  Validator v(*doc);
  if (!v.body()) return ValidationFailed(v.details());

  app::ai::SummaryInput in;
  in.org_id = ctx.principal.org_id;
  in.project_id = ctx.principal.project_id;
  const json::array* events = v.Array("events", /*required=*/true, std::numeric_limits<size_t>::max());
  if (events) {
    if (events->empty()) v.AddError("events", "must contain at least one event");
    size_t bad = 0;
    for (size_t i = 0; i < events->size(); ++i) {
      if ((*events)[i].is_object()) continue;
      if (bad++ < kMaxEventDetails) v.AddError("events[" + std::to_string(i) + "]", "must be an object");
    }
  }
  in.title = OptionalString(v, "title", 500);
  in.url = OptionalString(v, "url", 2000);
  if (const json::value* context = Field(*v.body(), "context"); context && !context->is_null()) {
    if (!context->is_object()) {
      v.AddError("context", "must be an object");
    } else {
      Validator cv(*context);
      in.context.environment = OptionalString(cv, "environment", 100);
      in.context.release = OptionalString(cv, "release", 100);
      in.context.user_agent = OptionalString(cv, "userAgent", 500);
      in.context.user_id = OptionalString(cv, "userId", 200);
      for (const json::value& d : cv.details()) {
        const json::object& o = d.as_object();
        v.AddError("context." + std::string(o.at("field").as_string()),
                   std::string(o.at("message").as_string()));
      }
    }
  }
  if (!v.ok()) return ValidationFailed(v.details());

  // Valid: take the event objects out of the document instead of copying.
  json::array& all = doc->as_object()["events"].as_array();
  in.events.reserve(all.size());
  for (json::value& e : all) in.events.push_back(std::move(e.as_object()));

  Result<app::ai::ReportSummary> r = app::ai::SummarizeReport(deps, in);
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(200, json::object{{"title", r->title},
                                        {"severity", r->severity},
                                        {"description", r->description},
                                        {"truncated", r->truncated},
                                        {"provider", r->provider},
                                        {"model", r->model}});
}

void RegisterAiRoutes(Pipeline& p, const app::ai::AiDeps& deps) {
  for (const char* path : {"/v1/ingest/ai-summary", "/v1/bugs/ai-summary"}) {
    p.router().Add("POST", path, RateClass::kIngest, AuthMode::kCaptureKey, Bind(deps, HandleAiSummary));
  }
}

}  // namespace service::api
