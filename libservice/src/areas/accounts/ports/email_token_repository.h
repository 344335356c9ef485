// EmailTokenRepository: single-use secrets sent by mail (email verification,
// password reset, data export download, account deletion), stored only as
// hashes (domain/auth/secrets.h). Consume is atomic: one UPDATE marks the
// token used, so a token works once even under concurrent requests.
//
// Methods taking `tx` run inside the caller's Database::Write (REQUIRES).
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// Token kinds.
inline constexpr std::string_view kVerifyEmailToken = "verify_email";
inline constexpr std::string_view kPasswordResetToken = "password_reset";
inline constexpr std::string_view kDataExportToken = "data_export";
inline constexpr std::string_view kDataDeleteToken = "data_delete";

struct EmailToken {
  std::string id;
  std::string user_id;
  std::string kind;
  std::string token_hash;
  int64_t expires_at = 0;  // Unix ms
  int64_t created_at = 0;
};

class EmailTokenRepository {
 public:
  EmailTokenRepository() = default;
  EmailTokenRepository(const EmailTokenRepository&) = delete;
  EmailTokenRepository& operator=(const EmailTokenRepository&) = delete;
  virtual ~EmailTokenRepository() = default;

  virtual Status Insert(Tx& tx, const EmailToken& token) = 0;
  // Marks the unconsumed, unexpired token of `kind` with this hash consumed
  // and returns its user id; nullopt when there is none.
  virtual Result<std::optional<std::string>> Consume(Tx& tx, std::string_view kind,
                                                     const std::string& token_hash, int64_t now_ms) = 0;
  // Consumes every outstanding token of `kind` of the user (a newer one
  // replaces them, or the flow they served is done).
  virtual Status ConsumeAll(Tx& tx, const std::string& user_id, std::string_view kind, int64_t now_ms) = 0;
};

}  // namespace service::ports
