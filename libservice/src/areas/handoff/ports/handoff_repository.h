// HandoffRepository: the handoff area's rows (Spec 2 "Agent notification
// row", "Agent settings", "Agent handoff"): each project's agent settings,
// the notification batches of a bug (one per notify-agent or auto-notify)
// and their rows (one per channel), the agent state of each bug (its ack,
// prUrl and the latest batch, which also serves as the reuse window's
// lock), the log of its acks, and the MCP rows listeners collect.
//
// Every read and write is scoped by organization where a caller names one:
// another organization's id finds nothing. Rows go with their organization,
// project and bug (ON DELETE CASCADE).
//
// Methods that change rows REQUIRE a write transaction.
// Failures: kInternal/kUnavailable from the database.
// Thread-safety: implementations are stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct AgentSettingsRow {
  std::string project_id;
  std::string org_id;
  bool auto_notify = false;
  std::string min_severity = "high";
  int64_t updated_at = 0;
  std::string updated_by;  // user id ("" : never set through the API)
};

// One notify-agent or auto-notify of a bug.
struct NotifyBatch {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string bug_id;
  std::string trigger;  // auto, manual
  bool no_channel = false;
  std::string actor;  // who asked (a member's name or email; "" for auto)
  int64_t created_at = 0;
};

// One row of a batch (Spec 2 "Agent notification row").
struct AgentNotificationRow {
  std::string id;
  std::string batch_id;
  std::string org_id;
  std::string project_id;
  std::string bug_id;
  std::string trigger;
  std::optional<std::string> channel;  // agent, webhook, code_host, mcp; null for no_channel/failed
  std::optional<std::string> channel_name;
  std::optional<std::string> integration_id;
  std::optional<std::string> delivery_id;  // the linked delivery (its live outcome wins)
  std::string status;                      // queued, delivered, failed, no_channel
  std::optional<std::string> detail;
  int64_t created_at = 0;
  std::optional<int64_t> delivered_at;
};

// A listened-for row with its bug's title and severity.
struct ListenRow {
  AgentNotificationRow row;
  std::string title;
  std::string severity;
};

// The agent side of a bug.
struct AgentState {
  std::string bug_id;
  std::string org_id;
  std::string project_id;
  std::optional<std::string> ack;  // "working"
  std::optional<std::string> ack_by;
  std::optional<std::string> ack_note;
  std::optional<int64_t> ack_at;
  std::optional<std::string> pr_url;
  std::optional<int64_t> pr_at;
  std::optional<std::string> last_batch_id;
  std::optional<int64_t> last_notify_at;
};

// One recorded ack that changed something (history).
struct AckRecord {
  std::string id;
  std::string org_id;
  std::string bug_id;
  std::string action;  // working, pr_opened
  std::optional<std::string> pr_url;
  std::string actor;
  std::optional<std::string> note;
  int64_t created_at = 0;
};

// The reuse window's answer (ClaimNotify).
struct NotifyClaim {
  bool claimed = false;          // the caller writes a new batch `batch_id`
  std::string earlier_batch_id;  // not claimed: the batch of the window
};

class HandoffRepository {
 public:
  HandoffRepository() = default;
  HandoffRepository(const HandoffRepository&) = delete;
  HandoffRepository& operator=(const HandoffRepository&) = delete;
  virtual ~HandoffRepository() = default;

  // Agent settings; nullopt: never set (the defaults apply).
  virtual Result<std::optional<AgentSettingsRow>> GetSettings(Tx& tx, const std::string& org_id,
                                                              const std::string& project_id) = 0;
  virtual Status PutSettings(Tx& tx, const AgentSettingsRow& row) = 0;

  // The reuse window, race-free: claims the bug's next batch as `batch_id`
  // unless its latest batch is younger than `window_ms` (created after
  // now - window_ms), then answers that one. Concurrent callers on one bug
  // serialize on its state row (PostgreSQL row lock, SQLite's one writer):
  // exactly one claims.
  virtual Result<NotifyClaim> ClaimNotify(Tx& tx, const std::string& org_id, const std::string& project_id,
                                          const std::string& bug_id, const std::string& batch_id,
                                          int64_t now_ms, int64_t window_ms) = 0;
  virtual Status InsertBatch(Tx& tx, const NotifyBatch& batch) = 0;
  virtual Status InsertRows(Tx& tx, const std::vector<AgentNotificationRow>& rows) = 0;
  virtual Result<std::optional<NotifyBatch>> GetBatch(Tx& tx, const std::string& org_id,
                                                      const std::string& batch_id) = 0;
  // The rows of a batch, in creation order (then id).
  virtual Result<std::vector<AgentNotificationRow>> BatchRows(Tx& tx, const std::string& org_id,
                                                              const std::string& batch_id) = 0;
  // The bug's batches, newest first, at most `limit`.
  virtual Result<std::vector<NotifyBatch>> Batches(Tx& tx, const std::string& org_id,
                                                   const std::string& bug_id, int64_t limit) = 0;

  // The bug's agent state; nullopt: never notified nor acknowledged.
  virtual Result<std::optional<AgentState>> GetState(Tx& tx, const std::string& org_id,
                                                     const std::string& bug_id) = 0;
  // Writes the ack and prUrl fields of `state` (creating the row if needed),
  // and mirrors ack, ack_by and pr_url into the bug's own agent_ack,
  // agent_ack_by and agent_pr_url columns (Spec 1's bug fields).
  virtual Status PutAck(Tx& tx, const AgentState& state, int64_t now_ms) = 0;
  virtual Status InsertAck(Tx& tx, const AckRecord& ack) = 0;
  // The bug's acks, newest first, at most `limit`.
  virtual Result<std::vector<AckRecord>> Acks(Tx& tx, const std::string& org_id, const std::string& bug_id,
                                              int64_t limit) = 0;

  // MCP rows of a project (channel mcp) created at or after `since_ms`,
  // strictly after `after` when given (ordered by creation time, then id),
  // queued ones only when `queued_only`; at most `limit`, with their bug's
  // title and severity.
  struct ListenQuery {
    std::string org_id;
    std::string project_id;
    int64_t since_ms = 0;
    std::optional<int64_t> after_at;
    std::string after_id;
    bool queued_only = false;
    int64_t limit = 100;
  };
  virtual Result<std::vector<ListenRow>> Listen(Tx& tx, const ListenQuery& q) = 0;
  // Marks the queued rows among `ids` delivered at `now_ms`.
  virtual Status MarkDelivered(Tx& tx, const std::vector<std::string>& ids, int64_t now_ms) = 0;

  // A savepoint inside the caller's transaction (auto-notify runs inside
  // capture's: a failure there is undone without failing capture).
  // Rollback returns to it and keeps it; Release forgets it.
  virtual Status Savepoint(Tx& tx) = 0;
  virtual Status RollbackToSavepoint(Tx& tx) = 0;
  virtual Status ReleaseSavepoint(Tx& tx) = 0;
};

}  // namespace service::ports
