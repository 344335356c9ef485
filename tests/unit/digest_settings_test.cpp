// SERVICE_DIGEST_PERIODS (server contract; issue 32): the length of an
// hourly and of a daily digest, in seconds.
#include <doctest/doctest.h>

#include <string>

#include "areas/triage/domain/notify.h"
#include "service/options.h"

namespace service {
namespace {

TEST_CASE("SERVICE_DIGEST_PERIODS: defaults, any subset, and refusals naming the variable") {
  Options o;
  CHECK(o.digest_hourly_ms == 3'600'000);
  CHECK(o.digest_daily_ms == 86'400'000);
  REQUIRE(ApplySetting(o, "SERVICE_DIGEST_PERIODS", "hourly=2, Daily=10").ok());
  CHECK(o.digest_hourly_ms == 2'000);
  CHECK(o.digest_daily_ms == 10'000);
  REQUIRE(ApplySetting(o, "SERVICE_DIGEST_PERIODS", "daily=60").ok());
  CHECK(o.digest_hourly_ms == 3'600'000);  // a new value replaces the whole setting
  CHECK(o.digest_daily_ms == 60'000);
  REQUIRE(ApplySetting(o, "SERVICE_DIGEST_PERIODS", "").ok());
  CHECK(o.digest_daily_ms == 86'400'000);
  for (const char* bad :
       {"weekly=5", "hourly", "hourly=0", "hourly=-1", "hourly=1.5", "daily=2678401", "hourly=1,hourly=2"}) {
    CAPTURE(bad);
    const Status s = ApplySetting(o, "SERVICE_DIGEST_PERIODS", bad);
    CHECK_FALSE(s.ok());
    CHECK(s.message().find("SERVICE_DIGEST_PERIODS") != std::string::npos);
  }
  // The periods drive when a digest is due.
  CHECK(domain::triage::DigestPeriodMs("full", "hourly", 2'000, 10'000) == 2'000);
  CHECK(domain::triage::DigestPeriodMs("digest", "daily", 2'000, 10'000) == 10'000);
  CHECK(domain::triage::DigestPeriodMs("full", "realtime", 2'000, 10'000) == 0);
}

}  // namespace
}  // namespace service
