// DigestRepository: alert email batches (issue 32; Spec 2 "Alert digest
// batch"), the notifications each carries and the recipient's decisions.
//
// A batch moves between states only through conditional updates (the row's
// current state, generation and attempts in the WHERE clause), so two
// processes on one database never both claim or finish one send: the loser
// changes no row and learns it from the result.
//
// Methods that change rows REQUIRE a write transaction (Database::Write);
// reads run in either. Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct DigestBatch {
  std::string id;
  std::string org_id;
  std::string user_id;
  std::string kind;   // instant, digest
  std::string state;  // queued, sending, succeeded, retryable, permanent_failure, cancelled, outcome_unknown
  int64_t generation = 0;
  int64_t attempts = 0;  // cumulative send and preparation attempts
  // Manual retries are the generation: only a recipient's retry raises it.
  std::string subject;
  std::string body;
  std::string last_error;
  int64_t next_attempt_at = 0;
  std::optional<int64_t> lease_until;
  std::optional<std::string> resolution;  // received, retry
  std::optional<int64_t> resolution_generation;
  std::optional<int64_t> resolution_at;
  int64_t created_at = 0;
  std::optional<int64_t> sent_at;
  int64_t updated_at = 0;
  // Reads for history only: distinct projects of its events, and its events
  // of the selected project.
  int64_t project_count = 0;
  int64_t project_events = 0;
};

struct DigestEventRef {
  std::string notification_id;
  std::string type;  // the notification's: new_bug and regression are alerts
  std::optional<std::string> bug_id;
};

struct DigestDecision {
  std::string id;
  std::string batch_id;
  std::string user_id;
  std::string request_id;
  std::string project_id;
  std::string action;  // received, retry
  bool accept_duplicate_risk = false;
  int64_t expected_generation = 0;
  int64_t next_generation = 0;
  int64_t created_at = 0;
};

class DigestRepository {
 public:
  virtual ~DigestRepository() = default;

  // Inserts a new batch (state queued) with its notifications; each event's
  // project is its notification's bug's project.
  virtual Status Insert(Tx& tx, const DigestBatch& batch,
                        const std::vector<std::string>& notification_ids) = 0;

  virtual Result<std::optional<DigestBatch>> Find(Tx& c, const std::string& id) = 0;

  // Batches in queued or retryable whose next attempt is due, oldest first.
  virtual Result<std::vector<DigestBatch>> Due(Tx& c, int64_t now_ms, int64_t limit) = 0;

  // queued/retryable -> sending for the batch at `generation` and
  // `attempts` (as read), counting one attempt and leasing it until
  // `lease_until`. False when another process (or a decision) changed it.
  virtual Result<bool> Claim(Tx& tx, const std::string& id, int64_t generation, int64_t attempts,
                             int64_t lease_until, int64_t now_ms) = 0;

  // sending -> `state` for the send that claimed the batch (generation and
  // attempts as claimed). A batch whose lease ran out (outcome_unknown by
  // ExpireLeases) also takes the answer that finally arrived. `sent_at`
  // only on success; `next_attempt_at` for retryable. False when the row
  // is no longer that send's.
  virtual Result<bool> Finish(Tx& tx, const std::string& id, int64_t generation, int64_t attempts,
                              const std::string& state, const std::string& error, int64_t next_attempt_at,
                              std::optional<int64_t> sent_at, int64_t now_ms) = 0;

  // sending -> queued for the send that claimed the batch, its attempt not
  // counted, due again at `next_attempt_at` (held by quiet hours). False
  // when the row is no longer that send's.
  virtual Result<bool> Hold(Tx& tx, const std::string& id, int64_t generation, int64_t attempts,
                            int64_t next_attempt_at, int64_t now_ms) = 0;

  // The batch's events: each notification's type and bug (for the alert
  // policy's re-check before a send).
  virtual Result<std::vector<DigestEventRef>> Events(Tx& c, const std::string& batch_id) = 0;

  // sending batches whose lease ended before `now_ms` -> outcome_unknown
  // (their process died or stalled mid-send: never resent automatically).
  virtual Result<int64_t> ExpireLeases(Tx& tx, int64_t now_ms) = 0;

  // --- History ---
  // The member's digest batches holding events of `project_id`, by
  // created_at then id, after the batch `after` (created_at, id), at most
  // `limit`, with project_count and project_events filled.
  virtual Result<std::vector<DigestBatch>> History(Tx& c, const std::string& org_id,
                                                   const std::string& user_id, const std::string& project_id,
                                                   std::optional<std::pair<int64_t, std::string>> after,
                                                   int64_t limit) = 0;
  // True when the batch holds an event of `project_id`.
  virtual Result<bool> HoldsProject(Tx& c, const std::string& batch_id, const std::string& project_id) = 0;
  // The member's notifications of `project_id` waiting for a digest.
  virtual Result<int64_t> PendingEvents(Tx& c, const std::string& org_id, const std::string& user_id,
                                        const std::string& project_id) = 0;

  // --- Decisions ---
  virtual Result<std::optional<DigestDecision>> FindDecision(Tx& c, const std::string& user_id,
                                                             const std::string& request_id) = 0;
  virtual Status InsertDecision(Tx& tx, const DigestDecision& d) = 0;
  // Records `received` (state and generation unchanged). False when the
  // batch is sending, at another generation or already decided received.
  virtual Result<bool> MarkReceived(Tx& tx, const std::string& id, int64_t generation, int64_t now_ms) = 0;
  // A recipient retry: generation + 1, state queued,
  // due now, attempts kept. False when the batch is sending or at another
  // generation.
  virtual Result<bool> Requeue(Tx& tx, const std::string& id, int64_t generation, int64_t now_ms) = 0;

  // --- Retention and deletion ---
  // Deletes at most `limit` batches in a final state (succeeded,
  // permanent_failure, cancelled, outcome_unknown) last changed before
  // `before_ms`, with their events and decisions; returns how many.
  virtual Result<int64_t> SweepFinished(Tx& tx, int64_t before_ms, int64_t limit) = 0;
  virtual Status DeleteOrganizationRows(Tx& tx, const std::string& org_id) = 0;
  virtual Status DeleteAccountRows(Tx& tx, const std::string& user_id) = 0;
};

}  // namespace service::ports
