// Billing rules without I/O (areas/operations/domain/billing.h): the budget
// update's validation and rules, the budget check, UTC calendar months and
// their boundaries, the included credits per plan, and the payment
// provider's signature header checked against OpenSSL's HMAC.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <cctype>
#include <string>
#include <vector>

#include "areas/operations/domain/billing.h"
#include "support/hmac.h"

namespace service::domain::operations {
namespace {

namespace json = boost::json;

TEST_CASE("budget patch validation: VALIDATION_ERROR for bad types, range, unknown fields and empty bodies") {
  struct Row {
    const char* body;
    bool ok;
  };
  const std::vector<Row> rows = {
      {R"({"monthlyBudgetCents":0})", true},
      {R"({"monthlyBudgetCents":10000000})", true},
      {R"({"monthlyBudgetCents":null})", true},
      {R"({"autoTopUp":false})", true},
      {R"({"monthlyBudgetCents":5,"autoTopUp":true})", true},
      {R"({})", false},
      {R"([])", false},
      {R"("x")", false},
      {R"(null)", false},
      {R"({"monthlyBudgetCents":-1})", false},
      {R"({"monthlyBudgetCents":10000001})", false},
      {R"({"monthlyBudgetCents":18446744073709551615})", false},
      {R"({"monthlyBudgetCents":2.5})", false},
      {R"({"monthlyBudgetCents":"100"})", false},
      {R"({"monthlyBudgetCents":[1]})", false},
      {R"({"autoTopUp":1})", false},
      {R"({"autoTopUp":null})", false},
      {R"({"budget":1})", false},
      {R"({"monthlyBudgetCents":1,"x":null})", false},
  };
  for (const Row& row : rows) {
    auto p = ParseBudgetPatch(json::parse(row.body));
    CHECK_MESSAGE(p.ok() == row.ok, row.body);
    if (!p.ok()) {
      CHECK(p.status().code() == Code::kInvalidArgument);
      CHECK(p.status().error_code() == "VALIDATION_ERROR");
    }
  }
  auto p = ParseBudgetPatch(json::parse(R"({"monthlyBudgetCents":null})"));
  REQUIRE(p.ok());
  CHECK(p->has_budget);
  CHECK_FALSE(p->budget.has_value());
  CHECK_FALSE(p->auto_top_up.has_value());
}

TEST_CASE("budget rules: null or 0 forces auto top-up off, auto top-up needs a budget, then a card") {
  struct Row {
    Budget current;
    const char* patch;
    bool card;
    const char* error;  // "" when it applies
    Budget after;
  };
  const std::vector<Row> rows = {
      {{0, false}, R"({"monthlyBudgetCents":500})", false, "", {500, false}},
      {{500, false}, R"({"autoTopUp":true})", true, "", {500, true}},
      {{500, false}, R"({"autoTopUp":true})", false, "AUTO_TOP_UP_REQUIRES_CARD", {}},
      {{0, false}, R"({"autoTopUp":true})", true, "AUTO_TOP_UP_REQUIRES_BUDGET", {}},
      {{0, false}, R"({"autoTopUp":true})", false, "AUTO_TOP_UP_REQUIRES_BUDGET", {}},
      {{500, true}, R"({"monthlyBudgetCents":0,"autoTopUp":true})", true, "AUTO_TOP_UP_REQUIRES_BUDGET", {}},
      {{500, true}, R"({"monthlyBudgetCents":null})", true, "", {0, false}},
      {{500, true}, R"({"monthlyBudgetCents":0})", true, "", {0, false}},
      {{500, true}, R"({"monthlyBudgetCents":700})", true, "", {700, true}},
      {{500, true}, R"({"autoTopUp":false})", true, "", {500, false}},
      // Stored auto top-up stays when the card question is not asked again.
      {{500, true}, R"({"monthlyBudgetCents":800})", false, "", {800, true}},
  };
  for (const Row& row : rows) {
    auto patch = ParseBudgetPatch(json::parse(row.patch));
    REQUIRE(patch.ok());
    auto next = ApplyBudgetPatch(row.current, *patch, row.card);
    if (std::string(row.error).empty()) {
      REQUIRE_MESSAGE(next.ok(), row.patch, " ", next.status().ToString());
      CHECK_MESSAGE(next->monthly_budget_cents == row.after.monthly_budget_cents, row.patch);
      CHECK_MESSAGE(next->auto_top_up == row.after.auto_top_up, row.patch);
    } else {
      REQUIRE_FALSE(next.ok());
      CHECK_MESSAGE(next.status().error_code() == row.error, row.patch);
      CHECK(next.status().code() == Code::kInvalidArgument);
    }
  }
}

TEST_CASE("budget check: a purchase may reach the budget but not pass it, 0 never refuses") {
  CHECK_FALSE(WouldExceedBudget(0, 1'000'000, kPackCents));
  CHECK(WouldExceedBudget(500, 0, 1000));
  CHECK_FALSE(WouldExceedBudget(1000, 0, 1000));
  CHECK(WouldExceedBudget(1999, 1000, 1000));
  CHECK_FALSE(WouldExceedBudget(2000, 1000, 1000));
  CHECK(kPackCents == 1000);
  CHECK(kPackCredits == 2000);
  CHECK(kMeteredReadCredits == 2);
}

TEST_CASE("UTC calendar months: names and boundaries, leap years, the year's turn") {
  struct Row {
    int64_t ms;
    const char* name;
    int64_t start;
    int64_t end;
  };
  const std::vector<Row> rows = {
      {1768471200000, "2026-01", 1767225600000, 1769904000000},  // 2026-01-15T10:00Z
      {1767225600000, "2026-01", 1767225600000, 1769904000000},  // the first millisecond
      {1767225599999, "2025-12", 1764547200000, 1767225600000},  // the last one of December
      {1769903999999, "2026-01", 1767225600000, 1769904000000},
      {1709164800000, "2024-02", 1706745600000, 1709251200000},  // 2024-02-29T00:00Z
      {0, "1970-01", 0, 2678400000},
  };
  for (const Row& row : rows) {
    const Month m = MonthOf(row.ms);
    CHECK_MESSAGE(m.name == row.name, row.ms);
    CHECK_MESSAGE(m.start_ms == row.start, row.ms);
    CHECK_MESSAGE(m.end_ms == row.end, row.ms);
  }
}

TEST_CASE("included credits: pro 10,000 a month, other plans none") {
  CHECK(IncludedMonthlyCredits("pro") == 10'000);
  CHECK(IncludedMonthlyCredits("free") == 0);
  CHECK(IncludedMonthlyCredits("team") == 0);
  CHECK(IncludedMonthlyCredits("enterprise") == 0);
  CHECK(IncludedMonthlyCredits("unknown") == 0);
}

TEST_CASE("Stripe-Signature parsing: t once, v1 values of 64 hex, other schemes ignored") {
  const std::string a(64, 'a');
  const std::string b(64, 'B');
  auto sig = ParsePaymentSignature("t=1700000000,v1=" + a + ",v0=zz,v1=" + b);
  REQUIRE(sig.has_value());
  CHECK(sig->timestamp == 1700000000);
  REQUIRE(sig->v1.size() == 2);
  CHECK(sig->v1[0] == a);
  CHECK(sig->v1[1] == std::string(64, 'b'));
  CHECK(ParsePaymentSignature(" t=5 , v1=" + a + " ").has_value());
  const std::vector<std::string> bad = {
      "",
      "t=1",
      "v1=" + a,
      "t=1,t=2,v1=" + a,
      "t=x,v1=" + a,
      "t=-1,v1=" + a,
      "t=,v1=" + a,
      "t=1,v1=abc",
      "t=1,v1=" + std::string(64, 'g'),
      "t=1,v0=" + a,
      "garbage",
      "t=1;v1=" + a,
      "t=1234567890123456,v1=" + a,
  };
  for (const std::string& h : bad) CHECK_FALSE_MESSAGE(ParsePaymentSignature(h).has_value(), h);
}

TEST_CASE("signature check: HMAC-SHA256 of <t>.<body>, 300 s either side, any v1 may match") {
  const std::string secret = "whsec_unit";
  const std::string body = R"({"id":"evt_1"})";
  const int64_t t = 1'800'000'000;
  const int64_t now_ms = t * 1000;
  const std::string good = service::testing::OpensslHmacSha256Hex(secret, std::to_string(t) + "." + body);
  const std::string wrong = service::testing::OpensslHmacSha256Hex("other", std::to_string(t) + "." + body);
  const std::string header = "t=" + std::to_string(t) + ",v1=" + good;
  CHECK(CheckPaymentSignature(header, body, secret, now_ms) == SignatureCheck::kValid);
  CHECK(CheckPaymentSignature(header, body, secret, now_ms + 300'000) == SignatureCheck::kValid);
  CHECK(CheckPaymentSignature(header, body, secret, now_ms - 300'000) == SignatureCheck::kValid);
  CHECK(CheckPaymentSignature(header, body, secret, now_ms + 301'000) == SignatureCheck::kStale);
  CHECK(CheckPaymentSignature(header, body, secret, now_ms - 301'000) == SignatureCheck::kStale);
  CHECK(CheckPaymentSignature(header, body + " ", secret, now_ms) == SignatureCheck::kMismatch);
  CHECK(CheckPaymentSignature(header, body, "whsec_other", now_ms) == SignatureCheck::kMismatch);
  CHECK(CheckPaymentSignature("t=" + std::to_string(t) + ",v1=" + wrong + ",v1=" + good, body, secret,
                              now_ms) == SignatureCheck::kValid);
  CHECK(CheckPaymentSignature("t=" + std::to_string(t) + ",v1=" + wrong, body, secret, now_ms) ==
        SignatureCheck::kMismatch);
  CHECK(CheckPaymentSignature("v1=" + good, body, secret, now_ms) == SignatureCheck::kMalformed);
  // Upper-case hex is the same signature.
  std::string upper = good;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(CheckPaymentSignature("t=" + std::to_string(t) + ",v1=" + upper, body, secret, now_ms) ==
        SignatureCheck::kValid);
}

}  // namespace
}  // namespace service::domain::operations
