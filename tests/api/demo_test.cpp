// `service-server --demo`: a populated product from an empty database.
#include <doctest/doctest.h>

#include "service_internal.h"
#include "support/api_harness.h"

using service::testing::TestService;

namespace {
int64_t Count(TestService& t, const std::string& sql) {
  int64_t n = -1;
  REQUIRE(service::internal::PlatformOf(t.service())
              .db
              ->Read([&](service::store::Connection& c) -> service::Status {
                SV_ASSIGN_OR_RETURN(service::store::Rows r, c.Query(sql));
                n = r.Int(0, 0);
                return service::Status::Ok();
              })
              .ok());
  return n;
}
}  // namespace

TEST_CASE("demo seeding creates a loggable organization with realistic reports, once") {
  TestService t;
  auto demo = t.service().SeedDemo();
  REQUIRE_MESSAGE(demo.ok(), demo.status().ToString());
  CHECK(demo->created);
  CHECK(demo->reports >= 300);
  CHECK(demo->bugs >= 8);
  CHECK(demo->api_key.rfind("sv_live_", 0) == 0);

  // Every report went through the pipeline: one occurrence each, grouped.
  CHECK(Count(t, "SELECT COUNT(*) FROM occurrences") == demo->reports);
  CHECK(Count(t, "SELECT COUNT(*) FROM bugs") == demo->bugs);
  CHECK(Count(t, "SELECT COUNT(*) FROM bugs WHERE report_count > 1") >= 5);
  CHECK(Count(t, "SELECT COUNT(DISTINCT platform) FROM occurrences") >= 5);
  CHECK(Count(t, "SELECT COUNT(DISTINCT release_version) FROM occurrences") >= 3);
  CHECK(Count(t, "SELECT COUNT(*) FROM bugs WHERE is_regression = 1") == 1);
  CHECK(Count(t, "SELECT COUNT(DISTINCT signal_class) FROM bugs") >= 2);

  // The printed credentials work.
  auto login = t.Post("/v1/auth/login", {{"email", demo->email}, {"password", demo->password}});
  CHECK(login.status == 200);
  CHECK(login.json.at("accessToken").is_string());

  // A second start on the same database adds nothing.
  auto again = t.service().SeedDemo();
  REQUIRE(again.ok());
  CHECK_FALSE(again->created);
  CHECK(Count(t, "SELECT COUNT(*) FROM organizations") == 1);
  CHECK(Count(t, "SELECT COUNT(*) FROM occurrences") == demo->reports);
}
