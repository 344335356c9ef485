// AccountDataRepository: read models over the bug tables for one account:
// the "what's new" feed of an organization (Spec 1 GET /v1/auth/whats-new),
// the data export bundle and the personal rows removed on account deletion.
//
// Thread-safety: stateless; safe from any thread. Methods taking `tx` run
// inside the caller's Database::Write (REQUIRES).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct WhatsNewItem {
  std::string type;  // new_bug, regression, resolved
  std::string bug_id;
  std::string title;
  std::string severity;
  int64_t ts = 0;  // Unix ms
};

struct WhatsNew {
  std::vector<WhatsNewItem> items;  // newest first, at most the limit
  int64_t new_bugs = 0;             // counts over everything since, not just items
  int64_t regressions = 0;
  int64_t resolved = 0;
};

struct ExportedComment {
  std::string id, bug_id, org_id, content;
  int64_t created_at = 0;
};
struct ExportedNotification {
  std::string id, org_id, type, title, body;
  std::optional<std::string> bug_id;
  bool read = false;
  int64_t created_at = 0;
};
struct ExportedPreferences {
  std::string org_id, email_level, digest_freq;
  bool chat_enabled = false, in_app_enabled = true;
  std::optional<std::string> chat_webhook;
  int64_t updated_at = 0;
};
struct ExportedWatch {
  std::string bug_id, org_id;
  int64_t created_at = 0;
};
struct ExportedAssignment {
  std::string bug_id, org_id, title, status;
};

struct AccountData {
  std::vector<ExportedComment> comments;
  std::vector<ExportedNotification> notifications;
  std::vector<ExportedPreferences> preferences;
  std::vector<ExportedWatch> watching;
  std::vector<ExportedAssignment> assigned_bugs;
};

class AccountDataRepository {
 public:
  AccountDataRepository() = default;
  AccountDataRepository(const AccountDataRepository&) = delete;
  AccountDataRepository& operator=(const AccountDataRepository&) = delete;
  virtual ~AccountDataRepository() = default;

  // Live-namespace, unmerged bugs of the organization created, reopened
  // after resolution (regression) or resolved after `since_ms`.
  virtual Result<WhatsNew> WhatsNewSince(Tx& c, const std::string& org_id, int64_t since_ms, int limit) = 0;
  // Everything the account wrote or owns beyond its user row and memberships.
  virtual Result<AccountData> Export(Tx& c, const std::string& user_id) = 0;
  // Clears the account's name as the inviter on invitations and memberships
  // (before the account is deleted).
  virtual Status ClearInviter(Tx& tx, const std::string& user_id) = 0;
};

}  // namespace service::ports
