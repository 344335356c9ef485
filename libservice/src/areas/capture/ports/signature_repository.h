// SignatureRepository: the stored signatures of bugs, for recomputing them
// with the current grouping rules (the superadmin's POST
// /v1/admin/backfill-signatures). Writing a signature keeps the groupKey
// (bugs.group_key: the signature hash, else the bug id); the bugs' triggers
// keep the group aggregates and the search text.
//
// Methods taking `tx` run inside the caller's Database::Write (REQUIRES).
// Thread-safety: stateless; safe from any thread. Failure: driver errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct StoredSignature {
  std::string bug_id;
  std::optional<std::string> signature;  // absent: a manual report (its own group)
  std::optional<std::string> signature_hash;
  std::string group_key;
};

class SignatureRepository {
 public:
  SignatureRepository() = default;
  SignatureRepository(const SignatureRepository&) = delete;
  SignatureRepository& operator=(const SignatureRepository&) = delete;
  virtual ~SignatureRepository() = default;

  // Up to `limit` bugs whose id is above `after_id` ("" : from the first),
  // in id order, of one project when `project_id` is given.
  virtual Result<std::vector<StoredSignature>> Page(Tx& c, const std::optional<std::string>& project_id,
                                                    const std::string& after_id, int64_t limit) = 0;
  // Sets the bug's signature, its hash and its groupKey (the hash).
  virtual Status Set(Tx& tx, const std::string& bug_id, const std::string& signature,
                     const std::string& signature_hash, int64_t now_ms) = 0;
};

}  // namespace service::ports
