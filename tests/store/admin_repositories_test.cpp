// Contract tests on both backends of the repositories issue 28's superadmin
// routes added: the admin area's customer profiles and read model
// (db/tables' allowlist and redaction, an organization's footprint), the ai
// area's usage rows, capture's signature pages, and the accounts additions
// (an organization's plan, a waitlist entry's target organization and note).
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/waitlist_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/admin/store/repositories.h"
#include "areas/ai/store/repositories.h"
#include "areas/capture/store/signature_repository.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::CustomerProfileRepository> profiles = NewSqlCustomerProfileRepository();
  std::unique_ptr<ports::AdminReadModel> read = NewSqlAdminReadModel();
  std::unique_ptr<ports::AiUsageRepository> usage = NewSqlAiUsageRepository();
  std::unique_ptr<ports::SignatureRepository> signatures = NewSqlSignatureRepository();
  std::unique_ptr<ports::OrgRepository> orgs = NewSqlOrgRepository();
  std::unique_ptr<ports::WaitlistRepository> waitlist = NewSqlWaitlistRepository();

  Fixture() : StoreFixture({kProject}) { AddOtherOrganization(); }

  std::optional<ports::CustomerProfile> Find(const std::string& org) {
    std::optional<ports::CustomerProfile> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, profiles->Find(c, org));
      return Status::Ok();
    });
    return out;
  }

  // A bug row with a signature (capture's table, written raw for the store test).
  std::string Bug(const std::optional<std::string>& signature, const std::string& hash) {
    const std::string id = Id();
    Write([&](Connection& tx) {
      return tx
          .Exec(
              "INSERT INTO bugs (id, org_id, project_id, fingerprint, signature, signature_hash, group_key, "
              "title, "
              "first_seen, last_seen, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 't', 1, 1, 1, 1)",
              {id, std::string(kOrg), std::string(kProject), id.substr(20), OptText(signature),
               hash.empty() ? Null() : Value(hash), hash.empty() ? Value(id) : Value(hash)})
          .status();
    });
    return id;
  }
};

TEST_CASE("customer profiles: insert once, find in its organization only, apply keeps absent fields") {
  Fixture f;
  ports::CustomerProfile p;
  p.org_id = kOrg;
  p.lifecycle_stage = "active";
  p.billing_status = "paid";
  p.contact_email = "c@example.com";
  p.created_at = p.updated_at = 5;
  f.Write([&](Connection& tx) { return f.profiles->Insert(tx, p); });
  const Status again = f.db->Write([&](Connection& tx) { return f.profiles->Insert(tx, p); });
  CHECK(again.code() == Code::kConflict);
  auto found = f.Find(kOrg);
  REQUIRE(found);
  CHECK(found->lifecycle_stage == "active");
  CHECK(found->contact_email == "c@example.com");
  CHECK(!found->contact_name);
  CHECK(!f.Find(kOtherOrg));

  ports::CustomerProfileChange change;
  change.admin_notes = "note";
  f.Write([&](Connection& tx) { return f.profiles->Apply(tx, kOrg, change, 9); });
  found = f.Find(kOrg);
  CHECK(found->admin_notes == "note");
  CHECK(found->billing_status == "paid");
  CHECK(found->updated_at == 9);
  // Apply creates a profile with the defaults where there is none.
  change = {};
  change.lifecycle_stage = "paused";
  f.Write([&](Connection& tx) { return f.profiles->Apply(tx, kOtherOrg, change, 10); });
  auto other = f.Find(kOtherOrg);
  REQUIRE(other);
  CHECK(other->lifecycle_stage == "paused");
  CHECK(other->billing_status == "unassigned");
  // The organization's deletion takes it.
  f.Write([&](Connection& tx) { return f.orgs->Delete(tx, kOtherOrg); });
  CHECK(!f.Find(kOtherOrg));
}

TEST_CASE("read model tables: only allowlisted names, fixed columns, secrets redacted, paging") {
  Fixture f;
  f.Write([&](Connection& tx) {
    return tx
        .Exec(
            "INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, 'U', "
            "'scrypt$secret', 1, 1), (?, ?, 'V', NULL, 2, 2)",
            {f.Id(), std::string("u@example.com"), f.Id(), std::string("v@example.com")})
        .status();
  });
  for (const char* bad :
       {"settings", "users;DROP TABLE users", "sqlite_master", "memberships", "", "USERS"}) {
    CAPTURE(bad);
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto t, f.read->Table(c, bad, ports::PageRequest{}));
      CHECK(!t);
      return Status::Ok();
    });
  }
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto t, f.read->Table(c, "users", ports::PageRequest{1, 0, 0}));
    REQUIRE(t);
    CHECK(t->total == 2);
    REQUIRE(t->rows.size() == 1);
    size_t col = 0;
    while (col < t->columns.size() && t->columns[col] != "password_hash") ++col;
    REQUIRE(col < t->columns.size());
    CHECK(std::get<std::string>(t->rows[0][col]) == "[redacted]");
    SV_ASSIGN_OR_RETURN(auto second, f.read->Table(c, "users", ports::PageRequest{1, 1, 0}));
    CHECK(std::holds_alternative<std::nullptr_t>(second->rows.at(0)[col]));  // no password: stays null
    SV_ASSIGN_OR_RETURN(auto none, f.read->Table(c, "bug_attachments", ports::PageRequest{}));
    REQUIRE(none);
    CHECK(none->rows.empty());
    CHECK(!none->columns.empty());
    SV_ASSIGN_OR_RETURN(auto counts, f.read->TableCounts(c));
    CHECK(counts.size() == 20);
    return Status::Ok();
  });
}

TEST_CASE("ai usage rows roll up by day and feature, footprint counts an organization's rows") {
  Fixture f;
  const int64_t day = 86'400'000;
  auto add = [&](const char* org, const char* feature, int64_t in, int64_t out, int64_t at) {
    ports::AiUsageRecord r;
    r.id = f.Id();
    if (org) r.org_id = org;
    r.feature = feature;
    r.provider = "p";
    r.model = "m";
    r.input_tokens = in;
    r.output_tokens = out;
    r.created_at = at;
    f.Write([&](Connection& tx) { return f.usage->Insert(tx, r); });
  };
  add(kOrg, "ai_summary", 10, 1, 10 * day + 5);
  add(kOrg, "ai_summary", 20, 2, 11 * day + 5);
  add(nullptr, "unattributed", 1, 1, 11 * day + 6);
  add(kOtherOrg, "ai_summary", 7, 7, 2 * day);  // before the window
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::AiUsageRollup u, f.read->AiUsage(c, 10 * day));
    CHECK(u.total_calls == 3);
    CHECK(u.total_input_tokens == 31);
    CHECK(u.total_output_tokens == 4);
    CHECK(u.daily.at(10).calls == 1);
    CHECK(u.daily.at(11).calls == 2);
    CHECK(u.daily.at(11).tokens == 24);
    REQUIRE(u.by_feature.size() == 2);
    CHECK(std::get<std::string>(*u.by_feature[0].Get("feature")) == "ai_summary");
    CHECK(std::get<int64_t>(*u.by_feature[0].Get("calls")) == 2);
    SV_ASSIGN_OR_RETURN(auto footprint, f.read->OrganizationFootprint(c, kOrg));
    for (const auto& [table, n] : footprint) {
      if (table == "ai_usage") CHECK(n == 2);
      if (table == "organizations") CHECK(n == 1);
      if (table == "projects") CHECK(n == 1);
    }
    return Status::Ok();
  });
}

TEST_CASE("signature pages in id order after a cursor, per project, Set writes the hash and groupKey") {
  Fixture f;
  const std::string a = f.Bug(std::string("TypeError:x"), "1111111111111111");
  const std::string b = f.Bug(std::nullopt, "");
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto page, f.signatures->Page(c, std::nullopt, "", 1));
    REQUIRE(page.size() == 1);
    CHECK(page[0].bug_id == a);
    CHECK(page[0].signature == "TypeError:x");
    SV_ASSIGN_OR_RETURN(auto next, f.signatures->Page(c, std::string(kProject), a, 10));
    REQUIRE(next.size() == 1);
    CHECK(next[0].bug_id == b);
    CHECK(!next[0].signature);
    CHECK(next[0].group_key == b);
    SV_ASSIGN_OR_RETURN(auto other, f.signatures->Page(c, std::string(testing::kStoreOtherProject), "", 10));
    CHECK(other.empty());
    return Status::Ok();
  });
  f.Write([&](Connection& tx) { return f.signatures->Set(tx, a, "TypeError:y", "2222222222222222", 7); });
  CHECK(f.Text("SELECT group_key FROM bugs WHERE id = ?", {a}) == "2222222222222222");
  CHECK(f.Text("SELECT signature FROM bugs WHERE id = ?", {a}) == "TypeError:y");
}

TEST_CASE("accounts additions: SetPlan, a waitlist entry's target organization and note") {
  Fixture f;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool found, f.orgs->SetPlan(tx, kOrg, "team", 3));
    CHECK(found);
    SV_ASSIGN_OR_RETURN(bool missing, f.orgs->SetPlan(tx, "00000000-0000-7000-8000-00000000ffff", "team", 3));
    CHECK(!missing);
    return Status::Ok();
  });
  CHECK(f.Text("SELECT plan FROM organizations WHERE id = ?", {std::string(kOrg)}) == "team");
  CHECK(f.Text("SELECT plan FROM organizations WHERE id = ?", {std::string(kOtherOrg)}) == "free");

  ports::WaitlistEntry e;
  e.id = f.Id();
  e.email = "w@example.com";
  e.name = "W";
  e.org_name = "W Co";
  e.status = "approved";
  e.target_org_id = std::string(kOtherOrg);
  e.created_at = e.updated_at = 1;
  f.Write([&](Connection& tx) { return f.waitlist->Insert(tx, e); });
  f.Write([&](Connection& tx) { return f.waitlist->SetNote(tx, e.id, std::string("ok"), 2); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, f.waitlist->FindById(c, e.id));
    REQUIRE(found);
    CHECK(found->target_org_id == std::string(kOtherOrg));
    CHECK(found->admin_note == std::string("ok"));
    return Status::Ok();
  });
  // The entry goes with its organization.
  f.Write([&](Connection& tx) { return f.orgs->Delete(tx, kOtherOrg); });
  CHECK(f.Int("SELECT COUNT(*) FROM waitlist WHERE id = ?", {e.id}) == 0);
}

}  // namespace
}  // namespace service::store
