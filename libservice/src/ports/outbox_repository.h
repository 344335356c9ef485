// OutboxRepository: durable background work (mail now, deliveries later).
//
// Items are written with Enqueue inside the same transaction as the action
// that caused them, so a committed action never loses its mail and a rolled
// back one never sends it. Workers Claim due items under a lease (several
// processes on one PostgreSQL never claim the same item), then mark them done,
// retry them later, or fail them for good.
//
// Thread-safety: implementations are stateless; safe from any thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct OutboxItem {
  std::string id;
  std::string kind;
  std::string payload;   // JSON text
  int64_t attempts = 0;  // including the current claim
  int64_t max_attempts = 0;
};

struct OutboxCounts {
  int64_t pending = 0;
  int64_t failed = 0;
  int64_t done = 0;
  int64_t overdue = 0;  // pending and due for more than a minute
};

class OutboxRepository {
 public:
  OutboxRepository() = default;
  OutboxRepository(const OutboxRepository&) = delete;
  OutboxRepository& operator=(const OutboxRepository&) = delete;
  virtual ~OutboxRepository() = default;

  // REQUIRES: `tx` is inside Database::Write.
  virtual Status Enqueue(Tx& tx, const std::string& id, const std::string& kind, const std::string& payload,
                         int64_t now_ms, int64_t max_attempts = 8) = 0;
  // Leases up to `limit` due items of `kind` for `lease_ms`; increments attempts.
  virtual Result<std::vector<OutboxItem>> Claim(Transactions& db, const std::string& kind, int64_t now_ms,
                                                int64_t lease_ms, int limit) = 0;
  virtual Status MarkDone(Transactions& db, const std::string& id, int64_t now_ms) = 0;
  // Schedules another try at `next_attempt_ms`, or fails it when attempts are spent.
  virtual Status MarkRetry(Transactions& db, const OutboxItem& item, const std::string& error, int64_t now_ms,
                           int64_t next_attempt_ms) = 0;
  // Fails `item` for good (a permanent failure: no attempt is left).
  Status MarkFailed(Transactions& db, const OutboxItem& item, const std::string& error, int64_t now_ms) {
    OutboxItem spent = item;
    spent.attempts = std::max(item.attempts, item.max_attempts);  // MarkRetry then fails it
    return MarkRetry(db, spent, error, now_ms, now_ms);
  }
  virtual Result<OutboxCounts> Counts(Transactions& db, int64_t now_ms) = 0;
  // Retention: deletes up to `limit` items done or failed for good whose
  // last change is before `before_ms` (the oldest first; pending items are
  // never deleted); returns how many.
  virtual Result<int64_t> DeleteFinished(Tx& tx, int64_t before_ms, int64_t limit) = 0;
};

}  // namespace service::ports
