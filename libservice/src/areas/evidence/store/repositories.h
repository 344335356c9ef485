// The evidence area's SQL repositories: one factory per port of
// areas/evidence/ports/. Only the composition (its module) and store tests
// create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/evidence/ports/artifact_repository.h"

namespace service::store {

std::unique_ptr<ports::ArtifactRepository> NewSqlArtifactRepository();

}  // namespace service::store
