// The superadmin's rules (Spec 2 "Superadmin"): the customer filter values,
// the page limits, the allowlisted tables of db/tables and the columns they
// never show, and the UTC days of the growth and AI usage series. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::admin {

// Lists: limit 50 by default, at most 200 (a larger limit reads as 200, as
// Spec 1's lists do); offset 0 by default.
inline constexpr int64_t kDefaultLimit = 50;
inline constexpr int64_t kMaxLimit = 200;

// Customer filters and fields.
bool IsLifecycleStage(std::string_view v);  // trial, active, paused, churned, internal
bool IsCustomerPlan(std::string_view v);    // free, pro, team, enterprise
bool IsBillingStatus(std::string_view v);   // unassigned, manual, paid, past_due
bool IsWaitlistStatus(std::string_view v);  // pending, approved, rejected, completed
bool IsMemberRole(std::string_view v);      // admin, manager, member, tester, viewer
inline constexpr const char* kDefaultStage = "trial";
inline constexpr const char* kDefaultBillingStatus = "unassigned";
inline constexpr size_t kMaxAdminNotes = 10'000;

// db/tables: the spec's allowlisted table names, in the spec's order.
const std::vector<std::string_view>& AllowlistedTables();
bool IsAllowlistedTable(std::string_view name);
// Columns whose values are never shown (replaced by kRedacted).
bool IsRedactedColumn(std::string_view column);
inline constexpr const char* kRedacted = "[redacted]";

// The UTC day of a time (milliseconds) as a day number and as YYYY-MM-DD.
inline constexpr int64_t kDayMs = int64_t{86'400'000};
inline int64_t DayNumber(int64_t unix_ms) {
  return unix_ms >= 0 ? unix_ms / kDayMs : -((-unix_ms + kDayMs - 1) / kDayMs);
}
std::string DayString(int64_t day_number);
// The first day number of a series of `days` days that ends today.
inline int64_t SeriesStart(int64_t now_ms, int64_t days) { return DayNumber(now_ms) - (days - 1); }

// Growth series: 30 days. AI usage: 30 by default, 1-90.
inline constexpr int64_t kGrowthDays = 30;
inline constexpr int64_t kAiUsageDefaultDays = 30;
inline constexpr int64_t kAiUsageMaxDays = 90;

// Activity: newest first, at most this many of each kind, then cut to it.
inline constexpr int64_t kActivityLimit = 50;

// delete-org: the confirmation must repeat the organization id.
bool ConfirmsDeletion(std::string_view org_id, std::string_view confirm_org_id);

}  // namespace service::domain::admin
