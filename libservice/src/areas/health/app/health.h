// Health use cases: liveness (database reachable) and the deep report
// (database, migrations, mail, AI, background jobs, redis) as names, booleans
// and counts only — never addresses, credentials or error texts from drivers.
#pragma once

#include <cstdint>
#include <string>

#include <functional>

#include "app/workers.h"
#include "ports/outbox_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::health {

// The schema's migration state, as the store reports it.
struct MigrationCounts {
  int64_t applied = 0;
  int64_t known = 0;  // compiled into this binary
  int64_t latest_applied = 0;
};

// What the health area needs.
struct HealthDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::OutboxRepository* outbox = nullptr;
  const Workers* workers = nullptr;
  std::function<Result<MigrationCounts>()> migrations;
  std::string email_provider;  // "smtp", "smtps", "file", another name, or "none"
  bool ai_configured = false;

  int64_t Now() const { return clock->NowMillis(); }
};

struct Liveness {
  bool ok = false;
};
Liveness CheckLiveness(const HealthDeps& deps);

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
DeepHealth CheckDeep(const HealthDeps& deps);

}  // namespace service::app::health
