// DuplicateCandidateRepository: the duplicate proposals the shadow grouping
// writes at ingest (domain/triage/grouping_v3.h), read back by the triage
// reads (BugReadRepository::DuplicateCandidates and the groups'
// duplicateCandidateCount).
//
// Methods run inside the caller's transaction (REQUIRES). Thread-safety:
// stateless; safe from any thread. Failure: driver errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct DuplicatePeerRecord {
  std::string bug_id;
  std::string group_key;
  std::string identity_hash;  // bugs.grouping_v3_key; "" when none
  std::string embedding;      // hex; "" when none
};

struct DuplicateCandidateWrite {
  std::string id;
  std::string other_bug_id;
  int64_t score = 0;
  std::string reason;
  std::string confidence;
  std::string algorithm_version;
};

class DuplicateCandidateRepository {
 public:
  DuplicateCandidateRepository() = default;
  DuplicateCandidateRepository(const DuplicateCandidateRepository&) = delete;
  DuplicateCandidateRepository& operator=(const DuplicateCandidateRepository&) = delete;
  virtual ~DuplicateCandidateRepository() = default;

  // Open, unmerged bugs of the project outside `group_key`: those sharing
  // `identity_hash` (when not empty) and the `recent` most recently seen.
  virtual Result<std::vector<DuplicatePeerRecord>> Peers(Tx& c, const std::string& project_id,
                                                         const std::string& group_key,
                                                         const std::string& identity_hash,
                                                         int64_t recent) = 0;
  // Open proposals of `bug_id`; a pair already proposed is left as it is.
  virtual Status Insert(Tx& tx, const std::string& org_id, const std::string& bug_id,
                        const std::vector<DuplicateCandidateWrite>& rows, int64_t created_at) = 0;
};

}  // namespace service::ports
