#include "areas/operations/module.h"

#include <algorithm>

#include "areas/operations/api/routes.h"
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

Status ApplyBillingApiUrl(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (!trimmed.empty()) {
    const std::string problem = CheckHttpUrl(trimmed, /*allow_path=*/true);
    if (!problem.empty()) {
      return InvalidArgument("SERVICE_BILLING_API_URL " + problem + ", got " + QuoteSettingValue(trimmed));
    }
  }
  options.billing_api_url = trimmed.empty() ? "https://api.stripe.com" : trimmed;
  return Status::Ok();
}

// Secrets are never echoed in messages.
Status ApplyBillingSecretKey(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (HasSpaceOrControl(trimmed))
    return InvalidArgument("SERVICE_BILLING_SECRET_KEY must not contain spaces");
  options.billing_secret_key = trimmed;
  return Status::Ok();
}

Status ApplyBillingWebhookSecret(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (HasSpaceOrControl(trimmed)) {
    return InvalidArgument("SERVICE_BILLING_WEBHOOK_SECRET must not contain spaces");
  }
  options.billing_webhook_secret = trimmed;
  return Status::Ok();
}

}  // namespace

void OperationsModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back({"SERVICE_SUPERADMIN_EMAILS", "", "", "comma-separated email allowlist for /v1/admin/*",
                  "empty", ApplySuperadminEmails});
  rows.push_back(
      {"SERVICE_PLAN_LIMITS", "", "",
       "plan limit overrides PLAN:LIMIT=N[,LIMIT=N] with plans separated by ';' (plans free, pro, team, "
       "enterprise; limits projects, members, bugs_per_month, integrations, agent_tokens, retention_days)",
       "built-in plan limits", ApplyPlanLimits});
  rows.push_back({"SERVICE_BILLING_API_URL", "", "",
                  "base of a Stripe-compatible payments API (checkout, setup and portal sessions); may be "
                  "loopback or private",
                  "https://api.stripe.com", ApplyBillingApiUrl});
  rows.push_back({"SERVICE_BILLING_SECRET_KEY", "", "", "the payments API's secret key (never logged)",
                  "unset: billing not configured (501 on checkout, card setup, portal)",
                  ApplyBillingSecretKey});
  rows.push_back({"SERVICE_BILLING_WEBHOOK_SECRET", "", "",
                  "verifies inbound payment events (Stripe-Signature) at /v1/billing/webhook (never logged)",
                  "unset: inbound events refused (501)", ApplyBillingWebhookSecret});
}

void OperationsModule::Provide(Platform& p) { p.Share(store::NewSqlUsageRepository()); }

Status OperationsModule::Open(Platform& p) {
  ports::UsageRepository* usage = p.Shared<ports::UsageRepository>();
  p.deletion.OnOrganizationDeleted(
      [usage](ports::Tx& tx, const std::string& org_id) { return usage->DeleteOrganization(tx, org_id); });

  billing_ = store::NewSqlBillingRepository();
  if (!p.options.billing_secret_key.empty()) {
    ports::OutboundHttpOptions http_options;
    http_options.allow_private_destinations = true;
    billing_http_ = ports::NewCurlOutboundHttp(http_options);
    payments_ = ports::NewStripeCompatiblePayments(
        ports::PaymentsSettings{p.options.billing_api_url, p.options.billing_secret_key}, *billing_http_);
  }
  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.log = p.log.get();
  deps_.usage = usage;
  deps_.billing = billing_.get();
  deps_.payments = payments_.get();
  deps_.webhook_secret = p.options.billing_webhook_secret;
  deps_.public_url = p.options.EffectivePublicUrl();
  ports::BillingRepository* billing = billing_.get();
  p.deletion.OnOrganizationDeleted([billing](ports::Tx& tx, const std::string& org_id) {
    return billing->DeleteOrganization(tx, org_id);
  });
  return Status::Ok();
}

void OperationsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterBillingRoutes(pipeline, deps_);
}

}  // namespace service::modules
