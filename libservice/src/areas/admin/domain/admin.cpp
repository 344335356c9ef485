#include "areas/admin/domain/admin.h"

#include <algorithm>

#include "util/time.h"

namespace service::domain::admin {
namespace {

bool OneOf(std::string_view v, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), v) != set.end();
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
  return util::FormatIso8601(day_number * 86'400'000).substr(0, 10);  // YYYY-MM-DD
}

bool ConfirmsDeletion(std::string_view org_id, std::string_view confirm_org_id) {
  return !org_id.empty() && org_id == confirm_org_id;
}

}  // namespace service::domain::admin
