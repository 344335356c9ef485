// Plans and their numeric limits. Defaults are documented in the README and
// overridable with SERVICE_PLAN_LIMITS (Options::plan_limits, the same map).
//
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace service::domain::operations {

// plan name -> limit name -> value, e.g. {"free": {"projects": 3}}: the
// type of service::PlanLimitOverrides (Options::plan_limits).
using PlanLimitOverrides = std::map<std::string, std::map<std::string, int64_t>>;

// A limit of kUnlimited is never reached.
constexpr int64_t kUnlimited = -1;

struct PlanLimits {
  int64_t projects = kUnlimited;
  int64_t members = kUnlimited;
  int64_t bugs_per_month = kUnlimited;
  int64_t integrations = kUnlimited;
  int64_t agent_tokens = kUnlimited;
  // Days an occurrence (and its events) is kept from its receipt (README
  // "Retention"); kUnlimited: kept.
  int64_t retention_days = kUnlimited;
};

// Known plans: free, pro, team, enterprise. Unknown names get free's limits.
PlanLimits LimitsFor(std::string_view plan, const PlanLimitOverrides& overrides);

// True when adding one more to `current` stays within `limit`.
inline bool WithinLimit(int64_t limit, int64_t current) { return limit == kUnlimited || current < limit; }

// The plan-limit error body fields: {error, limit, current, plan, upgradeUrl}.
std::string PlanLimitPayload(int64_t limit, int64_t current, std::string_view plan,
                             std::string_view public_url);

// The month a usage counter counts in: "YYYY-MM" (UTC) of a Unix-ms time.
std::string UsageMonth(int64_t unix_ms);

// Whether the plan includes agent (MCP) access.
bool PlanHasAgentAccess(std::string_view plan);

}  // namespace service::domain::operations
