#include "areas/accounts/ports/account_data_repository.h"
#include "areas/accounts/store/repositories.h"
#include "store/database.h"

#include <algorithm>

namespace service::store {
namespace {

// Live-namespace bugs that still stand on their own (not merged away).
constexpr const char* kLiveBug = "b.key_env = 'live' AND b.merged_into IS NULL";

struct FeedQuery {
  const char* type;
  std::string count_sql;
  std::string items_sql;
};

std::vector<FeedQuery> FeedQueries() {
  const std::string live = kLiveBug;
  // A regression is a transition out of `resolved`; a resolution one into it.
  const std::string history_from =
      " FROM status_history h JOIN bugs b ON b.id = h.bug_id WHERE h.org_id = ? AND b.org_id = h.org_id AND "
      "h.changed_at > ? AND " +
      live + " AND ";
  const std::string regression = "h.old_status = 'resolved' AND h.new_status <> 'resolved'";
  const std::string resolved =
      "h.new_status = 'resolved' AND (h.old_status IS NULL OR h.old_status <> 'resolved')";
  return {
      {"new_bug", "SELECT COUNT(*) FROM bugs b WHERE b.org_id = ? AND b.created_at > ? AND " + live,
       "SELECT b.id, b.title, b.severity, b.created_at FROM bugs b WHERE b.org_id = ? AND b.created_at > ? "
       "AND " +
           live + " ORDER BY b.created_at DESC, b.id DESC LIMIT ?"},
      {"regression", "SELECT COUNT(DISTINCT h.bug_id)" + history_from + regression,
       "SELECT b.id, b.title, b.severity, MAX(h.changed_at) AS ts" + history_from + regression +
           " GROUP BY b.id, b.title, b.severity ORDER BY ts DESC, b.id DESC LIMIT ?"},
      {"resolved", "SELECT COUNT(DISTINCT h.bug_id)" + history_from + resolved,
       "SELECT b.id, b.title, b.severity, MAX(h.changed_at) AS ts" + history_from + resolved +
           " GROUP BY b.id, b.title, b.severity ORDER BY ts DESC, b.id DESC LIMIT ?"},
  };
}

class SqlAccountDataRepository final : public ports::AccountDataRepository {
 public:
  Result<ports::WhatsNew> WhatsNewSince(ports::Tx& c_tx, const std::string& org_id, int64_t since_ms,
                                        int limit) override {
    Connection& c = Sql(c_tx);
    static const std::vector<FeedQuery> kQueries = FeedQueries();
    ports::WhatsNew out;
    for (const FeedQuery& q : kQueries) {
      SV_ASSIGN_OR_RETURN(Rows n, c.Query(q.count_sql, {org_id, since_ms}));
      const std::string_view type = q.type;
      (type == "new_bug"      ? out.new_bugs
       : type == "regression" ? out.regressions
                              : out.resolved) = n.Int(0, 0);
      SV_ASSIGN_OR_RETURN(Rows r, c.Query(q.items_sql, {org_id, since_ms, int64_t{limit}}));
      for (size_t i = 0; i < r.size(); ++i) {
        out.items.push_back({q.type, r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Int(i, 3)});
      }
    }
    std::sort(out.items.begin(), out.items.end(),
              [](const ports::WhatsNewItem& a, const ports::WhatsNewItem& b) {
                if (a.ts != b.ts) return a.ts > b.ts;
                if (a.bug_id != b.bug_id) return a.bug_id > b.bug_id;
                return a.type < b.type;
              });
    if (out.items.size() > static_cast<size_t>(limit)) out.items.resize(static_cast<size_t>(limit));
    return out;
  }

  Result<ports::AccountData> Export(ports::Tx& c_tx, const std::string& user_id) override {
    Connection& c = Sql(c_tx);
    ports::AccountData d;
    SV_ASSIGN_OR_RETURN(Rows cm, c.Query("SELECT id, bug_id, org_id, content, created_at FROM comments "
                                         "WHERE user_id = ? ORDER BY created_at, id",
                                         {user_id}));
    for (size_t i = 0; i < cm.size(); ++i) {
      d.comments.push_back({cm.Str(i, 0), cm.Str(i, 1), cm.Str(i, 2), cm.Str(i, 3), cm.Int(i, 4)});
    }
    SV_ASSIGN_OR_RETURN(Rows n, c.Query("SELECT id, org_id, type, title, body, bug_id, read, created_at "
                                        "FROM notifications WHERE user_id = ? ORDER BY created_at, id",
                                        {user_id}));
    for (size_t i = 0; i < n.size(); ++i) {
      ports::ExportedNotification e;
      e.id = n.Str(i, 0);
      e.org_id = n.Str(i, 1);
      e.type = n.Str(i, 2);
      e.title = n.Str(i, 3);
      e.body = n.Str(i, 4);
      e.bug_id = n.OptStr(i, 5);
      e.read = n.Bool(i, 6);
      e.created_at = n.Int(i, 7);
      d.notifications.push_back(std::move(e));
    }
    SV_ASSIGN_OR_RETURN(Rows p,
                        c.Query("SELECT org_id, email_level, digest_freq, chat_enabled, in_app_enabled, "
                                "chat_webhook, updated_at FROM notification_preferences WHERE user_id = ? "
                                "ORDER BY org_id",
                                {user_id}));
    for (size_t i = 0; i < p.size(); ++i) {
      ports::ExportedPreferences e;
      e.org_id = p.Str(i, 0);
      e.email_level = p.Str(i, 1);
      e.digest_freq = p.Str(i, 2);
      e.chat_enabled = p.Bool(i, 3);
      e.in_app_enabled = p.Bool(i, 4);
      e.chat_webhook = p.OptStr(i, 5);
      e.updated_at = p.Int(i, 6);
      d.preferences.push_back(std::move(e));
    }
    SV_ASSIGN_OR_RETURN(Rows w, c.Query("SELECT bug_id, org_id, created_at FROM watchers WHERE user_id = ? "
                                        "ORDER BY created_at, bug_id",
                                        {user_id}));
    for (size_t i = 0; i < w.size(); ++i) d.watching.push_back({w.Str(i, 0), w.Str(i, 1), w.Int(i, 2)});
    SV_ASSIGN_OR_RETURN(Rows a, c.Query("SELECT id, org_id, title, status FROM bugs WHERE assigned_to = ? "
                                        "ORDER BY created_at, id",
                                        {user_id}));
    for (size_t i = 0; i < a.size(); ++i) {
      d.assigned_bugs.push_back({a.Str(i, 0), a.Str(i, 1), a.Str(i, 2), a.Str(i, 3)});
    }
    return d;
  }

  Status ClearInviter(ports::Tx& tx_tx, const std::string& user_id) override {
    Connection& tx = Sql(tx_tx);
    static constexpr const char* kStatements[] = {
        "UPDATE invitations SET invited_by = NULL WHERE invited_by = ?",
        "UPDATE memberships SET invited_by = NULL WHERE invited_by = ?",
    };
    for (const char* sql : kStatements) SV_RETURN_IF_ERROR(tx.Exec(sql, {user_id}).status());
    return Status::Ok();
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::AccountDataRepository> NewSqlAccountDataRepository() {
  return std::make_unique<store::SqlAccountDataRepository>();
}
}  // namespace service::store
