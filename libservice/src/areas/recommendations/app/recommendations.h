// The producer of recommended_bug (Spec 2 "Events": emitted by
// "recommendation"; README "Recommended bug events"): a worker task
// ("recommended-bug", every SERVICE_RECOMMENDATION_INTERVAL, default 60 s)
// that, for each project holding an active integration subscribed to
// recommended_bug, reads the project's top recommended bug through the
// bugs area's use case (app::bugs::Recommend: the same ranking as GET
// /v1/bugs/recommended) and emits recommended_bug for it when the rules of
// domain/recommendations.h say so, through the integrations engine
// (app::integrations::EnqueueEvent: the project's alert policy, quiet
// hours, the payload of Spec 2) to the project's active integrations
// subscribed to the event. Projects without such an integration cost
// nothing but the one scan of the integrations table.
//
// Deduplication: the emission row (project, bug) is claimed in the
// transaction that queues the deliveries (insert-if-absent, or a
// conditional update for a re-emission); only the run whose claim took
// queues them, so two runs (two processes on one PostgreSQL) never emit
// one bug twice. An event the policy drops (severity floor, excludes) is
// still recorded as emitted, with no delivery.
//
// Thread-safety: safe from any thread; runs may overlap (the claim decides).
#pragma once

#include <cstdint>

#include "areas/bugs/app/bugs.h"
#include "areas/integrations/app/integrations.h"
#include "areas/recommendations/domain/recommendations.h"
#include "areas/recommendations/ports/recommendation_repository.h"
#include "ports/event_bus.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/status.h"

namespace service::app::recommendations {

struct RecommendationsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  Logger* log = nullptr;
  ports::EventBus* bus = nullptr;  // wakes the delivery engine after a commit
  ports::RecommendationRepository* emissions = nullptr;
  const bugs::BugsDeps* bugs = nullptr;                          // the recommended ranking, bug history
  const integrations::IntegrationsDeps* integrations = nullptr;  // destinations and deliveries
  int64_t interval_ms = domain::recommendations::kDefaultIntervalMs;

  int64_t Now() const { return clock->NowMillis(); }
};

struct RunSummary {
  int64_t projects = 0;    // projects with a subscribed integration
  int64_t emitted = 0;     // recommended_bug events emitted
  int64_t deliveries = 0;  // deliveries queued for them
};

// One run of the worker. A project whose read or write fails is logged
// and skipped (the next run tries again); the run returns the last such
// failure after trying every project.
Result<RunSummary> EmitRecommended(const RecommendationsDeps& deps);

}  // namespace service::app::recommendations
