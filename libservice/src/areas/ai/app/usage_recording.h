// Every call to the AI provider recorded (ai_usage): a provider that wraps
// the configured one and writes one row per Complete, answered or not, with
// the request's feature and organization, the provider's kind, the model
// that answered and the token counts it reported. Recording is best effort:
// a failed write never fails the call (the caller's answer does not depend
// on it); it is logged.
//
// Thread-safety: Complete may be called from several threads at once.
#pragma once

#include <memory>

#include "areas/ai/ports/ai_provider.h"
#include "areas/ai/ports/ai_usage_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"

namespace service::app::ai {

struct UsageRecordingDeps {
  ports::Transactions* db = nullptr;
  ports::AiUsageRepository* usage = nullptr;
  ports::Ids* ids = nullptr;
  Clock* clock = nullptr;
  Logger* log = nullptr;  // may be null
};

// REQUIRES: `inner` and the deps' pointers outlive the result.
std::unique_ptr<ports::AiProvider> NewUsageRecordingProvider(ports::AiProvider& inner,
                                                             const UsageRecordingDeps& deps);

// The feature recorded for a request that names none.
inline constexpr const char* kUnattributedFeature = "unattributed";

}  // namespace service::app::ai
