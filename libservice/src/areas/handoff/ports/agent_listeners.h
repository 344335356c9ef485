// AgentListeners: what the handoff area needs to know of the agent tokens
// (areas/agent_tokens' tables, read-only): whether an MCP listener could
// collect a project's handoffs, and a token's display name.
//
// Failures: kInternal/kUnavailable from the database.
// Thread-safety: implementations are stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

class AgentListeners {
 public:
  AgentListeners() = default;
  AgentListeners(const AgentListeners&) = delete;
  AgentListeners& operator=(const AgentListeners&) = delete;
  virtual ~AgentListeners() = default;

  // True when `org_id` holds an agent token that may listen for
  // `project_id`'s handoffs at `now_ms`: neither revoked nor expired, with
  // the `subscribe` scope and an unexpired grant for the project, its
  // creator still an active member of the organization.
  virtual Result<bool> HasListener(Tx& tx, const std::string& org_id, const std::string& project_id,
                                   int64_t now_ms) = 0;
  // The name of token `token_id` of `org_id`; nullopt when it has none or
  // is not the organization's.
  virtual Result<std::optional<std::string>> TokenName(Tx& tx, const std::string& org_id,
                                                       const std::string& token_id) = 0;
};

}  // namespace service::ports
