// AgentTokenRepository: the agent tokens of an organization (Spec 2 "Agent
// token") with their project grants, and the lookup the authenticator makes
// on every agent call.
//
// Every read and write but FindForAuth and TouchLastUsed names the
// organization: another organization's token reads as absent. Tokens hang
// off their organization and their creator's account, grants off their
// token and project, through cascading foreign keys.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status; an absent row is a value (nullopt, false), never an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "areas/agent_tokens/domain/agent_token.h"
#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct AgentToken {
  std::string id;
  std::string org_id;
  std::string created_by;  // the user the token acts for
  std::string name;
  std::string prefix;      // "sv_pat_" + 8 characters
  std::string token_hash;  // SHA-256 hex of the whole token
  std::vector<std::string> scopes;
  int64_t expires_at = 0;
  std::string access_revision;
  int64_t created_at = 0;
  std::optional<int64_t> revoked_at;
  std::optional<int64_t> last_used_at;
  // Ordered by project id.
  std::vector<domain::agent_tokens::Grant> grants;
};

// A token with what the authenticator checks of its creator.
struct AgentTokenAuth {
  AgentToken token;
  std::string creator_email;
  std::string creator_status;               // "active", "pending", "deactivated"
  std::optional<std::string> creator_role;  // nullopt: no longer a member of token.org_id
};

class AgentTokenRepository {
 public:
  AgentTokenRepository() = default;
  AgentTokenRepository(const AgentTokenRepository&) = delete;
  AgentTokenRepository& operator=(const AgentTokenRepository&) = delete;
  virtual ~AgentTokenRepository() = default;

  // Inserts the token and its grants. An id or hash taken: kConflict.
  // REQUIRES: the organization, the creator and every granted project exist.
  virtual Status Insert(Tx& tx, const AgentToken& token) = 0;
  // The organization's tokens (revoked ones included) with their grants,
  // newest first (created_at, then id).
  virtual Result<std::vector<AgentToken>> List(Tx& c, const std::string& org_id) = 0;
  virtual Result<std::optional<AgentToken>> Find(Tx& c, const std::string& org_id, const std::string& id) = 0;
  // Writes name, scopes, expires_at, access_revision and replaces the grants
  // of the token `token.id` of `token.org_id` when its stored revision is
  // still `expected_revision` and it is not revoked. False otherwise
  // (nothing written).
  virtual Result<bool> Update(Tx& tx, const AgentToken& token, const std::string& expected_revision) = 0;
  // Sets revoked_at and a new revision when the token is not revoked yet.
  // False for an unknown or revoked token.
  virtual Result<bool> Revoke(Tx& tx, const std::string& org_id, const std::string& id, int64_t at,
                              const std::string& new_revision) = 0;
  // The token whose hash is `token_hash` with its creator's status, email
  // and current role in the token's organization.
  virtual Result<std::optional<AgentTokenAuth>> FindForAuth(Tx& c, const std::string& token_hash) = 0;
  // Raises last_used_at of each (token id, time) to that time (never lowers
  // it); unknown ids are skipped.
  virtual Status TouchLastUsed(Tx& tx, const std::vector<std::pair<std::string, int64_t>>& uses) = 0;
  // Tokens of `org_id` neither revoked nor expired at `now` (plan limit).
  virtual Result<int64_t> CountLive(Tx& c, const std::string& org_id, int64_t now) = 0;
  // Deletes the tokens `user_id` created in `org_id` (the member left).
  virtual Status DeleteForMember(Tx& tx, const std::string& org_id, const std::string& user_id) = 0;
};

}  // namespace service::ports
