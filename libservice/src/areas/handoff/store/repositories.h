// The handoff area's SQL repositories: one factory per port of
// areas/handoff/ports/. Only the composition (its module) and store tests
// create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/handoff/ports/agent_listeners.h"
#include "areas/handoff/ports/handoff_repository.h"

namespace service::store {

std::unique_ptr<ports::HandoffRepository> NewSqlHandoffRepository();
// Reads the agent tokens area's tables (agent_tokens, agent_token_grants)
// with users and memberships.
std::unique_ptr<ports::AgentListeners> NewSqlAgentListeners();

}  // namespace service::store
