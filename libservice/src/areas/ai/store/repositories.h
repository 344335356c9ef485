// The ai area's SQL repositories: one factory per port of areas/ai/ports/
// that is stored. Only the composition (its module) and store tests create
// them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/ai/ports/ai_usage_repository.h"

namespace service::store {

std::unique_ptr<ports::AiUsageRepository> NewSqlAiUsageRepository();

}  // namespace service::store
