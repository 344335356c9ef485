#include "areas/handoff/app/handoff.h"

#include <algorithm>
#include <boost/json.hpp>
#include <functional>
#include <map>

#include "app/transactional_events.h"
#include "areas/capture/domain/vocabulary.h"
#include "domain/roles.h"

namespace service::app::handoff {
namespace {

namespace json = boost::json;
namespace dh = domain::handoff;

Status BugNotFound() { return NotFound("Bug not found"); }
Status ProjectNotFound() { return NotFound("Project not found"); }

Status ScopeRequired(std::string_view scopes) {
  return Status(Code::kPermissionDenied, "This agent token needs the " + std::string(scopes) + " scope",
                "SCOPE_REQUIRED");
}
Status GrantRequired() {
  return Status(Code::kPermissionDenied, "This agent token has no grant for the project",
                "PROJECT_GRANT_REQUIRED");
}

bool Has(const std::vector<std::string>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// The event a producer hands to the integrations engine.
ports::Event HandoffEvent(std::string type, const ports::BugRecord& bug, json::object payload) {
  payload["bugId"] = bug.id;
  payload["projectId"] = bug.project_id;
  return ports::Event{std::move(type), bug.org_id, bug.project_id, json::serialize(payload),
                      bug.signal_class};
}

// After a commit that queued deliveries: the engine looks at once.
void WakeEngine(const HandoffDeps& deps, const ports::Event& e) {
  if (deps.bus != nullptr) deps.bus->Publish(e);
}

// The channels of the bug's project as they are now (nothing written).
struct Channels {
  std::vector<ports::IntegrationRow> notify;      // agent, webhook subscribed to agent_notify
  std::vector<ports::IntegrationRow> code_hosts;  // active code_host integrations
  bool mcp = false;
  bool any() const { return !notify.empty() || !code_hosts.empty() || mcp; }
};

Result<Channels> FindChannels(const HandoffDeps& deps, ports::Tx& tx, const ports::BugRecord& bug,
                              int64_t now) {
  Channels c;
  ports::IntegrationRepository& repo = *deps.integrations_deps->integrations;
  SV_ASSIGN_OR_RETURN(std::vector<ports::IntegrationRow> subscribed,
                      repo.ActiveFor(tx, bug.project_id, "agent_notify"));
  for (ports::IntegrationRow& r : subscribed) {
    if (r.type == "agent" || r.type == "webhook") c.notify.push_back(std::move(r));
  }
  SV_ASSIGN_OR_RETURN(std::vector<ports::IntegrationRow> all,
                      repo.ListForProject(tx, bug.org_id, bug.project_id));
  for (ports::IntegrationRow& r : all) {
    if (r.is_active && r.type == "code_host") c.code_hosts.push_back(std::move(r));
  }
  SV_ASSIGN_OR_RETURN(c.mcp, deps.listeners->HasListener(tx, bug.org_id, bug.project_id, now));
  return c;
}

ports::AgentNotificationRow NewRow(const HandoffDeps& deps, const ports::BugRecord& bug,
                                   const std::string& batch_id, std::string_view trigger, int64_t now) {
  ports::AgentNotificationRow r;
  r.id = deps.ids->NewId();
  r.batch_id = batch_id;
  r.org_id = bug.org_id;
  r.project_id = bug.project_id;
  r.bug_id = bug.id;
  r.trigger = std::string(trigger);
  r.created_at = now;
  return r;
}

ports::AgentNotificationRow ChannelRow(const HandoffDeps& deps, const ports::BugRecord& bug,
                                       const std::string& batch_id, std::string_view trigger, int64_t now,
                                       const ports::IntegrationRow& dest) {
  ports::AgentNotificationRow r = NewRow(deps, bug, batch_id, trigger, now);
  r.channel = dest.type;
  r.channel_name = dest.name;
  r.integration_id = dest.id;
  return r;
}

// Writes the deliveries and returns the rows of one batch (not yet
// inserted): one per channel, or the single no_channel row.
Result<std::vector<ports::AgentNotificationRow>> FanOut(const HandoffDeps& deps, ports::Tx& tx,
                                                        const ports::BugRecord& bug,
                                                        const std::string& batch_id, std::string_view trigger,
                                                        int64_t now) {
  SV_ASSIGN_OR_RETURN(Channels channels, FindChannels(deps, tx, bug, now));
  ports::IntegrationRepository& repo = *deps.integrations_deps->integrations;
  std::vector<ports::AgentNotificationRow> rows;
  std::vector<ports::IntegrationRow> to_send = channels.notify;
  std::vector<ports::AgentNotificationRow> code_rows;  // reused or linked code-host issues
  for (const ports::IntegrationRow& host : channels.code_hosts) {
    SV_ASSIGN_OR_RETURN(std::optional<ports::DeliveryRow> live, repo.FirstLiveDelivery(tx, host.id, bug.id));
    if (live) {
      ports::AgentNotificationRow r = ChannelRow(deps, bug, batch_id, trigger, now, host);
      r.delivery_id = live->id;
      r.status = std::string(dh::kQueued);
      r.detail = "reusing the delivery that opens the bug's issue";
      code_rows.push_back(std::move(r));
      continue;
    }
    SV_ASSIGN_OR_RETURN(std::optional<ports::CodeHostIssue> issue, repo.GetIssue(tx, host.id, bug.id));
    if (issue) {
      ports::AgentNotificationRow r = ChannelRow(deps, bug, batch_id, trigger, now, host);
      r.status = std::string(dh::kDelivered);
      r.delivered_at = now;
      r.detail = "the bug's issue: " + issue->url;
      code_rows.push_back(std::move(r));
      continue;
    }
    to_send.push_back(host);  // opens the issue
  }
  if (!to_send.empty()) {
    const ports::Event event =
        HandoffEvent("agent_notify", bug, json::object{{"trigger", std::string(trigger)}});
    SV_ASSIGN_OR_RETURN(std::vector<integrations::QueuedDelivery> queued,
                        integrations::EnqueueEvent(*deps.integrations_deps, tx, event, to_send));
    for (const integrations::QueuedDelivery& q : queued) {
      ports::AgentNotificationRow r = ChannelRow(deps, bug, batch_id, trigger, now, q.destination);
      r.delivery_id = q.delivery_id;
      r.status = std::string(dh::kQueued);
      rows.push_back(std::move(r));
    }
  }
  for (ports::AgentNotificationRow& r : code_rows) rows.push_back(std::move(r));
  if (channels.mcp) {
    ports::AgentNotificationRow r = NewRow(deps, bug, batch_id, trigger, now);
    r.channel = std::string(dh::kChannelMcp);
    r.status = std::string(dh::kQueued);
    r.detail = "waiting for a listen request";
    rows.push_back(std::move(r));
  }
  if (rows.empty()) {
    ports::AgentNotificationRow r = NewRow(deps, bug, batch_id, trigger, now);
    r.status = std::string(dh::kNoChannel);
    r.detail =
        "no agent channel: add an agent or webhook integration subscribed to agent_notify, a code host, or "
        "an agent token with the subscribe scope";
    rows.push_back(std::move(r));
  }
  return rows;
}

bool IsNoChannel(const std::vector<ports::AgentNotificationRow>& rows) {
  return rows.size() == 1 && rows[0].status == dh::kNoChannel;
}

// Claims the bug's next batch and writes it; `reused` when the window holds
// an earlier one (its rows returned).
struct Written {
  bool reused = false;
  ports::NotifyBatch batch;
  std::vector<ports::AgentNotificationRow> rows;
  bool queued_deliveries = false;
};

Result<Written> WriteBatch(const HandoffDeps& deps, ports::Tx& tx, const ports::BugRecord& bug,
                           std::string_view trigger, const std::string& actor, int64_t now) {
  Written w;
  const std::string batch_id = deps.ids->NewId();
  SV_ASSIGN_OR_RETURN(
      ports::NotifyClaim claim,
      deps.handoff->ClaimNotify(tx, bug.org_id, bug.project_id, bug.id, batch_id, now, dh::kReuseWindowMs));
  if (!claim.claimed) {
    SV_ASSIGN_OR_RETURN(std::optional<ports::NotifyBatch> earlier,
                        deps.handoff->GetBatch(tx, bug.org_id, claim.earlier_batch_id));
    if (earlier) {
      w.reused = true;
      w.batch = *earlier;
      SV_ASSIGN_OR_RETURN(w.rows, deps.handoff->BatchRows(tx, bug.org_id, earlier->id));
      return w;
    }
    return Internal("handoff: the reuse window names a batch that does not exist");
  }
  SV_ASSIGN_OR_RETURN(w.rows, FanOut(deps, tx, bug, batch_id, trigger, now));
  w.batch = ports::NotifyBatch{
      batch_id, bug.org_id, bug.project_id, bug.id, std::string(trigger), IsNoChannel(w.rows), actor, now};
  SV_RETURN_IF_ERROR(deps.handoff->InsertBatch(tx, w.batch));
  SV_RETURN_IF_ERROR(deps.handoff->InsertRows(tx, w.rows));
  for (const ports::AgentNotificationRow& r : w.rows) w.queued_deliveries |= r.delivery_id.has_value();
  return w;
}

// The rows with their linked deliveries' live outcomes.
Result<std::vector<RowView>> LiveRows(const HandoffDeps& deps, ports::Tx& tx, const std::string& org_id,
                                      const std::vector<ports::AgentNotificationRow>& rows) {
  std::vector<std::string> ids;
  for (const ports::AgentNotificationRow& r : rows) {
    if (r.delivery_id) ids.push_back(*r.delivery_id);
  }
  std::map<std::string, ports::DeliveryRow> deliveries;
  if (!ids.empty()) {
    SV_ASSIGN_OR_RETURN(std::vector<ports::DeliveryRow> found,
                        deps.integrations_deps->integrations->GetDeliveries(tx, org_id, ids));
    for (ports::DeliveryRow& d : found) {
      const std::string id = d.id;
      deliveries.emplace(id, std::move(d));
    }
  }
  std::vector<RowView> out;
  out.reserve(rows.size());
  for (const ports::AgentNotificationRow& r : rows) {
    RowView v{r, r.status, r.delivered_at, r.detail};
    if (r.delivery_id) {
      auto it = deliveries.find(*r.delivery_id);
      if (it == deliveries.end()) {
        // The delivery went with its integration: what was stored stands.
      } else {
        const ports::DeliveryRow& d = it->second;
        v.status = dh::LiveStatus(r.status, d.status);
        if (v.status == dh::kDelivered) v.delivered_at = d.completed_at;
        if (v.status == dh::kFailed && d.error_message) v.detail = d.error_message;
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

Result<ports::BugRecord> FindBug(const HandoffDeps& deps, ports::Tx& tx, const std::string& org_id,
                                 const std::string& bug_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(tx, org_id, bug_id));
  if (!bug) return BugNotFound();
  return std::move(*bug);
}

Status RequireProject(const HandoffDeps& deps, ports::Tx& tx, const std::string& org_id,
                      const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(tx, org_id, project_id));
  if (!p) return ProjectNotFound();
  return Status::Ok();
}

Result<AgentStatus> ReadStatus(const HandoffDeps& deps, ports::Tx& tx, const ports::BugRecord& bug) {
  AgentStatus s;
  s.bug_id = bug.id;
  const int64_t now = deps.Now();
  SV_ASSIGN_OR_RETURN(s.agent, deps.handoff->GetState(tx, bug.org_id, bug.id));
  SV_ASSIGN_OR_RETURN(std::vector<ports::NotifyBatch> batches,
                      deps.handoff->Batches(tx, bug.org_id, bug.id, dh::kHistoryLimit));
  SV_ASSIGN_OR_RETURN(std::vector<ports::AckRecord> acks,
                      deps.handoff->Acks(tx, bug.org_id, bug.id, dh::kHistoryLimit));
  dh::LatestBatch latest = dh::LatestBatch::kNone;
  if (!batches.empty()) {
    s.notified = batches.front();
    latest = batches.front().no_channel ? dh::LatestBatch::kNoChannel : dh::LatestBatch::kNotified;
    SV_ASSIGN_OR_RETURN(std::vector<ports::AgentNotificationRow> rows,
                        deps.handoff->BatchRows(tx, bug.org_id, batches.front().id));
    SV_ASSIGN_OR_RETURN(s.notified_rows, LiveRows(deps, tx, bug.org_id, rows));
  }
  const bool pr = s.agent && s.agent->pr_url.has_value();
  const bool working = s.agent && s.agent->ack == dh::kActionWorking;
  s.state = dh::AgentState(pr, working, latest);
  SV_ASSIGN_OR_RETURN(Channels channels, FindChannels(deps, tx, bug, now));
  s.can_connect = channels.any();

  for (const ports::NotifyBatch& b : batches) {
    HistoryEntry e;
    e.at = b.created_at;
    e.action = b.no_channel ? "no_channel" : "notified";
    e.trigger = b.trigger;
    e.by = b.actor;
    if (!b.no_channel) {
      SV_ASSIGN_OR_RETURN(std::vector<ports::AgentNotificationRow> rows,
                          deps.handoff->BatchRows(tx, bug.org_id, b.id));
      for (const ports::AgentNotificationRow& r : rows) {
        if (r.channel) e.channels.push_back(*r.channel);
      }
    }
    s.history.push_back(std::move(e));
  }
  for (const ports::AckRecord& a : acks) {
    HistoryEntry e;
    e.at = a.created_at;
    e.action = a.action;
    e.by = a.actor;
    e.pr_url = a.pr_url;
    e.note = a.note;
    s.history.push_back(std::move(e));
  }
  std::stable_sort(s.history.begin(), s.history.end(),
                   [](const HistoryEntry& a, const HistoryEntry& b) { return a.at > b.at; });
  if (static_cast<int64_t>(s.history.size()) > dh::kHistoryLimit) s.history.resize(dh::kHistoryLimit);
  return s;
}

// Runs `fn` inside a savepoint of `tx`: a failure rolls back what it wrote
// and is returned; the transaction stays usable.
Status Guarded(const HandoffDeps& deps, ports::Tx& tx, const std::function<Status()>& fn) {
  SV_RETURN_IF_ERROR(deps.handoff->Savepoint(tx));
  Status s = fn();
  if (!s.ok()) {
    Status back = deps.handoff->RollbackToSavepoint(tx);
    if (!back.ok()) return back;
  }
  Status released = deps.handoff->ReleaseSavepoint(tx);
  if (!s.ok()) return s;
  return released;
}

void LogFailure(const HandoffDeps& deps, std::string_view what, const ports::Event& e, const Status& s) {
  if (deps.log == nullptr) return;
  deps.log->Log(LogLevel::kError, std::string(what),
                {{"org_id", e.org_id}, {"project_id", e.project_id}, {"error", s.ToString()}});
}

}  // namespace

Result<NotifyResult> NotifyAgent(const HandoffDeps& deps, const ConsoleActor& actor,
                                 const std::string& bug_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kNotifyAgent));
  NotifyResult out;
  out.bug_id = bug_id;
  Written w;
  std::optional<ports::Event> wake;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    w = Written{};
    wake.reset();
    SV_ASSIGN_OR_RETURN(ports::BugRecord bug, FindBug(deps, tx, actor.org_id, bug_id));
    SV_ASSIGN_OR_RETURN(w, WriteBatch(deps, tx, bug, dh::kTriggerManual, actor.email, deps.Now()));
    if (w.queued_deliveries) wake = HandoffEvent("agent_notify", bug, json::object{{"trigger", "manual"}});
    SV_ASSIGN_OR_RETURN(out.rows, LiveRows(deps, tx, actor.org_id, w.rows));
    return Status::Ok();
  }));
  if (wake) WakeEngine(deps, *wake);
  out.reused = w.reused;
  out.no_channel = w.batch.no_channel;
  return out;
}

Result<AgentStatus> GetAgentStatus(const HandoffDeps& deps, const ConsoleActor& actor,
                                   const std::string& bug_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewBugs));
  AgentStatus out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::BugRecord bug, FindBug(deps, tx, actor.org_id, bug_id));
    SV_ASSIGN_OR_RETURN(out, ReadStatus(deps, tx, bug));
    return Status::Ok();
  }));
  return out;
}

Result<AckResult> Ack(const HandoffDeps& deps, const HandoffCaller& caller, const std::string& bug_id,
                      const AckRequest& request) {
  if (caller.agent) {
    if (!Has(caller.scopes, "subscribe") && !Has(caller.scopes, "claim_issue"))
      return ScopeRequired("subscribe or claim_issue");
  } else {
    SV_RETURN_IF_ERROR(RequireCapability(caller.actor, domain::Capability::kNotifyAgent));
  }
  if (request.action != dh::kActionWorking) return InvalidArgument("action must be working");
  if (request.pr_url) {
    const std::string problem = dh::PrUrlProblem(*request.pr_url);
    if (!problem.empty()) return Status(Code::kInvalidArgument, "prUrl " + problem, "PR_URL_INVALID");
  }
  AckResult out;
  std::optional<ports::Event> wake;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    out = AckResult{};
    wake.reset();
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(ports::BugRecord bug, FindBug(deps, tx, caller.actor.org_id, bug_id));
    if (caller.agent && !Has(caller.granted_projects, bug.project_id)) return GrantRequired();
    std::string who = caller.actor.email;
    if (caller.agent) {
      SV_ASSIGN_OR_RETURN(std::optional<std::string> name,
                          deps.listeners->TokenName(tx, caller.actor.org_id, caller.token_id));
      who = name && !name->empty() ? "agent " + *name : "agent token";
    }
    SV_ASSIGN_OR_RETURN(std::optional<ports::AgentState> stored,
                        deps.handoff->GetState(tx, bug.org_id, bug.id));
    ports::AgentState state = stored.value_or(ports::AgentState{});
    state.bug_id = bug.id;
    state.org_id = bug.org_id;
    state.project_id = bug.project_id;
    const bool first_working = state.ack != dh::kActionWorking;
    const bool new_pr = request.pr_url && state.pr_url != request.pr_url;
    if (first_working) {
      state.ack = std::string(dh::kActionWorking);
      state.ack_by = who;
      state.ack_at = now;
    }
    if (request.note) state.ack_note = request.note;
    if (new_pr) {
      state.pr_url = request.pr_url;
      state.pr_at = now;
    }
    SV_RETURN_IF_ERROR(deps.handoff->PutAck(tx, state, now));
    if (first_working) {
      SV_RETURN_IF_ERROR(deps.handoff->InsertAck(
          tx, ports::AckRecord{deps.ids->NewId(), bug.org_id, bug.id, std::string(dh::kActionWorking),
                               std::nullopt, who, request.note, now}));
    }
    if (new_pr) {
      SV_RETURN_IF_ERROR(deps.handoff->InsertAck(
          tx, ports::AckRecord{deps.ids->NewId(), bug.org_id, bug.id, std::string(dh::kActionPrOpened),
                               request.pr_url, who, std::nullopt, now}));
    }
    if (first_working || new_pr) {
      out.update_action = std::string(new_pr ? dh::kActionPrOpened : dh::kActionWorking);
      json::object extra{{"agentAction", out.update_action}, {"agentActor", who}};
      if (state.pr_url) extra["prUrl"] = *state.pr_url;
      const ports::Event event = HandoffEvent("agent_update", bug, std::move(extra));
      SV_ASSIGN_OR_RETURN(
          std::vector<ports::IntegrationRow> dests,
          deps.integrations_deps->integrations->ActiveFor(tx, bug.project_id, "agent_update"));
      std::erase_if(dests, [](const ports::IntegrationRow& d) { return d.type == "agent"; });
      SV_ASSIGN_OR_RETURN(std::vector<integrations::QueuedDelivery> queued,
                          integrations::EnqueueEvent(*deps.integrations_deps, tx, event, dests));
      out.update_deliveries = static_cast<int64_t>(queued.size());
      if (!queued.empty()) wake = event;
    }
    SV_ASSIGN_OR_RETURN(out.status, ReadStatus(deps, tx, bug));
    return Status::Ok();
  }));
  if (wake) WakeEngine(deps, *wake);
  return out;
}

Result<AgentSettings> GetSettings(const HandoffDeps& deps, const ConsoleActor& actor,
                                  const std::string& project_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  AgentSettings out;
  out.project_id = project_id;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor.org_id, project_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::AgentSettingsRow> row,
                        deps.handoff->GetSettings(tx, actor.org_id, project_id));
    if (row) {
      out.auto_notify = row->auto_notify;
      out.min_severity = row->min_severity;
    }
    return Status::Ok();
  }));
  return out;
}

Result<AgentSettings> PutSettings(const HandoffDeps& deps, const ConsoleActor& actor,
                                  const std::string& project_id, const SettingsPatch& patch) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageProjects));
  if (patch.min_severity && !domain::capture::IsSeverity(*patch.min_severity))
    return InvalidArgument("minSeverity must be critical, high, medium or low");
  AgentSettings out;
  out.project_id = project_id;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor.org_id, project_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::AgentSettingsRow> row,
                        deps.handoff->GetSettings(tx, actor.org_id, project_id));
    ports::AgentSettingsRow next = row.value_or(ports::AgentSettingsRow{});
    next.project_id = project_id;
    next.org_id = actor.org_id;
    if (patch.auto_notify) next.auto_notify = *patch.auto_notify;
    if (patch.min_severity) next.min_severity = *patch.min_severity;
    next.updated_at = deps.Now();
    next.updated_by = actor.user_id;
    SV_RETURN_IF_ERROR(deps.handoff->PutSettings(tx, next));
    out.auto_notify = next.auto_notify;
    out.min_severity = next.min_severity;
    return Status::Ok();
  }));
  return out;
}

Result<ListenPage> Listen(const HandoffDeps& deps, const HandoffCaller& caller, const std::string& project_id,
                          const std::optional<std::string>& after) {
  if (caller.agent) {
    if (!Has(caller.scopes, "subscribe")) return ScopeRequired("subscribe");
    if (!Has(caller.granted_projects, project_id)) return GrantRequired();
  } else {
    SV_RETURN_IF_ERROR(RequireCapability(caller.actor, domain::Capability::kViewBugs));
  }
  std::optional<dh::Cursor> cursor;
  if (after) {
    cursor = dh::DecodeCursor(*after);
    if (!cursor) return InvalidArgument("Invalid after");
  }
  ListenPage out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    out = ListenPage{};
    const int64_t now = deps.Now();
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller.actor.org_id, project_id));
    ports::HandoffRepository::ListenQuery q;
    q.org_id = caller.actor.org_id;
    q.project_id = project_id;
    q.since_ms = now - dh::kListenBacklogMs;
    q.queued_only = !cursor.has_value();
    if (cursor) {
      q.after_at = cursor->created_at;
      q.after_id = cursor->id;
    }
    q.limit = dh::kListenPageSize;
    SV_ASSIGN_OR_RETURN(out.rows, deps.handoff->Listen(tx, q));
    std::vector<std::string> queued;
    for (ports::ListenRow& r : out.rows) {
      if (r.row.status == dh::kQueued) {
        queued.push_back(r.row.id);
        r.row.status = std::string(dh::kDelivered);
        r.row.delivered_at = now;
      }
    }
    SV_RETURN_IF_ERROR(deps.handoff->MarkDelivered(tx, queued, now));
    if (!out.rows.empty()) {
      out.cursor = dh::EncodeCursor(dh::Cursor{out.rows.back().row.created_at, out.rows.back().row.id});
    } else {
      out.cursor = cursor ? dh::EncodeCursor(*cursor) : dh::EncodeCursor(dh::Cursor{now, ""});
    }
    return Status::Ok();
  }));
  return out;
}

Status OnCaptureEvent(const HandoffDeps& deps, ports::Tx& tx, const ports::Event& event,
                      std::string_view area) {
  if (area != kCaptureEvents || (event.type != "new_bug" && event.type != "regression")) return Status::Ok();
  if (event.project_id.empty()) return Status::Ok();
  // One read per new bug or regression; nothing else unless it is enabled.
  Result<std::optional<ports::AgentSettingsRow>> settings =
      deps.handoff->GetSettings(tx, event.org_id, event.project_id);
  if (!settings.ok()) return settings.status();  // the capture transaction itself failed
  if (!*settings || !(*settings)->auto_notify) return Status::Ok();
  boost::system::error_code ec;
  json::value parsed = json::parse(event.payload, ec);
  if (ec || !parsed.is_object()) return Status::Ok();
  const json::object& o = parsed.get_object();
  const json::value* severity = o.if_contains("severity");
  const json::value* bug_id = o.if_contains("bugId");
  if (severity == nullptr || !severity->is_string() || bug_id == nullptr || !bug_id->is_string()) {
    return Status::Ok();
  }
  if (!dh::AtOrAbove(severity->get_string(), (*settings)->min_severity)) return Status::Ok();
  const std::string id(bug_id->get_string());
  const int64_t now = deps.Now();
  Status handed = Guarded(deps, tx, [&]() -> Status {
    SV_ASSIGN_OR_RETURN(ports::BugRecord bug, FindBug(deps, tx, event.org_id, id));
    return WriteBatch(deps, tx, bug, dh::kTriggerAuto, "", now).status();
  });
  if (handed.ok()) return Status::Ok();
  LogFailure(deps, "auto-notify could not be queued", event, handed);
  // Recorded as one failed row; if even that fails, capture goes on.
  Status recorded = Guarded(deps, tx, [&]() -> Status {
    const std::string batch_id = deps.ids->NewId();
    SV_ASSIGN_OR_RETURN(ports::NotifyClaim claim,
                        deps.handoff->ClaimNotify(tx, event.org_id, event.project_id, id, batch_id, now, 0));
    if (!claim.claimed) return Status::Ok();
    SV_RETURN_IF_ERROR(
        deps.handoff->InsertBatch(tx, ports::NotifyBatch{batch_id, event.org_id, event.project_id, id,
                                                         std::string(dh::kTriggerAuto), false, "", now}));
    ports::AgentNotificationRow r;
    r.id = deps.ids->NewId();
    r.batch_id = batch_id;
    r.org_id = event.org_id;
    r.project_id = event.project_id;
    r.bug_id = id;
    r.trigger = std::string(dh::kTriggerAuto);
    r.status = std::string(dh::kFailed);
    r.detail = "the handoff could not be queued";
    r.created_at = now;
    return deps.handoff->InsertRows(tx, {r});
  });
  if (!recorded.ok()) LogFailure(deps, "auto-notify failure not recorded", event, recorded);
  return Status::Ok();
}

}  // namespace service::app::handoff
