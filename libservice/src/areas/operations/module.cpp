#include "areas/operations/module.h"

#include <algorithm>

#include "areas/operations/store/repositories.h"
#include "util/strings.h"

namespace service::modules {
namespace {

Status ApplySuperadminEmails(Options& options, std::string_view value) {
  const std::string var = "SERVICE_SUPERADMIN_EMAILS";
  const std::string trimmed = util::Trim(value);
  std::vector<std::string> emails;
  for (const std::string& raw : util::Split(trimmed, ',')) {
    const std::string email = util::ToLower(util::Trim(raw));
    if (email.empty()) continue;
    if (!util::IsValidEmail(email)) {
      return InvalidArgument(var + " must be a comma-separated list of email addresses; " +
                             QuoteSettingValue(email) + " is not one");
    }
    if (std::find(emails.begin(), emails.end(), email) == emails.end()) emails.push_back(email);
  }
  options.superadmin_emails = std::move(emails);
  return Status::Ok();
}

Status ApplyPlanLimits(Options& options, std::string_view value) {
  const std::string var = "SERVICE_PLAN_LIMITS";
  const std::string trimmed = util::Trim(value);
  if (trimmed.empty()) {
    options.plan_limits.clear();
    return Status::Ok();
  }
  auto limits = ParsePlanLimits(trimmed);
  if (!limits.ok()) return InvalidArgument(var + ": " + limits.status().message());
  options.plan_limits = std::move(*limits);
  return Status::Ok();
}

}  // namespace

void OperationsModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back({"SERVICE_SUPERADMIN_EMAILS", "", "", "comma-separated email allowlist for /v1/admin/*",
                  "empty", ApplySuperadminEmails});
  rows.push_back(
      {"SERVICE_PLAN_LIMITS", "", "",
       "plan limit overrides PLAN:LIMIT=N[,LIMIT=N] with plans separated by ';' (plans free, pro, team, "
       "enterprise; limits projects, members, bugs_per_month, integrations, agent_tokens)",
       "built-in plan limits", ApplyPlanLimits});
}

void OperationsModule::Provide(Platform& p) { p.Share(store::NewSqlUsageRepository()); }

Status OperationsModule::Open(Platform& p) {
  ports::UsageRepository* usage = p.Shared<ports::UsageRepository>();
  p.deletion.OnOrganizationDeleted(
      [usage](ports::Tx& tx, const std::string& org_id) { return usage->DeleteOrganization(tx, org_id); });
  return Status::Ok();
}

}  // namespace service::modules
