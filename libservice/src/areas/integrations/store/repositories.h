// The integrations area's SQL repositories: one factory per port of areas/integrations/ports/.
// Only the composition (its module, service.cpp) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/integrations/ports/integration_repository.h"

namespace service::store {

std::unique_ptr<ports::IntegrationRepository> NewSqlIntegrationRepository();

}  // namespace service::store
