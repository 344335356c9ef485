// The agent-work area's SQL repositories: one factory per port of
// areas/agent_work/ports/. Only the composition (its module) and store tests
// create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/agent_work/ports/claim_repository.h"
#include "areas/agent_work/ports/command_log_repository.h"

namespace service::store {

std::unique_ptr<ports::ClaimRepository> NewSqlClaimRepository();
std::unique_ptr<ports::CommandLogRepository> NewSqlCommandLogRepository();

}  // namespace service::store
