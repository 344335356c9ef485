// CustomerProfileRepository: what an operator keeps about a customer
// organization (customer_profiles: lifecycle stage, billing status, notes,
// primary contact, use case), one row per organization; it goes with the
// organization (cascading foreign key).
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

struct CustomerProfile {
  std::string org_id;
  std::string lifecycle_stage = "trial";
  std::string billing_status = "unassigned";
  std::string admin_notes;
  std::optional<std::string> contact_name;
  std::optional<std::string> contact_email;
  std::optional<std::string> use_case;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

// The fields a PATCH changes (absent: unchanged).
struct CustomerProfileChange {
  std::optional<std::string> lifecycle_stage;
  std::optional<std::string> billing_status;
  std::optional<std::string> admin_notes;
};

class CustomerProfileRepository {
 public:
  CustomerProfileRepository() = default;
  CustomerProfileRepository(const CustomerProfileRepository&) = delete;
  CustomerProfileRepository& operator=(const CustomerProfileRepository&) = delete;
  virtual ~CustomerProfileRepository() = default;

  // An existing profile of the organization: kConflict.
  virtual Status Insert(Tx& tx, const CustomerProfile& profile) = 0;
  virtual Result<std::optional<CustomerProfile>> Find(Tx& c, const std::string& org_id) = 0;
  // Applies `change`, creating the profile (defaults) when there is none.
  // REQUIRES: the organization exists.
  virtual Status Apply(Tx& tx, const std::string& org_id, const CustomerProfileChange& change,
                       int64_t now_ms) = 0;
};

}  // namespace service::ports
