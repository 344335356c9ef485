// The agent_tokens area's SQL repositories: one factory per port of
// areas/agent_tokens/ports/. Only the composition (its module) and store
// tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/agent_tokens/ports/agent_token_repository.h"

namespace service::store {

std::unique_ptr<ports::AgentTokenRepository> NewSqlAgentTokenRepository();

}  // namespace service::store
