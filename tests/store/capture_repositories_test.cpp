// Contract tests of the capture repository methods capture_store_test.cpp
// leaves out, on both backends: undoing a creation, finding ids by key,
// client delivery ids claimed once and forgotten by age, the system's
// status-history row, and an organization's end users deleted.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/bugs/store/repositories.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kProject2 = "00000000-0000-7000-8000-000000000003";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::CaptureBugRepository> bugs = NewSqlCaptureBugRepository();

  Fixture() : StoreFixture({kProject, kProject2}) {}

  ports::BugReportWrite Report(const std::string& fingerprint, const std::string& env = "live") {
    ports::BugReportWrite w;
    w.org_id = kOrg;
    w.project_id = kProject;
    w.key_env = env;
    w.fingerprint = fingerprint;
    w.new_bug_id = Id();
    w.occurrence_id = Id();
    w.title = "Title";
    w.severity = "medium";
    w.platform = "web";
    w.signal_class = "issue";
    w.seen_at = 1000;
    return w;
  }

  static ports::BugKeyReports Key(const std::string& project, const std::string& env,
                                  const std::string& fingerprint) {
    return ports::BugKeyReports{project, env, fingerprint, 1, 1000, "", "", std::nullopt, ""};
  }
};

}  // namespace

TEST_CASE(
    "capture repository: ids are found by key, a removed creation leaves no bug, delivery ids are claimed "
    "once") {
  Fixture f;
  {  // ids are found by key in order, a removed creation leaves no bug
    const ports::BugReportWrite live = f.Report("1111111111111111");
    const ports::BugReportWrite test = f.Report("1111111111111111", "test");
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(f.bugs->Create(tx, live).status());
      return f.bugs->Create(tx, test).status();
    });
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto ids,
                          f.bugs->FindIds(tx, {Fixture::Key(kProject, "test", "1111111111111111"),
                                               Fixture::Key(kProject2, "live", "1111111111111111"),
                                               Fixture::Key(kProject, "live", "1111111111111111"),
                                               Fixture::Key(kProject, "live", "2222222222222222")}));
      REQUIRE(ids.size() == 4);
      CHECK(ids[0] == std::optional<std::string>(test.new_bug_id));
      CHECK_FALSE(ids[1]);  // another project
      CHECK(ids[2] == std::optional<std::string>(live.new_bug_id));
      CHECK_FALSE(ids[3]);
      return Status::Ok();
    });

    // Created and undone in one transaction; the other bug stays.
    const ports::BugReportWrite refused = f.Report("3333333333333333");
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto created, f.bugs->Create(tx, refused));
      REQUIRE(created);
      CHECK(created->created);
      return f.bugs->RemoveCreated(tx, refused.new_bug_id);
    });
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto ids,
                          f.bugs->FindIds(tx, {Fixture::Key(kProject, "live", "3333333333333333"),
                                               Fixture::Key(kProject, "live", "1111111111111111")}));
      CHECK_FALSE(ids[0]);
      CHECK(ids[1] == std::optional<std::string>(live.new_bug_id));
      return Status::Ok();
    });
  }
  {  // a delivery id is claimed once per project and forgotten by age
    struct Claim {
      const char* project;
      const char* delivery;
      int64_t at;
      bool first;
    };
    for (const Claim& k : {Claim{kProject, "d1", 100, true}, Claim{kProject, "d1", 150, false},
                           Claim{kProject2, "d1", 200, true}, Claim{kProject, "d2", 300, true}}) {
      CAPTURE(k.delivery);
      f.Write([&](Connection& tx) -> Status {
        SV_ASSIGN_OR_RETURN(bool first, f.bugs->ClaimDelivery(tx, k.project, k.delivery, k.at));
        CHECK(first == k.first);
        return Status::Ok();
      });
    }
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(int64_t forgotten, f.bugs->ForgetDeliveries(tx, 250, 100));
      CHECK(forgotten == 2);
      SV_ASSIGN_OR_RETURN(bool again, f.bugs->ClaimDelivery(tx, kProject, "d1", 400));
      CHECK(again);  // forgotten: a new claim
      SV_ASSIGN_OR_RETURN(bool kept, f.bugs->ClaimDelivery(tx, kProject, "d2", 400));
      CHECK_FALSE(kept);
      return Status::Ok();
    });
  }
}

TEST_CASE("capture repository: the system's status history row, and end users deleted per organization") {
  Fixture f;
  const ports::BugReportWrite w = f.Report("4444444444444444");
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.bugs->Create(tx, w).status());
    return f.bugs->AddStatusHistory(tx, f.Id(), w.new_bug_id, kOrg, "resolved", "new", "regressed", "", 2000);
  });
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(auto history, NewSqlBugReadRepository()->History(c, w.new_bug_id));
                REQUIRE(history.size() == 1);
                CHECK(history[0].old_status == std::optional<std::string>("resolved"));
                CHECK(history[0].new_status == "new");
                CHECK(history[0].note == std::optional<std::string>("regressed"));
                CHECK(history[0].changed_at == 2000);
                CHECK_FALSE(history[0].changed_by_name);  // the system
                return Status::Ok();
              })
              .ok());

  constexpr const char* kOtherOrg = "00000000-0000-7000-8000-000000000009";
  auto end_users = NewSqlEndUserRepository();
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(
        NewSqlOrgRepository()->Insert(tx, ports::Organization{kOtherOrg, "Other", "other", "free", 5}));
    for (const char* org : {kOrg, kOtherOrg}) {
      SV_RETURN_IF_ERROR(end_users->Touch(tx, {{org, "user:a", "user", std::nullopt, std::nullopt, "web",
                                                std::nullopt, std::nullopt, f.Id(), 1000}}));
    }
    return end_users->DeleteOrganization(tx, kOrg);
  });
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(auto mine, end_users->Find(c, kOrg, "user:a"));
                CHECK_FALSE(mine);
                SV_ASSIGN_OR_RETURN(auto theirs, end_users->Find(c, kOtherOrg, "user:a"));
                CHECK(theirs);
                return Status::Ok();
              })
              .ok());
}

}  // namespace service::store
