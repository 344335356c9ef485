// IntegrationRepository: integrations (destinations), their deliveries and
// dead letters, the code-host issue opened per bug, and the alert policy of
// each project (Spec 2 "Integration", "Delivery", "Alerts").
//
// Secrets arrive sealed (AES-256-GCM by the app layer): the repository only
// stores the text it is given. Deliveries are work rows: written inside the
// transaction of the event that caused them, claimed under a lease by
// senders in any process (FOR UPDATE SKIP LOCKED on PostgreSQL), then
// completed, rescheduled or failed.
//
// Failures: kInternal/kUnavailable from the database; Insert of a delivery
// whose dedupe key exists is not an error (returns false).
// Thread-safety: implementations are stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct IntegrationRow {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string type;
  std::optional<std::string> name;
  std::string config_sealed;  // the whole config (JSON), sealed
  std::string config_view;    // what reads show of it (JSON object text)
  std::vector<std::string> events;
  bool is_active = true;
  std::string delivery_feed = "all";
  std::optional<std::string> min_severity;
  std::string secret_sealed;           // "" when there is no signing secret
  std::string secret_mask;             // MaskSecret of it
  std::string previous_secret_sealed;  // during the rotation overlap
  int64_t previous_secret_until = 0;
  std::string bearer_sealed;  // "" when none
  std::string bearer_last4;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

struct DeliveryRow {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string integration_id;
  std::optional<std::string> bug_id;
  std::string event_id;
  std::string event_type;
  std::string schedule;  // "capture" or "short"
  std::string status;    // pending, deferred, success, failed, canceled
  int64_t attempts = 0;  // sends made (a claim counts one)
  int64_t manual_sends = 0;
  std::optional<int64_t> response_code;
  std::optional<std::string> error_message;
  std::string payload;  // the event's JSON body before signing (delivery_events; stable across retries)
  std::optional<std::string> dedupe_key;
  int64_t created_at = 0;
  std::optional<int64_t> completed_at;
  std::optional<int64_t> deferred_until;
  int64_t next_attempt_at = 0;
  int64_t lease_until = 0;  // a sender holds the row until then
};

// The outcome of one send, written by Complete.
struct DeliveryOutcome {
  std::string id;
  std::string status;  // success, deferred (another try later), failed, canceled
  std::optional<int64_t> response_code;
  std::optional<std::string> error_message;
  int64_t next_attempt_at = 0;  // deferred only
  bool dead_letter = false;     // failed: also copy the row to the dead-letter log
  bool count_send = false;      // attempts + 1 (the send of a row taken by Due, not Claim)
};

struct StoredAlertPolicy {
  std::string project_id;
  std::string org_id;
  std::string body;  // the policy as JSON (app layer's shape)
  int64_t updated_at = 0;
  std::string updated_by;
};

struct CodeHostIssue {
  std::string integration_id;
  std::string bug_id;
  std::string url;
  int64_t number = 0;
};

struct DeliveryCounts {
  int64_t pending = 0;  // pending or deferred
  int64_t failed = 0;
  int64_t success = 0;
  int64_t canceled = 0;
};

class IntegrationRepository {
 public:
  IntegrationRepository() = default;
  IntegrationRepository(const IntegrationRepository&) = delete;
  IntegrationRepository& operator=(const IntegrationRepository&) = delete;
  virtual ~IntegrationRepository() = default;

  // Integrations.
  virtual Status Insert(Tx& tx, const IntegrationRow& row) = 0;
  // Replaces every mutable column of row.id (org-checked).
  virtual Status Update(Tx& tx, const IntegrationRow& row) = 0;
  virtual Result<bool> Delete(Tx& tx, const std::string& org_id, const std::string& id) = 0;
  virtual Result<std::optional<IntegrationRow>> Get(Tx& tx, const std::string& org_id,
                                                    const std::string& id) = 0;
  // The integrations with these ids (any organization: the delivery engine).
  virtual Result<std::vector<IntegrationRow>> GetMany(Tx& tx, const std::vector<std::string>& ids) = 0;
  // Every integration of a project, oldest first.
  virtual Result<std::vector<IntegrationRow>> ListForProject(Tx& tx, const std::string& org_id,
                                                             const std::string& project_id) = 0;
  // Active integrations of a project subscribed to `event`.
  virtual Result<std::vector<IntegrationRow>> ActiveFor(Tx& tx, const std::string& project_id,
                                                        const std::string& event) = 0;

  // The payload of an event, written once before its deliveries.
  virtual Status InsertEvent(Tx& tx, const std::string& event_id, const std::string& org_id,
                             const std::string& payload, int64_t now_ms) = 0;
  // Deliveries (row.payload is not written: see InsertEvent). Insert returns
  // false when row.dedupe_key is already taken.
  virtual Result<bool> InsertDelivery(Tx& tx, const DeliveryRow& row) = 0;
  // Leases up to `limit` due rows (pending or deferred, next attempt due, no
  // live lease) whose integration is not in `skip_integrations`; each claim
  // counts one send (attempts + 1).
  virtual Result<std::vector<DeliveryRow>> Claim(Transactions& db, int64_t now_ms, int64_t lease_ms,
                                                 int limit,
                                                 const std::vector<std::string>& skip_integrations) = 0;
  // The due rows Claim would lease (up to `limit`, oldest due first), read
  // without leasing them: for a process that owns the database and holds
  // its claims in memory (ports::Transactions::single_process); their
  // sends are counted by Complete (DeliveryOutcome::count_send).
  virtual Result<std::vector<DeliveryRow>> Due(Tx& tx, int64_t now_ms, int limit,
                                               const std::vector<std::string>& skip_integrations) = 0;
  // Records outcomes (one transaction); a dead-lettered failure is copied to
  // delivery_dead_letters.
  virtual Status Complete(Transactions& db, const std::vector<DeliveryOutcome>& outcomes, int64_t now_ms) = 0;
  // Returns claimed rows that were never sent (a stopping process): no
  // lease, and the claim's send uncounted.
  virtual Status Release(Transactions& db, const std::vector<std::string>& ids) = 0;
  virtual Result<std::optional<DeliveryRow>> GetDelivery(Tx& tx, const std::string& integration_id,
                                                         const std::string& delivery_id) = 0;
  // Rows of an integration, created-at ascending (then id); `status` "" for all.
  virtual Result<std::vector<DeliveryRow>> ListDeliveries(Tx& tx, const std::string& integration_id,
                                                          const std::string& status, int64_t limit,
                                                          int64_t offset) = 0;
  virtual Result<int64_t> CountDeliveries(Tx& tx, const std::string& integration_id,
                                          const std::string& status) = 0;
  // The handoff area's reads (areas/handoff): the deliveries of `org_id`
  // with these ids (payload left empty; unknown ids and another
  // organization's rows are not returned), any order.
  virtual Result<std::vector<DeliveryRow>> GetDeliveries(Tx& tx, const std::string& org_id,
                                                         const std::vector<std::string>& ids) = 0;
  // The oldest delivery of `bug_id` on `integration_id` that is not failed
  // or canceled (payload left empty): for a code_host integration, the one
  // that opened (or is opening) the bug's issue. nullopt: none.
  virtual Result<std::optional<DeliveryRow>> FirstLiveDelivery(Tx& tx, const std::string& integration_id,
                                                               const std::string& bug_id) = 0;
  // Takes a failed row for a manual retry: status pending, due now, leased to
  // this caller for `lease_ms`, manual_sends + 1. False when it is not failed
  // any more (another retry took it).
  virtual Result<bool> TakeForManualRetry(Tx& tx, const std::string& delivery_id, int64_t now_ms,
                                          int64_t lease_ms) = 0;
  // Cancels the pending and deferred rows of an integration (deactivated or
  // deleted destinations keep no work).
  virtual Status CancelPending(Tx& tx, const std::string& integration_id, const std::string& reason,
                               int64_t now_ms) = 0;
  virtual Result<DeliveryCounts> CountsForOrg(Tx& tx, const std::string& org_id, int64_t since_ms) = 0;
  virtual Result<int64_t> DeadLetterCount(Tx& tx, const std::string& integration_id) = 0;
  // Every organization's deliveries waiting to be sent (GET /metrics):
  // pending, deferred (quiet hours or a later try) and, of the pending,
  // those due for more than a minute (overdue).
  struct Backlog {
    int64_t pending = 0;
    int64_t deferred = 0;
    int64_t overdue = 0;
  };
  virtual Result<Backlog> CountBacklog(Tx& tx, int64_t now_ms) = 0;

  // Code-host issues.
  virtual Result<std::optional<CodeHostIssue>> GetIssue(Tx& tx, const std::string& integration_id,
                                                        const std::string& bug_id) = 0;
  virtual Status PutIssue(Tx& tx, const CodeHostIssue& issue, int64_t now_ms) = 0;

  // Alert policies.
  virtual Result<std::optional<StoredAlertPolicy>> GetPolicy(Tx& tx, const std::string& project_id) = 0;
  virtual Status PutPolicy(Tx& tx, const StoredAlertPolicy& policy) = 0;

  // Retention (any organization, the oldest first; each returns how many it
  // deleted). Up to `limit` deliveries finished (success, failed, canceled)
  // before `before_ms`; pending and deferred rows are never deleted.
  virtual Result<int64_t> DeleteFinishedDeliveries(Tx& tx, int64_t before_ms, int64_t limit) = 0;
  // Up to `limit` dead letters created before `before_ms`.
  virtual Result<int64_t> DeleteDeadLetters(Tx& tx, int64_t before_ms, int64_t limit) = 0;
  // Up to `limit` event payloads created before `before_ms` that no delivery
  // names any more.
  virtual Result<int64_t> DeleteUnusedEvents(Tx& tx, int64_t before_ms, int64_t limit) = 0;

  // Deletion of an organization's rows (deletion hooks).
  virtual Status DeleteOrganizationRows(Tx& tx, const std::string& org_id) = 0;
};

}  // namespace service::ports
