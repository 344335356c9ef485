// Billing (Spec 2 "Billing (JWT+Org)", "Budget"):
//   GET  /v1/billing/subscription            {plan, credits{balance, included, prepaid}, paymentMethodOnFile,
//   ...} GET  /v1/billing/budget                  the budget object (direct admins) PUT  /v1/billing/budget
//   {monthlyBudgetCents?, autoTopUp?} -> the budget object POST /v1/billing/create-checkout-session {pack:
//   "credits"} -> {url, id}; 402 BUDGET_EXCEEDED POST /v1/billing/card-setup-session      {returnTo?:
//   setup|settings} -> {url} POST /v1/billing/portal                  -> {url}; 409 NO_BILLING_CUSTOMER POST
//   /v1/billing/webhook                 the payment provider's events (no auth; Stripe-Signature)
//
// Who: the subscription is read by anyone who may view billing (admins,
// support sessions included); the budget, purchases, card setup and the
// portal need a direct workspace admin: a person's session whose role is
// admin, not an agent token and not a support session (403).
#include <boost/json.hpp>

#include "api/json.h"
#include "areas/operations/api/routes.h"
#include "areas/operations/app/billing.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace ops = app::operations;
using ops::OperationsDeps;

app::ConsoleActor ActorOf(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

// A direct workspace admin: a person (not an agent token) acting as admin in
// the organization on their own membership (not under a support session).
bool IsDirectAdmin(const Context& ctx) {
  return ctx.principal.kind == Principal::Kind::kUser && ctx.principal.role == "admin" &&
         ctx.principal.support_session_id.empty();
}

Response Forbidden() { return ErrorResponse(403, "Only a workspace admin may do this"); }

// StatusResponse, except that "billing not configured" answers 501.
Response BillingStatus(const Status& s) {
  if (s.error_code() == ops::kBillingNotConfigured) {
    return ErrorResponse(501, s.message(), json::object{{"code", s.error_code()}});
  }
  return StatusResponse(s);
}

json::object BudgetJson(const ops::BudgetView& v) {
  return json::object{{"monthlyBudgetCents", v.budget.monthly_budget_cents},
                      {"autoTopUp", v.budget.auto_top_up},
                      {"paymentMethodOnFile", v.payment_method_on_file},
                      {"monthToDateSpendCents", v.month_to_date_spend_cents},
                      {"month", v.month}};
}

// The body as a JSON object; anything else (malformed, not an object) is
// `error` with VALIDATION_ERROR.
Result<const json::object*> ObjectBody(Context& ctx) {
  Result<const json::value*> body = ctx.Body();
  if (!body.ok() || !(*body)->is_object()) {
    return Status(Code::kInvalidArgument, body.ok() ? "Body must be a JSON object" : body.status().message(),
                  std::string(domain::operations::kValidationError));
  }
  return &(*body)->get_object();
}

Response HandleSubscription(const OperationsDeps& deps, Context& ctx) {
  auto s = ops::GetSubscription(deps, ActorOf(ctx));
  if (!s.ok()) return BillingStatus(s.status());
  json::array ledger;
  for (const ports::LedgerEntry& e : s->ledger) {
    ledger.push_back(json::object{{"id", e.id},
                                  {"kind", e.kind},
                                  {"bucket", e.bucket},
                                  {"credits", e.credits},
                                  {"cents", e.cents},
                                  {"createdAt", util::FormatIso8601(e.created_at)}});
  }
  return JsonResponse(
      200, json::object{{"plan", s->plan},
                        {"credits", json::object{{"balance", s->included_credits + s->prepaid_credits},
                                                 {"included", s->included_credits},
                                                 {"prepaid", s->prepaid_credits},
                                                 {"includedMonthly", s->included_monthly}}},
                        {"paymentMethodOnFile", s->payment_method_on_file},
                        {"hasCustomer", s->has_customer},
                        {"billingConfigured", s->configured},
                        {"pack", json::object{{"pack", domain::operations::kPackName},
                                              {"credits", domain::operations::kPackCredits},
                                              {"chargeCents", domain::operations::kPackCents}}},
                        {"budget", BudgetJson(s->budget)},
                        {"ledger", std::move(ledger)}});
}

Response HandleGetBudget(const OperationsDeps& deps, Context& ctx) {
  if (!IsDirectAdmin(ctx)) return Forbidden();
  auto v = ops::GetBudget(deps, ActorOf(ctx));
  if (!v.ok()) return BillingStatus(v.status());
  return JsonResponse(200, BudgetJson(*v));
}

Response HandlePutBudget(const OperationsDeps& deps, Context& ctx) {
  if (!IsDirectAdmin(ctx)) return Forbidden();
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) {
    return ErrorResponse(400, body.status().message(),
                         json::object{{"code", domain::operations::kValidationError}});
  }
  auto patch = domain::operations::ParseBudgetPatch(**body);
  if (!patch.ok()) return StatusResponse(patch.status());
  auto v = ops::UpdateBudget(deps, ActorOf(ctx), *patch);
  if (!v.ok()) return BillingStatus(v.status());
  return JsonResponse(200, BudgetJson(*v));
}

Response HandleCheckout(const OperationsDeps& deps, Context& ctx) {
  if (!IsDirectAdmin(ctx)) return Forbidden();
  SV_ASSIGN_OR_RESPOND(const json::object* body, ObjectBody(ctx));
  const json::value* pack = Field(*body, "pack");
  if (body->size() != 1 || pack == nullptr || !pack->is_string() ||
      pack->get_string() != domain::operations::kPackName) {
    return ErrorResponse(400, "Body must be {\"pack\": \"credits\"}",
                         json::object{{"code", domain::operations::kValidationError}});
  }
  auto session = ops::CreateCreditCheckout(deps, ActorOf(ctx));
  if (!session.ok()) return BillingStatus(session.status());
  return JsonResponse(200, json::object{{"url", session->url}, {"id", session->id}});
}

Response HandleCardSetup(const OperationsDeps& deps, Context& ctx) {
  if (!IsDirectAdmin(ctx)) return Forbidden();
  SV_ASSIGN_OR_RESPOND(const json::object* body, ObjectBody(ctx));
  ops::CardReturn back = ops::CardReturn::kSettings;
  for (const auto& [key, value] : *body) {
    if (key != "returnTo") {
      return ErrorResponse(400, "Unknown field: " + std::string(key),
                           json::object{{"code", domain::operations::kValidationError}});
    }
    if (value.is_string() && value.get_string() == "setup") {
      back = ops::CardReturn::kSetup;
    } else if (!(value.is_string() && value.get_string() == "settings")) {
      return ErrorResponse(400, "returnTo must be \"setup\" or \"settings\"",
                           json::object{{"code", domain::operations::kValidationError}});
    }
  }
  auto session = ops::CreateCardSetup(deps, ActorOf(ctx), back);
  if (!session.ok()) return BillingStatus(session.status());
  return JsonResponse(200, json::object{{"url", session->url}});
}

Response HandlePortal(const OperationsDeps& deps, Context& ctx) {
  if (!IsDirectAdmin(ctx)) return Forbidden();
  auto session = ops::CreatePortalSession(deps, ActorOf(ctx));
  if (!session.ok()) return BillingStatus(session.status());
  return JsonResponse(200, json::object{{"url", session->url}});
}

Response HandleWebhook(const OperationsDeps& deps, Context& ctx) {
  auto outcome = ops::HandlePaymentEvent(deps, ctx.req.headers.Get("Stripe-Signature"), ctx.req.body);
  if (!outcome.ok()) return BillingStatus(outcome.status());
  std::string_view what = "ignored";
  switch (*outcome) {
    case ops::EventOutcome::kIgnored:
      break;
    case ops::EventOutcome::kDuplicate:
      what = "duplicate";
      break;
    case ops::EventOutcome::kCreditsGranted:
      what = "credits_granted";
      break;
    case ops::EventOutcome::kCardSaved:
      what = "card_saved";
      break;
  }
  return JsonResponse(200, json::object{{"received", true}, {"outcome", what}});
}

}  // namespace

void RegisterBillingRoutes(Pipeline& p, const OperationsDeps& deps) {
  Router& r = p.router();
  using Fn = Response (*)(const OperationsDeps&, Context&);
  using domain::Capability;
  const auto add = [&](const char* method, const char* pattern, Capability capability, Fn fn) {
    r.Add(method, pattern, RateClass::kGeneral, AuthMode::kJwtOrg, capability, Bind(deps, fn));
  };
  add("GET", "/v1/billing/subscription", Capability::kViewBilling, HandleSubscription);
  add("GET", "/v1/billing/budget", Capability::kManageBilling, HandleGetBudget);
  add("PUT", "/v1/billing/budget", Capability::kManageBilling, HandlePutBudget);
  add("POST", "/v1/billing/create-checkout-session", Capability::kManageBilling, HandleCheckout);
  add("POST", "/v1/billing/card-setup-session", Capability::kManageBilling, HandleCardSetup);
  add("POST", "/v1/billing/portal", Capability::kManageBilling, HandlePortal);
  // The provider signs its events; no session, no rate class (its bursts come
  // from few addresses).
  r.Add("POST", "/v1/billing/webhook", RateClass::kNone, AuthMode::kNone, Bind(deps, HandleWebhook));
}

}  // namespace service::api
