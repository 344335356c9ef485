// Billing rules (Spec 2 "Billing", "Budget", the credit, budget and metered
// rows of "Limits"): the credit figures, UTC calendar months, the budget
// update's validation and rules, the budget check of a purchase and the
// payment provider's event signature (Stripe-Signature).
//
// Pure; thread-safe.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/status.h"

namespace service::domain::operations {

// A prepaid credit pack: 2,000 credits for 1,000 cents; they never expire.
inline constexpr int64_t kPackCredits = 2'000;
inline constexpr int64_t kPackCents = 1'000;
inline constexpr std::string_view kPackName = "credits";
// What one metered agent read costs (prepaid credits).
inline constexpr int64_t kMeteredReadCredits = 2;
// Budget range (integer cents per UTC calendar month).
inline constexpr int64_t kMaxBudgetCents = 10'000'000;
// Signature timestamp tolerance (seconds).
inline constexpr int64_t kSignatureToleranceSeconds = 300;

// Ledger kinds and buckets.
inline constexpr std::string_view kIncludedGrant = "included_grant";
inline constexpr std::string_view kIncludedExpiry = "included_expiry";
inline constexpr std::string_view kPackPurchase = "pack_purchase";
inline constexpr std::string_view kMeteredRead = "metered_read";
inline constexpr std::string_view kBucketIncluded = "included";
inline constexpr std::string_view kBucketPrepaid = "prepaid";

// The credits a plan includes each UTC calendar month: pro 10,000, every
// other plan none (team and enterprise are never charged).
int64_t IncludedMonthlyCredits(std::string_view plan);

// A UTC calendar month: "YYYY-MM" and its bounds in Unix ms, [start, end).
struct Month {
  std::string name;
  int64_t start_ms = 0;
  int64_t end_ms = 0;
};
// The month holding `unix_ms`.
Month MonthOf(int64_t unix_ms);

// ---- budget -------------------------------------------------------------------

struct Budget {
  int64_t monthly_budget_cents = 0;  // 0: no automatic charge
  bool auto_top_up = false;
};

// PUT /v1/billing/budget's body, validated for shape.
struct BudgetPatch {
  bool has_budget = false;          // monthlyBudgetCents present
  std::optional<int64_t> budget;    // its value; nullopt when null
  std::optional<bool> auto_top_up;  // autoTopUp when present
};

// The error code of every budget refusal of shape.
inline constexpr std::string_view kValidationError = "VALIDATION_ERROR";
inline constexpr std::string_view kAutoTopUpRequiresBudget = "AUTO_TOP_UP_REQUIRES_BUDGET";
inline constexpr std::string_view kAutoTopUpRequiresCard = "AUTO_TOP_UP_REQUIRES_CARD";

// Reads the body: an object with at least one of monthlyBudgetCents
// (integer 0-10000000 or null) and autoTopUp (boolean), nothing else.
// Failure: kInvalidArgument with error code VALIDATION_ERROR naming the field.
Result<BudgetPatch> ParseBudgetPatch(const boost::json::value& body);

// The budget after `patch`. A budget of null or 0 forces autoTopUp false.
// Asking for autoTopUp true with a resulting budget of 0: kInvalidArgument
// AUTO_TOP_UP_REQUIRES_BUDGET; without a card on file:
// AUTO_TOP_UP_REQUIRES_CARD (checked in that order).
Result<Budget> ApplyBudgetPatch(const Budget& current, const BudgetPatch& patch, bool card_on_file);

// True when a purchase of `charge_cents` would take this month's spend above
// a budget above 0 (a budget of 0 never refuses).
bool WouldExceedBudget(int64_t budget_cents, int64_t month_spend_cents, int64_t charge_cents);

// ---- inbound events --------------------------------------------------------------

// A parsed Stripe-Signature header: "t=<unix seconds>,v1=<hex>[,v1=<hex>...]"
// (other schemes such as v0 are ignored).
struct PaymentSignature {
  int64_t timestamp = 0;
  std::vector<std::string> v1;  // lower-case hex
};
// nullopt when the header is malformed: no t or two, t not a decimal
// number, no v1, a v1 that is not 64 hex characters.
std::optional<PaymentSignature> ParsePaymentSignature(std::string_view header);

enum class SignatureCheck { kValid, kMalformed, kStale, kMismatch };
// Checks `header` for `raw_body` with `secret` at `now_ms`: the timestamp
// within kSignatureToleranceSeconds of now (either side), then some v1 equal
// (constant time) to the hex HMAC-SHA256 of "<t>.<raw body>".
// REQUIRES: !secret.empty().
SignatureCheck CheckPaymentSignature(std::string_view header, std::string_view raw_body,
                                     std::string_view secret, int64_t now_ms);

}  // namespace service::domain::operations
