// AiUsageRepository: one row per call to the AI provider (ai_usage), read
// back by the superadmin's GET /v1/admin/ai-usage. Rows of an organization
// go with it (cascading foreign key).
//
// Methods taking `tx` run inside the caller's Database::Write (REQUIRES).
// Thread-safety: stateless; safe from any thread. Failure: driver errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct AiUsageRecord {
  std::string id;
  std::optional<std::string> org_id;  // absent: the caller named none
  std::string feature;
  std::string provider;
  std::string model;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  bool succeeded = true;
  int64_t created_at = 0;
};

class AiUsageRepository {
 public:
  AiUsageRepository() = default;
  AiUsageRepository(const AiUsageRepository&) = delete;
  AiUsageRepository& operator=(const AiUsageRepository&) = delete;
  virtual ~AiUsageRepository() = default;

  virtual Status Insert(Tx& tx, const AiUsageRecord& record) = 0;
};

}  // namespace service::ports
