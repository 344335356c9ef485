// TriageRepository: the rows people attach to bugs (comments, watchers,
// status history, notifications and notification preferences) and the team
// activity read over them.
//
// Methods that change rows REQUIRE a write transaction (Database::Write);
// reads run in either. Rows are scoped by organization.
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct HistoryEntry {
  std::string id;
  std::string bug_id;
  std::string org_id;
  std::optional<std::string> old_status;
  std::string new_status;
  std::optional<std::string> note;
  std::optional<std::string> changed_by;
  int64_t changed_at = 0;
};

struct CommentRow {
  std::string id;
  std::string bug_id;
  std::string org_id;
  std::string user_id;
  std::string content;
  int64_t created_at = 0;
};

// An active member of an organization (account active, membership present).
struct ActiveMember {
  std::string user_id;
  std::string email;
  std::string name;
};

struct NotificationRow {
  std::string id;
  std::string user_id;
  std::string org_id;
  // assigned, comment, mention, status_changed; new_bug and regression are
  // alert emails (never in the in-app list: in_app false).
  std::string type;
  std::string title;
  std::string body;
  std::optional<std::string> bug_id;
  std::optional<std::string> actor_id;
  bool read = false;
  bool in_app = true;
  bool email_pending = false;
  int64_t created_at = 0;
  // An alert held by the project's quiet hours waits until then (no digest
  // takes it earlier); nullopt: deliverable now.
  std::optional<int64_t> deliver_at;
};

struct NotificationPreferences {
  std::string user_id;
  std::string org_id;
  std::string email_level = "full";  // full, notification, digest, off
  bool chat_enabled = false;
  std::optional<std::string> chat_webhook;
  bool in_app_enabled = true;
  std::string digest_freq = "realtime";  // realtime, hourly, daily
  int64_t updated_at = 0;
};

// A member with email waiting for a digest, and their oldest waiting item.
struct AlertRecipient {
  ActiveMember member;
  NotificationPreferences prefs;
};

struct DigestOwner {
  std::string org_id;
  std::string user_id;
  int64_t oldest_at = 0;
};

struct ActivityRecord {
  std::string type;  // comment, status_change, new_bug
  std::optional<std::string> actor_id;
  std::optional<std::string> actor_name;
  std::optional<std::string> actor_email;
  std::string bug_id;
  std::string bug_title;
  std::optional<std::string> old_status;  // status_change
  std::string detail;                     // comment text, new status, or the bug's severity
  int64_t at = 0;
};

class TriageRepository {
 public:
  TriageRepository() = default;
  TriageRepository(const TriageRepository&) = delete;
  TriageRepository& operator=(const TriageRepository&) = delete;
  virtual ~TriageRepository() = default;

  // --- Deletion hooks ---
  // The organization's notifications and notification preferences (its
  // bugs, and with them their comments, watchers and history, cascade).
  virtual Status DeleteOrganizationRows(Tx& tx, const std::string& org_id) = 0;
  // A member leaving `org_id`: their preferences and watches there go, and
  // bugs there assigned to them become unassigned.
  virtual Status DeleteMemberRows(Tx& tx, const std::string& org_id, const std::string& user_id) = 0;
  // An account being deleted: its comments, notifications, preferences and
  // watches go; assignments, history entries and notifications it caused
  // keep their rows without naming it.
  virtual Status DeleteAccountRows(Tx& tx, const std::string& user_id) = 0;

  // --- Members ---
  // The member, when `user_id` is an active member of `org_id`.
  virtual Result<std::optional<ActiveMember>> FindActiveMember(Tx& c, const std::string& org_id,
                                                               const std::string& user_id) = 0;
  // Of `emails` (normalised), the active members of `org_id`.
  virtual Result<std::vector<ActiveMember>> ActiveMembersByEmail(Tx& c, const std::string& org_id,
                                                                 const std::vector<std::string>& emails) = 0;

  // --- Status history, comments, watchers ---
  virtual Status AddHistory(Tx& tx, const HistoryEntry& entry) = 0;
  virtual Status AddComment(Tx& tx, const CommentRow& comment) = 0;
  // Returns true when the watch is new.
  virtual Result<bool> Watch(Tx& tx, const std::string& org_id, const std::string& bug_id,
                             const std::string& user_id, int64_t now_ms) = 0;
  virtual Status Unwatch(Tx& tx, const std::string& bug_id, const std::string& user_id) = 0;
  // The bug's watchers who are active members of `org_id`, by user id.
  virtual Result<std::vector<ActiveMember>> ActiveWatchers(Tx& c, const std::string& org_id,
                                                           const std::string& bug_id) = 0;

  // --- Notifications ---
  virtual Status AddNotification(Tx& tx, const NotificationRow& n) = 0;
  // In-app notifications of the member, newest first.
  virtual Result<std::vector<NotificationRow>> ListNotifications(Tx& c, const std::string& org_id,
                                                                 const std::string& user_id, bool unread_only,
                                                                 int64_t limit) = 0;
  virtual Result<int64_t> UnreadCount(Tx& c, const std::string& org_id, const std::string& user_id) = 0;
  // False when no such in-app notification of the member exists.
  virtual Result<bool> MarkRead(Tx& tx, const std::string& org_id, const std::string& user_id,
                                const std::string& id) = 0;
  virtual Status MarkAllRead(Tx& tx, const std::string& org_id, const std::string& user_id) = 0;

  // --- Preferences ---
  virtual Result<std::optional<NotificationPreferences>> FindPreferences(Tx& c, const std::string& org_id,
                                                                         const std::string& user_id) = 0;
  virtual Status SavePreferences(Tx& tx, const NotificationPreferences& p) = 0;

  // --- Digests and alert emails ---
  // Members of any organization with email waiting for a digest (items
  // whose deliver_at is after `now_ms` do not count yet).
  virtual Result<std::vector<DigestOwner>> DigestOwners(Tx& c, int64_t now_ms, int64_t limit) = 0;
  // Takes (clears the pending mark of) the member's items deliverable at
  // `now_ms`, oldest first; another process taking them concurrently gets
  // none.
  virtual Result<std::vector<NotificationRow>> TakeDigest(Tx& tx, const std::string& org_id,
                                                          const std::string& user_id, int64_t now_ms) = 0;
  // The organization's active members with their preferences (the defaults
  // where none are saved), by email: the recipients of alert emails.
  virtual Result<std::vector<AlertRecipient>> AlertRecipients(Tx& c, const std::string& org_id) = 0;

  // --- Activity ---
  // Comments, status changes and new bugs of the organization, newest first.
  virtual Result<std::vector<ActivityRecord>> Activity(Tx& c, const std::string& org_id, int64_t limit) = 0;
};

}  // namespace service::ports
