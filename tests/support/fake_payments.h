// FakePayments: a local Stripe-compatible payments API for the billing tests
// (a real HTTP server on 127.0.0.1, tests/support/stub_http_server.h). It
// answers POST /v1/customers with {id: "cus_test_N"}, POST
// /v1/checkout/sessions with {id: "cs_test_N", url} and POST
// /v1/billing_portal/sessions with {id: "bps_test_N", url}, and records every
// call: form fields decoded (application/x-www-form-urlencoded, the
// provider's bracket notation kept as the field name, e.g. "metadata[orgId]").
// Fail(true) makes every call answer 500.
//
// Thread-safety: all methods are safe from any thread.
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "support/stub_http_server.h"

namespace service::testing {

struct PaymentsCall {
  std::string path;
  std::map<std::string, std::string> form;
  std::string authorization;
  std::string idempotency_key;
  std::string content_type;
};

// Decodes an application/x-www-form-urlencoded body.
std::map<std::string, std::string> DecodeForm(const std::string& body);

class FakePayments {
 public:
  FakePayments();
  // The base URL for SERVICE_BILLING_API_URL ("http://127.0.0.1:PORT").
  std::string url() const { return server_.url(); }
  std::vector<PaymentsCall> calls() const;
  std::vector<PaymentsCall> CallsTo(const std::string& path) const;
  void Fail(bool fail) { fail_ = fail; }

 private:
  StubHttpServer server_;
  std::atomic<int> next_{0};
  std::atomic<bool> fail_{false};
};

}  // namespace service::testing
