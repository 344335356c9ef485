#include "areas/operations/domain/billing.h"

#include <chrono>
#include <cstdio>

#include "util/crypto.h"

namespace service::domain::operations {

namespace json = boost::json;

int64_t IncludedMonthlyCredits(std::string_view plan) { return plan == "pro" ? 10'000 : 0; }

Month MonthOf(int64_t unix_ms) {
  using namespace std::chrono;
  const sys_days day = floor<days>(sys_time<milliseconds>(milliseconds(unix_ms)));
  const year_month_day ymd(day);
  const year_month ym = ymd.year() / ymd.month();
  const year_month next = ym + months(1);
  Month m;
  const int y = static_cast<int>(ym.year());
  const unsigned mo = static_cast<unsigned>(ym.month());
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%04d-%02u", y, mo);
  m.name = buf;
  m.start_ms = duration_cast<milliseconds>(sys_days(ym / 1).time_since_epoch()).count();
  m.end_ms = duration_cast<milliseconds>(sys_days(next / 1).time_since_epoch()).count();
  return m;
}

namespace {

Status Invalid(std::string message) {
  return Status(Code::kInvalidArgument, std::move(message), std::string(kValidationError));
}

}  // namespace

Result<BudgetPatch> ParseBudgetPatch(const json::value& body) {
  if (!body.is_object()) return Invalid("Body must be a JSON object");
  const json::object& o = body.as_object();
  if (o.empty()) return Invalid("Send monthlyBudgetCents or autoTopUp");
  BudgetPatch p;
  for (const auto& [key, value] : o) {
    if (key == "monthlyBudgetCents") {
      p.has_budget = true;
      if (value.is_null()) continue;
      std::optional<int64_t> n;
      if (value.is_int64()) n = value.as_int64();
      if (value.is_uint64() && value.as_uint64() <= static_cast<uint64_t>(kMaxBudgetCents)) {
        n = static_cast<int64_t>(value.as_uint64());
      }
      if (!n || *n < 0 || *n > kMaxBudgetCents) {
        return Invalid("monthlyBudgetCents must be an integer from 0 to 10000000, or null");
      }
      p.budget = n;
    } else if (key == "autoTopUp") {
      if (!value.is_bool()) return Invalid("autoTopUp must be a boolean");
      p.auto_top_up = value.as_bool();
    } else {
      return Invalid("Unknown field: " + std::string(key));
    }
  }
  return p;
}

Result<Budget> ApplyBudgetPatch(const Budget& current, const BudgetPatch& patch, bool card_on_file) {
  Budget next = current;
  if (patch.has_budget) next.monthly_budget_cents = patch.budget.value_or(0);
  if (patch.auto_top_up) next.auto_top_up = *patch.auto_top_up;
  if (next.monthly_budget_cents == 0) {
    if (patch.auto_top_up.value_or(false)) {
      return Status(Code::kInvalidArgument, "Auto top-up needs a monthly budget above 0",
                    std::string(kAutoTopUpRequiresBudget));
    }
    next.auto_top_up = false;
  }
  if (patch.auto_top_up.value_or(false) && !card_on_file) {
    return Status(Code::kInvalidArgument, "Auto top-up needs a card on file",
                  std::string(kAutoTopUpRequiresCard));
  }
  return next;
}

bool WouldExceedBudget(int64_t budget_cents, int64_t month_spend_cents, int64_t charge_cents) {
  return budget_cents > 0 && month_spend_cents + charge_cents > budget_cents;
}

std::optional<PaymentSignature> ParsePaymentSignature(std::string_view header) {
  PaymentSignature sig;
  bool have_t = false;
  size_t pos = 0;
  while (pos <= header.size()) {
    size_t comma = header.find(',', pos);
    if (comma == std::string_view::npos) comma = header.size();
    std::string_view part = header.substr(pos, comma - pos);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    pos = comma + 1;
    const size_t eq = part.find('=');
    if (eq == std::string_view::npos) {
      if (part.empty()) continue;
      return std::nullopt;
    }
    const std::string_view key = part.substr(0, eq);
    const std::string_view value = part.substr(eq + 1);
    if (key == "t") {
      if (have_t || value.empty() || value.size() > 15) return std::nullopt;
      int64_t t = 0;
      for (char c : value) {
        if (c < '0' || c > '9') return std::nullopt;
        t = t * 10 + (c - '0');
      }
      sig.timestamp = t;
      have_t = true;
    } else if (key == "v1") {
      if (value.size() != 64) return std::nullopt;
      std::string hex;
      for (char c : value) {
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
        hex.push_back(c);
      }
      sig.v1.push_back(std::move(hex));
    }
  }
  if (!have_t || sig.v1.empty()) return std::nullopt;
  return sig;
}

SignatureCheck CheckPaymentSignature(std::string_view header, std::string_view raw_body,
                                     std::string_view secret, int64_t now_ms) {
  const std::optional<PaymentSignature> sig = ParsePaymentSignature(header);
  if (!sig) return SignatureCheck::kMalformed;
  const int64_t now_s = now_ms / 1000;
  const int64_t diff = now_s > sig->timestamp ? now_s - sig->timestamp : sig->timestamp - now_s;
  if (diff > kSignatureToleranceSeconds) return SignatureCheck::kStale;
  std::string signed_text = std::to_string(sig->timestamp);
  signed_text += '.';
  signed_text.append(raw_body);
  const std::string expected = util::HexEncode(util::HmacSha256(secret, signed_text));
  bool match = false;
  for (const std::string& v : sig->v1) match = util::ConstantTimeEquals(expected, v) || match;
  return match ? SignatureCheck::kValid : SignatureCheck::kMismatch;
}

}  // namespace service::domain::operations
