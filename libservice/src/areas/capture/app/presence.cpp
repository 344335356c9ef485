#include "areas/capture/app/presence.h"

#include <boost/json.hpp>

#include "areas/capture/app/deps.h"
#include "areas/capture/app/runtime.h"
#include "areas/capture/app/scrubbing.h"
#include "util/time.h"

namespace service::app::capture {

Status RecordPresence(const CaptureDeps& deps, const ReportSource& source, PresenceInput input) {
  SV_RETURN_IF_ERROR(ScrubPresence(deps, source.project_id, input));
  ports::PresencePing ping;
  ping.org_id = source.org_id;
  ping.project_id = source.project_id;
  ping.session_id = std::move(input.session_id);
  ping.user_id = std::move(input.user_id);
  ping.reporter_id = std::move(input.reporter_id);
  ping.url = std::move(input.url);
  ping.path = std::move(input.path);
  ping.title = std::move(input.title);
  ping.referrer = std::move(input.referrer);
  ping.event_type = std::move(input.event_type);
  ping.visibility_state = std::move(input.visibility_state);
  ping.interaction_json = std::move(input.interaction_json);
  ping.metadata_json = std::move(input.metadata_json);
  ping.at = deps.Now();
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) { return deps.presence->Upsert(tx, ping); }));
  if (deps.capture->ClaimPresencePublish(source.org_id, ping.at)) {
    // The ping is stored; a failed snapshot read only delays the event.
    // The ping is stored; a snapshot that cannot be published now is
    // published by the next ping or never needed. Logged, not answered.
    Status published = PublishPresenceSnapshot(deps, source.org_id);
    if (!published.ok() && deps.log) {
      deps.log->Log(LogLevel::kWarning, "presence snapshot not published",
                    {{"orgId", source.org_id}, {"error", published.ToString()}});
    }
  }
  return Status::Ok();
}

Result<ports::PresenceSnapshot> PresenceSnapshotOf(const CaptureDeps& deps, const std::string& org_id) {
  ports::PresenceSnapshot snap;
  const int64_t since = deps.Now() - kPresenceWindowMs;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(snap, deps.presence->Snapshot(c, org_id, since, kPresenceTopPages));
    return Status::Ok();
  }));
  return snap;
}

Status PublishPresenceSnapshot(const CaptureDeps& deps, const std::string& org_id) {
  SV_ASSIGN_OR_RETURN(ports::PresenceSnapshot snap, PresenceSnapshotOf(deps, org_id));
  boost::json::array pages;
  for (const auto& p : snap.pages)
    pages.push_back(boost::json::object{{"path", p.path}, {"active_sessions", p.active_sessions}});
  boost::json::object payload{{"active_sessions", snap.active_sessions},
                              {"active_users", snap.active_users},
                              {"pages", std::move(pages)},
                              {"timestamp", util::FormatIso8601(deps.Now())}};
  deps.bus->Publish(ports::Event{"presence", org_id, "", boost::json::serialize(payload)});
  return Status::Ok();
}

}  // namespace service::app::capture
