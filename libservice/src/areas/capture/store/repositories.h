// The capture area's SQL repositories: one factory per port of areas/capture/ports/.
// Only the composition (its module, service.cpp) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/duplicate_candidate_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "areas/capture/ports/presence_repository.h"
#include "areas/capture/ports/scrubbing_repository.h"

namespace service::store {

std::unique_ptr<ports::CaptureBugRepository> NewSqlCaptureBugRepository();
std::unique_ptr<ports::DuplicateCandidateRepository> NewSqlDuplicateCandidateRepository();
std::unique_ptr<ports::EndUserRepository> NewSqlEndUserRepository();
std::unique_ptr<ports::OccurrenceRepository> NewSqlOccurrenceRepository();
std::unique_ptr<ports::PresenceRepository> NewSqlPresenceRepository();
std::unique_ptr<ports::ScrubbingRepository> NewSqlScrubbingRepository();

}  // namespace service::store
