#include "app/health/health.h"

#include "store/migrations.h"
#include "util/strings.h"

namespace service::app {

Liveness CheckLiveness(Core& core) { return Liveness{core.db->Ping().ok()}; }

DeepHealth CheckDeep(Core& core) {
  DeepHealth h;
  const int64_t start = core.Now();
  h.db_ok = core.db->Ping().ok();
  h.db_latency_ms = core.Now() - start;
  if (h.db_ok) {
    auto state = store::ReadMigrationState(*core.db);
    if (state.ok()) {
      h.migrations_applied = state->applied;
      h.migrations_known = state->known;
      h.migrations_ok = state->applied >= state->known && state->latest_applied >= state->known;
    }
    auto counts = core.outbox->Counts(*core.db, core.Now());
    if (counts.ok()) {
      h.jobs_pending = counts->pending;
      h.jobs_failed = counts->failed;
      h.jobs_overdue = counts->overdue;
      h.jobs_ok = counts->overdue == 0;
    }
  }
  const std::string& mail = core.options.mail_url;
  h.email_configured = !mail.empty();
  h.email_provider = mail.empty()                         ? "none"
                     : util::StartsWith(mail, "smtps://") ? "smtps"
                     : util::StartsWith(mail, "smtp://")  ? "smtp"
                     : util::StartsWith(mail, "file:")    ? "file"
                                                          : "none";
  h.ai_configured = !core.options.ai.url.empty();
  h.jobs_running = core.workers.running();
  h.jobs_ok = h.jobs_ok && h.jobs_running;
  return h;
}

}  // namespace service::app
