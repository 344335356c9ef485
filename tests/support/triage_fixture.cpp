#include "support/triage_fixture.h"

#include "modules/platform.h"
#include "service_internal.h"

namespace service::testing {
namespace {

modules::Platform& PlatformOf(TestService& t) { return service::internal::PlatformOf(t.service()); }

}  // namespace

void SetBugStatus(TestService& t, const std::string& bug, const std::string& status, const std::string& by) {
  modules::Platform& p = PlatformOf(t);
  const int64_t now = p.Now();
  const std::string old_status = QueryText(t, "SELECT status FROM bugs WHERE id = ?", {bug});
  ExecSql(t, "UPDATE bugs SET status = ?, resolved_at = ?, updated_at = ? WHERE id = ?",
          {status, status == "resolved" ? store::Value(now) : store::Null(), now, bug});
  if (by.empty()) return;
  ExecSql(t,
          "INSERT INTO status_history (id, bug_id, org_id, old_status, new_status, changed_by, changed_at) "
          "SELECT ?, id, org_id, ?, ?, ?, ? FROM bugs WHERE id = ?",
          {p.ids->NewId(), old_status, status, by, now, bug});
}

void AssignBug(TestService& t, const std::string& bug, const std::string& user_id) {
  ExecSql(t, "UPDATE bugs SET assigned_to = ?, updated_at = ? WHERE id = ?",
          {user_id, PlatformOf(t).Now(), bug});
}

void AddComment(TestService& t, const std::string& org_id, const std::string& bug, const std::string& user_id,
                const std::string& content) {
  modules::Platform& p = PlatformOf(t);
  ExecSql(t,
          "INSERT INTO comments (id, bug_id, org_id, user_id, content, created_at) VALUES (?, ?, ?, ?, ?, ?)",
          {p.ids->NewId(), bug, org_id, user_id, content, p.Now()});
}

void AddWatcher(TestService& t, const std::string& org_id, const std::string& bug,
                const std::string& user_id) {
  ExecSql(t, "INSERT INTO watchers (bug_id, user_id, org_id, created_at) VALUES (?, ?, ?, ?)",
          {bug, user_id, org_id, PlatformOf(t).Now()});
}

void AddNotification(TestService& t, const std::string& org_id, const std::string& user_id,
                     const std::string& bug, const std::string& type, const std::string& title) {
  modules::Platform& p = PlatformOf(t);
  ExecSql(t,
          "INSERT INTO notifications (id, user_id, org_id, type, title, bug_id, created_at) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)",
          {p.ids->NewId(), user_id, org_id, type, title, bug, p.Now()});
}

void SetNotificationPreferences(TestService& t, const std::string& org_id, const std::string& user_id,
                                const std::string& email_level) {
  ExecSql(
      t,
      "INSERT INTO notification_preferences (user_id, org_id, email_level, updated_at) VALUES (?, ?, ?, ?) "
      "ON CONFLICT DO NOTHING",
      {user_id, org_id, email_level, PlatformOf(t).Now()});
}

}  // namespace service::testing
