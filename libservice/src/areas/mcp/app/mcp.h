// The MCP server's use cases (server-contract "MCP"; issue 29 item 5): each
// tool is the agent routes' own use case, gated by the same scopes and
// project grants as its HTTP route. The caller is an agent token as the
// authenticator read it on this request (AgentCaller): its creator's
// account, organization and role, its scopes and the projects its unexpired
// grants cover.
//
// Refusals are Status values with the HTTP route's error code, which the API
// turns into a tool result with isError (never a JSON-RPC error):
//   a missing scope                       403 SCOPE_REQUIRED
//   a project the token has no grant for  403 PROJECT_GRANT_REQUIRED
//   a bug of another organization, or of
//   a project the token has no grant for  404 "Bug not found"
//   a metered read without credits        402 credits_exhausted
//   evidence listing without storage      503 storage_unavailable
//
// Thread-safety: safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/actor.h"
#include "areas/agent_work/app/claims.h"
#include "areas/bugs/app/bugs.h"
#include "areas/bugs/app/insights.h"
#include "areas/bugs/app/search.h"
#include "areas/evidence/app/evidence.h"
#include "areas/handoff/app/handoff.h"
#include "areas/operations/app/billing.h"
#include "service/logger.h"
#include "service/status.h"

namespace service::app::mcp {

// The scopes the tools ask (Spec 2 "Authentication" 2, server-contract
// "Agent tokens").
inline constexpr std::string_view kReadBugs = "read_bugs";
inline constexpr std::string_view kClaimIssue = "claim_issue";
inline constexpr std::string_view kSubscribe = "subscribe";
inline constexpr std::string_view kGetReproContext = "get_repro_context";

// The error codes of the refusals.
inline constexpr std::string_view kScopeRequired = "SCOPE_REQUIRED";
inline constexpr std::string_view kProjectGrantRequired = "PROJECT_GRANT_REQUIRED";
inline constexpr std::string_view kStorageUnavailable = "storage_unavailable";

// An agent token on this request.
struct AgentCaller {
  std::string token_id;
  std::string user_id;  // the token's creator
  std::string email;
  std::string org_id;
  std::string role;  // the creator's current role in org_id
  std::vector<std::string> scopes;
  std::vector<std::string> granted_projects;

  bool HasScope(std::string_view scope) const;
  bool HasGrant(std::string_view project_id) const;
  ConsoleActor Actor() const { return ConsoleActor{user_id, email, org_id, role}; }
  // The same caller as the claims and the handoff use cases take it.
  agent_work::AgentCaller WorkCaller() const;
  handoff::HandoffCaller HandoffCaller() const;
};

struct McpDeps {
  const bugs::BugsDeps* bugs = nullptr;
  const operations::OperationsDeps* operations = nullptr;
  // Null until their areas are assembled: the tools answer
  // CAPABILITY_UNAVAILABLE.
  const agent_work::AgentWorkDeps* work = nullptr;   // claim_issue, renew/release/complete_claim
  const handoff::HandoffDeps* handoff = nullptr;     // listen_handoffs, ack_bug
  const evidence::EvidenceDeps* evidence = nullptr;  // list_evidence
  Logger* log = nullptr;  // internal causes of failed tool calls, with the request id
};

// 403 SCOPE_REQUIRED unless the caller has `scope`.
Status RequireScope(const AgentCaller& caller, std::string_view scope);
// 403 PROJECT_GRANT_REQUIRED unless the caller has a grant for `project_id`.
Status RequireGrant(const AgentCaller& caller, const std::string& project_id);
// `scope`, then the grant.
Status RequireProjectAccess(const AgentCaller& caller, std::string_view scope, const std::string& project_id);

// The project a list or search reads: `requested` (403 without a grant for
// it), or without one the caller's only granted project; a token with
// several grants must name one (400 VALIDATION_ERROR "projectId is
// required"), one with none is 403 PROJECT_GRANT_REQUIRED.
Result<std::string> ListedProject(const AgentCaller& caller, const std::optional<std::string>& requested);

// list_bugs: GET /v1/bugs over one granted project. `filter.project_id` is
// replaced by ListedProject's answer and `filter.org_id` by the caller's.
Result<ports::BugPage> ListBugs(const McpDeps& deps, const AgentCaller& caller, ports::BugFilter filter,
                                int64_t limit, int64_t offset);

// search_bugs: GET /v1/bugs/search over one granted project (as ListBugs).
Result<bugs::SearchResult> SearchBugs(const McpDeps& deps, const AgentCaller& caller, ports::BugFilter filter,
                                      const std::string& query, int64_t limit);

// get_bug: the bug with its repro context.
struct ReproLimits {
  int64_t events = 20;       // 1..bugs::kMaxEventLimit
  int64_t occurrences = 10;  // 1..bugs::kMaxPageSize
  int64_t users = 20;        // 1..bugs::kMaxPageSize
};
struct BugContext {
  bugs::BugDetail detail;
  std::vector<bugs::BugEvent> events;  // newest occurrences first
  bugs::OccurrencePage occurrences;
  bugs::EndUserPage users;
  bool charged = false;  // the events read was metered (2 prepaid credits)
};
// read_bugs, then the bug (404 when it is another organization's or its
// project is not granted), then the metered charge of the events read when
// limits.events > 1 (operations::ChargeMeteredRead: organizations on plans
// with agent access are never charged; 402 credits_exhausted and nothing
// returned when the prepaid balance cannot pay), then the reads.
// `reference` goes on the ledger row of a charge.
Result<BugContext> GetBugContext(const McpDeps& deps, const AgentCaller& caller, const std::string& bug_id,
                                 const ReproLimits& limits, const std::string& reference);

// list_evidence: GET /v1/evidence/projects/:projectId/occurrences/
// :occurrenceId/artifacts over the evidence area's use case:
// get_repro_context and the grant, then 503 storage_unavailable without
// storage, then the project and the occurrence (404), then the page.
Result<evidence::ArtifactList> ListEvidence(const McpDeps& deps, const AgentCaller& caller,
                                            const std::string& project_id, const std::string& occurrence_id,
                                            const domain::evidence::ListBounds& bounds);

}  // namespace service::app::mcp
