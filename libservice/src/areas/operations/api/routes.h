// The operations area's routes: billing (Spec 2 "Billing"). Its module
// registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/operations/app/billing.h"

namespace service::api {

void RegisterBillingRoutes(Pipeline& p, const app::operations::OperationsDeps& deps);

}  // namespace service::api
