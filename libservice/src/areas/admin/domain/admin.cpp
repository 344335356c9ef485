#include "areas/admin/domain/admin.h"

#include <algorithm>
#include <cstdio>

namespace service::domain::admin {
namespace {

bool OneOf(std::string_view v, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t yy = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yy + (*m <= 2 ? 1 : 0);
}

}  // namespace

bool IsLifecycleStage(std::string_view v) {
  return OneOf(v, {"trial", "active", "paused", "churned", "internal"});
}
bool IsCustomerPlan(std::string_view v) { return OneOf(v, {"free", "pro", "team", "enterprise"}); }
bool IsBillingStatus(std::string_view v) { return OneOf(v, {"unassigned", "manual", "paid", "past_due"}); }
bool IsWaitlistStatus(std::string_view v) {
  return OneOf(v, {"pending", "approved", "rejected", "completed"});
}
bool IsMemberRole(std::string_view v) { return OneOf(v, {"admin", "manager", "member", "tester", "viewer"}); }

const std::vector<std::string_view>& AllowlistedTables() {
  static const std::vector<std::string_view> kTables = {"organizations",
                                                        "users",
                                                        "team_memberships",
                                                        "projects",
                                                        "api_keys",
                                                        "bug_reports",
                                                        "bug_reporters",
                                                        "bug_events",
                                                        "bug_attachments",
                                                        "bug_comments",
                                                        "bug_status_history",
                                                        "notification_preferences",
                                                        "notifications",
                                                        "bug_watchers",
                                                        "refresh_tokens",
                                                        "integrations",
                                                        "password_reset_tokens",
                                                        "ai_usage",
                                                        "integration_deliveries",
                                                        "waitlist_entries"};
  return kTables;
}

bool IsAllowlistedTable(std::string_view name) {
  const auto& t = AllowlistedTables();
  return std::find(t.begin(), t.end(), name) != t.end();
}

bool IsRedactedColumn(std::string_view column) {
  return OneOf(column, {"password_hash", "key_hash", "token_hash", "approval_token_hash"});
}

std::string DayString(int64_t day_number) {
  int64_t y = 0;
  unsigned m = 0, d = 0;
  CivilFromDays(day_number, &y, &m, &d);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

bool ConfirmsDeletion(std::string_view org_id, std::string_view confirm_org_id) {
  return !org_id.empty() && org_id == confirm_org_id;
}

}  // namespace service::domain::admin
