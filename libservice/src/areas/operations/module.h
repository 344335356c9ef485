// The operations area: plans (areas/operations/domain/plans.h), the
// monthly usage counters every area that meters something counts against,
// and billing (credit ledger, budget, payment provider; app/billing.h).
#pragma once

#include <memory>

#include "areas/operations/app/billing.h"
#include "areas/operations/ports/billing_repository.h"
#include "areas/operations/ports/payments.h"
#include "modules/module.h"
#include "ports/outbound_http.h"

namespace service::modules {

class OperationsModule final : public Module {
 public:
  std::string_view name() const override { return "operations"; }
  // usage.
  void Provide(Platform& platform) override;
  // SERVICE_SUPERADMIN_EMAILS, SERVICE_PLAN_LIMITS, SERVICE_BILLING_API_URL,
  // SERVICE_BILLING_SECRET_KEY, SERVICE_BILLING_WEBHOOK_SECRET.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // The billing use cases' dependencies (ChargeMeteredRead for the agents
  // area). Valid after Open.
  const app::operations::OperationsDeps& deps() const { return deps_; }

 private:
  std::unique_ptr<ports::BillingRepository> billing_;
  // The payments API's own client: SERVICE_BILLING_API_URL is the
  // operator's, so it may be loopback or private whatever
  // SERVICE_ALLOW_PRIVATE_DESTINATIONS says.
  std::unique_ptr<ports::OutboundHttp> billing_http_;
  std::unique_ptr<ports::Payments> payments_;  // null: no secret key
  app::operations::OperationsDeps deps_;
};

}  // namespace service::modules
