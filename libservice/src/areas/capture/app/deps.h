// CaptureDeps: what the capture area (ingest, presence, console reports)
// needs. Pointers are borrowed from the Service and outlive every call.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app/transactional_events.h"
#include "areas/capture/app/accepted_capture.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/duplicate_candidate_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "areas/capture/ports/presence_repository.h"
#include "areas/capture/ports/scrubbing_repository.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/event_bus.h"
#include "ports/ids.h"
#include "ports/settings_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/options.h"
#include "service/status.h"
#include "util/metrics.h"

namespace service::app::capture {

class Runtime;
class ScrubbingCache;

struct CaptureDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::EventBus* bus = nullptr;
  Logger* log = nullptr;
  ports::SettingsRepository* settings = nullptr;
  ports::ProjectRepository* projects = nullptr;
  ports::CaptureKeyRepository* capture_keys = nullptr;
  ports::CaptureBugRepository* capture_bugs = nullptr;
  ports::OccurrenceRepository* occurrences = nullptr;
  ports::EndUserRepository* end_users = nullptr;
  ports::PresenceRepository* presence = nullptr;
  ports::DuplicateCandidateRepository* duplicates = nullptr;
  ports::UsageRepository* usage = nullptr;
  ports::ScrubbingRepository* scrubbing_settings = nullptr;
  // Every capture outcome (new_bug, duplicate, regression) is published to
  // these subscribers inside the ingest transaction (area kCaptureEvents),
  // with the event the bus gets after the commit: the integrations area
  // writes its webhook deliveries there, so a committed report never loses
  // its webhook and a rolled-back one never sends it. A failure rolls the
  // report back. Null or empty: the event is not built in the transaction.
  const TransactionalEvents* events = nullptr;
  // The accepted-capture hooks (accepted_capture.h), called inside the
  // ingest transaction for accepted v1 reports naming metadata.capture or
  // metadata.evidence. Owned by the capture module; null or empty: none.
  const std::vector<AcceptedCaptureHook>* accepted_capture_hooks = nullptr;
  std::string public_url;  // upgrade links in plan-limit errors
  PlanLimitOverrides plan_limits;
  // SERVICE_RETENTION: presence_ms (the presence sweep) and
  // sentry_event_ids_ms (the sentry area's sweep of stored event ids).
  RetentionPeriods retention;
  // Report batches written at once per process (SQLite: several queue for
  // the one writer; PostgreSQL: one, see runtime.h).
  int batch_writers = 1;
  // The area's in-memory state; set once it exists (null inside Runtime).
  Runtime* capture = nullptr;
  // The scrubbing settings cache and counters (scrubbing.h); null: every
  // report is scrubbed with the default rules and nothing is counted.
  ScrubbingCache* scrubbing = nullptr;
  // GET /metrics: reports stored, by outcome, and refused by the use case
  // (a plan limit; a failure of the database). Null: not counted.
  struct Counters {
    util::metrics::Counter* new_bug = nullptr;
    util::metrics::Counter* duplicate = nullptr;
    util::metrics::Counter* regression = nullptr;
    util::metrics::Counter* plan_limit = nullptr;
    util::metrics::Counter* error = nullptr;
  };
  Counters counters;

  int64_t Now() const { return clock->NowMillis(); }
};

}  // namespace service::app::capture
