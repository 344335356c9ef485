// SQL behind ports::BillingRepository (migration 0020: billing_accounts,
// credit_ledger, billing_events).
#include "areas/operations/ports/billing_repository.h"
#include "areas/operations/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kAccountColumns =
    "org_id, included_credits, included_month, prepaid_credits, monthly_budget_cents, auto_top_up, "
    "customer_id, payment_method_on_file";

Value OptValue(const std::optional<std::string>& s) { return s ? Value(*s) : Null(); }

class SqlBillingRepository final : public ports::BillingRepository {
 public:
  Status DeleteOrganization(ports::Tx& t, const std::string& org_id) override {
    Connection& c = Sql(t);
    SV_RETURN_IF_ERROR(c.Exec("DELETE FROM credit_ledger WHERE org_id = ?", {org_id}).status());
    SV_RETURN_IF_ERROR(c.Exec("DELETE FROM billing_events WHERE org_id = ?", {org_id}).status());
    return c.Exec("DELETE FROM billing_accounts WHERE org_id = ?", {org_id}).status();
  }

  Result<bool> OrganizationExists(ports::Tx& t, const std::string& org_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT 1 FROM organizations WHERE id = ?", {org_id}));
    return !r.empty();
  }

  Result<ports::BillingAccount> Find(ports::Tx& t, const std::string& org_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT " + std::string(kAccountColumns) +
                                                 " FROM billing_accounts WHERE org_id = ?",
                                             {org_id}));
    ports::BillingAccount a;
    a.org_id = org_id;
    if (r.empty()) return a;
    a.included_credits = r.Int(0, 1);
    a.included_month = r.Str(0, 2);
    a.prepaid_credits = r.Int(0, 3);
    a.monthly_budget_cents = r.Int(0, 4);
    a.auto_top_up = r.Bool(0, 5);
    a.customer_id = r.Str(0, 6);
    a.payment_method_on_file = r.Bool(0, 7);
    return a;
  }

  Status Ensure(ports::Tx& t, const std::string& org_id, int64_t now) override {
    return Sql(t)
        .Exec(
            "INSERT INTO billing_accounts (org_id, included_credits, included_month, prepaid_credits, "
            "monthly_budget_cents, auto_top_up, customer_id, payment_method_on_file, created_at, updated_at) "
            "VALUES (?, 0, '', 0, 0, 0, NULL, 0, ?, ?) ON CONFLICT (org_id) DO NOTHING",
            {org_id, now, now})
        .status();
  }

  Result<bool> ClaimMonth(ports::Tx& t, const std::string& org_id, const std::string& month,
                          int64_t now) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(t).Exec("UPDATE billing_accounts SET included_month = ?, updated_at = ? "
                                    "WHERE org_id = ? AND included_month <> ?",
                                    {month, now, org_id, month}));
    return n > 0;
  }

  Result<bool> Append(ports::Tx& t, const ports::LedgerEntry& e) override {
    Connection& c = Sql(t);
    SV_ASSIGN_OR_RETURN(bool inserted, Insert(c, e));
    if (!inserted) return false;
    SV_RETURN_IF_ERROR(AddToBucket(c, e));
    return true;
  }

  Result<bool> TryCharge(ports::Tx& t, const ports::LedgerEntry& e) override {
    Connection& c = Sql(t);
    const int64_t amount = -e.credits;
    const std::string sql =
        e.bucket == "included"
            ? "UPDATE billing_accounts SET included_credits = included_credits - ?, updated_at = ? "
              "WHERE org_id = ? AND included_credits >= ? RETURNING included_credits"
            : "UPDATE billing_accounts SET prepaid_credits = prepaid_credits - ?, updated_at = ? "
              "WHERE org_id = ? AND prepaid_credits >= ? RETURNING prepaid_credits";
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, {amount, e.created_at, e.org_id, amount}));
    if (r.empty()) return false;
    SV_ASSIGN_OR_RETURN(bool inserted, Insert(c, e));
    if (!inserted) return Status(Code::kConflict, "ledger reference already charged");
    return true;
  }

  Result<int64_t> CentsBetween(ports::Tx& t, const std::string& org_id, int64_t from_ms,
                               int64_t to_ms) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT CAST(COALESCE(SUM(cents), 0) AS BIGINT) FROM credit_ledger "
                                     "WHERE org_id = ? AND created_at >= ? AND created_at < ?",
                                     {org_id, from_ms, to_ms}));
    return r.empty() ? int64_t{0} : r.Int(0, 0);
  }

  Result<std::vector<ports::LedgerEntry>> Recent(ports::Tx& t, const std::string& org_id,
                                                 int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT id, org_id, kind, bucket, credits, cents, reference, created_at "
                                     "FROM credit_ledger WHERE org_id = ? "
                                     "ORDER BY created_at DESC, id DESC LIMIT ?",
                                     {org_id, limit}));
    std::vector<ports::LedgerEntry> out;
    for (size_t i = 0; i < r.size(); ++i) {
      ports::LedgerEntry e;
      e.id = r.Str(i, 0);
      e.org_id = r.Str(i, 1);
      e.kind = r.Str(i, 2);
      e.bucket = r.Str(i, 3);
      e.credits = r.Int(i, 4);
      e.cents = r.Int(i, 5);
      if (!r.IsNull(i, 6)) e.reference = r.Str(i, 6);
      e.created_at = r.Int(i, 7);
      out.push_back(std::move(e));
    }
    return out;
  }

  Status SetBudget(ports::Tx& t, const std::string& org_id, int64_t monthly_budget_cents, bool auto_top_up,
                   int64_t now) override {
    return Sql(t)
        .Exec(
            "UPDATE billing_accounts SET monthly_budget_cents = ?, auto_top_up = ?, updated_at = ? WHERE "
            "org_id = ?",
            {monthly_budget_cents, Bool(auto_top_up), now, org_id})
        .status();
  }

  Status SetCustomer(ports::Tx& t, const std::string& org_id, const std::string& customer_id,
                     bool payment_method_on_file, int64_t now) override {
    const char* sql =
        payment_method_on_file
            ? "UPDATE billing_accounts SET customer_id = ?, payment_method_on_file = 1, updated_at = ? "
              "WHERE org_id = ?"
            : "UPDATE billing_accounts SET customer_id = ?, updated_at = ? WHERE org_id = ?";
    return Sql(t).Exec(sql, {customer_id, now, org_id}).status();
  }

  Result<bool> RecordEvent(ports::Tx& t, const std::string& event_id, const std::string& type,
                           const std::optional<std::string>& org_id, int64_t now) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("INSERT INTO billing_events (event_id, type, org_id, received_at) "
                                     "VALUES (?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING "
                                     "RETURNING event_id",
                                     {event_id, type, OptValue(org_id), now}));
    return !r.empty();
  }

 private:
  static Result<bool> Insert(Connection& c, const ports::LedgerEntry& e) {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query("INSERT INTO credit_ledger (id, org_id, kind, bucket, credits, cents, reference, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (org_id, kind, reference) DO NOTHING "
                "RETURNING id",
                {e.id, e.org_id, e.kind, e.bucket, e.credits, e.cents, OptValue(e.reference), e.created_at}));
    return !r.empty();
  }

  static Status AddToBucket(Connection& c, const ports::LedgerEntry& e) {
    const std::string sql = e.bucket == "included" ? "UPDATE billing_accounts SET included_credits = "
                                                     "included_credits + ?, updated_at = ? WHERE org_id = ?"
                                                   : "UPDATE billing_accounts SET prepaid_credits = "
                                                     "prepaid_credits + ?, updated_at = ? WHERE org_id = ?";
    SV_ASSIGN_OR_RETURN(int64_t n, c.Exec(sql, {e.credits, e.created_at, e.org_id}));
    if (n != 1) return Internal("billing account missing for a ledger row");
    return Status::Ok();
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::BillingRepository> NewSqlBillingRepository() {
  return std::make_unique<store::SqlBillingRepository>();
}
}  // namespace service::store
