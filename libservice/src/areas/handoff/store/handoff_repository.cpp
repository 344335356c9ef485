// SQL behind ports::HandoffRepository and ports::AgentListeners (one text
// for both backends).
#include "areas/handoff/ports/handoff_repository.h"
#include "areas/handoff/ports/agent_listeners.h"
#include "areas/handoff/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kBatchColumns =
    "SELECT id, org_id, project_id, bug_id, trigger_kind, no_channel, actor, created_at FROM "
    "agent_notify_batches";

constexpr std::string_view kRowColumns =
    "n.id, n.batch_id, n.org_id, n.project_id, n.bug_id, n.trigger_kind, n.channel, n.channel_name, "
    "n.integration_id, n.delivery_id, n.status, n.detail, n.created_at, n.delivered_at";
constexpr size_t kRowColumnCount = 14;

constexpr std::string_view kStateColumns =
    "SELECT bug_id, org_id, project_id, ack, ack_by, ack_note, ack_at, pr_url, pr_at, last_batch_id, "
    "last_notify_at FROM bug_agent_state";

constexpr std::string_view kAckColumns =
    "SELECT id, org_id, bug_id, ack_action, pr_url, actor, note, created_at FROM agent_acks";

constexpr std::string_view kSavepoint = "handoff_guard";

Value OptInt(const std::optional<int64_t>& v) { return v ? Value(*v) : Value(nullptr); }

ports::NotifyBatch BatchAt(const Rows& r, size_t i) {
  return ports::NotifyBatch{r.Str(i, 0), r.Str(i, 1),  r.Str(i, 2), r.Str(i, 3),
                            r.Str(i, 4), r.Bool(i, 5), r.Str(i, 6), r.Int(i, 7)};
}

ports::AgentNotificationRow RowAt(const Rows& r, size_t i) {
  ports::AgentNotificationRow n;
  n.id = r.Str(i, 0);
  n.batch_id = r.Str(i, 1);
  n.org_id = r.Str(i, 2);
  n.project_id = r.Str(i, 3);
  n.bug_id = r.Str(i, 4);
  n.trigger = r.Str(i, 5);
  n.channel = r.OptStr(i, 6);
  n.channel_name = r.OptStr(i, 7);
  n.integration_id = r.OptStr(i, 8);
  n.delivery_id = r.OptStr(i, 9);
  n.status = r.Str(i, 10);
  n.detail = r.OptStr(i, 11);
  n.created_at = r.Int(i, 12);
  n.delivered_at = r.OptInt(i, 13);
  return n;
}

ports::AckRecord AckAt(const Rows& r, size_t i) {
  return ports::AckRecord{r.Str(i, 0),    r.Str(i, 1), r.Str(i, 2),    r.Str(i, 3),
                          r.OptStr(i, 4), r.Str(i, 5), r.OptStr(i, 6), r.Int(i, 7)};
}

class SqlHandoffRepository final : public ports::HandoffRepository {
 public:
  Result<std::optional<ports::AgentSettingsRow>> GetSettings(ports::Tx& t, const std::string& org_id,
                                                             const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT project_id, org_id, auto_notify, min_severity, updated_at, "
                                     "updated_by FROM agent_settings WHERE project_id = ? AND org_id = ?",
                                     {project_id, org_id}));
    if (r.empty()) return std::optional<ports::AgentSettingsRow>();
    return std::optional<ports::AgentSettingsRow>(ports::AgentSettingsRow{
        r.Str(0, 0), r.Str(0, 1), r.Bool(0, 2), r.Str(0, 3), r.Int(0, 4), r.Str(0, 5)});
  }

  Status PutSettings(ports::Tx& t, const ports::AgentSettingsRow& s) override {
    return Sql(t)
        .Exec(
            "INSERT INTO agent_settings (project_id, org_id, auto_notify, min_severity, updated_at, "
            "updated_by) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (project_id) DO UPDATE SET auto_notify = "
            "excluded.auto_notify, min_severity = excluded.min_severity, updated_at = excluded.updated_at, "
            "updated_by = excluded.updated_by",
            {s.project_id, s.org_id, Bool(s.auto_notify), s.min_severity, s.updated_at, s.updated_by})
        .status();
  }

  Result<ports::NotifyClaim> ClaimNotify(ports::Tx& t, const std::string& org_id,
                                         const std::string& project_id, const std::string& bug_id,
                                         const std::string& batch_id, int64_t now_ms,
                                         int64_t window_ms) override {
    Connection& c = Sql(t);
    SV_RETURN_IF_ERROR(c.Exec("INSERT INTO bug_agent_state (bug_id, org_id, project_id, updated_at) "
                              "VALUES (?, ?, ?, ?) ON CONFLICT (bug_id) DO NOTHING",
                              {bug_id, org_id, project_id, now_ms})
                           .status());
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        c.Exec("UPDATE bug_agent_state SET last_batch_id = ?, last_notify_at = ?, updated_at = ? "
               "WHERE bug_id = ? AND org_id = ? AND (last_notify_at IS NULL OR last_notify_at <= ?)",
               {batch_id, now_ms, now_ms, bug_id, org_id, now_ms - window_ms}));
    ports::NotifyClaim claim;
    if (n > 0) {
      claim.claimed = true;
      return claim;
    }
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query("SELECT last_batch_id FROM bug_agent_state WHERE bug_id = ? AND org_id = ?",
                                {bug_id, org_id}));
    if (!r.empty()) claim.earlier_batch_id = r.Str(0, 0);
    return claim;
  }

  Status InsertBatch(ports::Tx& t, const ports::NotifyBatch& b) override {
    return Sql(t)
        .Exec(
            "INSERT INTO agent_notify_batches (id, org_id, project_id, bug_id, trigger_kind, no_channel, "
            "actor, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            {b.id, b.org_id, b.project_id, b.bug_id, b.trigger, Bool(b.no_channel), b.actor, b.created_at})
        .status();
  }

  Status InsertRows(ports::Tx& t, const std::vector<ports::AgentNotificationRow>& rows) override {
    Connection& c = Sql(t);
    for (const ports::AgentNotificationRow& n : rows) {
      SV_RETURN_IF_ERROR(
          c.Exec("INSERT INTO agent_notifications (id, batch_id, org_id, project_id, bug_id, trigger_kind, "
                 "channel, channel_name, integration_id, delivery_id, status, detail, created_at, "
                 "delivered_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 {n.id, n.batch_id, n.org_id, n.project_id, n.bug_id, n.trigger, OptText(n.channel),
                  OptText(n.channel_name), OptText(n.integration_id), OptText(n.delivery_id), n.status,
                  OptText(n.detail), n.created_at, OptInt(n.delivered_at)})
              .status());
    }
    return Status::Ok();
  }

  Result<std::optional<ports::NotifyBatch>> GetBatch(ports::Tx& t, const std::string& org_id,
                                                     const std::string& batch_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string(kBatchColumns) + " WHERE id = ? AND org_id = ?",
                                             {batch_id, org_id}));
    if (r.empty()) return std::optional<ports::NotifyBatch>();
    return std::optional<ports::NotifyBatch>(BatchAt(r, 0));
  }

  Result<std::vector<ports::AgentNotificationRow>> BatchRows(ports::Tx& t, const std::string& org_id,
                                                             const std::string& batch_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT " + std::string(kRowColumns) +
                                         " FROM agent_notifications n WHERE n.batch_id = ? AND n.org_id = ? "
                                         "ORDER BY n.created_at, n.id",
                                     {batch_id, org_id}));
    std::vector<ports::AgentNotificationRow> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back(RowAt(r, i));
    return out;
  }

  Result<std::vector<ports::NotifyBatch>> Batches(ports::Tx& t, const std::string& org_id,
                                                  const std::string& bug_id, int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kBatchColumns) +
                                         " WHERE bug_id = ? AND org_id = ? ORDER BY created_at DESC, id DESC "
                                         "LIMIT ?",
                                     {bug_id, org_id, limit}));
    std::vector<ports::NotifyBatch> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back(BatchAt(r, i));
    return out;
  }

  Result<std::optional<ports::AgentState>> GetState(ports::Tx& t, const std::string& org_id,
                                                    const std::string& bug_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string(kStateColumns) + " WHERE bug_id = ? AND org_id = ?",
                                             {bug_id, org_id}));
    if (r.empty()) return std::optional<ports::AgentState>();
    ports::AgentState s;
    s.bug_id = r.Str(0, 0);
    s.org_id = r.Str(0, 1);
    s.project_id = r.Str(0, 2);
    s.ack = r.OptStr(0, 3);
    s.ack_by = r.OptStr(0, 4);
    s.ack_note = r.OptStr(0, 5);
    s.ack_at = r.OptInt(0, 6);
    s.pr_url = r.OptStr(0, 7);
    s.pr_at = r.OptInt(0, 8);
    s.last_batch_id = r.OptStr(0, 9);
    s.last_notify_at = r.OptInt(0, 10);
    return std::optional<ports::AgentState>(std::move(s));
  }

  Status PutAck(ports::Tx& t, const ports::AgentState& s, int64_t now_ms) override {
    Connection& c = Sql(t);
    SV_RETURN_IF_ERROR(c.Exec("INSERT INTO bug_agent_state (bug_id, org_id, project_id, updated_at) "
                              "VALUES (?, ?, ?, ?) ON CONFLICT (bug_id) DO NOTHING",
                              {s.bug_id, s.org_id, s.project_id, now_ms})
                           .status());
    SV_RETURN_IF_ERROR(c.Exec("UPDATE bug_agent_state SET ack = ?, ack_by = ?, ack_note = ?, ack_at = ?, "
                              "pr_url = ?, pr_at = ?, updated_at = ? WHERE bug_id = ? AND org_id = ?",
                              {OptText(s.ack), OptText(s.ack_by), OptText(s.ack_note), OptInt(s.ack_at),
                               OptText(s.pr_url), OptInt(s.pr_at), now_ms, s.bug_id, s.org_id})
                           .status());
    // Spec 1's bug fields (columns of capture's bugs table, written only here).
    return c
        .Exec("UPDATE bugs SET agent_ack = ?, agent_ack_by = ?, agent_pr_url = ? WHERE id = ? AND org_id = ?",
              {OptText(s.ack), OptText(s.ack_by), OptText(s.pr_url), s.bug_id, s.org_id})
        .status();
  }

  Status InsertAck(ports::Tx& t, const ports::AckRecord& a) override {
    return Sql(t)
        .Exec(
            "INSERT INTO agent_acks (id, org_id, bug_id, ack_action, pr_url, actor, note, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            {a.id, a.org_id, a.bug_id, a.action, OptText(a.pr_url), a.actor, OptText(a.note), a.created_at})
        .status();
  }

  Result<std::vector<ports::AckRecord>> Acks(ports::Tx& t, const std::string& org_id,
                                             const std::string& bug_id, int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kAckColumns) +
                                         " WHERE bug_id = ? AND org_id = ? ORDER BY created_at DESC, id DESC "
                                         "LIMIT ?",
                                     {bug_id, org_id, limit}));
    std::vector<ports::AckRecord> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back(AckAt(r, i));
    return out;
  }

  Result<std::vector<ports::ListenRow>> Listen(ports::Tx& t, const ListenQuery& q) override {
    std::string sql = "SELECT " + std::string(kRowColumns) +
                      ", b.title, b.severity FROM agent_notifications n JOIN bugs b ON b.id = n.bug_id "
                      "WHERE n.project_id = ? AND n.org_id = ? AND n.channel = 'mcp' AND n.created_at >= ?";
    std::vector<Value> params{q.project_id, q.org_id, q.since_ms};
    if (q.after_at) {
      sql += " AND (n.created_at > ? OR (n.created_at = ? AND n.id > ?))";
      params.emplace_back(*q.after_at);
      params.emplace_back(*q.after_at);
      params.emplace_back(q.after_id);
    }
    if (q.queued_only) sql += " AND n.status = 'queued'";
    sql += " ORDER BY n.created_at, n.id LIMIT ?";
    params.emplace_back(q.limit);
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(sql, params));
    std::vector<ports::ListenRow> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back(ports::ListenRow{RowAt(r, i), r.Str(i, kRowColumnCount), r.Str(i, kRowColumnCount + 1)});
    }
    return out;
  }

  Status MarkDelivered(ports::Tx& t, const std::vector<std::string>& ids, int64_t now_ms) override {
    Connection& c = Sql(t);
    for (const std::string& id : ids) {
      SV_RETURN_IF_ERROR(c.Exec("UPDATE agent_notifications SET status = 'delivered', delivered_at = ? "
                                "WHERE id = ? AND status = 'queued'",
                                {now_ms, id})
                             .status());
    }
    return Status::Ok();
  }

  Status Savepoint(ports::Tx& t) override {
    return Sql(t).ExecScript("SAVEPOINT " + std::string(kSavepoint));
  }
  Status RollbackToSavepoint(ports::Tx& t) override {
    return Sql(t).ExecScript("ROLLBACK TO SAVEPOINT " + std::string(kSavepoint));
  }
  Status ReleaseSavepoint(ports::Tx& t) override {
    return Sql(t).ExecScript("RELEASE SAVEPOINT " + std::string(kSavepoint));
  }
};

class SqlAgentListeners final : public ports::AgentListeners {
 public:
  Result<bool> HasListener(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                           int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query("SELECT 1 FROM agent_tokens t JOIN agent_token_grants g ON g.token_id = t.id "
                     "JOIN users u ON u.id = t.created_by "
                     "JOIN memberships m ON m.org_id = t.org_id AND m.user_id = t.created_by "
                     "WHERE t.org_id = ? AND g.project_id = ? AND t.revoked_at IS NULL AND t.expires_at > ? "
                     "AND (g.expires_at IS NULL OR g.expires_at > ?) AND u.status = 'active' "
                     "AND (' ' || t.scopes || ' ') LIKE '% subscribe %' LIMIT 1",
                     {org_id, project_id, now_ms, now_ms}));
    return !r.empty();
  }

  Result<std::optional<std::string>> TokenName(ports::Tx& t, const std::string& org_id,
                                               const std::string& token_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT name FROM agent_tokens WHERE id = ? AND org_id = ?",
                                             {token_id, org_id}));
    if (r.empty() || r.Str(0, 0).empty()) return std::optional<std::string>();
    return std::optional<std::string>(r.Str(0, 0));
  }
};

}  // namespace

std::unique_ptr<ports::HandoffRepository> NewSqlHandoffRepository() {
  return std::make_unique<SqlHandoffRepository>();
}

std::unique_ptr<ports::AgentListeners> NewSqlAgentListeners() {
  return std::make_unique<SqlAgentListeners>();
}

}  // namespace service::store
