// SQL behind ports::AiUsageRepository.
#include "areas/ai/ports/ai_usage_repository.h"
#include "areas/ai/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

class SqlAiUsageRepository final : public ports::AiUsageRepository {
 public:
  Status Insert(ports::Tx& tx, const ports::AiUsageRecord& r) override {
    return Sql(tx)
        .Exec(
            "INSERT INTO ai_usage (id, org_id, feature, provider, model, input_tokens, output_tokens, "
            "succeeded, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {r.id, OptText(r.org_id), r.feature, r.provider, r.model, r.input_tokens, r.output_tokens,
             Bool(r.succeeded), r.created_at})
        .status();
  }
};

}  // namespace

std::unique_ptr<ports::AiUsageRepository> NewSqlAiUsageRepository() {
  return std::make_unique<SqlAiUsageRepository>();
}

}  // namespace service::store
