// SessionRepository: refresh tokens, stored only as hashes of their `jti`
// (domain/auth/secrets.h). A refresh token is good for one rotation: Consume
// marks it used atomically, so two concurrent refreshes with the same token
// cannot both succeed.
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

struct RefreshToken {
  std::string id;
  std::string user_id;
  std::string org_id;      // empty: no organization
  std::string token_hash;  // SecretHash(jti)
  int64_t revision = 0;    // the account's session revision at issue
  int64_t expires_at = 0;  // Unix ms
  int64_t created_at = 0;
};

class SessionRepository {
 public:
  SessionRepository() = default;
  SessionRepository(const SessionRepository&) = delete;
  SessionRepository& operator=(const SessionRepository&) = delete;
  virtual ~SessionRepository() = default;

  virtual Status Insert(Tx& tx, const RefreshToken& token) = 0;
  // Marks the unused, unrevoked, unexpired token with this hash used and
  // returns it; nullopt when there is none (unknown, used, revoked, expired).
  virtual Result<std::optional<RefreshToken>> Consume(Tx& tx, const std::string& token_hash,
                                                      int64_t now_ms) = 0;
  // Revokes every outstanding refresh token of the user.
  virtual Status RevokeAll(Tx& tx, const std::string& user_id, int64_t now_ms) = 0;
};

}  // namespace service::ports
