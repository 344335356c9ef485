#include "areas/operations/domain/plans.h"

#include <boost/json.hpp>

#include "util/time.h"

namespace service::domain::operations {

PlanLimits LimitsFor(std::string_view plan, const PlanLimitOverrides& overrides) {
  PlanLimits l;
  if (plan == "pro") {
    l = {20, 25, 100'000, 20, 20, 90};
  } else if (plan == "team") {
    l = {100, 100, 1'000'000, 100, 100, 365};
  } else if (plan == "enterprise") {
    l = {kUnlimited, kUnlimited, kUnlimited, kUnlimited, kUnlimited, kUnlimited};
  } else {
    plan = "free";
    l = {3, 5, 5'000, 2, 0, 30};
  }
  auto it = overrides.find(std::string(plan));
  if (it != overrides.end()) {
    for (const auto& [name, value] : it->second) {
      if (name == "projects")
        l.projects = value;
      else if (name == "members")
        l.members = value;
      else if (name == "bugs_per_month")
        l.bugs_per_month = value;
      else if (name == "integrations")
        l.integrations = value;
      else if (name == "agent_tokens")
        l.agent_tokens = value;
      else if (name == "retention_days")
        l.retention_days = value;
    }
  }
  return l;
}

std::string PlanLimitPayload(int64_t limit, int64_t current, std::string_view plan,
                             std::string_view public_url) {
  boost::json::object o{{"limit", limit},
                        {"current", current},
                        {"plan", plan},
                        {"upgradeUrl", std::string(public_url) + "/settings/billing"}};
  return boost::json::serialize(o);
}

std::string UsageMonth(int64_t unix_ms) { return util::FormatIso8601(unix_ms).substr(0, 7); }

bool PlanHasAgentAccess(std::string_view plan) {
  return plan == "pro" || plan == "team" || plan == "enterprise";
}

}  // namespace service::domain::operations
