#include "support/fake_payments.h"

#include <boost/json.hpp>

namespace service::testing {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> DecodeForm(const std::string& body) {
  std::map<std::string, std::string> out;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t amp = body.find('&', pos);
    if (amp == std::string::npos) amp = body.size();
    const std::string pair = body.substr(pos, amp - pos);
    const size_t eq = pair.find('=');
    if (eq == std::string::npos) {
      out[Unescape(pair)] = "";
    } else {
      out[Unescape(pair.substr(0, eq))] = Unescape(pair.substr(eq + 1));
    }
    pos = amp + 1;
  }
  return out;
}

FakePayments::FakePayments() {
  const auto answer = [this](const char* prefix, bool with_url) {
    return [this, prefix, with_url](const RecordedRequest&) {
      CannedResponse c;
      if (fail_) {
        c.status = 500;
        c.body = R"({"error":{"message":"boom sk_test_secret"}})";
        return c;
      }
      const std::string id = std::string(prefix) + std::to_string(++next_);
      boost::json::object o{{"id", id}};
      if (with_url) o["url"] = "https://pay.example/" + id;
      c.body = boost::json::serialize(o);
      return c;
    };
  };
  server_.SetHandler("/v1/customers", answer("cus_test_", false));
  server_.SetHandler("/v1/checkout/sessions", answer("cs_test_", true));
  server_.SetHandler("/v1/billing_portal/sessions", answer("bps_test_", true));
}

std::vector<PaymentsCall> FakePayments::calls() const {
  std::vector<PaymentsCall> out;
  for (const RecordedRequest& r : server_.requests()) {
    PaymentsCall c;
    c.path = r.path;
    c.form = DecodeForm(r.body);
    c.authorization = r.Header("Authorization");
    c.idempotency_key = r.Header("Idempotency-Key");
    c.content_type = r.Header("Content-Type");
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<PaymentsCall> FakePayments::CallsTo(const std::string& path) const {
  std::vector<PaymentsCall> out;
  for (PaymentsCall& c : calls()) {
    if (c.path == path) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace service::testing
