// SQL behind ports::UsageRepository.
#include "areas/operations/ports/usage_repository.h"
#include "areas/operations/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

// The WHERE of the conflict branch makes the check and the increment one
// statement: at the limit the row is left alone and nothing is returned.
constexpr std::string_view kCountBugSql =
    "INSERT INTO usage_counters (org_id, month, bugs, reports, ai_requests) VALUES (?, ?, 1, 0, 0) "
    "ON CONFLICT (org_id, month) DO UPDATE SET bugs = usage_counters.bugs + 1 "
    "WHERE usage_counters.bugs < ? RETURNING bugs";

class SqlUsageRepository final : public ports::UsageRepository {
 public:
  Status DeleteOrganization(ports::Tx& tx_tx, const std::string& org_id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("DELETE FROM usage_counters WHERE org_id = ?", {org_id}).status();
  }

  Result<bool> TryCountNewBug(ports::Tx& tx_tx, const std::string& org_id, const std::string& month,
                              int64_t limit) override {
    Connection& tx = Sql(tx_tx);
    if (limit == 0) return false;
    const int64_t cap = limit < 0 ? INT64_MAX : limit;
    SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kCountBugSql, {org_id, month, cap}));
    return !r.empty();
  }

  Result<int64_t> BugsInMonth(ports::Tx& c_tx, const std::string& org_id, const std::string& month) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query("SELECT bugs FROM usage_counters WHERE org_id = ? AND month = ?", {org_id, month}));
    return r.empty() ? int64_t{0} : r.Int(0, 0);
  }

  Result<std::string> PlanOf(ports::Tx& c_tx, const std::string& org_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT plan FROM organizations WHERE id = ?", {org_id}));
    return r.empty() ? std::string("free") : r.Str(0, 0);
  }

  Status CountAiRequest(ports::Tx& t, const std::string& org_id, const std::string& month) override {
    return Sql(t)
        .Exec(
            "INSERT INTO usage_counters (org_id, month, bugs, reports, ai_requests) VALUES (?, ?, 0, 0, 1) "
            "ON CONFLICT (org_id, month) DO UPDATE SET ai_requests = usage_counters.ai_requests + 1",
            {org_id, month})
        .status();
  }

  Result<int64_t> AiRequestsInMonth(ports::Tx& t, const std::string& org_id,
                                    const std::string& month) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT ai_requests FROM usage_counters WHERE org_id = ? AND month = ?",
                                     {org_id, month}));
    return r.empty() ? int64_t{0} : r.Int(0, 0);
  }

  Result<int64_t> IntegrationCount(ports::Tx& t, const std::string& org_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT COUNT(*) FROM integrations WHERE org_id = ?", {org_id}));
    return r.Int(0, 0);
  }

  Result<int64_t> PrepaidCredits(ports::Tx& t, const std::string& org_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query("SELECT prepaid_credits FROM billing_accounts WHERE org_id = ?", {org_id}));
    return r.empty() ? int64_t{0} : r.Int(0, 0);
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::UsageRepository> NewSqlUsageRepository() {
  return std::make_unique<store::SqlUsageRepository>();
}
}  // namespace service::store
