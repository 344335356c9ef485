// The triage area's SQL repositories: one factory per port of areas/triage/ports/.
// Only the composition (its module, service.cpp) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/triage/ports/bug_status_repository.h"
#include "areas/triage/ports/bug_write_repository.h"
#include "areas/triage/ports/digest_repository.h"
#include "areas/triage/ports/triage_repository.h"

namespace service::store {

std::unique_ptr<ports::BugStatusRepository> NewSqlBugStatusRepository();
std::unique_ptr<ports::BugWriteRepository> NewSqlBugWriteRepository();
std::unique_ptr<ports::TriageRepository> NewSqlTriageRepository();
std::unique_ptr<ports::DigestRepository> NewSqlDigestRepository();

}  // namespace service::store
