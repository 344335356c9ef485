// The Stripe-compatible payments client behind ports::Payments: form-encoded
// POSTs in the provider's bracket notation (metadata[orgId]=...), the secret
// key as the bearer, an Idempotency-Key on every creation, {id, url} read
// from the JSON reply.
#include <boost/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "areas/operations/ports/payments.h"

namespace service::ports {
namespace {

namespace json = boost::json;

using Form = std::vector<std::pair<std::string, std::string>>;

std::string FormEscape(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string FormEncode(const Form& form) {
  std::string out;
  for (const auto& [k, v] : form) {
    if (!out.empty()) out.push_back('&');
    out += FormEscape(k);
    out.push_back('=');
    out += FormEscape(v);
  }
  return out;
}

class StripeCompatiblePayments final : public Payments {
 public:
  StripeCompatiblePayments(const PaymentsSettings& settings, OutboundHttp& http)
      : base_(Base(settings.api_url)), key_(settings.secret_key), http_(http) {}

  Result<std::string> CreateCustomer(const std::string& org_id, const std::string& email,
                                     const std::string& idempotency_key) override {
    Form form = {{"metadata[orgId]", org_id}};
    if (!email.empty()) form.emplace_back("email", email);
    SV_ASSIGN_OR_RETURN(json::object reply, Post("/v1/customers", form, idempotency_key));
    std::string id = Text(reply, "id");
    if (id.empty())
      return Status(Code::kBadGateway, "payment provider: /v1/customers answered without an id");
    return id;
  }

  Result<HostedSession> CreateCheckout(const CheckoutRequest& r) override {
    Form form = {
        {"mode", "payment"},
        {"line_items[0][quantity]", "1"},
        {"line_items[0][price_data][currency]", r.currency},
        {"line_items[0][price_data][unit_amount]", std::to_string(r.amount_cents)},
        {"line_items[0][price_data][product_data][name]", FormatCredits(r.credits) + " credits"},
        {"metadata[orgId]", r.org_id},
        {"metadata[pack]", r.pack},
        {"metadata[credits]", std::to_string(r.credits)},
        {"client_reference_id", r.org_id},
        {"success_url", r.success_url},
        {"cancel_url", r.cancel_url},
    };
    if (!r.customer_id.empty()) form.emplace_back("customer", r.customer_id);
    return Session("/v1/checkout/sessions", form, r.idempotency_key);
  }

  Result<HostedSession> CreateSetup(const SetupRequest& r) override {
    Form form = {
        {"mode", "setup"},
        {"currency", r.currency},
        {"customer", r.customer_id},
        {"metadata[orgId]", r.org_id},
        {"client_reference_id", r.org_id},
        {"success_url", r.success_url},
        {"cancel_url", r.cancel_url},
    };
    return Session("/v1/checkout/sessions", form, r.idempotency_key);
  }

  Result<HostedSession> CreatePortal(const std::string& customer_id, const std::string& return_url,
                                     const std::string& idempotency_key) override {
    return Session("/v1/billing_portal/sessions", {{"customer", customer_id}, {"return_url", return_url}},
                   idempotency_key);
  }

 private:
  static std::string Base(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
  }

  static std::string FormatCredits(int64_t n) {
    std::string digits = std::to_string(n);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
      out.push_back(digits[i]);
    }
    return out;
  }

  static std::string Text(const json::object& o, std::string_view key) {
    auto it = o.find(key);
    return it != o.end() && it->value().is_string() ? std::string(it->value().get_string()) : std::string();
  }

  Result<HostedSession> Session(std::string_view path, const Form& form, const std::string& idempotency_key) {
    SV_ASSIGN_OR_RETURN(json::object reply, Post(path, form, idempotency_key));
    HostedSession s{Text(reply, "id"), Text(reply, "url")};
    if (s.url.empty()) {
      return Status(Code::kBadGateway, "payment provider: " + std::string(path) + " answered without a url");
    }
    return s;
  }

  Result<json::object> Post(std::string_view path, const Form& form, const std::string& idempotency_key) {
    std::vector<std::pair<std::string, std::string>> headers = {
        {"Authorization", "Bearer " + key_},
        {"Content-Type", "application/x-www-form-urlencoded"},
        {"Accept", "application/json"}};
    if (!idempotency_key.empty()) headers.emplace_back("Idempotency-Key", idempotency_key);
    Result<HttpResponse> r = http_.Post(base_ + std::string(path), FormEncode(form), std::move(headers));
    if (!r.ok()) {
      // The transport's message names the host at most, never headers.
      const Status& s = r.status();
      return Status(s.code(), "payment provider request to " + std::string(path) + " failed: " + s.message(),
                    s.error_code());
    }
    // The reply's body is never repeated: providers may echo parts of the key.
    if (r->status < 200 || r->status > 299) {
      return Status(Code::kBadGateway, "payment provider answered HTTP " + std::to_string(r->status) +
                                           " on " + std::string(path));
    }
    boost::system::error_code ec;
    json::value v = json::parse(r->body, ec);
    if (ec || !v.is_object()) {
      return Status(Code::kBadGateway,
                    "payment provider answered " + std::string(path) + " with no JSON object");
    }
    return std::move(v.as_object());
  }

  std::string base_;
  std::string key_;
  OutboundHttp& http_;
};

}  // namespace

std::unique_ptr<Payments> NewStripeCompatiblePayments(const PaymentsSettings& settings, OutboundHttp& http) {
  return std::make_unique<StripeCompatiblePayments>(settings, http);
}

}  // namespace service::ports
