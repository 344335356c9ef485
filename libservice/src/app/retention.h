// Retention sweeps: deleting rows that pile up (finished deliveries, dead
// letters, done outbox work, remembered event ids, command answers, presence
// rows) after the periods of Options::retention (SERVICE_RETENTION), in
// bounded batches so that a backlog never becomes one long statement that
// holds the writer (SQLite) or row locks (PostgreSQL) while ingest waits.
//
// Thread-safety: stateless; called from one worker task at a time.
#pragma once

#include <cstdint>
#include <functional>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::app {

// How often the hourly sweeps run.
inline constexpr int64_t kRetentionSweepIntervalMs = 3'600'000;
// The most batches one run of a sweep deletes; the rest waits for the next run.
inline constexpr int kRetentionMaxBatches = 1000;

// Deletes through `batch(tx, limit)` (which deletes at most `limit` rows
// and returns how many it deleted), one Write transaction per batch, until
// a batch deletes fewer than `limit` rows or `max_batches` ran. Returns the
// rows deleted, or the first failure (the batches before it stay deleted).
// REQUIRES: limit >= 1.
Result<int64_t> SweepInBatches(ports::Transactions& db, int64_t limit,
                               const std::function<Result<int64_t>(ports::Tx& tx, int64_t limit)>& batch,
                               int max_batches = kRetentionMaxBatches);

}  // namespace service::app
