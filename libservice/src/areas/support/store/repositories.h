// The support area's SQL repositories: one factory per port of areas/support/ports/.
// Only the composition (its module) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/support/ports/support_session_repository.h"

namespace service::store {

std::unique_ptr<ports::SupportSessionRepository> NewSqlSupportSessionRepository();

}  // namespace service::store
