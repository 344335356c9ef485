// SettingsRepository: small server-wide values kept in the database (the
// generated token-signing secret).
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

class SettingsRepository {
 public:
  SettingsRepository() = default;
  SettingsRepository(const SettingsRepository&) = delete;
  SettingsRepository& operator=(const SettingsRepository&) = delete;
  virtual ~SettingsRepository() = default;

  virtual Result<std::optional<std::string>> Get(Transactions& db, const std::string& key) = 0;
  // Stores `value` unless the key exists; returns the value that is stored
  // afterwards (the existing one wins a race between processes).
  virtual Result<std::string> GetOrInsert(Transactions& db, const std::string& key, const std::string& value,
                                          int64_t now_ms) = 0;
};

}  // namespace service::ports
