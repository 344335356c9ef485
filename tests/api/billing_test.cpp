// Billing (Spec 2 "Billing", "Budget", the credit, budget and metered rows of
// "Limits" and "Errors"; server-contract.md "Billing"; issue 28 item 3):
// the budget and who may use it, credit pack checkout with the budget check,
// card setup and the portal against a local Stripe-compatible API (a real
// HTTP server recording the form-encoded calls), inbound events signed by
// the test with OpenSSL's HMAC, the monthly included grant on the injected
// clock, the metered read charge for the agents area, and deletion.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "areas/operations/app/billing.h"
#include "areas/operations/module.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "support/fake_payments.h"
#include "support/hmac.h"

namespace service::testing {
namespace {

namespace json = boost::json;

constexpr const char* kSecretKey = "sk_test_billing_key_123";
constexpr const char* kWebhookSecret = "whsec_test_billing_secret";
constexpr const char* kPublicUrl = "https://console.example";

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }
int64_t I(const json::value& v, const char* key) { return v.at(key).to_number<int64_t>(); }

std::function<void(Options&)> WithBilling(const FakePayments& fake, std::function<void(Options&)> more = {}) {
  const std::string url = fake.url();
  return [url, more](Options& o) {
    o.billing_api_url = url;
    o.billing_secret_key = kSecretKey;
    o.billing_webhook_secret = kWebhookSecret;
    o.public_url = kPublicUrl;
    if (more) more(o);
  };
}

int64_t NowSeconds(TestService& t) { return t.clock().NowMillis() / 1000; }

// A Stripe-Signature header for `body` at `ts`, computed with OpenSSL directly.
std::string Signature(const std::string& body, int64_t ts, const std::string& secret = kWebhookSecret) {
  return "t=" + std::to_string(ts) + ",v1=" + OpensslHmacSha256Hex(secret, std::to_string(ts) + "." + body);
}

TestResponse PostEvent(TestService& t, const std::string& body, const std::string& signature) {
  HeaderList headers = {{"Content-Type", "application/json"}};
  if (!signature.empty()) headers.emplace_back("Stripe-Signature", signature);
  return t.Request("POST", "/v1/billing/webhook", body, headers);
}

TestResponse Deliver(TestService& t, const std::string& body) {
  return PostEvent(t, body, Signature(body, NowSeconds(t)));
}

std::string PaidEvent(const std::string& event_id, const std::string& session_id, const std::string& org,
                      const std::string& payment_status = "paid", int64_t amount = 1000) {
  return json::serialize(json::object{
      {"id", event_id},
      {"type", "checkout.session.completed"},
      {"data", json::object{{"object", json::object{{"id", session_id},
                                                    {"object", "checkout.session"},
                                                    {"mode", "payment"},
                                                    {"payment_status", payment_status},
                                                    {"amount_total", amount},
                                                    {"currency", "usd"},
                                                    {"client_reference_id", org},
                                                    {"metadata",
                                                     json::object{{"orgId", org}, {"pack", "credits"}}}}}}}});
}

std::string SetupEvent(const std::string& event_id, const std::string& session_id, const std::string& org,
                       const std::string& customer) {
  return json::serialize(json::object{
      {"id", event_id},
      {"type", "checkout.session.completed"},
      {"data", json::object{{"object", json::object{{"id", session_id},
                                                    {"mode", "setup"},
                                                    {"status", "complete"},
                                                    {"customer", customer},
                                                    {"metadata", json::object{{"orgId", org}}}}}}}});
}

json::value Subscription(TestService& t, const Member& m) {
  TestResponse r = t.Get("/v1/billing/subscription", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}

int64_t Prepaid(TestService& t, const Member& m) { return I(Subscription(t, m).at("credits"), "prepaid"); }

TestResponse PutBudget(TestService& t, const Member& m, const std::string& body) {
  HeaderList headers = m.headers();
  headers.emplace_back("Content-Type", "application/json");
  return t.Request("PUT", "/v1/billing/budget", body, headers);
}

TestResponse Checkout(TestService& t, const Member& m,
                      const json::value& body = json::object{{"pack", "credits"}}) {
  return t.Post("/v1/billing/create-checkout-session", body, m.headers());
}

const app::operations::OperationsDeps& Ops(TestService& t) {
  return internal::ModulesOf(t.service()).Get<modules::OperationsModule>().deps();
}

TEST_CASE(
    "billing: without a secret key checkout, card setup and portal answer 501, without a webhook secret "
    "events are refused") {
  TestService t;
  Member admin = NewOrgWithMember(t, "admin");
  for (const char* path :
       {"/v1/billing/create-checkout-session", "/v1/billing/card-setup-session", "/v1/billing/portal"}) {
    json::object body;
    if (std::string(path).find("checkout") != std::string::npos) body["pack"] = "credits";
    TestResponse r = t.Post(path, body, admin.headers());
    CHECK_MESSAGE(r.status == 501, path, r.body);
    CHECK(r.json.at("error").is_string());
  }
  const std::string body = PaidEvent("evt_1", "cs_1", admin.org_id);
  CHECK(Deliver(t, body).status == 501);
  json::value sub = Subscription(t, admin);
  CHECK_FALSE(sub.at("billingConfigured").as_bool());
  CHECK(I(sub.at("credits"), "prepaid") == 0);
  // The budget is database only: it works without a provider.
  CHECK(t.Get("/v1/billing/budget", admin.headers()).status == 200);
}

TEST_CASE("billing budget: defaults, validation codes, the auto top-up rules and who may use it") {
  FakePayments fake;
  TestService t(WithBilling(fake));
  Member admin = NewOrgWithMember(t, "admin");
  Member manager = AddMemberWithRole(t, admin.org_id, "manager");
  Member member = AddMemberWithRole(t, admin.org_id, "member");

  TestResponse r = t.Get("/v1/billing/budget", admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(I(r.json, "monthlyBudgetCents") == 0);
  CHECK(r.json.at("autoTopUp") == false);
  CHECK(r.json.at("paymentMethodOnFile") == false);
  CHECK(I(r.json, "monthToDateSpendCents") == 0);
  CHECK(S(r.json, "month") == "2026-01");

  for (const Member* who : {&manager, &member}) {
    CHECK(t.Get("/v1/billing/budget", who->headers()).status == 403);
    CHECK(PutBudget(t, *who, R"({"monthlyBudgetCents":100})").status == 403);
    CHECK(Checkout(t, *who).status == 403);
    CHECK(t.Post("/v1/billing/card-setup-session", json::object{}, who->headers()).status == 403);
    CHECK(t.Post("/v1/billing/portal", json::object{}, who->headers()).status == 403);
    CHECK(t.Get("/v1/billing/subscription", who->headers()).status == 403);
  }
  // Another organization's admin sees its own budget only; a missing org header is refused.
  Member other = NewOrgWithMember(t, "admin");
  REQUIRE(PutBudget(t, other, R"({"monthlyBudgetCents":777})").status == 200);
  CHECK(I(t.Get("/v1/billing/budget", admin.headers()).json, "monthlyBudgetCents") == 0);
  CHECK(t.Get("/v1/billing/budget", Bearer(admin.token)).status != 200);

  const char* bad[] = {
      "",
      "{}",
      "[]",
      R"({"monthlyBudgetCents":"500"})",
      R"({"monthlyBudgetCents":-1})",
      R"({"monthlyBudgetCents":10000001})",
      R"({"monthlyBudgetCents":1.5})",
      R"({"monthlyBudgetCents":true})",
      R"({"autoTopUp":"yes"})",
      R"({"autoTopUp":null})",
      R"({"monthlyBudgetCents":100,"extra":1})",
      R"({"monthlybudgetcents":100})",
      "{not json",
  };
  for (const char* body : bad) {
    r = PutBudget(t, admin, body);
    CHECK_MESSAGE(r.status == 400, body, " -> ", r.body);
    CHECK_MESSAGE(r.json.is_object(), body);
    if (r.json.is_object()) {
      CHECK_MESSAGE(S(r.json, "code") == "VALIDATION_ERROR", body);
      CHECK(r.json.at("error").is_string());
    }
  }
  CHECK(I(t.Get("/v1/billing/budget", admin.headers()).json, "monthlyBudgetCents") == 0);

  r = PutBudget(t, admin, R"({"monthlyBudgetCents":10000000})");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(I(r.json, "monthlyBudgetCents") == 10000000);
  r = PutBudget(t, admin, R"({"monthlyBudgetCents":500})");
  REQUIRE(r.status == 200);
  CHECK(I(r.json, "monthlyBudgetCents") == 500);
  CHECK(S(r.json, "month") == "2026-01");

  // Auto top-up: needs a budget above 0, then a card.
  r = PutBudget(t, admin, R"({"autoTopUp":true})");
  CHECK(r.status == 400);
  CHECK(S(r.json, "code") == "AUTO_TOP_UP_REQUIRES_CARD");
  r = PutBudget(t, admin, R"({"monthlyBudgetCents":0,"autoTopUp":true})");
  CHECK(r.status == 400);
  CHECK(S(r.json, "code") == "AUTO_TOP_UP_REQUIRES_BUDGET");
  CHECK(I(t.Get("/v1/billing/budget", admin.headers()).json, "monthlyBudgetCents") == 500);

  // A card on file (a completed setup session) lets it be stored.
  REQUIRE(Deliver(t, SetupEvent("evt_setup", "cs_setup", admin.org_id, "cus_42")).status == 200);
  r = PutBudget(t, admin, R"({"autoTopUp":true})");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("autoTopUp") == true);
  CHECK(r.json.at("paymentMethodOnFile") == true);
  // Null (or 0) means never charge and forces auto top-up off.
  r = PutBudget(t, admin, R"({"monthlyBudgetCents":null})");
  REQUIRE(r.status == 200);
  CHECK(I(r.json, "monthlyBudgetCents") == 0);
  CHECK(r.json.at("autoTopUp") == false);
  r = PutBudget(t, admin, R"({"monthlyBudgetCents":300,"autoTopUp":true})");
  REQUIRE(r.status == 200);
  r = PutBudget(t, admin, R"({"monthlyBudgetCents":0})");
  REQUIRE(r.status == 200);
  CHECK(r.json.at("autoTopUp") == false);
}

TEST_CASE("billing checkout: the budget check comes first with its figures, then the provider's form") {
  FakePayments fake;
  TestService t(WithBilling(fake));
  Member admin = NewOrgWithMember(t, "admin");

  for (const json::value& body :
       {json::value(json::object{}), json::value(json::object{{"pack", "other"}}),
        json::value(json::object{{"pack", "credits"}, {"x", 1}}), json::value(json::object{{"pack", 1}})}) {
    TestResponse r = Checkout(t, admin, body);
    CHECK_MESSAGE(r.status == 400, json::serialize(body));
  }

  REQUIRE(PutBudget(t, admin, R"({"monthlyBudgetCents":500})").status == 200);
  TestResponse r = Checkout(t, admin);
  REQUIRE_MESSAGE(r.status == 402, r.body);
  CHECK(S(r.json, "code") == "BUDGET_EXCEEDED");
  CHECK(r.json.at("error").is_string());
  CHECK(I(r.json, "monthlyBudgetCents") == 500);
  CHECK(I(r.json, "monthToDateSpendCents") == 0);
  CHECK(I(r.json, "chargeCents") == 1000);
  CHECK(fake.calls().empty());

  REQUIRE(PutBudget(t, admin, R"({"monthlyBudgetCents":1500})").status == 200);
  r = Checkout(t, admin);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "url").rfind("https://pay.example/cs_test_", 0) == 0);
  const auto calls = fake.CallsTo("/v1/checkout/sessions");
  REQUIRE(calls.size() == 1);
  const PaymentsCall& c = calls[0];
  CHECK(c.authorization == std::string("Bearer ") + kSecretKey);
  CHECK(c.content_type.rfind("application/x-www-form-urlencoded", 0) == 0);
  CHECK_FALSE(c.idempotency_key.empty());
  CHECK(c.form.at("mode") == "payment");
  CHECK(c.form.at("line_items[0][price_data][unit_amount]") == "1000");
  CHECK(c.form.at("line_items[0][price_data][currency]") == "usd");
  CHECK(c.form.at("line_items[0][quantity]") == "1");
  CHECK(c.form.at("metadata[orgId]") == admin.org_id);
  CHECK(c.form.at("metadata[pack]") == "credits");
  CHECK(c.form.at("client_reference_id") == admin.org_id);
  CHECK(c.form.at("success_url").rfind(std::string(kPublicUrl) + "/billing", 0) == 0);
  CHECK(c.form.at("cancel_url").rfind(std::string(kPublicUrl) + "/billing", 0) == 0);
  CHECK(c.form.count("customer") == 0);

  // The pack is paid: 1000 cents this month; a second pack would pass 1500.
  REQUIRE(Deliver(t, PaidEvent("evt_paid", S(r.json, "id"), admin.org_id)).status == 200);
  r = Checkout(t, admin);
  REQUIRE(r.status == 402);
  CHECK(I(r.json, "monthToDateSpendCents") == 1000);
  CHECK(I(r.json, "monthlyBudgetCents") == 1500);
  CHECK(I(t.Get("/v1/billing/budget", admin.headers()).json, "monthToDateSpendCents") == 1000);
  // A new UTC month starts with no spend.
  t.clock().Advance(int64_t{20} * 24 * 3600 * 1000);  // 2026-02-04
  RenewToken(t, admin);
  CHECK(S(t.Get("/v1/billing/budget", admin.headers()).json, "month") == "2026-02");
  CHECK(Checkout(t, admin).status == 200);
  // A budget of 0 never refuses.
  REQUIRE(PutBudget(t, admin, R"({"monthlyBudgetCents":0})").status == 200);
  CHECK(Checkout(t, admin).status == 200);
  CHECK(fake.CallsTo("/v1/checkout/sessions").size() == 3);
  std::set<std::string> keys;
  for (const PaymentsCall& call : fake.calls()) keys.insert(call.idempotency_key);
  CHECK(keys.size() == 3);

  // The provider fails: 502 with a generic message; neither the key nor the reply shows.
  fake.Fail(true);
  r = Checkout(t, admin);
  CHECK(r.status == 502);
  CHECK(r.body.find("sk_test") == std::string::npos);
  CHECK(r.body.find("boom") == std::string::npos);
}

TEST_CASE("billing events: signatures, replays, unpaid sessions, unknown types and the usage features") {
  FakePayments fake;
  TestService t(WithBilling(fake));
  Member admin = NewOrgWithMember(t, "admin");
  Member member = AddMemberWithRole(t, admin.org_id, "member");
  TestResponse usage = t.Get("/v1/org/usage", member.headers());
  REQUIRE(usage.status == 200);
  CHECK(S(usage.json.at("features"), "mcp_source") == "none");

  const std::string body = PaidEvent("evt_1", "cs_1", admin.org_id);
  const int64_t now = NowSeconds(t);
  const std::string other = OpensslHmacSha256Hex("another secret", std::to_string(now) + "." + body);
  const std::string refused[] = {
      "",
      "garbage",
      "t=" + std::to_string(now),
      "v1=" + OpensslHmacSha256Hex(kWebhookSecret, body),
      Signature(body, now - 301),
      Signature(body, now + 301),
      Signature(body, now, "another secret"),
      "t=" + std::to_string(now) + ",v1=" + other,
      Signature(body + " ", now),
      "t=" + std::to_string(now) +
          ",v0=" + OpensslHmacSha256Hex(kWebhookSecret, std::to_string(now) + "." + body),
  };
  for (const std::string& sig : refused) {
    TestResponse r = PostEvent(t, body, sig);
    CHECK_MESSAGE(r.status == 400, sig, " -> ", r.body);
  }
  // The signed text is the raw body: another body under a valid header is refused.
  CHECK(PostEvent(t, PaidEvent("evt_2", "cs_2", admin.org_id), Signature(body, now)).status == 400);
  CHECK(Prepaid(t, admin) == 0);
  CHECK(Subscription(t, admin).at("ledger").as_array().empty());

  // Within the tolerance, with several v1 values of which one matches.
  const std::string ts = std::to_string(now - 299);
  const std::string good = OpensslHmacSha256Hex(kWebhookSecret, ts + "." + body);
  TestResponse r =
      PostEvent(t, body, "t=" + ts + ",v1=" + other + ",v1=" + good + ",v0=" + std::string(64, 'a'));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "outcome") == "credits_granted");
  CHECK(Prepaid(t, admin) == 2000);
  json::value sub = Subscription(t, admin);
  CHECK(I(sub.at("credits"), "balance") == 2000);
  CHECK(I(sub.at("credits"), "included") == 0);
  REQUIRE(sub.at("ledger").as_array().size() == 1);
  const json::value& row = sub.at("ledger").at(0);
  CHECK(S(row, "kind") == "pack_purchase");
  CHECK(S(row, "bucket") == "prepaid");
  CHECK(I(row, "credits") == 2000);
  CHECK(I(row, "cents") == 1000);

  // The same event again, and another event for the same session: granted once.
  r = Deliver(t, body);
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "outcome") == "duplicate");
  r = Deliver(t, PaidEvent("evt_1b", "cs_1", admin.org_id));
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "outcome") == "duplicate");
  CHECK(Prepaid(t, admin) == 2000);

  // Unpaid: nothing. Unknown types: 200, ignored. Unknown organization: ignored.
  r = Deliver(t, PaidEvent("evt_3", "cs_3", admin.org_id, "unpaid"));
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "outcome") == "ignored");
  r = Deliver(t, R"({"id":"evt_4","type":"invoice.paid","data":{"object":{}}})");
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "outcome") == "ignored");
  r = Deliver(t, PaidEvent("evt_5", "cs_5", "00000000-0000-4000-8000-00000000dead"));
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "outcome") == "ignored");
  CHECK(Deliver(t, R"({"type":"checkout.session.completed"})").status == 400);
  CHECK(Prepaid(t, admin) == 2000);

  // An asynchronous payment that succeeds later grants once too.
  r = Deliver(
      t, json::serialize(json::object{
             {"id", "evt_6"},
             {"type", "checkout.session.async_payment_succeeded"},
             {"data",
              json::object{{"object", json::object{{"id", "cs_3"},
                                                   {"mode", "payment"},
                                                   {"payment_status", "paid"},
                                                   {"amount_total", 1000},
                                                   {"metadata", json::object{{"orgId", admin.org_id},
                                                                             {"pack", "credits"}}}}}}}}));
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "outcome") == "credits_granted");
  CHECK(Prepaid(t, admin) == 4000);

  // Prepaid credits give a free organization agent access (Spec 1 /v1/org/usage).
  usage = t.Get("/v1/org/usage", member.headers());
  REQUIRE(usage.status == 200);
  CHECK(usage.json.at("features").at("mcp").as_bool());
  CHECK(S(usage.json.at("features"), "mcp_source") == "credits");
  CHECK(I(usage.json, "prepaidCredits") == 4000);
  // The plan is untouched.
  CHECK(S(Subscription(t, admin), "plan") == "free");
}

TEST_CASE("billing card setup and portal: the customer is made once, the setup event stores the card") {
  FakePayments fake;
  TestService t(WithBilling(fake));
  Member admin = NewOrgWithMember(t, "admin");

  // The portal needs a customer: none yet.
  TestResponse r = t.Post("/v1/billing/portal", json::object{}, admin.headers());
  CHECK(r.status == 409);
  CHECK(S(r.json, "code") == "NO_BILLING_CUSTOMER");

  for (const json::value& body :
       {json::value(json::object{{"returnTo", "elsewhere"}}), json::value(json::object{{"returnTo", 1}}),
        json::value(json::object{{"other", "settings"}})}) {
    CHECK(t.Post("/v1/billing/card-setup-session", body, admin.headers()).status == 400);
  }
  CHECK(fake.calls().empty());

  r = t.Post("/v1/billing/card-setup-session", json::object{}, admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "url").rfind("https://pay.example/", 0) == 0);
  auto customers = fake.CallsTo("/v1/customers");
  REQUIRE(customers.size() == 1);
  CHECK(customers[0].form.at("metadata[orgId]") == admin.org_id);
  CHECK_FALSE(customers[0].idempotency_key.empty());
  auto setups = fake.CallsTo("/v1/checkout/sessions");
  REQUIRE(setups.size() == 1);
  CHECK(setups[0].form.at("mode") == "setup");
  CHECK(setups[0].form.at("customer") == "cus_test_1");
  CHECK(setups[0].form.at("metadata[orgId]") == admin.org_id);
  CHECK(setups[0].form.at("success_url").rfind(std::string(kPublicUrl) + "/billing", 0) == 0);
  CHECK_FALSE(setups[0].idempotency_key.empty());
  CHECK(setups[0].authorization == std::string("Bearer ") + kSecretKey);

  // Again with returnTo setup: the same customer, back to the first-run page.
  r = t.Post("/v1/billing/card-setup-session", json::object{{"returnTo", "setup"}}, admin.headers());
  REQUIRE(r.status == 200);
  CHECK(fake.CallsTo("/v1/customers").size() == 1);
  setups = fake.CallsTo("/v1/checkout/sessions");
  REQUIRE(setups.size() == 2);
  CHECK(setups[1].form.at("customer") == "cus_test_1");
  CHECK(setups[1].form.at("success_url").rfind(std::string(kPublicUrl) + "/welcome", 0) == 0);
  CHECK_FALSE(Subscription(t, admin).at("paymentMethodOnFile").as_bool());

  // The completed setup session: customer and card flag stored, plan untouched, no credits.
  r = Deliver(t, SetupEvent("evt_s", "cs_s", admin.org_id, "cus_test_1"));
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "outcome") == "card_saved");
  json::value sub = Subscription(t, admin);
  CHECK(sub.at("paymentMethodOnFile").as_bool());
  CHECK(S(sub, "plan") == "free");
  CHECK(I(sub.at("credits"), "balance") == 0);
  CHECK(t.Get("/v1/billing/budget", admin.headers()).json.at("paymentMethodOnFile") == true);

  r = t.Post("/v1/billing/portal", json::object{}, admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "url").rfind("https://pay.example/bps_test_", 0) == 0);
  auto portals = fake.CallsTo("/v1/billing_portal/sessions");
  REQUIRE(portals.size() == 1);
  CHECK(portals[0].form.at("customer") == "cus_test_1");
  CHECK(portals[0].form.at("return_url") == std::string(kPublicUrl) + "/billing");

  // A later checkout names the customer.
  REQUIRE(Checkout(t, admin).status == 200);
  CHECK(fake.CallsTo("/v1/checkout/sessions").back().form.at("customer") == "cus_test_1");
}

TEST_CASE("billing: pro's included credits are granted monthly and the remainder expires, prepaid stays") {
  FakePayments fake;
  TestService t(WithBilling(fake));
  Member pro = NewOrgWithMember(t, "admin", "pro");
  Member free = NewOrgWithMember(t, "admin", "free");

  json::value sub = Subscription(t, pro);
  CHECK(I(sub.at("credits"), "included") == 10000);
  CHECK(I(sub.at("credits"), "includedMonthly") == 10000);
  REQUIRE(sub.at("ledger").as_array().size() == 1);
  CHECK(S(sub.at("ledger").at(0), "kind") == "included_grant");
  // Read again in the same month: nothing new.
  CHECK(Subscription(t, pro).at("ledger").as_array().size() == 1);
  REQUIRE(Deliver(t, PaidEvent("evt_p", "cs_p", pro.org_id)).status == 200);

  CHECK(I(Subscription(t, free).at("credits"), "included") == 0);
  CHECK(Subscription(t, free).at("ledger").as_array().empty());

  // Into February: the January remainder expires, February's grant arrives, prepaid stays.
  t.clock().Advance(int64_t{17} * 24 * 3600 * 1000 + 14 * 3600 * 1000);  // 2026-02-02T00:00Z
  RenewToken(t, pro);
  sub = Subscription(t, pro);
  CHECK(I(sub.at("credits"), "included") == 10000);
  CHECK(I(sub.at("credits"), "prepaid") == 2000);
  CHECK(I(sub.at("credits"), "balance") == 12000);
  const json::array& ledger = sub.at("ledger").as_array();
  REQUIRE(ledger.size() == 4);
  int grants = 0, expiries = 0;
  for (const json::value& row : ledger) {
    if (S(row, "kind") == "included_grant") ++grants;
    if (S(row, "kind") == "included_expiry") {
      ++expiries;
      CHECK(I(row, "credits") == -10000);
    }
  }
  CHECK(grants == 2);
  CHECK(expiries == 1);
  CHECK(S(sub.at("budget"), "month") == "2026-02");
  CHECK(Subscription(t, pro).at("ledger").as_array().size() == 4);
}

TEST_CASE("metered agent read charge: 2 prepaid credits, 402 credits_exhausted at zero, agent plans never") {
  FakePayments fake;
  TestService t(WithBilling(fake));
  Member admin = NewOrgWithMember(t, "admin");
  const auto& deps = Ops(t);

  auto charge = app::operations::ChargeMeteredRead(deps, admin.org_id);
  REQUIRE_FALSE(charge.ok());
  CHECK(charge.status().code() == Code::kPaymentRequired);
  CHECK(charge.status().error_code() == "credits_exhausted");
  CHECK(Subscription(t, admin).at("ledger").as_array().empty());

  REQUIRE(Deliver(t, PaidEvent("evt_m", "cs_m", admin.org_id)).status == 200);
  t.clock().Advance(1);
  charge = app::operations::ChargeMeteredRead(deps, admin.org_id, std::string("read-1"));
  REQUIRE_MESSAGE(charge.ok(), charge.status().ToString());
  CHECK(charge->charged);
  CHECK(charge->prepaid_remaining == 1998);
  json::value sub = Subscription(t, admin);
  CHECK(I(sub.at("credits"), "prepaid") == 1998);
  const json::value& newest = sub.at("ledger").at(0);
  CHECK(S(newest, "kind") == "metered_read");
  CHECK(I(newest, "credits") == -2);
  CHECK(I(newest, "cents") == 0);
  // A charge is no spend against the budget.
  CHECK(I(sub.at("budget"), "monthToDateSpendCents") == 1000);

  for (const char* plan : {"pro", "team", "enterprise"}) {
    Member m = NewOrgWithMember(t, "admin", plan);
    auto c = app::operations::ChargeMeteredRead(deps, m.org_id);
    REQUIRE_MESSAGE(c.ok(), plan);
    CHECK_FALSE(c->charged);
  }
  Member pro = NewOrgWithMember(t, "admin", "pro");
  REQUIRE(app::operations::ChargeMeteredRead(deps, pro.org_id).ok());
  const json::value pro_sub = Subscription(t, pro);
  for (const json::value& row : pro_sub.at("ledger").as_array()) {
    CHECK(S(row, "kind") != "metered_read");
  }
}

TEST_CASE("billing: deleting an organization deletes its billing rows") {
  FakePayments fake;
  const std::string dir = FreshTempDir("billing-delete");
  auto t = NewAccountsService([&](Options& o) {
    WithFileMail(dir)(o);
    WithBilling(fake)(o);
  });
  const Account solo = RegisterAccount(*t, "solo-billing@example.com", "Solo Billing");
  REQUIRE(Deliver(*t, PaidEvent("evt_d", "cs_d", solo.org_id)).status == 200);
  REQUIRE(PutBudget(*t, Member{solo.user_id, solo.email, solo.org_id, "admin", solo.access_token},
                    R"({"monthlyBudgetCents":900})")
              .status == 200);
  // internal state: the billing tables have no route that lists them across organizations.
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM credit_ledger WHERE org_id = ?", {solo.org_id}) == 1);
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM billing_events WHERE org_id = ?", {solo.org_id}) == 1);

  t->clock().Advance(1);  // mails to one address sort by time
  REQUIRE(t->Post("/v1/auth/data-delete/request", json::object{}, Bearer(solo.access_token)).status == 202);
  // The confirmation link: in the outbox until the mail worker sends it, then in the mail folder.
  std::string token;
  for (int i = 0; i < 300 && token.size() != 64; ++i) {
    token = TokenAfter(LastQueuedMailText(*t, solo.email), "/delete-account#token=");
    for (const std::string& mail : ReadMailDir(dir)) {
      if (token.size() != 64) token = TokenAfter(mail, "/delete-account#token=");
    }
    if (token.size() != 64) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(token.size() == 64);
  auto done = t->Post("/v1/auth/data-delete/confirm", json::object{{"token", token}});
  REQUIRE_MESSAGE(done.status == 200, done.body);
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM credit_ledger WHERE org_id = ?", {solo.org_id}) == 0);
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM billing_events WHERE org_id = ?", {solo.org_id}) == 0);
  CHECK(QueryInt(*t, "SELECT COUNT(*) FROM billing_accounts WHERE org_id = ?", {solo.org_id}) == 0);
}

TEST_CASE("billing under a support session: the subscription reads, the budget and purchases are refused") {
  FakePayments fake;
  const std::string dir = FreshTempDir("billing-support");
  auto t = NewAccountsService([&](Options& o) {
    WithFileMail(dir)(o);
    WithBilling(fake)(o);
    o.superadmin_emails = {"root-billing@example.com"};
  });
  const Account root = RegisterAccount(*t, "root-billing@example.com", "Operators");
  const Account customer = RegisterAccount(*t, "owner-billing@customer.example", "Customer Billing");
  std::string token;
  for (int i = 0; i < 300 && token.empty(); ++i) {
    token = TokenAfter(LastQueuedMailText(*t, root.email), "/verify-email#token=");
    for (const std::string& mail : ReadMailDir(dir)) {
      if (token.empty() && mail.find(root.email) != std::string::npos)
        token = TokenAfter(mail, "/verify-email#token=");
    }
    if (token.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(!token.empty());
  REQUIRE(t->Post("/v1/auth/verify-email", json::object{{"token", token}}).status == 200);
  TestResponse started = t->Post("/v1/admin/support/session", json::object{{"orgId", customer.org_id}},
                                 Bearer(root.access_token));
  REQUIRE_MESSAGE(started.status == 201, started.body);
  HeaderList under = BearerOrg(root.access_token, customer.org_id);
  under.emplace_back("X-Service-Support-Session", S(started.json.at("session"), "id"));

  // Acting as admin: the subscription reads; the budget, checkout, card and portal are the customer's own
  // admins'.
  TestResponse r = t->Get("/v1/billing/subscription", under);
  CHECK_MESSAGE(r.status == 200, r.body);
  CHECK(t->Get("/v1/billing/budget", under).status == 403);
  HeaderList put = under;
  put.emplace_back("Content-Type", "application/json");
  CHECK(t->Request("PUT", "/v1/billing/budget", R"({"monthlyBudgetCents":100})", put).status == 403);
  CHECK(t->Post("/v1/billing/create-checkout-session", json::object{{"pack", "credits"}}, under).status ==
        403);
  CHECK(t->Post("/v1/billing/card-setup-session", json::object{}, under).status == 403);
  CHECK(t->Post("/v1/billing/portal", json::object{}, under).status == 403);
  CHECK(fake.calls().empty());
  // The customer's own admin may.
  const HeaderList own = BearerOrg(customer.access_token, customer.org_id);
  CHECK(t->Get("/v1/billing/budget", own).status == 200);
}

}  // namespace
}  // namespace service::testing
