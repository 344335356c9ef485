// BugStatusRepository: the status write of a grouped bug (triage), scoped by
// organization. Used by the demo seeding now and by the triage routes later.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

class BugStatusRepository {
 public:
  BugStatusRepository() = default;
  BugStatusRepository(const BugStatusRepository&) = delete;
  BugStatusRepository& operator=(const BugStatusRepository&) = delete;
  virtual ~BugStatusRepository() = default;

  // Sets the bug's status (resolved_at set when `status` is "resolved",
  // cleared otherwise) and returns the previous status; nullopt when the bug
  // is not in `org_id`. REQUIRES: inside Database::Write.
  virtual Result<std::optional<std::string>> SetStatus(Tx& tx, const std::string& org_id,
                                                       const std::string& bug_id, const std::string& status,
                                                       int64_t now_ms) = 0;
};

}  // namespace service::ports
