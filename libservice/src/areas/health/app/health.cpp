#include "areas/health/app/health.h"

namespace service::app::health {

Liveness CheckLiveness(const HealthDeps& deps) { return Liveness{deps.db->Ping().ok()}; }

DeepHealth CheckDeep(const HealthDeps& deps) {
  DeepHealth h;
  const int64_t start = deps.Now();
  h.db_ok = deps.db->Ping().ok();
  h.db_latency_ms = deps.Now() - start;
  if (h.db_ok) {
    auto state = deps.migrations();
    if (state.ok()) {
      h.migrations_applied = state->applied;
      h.migrations_known = state->known;
      h.migrations_ok = state->applied >= state->known && state->latest_applied >= state->known;
    }
    auto counts = deps.outbox->Counts(*deps.db, deps.Now());
    if (counts.ok()) {
      h.jobs_pending = counts->pending;
      h.jobs_failed = counts->failed;
      h.jobs_overdue = counts->overdue;
      h.jobs_ok = counts->overdue == 0;
    }
  }
  h.email_configured = deps.email_provider != "none";
  h.email_provider = deps.email_provider;
  h.ai_configured = deps.ai_configured;
  h.jobs_running = deps.workers->running();
  h.jobs_ok = h.jobs_ok && h.jobs_running;
  return h;
}

}  // namespace service::app::health
