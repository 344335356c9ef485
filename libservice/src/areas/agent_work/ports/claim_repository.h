// ClaimRepository: the fenced work claims of agent tokens (domain/claims.h),
// the per-issue counters that number them, and the merge record that sends
// a merged-away issue to its target.
//
// Every method names the organization; another organization's claim or
// issue reads as absent and is never changed. Writes REQUIRE the caller's
// Transactions::WriteAlone (or Write), reads its Read or Write.
//
// Exactly one live holder per issue: a command on an issue calls LockIssue
// first, before it reads any claim of that issue, and runs its whole change
// in that one transaction. The lock is the issue's agent_claim_issues row,
// taken with an UPDATE (PostgreSQL: held until the transaction ends, so
// concurrent commands on one issue, in this process or another, take turns
// and each reads what its predecessor committed; SQLite has one writer). A
// transaction locks at most one issue. Behind it, a unique partial index
// allows one `active` row per issue (a bug in the use case fails with
// kConflict instead of granting a second lease).
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status (kConflict on a duplicate key).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct ClaimRow {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string issue_id;
  int64_t generation = 0;
  int64_t fencing_token = 0;
  std::string token_id;  // the agent token that claimed it
  std::string user_id;   // the token's creator
  std::string status;    // active, released, completed, expired (as stored)
  int64_t ttl_seconds = 0;
  int64_t expires_at = 0;
  std::optional<int64_t> ended_at;
  std::optional<std::string> receipt_id;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

// The last generation and fencing token handed out for an issue (0, 0
// before its first claim).
struct IssueCounters {
  int64_t generation = 0;
  int64_t fencing_token = 0;
};

class ClaimRepository {
 public:
  ClaimRepository() = default;
  ClaimRepository(const ClaimRepository&) = delete;
  ClaimRepository& operator=(const ClaimRepository&) = delete;
  virtual ~ClaimRepository() = default;

  // Takes the issue's lock until the transaction ends (see above), making
  // its counter row on the first claim, and returns its counters.
  virtual Result<IssueCounters> LockIssue(Tx& tx, const std::string& org_id, const std::string& project_id,
                                          const std::string& issue_id, int64_t now_ms) = 0;
  // Stores the issue's new counters. REQUIRES: LockIssue in this transaction.
  virtual Status SetCounters(Tx& tx, const std::string& org_id, const std::string& issue_id,
                             const IssueCounters& counters) = 0;

  // The issue's claim with the highest generation, or nullopt.
  virtual Result<std::optional<ClaimRow>> Latest(Tx& c, const std::string& org_id,
                                                 const std::string& issue_id) = 0;
  virtual Result<std::optional<ClaimRow>> Find(Tx& c, const std::string& org_id,
                                               const std::string& claim_id) = 0;
  // Inserts `row` as given. A second active row for its issue, or an
  // existing id: kConflict.
  virtual Status Insert(Tx& tx, const ClaimRow& row) = 0;
  // Writes status, ttl_seconds, expires_at, ended_at, receipt_id and
  // updated_at of the organization's claim `row.id`. False when there is none.
  virtual Result<bool> Update(Tx& tx, const ClaimRow& row) = 0;

  // A merge moved `source_id` into `target_id` (both issues of
  // `project_id`): later commands naming the source resolve to the target,
  // and so do those naming an issue merged into the source before.
  virtual Status RecordMerge(Tx& tx, const std::string& org_id, const std::string& project_id,
                             const std::string& source_id, const std::string& target_id, int64_t now_ms) = 0;
  // The issue `issue_id` was merged into, or nullopt.
  virtual Result<std::optional<std::string>> MergeTarget(Tx& c, const std::string& org_id,
                                                         const std::string& issue_id) = 0;
  // The issues that now resolve to `target_id` (merged into it, directly or
  // through a chain), at most 1,000.
  virtual Result<std::vector<std::string>> MergedInto(Tx& c, const std::string& org_id,
                                                      const std::string& target_id) = 0;
};

}  // namespace service::ports
