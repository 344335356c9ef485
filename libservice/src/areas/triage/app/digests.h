// Alert email batches (issue 32; Spec 2 "Alert digest batch", the digest
// rows of "Alerts", DIGEST_BUSY and the digest limits).
//
// Every alert email to a member is one batch row: an instant email (one
// notification, emailLevel full or notification with digestFreq realtime)
// or a digest (what waited for the member's hourly or daily digest, across
// the organization's projects). A batch is composed once and sent by the
// `digest-batches` worker straight through the configured Mailer:
//   1. claim: one write transaction moves it queued/retryable -> sending
//      (a conditional UPDATE: of two processes on one database only one
//      wins), counts one attempt and re-checks the recipient (still an
//      active member, email not turned off; otherwise cancelled) and the
//      alert policy of its alert events (deps.alert_gate): a batch whose
//      every event is an alert the policy now excludes is cancelled; one
//      whose alerts are all in quiet hours (and that carries nothing
//      else) goes back to queued until they end, its attempt not counted;
//   2. send, outside any transaction;
//   3. record the answer: OK -> succeeded; outcome unknown (handed over, no
//      answer) -> outcome_unknown; permanent (SMTP 5xx) ->
//      permanent_failure; transient (4xx, connection trouble before the
//      message went out) -> retryable after DigestBackoffMs, or
//      permanent_failure once the eighth attempt failed.
// A batch left `sending` past kDigestLeaseMs (its process died) becomes
// outcome_unknown; nothing is ever resent without the recipient's retry.
//
// Thread-safety: functions are safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "areas/triage/app/triage.h"
#include "areas/triage/domain/digest.h"
#include "areas/triage/ports/digest_repository.h"

namespace service::app::triage {

// Queues one alert email batch (kind "instant" or "digest") for `user_id`
// of `org_id` carrying `notification_ids`, due at `deliver_at` (nullopt:
// now). REQUIRES: a write transaction.
Status QueueAlertEmail(const TriageDeps& deps, ports::Tx& tx, const std::string& org_id,
                       const std::string& user_id, const std::string& kind, const std::string& subject,
                       const std::string& body, const std::vector<std::string>& notification_ids,
                       std::optional<int64_t> deliver_at = std::nullopt);

// True when alert emails go out at all (a mail provider is configured).
bool SendsAlertEmails(const TriageDeps& deps);

// A new bug or a regression that the project's alert policy let through.
struct BugAlert {
  std::string org_id;
  std::string project_id;
  std::string bug_id;
  std::string bug_title;
  std::string event_type;              // new_bug, regression
  std::optional<int64_t> quiet_until;  // held by the project's quiet hours until then
};

// The alert emails of `alert` to each active member of its organization
// whose preferences send email (RouteEmail): an instant batch, or an item
// waiting for the member's digest; both held until quiet_until. Alert
// items are notification rows kept out of the in-app list. Without a mail
// provider: nothing. REQUIRES: a write transaction (the event's own).
Status QueueBugAlert(const TriageDeps& deps, ports::Tx& tx, const BugAlert& alert);

// Sends the due batches once on the caller's thread (expired leases become
// outcome_unknown first). Without a mail provider: nothing. Tests call it
// directly.
Status SendDueBatches(
    const TriageDeps& deps, const std::function<bool()>& keep_going = [] { return true; });

// Deletes finished batches older than deps.digest_retention_ms (SERVICE_RETENTION
// digest_batches); returns how many.
Result<int64_t> SweepDigestBatches(const TriageDeps& deps, int64_t batch_rows);

struct DigestHistoryPage {
  std::vector<ports::DigestBatch> batches;  // project_count / project_events filled
  int64_t pending_events = 0;
  std::optional<std::string> next_cursor;
};
// GET /v1/alerts/digests: the caller's own digest batches holding events of
// `project_id` (404 "Project not found" when not in the organization), 50
// per page; `after` a cursor this returned (404 "Cursor not found" for any
// other).
Result<DigestHistoryPage> DigestHistory(const TriageDeps& deps, const ConsoleActor& actor,
                                        const std::string& project_id,
                                        const std::optional<std::string>& after);

struct DigestResolutionRequest {
  std::string project_id;
  std::string request_id;  // UUID, lower-case
  int64_t expected_generation = 0;
  std::string action;  // received, retry
  bool accept_duplicate_risk = false;
};
struct DigestReceipt {
  ports::DigestDecision decision;
  bool replayed = false;
};
// POST /v1/alerts/digests/:batchId/resolution (the body validated by the
// API layer). 404 unless the batch is the caller's digest holding events of
// the project; the same requestId again: the stored receipt (replayed) when
// the content matches, else 409; 409 DIGEST_BUSY while a send holds the
// batch; 409 for a stale generation or an action allowedActions refuses.
Result<DigestReceipt> ResolveDigest(const TriageDeps& deps, const ConsoleActor& actor,
                                    const std::string& batch_id, const DigestResolutionRequest& req);

}  // namespace service::app::triage
