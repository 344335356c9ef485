// The operations area's SQL repositories: one factory per port of areas/operations/ports/.
// Only the composition (its module, service.cpp) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/operations/ports/billing_repository.h"
#include "areas/operations/ports/usage_repository.h"

namespace service::store {

std::unique_ptr<ports::UsageRepository> NewSqlUsageRepository();
std::unique_ptr<ports::BillingRepository> NewSqlBillingRepository();

}  // namespace service::store
