// CommandLogRepository: the answers of agent-work commands by commandId
// (Spec 2 "Agent work": a resent command returns its first answer, a
// commandId reused with other input is a conflict).
//
// Rows are keyed by (organization, commandId). Writes REQUIRE the caller's
// Transactions::Write; the use cases write the row in the transaction of
// the change it answers, so a command is logged exactly when it took
// effect.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status; Insert of a logged (organization, commandId): kConflict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct CommandRecord {
  std::string org_id;
  std::string command_id;
  std::string kind;         // claim, renew, release, complete
  std::string fingerprint;  // domain::agent_work::Fingerprint of the input
  std::string token_id;
  int status = 0;           // the HTTP status of the first answer
  std::string answer_json;  // the first answer's claim object
  int64_t created_at = 0;
};

class CommandLogRepository {
 public:
  CommandLogRepository() = default;
  CommandLogRepository(const CommandLogRepository&) = delete;
  CommandLogRepository& operator=(const CommandLogRepository&) = delete;
  virtual ~CommandLogRepository() = default;

  virtual Result<std::optional<CommandRecord>> Find(Tx& c, const std::string& org_id,
                                                    const std::string& command_id) = 0;
  virtual Status Insert(Tx& tx, const CommandRecord& record) = 0;
  // Deletes up to `limit` records created before `before_ms` (any
  // organization; the oldest first); returns how many.
  virtual Result<int64_t> Prune(Tx& tx, int64_t before_ms, int64_t limit) = 0;
};

}  // namespace service::ports
