#include "areas/triage/ports/bug_status_repository.h"
#include "areas/triage/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

class SqlBugStatusRepository final : public ports::BugStatusRepository {
 public:
  Result<std::optional<std::string>> SetStatus(ports::Tx& tx_tx, const std::string& org_id,
                                               const std::string& bug_id, const std::string& status,
                                               int64_t now_ms) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(Rows old,
                        tx.Query("SELECT status FROM bugs WHERE org_id = ? AND id = ?", {org_id, bug_id}));
    if (old.empty()) return std::optional<std::string>();
    const bool resolved = status == "resolved";
    SV_RETURN_IF_ERROR(
        tx.Exec("UPDATE bugs SET status = ?, resolved_at = ?, updated_at = ? WHERE org_id = ? AND id = ?",
                {status, resolved ? Value(now_ms) : Value(nullptr), now_ms, org_id, bug_id})
            .status());
    return std::optional<std::string>(old.Str(0, 0));
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::BugStatusRepository> NewSqlBugStatusRepository() {
  return std::make_unique<store::SqlBugStatusRepository>();
}
}  // namespace service::store
