// Alert email batch rules that need no I/O (issue 32; Spec 2 "Alert digest
// batch", the digest states, the digest limits).
//
// States: queued -> sending (claimed by one process) -> succeeded (the
// provider accepted it, nothing more), retryable (SMTP 4xx or a connection
// failure before the message was handed over; sent again after a backoff),
// permanent_failure (SMTP 5xx, or the eighth attempt failed),
// outcome_unknown (handed over, no answer; or the sending process stopped:
// never sent again automatically); cancelled (when preparing a send, the
// recipient had left the organization or turned email off). A recipient's
// retry puts a batch back to queued with generation + 1.
//
// Pure; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace service::domain::triage {

inline constexpr int64_t kDigestMaxAttempts = 8;       // send or preparation attempts, cumulative
inline constexpr int64_t kDigestMaxManualRetries = 3;  // recipient retries (generations 1..3)
inline constexpr int64_t kDigestHistoryPage = 50;
inline constexpr int64_t kDigestLeaseMs = 5 * 60'000;  // a send holds its batch this long at most

// The wait before the next automatic attempt after `attempts` failed ones:
// 1 min * 2^(attempts-1), at most 1 h.
int64_t DigestBackoffMs(int64_t attempts);

// What the recipient may do with a batch now (allowedActions). `reason`
// names why an action is refused, the first that applies: "sending",
// "queued" (waiting for a send), "received" (already confirmed),
// "manual_retry_limit", "attempt_limit"; nullopt when both are allowed.
struct DigestAllowed {
  bool received = false;
  bool retry = false;
  std::optional<std::string> reason;
};
DigestAllowed AllowedDigestActions(std::string_view state, int64_t attempts, int64_t manual_retries,
                                   bool received);

}  // namespace service::domain::triage
