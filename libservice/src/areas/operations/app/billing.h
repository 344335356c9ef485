// Billing use cases (Spec 2 "Billing", "Budget"; issue 28 item 3): credit
// balances and their ledger, the monthly included grant, the budget, credit
// pack checkout, card setup, the customer portal, inbound payment events, and
// the metered agent read charge other areas call (ChargeMeteredRead).
//
// The ledger: every grant and charge is one row of credit_ledger written in
// the same transaction as the balance change (billing_accounts), through
// ports::BillingRepository. Included credits (pro: 10,000 a month) are
// rolled lazily: the first subscription read or metered charge of an
// organization in a new UTC calendar month (the injected clock) claims the
// month on its account row (one claimant even with two processes on one
// PostgreSQL database), expires the previous remainder (an included_expiry
// row) and grants the month's credits (an included_grant row); both rows
// carry the month as their reference, unique per organization.
// Prepaid credits (packs of 2,000 for 1,000 cents) never expire.
//
// Failures are Status values the API maps: kInvalidArgument (400, with the
// codes VALIDATION_ERROR, AUTO_TOP_UP_REQUIRES_BUDGET,
// AUTO_TOP_UP_REQUIRES_CARD), kPermissionDenied (403), kPaymentRequired (402
// BUDGET_EXCEEDED with its figures, 402 credits_exhausted), kConflict (409
// NO_BILLING_CUSTOMER), kUnavailable with the error code
// BILLING_NOT_CONFIGURED (the API answers 501), kBadGateway (502 "Payment
// provider request failed"; the cause is logged, never the key).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/actor.h"
#include "areas/operations/domain/billing.h"
#include "areas/operations/ports/billing_repository.h"
#include "areas/operations/ports/payments.h"
#include "areas/operations/ports/usage_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"

namespace service::app::operations {

struct OperationsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  Logger* log = nullptr;
  ports::UsageRepository* usage = nullptr;
  ports::BillingRepository* billing = nullptr;
  // Null when SERVICE_BILLING_SECRET_KEY is unset: checkout, card setup and
  // portal answer 501.
  ports::Payments* payments = nullptr;
  // SERVICE_BILLING_WEBHOOK_SECRET; empty: inbound events are refused (501).
  std::string webhook_secret;
  std::string public_url;  // return links of the hosted pages

  int64_t Now() const { return clock->NowMillis(); }
};

// The error code of a Status the API answers with 501.
inline constexpr std::string_view kBillingNotConfigured = "BILLING_NOT_CONFIGURED";
inline constexpr std::string_view kNoBillingCustomer = "NO_BILLING_CUSTOMER";
inline constexpr std::string_view kBudgetExceeded = "BUDGET_EXCEEDED";
inline constexpr std::string_view kCreditsExhausted = "credits_exhausted";
// Ledger rows GET /v1/billing/subscription shows.
inline constexpr int64_t kRecentLedgerRows = 20;

struct BudgetView {
  domain::operations::Budget budget;
  bool payment_method_on_file = false;
  int64_t month_to_date_spend_cents = 0;  // cents on this month's ledger rows
  std::string month;                      // "YYYY-MM" (UTC)
};

struct Subscription {
  std::string plan;
  int64_t included_credits = 0;
  int64_t prepaid_credits = 0;
  int64_t included_monthly = 0;  // what the plan grants each month
  bool payment_method_on_file = false;
  bool has_customer = false;
  bool configured = false;  // a payments API key is set
  BudgetView budget;
  std::vector<ports::LedgerEntry> ledger;  // newest first
};

// GET /v1/billing/subscription: rolls the month when due, then reads.
// REQUIRES: the actor may view billing (else 403).
Result<Subscription> GetSubscription(const OperationsDeps& deps, const ConsoleActor& actor);

// GET /v1/billing/budget (database only). Actor: manage billing (else 403);
// the API refuses support sessions and agent tokens before.
Result<BudgetView> GetBudget(const OperationsDeps& deps, const ConsoleActor& actor);
// PUT /v1/billing/budget with a validated patch; answers the new budget.
Result<BudgetView> UpdateBudget(const OperationsDeps& deps, const ConsoleActor& actor,
                                const domain::operations::BudgetPatch& patch);

// POST /v1/billing/create-checkout-session {pack: credits}: 501 when not
// configured, then the budget check (402 BUDGET_EXCEEDED {monthlyBudgetCents,
// monthToDateSpendCents, chargeCents}), then a checkout session at the
// provider for 1,000 cents carrying metadata[orgId] and metadata[pack].
Result<ports::HostedSession> CreateCreditCheckout(const OperationsDeps& deps, const ConsoleActor& actor);

// Where the card setup page sends the admin back: the billing page
// (settings) or the first-run page (setup).
enum class CardReturn { kSettings, kSetup };
// POST /v1/billing/card-setup-session: creates the organization's customer
// at the provider when it has none (kept at once), then a setup session.
Result<ports::HostedSession> CreateCardSetup(const OperationsDeps& deps, const ConsoleActor& actor,
                                             CardReturn return_to);

// POST /v1/billing/portal: a portal session for the organization's customer;
// 409 NO_BILLING_CUSTOMER when it has none yet (no card was ever set up).
Result<ports::HostedSession> CreatePortalSession(const OperationsDeps& deps, const ConsoleActor& actor);

// What an inbound event did.
enum class EventOutcome {
  kIgnored,         // an unknown type, an unpaid session, an unknown organization
  kDuplicate,       // the event id (or the paid session) was handled before
  kCreditsGranted,  // a paid credit pack: 2,000 prepaid credits
  kCardSaved,       // a completed setup session: customer and card flag stored
};
// POST /v1/billing/webhook: verifies `signature_header` (Stripe-Signature)
// over `raw_body` with the webhook secret at the injected clock's now, then
// handles checkout.session.completed (and async_payment_succeeded) once per
// event id and once per session id. A bad, stale or missing signature or an
// unreadable event: kInvalidArgument, nothing changed. No secret: 501.
Result<EventOutcome> HandlePaymentEvent(const OperationsDeps& deps, std::string_view signature_header,
                                        std::string_view raw_body);

// ---- for the agents area -------------------------------------------------------

// The result of a metered agent read charge.
struct MeteredCharge {
  bool charged = false;           // false: the plan includes agent access, nothing charged
  int64_t prepaid_remaining = 0;  // the prepaid balance after the charge (charged only)
};

// Charges one metered agent read (Spec 2 "Limits": an agent-token event read
// with limit above 1 by an organization without an agent-capable plan) to
// `org_id`: 2 prepaid credits and one metered_read ledger row, in one
// transaction of its own. Organizations on pro, team and enterprise are never
// charged (charged = false). A prepaid balance below 2: 402
// credits_exhausted (Status kPaymentRequired, error code
// "credits_exhausted"), nothing charged. `reference` (optional, e.g. the
// token and request id) is kept on the ledger row. The caller decides which
// reads are metered (limit above 1, agent tokens only); human sessions must
// never call it.
Result<MeteredCharge> ChargeMeteredRead(const OperationsDeps& deps, const std::string& org_id,
                                        const std::optional<std::string>& reference = std::nullopt);

}  // namespace service::app::operations
