// InvitationRepository: setup links sent to people invited to an
// organization (Spec 1 "Team" invite and /v1/auth/invitations/*). The token
// is stored only as its hash. An invitation is open while it is neither
// accepted, revoked nor expired; Accept consumes it atomically.
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

struct Invitation {
  std::string id;
  std::string org_id;
  std::string user_id;
  std::string email;
  std::string role;
  std::string token_hash;
  std::optional<std::string> invited_by;
  int64_t expires_at = 0;  // Unix ms
  int64_t created_at = 0;
  std::string org_name;  // filled by reads
};

class InvitationRepository {
 public:
  InvitationRepository() = default;
  InvitationRepository(const InvitationRepository&) = delete;
  InvitationRepository& operator=(const InvitationRepository&) = delete;
  virtual ~InvitationRepository() = default;

  virtual Status Insert(Tx& tx, const Invitation& invitation) = 0;
  // The open invitation with this hash; nullopt otherwise.
  virtual Result<std::optional<Invitation>> FindOpen(Tx& c, const std::string& token_hash,
                                                     int64_t now_ms) = 0;
  // Marks the open invitation with this hash and (normalised) email
  // accepted and returns it; nullopt when there is none.
  virtual Result<std::optional<Invitation>> Accept(Tx& tx, const std::string& token_hash,
                                                   const std::string& email, int64_t now_ms) = 0;
  // Revokes every open invitation of the user to the organization.
  virtual Status RevokeOpen(Tx& tx, const std::string& org_id, const std::string& user_id,
                            int64_t now_ms) = 0;
};

}  // namespace service::ports
