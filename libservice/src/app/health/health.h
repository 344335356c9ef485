// Health use cases: liveness (database reachable) and the deep report
// (database, migrations, mail, AI, background jobs, redis) as names, booleans
// and counts only — never addresses, credentials or error texts from drivers.
#pragma once

#include <cstdint>
#include <string>

#include "app/core.h"

namespace service::app {

struct Liveness {
  bool ok = false;
};
Liveness CheckLiveness(Core& core);

struct DeepHealth {
  bool db_ok = false;
  int64_t db_latency_ms = 0;
  bool migrations_ok = false;
  int64_t migrations_applied = 0;
  int64_t migrations_known = 0;
  std::string email_provider;  // "smtp", "smtps", "file" or "none"
  bool email_configured = false;
  bool ai_configured = false;
  bool jobs_running = false;
  bool jobs_ok = false;  // counts readable and nothing overdue
  int64_t jobs_pending = 0;
  int64_t jobs_failed = 0;
  int64_t jobs_overdue = 0;

  // 503 only when a critical check (db, migrations) fails.
  bool healthy() const { return db_ok && migrations_ok; }
};
DeepHealth CheckDeep(Core& core);

}  // namespace service::app
