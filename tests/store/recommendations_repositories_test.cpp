// Contract tests of the recommendations repository on both backends,
// through its interface (areas/recommendations/ports/): the subscribed
// projects (active integrations naming recommended_bug exactly, one row per
// project, in project order), the emission claim (insert-if-absent, then
// false; concurrent claimers of one bug: exactly one wins), the conditional
// re-claim (only from the emission it saw), the delivery count, the
// project's list newest first, and the foreign keys (a deleted bug takes its
// row).
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "areas/recommendations/ports/recommendation_repository.h"
#include "areas/recommendations/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kProject2 = "00000000-0000-7000-8000-000000000003";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::RecommendationRepository> repo = NewSqlRecommendationRepository();

  Fixture() : StoreFixture({kProject, kProject2}) { AddOtherOrganization(); }

  std::string Bug(const std::string& org = kOrg, const std::string& project = kProject) {
    return AddBug({.org = org, .project = project, .severity = "high"});
  }

  void Integration(const std::string& org, const std::string& project, const std::string& events_json,
                   bool active = true) {
    Write([&](Connection& tx) {
      return tx
          .Exec(
              "INSERT INTO integrations (id, org_id, project_id, type, config_sealed, config_view, events, "
              "is_active, created_at, updated_at) VALUES (?, ?, ?, 'webhook', 'v1:x', '{}', ?, ?, 1, 1)",
              {Id(), org, project, events_json, int64_t{active ? 1 : 0}})
          .status();
    });
  }

  std::vector<ports::SubscribedProject> Subscribed() {
    std::vector<ports::SubscribedProject> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->SubscribedProjects(c, "recommended_bug"));
      return Status::Ok();
    });
    return out;
  }

  bool ClaimFirst(const std::string& bug, int64_t at, const std::string& project = kProject) {
    bool out = false;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->ClaimFirst(tx, ports::Emission{project, bug, kOrg, at, 1, 0}));
      return Status::Ok();
    });
    return out;
  }

  bool ClaimAgain(const std::string& bug, int64_t previous, int64_t now) {
    bool out = false;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->ClaimAgain(tx, kProject, bug, previous, now));
      return Status::Ok();
    });
    return out;
  }

  std::optional<ports::Emission> Find(const std::string& bug) {
    std::optional<ports::Emission> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->Find(c, kProject, bug));
      return Status::Ok();
    });
    return out;
  }
};

TEST_CASE(
    "recommendations store: subscribed projects are those with an active integration naming the event") {
  Fixture f;
  CHECK(f.Subscribed().empty());
  f.Integration(kOrg, kProject2, R"(["new_bug","recommended_bug"])");
  f.Integration(kOrg, kProject2, R"(["recommended_bug"])");  // the same project: one row
  f.Integration(kOrg, kProject, R"(["new_bug","regression"])");
  f.Integration(kOrg, kProject, R"(["recommendedXbug"])");         // LIKE's '_' is not enough
  f.Integration(kOrg, kProject, R"(["recommended_bug"])", false);  // inactive
  f.Integration(kOtherOrg, kOtherProject, R"(["recommended_bug"])");
  const std::vector<ports::SubscribedProject> got = f.Subscribed();
  REQUIRE(got.size() == 2);
  const bool ordered = std::string(kProject2) < std::string(kOtherProject);
  const ports::SubscribedProject& a = got[ordered ? 0 : 1];
  const ports::SubscribedProject& b = got[ordered ? 1 : 0];
  CHECK(a.org_id == kOrg);
  CHECK(a.project_id == kProject2);
  CHECK(b.org_id == kOtherOrg);
  CHECK(b.project_id == kOtherProject);
}

TEST_CASE("recommendations store: claims, re-claims, delivery counts, the list and the foreign keys") {
  Fixture f;
  const std::string bug = f.Bug();
  const std::string other = f.Bug();
  CHECK_FALSE(f.Find(bug).has_value());
  CHECK(f.ClaimFirst(bug, 1000));
  CHECK_FALSE(f.ClaimFirst(bug, 2000));  // already emitted
  std::optional<ports::Emission> e = f.Find(bug);
  REQUIRE(e.has_value());
  CHECK(e->org_id == kOrg);
  CHECK(e->emitted_at == 1000);
  CHECK(e->emissions == 1);
  CHECK(e->deliveries == 0);
  f.Write([&](Connection& tx) { return f.repo->SetDeliveries(tx, kProject, bug, 2); });
  CHECK(f.Find(bug)->deliveries == 2);

  CHECK_FALSE(f.ClaimAgain(bug, 999, 5000));  // not the emission it saw
  CHECK(f.ClaimAgain(bug, 1000, 5000));
  CHECK_FALSE(f.ClaimAgain(bug, 1000, 6000));  // another run moved it
  e = f.Find(bug);
  CHECK(e->emitted_at == 5000);
  CHECK(e->emissions == 2);
  CHECK(e->deliveries == 0);

  CHECK(f.ClaimFirst(other, 3000));
  CHECK(f.ClaimFirst(other, 3000, kProject2));  // per project
  std::vector<ports::Emission> list;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(list, f.repo->List(c, kProject, 10));
    return Status::Ok();
  });
  REQUIRE(list.size() == 2);
  CHECK(list[0].bug_id == bug);  // 5000
  CHECK(list[1].bug_id == other);

  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM bugs WHERE id = ?", {bug}).status(); });
  CHECK_FALSE(f.Find(bug).has_value());
}

TEST_CASE("recommendations store: concurrent first claims of one bug: exactly one wins") {
  Fixture f;
  const std::string bug = f.Bug();
  std::atomic<int> claimed{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&, i] {
      Status s = f.db->Write([&](Connection& tx) -> Status {
        SV_ASSIGN_OR_RETURN(bool won,
                            f.repo->ClaimFirst(tx, ports::Emission{kProject, bug, kOrg, 1000 + i, 1, 0}));
        if (won) ++claimed;
        return Status::Ok();
      });
      if (!s.ok()) ++failed;
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(failed == 0);
  CHECK(claimed == 1);
}

}  // namespace
}  // namespace service::store
