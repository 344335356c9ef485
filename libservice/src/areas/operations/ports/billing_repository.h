// BillingRepository: an organization's credit balances, budget and payment
// customer (one billing account row), the credit ledger (its history: every
// grant and charge is one row) and the inbound payment events already
// handled.
//
// Every method runs inside the caller's transaction (REQUIRES: a Write for
// the writing ones); a ledger row and the balance change it records are
// written by one call (Append, TryCharge), so they commit together.
// Another organization's id finds nothing.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status; a duplicate grant or an insufficient balance is a value (false),
// never an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct BillingAccount {
  std::string org_id;
  int64_t included_credits = 0;
  std::string included_month;  // "YYYY-MM" of the last monthly roll, "" before the first
  int64_t prepaid_credits = 0;
  int64_t monthly_budget_cents = 0;
  bool auto_top_up = false;
  std::string customer_id;  // the payment provider's customer, "" when none
  bool payment_method_on_file = false;
};

struct LedgerEntry {
  std::string id;
  std::string org_id;
  std::string kind;     // included_grant, included_expiry, pack_purchase, metered_read, opening_balance
  std::string bucket;   // included or prepaid
  int64_t credits = 0;  // signed
  int64_t cents = 0;    // money received with it, 0 when none
  std::optional<std::string> reference;  // session id, month, ...; at most once per (org, kind, reference)
  int64_t created_at = 0;
};

class BillingRepository {
 public:
  BillingRepository() = default;
  BillingRepository(const BillingRepository&) = delete;
  BillingRepository& operator=(const BillingRepository&) = delete;
  virtual ~BillingRepository() = default;

  // Deletes the organization's account, ledger and recorded events.
  virtual Status DeleteOrganization(Tx& tx, const std::string& org_id) = 0;

  // Whether the organization exists (events name organizations by id).
  virtual Result<bool> OrganizationExists(Tx& tx, const std::string& org_id) = 0;

  // The account; an organization without a row reads as all defaults
  // (zero balances, budget 0, no customer), org_id filled in.
  virtual Result<BillingAccount> Find(Tx& tx, const std::string& org_id) = 0;

  // Creates the default row when absent (REQUIRES: the organization exists).
  virtual Status Ensure(Tx& tx, const std::string& org_id, int64_t now) = 0;

  // Marks `month` as the account's included month unless it already is.
  // True for the one caller that moved it (two processes racing for one
  // month: one true, one false). REQUIRES: Ensure ran.
  virtual Result<bool> ClaimMonth(Tx& tx, const std::string& org_id, const std::string& month,
                                  int64_t now) = 0;

  // Appends `entry` and adds its credits to its bucket's balance (REQUIRES:
  // Ensure ran). False, with nothing written, when a row of the same
  // (org, kind, reference) exists (a reference of nullopt never collides).
  virtual Result<bool> Append(Tx& tx, const LedgerEntry& entry) = 0;

  // A charge: takes -entry.credits (REQUIRES: entry.credits < 0) from the
  // bucket's balance only when the balance covers it, and appends the entry.
  // False, with nothing written, when it does not (or there is no account).
  virtual Result<bool> TryCharge(Tx& tx, const LedgerEntry& entry) = 0;

  // Sum of the cents of the organization's ledger rows created in
  // [from_ms, to_ms).
  virtual Result<int64_t> CentsBetween(Tx& tx, const std::string& org_id, int64_t from_ms, int64_t to_ms) = 0;

  // The newest `limit` ledger rows, newest first (ties: the later id first).
  virtual Result<std::vector<LedgerEntry>> Recent(Tx& tx, const std::string& org_id, int64_t limit) = 0;

  // Budget fields. REQUIRES: Ensure ran.
  virtual Status SetBudget(Tx& tx, const std::string& org_id, int64_t monthly_budget_cents, bool auto_top_up,
                           int64_t now) = 0;
  // The provider's customer id; `payment_method_on_file` true sets the flag
  // (false leaves it as it is). REQUIRES: Ensure ran.
  virtual Status SetCustomer(Tx& tx, const std::string& org_id, const std::string& customer_id,
                             bool payment_method_on_file, int64_t now) = 0;

  // Records an inbound event id. False when it was recorded before.
  virtual Result<bool> RecordEvent(Tx& tx, const std::string& event_id, const std::string& type,
                                   const std::optional<std::string>& org_id, int64_t now) = 0;
};

}  // namespace service::ports
