// SQL behind ports::CustomerProfileRepository.
#include "areas/admin/ports/customer_profile_repository.h"
#include "areas/admin/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr const char* kColumns =
    "org_id, lifecycle_stage, billing_status, admin_notes, contact_name, contact_email, use_case, "
    "created_at, "
    "updated_at";

class SqlCustomerProfileRepository final : public ports::CustomerProfileRepository {
 public:
  Status Insert(ports::Tx& tx, const ports::CustomerProfile& p) override {
    return Sql(tx)
        .Exec(std::string("INSERT INTO customer_profiles (") + kColumns +
                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
              {p.org_id, p.lifecycle_stage, p.billing_status, p.admin_notes, OptText(p.contact_name),
               OptText(p.contact_email), OptText(p.use_case), p.created_at, p.updated_at})
        .status();
  }

  Result<std::optional<ports::CustomerProfile>> Find(ports::Tx& c, const std::string& org_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(c).Query(std::string("SELECT ") + kColumns + " FROM customer_profiles WHERE org_id = ?",
                             {org_id}));
    if (r.empty()) return std::optional<ports::CustomerProfile>();
    ports::CustomerProfile p;
    p.org_id = r.Str(0, 0);
    p.lifecycle_stage = r.Str(0, 1);
    p.billing_status = r.Str(0, 2);
    p.admin_notes = r.Str(0, 3);
    p.contact_name = r.OptStr(0, 4);
    p.contact_email = r.OptStr(0, 5);
    p.use_case = r.OptStr(0, 6);
    p.created_at = r.Int(0, 7);
    p.updated_at = r.Int(0, 8);
    return std::optional<ports::CustomerProfile>(std::move(p));
  }

  Status Apply(ports::Tx& tx, const std::string& org_id, const ports::CustomerProfileChange& change,
               int64_t now_ms) override {
    Connection& c = Sql(tx);
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO customer_profiles (org_id, created_at, updated_at) VALUES (?, ?, ?) "
               "ON CONFLICT (org_id) DO NOTHING",
               {org_id, now_ms, now_ms})
            .status());
    // COALESCE keeps a field the change leaves absent.
    return c
        .Exec(
            "UPDATE customer_profiles SET lifecycle_stage = COALESCE(?, lifecycle_stage), billing_status = "
            "COALESCE(?, billing_status), admin_notes = COALESCE(?, admin_notes), updated_at = ? WHERE "
            "org_id = ?",
            {OptText(change.lifecycle_stage), OptText(change.billing_status), OptText(change.admin_notes),
             now_ms, org_id})
        .status();
  }
};

}  // namespace

std::unique_ptr<ports::CustomerProfileRepository> NewSqlCustomerProfileRepository() {
  return std::make_unique<SqlCustomerProfileRepository>();
}

}  // namespace service::store
