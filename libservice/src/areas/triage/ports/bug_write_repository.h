// BugWriteRepository: the triage writes of a grouped bug (Spec 1 "Bugs:
// write"): its status, severity and assignee, the selection of bulk updates,
// deletion and merging. Rows are scoped by organization: a bug of another
// organization is never found. Merged bugs (merged_into set) are never
// found either.
//
// Every method that changes rows REQUIRES a write transaction (Database::
// Write); reads may run in either.
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// What a triage write needs to know of a bug.
struct BugState {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string title;
  std::string url;
  std::string severity;
  std::string status;
  std::string signal_class;
  std::optional<std::string> assigned_to;
  bool is_regression = false;
};

// The fields one PATCH sets (absent: unchanged).
struct BugChange {
  std::optional<std::string> status;
  std::optional<std::string> severity;
  // Set: the new assignee (nullopt inside: unassigned).
  std::optional<std::optional<std::string>> assigned_to;
  bool mark_regression = false;  // set is_regression
};

// What a merge adds up on the target.
struct MergeOutcome {
  int64_t merged = 0;  // source bugs removed
};

class BugWriteRepository {
 public:
  BugWriteRepository() = default;
  BugWriteRepository(const BugWriteRepository&) = delete;
  BugWriteRepository& operator=(const BugWriteRepository&) = delete;
  virtual ~BugWriteRepository() = default;

  // The bug, locked until the transaction ends (touched: PostgreSQL takes
  // the row lock; SQLite has one writer). nullopt: not in `org_id`.
  virtual Result<std::optional<BugState>> Lock(Tx& tx, const std::string& org_id, const std::string& bug_id,
                                               int64_t now_ms) = 0;
  // Applies `change` (status "resolved" sets resolved_at = now, any other
  // status clears it).
  virtual Status Apply(Tx& tx, const std::string& bug_id, const BugChange& change, int64_t now_ms) = 0;
  // Of `ids`, those that are unmerged bugs of `org_id` (any order).
  virtual Result<std::vector<std::string>> Existing(Tx& c, const std::string& org_id,
                                                    const std::vector<std::string>& ids) = 0;
  // The unmerged bugs of `project_id` (in `org_id`) whose group key is `group_key`.
  virtual Result<std::vector<std::string>> GroupMembers(Tx& c, const std::string& org_id,
                                                        const std::string& project_id,
                                                        const std::string& group_key) = 0;
  // The organization's projects holding an unmerged bug of `group_key`.
  virtual Result<std::vector<std::string>> GroupProjects(Tx& c, const std::string& org_id,
                                                         const std::string& group_key) = 0;
  // True when `project_id` belongs to `org_id`.
  virtual Result<bool> ProjectInOrg(Tx& c, const std::string& org_id, const std::string& project_id) = 0;
  // Deletes the bug and everything that hangs off it.
  virtual Status Delete(Tx& tx, const std::string& bug_id) = 0;
  // Moves everything of `sources` to `target` (occurrences and their events,
  // reporters, users and sessions, comments, watchers, status history,
  // notifications' bug), adds their report counts, widens first and last
  // seen, recounts the target's participants, and deletes the sources.
  // REQUIRES: every id exists, unmerged, in one organization.
  virtual Status Merge(Tx& tx, const std::string& target, const std::vector<std::string>& sources,
                       int64_t now_ms) = 0;
};

}  // namespace service::ports
