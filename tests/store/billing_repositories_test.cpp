// Contract tests of the billing repository on both backends, through its
// interface (areas/operations/ports/billing_repository.h): default accounts,
// Ensure, the month claim, ledger rows with their balance changes, once per
// (org, kind, reference), charges that never go below zero, cents in a time
// range, the newest rows first, budget and customer fields, recorded events,
// the prepaid balance UsageRepository reads, another organization's id
// finding nothing, and the deletion hook.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "areas/operations/ports/billing_repository.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/operations/store/repositories.h"
#include "store/database.h"
#include "store/migrations.h"
#include "support/store_fixture.h"
#include "support/test_db.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;

struct Fixture : testing::StoreFixture {
  Fixture() : testing::StoreFixture({}) { AddOtherOrganization(); }
  std::unique_ptr<ports::BillingRepository> billing = NewSqlBillingRepository();
  std::unique_ptr<ports::UsageRepository> usage = NewSqlUsageRepository();

  ports::LedgerEntry Entry(const std::string& org, const std::string& kind, const std::string& bucket,
                           int64_t credits, int64_t cents, std::optional<std::string> reference, int64_t at) {
    return ports::LedgerEntry{Id(), org, kind, bucket, credits, cents, std::move(reference), at};
  }
};

TEST_CASE("billing store: accounts read as defaults until ensured, Ensure is idempotent") {
  Fixture f;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, f.billing->Find(c, kOrg));
    CHECK(a.org_id == kOrg);
    CHECK(a.included_credits == 0);
    CHECK(a.prepaid_credits == 0);
    CHECK(a.included_month.empty());
    CHECK(a.monthly_budget_cents == 0);
    CHECK_FALSE(a.auto_top_up);
    CHECK(a.customer_id.empty());
    CHECK_FALSE(a.payment_method_on_file);
    SV_ASSIGN_OR_RETURN(bool exists, f.billing->OrganizationExists(c, kOrg));
    CHECK(exists);
    SV_ASSIGN_OR_RETURN(bool missing, f.billing->OrganizationExists(c, f.Id()));
    CHECK_FALSE(missing);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.billing->Ensure(tx, kOrg, 10));
    SV_RETURN_IF_ERROR(f.billing->SetBudget(tx, kOrg, 700, true, 11));
    return f.billing->Ensure(tx, kOrg, 12);
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, f.billing->Find(c, kOrg));
    CHECK(a.monthly_budget_cents == 700);
    CHECK(a.auto_top_up);
    SV_ASSIGN_OR_RETURN(ports::BillingAccount other, f.billing->Find(c, kOtherOrg));
    CHECK(other.monthly_budget_cents == 0);
    return Status::Ok();
  });
}

TEST_CASE("billing store: the month is claimed once") {
  Fixture f;
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.billing->Ensure(tx, kOrg, 1));
    SV_ASSIGN_OR_RETURN(bool first, f.billing->ClaimMonth(tx, kOrg, "2026-01", 2));
    CHECK(first);
    SV_ASSIGN_OR_RETURN(bool again, f.billing->ClaimMonth(tx, kOrg, "2026-01", 3));
    CHECK_FALSE(again);
    SV_ASSIGN_OR_RETURN(bool next, f.billing->ClaimMonth(tx, kOrg, "2026-02", 4));
    CHECK(next);
    // No account row: nothing to claim.
    SV_ASSIGN_OR_RETURN(bool other, f.billing->ClaimMonth(tx, kOtherOrg, "2026-02", 4));
    CHECK_FALSE(other);
    return Status::Ok();
  });
  CHECK(f.Text("SELECT included_month FROM billing_accounts WHERE org_id = ?", {std::string(kOrg)}) ==
        "2026-02");
}

TEST_CASE("billing store: ledger rows move their bucket's balance, once per (org, kind, reference)") {
  Fixture f;
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.billing->Ensure(tx, kOrg, 1));
    SV_RETURN_IF_ERROR(f.billing->Ensure(tx, kOtherOrg, 1));
    SV_ASSIGN_OR_RETURN(bool a, f.billing->Append(tx, f.Entry(kOrg, "pack_purchase", "prepaid", 2000, 1000,
                                                              std::string("cs_1"), 100)));
    CHECK(a);
    SV_ASSIGN_OR_RETURN(bool dup, f.billing->Append(tx, f.Entry(kOrg, "pack_purchase", "prepaid", 2000, 1000,
                                                                std::string("cs_1"), 101)));
    CHECK_FALSE(dup);
    // The same reference under another kind or organization is another row.
    SV_ASSIGN_OR_RETURN(bool other_kind, f.billing->Append(tx, f.Entry(kOrg, "included_grant", "included",
                                                                       10000, 0, std::string("cs_1"), 102)));
    CHECK(other_kind);
    SV_ASSIGN_OR_RETURN(bool other_org, f.billing->Append(tx, f.Entry(kOtherOrg, "pack_purchase", "prepaid",
                                                                      2000, 1000, std::string("cs_1"), 103)));
    CHECK(other_org);
    // Rows without a reference never collide.
    SV_ASSIGN_OR_RETURN(
        bool n1, f.billing->Append(tx, f.Entry(kOrg, "opening_balance", "prepaid", 5, 0, std::nullopt, 104)));
    SV_ASSIGN_OR_RETURN(
        bool n2, f.billing->Append(tx, f.Entry(kOrg, "opening_balance", "prepaid", 5, 0, std::nullopt, 105)));
    CHECK(n1);
    CHECK(n2);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, f.billing->Find(c, kOrg));
    CHECK(a.prepaid_credits == 2010);
    CHECK(a.included_credits == 10000);
    SV_ASSIGN_OR_RETURN(int64_t prepaid, f.usage->PrepaidCredits(c, kOrg));
    CHECK(prepaid == 2010);
    SV_ASSIGN_OR_RETURN(int64_t other, f.usage->PrepaidCredits(c, kOtherOrg));
    CHECK(other == 2000);
    SV_ASSIGN_OR_RETURN(int64_t unknown, f.usage->PrepaidCredits(c, f.Id()));
    CHECK(unknown == 0);
    SV_ASSIGN_OR_RETURN(std::vector<ports::LedgerEntry> rows, f.billing->Recent(c, kOrg, 10));
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].created_at == 105);
    CHECK(rows[3].created_at == 100);
    CHECK(rows[3].kind == "pack_purchase");
    CHECK(rows[3].bucket == "prepaid");
    CHECK(rows[3].credits == 2000);
    CHECK(rows[3].cents == 1000);
    CHECK(rows[3].reference == std::optional<std::string>("cs_1"));
    CHECK_FALSE(rows[0].reference.has_value());
    SV_ASSIGN_OR_RETURN(std::vector<ports::LedgerEntry> two, f.billing->Recent(c, kOrg, 2));
    CHECK(two.size() == 2);
    SV_ASSIGN_OR_RETURN(int64_t cents, f.billing->CentsBetween(c, kOrg, 100, 106));
    CHECK(cents == 1000);
    SV_ASSIGN_OR_RETURN(int64_t after, f.billing->CentsBetween(c, kOrg, 101, 106));
    CHECK(after == 0);
    SV_ASSIGN_OR_RETURN(int64_t before, f.billing->CentsBetween(c, kOrg, 0, 100));
    CHECK(before == 0);
    return Status::Ok();
  });
}

TEST_CASE("billing store: a charge never takes a balance below zero") {
  Fixture f;
  f.Write([&](Connection& tx) -> Status {
    // No account: no charge.
    SV_ASSIGN_OR_RETURN(bool none, f.billing->TryCharge(
                                       tx, f.Entry(kOrg, "metered_read", "prepaid", -2, 0, std::nullopt, 1)));
    CHECK_FALSE(none);
    SV_RETURN_IF_ERROR(f.billing->Ensure(tx, kOrg, 1));
    SV_ASSIGN_OR_RETURN(
        bool a, f.billing->Append(tx, f.Entry(kOrg, "opening_balance", "prepaid", 3, 0, std::nullopt, 2)));
    CHECK(a);
    SV_ASSIGN_OR_RETURN(bool first, f.billing->TryCharge(tx, f.Entry(kOrg, "metered_read", "prepaid", -2, 0,
                                                                     std::nullopt, 3)));
    CHECK(first);
    SV_ASSIGN_OR_RETURN(bool second, f.billing->TryCharge(tx, f.Entry(kOrg, "metered_read", "prepaid", -2, 0,
                                                                      std::nullopt, 4)));
    CHECK_FALSE(second);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, f.billing->Find(c, kOrg));
    CHECK(a.prepaid_credits == 1);
    SV_ASSIGN_OR_RETURN(std::vector<ports::LedgerEntry> rows, f.billing->Recent(c, kOrg, 10));
    CHECK(rows.size() == 2);
    return Status::Ok();
  });
}

TEST_CASE("billing store: customer and card flag, recorded events, deletion of one organization's rows") {
  Fixture f;
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.billing->Ensure(tx, kOrg, 1));
    SV_RETURN_IF_ERROR(f.billing->Ensure(tx, kOtherOrg, 1));
    SV_RETURN_IF_ERROR(f.billing->SetCustomer(tx, kOrg, "cus_1", false, 2));
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, f.billing->Find(tx, kOrg));
    CHECK(a.customer_id == "cus_1");
    CHECK_FALSE(a.payment_method_on_file);
    SV_RETURN_IF_ERROR(f.billing->SetCustomer(tx, kOrg, "cus_1", true, 3));
    // false never clears the flag.
    SV_RETURN_IF_ERROR(f.billing->SetCustomer(tx, kOrg, "cus_2", false, 4));
    SV_ASSIGN_OR_RETURN(a, f.billing->Find(tx, kOrg));
    CHECK(a.customer_id == "cus_2");
    CHECK(a.payment_method_on_file);
    SV_ASSIGN_OR_RETURN(ports::BillingAccount other, f.billing->Find(tx, kOtherOrg));
    CHECK(other.customer_id.empty());

    SV_ASSIGN_OR_RETURN(
        bool e1, f.billing->RecordEvent(tx, "evt_1", "checkout.session.completed", std::string(kOrg), 5));
    CHECK(e1);
    SV_ASSIGN_OR_RETURN(
        bool e1b, f.billing->RecordEvent(tx, "evt_1", "checkout.session.completed", std::string(kOrg), 6));
    CHECK_FALSE(e1b);
    SV_ASSIGN_OR_RETURN(bool e2, f.billing->RecordEvent(tx, "evt_2", "x", std::nullopt, 6));
    CHECK(e2);
    SV_ASSIGN_OR_RETURN(bool e3, f.billing->RecordEvent(tx, "evt_3", "x", std::string(kOtherOrg), 6));
    CHECK(e3);
    SV_ASSIGN_OR_RETURN(bool g, f.billing->Append(tx, f.Entry(kOrg, "pack_purchase", "prepaid", 2000, 1000,
                                                              std::string("cs"), 7)));
    CHECK(g);
    SV_ASSIGN_OR_RETURN(bool g2, f.billing->Append(tx, f.Entry(kOtherOrg, "pack_purchase", "prepaid", 2000,
                                                               1000, std::string("cs"), 7)));
    CHECK(g2);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) -> Status { return f.billing->DeleteOrganization(tx, kOrg); });
  CHECK(f.Int("SELECT COUNT(*) FROM credit_ledger WHERE org_id = ?", {std::string(kOrg)}) == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM billing_accounts WHERE org_id = ?", {std::string(kOrg)}) == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM billing_events WHERE org_id = ?", {std::string(kOrg)}) == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM billing_events") == 2);
  CHECK(f.Int("SELECT COUNT(*) FROM credit_ledger WHERE org_id = ?", {std::string(kOtherOrg)}) == 1);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::BillingAccount a, f.billing->Find(c, kOrg));
    CHECK(a.prepaid_credits == 0);
    SV_ASSIGN_OR_RETURN(ports::BillingAccount other, f.billing->Find(c, kOtherOrg));
    CHECK(other.prepaid_credits == 2000);
    return Status::Ok();
  });
}

TEST_CASE("migration 0020: a release 0019 database's prepaid credits become opening balances on the ledger") {
  auto opened = OpenDatabase(testing::FreshDatabaseUrl());
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  std::unique_ptr<Database> db = std::move(opened).value();
  const std::string dialect = db->dialect() == Dialect::kPostgres ? "postgres" : "sqlite";
  std::ifstream in(std::string(SERVICE_SOURCE_DIR) + "/tests/store/data/release_0019." + dialect + ".sql");
  REQUIRE(in.good());
  std::stringstream dump;
  dump << in.rdbuf();
  REQUIRE(db->Write([&](Connection& c) { return c.ExecScript(dump.str()); }).ok());
  const std::string with = "00000000-0000-7000-8000-0000000000a1";
  const std::string without = "00000000-0000-7000-8000-0000000000a2";
  REQUIRE(db->Write([&](Connection& c) -> Status {
              const char* sql =
                  "INSERT INTO organizations (id, name, slug, plan, prepaid_credits, created_at, updated_at) "
                  "VALUES (?, ?, ?, 'free', ?, 5, 9)";
              SV_RETURN_IF_ERROR(c.Exec(sql, {with, "With", "with-credits", int64_t{7}}).status());
              return c.Exec(sql, {without, "Without", "without-credits", int64_t{0}}).status();
            }).ok());
  REQUIRE(ApplyMigrations(*db).ok());
  auto billing = NewSqlBillingRepository();
  auto usage = NewSqlUsageRepository();
  REQUIRE(db->Read([&](Connection& c) -> Status {
              SV_ASSIGN_OR_RETURN(int64_t credits, usage->PrepaidCredits(c, with));
              CHECK(credits == 7);
              SV_ASSIGN_OR_RETURN(int64_t none, usage->PrepaidCredits(c, without));
              CHECK(none == 0);
              SV_ASSIGN_OR_RETURN(std::vector<ports::LedgerEntry> rows, billing->Recent(c, with, 10));
              REQUIRE(rows.size() == 1);
              CHECK(rows[0].kind == "opening_balance");
              CHECK(rows[0].bucket == "prepaid");
              CHECK(rows[0].credits == 7);
              CHECK(rows[0].cents == 0);
              CHECK(rows[0].created_at == 9);
              SV_ASSIGN_OR_RETURN(std::vector<ports::LedgerEntry> empty, billing->Recent(c, without, 10));
              CHECK(empty.empty());
              return Status::Ok();
            }).ok());
  db->Close();
}

}  // namespace
}  // namespace service::store
