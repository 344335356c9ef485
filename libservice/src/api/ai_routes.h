// The AI summary route (Spec 1 "POST /v1/ingest/ai-summary", alias
// "POST /v1/bugs/ai-summary"): capture-key authentication, the ingest rate
// class. Summarize-only: nothing is persisted.
//
//   200 {title, severity, description, truncated, provider, model}
//   400 Invalid JSON in request body | Validation failed {details}
//   502 {error: "AI provider request failed", code: "AI_PROVIDER_ERROR"}
//   503 {error: "AI service not configured"}
//
// Thread-safety: the handler is safe from any thread.
#pragma once

#include "api/context.h"
#include "service/http.h"

namespace service::api {

// Validates the body (events: array of objects, at least one, any number:
// only the first 500 are summarized; title 0-500; url 0-2000;
// context{environment 0-100, release 0-100, userAgent 0-500, userId 0-200})
// and calls app::SummarizeReport.
Response HandleAiSummary(Context& ctx);

class Pipeline;
// Registers POST /v1/ingest/ai-summary and POST /v1/bugs/ai-summary
// (RateClass::kIngest, AuthMode::kCaptureKey). Called from api/routes.cpp.
void RegisterAiRoutes(Pipeline& p);

}  // namespace service::api
