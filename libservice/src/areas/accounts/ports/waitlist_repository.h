// WaitlistRepository: people waiting for an account (Spec 1 waitlist states:
// pending, approved, rejected, completed). An approved entry carries the
// hash of a 7-day approval token; completing signup consumes it atomically.
//
// Methods taking `tx` run inside the caller's Database::Write (REQUIRES).
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct WaitlistEntry {
  std::string id;
  std::string email;  // normalised
  std::string name;
  std::string org_name;
  std::optional<std::string> use_case;
  std::string status;  // pending, approved, rejected, completed
  std::optional<std::string> approval_token_hash;
  std::optional<int64_t> approval_expires_at;
  // The organization an operator created for this person (POST
  // /v1/admin/customers): completing the signup joins it as its admin
  // instead of creating one. Absent: a workspace of its own.
  std::optional<std::string> target_org_id;
  std::optional<std::string> admin_note;  // the operator's note of the last approval or rejection
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

class WaitlistRepository {
 public:
  WaitlistRepository() = default;
  WaitlistRepository(const WaitlistRepository&) = delete;
  WaitlistRepository& operator=(const WaitlistRepository&) = delete;
  virtual ~WaitlistRepository() = default;

  // A taken email: kConflict.
  virtual Status Insert(Tx& tx, const WaitlistEntry& entry) = 0;
  virtual Result<std::optional<WaitlistEntry>> FindByEmail(Tx& c, const std::string& email) = 0;
  virtual Result<std::optional<WaitlistEntry>> FindById(Tx& c, const std::string& id) = 0;
  // Updates the details and the status of an entry (a re-joining person).
  virtual Status UpdateDetails(Tx& tx, const WaitlistEntry& entry, int64_t now_ms) = 0;
  // Sets the status and the approval token (hash and expiry; both absent
  // clears the outstanding token).
  virtual Status SetStatus(Tx& tx, const std::string& id, const std::string& status,
                           const std::optional<std::string>& token_hash, std::optional<int64_t> expires_at,
                           int64_t now_ms) = 0;
  // The approved entry whose unexpired token has this hash; nullopt otherwise.
  virtual Result<std::optional<WaitlistEntry>> FindByApprovalToken(Tx& c, const std::string& token_hash,
                                                                   int64_t now_ms) = 0;
  // Marks that entry completed (clearing the token) and returns it; nullopt
  // when there is none.
  virtual Result<std::optional<WaitlistEntry>> Complete(Tx& tx, const std::string& token_hash,
                                                        int64_t now_ms) = 0;
  virtual Status DeleteByEmail(Tx& tx, const std::string& email) = 0;
  // Sets the operator's note (absent: cleared).
  virtual Status SetNote(Tx& tx, const std::string& id, const std::optional<std::string>& note,
                         int64_t now_ms) = 0;
};

}  // namespace service::ports
