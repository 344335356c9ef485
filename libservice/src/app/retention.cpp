#include "app/retention.h"

namespace service::app {

Result<int64_t> SweepInBatches(ports::Transactions& db, int64_t limit,
                               const std::function<Result<int64_t>(ports::Tx& tx, int64_t limit)>& batch,
                               int max_batches) {
  int64_t total = 0;
  for (int round = 0; round < max_batches; ++round) {
    int64_t deleted = 0;
    SV_RETURN_IF_ERROR(db.Write([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(deleted, batch(tx, limit));
      return Status::Ok();
    }));
    total += deleted;
    if (deleted < limit) break;
  }
  return total;
}

}  // namespace service::app
