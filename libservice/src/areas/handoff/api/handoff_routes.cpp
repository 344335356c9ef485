// The agent handoff (Spec 2 "Agent handoff"):
//   POST /v1/bugs/:id/notify-agent                 JWT+Org, notify_agent; agent tokens 403
//                                                  201 (200 reused) {bugId, reused, noChannel,
//                                                  notifications[row]}
//   GET  /v1/bugs/:id/agent-status                 JWT+Org, any member
//   POST /v1/bugs/:id/ack                          JWT+Org (notify_agent) or an agent token
//                                                  (subscribe or claim_issue, a grant); body
//                                                  {action: "working", prUrl?, note?}
//   GET  /v1/projects/:id/agent-settings           JWT+Org, any member; agent tokens 403
//   PUT  /v1/projects/:id/agent-settings           JWT+Org, manage_projects; support sessions
//                                                  and agent tokens 403; body {autoNotify?,
//                                                  minSeverity?}, at least one, nothing else
//   GET  /v1/projects/:id/agent-notifications      JWT+Org, any member, or an agent token
//                                                  (subscribe, a grant); ?after=<cursor>
// A row: {id, trigger, channel, channelName, status, detail, createdAt, deliveredAt}.
#include <boost/json.hpp>

#include "api/agent_access.h"
#include "api/json.h"
#include "api/validate.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/capture/domain/vocabulary.h"
#include "areas/handoff/api/routes.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace dh = domain::handoff;
using app::handoff::HandoffDeps;

json::value OptTime(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}

json::object RowJson(const app::handoff::RowView& v) {
  return json::object{{"id", v.row.id},
                      {"trigger", v.row.trigger},
                      {"channel", OptText(v.row.channel)},
                      {"channelName", OptText(v.row.channel_name)},
                      {"status", v.status},
                      {"detail", OptText(v.detail)},
                      {"createdAt", util::FormatIso8601(v.row.created_at)},
                      {"deliveredAt", OptTime(v.delivered_at)}};
}

json::array RowsJson(const std::vector<app::handoff::RowView>& rows) {
  json::array out;
  for (const auto& r : rows) out.push_back(RowJson(r));
  return out;
}

json::object StatusJson(const app::handoff::AgentStatus& s) {
  json::object o;
  o["bugId"] = s.bug_id;
  o["state"] = s.state;
  if (s.notified) {
    o["notified"] = json::object{{"at", util::FormatIso8601(s.notified->created_at)},
                                 {"trigger", s.notified->trigger},
                                 {"channels", RowsJson(s.notified_rows)}};
  } else {
    o["notified"] = nullptr;
  }
  if (s.agent && s.agent->ack == dh::kActionWorking) {
    o["pickedUp"] = json::object{{"at", OptTime(s.agent->ack_at)},
                                 {"by", OptText(s.agent->ack_by)},
                                 {"note", OptText(s.agent->ack_note)}};
  } else {
    o["pickedUp"] = nullptr;
  }
  if (s.agent && s.agent->pr_url) {
    o["prOpened"] = json::object{{"at", OptTime(s.agent->pr_at)}, {"url", *s.agent->pr_url}};
  } else {
    o["prOpened"] = nullptr;
  }
  o["canConnect"] = s.can_connect;
  json::array history;
  for (const auto& e : s.history) {
    json::object h{{"at", util::FormatIso8601(e.at)}, {"action", e.action}, {"by", e.by}};
    if (!e.trigger.empty()) h["trigger"] = e.trigger;
    if (e.action == "notified") {
      json::array channels;
      for (const auto& c : e.channels) channels.push_back(json::value(c));
      h["channels"] = std::move(channels);
    }
    if (e.pr_url) h["prUrl"] = *e.pr_url;
    if (e.note) h["note"] = *e.note;
    history.push_back(std::move(h));
  }
  o["history"] = std::move(history);
  return o;
}

json::object SettingsJson(const app::handoff::AgentSettings& s) {
  return json::object{{"settings", json::object{{"projectId", s.project_id},
                                                {"autoNotify", s.auto_notify},
                                                {"minSeverity", s.min_severity}}}};
}

// The path's id, or "" when it cannot be one (reads as 404).
std::string PathId(const Context& ctx) {
  std::string id = util::ToLower(ctx.params.Get("id"));
  return util::IsUuid(id) ? id : std::string();
}

Response AgentRefused() { return ErrorResponse(403, "Agent tokens cannot use this route"); }

Response Validation(std::string message) {
  return ErrorResponse(400, message, json::object{{"code", "VALIDATION_ERROR"}});
}

Response HandleNotify(const HandoffDeps& deps, Context& ctx) {
  if (IsAgent(ctx.principal)) return AgentRefused();
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Bug not found");
  auto r = app::handoff::NotifyAgent(deps, Actor(ctx), id);
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(r->reused ? 200 : 201, json::object{{"bugId", r->bug_id},
                                                          {"reused", r->reused},
                                                          {"noChannel", r->no_channel},
                                                          {"notifications", RowsJson(r->rows)}});
}

Response HandleStatus(const HandoffDeps& deps, Context& ctx) {
  if (IsAgent(ctx.principal)) return AgentRefused();
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Bug not found");
  auto s = app::handoff::GetAgentStatus(deps, Actor(ctx), id);
  if (!s.ok()) return StatusResponse(s.status());
  return JsonResponse(200, StatusJson(*s));
}

Response HandleAck(const HandoffDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Bug not found");
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) return Validation(body.status().message());
  if (!(*body)->is_object()) return Validation("Body must be a JSON object");
  app::handoff::AckRequest req;
  for (const auto& [key, value] : (*body)->get_object()) {
    if (key == "action") {
      if (!value.is_string() || value.get_string() != dh::kActionWorking)
        return Validation("action must be \"working\"");
    } else if (key == "prUrl") {
      if (value.is_null()) continue;
      if (!value.is_string()) {
        return ErrorResponse(400, "prUrl must be an absolute https URL",
                             json::object{{"code", "PR_URL_INVALID"}});
      }
      req.pr_url = std::string(value.get_string());
    } else if (key == "note") {
      if (value.is_null()) continue;
      if (!value.is_string() || util::Utf8Length(value.get_string()) > dh::kMaxNoteLength ||
          !util::IsValidUtf8(value.get_string()) ||
          std::string_view(value.get_string()).find('\0') != std::string_view::npos) {
        return Validation("note must be a string of at most 500 characters");
      }
      req.note = std::string(value.get_string());
    } else {
      return Validation("Unknown field: " + std::string(key));
    }
  }
  if (!(*body)->get_object().contains("action")) return Validation("action is required");
  auto r = app::handoff::Ack(deps, HandoffCallerOf(ctx.principal), id, req);
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(200, AckJson(*r));
}

Response HandleGetSettings(const HandoffDeps& deps, Context& ctx) {
  if (IsAgent(ctx.principal)) return AgentRefused();
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Project not found");
  auto s = app::handoff::GetSettings(deps, Actor(ctx), id);
  if (!s.ok()) return StatusResponse(s.status());
  return JsonResponse(200, SettingsJson(*s));
}

Response HandlePutSettings(const HandoffDeps& deps, Context& ctx) {
  if (IsAgent(ctx.principal)) return AgentRefused();
  if (!ctx.principal.support_session_id.empty()) {
    return ErrorResponse(403, "Support sessions cannot change agent settings");
  }
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Project not found");
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) return Validation(body.status().message());
  if (!(*body)->is_object()) return Validation("Body must be a JSON object");
  app::handoff::SettingsPatch patch;
  for (const auto& [key, value] : (*body)->get_object()) {
    if (key == "autoNotify") {
      if (!value.is_bool()) return Validation("autoNotify must be a boolean");
      patch.auto_notify = value.get_bool();
    } else if (key == "minSeverity") {
      if (!value.is_string() || !domain::capture::IsSeverity(value.get_string()))
        return Validation("minSeverity must be critical, high, medium or low");
      patch.min_severity = std::string(value.get_string());
    } else {
      return Validation("Unknown field: " + std::string(key));
    }
  }
  if (!patch.auto_notify && !patch.min_severity) return Validation("autoNotify or minSeverity is required");
  auto s = app::handoff::PutSettings(deps, Actor(ctx), id, patch);
  if (!s.ok()) return StatusResponse(s.status());
  return JsonResponse(200, SettingsJson(*s));
}

Response HandleListen(const HandoffDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Project not found");
  auto after = Param(ctx, "after");
  if (!after.ok()) return StatusResponse(after.status());
  auto page = app::handoff::Listen(deps, HandoffCallerOf(ctx.principal), id, *after);
  if (!page.ok()) return StatusResponse(page.status());
  return JsonResponse(200, ListenJson(*page));
}

}  // namespace

app::handoff::HandoffCaller HandoffCallerOf(const Principal& p) {
  app::handoff::HandoffCaller c;
  c.actor = app::ConsoleActor{p.user_id, p.email, p.org_id, p.role};
  c.agent = IsAgent(p);
  if (c.agent) {
    c.token_id = p.key_id;
    c.scopes = p.scopes;
    c.granted_projects = p.granted_projects;
  }
  return c;
}

boost::json::object ListenJson(const app::handoff::ListenPage& page) {
  json::array rows;
  for (const auto& r : page.rows) {
    rows.push_back(json::object{{"id", r.row.id},
                                {"bugId", r.row.bug_id},
                                {"trigger", r.row.trigger},
                                {"createdAt", util::FormatIso8601(r.row.created_at)},
                                {"title", r.title},
                                {"severity", r.severity}});
  }
  return json::object{{"cursor", page.cursor}, {"notifications", std::move(rows)}};
}

boost::json::object AckJson(const app::handoff::AckResult& result) {
  json::object o = StatusJson(result.status);
  if (result.update_action.empty()) {
    o["agentUpdate"] = nullptr;
  } else {
    o["agentUpdate"] =
        json::object{{"action", result.update_action}, {"deliveries", result.update_deliveries}};
  }
  return o;
}

void RegisterHandoffRoutes(Pipeline& p, const HandoffDeps& deps) {
  Router& r = p.router();
  using domain::Capability;
  r.Add("POST", "/v1/bugs/:id/notify-agent", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Capability::kNotifyAgent, Bind(deps, HandleNotify));
  r.Add("GET", "/v1/bugs/:id/agent-status", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Capability::kViewBugs, Bind(deps, HandleStatus));
  r.Add("POST", "/v1/bugs/:id/ack", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent, Capability::kViewBugs,
        Bind(deps, HandleAck));
  r.Add("GET", "/v1/projects/:id/agent-settings", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Capability::kViewProjects, Bind(deps, HandleGetSettings));
  r.Add("PUT", "/v1/projects/:id/agent-settings", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Capability::kManageProjects, Bind(deps, HandlePutSettings));
  r.Add("GET", "/v1/projects/:id/agent-notifications", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        Capability::kViewBugs, Bind(deps, HandleListen));
}

}  // namespace service::api
