// The bugs area's SQL repositories: one factory per port of areas/bugs/ports/.
// Only the composition (its module, service.cpp) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <memory>

#include "areas/bugs/ports/bug_insight_repository.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/bugs/ports/bug_search_repository.h"

namespace service::store {

std::unique_ptr<ports::BugReadRepository> NewSqlBugReadRepository();
std::unique_ptr<ports::BugInsightRepository> NewSqlBugInsightRepository();
// PostgreSQL's fuzzy trigram leg (store/bug_search_repository.cpp): it
// first looks among the `fuzzy_walk` newest bugs, and asks the index for
// older ones only while the trigrams it would ask for are held by at most
// one in `fuzzy_dense_divisor` of those. Tests shrink the walk.
struct SearchTuning {
  int64_t fuzzy_walk = 1000;
  int64_t fuzzy_dense_divisor = 50;
};
std::unique_ptr<ports::BugSearchRepository> NewSqlBugSearchRepository(SearchTuning tuning = {});

}  // namespace service::store
