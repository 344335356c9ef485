#include "app/capture/presence.h"

#include <boost/json.hpp>

#include "app/capture/runtime.h"
#include "app/core.h"
#include "util/time.h"

namespace service::app::capture {

Status RecordPresence(Core& core, const ReportSource& source, PresenceInput input) {
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
  ping.at = core.Now();
  SV_RETURN_IF_ERROR(core.db->Write([&](store::Connection& tx) { return core.presence->Upsert(tx, ping); }));
  if (core.capture->ClaimPresencePublish(source.org_id, ping.at)) {
    // The ping is stored; a failed snapshot read only delays the event.
    PublishPresenceSnapshot(core, source.org_id).IgnoreError();
  }
  return Status::Ok();
}

Result<ports::PresenceSnapshot> PresenceSnapshotOf(Core& core, const std::string& org_id) {
  ports::PresenceSnapshot snap;
  const int64_t since = core.Now() - kPresenceWindowMs;
  SV_RETURN_IF_ERROR(core.db->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(snap, core.presence->Snapshot(c, org_id, since, kPresenceTopPages));
    return Status::Ok();
  }));
  return snap;
}

Status PublishPresenceSnapshot(Core& core, const std::string& org_id) {
  SV_ASSIGN_OR_RETURN(ports::PresenceSnapshot snap, PresenceSnapshotOf(core, org_id));
  boost::json::array pages;
  for (const auto& p : snap.pages)
    pages.push_back(boost::json::object{{"path", p.path}, {"active_sessions", p.active_sessions}});
  boost::json::object payload{{"active_sessions", snap.active_sessions},
                              {"active_users", snap.active_users},
                              {"pages", std::move(pages)},
                              {"timestamp", util::FormatIso8601(core.Now())}};
  core.bus->Publish(ports::Event{"presence", org_id, "", boost::json::serialize(payload)});
  return Status::Ok();
}

}  // namespace service::app::capture
