// The superadmin's rules (areas/admin/domain/admin.h), table-driven.
#include <doctest/doctest.h>

#include <string>

#include "areas/admin/domain/admin.h"

namespace service::domain::admin {
namespace {

TEST_CASE("customer filter values are exactly the spec's") {
  struct Case {
    bool (*fn)(std::string_view);
    const char* value;
    bool valid;
  };
  const Case cases[] = {
      {IsLifecycleStage, "trial", true},     {IsLifecycleStage, "internal", true},
      {IsLifecycleStage, "Trial", false},    {IsLifecycleStage, "", false},
      {IsCustomerPlan, "free", true},        {IsCustomerPlan, "enterprise", true},
      {IsCustomerPlan, "gold", false},       {IsBillingStatus, "past_due", true},
      {IsBillingStatus, "unassigned", true}, {IsBillingStatus, "pastdue", false},
      {IsWaitlistStatus, "completed", true}, {IsWaitlistStatus, "done", false},
      {IsMemberRole, "tester", true},        {IsMemberRole, "owner", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.value);
    CHECK(c.fn(c.value) == c.valid);
  }
}

TEST_CASE("db tables: the twenty allowlisted names, nothing else, redacted columns") {
  CHECK(AllowlistedTables().size() == 20);
  for (const char* name : {"organizations", "users", "bug_attachments", "waitlist_entries", "ai_usage"})
    CHECK_MESSAGE(IsAllowlistedTable(name), name);
  for (const char* name : {"settings", "memberships", "users;DROP TABLE users", "USERS", "", "sqlite_master"})
    CHECK_MESSAGE(!IsAllowlistedTable(name), name);
  for (const char* c : {"password_hash", "key_hash", "token_hash", "approval_token_hash"})
    CHECK(IsRedactedColumn(c));
  for (const char* c : {"email", "prefix", "hash"}) CHECK(!IsRedactedColumn(c));
}

TEST_CASE("UTC days: day numbers, dates, series start, deletion confirmation") {
  struct Case {
    int64_t ms;
    int64_t day;
    const char* date;
  };
  const Case cases[] = {{0, 0, "1970-01-01"},
                        {kDayMs - 1, 0, "1970-01-01"},
                        {-1, -1, "1969-12-31"},
                        {1768471200000, 20468, "2026-01-15"},
                        {951782400000, 11016, "2000-02-29"}};
  for (const Case& c : cases) {
    CAPTURE(c.ms);
    CHECK(DayNumber(c.ms) == c.day);
    CHECK(DayString(DayNumber(c.ms)) == c.date);
  }
  CHECK(SeriesStart(1768471200000, 30) == 20468 - 29);
  CHECK(SeriesStart(1768471200000, 1) == 20468);
  CHECK(ConfirmsDeletion("a", "a"));
  CHECK(!ConfirmsDeletion("a", "b"));
  CHECK(!ConfirmsDeletion("", ""));
}

}  // namespace
}  // namespace service::domain::admin
