// SQL behind ports::TriageRepository (both backends).
#include "areas/triage/ports/triage_repository.h"

#include <algorithm>

#include "areas/bugs/store/bug_sql.h"
#include "areas/triage/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

Status RunAll(Connection& tx, std::initializer_list<const char*> statements,
              const std::vector<Value>& params) {
  for (const char* sql : statements) SV_RETURN_IF_ERROR(tx.Exec(sql, params).status());
  return Status::Ok();
}

constexpr const char* kActiveMemberSelect =
    "SELECT u.id, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id "
    "WHERE m.org_id = ? AND u.status = 'active'";

std::vector<ports::ActiveMember> Members(const Rows& r) {
  std::vector<ports::ActiveMember> out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2)});
  return out;
}

constexpr const char* kNotificationColumns =
    "id, user_id, org_id, type, title, body, bug_id, actor_id, read, in_app, email_pending, created_at, "
    "deliver_at";

std::vector<ports::NotificationRow> Notifications(const Rows& r) {
  std::vector<ports::NotificationRow> out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    ports::NotificationRow n;
    n.id = r.Str(i, 0);
    n.user_id = r.Str(i, 1);
    n.org_id = r.Str(i, 2);
    n.type = r.Str(i, 3);
    n.title = r.Str(i, 4);
    n.body = r.Str(i, 5);
    n.bug_id = r.OptStr(i, 6);
    n.actor_id = r.OptStr(i, 7);
    n.read = r.Bool(i, 8);
    n.in_app = r.Bool(i, 9);
    n.email_pending = r.Bool(i, 10);
    n.created_at = r.Int(i, 11);
    n.deliver_at = r.OptInt(i, 12);
    out.push_back(std::move(n));
  }
  return out;
}

class SqlTriageRepository final : public ports::TriageRepository {
 public:
  Status DeleteOrganizationRows(ports::Tx& t, const std::string& org_id) override {
    return RunAll(Sql(t),
                  {"DELETE FROM notifications WHERE org_id = ?",
                   "DELETE FROM notification_preferences WHERE org_id = ?"},
                  {org_id});
  }

  Status DeleteMemberRows(ports::Tx& t, const std::string& org_id, const std::string& user_id) override {
    return RunAll(Sql(t),
                  {"DELETE FROM notification_preferences WHERE org_id = ? AND user_id = ?",
                   "UPDATE bugs SET assigned_to = NULL WHERE org_id = ? AND assigned_to = ?",
                   "DELETE FROM watchers WHERE org_id = ? AND user_id = ?"},
                  {org_id, user_id});
  }

  Status DeleteAccountRows(ports::Tx& t, const std::string& user_id) override {
    return RunAll(
        Sql(t),
        {"DELETE FROM comments WHERE user_id = ?", "DELETE FROM notifications WHERE user_id = ?",
         "UPDATE notifications SET actor_id = NULL WHERE actor_id = ?",
         "DELETE FROM notification_preferences WHERE user_id = ?", "DELETE FROM watchers WHERE user_id = ?",
         "UPDATE bugs SET assigned_to = NULL WHERE assigned_to = ?",
         "UPDATE status_history SET changed_by = NULL WHERE changed_by = ?"},
        {user_id});
  }

  Result<std::optional<ports::ActiveMember>> FindActiveMember(ports::Tx& t, const std::string& org_id,
                                                              const std::string& user_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kActiveMemberSelect) + " AND u.id = ?", {org_id, user_id}));
    if (r.empty()) return std::optional<ports::ActiveMember>();
    return std::optional<ports::ActiveMember>(Members(r).front());
  }

  Result<std::vector<ports::ActiveMember>> ActiveMembersByEmail(
      ports::Tx& t, const std::string& org_id, const std::vector<std::string>& emails) override {
    if (emails.empty()) return std::vector<ports::ActiveMember>();
    const std::string sql = std::string(kActiveMemberSelect) + " AND u.email IN (" +
                            Placeholders(emails.size()) + ") ORDER BY u.email";
    std::vector<Value> params{org_id};
    params.insert(params.end(), emails.begin(), emails.end());
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(sql, params));
    return Members(r);
  }

  Status AddHistory(ports::Tx& t, const ports::HistoryEntry& h) override {
    return Sql(t)
        .Exec(
            "INSERT INTO status_history (id, bug_id, org_id, old_status, new_status, note, changed_by, "
            "changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            {h.id, h.bug_id, h.org_id, OptText(h.old_status), h.new_status, OptText(h.note),
             OptText(h.changed_by), h.changed_at})
        .status();
  }

  Status AddComment(ports::Tx& t, const ports::CommentRow& c) override {
    return Sql(t)
        .Exec(
            "INSERT INTO comments (id, bug_id, org_id, user_id, content, created_at) VALUES (?, ?, ?, ?, ?, "
            "?)",
            {c.id, c.bug_id, c.org_id, c.user_id, c.content, c.created_at})
        .status();
  }

  Result<bool> Watch(ports::Tx& t, const std::string& org_id, const std::string& bug_id,
                     const std::string& user_id, int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(int64_t n, Sql(t).Exec("INSERT INTO watchers (bug_id, user_id, org_id, created_at) "
                                               "VALUES (?, ?, ?, ?) ON CONFLICT (bug_id, user_id) DO NOTHING",
                                               {bug_id, user_id, org_id, now_ms}));
    return n > 0;
  }

  Status Unwatch(ports::Tx& t, const std::string& bug_id, const std::string& user_id) override {
    return Sql(t).Exec("DELETE FROM watchers WHERE bug_id = ? AND user_id = ?", {bug_id, user_id}).status();
  }

  Result<std::vector<ports::ActiveMember>> ActiveWatchers(ports::Tx& t, const std::string& org_id,
                                                          const std::string& bug_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query(std::string(kActiveMemberSelect) +
                                 " AND u.id IN (SELECT user_id FROM watchers WHERE bug_id = ?) ORDER BY u.id",
                             {org_id, bug_id}));
    return Members(r);
  }

  Status AddNotification(ports::Tx& t, const ports::NotificationRow& n) override {
    return Sql(t)
        .Exec(std::string("INSERT INTO notifications (") + kNotificationColumns +
                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              {n.id, n.user_id, n.org_id, n.type, n.title, n.body, OptText(n.bug_id), OptText(n.actor_id),
               Bool(n.read), Bool(n.in_app), Bool(n.email_pending), n.created_at,
               n.deliver_at ? Value(*n.deliver_at) : Value(nullptr)})
        .status();
  }

  Result<std::vector<ports::NotificationRow>> ListNotifications(ports::Tx& t, const std::string& org_id,
                                                                const std::string& user_id, bool unread_only,
                                                                int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + kNotificationColumns +
                                                 " FROM notifications WHERE user_id = ? AND org_id = ? "
                                                 "AND in_app = 1" +
                                                 (unread_only ? " AND read = 0" : "") +
                                                 " ORDER BY created_at DESC, id DESC LIMIT ?",
                                             {user_id, org_id, limit}));
    return Notifications(r);
  }

  Result<int64_t> UnreadCount(ports::Tx& t, const std::string& org_id, const std::string& user_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT COUNT(*) FROM notifications WHERE user_id = ? AND org_id = ? "
                                     "AND in_app = 1 AND read = 0",
                                     {user_id, org_id}));
    return r.Int(0, 0);
  }

  Result<bool> MarkRead(ports::Tx& t, const std::string& org_id, const std::string& user_id,
                        const std::string& id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("UPDATE notifications SET read = 1 WHERE id = ? AND user_id = ? "
                                             "AND org_id = ? AND in_app = 1 RETURNING id",
                                             {id, user_id, org_id}));
    return !r.empty();
  }

  Status MarkAllRead(ports::Tx& t, const std::string& org_id, const std::string& user_id) override {
    return Sql(t)
        .Exec("UPDATE notifications SET read = 1 WHERE user_id = ? AND org_id = ? AND read = 0",
              {user_id, org_id})
        .status();
  }

  Result<std::optional<ports::NotificationPreferences>> FindPreferences(ports::Tx& t,
                                                                        const std::string& org_id,
                                                                        const std::string& user_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT email_level, chat_enabled, chat_webhook, in_app_enabled, "
                                     "digest_freq, updated_at FROM notification_preferences "
                                     "WHERE org_id = ? AND user_id = ?",
                                     {org_id, user_id}));
    if (r.empty()) return std::optional<ports::NotificationPreferences>();
    ports::NotificationPreferences p;
    p.user_id = user_id;
    p.org_id = org_id;
    p.email_level = r.Str(0, 0);
    p.chat_enabled = r.Bool(0, 1);
    p.chat_webhook = r.OptStr(0, 2);
    p.in_app_enabled = r.Bool(0, 3);
    p.digest_freq = r.Str(0, 4);
    p.updated_at = r.Int(0, 5);
    return std::optional<ports::NotificationPreferences>(std::move(p));
  }

  Result<std::vector<ports::AlertRecipient>> AlertRecipients(ports::Tx& t,
                                                             const std::string& org_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query("SELECT u.id, u.email, u.name, p.email_level, p.digest_freq, p.in_app_enabled "
                     "FROM memberships m JOIN users u ON u.id = m.user_id "
                     "LEFT JOIN notification_preferences p ON p.org_id = m.org_id AND p.user_id = u.id "
                     "WHERE m.org_id = ? AND u.status = 'active' ORDER BY u.email",
                     {org_id}));
    std::vector<ports::AlertRecipient> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      ports::AlertRecipient a;
      a.member = {r.Str(i, 0), r.Str(i, 1), r.Str(i, 2)};
      a.prefs.user_id = a.member.user_id;
      a.prefs.org_id = org_id;
      if (std::optional<std::string> level = r.OptStr(i, 3)) {
        a.prefs.email_level = *level;
        a.prefs.digest_freq = r.Str(i, 4);
        a.prefs.in_app_enabled = r.Bool(i, 5);
      }
      out.push_back(std::move(a));
    }
    return out;
  }

  Status SavePreferences(ports::Tx& t, const ports::NotificationPreferences& p) override {
    return Sql(t)
        .Exec(
            "INSERT INTO notification_preferences (user_id, org_id, email_level, chat_enabled, chat_webhook, "
            "in_app_enabled, digest_freq, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, org_id) DO UPDATE SET email_level = excluded.email_level, "
            "chat_enabled = excluded.chat_enabled, chat_webhook = excluded.chat_webhook, "
            "in_app_enabled = excluded.in_app_enabled, digest_freq = excluded.digest_freq, "
            "updated_at = excluded.updated_at",
            {p.user_id, p.org_id, p.email_level, Bool(p.chat_enabled), OptText(p.chat_webhook),
             Bool(p.in_app_enabled), p.digest_freq, p.updated_at})
        .status();
  }

  Result<std::vector<ports::DigestOwner>> DigestOwners(ports::Tx& t, int64_t now, int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT org_id, user_id, MIN(created_at) FROM notifications "
                                             "WHERE email_pending = 1 AND (deliver_at IS NULL OR "
                                             "deliver_at <= ?) GROUP BY org_id, user_id "
                                             "ORDER BY 3, 1, 2 LIMIT ?",
                                             {now, limit}));
    std::vector<ports::DigestOwner> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back({r.Str(i, 0), r.Str(i, 1), r.Int(i, 2)});
    return out;
  }

  Result<std::vector<ports::NotificationRow>> TakeDigest(ports::Tx& t, const std::string& org_id,
                                                         const std::string& user_id, int64_t now) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string("UPDATE notifications SET email_pending = 0 "
                                                 "WHERE org_id = ? AND user_id = ? AND email_pending = 1 "
                                                 "AND (deliver_at IS NULL OR deliver_at <= ?) RETURNING ") +
                                         kNotificationColumns,
                                     {org_id, user_id, now}));
    std::vector<ports::NotificationRow> out = Notifications(r);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
    });
    return out;
  }

  Result<std::vector<ports::ActivityRecord>> Activity(ports::Tx& t, const std::string& org_id,
                                                      int64_t limit) override {
    // Each leg reads at most `limit` rows through its (org_id, time) index.
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query(
            "SELECT kind, actor, bug_id, old_status, detail, at, u.name, u.email, b.title FROM ("
            "SELECT * FROM (SELECT 'comment' AS kind, c.user_id AS actor, c.bug_id AS bug_id, "
            "CAST(NULL AS TEXT) AS old_status, c.content AS detail, c.created_at AS at "
            "FROM comments c WHERE c.org_id = ? ORDER BY c.created_at DESC LIMIT ?) c1 "
            "UNION ALL SELECT * FROM (SELECT 'status_change', h.changed_by, h.bug_id, h.old_status, "
            "h.new_status, "
            "h.changed_at FROM status_history h WHERE h.org_id = ? ORDER BY h.changed_at DESC LIMIT ?) h1 "
            "UNION ALL SELECT * FROM (SELECT 'new_bug', CAST(NULL AS TEXT), nb.id, CAST(NULL AS TEXT), "
            "nb.severity, nb.created_at FROM bugs nb WHERE nb.org_id = ? AND nb.merged_into IS NULL "
            "ORDER BY nb.created_at DESC LIMIT ?) b1"
            ") a JOIN bugs b ON b.id = a.bug_id LEFT JOIN users u ON u.id = a.actor "
            "ORDER BY at DESC, kind, a.bug_id LIMIT ?",
            {org_id, limit, org_id, limit, org_id, limit, limit}));
    std::vector<ports::ActivityRecord> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      ports::ActivityRecord a;
      a.type = r.Str(i, 0);
      a.actor_id = r.OptStr(i, 1);
      a.bug_id = r.Str(i, 2);
      a.old_status = r.OptStr(i, 3);
      a.detail = r.Str(i, 4);
      a.at = r.Int(i, 5);
      if (a.actor_id) {
        a.actor_name = r.OptStr(i, 6);
        a.actor_email = r.OptStr(i, 7);
      }
      a.bug_title = r.Str(i, 8);
      out.push_back(std::move(a));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<ports::TriageRepository> NewSqlTriageRepository() {
  return std::make_unique<SqlTriageRepository>();
}

}  // namespace service::store
