// Presence use case (Spec 1 "POST /v1/ingest/presence"): upsert the session's
// live-presence row and publish a `presence` event carrying the
// organization-wide snapshot (sessions and users active in the last 75
// seconds and the 5 busiest paths).
//
// Thread-safety: safe from any thread.
#pragma once

#include <string>

#include "areas/capture/app/deps.h"
#include "areas/capture/app/report.h"
#include "areas/capture/ports/presence_repository.h"
#include "service/status.h"

namespace service::app::capture {

inline constexpr int64_t kPresenceTopPages = 5;

// Records the ping, then publishes the snapshot (at most once per second per
// organization; a later ping or the presence worker publishes the rest).
Status RecordPresence(const CaptureDeps& deps, const ReportSource& source, PresenceInput input);

// The organization's current snapshot.
Result<ports::PresenceSnapshot> PresenceSnapshotOf(const CaptureDeps& deps, const std::string& org_id);

// Reads the snapshot and publishes it as a `presence` event. Payload:
// {active_sessions, active_users, pages[{path, active_sessions}], timestamp}.
Status PublishPresenceSnapshot(const CaptureDeps& deps, const std::string& org_id);

}  // namespace service::app::capture
