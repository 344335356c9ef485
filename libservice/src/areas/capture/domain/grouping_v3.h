// Shadow grouping, version 3 (Spec 1 "Group": groupingV3) and duplicate
// proposals. Evidence only: neither ever changes which bug a report joins.
// Computed at ingest for projects whose grouping_v3_shadow_enabled is set
// (default false, not settable through the API). Pure; safe from any thread.
//
// Evidence is read from the report's first error event (IsErrorEventType):
//   operation    the first non-blank string of data.operation,
//                data.transaction, data.route (the same members of
//                data.error and data.exception next): the operation that
//                failed ("POST /api/orders/:id", "CheckoutMutation").
//   symbol site  the crashing frame has a function and a file or module.
//                Frames: data.frames, data.stacktrace.frames or
//                data.exception.stacktrace.frames (oldest first, Sentry's
//                order); the crashing frame is the last with in_app true,
//                else the last. A JavaScript data.stack whose first "at"
//                line names a function and a file:line counts too.
//   image offset the crashing frame has instruction_addr and an image
//                (package, image or image_addr) but no symbol.
// Decision, first match:
//   no error event (or a user report)       insufficient_legacy_evidence
//   operation with a concrete id in it      v3_isolated_ambiguous_operation
//     (a path segment of 2+ digits, a UUID, 16+ hex digits) or bare
//     ("/", "*", a lone HTTP method)
//   operation and symbol site               v3_exact_operation_and_native_site
//   operation                               v3_exact_operation
//   symbol site                             v3_native_symbol_site
//   image offset                            v3_native_image_offset
//   frames or a stack, none usable          v3_isolated_insufficient_evidence
//   nothing to identify the failure         v3_isolated_missing_identity
// The v3_exact_* and v3_native_* reasons are routable with confidence
// "high"; the others are not (confidence "none"), and the v3_isolated_*
// ones are isolated. The identity (error type plus the evidence used) is
// hashed for proposals and never exposed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "areas/capture/domain/event.h"

namespace service::domain::capture {

struct GroupingV3Evidence {
  std::string reason;
  bool routable = false;
  bool isolated = false;
  std::string confidence = "none";  // "high" or "none"
  std::string identity_hash;        // 64 hex (SHA-256 of the identity); empty unless routable
};

GroupingV3Evidence EvaluateGroupingV3(std::span<const Event> events, bool is_manual,
                                      std::string_view error_type);

// The stored and served object: {version: 3, occurrenceId, observedAt,
// routable, isolated, reason, confidence} (observedAt ISO 8601).
std::string GroupingV3Json(const GroupingV3Evidence& e, const std::string& occurrence_id,
                           int64_t observed_at_ms);

// Duplicate proposals for a newly created bug against open bugs of its
// project in other groups (algorithm "dup-v1"):
//   same_v3_identity  both routable with the same identity hash: score 95,
//                     confidence "high"
//   similar_text      embedding cosine (domain/triage/embedding.h) of at
//                     least kDuplicateMinCosine: score round(100 x cosine),
//                     confidence "high" from 0.97, else "low"
// A peer matching both is proposed once, as same_v3_identity. At most
// kMaxDuplicateProposals, best score first (ties: peer id ascending).
inline constexpr double kDuplicateMinCosine = 0.9;
inline constexpr size_t kMaxDuplicateProposals = 20;
inline constexpr const char* kDuplicateAlgorithm = "dup-v1";

struct DuplicatePeer {
  std::string bug_id;
  std::string group_key;
  std::string identity_hash;      // empty: none
  std::vector<int8_t> embedding;  // empty: none
};
struct DuplicateProposal {
  std::string other_bug_id;
  int64_t score = 0;
  std::string reason;
  std::string confidence;
};
std::vector<DuplicateProposal> ProposeDuplicates(const DuplicatePeer& subject,
                                                 std::span<const DuplicatePeer> peers);

}  // namespace service::domain::capture
