// SERVICE_RETENTION (README "Retention"): the periods of the retention
// sweeps, their defaults, and the refusals an operator sees at start.
#include <doctest/doctest.h>

#include <string>

#include "areas/operations/domain/plans.h"
#include "service/options.h"

namespace service {
namespace {

constexpr int64_t kMinute = 60'000;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_CASE("SERVICE_RETENTION defaults: what the README's retention table says") {
  const RetentionPeriods d;
  CHECK(d.deliveries_ms == 30 * kDay);
  CHECK(d.dead_letters_ms == 90 * kDay);
  CHECK(d.outbox_ms == 7 * kDay);
  CHECK(d.sentry_event_ids_ms == 30 * kDay);
  CHECK(d.agent_commands_ms == 24 * kHour);
  CHECK(d.presence_ms == 10 * kMinute);
  CHECK(d.evidence_ms == 30 * kDay);
  CHECK(d.expired_evidence_ms == 30 * kDay);
  CHECK(d.digest_batches_ms == 90 * kDay);
  CHECK(kRetentionBatchRows == 1000);
}

TEST_CASE("SERVICE_RETENTION sets the named periods and keeps the others' defaults") {
  Options o;
  REQUIRE(ApplySetting(o, "SERVICE_RETENTION", " deliveries=7d, Agent_Commands=12H ,presence=15m").ok());
  CHECK(o.retention.deliveries_ms == 7 * kDay);
  CHECK(o.retention.agent_commands_ms == 12 * kHour);
  CHECK(o.retention.presence_ms == 15 * kMinute);
  CHECK(o.retention.outbox_ms == 7 * kDay);
  CHECK(o.retention.dead_letters_ms == 90 * kDay);

  REQUIRE(
      ApplySetting(o, "SERVICE_RETENTION", "outbox=1d,sentry_event_ids=3650d,agent_commands=1h,evidence=90d")
          .ok());
  CHECK(o.retention.outbox_ms == kDay);
  CHECK(o.retention.sentry_event_ids_ms == 3650 * kDay);
  CHECK(o.retention.agent_commands_ms == kHour);
  CHECK(o.retention.evidence_ms == 90 * kDay);
  REQUIRE(ApplySetting(o, "SERVICE_RETENTION", "expired_evidence=2d,digest_batches=14d").ok());
  CHECK(o.retention.expired_evidence_ms == 2 * kDay);
  CHECK(o.retention.digest_batches_ms == 14 * kDay);
  CHECK(o.retention.deliveries_ms == 30 * kDay);  // a new value replaces the whole setting

  REQUIRE(ApplySetting(o, "SERVICE_RETENTION", "").ok());  // empty: every default
  CHECK(o.retention.evidence_ms == 30 * kDay);
}

TEST_CASE("SERVICE_RETENTION refuses a bad value with the variable, the name and the bounds") {
  struct Case {
    const char* value;
    const char* says;
  };
  const Case cases[] = {
      {"deliveries", "expected NAME=DURATION"},
      {"mail=7d", "names: deliveries, dead_letters, outbox"},
      {"deliveries=30", "deliveries must be a duration from 1d to 3650d"},
      {"deliveries=30s", "deliveries must be a duration"},
      {"deliveries=-1d", "deliveries must be a duration"},
      {"deliveries=0d", "deliveries must be a duration from 1d"},
      {"outbox=23h", "outbox must be a duration from 1d"},
      {"presence=4m", "presence must be a duration from 5m"},
      {"agent_commands=59m", "agent_commands must be a duration from 1h"},
      {"evidence=3651d", "evidence must be a duration from 1d to 3650d"},
      {"evidence=99999999999999m", "evidence must be a duration"},
      {"deliveries=1d,deliveries=2d", "deliveries is given twice"},
      {",", "expected NAME=DURATION"},
  };
  for (const Case& c : cases) {
    Options o;
    const Status s = ApplySetting(o, "SERVICE_RETENTION", c.value);
    CHECK_MESSAGE(s.code() == Code::kInvalidArgument, c.value);
    CHECK_MESSAGE(Contains(s.message(), "SERVICE_RETENTION: "), s.message());
    CHECK_MESSAGE(Contains(s.message(), c.says), s.message());
  }
}

TEST_CASE("occurrence retention per plan: the defaults, an override, and a refused zero") {
  namespace dops = domain::operations;
  CHECK(dops::LimitsFor("free", {}).retention_days == 30);
  CHECK(dops::LimitsFor("pro", {}).retention_days == 90);
  CHECK(dops::LimitsFor("team", {}).retention_days == 365);
  CHECK(dops::LimitsFor("enterprise", {}).retention_days == dops::kUnlimited);
  CHECK(dops::LimitsFor("unknown", {}).retention_days == 30);  // unknown plans get free's limits

  Options o;
  REQUIRE(
      ApplySetting(o, "SERVICE_PLAN_LIMITS", "pro:retention_days=180;enterprise:retention_days=730").ok());
  CHECK(dops::LimitsFor("pro", o.plan_limits).retention_days == 180);
  CHECK(dops::LimitsFor("enterprise", o.plan_limits).retention_days == 730);
  CHECK(dops::LimitsFor("team", o.plan_limits).retention_days == 365);

  const Status zero = ApplySetting(o, "SERVICE_PLAN_LIMITS", "free:retention_days=0");
  CHECK(zero.code() == Code::kInvalidArgument);
  CHECK_MESSAGE(Contains(zero.message(), "free:retention_days must be at least 1"), zero.message());
}

}  // namespace
}  // namespace service
