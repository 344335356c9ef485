// Contract tests of ports/project_repository.h on both backends: projects
// (service-wide numbers, slugs unique per organization, live-namespace bug
// counts, shadow grouping) and capture keys (found by hash with their plan
// and project, listed newest first without revoked ones, revoked once, last
// use only moving forward), each scoped by organization.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/projects/ports/project_repository.h"
#include "areas/projects/store/repositories.h"
#include "areas/triage/ports/bug_status_repository.h"
#include "areas/triage/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::ProjectRepository> projects = NewSqlProjectRepository();
  std::unique_ptr<ports::CaptureKeyRepository> keys = NewSqlCaptureKeyRepository();

  Fixture() : StoreFixture({}) {
    Write([&](Connection& tx) {
      return NewSqlOrgRepository()->Insert(tx, ports::Organization{kOtherOrg, "Other", "other", "team", 5});
    });
  }

  ports::Project Project(const std::string& org, const std::string& slug, int64_t at) {
    ports::Project p;
    p.id = Id();
    p.org_id = org;
    p.name = "Project " + slug;
    p.slug = slug;
    p.platform = "web";
    p.created_at = at;
    Write([&](Connection& tx) { return projects->Insert(tx, p); });
    return p;
  }

  std::string Bug(const ports::Project& p, const std::string& env) {
    return AddBug({.org = p.org_id, .project = p.id, .env = env});
  }

  ports::CaptureKey Key(const ports::Project& p, const std::string& hash, int64_t at,
                        const std::string& created_by = "") {
    ports::CaptureKey k;
    k.id = Id();
    k.org_id = p.org_id;
    k.project_id = p.id;
    k.env = "live";
    k.prefix = "pk_" + hash;
    k.key_hash = hash;
    k.label = "Key " + hash;
    k.expires_at = 99'000;
    k.created_by = created_by;
    k.created_at = at;
    Write([&](Connection& tx) { return keys->Insert(tx, k); });
    return k;
  }
};

}  // namespace

TEST_CASE("project store: numbers are service-wide, slugs unique per organization, reads scoped") {
  Fixture f;
  ports::Project b = f.Project(kOrg, "beta", 20);
  ports::Project a = f.Project(kOrg, "alpha", 10);
  ports::Project other = f.Project(kOtherOrg, "alpha", 5);  // the same slug elsewhere is fine
  CHECK(a.project_number > 0);
  CHECK(b.project_number > 0);
  CHECK(a.project_number != b.project_number);
  CHECK(other.project_number != a.project_number);
  CHECK(other.project_number != b.project_number);

  ports::Project taken;
  taken.id = f.Id();
  taken.org_id = kOrg;
  taken.name = "Again";
  taken.slug = "alpha";
  taken.created_at = 30;
  CHECK(f.db->Write([&](Connection& tx) { return f.projects->Insert(tx, taken); }).code() == Code::kConflict);

  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto list, f.projects->List(c, kOrg));
    REQUIRE(list.size() == 2);
    CHECK(list[0].id == a.id);  // oldest first
    CHECK(list[0].slug == "alpha");
    CHECK(list[0].name == "Project alpha");
    CHECK(list[0].platform == "web");
    CHECK(list[0].project_number == a.project_number);
    CHECK(list[1].id == b.id);
    SV_ASSIGN_OR_RETURN(auto other_list, f.projects->List(c, kOtherOrg));
    REQUIRE(other_list.size() == 1);
    CHECK(other_list[0].id == other.id);

    SV_ASSIGN_OR_RETURN(auto found, f.projects->Find(c, kOrg, a.id));
    REQUIRE(found);
    CHECK(found->org_id == kOrg);
    CHECK(found->created_at == 10);
    CHECK_FALSE(found->grouping_v3_shadow);
    SV_ASSIGN_OR_RETURN(auto elsewhere, f.projects->Find(c, kOtherOrg, a.id));
    CHECK_FALSE(elsewhere);

    SV_ASSIGN_OR_RETURN(int64_t n, f.projects->Count(c, kOrg));
    CHECK(n == 2);
    SV_ASSIGN_OR_RETURN(int64_t none, f.projects->Count(c, f.Id()));
    CHECK(none == 0);
    SV_ASSIGN_OR_RETURN(bool alpha, f.projects->SlugTaken(c, kOrg, "alpha"));
    CHECK(alpha);
    SV_ASSIGN_OR_RETURN(bool beta_elsewhere, f.projects->SlugTaken(c, kOtherOrg, "beta"));
    CHECK_FALSE(beta_elsewhere);
    return Status::Ok();
  });
}

TEST_CASE("project store: the list counts live bugs and new ones, shadow grouping is switched in its org") {
  Fixture f;
  ports::Project p = f.Project(kOrg, "p", 10);
  f.Bug(p, "live");
  const std::string resolved = f.Bug(p, "live");
  f.Bug(p, "test");
  f.Write([&](Connection& tx) {
    return NewSqlBugStatusRepository()->SetStatus(tx, kOrg, resolved, "resolved", 2000).status();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto list, f.projects->List(c, kOrg));
    REQUIRE(list.size() == 1);
    CHECK(list[0].bug_count == 2);
    CHECK(list[0].new_bug_count == 1);
    return Status::Ok();
  });

  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool other, f.projects->SetShadowGrouping(tx, kOtherOrg, p.id, true));
    CHECK_FALSE(other);
    SV_ASSIGN_OR_RETURN(bool missing, f.projects->SetShadowGrouping(tx, kOrg, f.Id(), true));
    CHECK_FALSE(missing);
    SV_ASSIGN_OR_RETURN(bool on, f.projects->SetShadowGrouping(tx, kOrg, p.id, true));
    CHECK(on);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, f.projects->Find(c, kOrg, p.id));
    REQUIRE(found);
    CHECK(found->grouping_v3_shadow);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) { return f.projects->SetShadowGrouping(tx, kOrg, p.id, false).status(); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, f.projects->Find(c, kOrg, p.id));
    REQUIRE(found);
    CHECK_FALSE(found->grouping_v3_shadow);
    return Status::Ok();
  });
}

TEST_CASE("project store: capture keys found by hash, listed newest first, revoked once, scoped by org") {
  Fixture f;
  ports::Project p = f.Project(kOrg, "p", 10);
  ports::Project q = f.Project(kOtherOrg, "q", 10);
  ports::User creator;
  creator.id = f.Id();
  creator.email = "creator@example.com";
  creator.name = "Creator";
  f.Write([&](Connection& tx) { return NewSqlUserRepository()->Insert(tx, creator); });
  ports::CaptureKey older = f.Key(p, "h-older", 100, creator.id);
  ports::CaptureKey newer = f.Key(p, "h-newer", 200);
  ports::CaptureKey elsewhere = f.Key(q, "h-elsewhere", 300);

  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto by_hash, f.keys->FindByHash(c, "h-older"));
    REQUIRE(by_hash);
    CHECK(by_hash->id == older.id);
    CHECK(by_hash->org_id == kOrg);
    CHECK(by_hash->project_id == p.id);
    CHECK(by_hash->env == "live");
    CHECK(by_hash->prefix == "pk_h-older");
    CHECK(by_hash->label == "Key h-older");
    CHECK(by_hash->expires_at == std::optional<int64_t>(99'000));
    CHECK_FALSE(by_hash->last_used);
    CHECK_FALSE(by_hash->revoked_at);
    CHECK(by_hash->created_by == creator.id);
    CHECK(by_hash->created_at == 100);
    SV_ASSIGN_OR_RETURN(auto unknown, f.keys->FindByHash(c, "h-unknown"));
    CHECK_FALSE(unknown);

    SV_ASSIGN_OR_RETURN(auto ingest, f.keys->FindForIngest(c, "h-elsewhere"));
    REQUIRE(ingest);
    CHECK(ingest->key.id == elsewhere.id);
    CHECK(ingest->plan == "team");
    CHECK(ingest->project_name == "Project q");
    CHECK(ingest->project_number == q.project_number);
    CHECK_FALSE(ingest->grouping_v3_shadow);
    SV_ASSIGN_OR_RETURN(auto ingest_unknown, f.keys->FindForIngest(c, "h-unknown"));
    CHECK_FALSE(ingest_unknown);

    SV_ASSIGN_OR_RETURN(auto found, f.keys->Find(c, kOrg, p.id, newer.id));
    REQUIRE(found);
    CHECK(found->key_hash == "h-newer");
    SV_ASSIGN_OR_RETURN(auto wrong_org, f.keys->Find(c, kOtherOrg, p.id, newer.id));
    CHECK_FALSE(wrong_org);
    SV_ASSIGN_OR_RETURN(auto wrong_project, f.keys->Find(c, kOrg, q.id, newer.id));
    CHECK_FALSE(wrong_project);

    SV_ASSIGN_OR_RETURN(auto active, f.keys->ListActive(c, kOrg, p.id));
    REQUIRE(active.size() == 2);
    CHECK(active[0].id == newer.id);
    CHECK(active[1].id == older.id);
    SV_ASSIGN_OR_RETURN(auto cross, f.keys->ListActive(c, kOtherOrg, p.id));
    CHECK(cross.empty());
    return Status::Ok();
  });

  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool wrong_org, f.keys->Revoke(tx, kOtherOrg, p.id, older.id, 500));
    CHECK_FALSE(wrong_org);
    SV_ASSIGN_OR_RETURN(bool revoked, f.keys->Revoke(tx, kOrg, p.id, older.id, 500));
    CHECK(revoked);
    SV_ASSIGN_OR_RETURN(bool twice, f.keys->Revoke(tx, kOrg, p.id, older.id, 600));
    CHECK_FALSE(twice);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto active, f.keys->ListActive(c, kOrg, p.id));
    REQUIRE(active.size() == 1);
    CHECK(active[0].id == newer.id);
    // Revoked keys are still found (the caller decides).
    SV_ASSIGN_OR_RETURN(auto by_hash, f.keys->FindByHash(c, "h-older"));
    REQUIRE(by_hash);
    CHECK(by_hash->revoked_at == std::optional<int64_t>(500));
    SV_ASSIGN_OR_RETURN(auto by_id, f.keys->Find(c, kOrg, p.id, older.id));
    CHECK(by_id);
    SV_ASSIGN_OR_RETURN(auto ingest, f.keys->FindForIngest(c, "h-older"));
    REQUIRE(ingest);
    CHECK(ingest->key.revoked_at == std::optional<int64_t>(500));
    return Status::Ok();
  });
}

TEST_CASE("project store: a key's last use only moves forward, forgetting a creator clears it") {
  Fixture f;
  ports::Project p = f.Project(kOrg, "p", 10);
  ports::User creator;
  creator.id = f.Id();
  creator.email = "creator@example.com";
  creator.name = "Creator";
  f.Write([&](Connection& tx) { return NewSqlUserRepository()->Insert(tx, creator); });
  ports::CaptureKey a = f.Key(p, "h-a", 100, creator.id);
  ports::CaptureKey b = f.Key(p, "h-b", 200, creator.id);

  struct Step {
    std::vector<std::pair<std::string, int64_t>> uses;
    int64_t a_last, b_last;
  };
  for (const Step& s : {Step{{{a.id, 1000}}, 1000, -1}, Step{{{a.id, 900}, {b.id, 1500}}, 1000, 1500},
                        Step{{{a.id, 2000}, {b.id, 2000}}, 2000, 2000}}) {
    f.Write([&](Connection& tx) { return f.keys->TouchLastUsed(tx, s.uses); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto ka, f.keys->Find(c, kOrg, p.id, a.id));
      SV_ASSIGN_OR_RETURN(auto kb, f.keys->Find(c, kOrg, p.id, b.id));
      REQUIRE(ka);
      REQUIRE(kb);
      CHECK(ka->last_used.value_or(-1) == s.a_last);
      CHECK(kb->last_used.value_or(-1) == s.b_last);
      return Status::Ok();
    });
  }

  f.Write([&](Connection& tx) { return f.keys->ForgetCreator(tx, creator.id); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto active, f.keys->ListActive(c, kOrg, p.id));
    REQUIRE(active.size() == 2);
    for (const ports::CaptureKey& k : active) CHECK(k.created_by.empty());
    return Status::Ok();
  });
}

}  // namespace service::store
