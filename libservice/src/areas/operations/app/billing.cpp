#include "areas/operations/app/billing.h"

#include <boost/json.hpp>

#include "areas/operations/domain/plans.h"

namespace service::app::operations {
namespace {

namespace json = boost::json;
namespace dops = domain::operations;

Status NotConfigured() {
  return Status::Public(Code::kUnavailable, "Billing not configured", std::string(kBillingNotConfigured));
}

// The provider's failure, logged with its cause (never the key: the client's
// messages carry neither headers nor replies), answered generically.
Status ProviderFailed(const OperationsDeps& deps, const std::string& org_id, const Status& cause) {
  if (deps.log != nullptr) {
    deps.log->Log(LogLevel::kWarning, "payment provider request failed",
                  {{"orgId", org_id}, {"error", cause.message()}});
  }
  return Status::Public(Code::kBadGateway, "Payment provider request failed");
}

// Rolls the included credits into `month` once (see billing.h).
Status RollMonth(const OperationsDeps& deps, ports::Tx& tx, const std::string& org_id,
                 const std::string& plan, int64_t now) {
  const dops::Month month = dops::MonthOf(now);
  SV_RETURN_IF_ERROR(deps.billing->Ensure(tx, org_id, now));
  SV_ASSIGN_OR_RETURN(bool claimed, deps.billing->ClaimMonth(tx, org_id, month.name, now));
  if (!claimed) return Status::Ok();
  SV_ASSIGN_OR_RETURN(ports::BillingAccount account, deps.billing->Find(tx, org_id));
  if (account.included_credits != 0) {
    ports::LedgerEntry expiry{deps.ids->NewId(),
                              org_id,
                              std::string(dops::kIncludedExpiry),
                              std::string(dops::kBucketIncluded),
                              -account.included_credits,
                              0,
                              month.name,
                              now};
    SV_ASSIGN_OR_RETURN(bool unused, deps.billing->Append(tx, expiry));
    (void)unused;
  }
  const int64_t grant = dops::IncludedMonthlyCredits(plan);
  if (grant > 0) {
    ports::LedgerEntry row{deps.ids->NewId(),
                           org_id,
                           std::string(dops::kIncludedGrant),
                           std::string(dops::kBucketIncluded),
                           grant,
                           0,
                           month.name,
                           now};
    SV_ASSIGN_OR_RETURN(bool unused, deps.billing->Append(tx, row));
    (void)unused;
  }
  return Status::Ok();
}

Result<BudgetView> ReadBudget(const OperationsDeps& deps, ports::Tx& tx, const std::string& org_id,
                              int64_t now) {
  const dops::Month month = dops::MonthOf(now);
  SV_ASSIGN_OR_RETURN(ports::BillingAccount a, deps.billing->Find(tx, org_id));
  BudgetView v;
  v.budget.monthly_budget_cents = a.monthly_budget_cents;
  v.budget.auto_top_up = a.auto_top_up;
  v.payment_method_on_file = a.payment_method_on_file;
  v.month = month.name;
  SV_ASSIGN_OR_RETURN(v.month_to_date_spend_cents,
                      deps.billing->CentsBetween(tx, org_id, month.start_ms, month.end_ms));
  return v;
}

std::string Url(const OperationsDeps& deps, std::string_view path) {
  return deps.public_url + std::string(path);
}

const json::object* ObjectAt(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_object() ? &it->value().get_object() : nullptr;
}

std::string TextAt(const json::object* o, std::string_view key) {
  if (o == nullptr) return {};
  auto it = o->find(key);
  return it != o->end() && it->value().is_string() ? std::string(it->value().get_string()) : std::string();
}

int64_t IntAt(const json::object* o, std::string_view key) {
  if (o == nullptr) return 0;
  auto it = o->find(key);
  if (it == o->end()) return 0;
  if (it->value().is_int64()) return it->value().get_int64();
  if (it->value().is_uint64()) return static_cast<int64_t>(it->value().get_uint64());
  return 0;
}

}  // namespace

Result<Subscription> GetSubscription(const OperationsDeps& deps, const ConsoleActor& actor) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewBilling));
  const int64_t now = deps.Now();
  Subscription s;
  s.configured = deps.payments != nullptr;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(s.plan, deps.usage->PlanOf(tx, actor.org_id));
    SV_RETURN_IF_ERROR(RollMonth(deps, tx, actor.org_id, s.plan, now));
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, deps.billing->Find(tx, actor.org_id));
    s.included_credits = a.included_credits;
    s.prepaid_credits = a.prepaid_credits;
    s.payment_method_on_file = a.payment_method_on_file;
    s.has_customer = !a.customer_id.empty();
    SV_ASSIGN_OR_RETURN(s.budget, ReadBudget(deps, tx, actor.org_id, now));
    SV_ASSIGN_OR_RETURN(s.ledger, deps.billing->Recent(tx, actor.org_id, kRecentLedgerRows));
    return Status::Ok();
  }));
  s.included_monthly = dops::IncludedMonthlyCredits(s.plan);
  return s;
}

Result<BudgetView> GetBudget(const OperationsDeps& deps, const ConsoleActor& actor) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageBilling));
  const int64_t now = deps.Now();
  BudgetView v;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(v, ReadBudget(deps, tx, actor.org_id, now));
    return Status::Ok();
  }));
  return v;
}

Result<BudgetView> UpdateBudget(const OperationsDeps& deps, const ConsoleActor& actor,
                                const dops::BudgetPatch& patch) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageBilling));
  const int64_t now = deps.Now();
  BudgetView v;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(deps.billing->Ensure(tx, actor.org_id, now));
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, deps.billing->Find(tx, actor.org_id));
    const dops::Budget current{a.monthly_budget_cents, a.auto_top_up};
    SV_ASSIGN_OR_RETURN(dops::Budget next, dops::ApplyBudgetPatch(current, patch, a.payment_method_on_file));
    SV_RETURN_IF_ERROR(
        deps.billing->SetBudget(tx, actor.org_id, next.monthly_budget_cents, next.auto_top_up, now));
    SV_ASSIGN_OR_RETURN(v, ReadBudget(deps, tx, actor.org_id, now));
    return Status::Ok();
  }));
  return v;
}

Result<ports::HostedSession> CreateCreditCheckout(const OperationsDeps& deps, const ConsoleActor& actor) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageBilling));
  if (deps.payments == nullptr) return NotConfigured();
  const int64_t now = deps.Now();
  BudgetView budget;
  std::string customer;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(budget, ReadBudget(deps, tx, actor.org_id, now));
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, deps.billing->Find(tx, actor.org_id));
    customer = a.customer_id;
    return Status::Ok();
  }));
  if (dops::WouldExceedBudget(budget.budget.monthly_budget_cents, budget.month_to_date_spend_cents,
                              dops::kPackCents)) {
    const json::object figures{{"monthlyBudgetCents", budget.budget.monthly_budget_cents},
                               {"monthToDateSpendCents", budget.month_to_date_spend_cents},
                               {"chargeCents", dops::kPackCents}};
    return Status(Code::kPaymentRequired, "This purchase would exceed the monthly budget",
                  std::string(kBudgetExceeded), json::serialize(figures));
  }
  ports::CheckoutRequest r;
  r.org_id = actor.org_id;
  r.customer_id = customer;
  r.pack = std::string(dops::kPackName);
  r.amount_cents = dops::kPackCents;
  r.credits = dops::kPackCredits;
  r.success_url = Url(deps, "/billing?checkout=success");
  r.cancel_url = Url(deps, "/billing?checkout=canceled");
  r.idempotency_key = "checkout-" + deps.ids->NewId();
  Result<ports::HostedSession> session = deps.payments->CreateCheckout(r);
  if (!session.ok()) return ProviderFailed(deps, actor.org_id, session.status());
  return session;
}

namespace {

// The organization's payment-provider customer id ("" before the first card
// setup).
Result<std::string> CustomerOf(const OperationsDeps& deps, const std::string& org_id) {
  std::string customer;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, deps.billing->Find(tx, org_id));
    customer = a.customer_id;
    return Status::Ok();
  }));
  return customer;
}

}  // namespace

Result<ports::HostedSession> CreateCardSetup(const OperationsDeps& deps, const ConsoleActor& actor,
                                             CardReturn return_to) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageBilling));
  if (deps.payments == nullptr) return NotConfigured();
  SV_ASSIGN_OR_RETURN(std::string customer, CustomerOf(deps, actor.org_id));
  if (customer.empty()) {
    Result<std::string> created =
        deps.payments->CreateCustomer(actor.org_id, actor.email, "customer-" + deps.ids->NewId());
    if (!created.ok()) return ProviderFailed(deps, actor.org_id, created.status());
    customer = *created;
    const int64_t now = deps.Now();
    SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
      SV_RETURN_IF_ERROR(deps.billing->Ensure(tx, actor.org_id, now));
      return deps.billing->SetCustomer(tx, actor.org_id, customer, false, now);
    }));
  }
  ports::SetupRequest r;
  r.org_id = actor.org_id;
  r.customer_id = customer;
  const std::string back = return_to == CardReturn::kSetup ? "/welcome" : "/billing";
  r.success_url = Url(deps, back + "?card=saved");
  r.cancel_url = Url(deps, back + "?card=canceled");
  r.idempotency_key = "setup-" + deps.ids->NewId();
  Result<ports::HostedSession> session = deps.payments->CreateSetup(r);
  if (!session.ok()) return ProviderFailed(deps, actor.org_id, session.status());
  return session;
}

Result<ports::HostedSession> CreatePortalSession(const OperationsDeps& deps, const ConsoleActor& actor) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageBilling));
  if (deps.payments == nullptr) return NotConfigured();
  SV_ASSIGN_OR_RETURN(std::string customer, CustomerOf(deps, actor.org_id));
  if (customer.empty()) {
    return Status(Code::kConflict, "No billing customer yet: add a card first",
                  std::string(kNoBillingCustomer));
  }
  Result<ports::HostedSession> session =
      deps.payments->CreatePortal(customer, Url(deps, "/billing"), "portal-" + deps.ids->NewId());
  if (!session.ok()) return ProviderFailed(deps, actor.org_id, session.status());
  return session;
}

Result<EventOutcome> HandlePaymentEvent(const OperationsDeps& deps, std::string_view signature_header,
                                        std::string_view raw_body) {
  if (deps.webhook_secret.empty()) {
    return Status::Public(Code::kUnavailable, "Billing webhooks not configured",
                          std::string(kBillingNotConfigured));
  }
  const int64_t now = deps.Now();
  if (dops::CheckPaymentSignature(signature_header, raw_body, deps.webhook_secret, now) !=
      dops::SignatureCheck::kValid) {
    return InvalidArgument("Invalid signature");
  }
  boost::system::error_code ec;
  const json::value event = json::parse(raw_body, ec);
  if (ec || !event.is_object()) return InvalidArgument("Invalid event");
  const json::object& e = event.get_object();
  const std::string id = TextAt(&e, "id");
  const std::string type = TextAt(&e, "type");
  if (id.empty() || type.empty()) return InvalidArgument("Invalid event");
  if (type != "checkout.session.completed" && type != "checkout.session.async_payment_succeeded") {
    return EventOutcome::kIgnored;
  }
  const json::object* data = ObjectAt(e, "data");
  const json::object* session = data != nullptr ? ObjectAt(*data, "object") : nullptr;
  if (session == nullptr) return InvalidArgument("Invalid event");
  const json::object* metadata = ObjectAt(*session, "metadata");
  std::string org = TextAt(metadata, "orgId");
  if (org.empty()) org = TextAt(session, "client_reference_id");
  const std::string mode = TextAt(session, "mode");
  const std::string session_id = TextAt(session, "id");
  const std::string pack = TextAt(metadata, "pack");

  EventOutcome outcome = EventOutcome::kIgnored;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    bool known = false;
    if (!org.empty()) {
      SV_ASSIGN_OR_RETURN(known, deps.billing->OrganizationExists(tx, org));
    }
    SV_ASSIGN_OR_RETURN(
        bool fresh,
        deps.billing->RecordEvent(tx, id, type, known ? std::optional<std::string>(org) : std::nullopt, now));
    if (!fresh) {
      outcome = EventOutcome::kDuplicate;
      return Status::Ok();
    }
    if (!known) return Status::Ok();
    if (mode == "setup") {
      const std::string customer = TextAt(session, "customer");
      if (customer.empty()) return Status::Ok();
      SV_RETURN_IF_ERROR(deps.billing->Ensure(tx, org, now));
      SV_RETURN_IF_ERROR(deps.billing->SetCustomer(tx, org, customer, true, now));
      outcome = EventOutcome::kCardSaved;
      return Status::Ok();
    }
    if (mode != "payment" || TextAt(session, "payment_status") != "paid" || session_id.empty()) {
      return Status::Ok();
    }
    if (!pack.empty() && pack != dops::kPackName) return Status::Ok();
    SV_RETURN_IF_ERROR(deps.billing->Ensure(tx, org, now));
    ports::LedgerEntry grant{deps.ids->NewId(),
                             org,
                             std::string(dops::kPackPurchase),
                             std::string(dops::kBucketPrepaid),
                             dops::kPackCredits,
                             IntAt(session, "amount_total"),
                             session_id,
                             now};
    SV_ASSIGN_OR_RETURN(bool granted, deps.billing->Append(tx, grant));
    outcome = granted ? EventOutcome::kCreditsGranted : EventOutcome::kDuplicate;
    return Status::Ok();
  }));
  return outcome;
}

Result<MeteredCharge> ChargeMeteredRead(const OperationsDeps& deps, const std::string& org_id,
                                        const std::optional<std::string>& reference) {
  const int64_t now = deps.Now();
  MeteredCharge out;
  // Agent-capable plans are never charged: decided on a read, so their reads
  // queue no write (on SQLite, no turn of the one writer).
  std::string plan;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(plan, deps.usage->PlanOf(c, org_id));
    return Status::Ok();
  }));
  if (dops::PlanHasAgentAccess(plan)) return out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    // The plan again inside the write: a plan change since the read wins.
    SV_ASSIGN_OR_RETURN(plan, deps.usage->PlanOf(tx, org_id));
    if (dops::PlanHasAgentAccess(plan)) return Status::Ok();
    SV_ASSIGN_OR_RETURN(bool exists, deps.billing->OrganizationExists(tx, org_id));
    if (!exists) return NotFound("Organization not found");
    SV_RETURN_IF_ERROR(deps.billing->Ensure(tx, org_id, now));
    ports::LedgerEntry charge{deps.ids->NewId(),
                              org_id,
                              std::string(dops::kMeteredRead),
                              std::string(dops::kBucketPrepaid),
                              -dops::kMeteredReadCredits,
                              0,
                              reference,
                              now};
    SV_ASSIGN_OR_RETURN(bool charged, deps.billing->TryCharge(tx, charge));
    if (!charged) {
      return Status(Code::kPaymentRequired, "Prepaid credits exhausted", std::string(kCreditsExhausted));
    }
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, deps.billing->Find(tx, org_id));
    out.charged = true;
    out.prepaid_remaining = a.prepaid_credits;
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::operations
