// The projects area's SQL repositories: one factory per port of areas/projects/ports/.
// Only the composition (its module, service.cpp) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/projects/ports/project_repository.h"

namespace service::store {

std::unique_ptr<ports::ProjectRepository> NewSqlProjectRepository();
std::unique_ptr<ports::CaptureKeyRepository> NewSqlCaptureKeyRepository();

}  // namespace service::store
