// The recommendations area's SQL repository: one factory per port of
// areas/recommendations/ports/. Only the composition (its module) and store
// tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/recommendations/ports/recommendation_repository.h"

namespace service::store {

std::unique_ptr<ports::RecommendationRepository> NewSqlRecommendationRepository();

}  // namespace service::store
