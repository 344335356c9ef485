// Contract tests of the scrubbing repository on both backends, through its
// interface (areas/capture/ports/scrubbing_repository.h): no row means the
// defaults, upsert keeps one row per project, extra keys round-trip in
// order, another organization's id finds nothing, counters add up per rule
// and skip a project that no longer exists, and a deleted project takes its
// rows.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/capture/ports/scrubbing_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::ScrubbingRepository> repo = NewSqlScrubbingRepository();
  Fixture() : StoreFixture({kProject}) { AddOtherOrganization(); }

  std::optional<ports::ScrubbingSettingsRow> Get(const std::string& org, const std::string& project) {
    std::optional<ports::ScrubbingSettingsRow> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->Get(c, org, project));
      return Status::Ok();
    });
    return out;
  }
  std::vector<ports::ScrubCountRow> Counts(const std::string& org, const std::string& project) {
    std::vector<ports::ScrubCountRow> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->Counts(c, org, project));
      return Status::Ok();
    });
    return out;
  }
};

}  // namespace

TEST_CASE("scrubbing settings: absent, upsert, round trip, organization scope") {
  Fixture f;
  CHECK_FALSE(f.Get(kOrg, kProject).has_value());
  ports::ScrubbingSettingsRow row{kProject, kOrg, {"iban", "Social-Security"}, false, false, 1000, "user-1"};
  f.Write([&](Connection& c) { return f.repo->Put(c, row); });
  std::optional<ports::ScrubbingSettingsRow> got = f.Get(kOrg, kProject);
  REQUIRE(got.has_value());
  CHECK(got->extra_keys == std::vector<std::string>{"iban", "Social-Security"});
  CHECK_FALSE(got->scrub_messages);
  CHECK_FALSE(got->store_ip);
  CHECK(got->updated_at == 1000);
  CHECK(got->updated_by == "user-1");
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::ScrubbingSettingsRow> by_id, f.repo->GetForProject(c, kProject));
    CHECK(by_id.has_value());
    SV_ASSIGN_OR_RETURN(std::optional<ports::ScrubbingSettingsRow> none,
                        f.repo->GetForProject(c, kOtherProject));
    CHECK_FALSE(none.has_value());
    return Status::Ok();
  });
  // Another organization's id finds nothing.
  CHECK_FALSE(f.Get(kOtherOrg, kProject).has_value());

  row.extra_keys = {};
  row.scrub_messages = true;
  row.updated_at = 2000;
  f.Write([&](Connection& c) { return f.repo->Put(c, row); });
  got = f.Get(kOrg, kProject);
  REQUIRE(got.has_value());
  CHECK(got->extra_keys.empty());
  CHECK(got->scrub_messages);
  CHECK(got->updated_at == 2000);
  CHECK(f.Int("SELECT COUNT(*) FROM scrubbing_settings") == 1);
}

TEST_CASE("scrubbing counters add up per rule, skip a vanished project, go with the project") {
  Fixture f;
  CHECK(f.Counts(kOrg, kProject).empty());
  f.Write([&](Connection& c) -> Status {
    SV_RETURN_IF_ERROR(f.repo->AddCount(c, kProject, "key", 3, 100));
    SV_RETURN_IF_ERROR(f.repo->AddCount(c, kProject, "card", 1, 100));
    SV_RETURN_IF_ERROR(f.repo->AddCount(c, "00000000-0000-7000-8000-00000000dead", "key", 5, 100));
    return f.repo->AddCount(c, kOtherProject, "ip", 7, 100);
  });
  f.Write([&](Connection& c) { return f.repo->AddCount(c, kProject, "key", 2, 200); });
  std::vector<ports::ScrubCountRow> counts = f.Counts(kOrg, kProject);
  REQUIRE(counts.size() == 2);
  CHECK(counts[0].rule == "card");
  CHECK(counts[0].count == 1);
  CHECK(counts[0].last_at == 100);
  CHECK(counts[1].rule == "key");
  CHECK(counts[1].count == 5);
  CHECK(counts[1].last_at == 200);
  CHECK(f.Counts(kOtherOrg, kProject).empty());
  CHECK(f.Counts(kOtherOrg, kOtherProject).size() == 1);
  CHECK(f.Int("SELECT COUNT(*) FROM scrubbing_counts") == 3);

  ports::ScrubbingSettingsRow row{kProject, kOrg, {"iban"}, true, true, 1, ""};
  f.Write([&](Connection& c) { return f.repo->Put(c, row); });
  f.Write([&](Connection& c) { return c.Exec("DELETE FROM projects WHERE id = ?", {kProject}).status(); });
  CHECK(f.Int("SELECT COUNT(*) FROM scrubbing_counts WHERE project_id = ?", {kProject}) == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM scrubbing_settings") == 0);
}

}  // namespace service::store
