// Payments: the payment provider's hosted pages (Spec 2 "Billing"): a
// checkout session for a credit pack, a setup session that saves a card
// and charges nothing, a customer portal session, and the customer those
// belong to. Implemented over the platform's OutboundHttp against a
// Stripe-compatible API (adapters/stripe_payments.cpp).
//
// Failures: kBadGateway when the provider answers anything but 2xx or an
// unreadable body; the transport's classes (kUnavailable, ...) otherwise.
// Messages name the endpoint and the HTTP status only: never the secret key,
// never the provider's reply (it may echo parts of the key).
//
// Thread-safety: calls may run concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ports/outbound_http.h"
#include "service/status.h"

namespace service::ports {

struct HostedSession {
  std::string id;
  std::string url;
};

struct CheckoutRequest {
  std::string org_id;
  std::string customer_id;  // "" when the organization has none yet
  std::string pack;         // "credits"
  int64_t amount_cents = 0;
  int64_t credits = 0;
  std::string currency = "usd";
  std::string success_url;
  std::string cancel_url;
  std::string idempotency_key;
};

struct SetupRequest {
  std::string org_id;
  std::string customer_id;  // REQUIRES: not empty
  std::string currency = "usd";
  std::string success_url;
  std::string cancel_url;
  std::string idempotency_key;
};

class Payments {
 public:
  Payments() = default;
  Payments(const Payments&) = delete;
  Payments& operator=(const Payments&) = delete;
  virtual ~Payments() = default;

  // A new customer for the organization; returns its id.
  virtual Result<std::string> CreateCustomer(const std::string& org_id, const std::string& email,
                                             const std::string& idempotency_key) = 0;
  // A checkout session in payment mode (one line item of amount_cents).
  virtual Result<HostedSession> CreateCheckout(const CheckoutRequest& request) = 0;
  // A checkout session in setup mode.
  virtual Result<HostedSession> CreateSetup(const SetupRequest& request) = 0;
  // A customer portal session.
  virtual Result<HostedSession> CreatePortal(const std::string& customer_id, const std::string& return_url,
                                             const std::string& idempotency_key) = 0;
};

struct PaymentsSettings {
  std::string api_url;     // SERVICE_BILLING_API_URL, e.g. https://api.stripe.com
  std::string secret_key;  // SERVICE_BILLING_SECRET_KEY; sent as the bearer, never logged
};

// The Stripe-compatible client: form-encoded POSTs (bracket notation),
// `Authorization: Bearer <secret key>`, `Idempotency-Key` on creations.
// `http` must outlive it.
std::unique_ptr<Payments> NewStripeCompatiblePayments(const PaymentsSettings& settings, OutboundHttp& http);

}  // namespace service::ports
