// Route registration, one function per area. Each area's module (modules/)
// calls its own with the dependencies its handlers use; nothing here lists
// the areas.
#pragma once

#include <string>

#include "api/pipeline.h"
#include "app/ai/ai.h"
#include "app/auth/auth.h"
#include "app/bugs/bugs.h"
#include "app/capture/deps.h"
#include "app/health/health.h"
#include "app/integrations/integrations.h"
#include "app/projects/projects.h"
#include "app/sentry/sentry.h"
#include "app/stream/stream.h"
#include "app/triage/triage.h"

namespace service::api {

// GET /v1/health, /v1/health/deep.
void RegisterHealthRoutes(Pipeline& p, const app::HealthDeps& deps, std::string service_name);

// Bearer authentication (sessions) for every route but capture keys'.
void RegisterBearerAuthenticator(Pipeline& p, const app::AccountsDeps& deps);
// /v1/auth/*. `production`: forgot-password never shows the token.
void RegisterAuthRoutes(Pipeline& p, const app::AccountsDeps& deps, bool production);
// /v1/team/*.
void RegisterTeamRoutes(Pipeline& p, const app::AccountsDeps& deps);

// Capture-key authentication, /v1/ingest, /v1/ingest/presence and their
// /v1/bugs aliases, /v1/bugs/manual.
void RegisterCaptureRoutes(Pipeline& p, const app::capture::CaptureDeps& deps);
// /v1/ingest/ai-summary and /v1/bugs/ai-summary.
void RegisterAiRoutes(Pipeline& p, const app::AiDeps& deps);

// Triage reads: /v1/bugs lists, groups, search and one bug with its parts.
void RegisterBugsRoutes(Pipeline& p, const app::bugs::BugsDeps& deps);
void RegisterBugInsightRoutes(Pipeline& p, const app::bugs::BugsDeps& deps);
// Triage writes: PATCH /v1/bugs/:id and /bulk, DELETE, merge, comments,
// watch, and the AI analysis routes.
void RegisterTriageRoutes(Pipeline& p, const app::triage::TriageDeps& deps);
// Notifications, notification preferences, team activity, usage.
void RegisterNotificationRoutes(Pipeline& p, const app::triage::TriageDeps& deps);
// Integrations, deliveries, alert policy, preview and overview (Spec 2).
void RegisterIntegrationRoutes(Pipeline& p, const app::integrations::IntegrationsDeps& deps);
// POST /api/:projectNumber/envelope/ and /store/ (Sentry SDKs).
void RegisterSentryRoutes(Pipeline& p, const app::sentry::SentryDeps& deps);
// GET /v1/bugs/stream (server-sent events).
void RegisterStreamRoutes(Pipeline& p, app::stream::Hub& hub);

// /v1/projects/*: projects, keys and the test event (a capture use case).
struct ProjectRoutes {
  const app::projects::ProjectsDeps* projects = nullptr;
  const app::capture::CaptureDeps* capture = nullptr;
};
void RegisterProjectRoutes(Pipeline& p, const ProjectRoutes& deps);

}  // namespace service::api
