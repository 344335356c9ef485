// UsageRepository: per-organization monthly counters behind plan limits
// (Spec 1 "Limits", issue 4 item 9: new bugs per organization per calendar
// month, UTC) and the plan an organization is on.
//
// TryCountNewBug runs inside the caller's Database::Write (REQUIRES); it is
// the check and the increment in one statement, so two concurrent writers on
// PostgreSQL cannot both take the last unit (the counter row is locked by the
// first until it commits).
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status; reaching the limit is a value (false), never an error.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

class UsageRepository {
 public:
  UsageRepository() = default;
  UsageRepository(const UsageRepository&) = delete;
  UsageRepository& operator=(const UsageRepository&) = delete;
  virtual ~UsageRepository() = default;
  // Deletes the organization's rows (before the organization is deleted).
  virtual Status DeleteOrganization(Tx& tx, const std::string& org_id) = 0;

  // Counts one new bug in `month` ("YYYY-MM") unless the count already
  // reached `limit` (a negative limit never is). Returns whether it counted.
  virtual Result<bool> TryCountNewBug(Tx& tx, const std::string& org_id, const std::string& month,
                                      int64_t limit) = 0;
  // New bugs counted in `month`.
  virtual Result<int64_t> BugsInMonth(Tx& c, const std::string& org_id, const std::string& month) = 0;
  // The organization's plan name ("free" when the organization is absent).
  virtual Result<std::string> PlanOf(Tx& c, const std::string& org_id) = 0;
  // Counts one AI request (analysis, event assessment) of `month` ("YYYY-MM").
  virtual Status CountAiRequest(Tx& tx, const std::string& org_id, const std::string& month) = 0;
  virtual Result<int64_t> AiRequestsInMonth(Tx& c, const std::string& org_id, const std::string& month) = 0;
  // Integrations of the organization (the plan's `integrations` limit).
  virtual Result<int64_t> IntegrationCount(Tx& c, const std::string& org_id) = 0;
  // The organization's prepaid credit balance: the billing ledger's prepaid
  // balance (ports/billing_repository.h; 0 when unknown).
  virtual Result<int64_t> PrepaidCredits(Tx& c, const std::string& org_id) = 0;
};

}  // namespace service::ports
