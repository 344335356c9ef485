// Occurrence retention per plan (README "Retention"): an organization's
// occurrences (and their events) received more than its plan's
// retention_days ago are deleted, in batches, by the hourly worker
// "capture-occurrence-retention". Bugs, their counters and participants
// are lifetime and stay; occurrence_days follows the deleted rows (trigger).
#pragma once

#include <cstdint>

#include "areas/capture/app/deps.h"
#include "service/options.h"
#include "service/status.h"

namespace service::app::capture {

// Runs one sweep over every organization; returns the occurrences deleted.
// `batch_rows` bounds each statement (one transaction each).
Result<int64_t> SweepOccurrences(const CaptureDeps& deps, int64_t batch_rows = kRetentionBatchRows);

}  // namespace service::app::capture
