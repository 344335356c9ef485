// Fenced work claims (Spec 2 "Claim (lease)", "Agent work"; server contract
// "Agent work"): the pure rules. A claim is a lease on one canonical issue
// held by one agent token: it is live while its status is `active` and its
// expiry lies after the time of the command (expiry is evaluated at each
// command; nothing sweeps). Each new claim of an issue takes the next
// generation and fencing token of that issue (positive decimal strings,
// increasing per issue). Lease commands name the lease by claimId,
// generation and fencingToken; any mismatch, or a lease that is no longer
// live, is LEASE_STALE.
//
// Also here: the strict parsing of the command bodies (the HTTP routes' and
// the MCP tools' input, with the HTTP field names) and the canonical text a
// command log compares to tell a replay from a conflict.
//
// Pure functions of their arguments; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::domain::agent_work {

// Spec 2 "Limits": claim TTL 60-900 seconds, default 300.
inline constexpr int64_t kMinTtlSeconds = 60;
inline constexpr int64_t kMaxTtlSeconds = 900;
inline constexpr int64_t kDefaultTtlSeconds = 300;
// Longest receiptId accepted (any non-empty id until verification lands).
inline constexpr size_t kMaxReceiptIdLength = 200;
// Largest generation or fencing token a command may name: 18 digits.
inline constexpr size_t kMaxCounterDigits = 18;

// Scopes (Spec 2 "Authentication" 2).
inline constexpr std::string_view kClaimScope = "claim_issue";
inline constexpr std::string_view kEvidenceScope = "request_evidence";

// Error codes of the server contract's "Agent work".
inline constexpr std::string_view kValidationError = "VALIDATION_ERROR";
inline constexpr std::string_view kScopeRequired = "SCOPE_REQUIRED";
inline constexpr std::string_view kProjectGrantRequired = "PROJECT_GRANT_REQUIRED";
inline constexpr std::string_view kClaimHeld = "CLAIM_HELD";
inline constexpr std::string_view kLeaseStale = "LEASE_STALE";
inline constexpr std::string_view kCommandConflict = "COMMAND_CONFLICT";
// Ours: 404s (the issue is not in the project; the issue never had a claim).
inline constexpr std::string_view kIssueNotFound = "ISSUE_NOT_FOUND";
inline constexpr std::string_view kClaimNotFound = "CLAIM_NOT_FOUND";

// Stored statuses; `expired` is also what an active lease past its expiry
// reads as.
inline constexpr std::string_view kActive = "active";
inline constexpr std::string_view kReleased = "released";
inline constexpr std::string_view kCompleted = "completed";
inline constexpr std::string_view kExpired = "expired";

// The four commands (their names also go into the command log).
enum class CommandKind { kClaim, kRenew, kRelease, kComplete };
std::string_view CommandName(CommandKind kind);

// POST /claims: {commandId, projectId, issueId, ttlSeconds?}. Ids are
// lower-cased UUIDs.
struct ClaimInput {
  std::string command_id;
  std::string project_id;
  std::string issue_id;
  std::optional<int64_t> ttl_seconds;  // absent: kDefaultTtlSeconds
};

// POST /claims/renew, /release, /complete: the command's ids plus the lease
// fields; ttlSeconds only on renew (absent: the claim's own TTL), receiptId
// only on complete.
struct LeaseInput {
  std::string command_id;
  std::string project_id;
  std::string issue_id;
  std::string claim_id;
  int64_t generation = 0;
  int64_t fencing_token = 0;
  std::optional<int64_t> ttl_seconds;
  std::string receipt_id;
};

// Strict parsing: `body` must be a JSON object with exactly the command's
// fields (unknown fields, wrong types, bad UUIDs, a TTL outside 60-900, a
// generation or fencing token that is not a positive decimal string, an
// empty receiptId: every problem is listed). Failure: kInvalidArgument
// "Validation failed" with code VALIDATION_ERROR and `details[{field,
// message}]`.
Result<ClaimInput> ParseClaimInput(const boost::json::value& body);
Result<LeaseInput> ParseLeaseInput(CommandKind kind, const boost::json::value& body);
// A positive decimal string without leading zeros, at most 18 digits.
std::optional<int64_t> ParseCounter(std::string_view text);

// The canonical text of a command as sent (its kind, the token that sent
// it and every input field); equal texts under one commandId are a replay.
std::string Fingerprint(const std::string& token_id, const ClaimInput& in);
std::string Fingerprint(CommandKind kind, const std::string& token_id, const LeaseInput& in);

// A claim as the API shows it.
struct ClaimView {
  std::string claim_id;
  int64_t generation = 0;
  int64_t fencing_token = 0;
  std::string project_id;
  std::string issue_id;
  std::string status;
  int64_t expires_at = 0;  // Unix ms
};

// {claimId, generation, fencingToken (decimal strings), projectId, issueId,
// status, expiresAt (ISO 8601)}, and back (for answers kept in the command
// log). ClaimFromJson: nullopt when `v` is not such an object.
boost::json::object ClaimJson(const ClaimView& c);
std::optional<ClaimView> ClaimFromJson(const boost::json::value& v);

// The status a stored claim reads as at `now_ms`: an active one whose
// expiry is not after now is `expired`.
std::string_view EffectiveStatus(std::string_view stored, int64_t expires_at, int64_t now_ms);
// True while the claim holds its issue at `now_ms`.
inline bool IsLive(std::string_view stored, int64_t expires_at, int64_t now_ms) {
  return stored == kActive && expires_at > now_ms;
}

// What a lease command checks against the stored claim it names. OK when
// the stored claim is the named lease (same issue and project, generation
// and fencing token) and still live at `now_ms`; else 409 LEASE_STALE.
struct StoredLease {
  std::string issue_id;
  std::string project_id;
  int64_t generation = 0;
  int64_t fencing_token = 0;
  std::string status;
  int64_t expires_at = 0;
};
Status CheckLease(const std::optional<StoredLease>& stored, const std::string& issue_id,
                  const std::string& project_id, int64_t generation, int64_t fencing_token, int64_t now_ms);

// The statuses the errors carry (the contract's codes).
Status ValidationError(boost::json::array details);
Status ClaimHeld();
Status LeaseStale();
Status CommandConflict();
Status IssueNotFound();
Status ClaimNotFound();
Status ScopeRequired(std::string_view scope);
Status ProjectGrantRequired();

}  // namespace service::domain::agent_work
