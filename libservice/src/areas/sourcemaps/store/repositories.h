// The sourcemaps area's SQL repositories: one factory per port of
// areas/sourcemaps/ports/. Only the composition (its module) and tests create
// them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/sourcemaps/ports/sourcemap_repository.h"

namespace service::store {

std::unique_ptr<ports::SourcemapRepository> NewSqlSourcemapRepository();

}  // namespace service::store
