#include "areas/triage/domain/digest.h"

#include <algorithm>

namespace service::domain::triage {

int64_t DigestBackoffMs(int64_t attempts) {
  const int64_t shift = std::clamp<int64_t>(attempts - 1, 0, 10);
  return std::min<int64_t>(60'000LL << shift, 3'600'000);
}

DigestAllowed AllowedDigestActions(std::string_view state, int64_t attempts, int64_t manual_retries,
                                   bool received) {
  DigestAllowed out;
  if (state == "sending") {
    out.reason = "sending";
    return out;
  }
  if (state == "queued" || state == "retryable") {
    // Waiting for a send: nothing to confirm or resend yet, unless an
    // earlier attempt may have arrived.
    out.received = !received && attempts > 0;
    out.reason = received ? "received" : "queued";
    return out;
  }
  if (received) {
    out.reason = "received";
    return out;
  }
  out.received = attempts > 0;
  if (manual_retries >= kDigestMaxManualRetries) {
    out.reason = "manual_retry_limit";
  } else if (attempts >= kDigestMaxAttempts) {
    out.reason = "attempt_limit";
  } else {
    out.retry = true;
  }
  if (!out.received && !out.reason) out.reason = "not_sent";
  return out;
}

}  // namespace service::domain::triage
