#include "areas/bugs/api/bug_params.h"

#include <charconv>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/capture/domain/vocabulary.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {

namespace json = boost::json;

json::value OptText(const std::optional<std::string>& s) {
  return s ? json::value(*s) : json::value(nullptr);
}
json::value OptTimeJson(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}
// A stored JSON object (ai_summary, groupingV3, metadata) or null.
json::value StoredJson(const std::optional<std::string>& text) {
  if (!text || text->empty()) return nullptr;
  boost::system::error_code ec;
  json::value v = json::parse(*text, ec);
  return ec ? json::value(nullptr) : v;
}

json::object BugJson(const ports::BugRecord& b) {
  return json::object{{"id", b.id},
                      {"title", b.title},
                      {"description", b.description},
                      {"url", b.url},
                      {"severity", b.severity},
                      {"status", b.status},
                      {"fingerprint", b.fingerprint},
                      {"report_count", b.report_count},
                      {"occurrence_count", b.occurrence_count},
                      {"reporter_count", b.reporter_count},
                      {"affected_user_count", b.affected_user_count},
                      {"affected_session_count", b.affected_session_count},
                      {"latest_release", b.latest_release},
                      {"latest_environment", b.latest_environment},
                      {"is_regression", b.is_regression},
                      {"signal_class", b.signal_class},
                      {"signal_family", b.signal_family},
                      {"signal_reason", b.signal_reason},
                      {"classifier_confidence", b.classifier_confidence},
                      {"ai_summary", StoredJson(b.ai_summary_json)},
                      {"project_id", b.project_id},
                      {"project_name", b.project_name},
                      {"assigned_to", OptText(b.assigned_to)},
                      {"first_seen", util::FormatIso8601(b.first_seen)},
                      {"last_seen", util::FormatIso8601(b.last_seen)},
                      {"created_at", util::FormatIso8601(b.created_at)},
                      {"updated_at", util::FormatIso8601(b.updated_at)},
                      {"resolved_at", OptTimeJson(b.resolved_at)},
                      {"agent_ack", OptText(b.agent_ack)},
                      {"agent_ack_by", OptText(b.agent_ack_by)},
                      {"agent_pr_url", OptText(b.agent_pr_url)}};
}

json::object OccurrenceJson(const ports::Occurrence& o) {
  json::value metadata = StoredJson(o.metadata);
  if (!metadata.is_object()) metadata = json::object();
  return json::object{{"id", o.id},
                      {"bug_id", o.bug_id},
                      {"project_id", o.project_id},
                      {"reporter_email", OptText(o.reporter_email)},
                      {"reporter_id", OptText(o.reporter_id)},
                      {"ip_hash", OptText(o.ip_hash)},
                      {"session_id", OptText(o.session_id)},
                      {"end_user_id", OptText(o.end_user_id)},
                      {"user_key", o.user_key},
                      {"release_version", OptText(o.release_version)},
                      {"environment", OptText(o.environment)},
                      {"url", OptText(o.url)},
                      {"user_agent", OptText(o.user_agent)},
                      {"viewport", OptText(o.viewport)},
                      {"browser", OptText(o.browser)},
                      {"os", OptText(o.os)},
                      {"platform", o.platform},
                      {"event_count", o.event_count},
                      {"metadata", std::move(metadata)},
                      {"occurred_at", util::FormatIso8601(o.occurred_at)},
                      {"created_at", util::FormatIso8601(o.created_at)}};
}

Status BadParam(std::string message) { return InvalidArgument(std::move(message)); }

// A scalar parameter under the one-value rule.
Result<std::optional<std::string>> Param(const Context& ctx, std::string_view name) {
  return ctx.query.One(name);
}

// An integer parameter in [min, max]; above max reads as max. Absent: def.
Result<int64_t> IntParam(const Context& ctx, std::string_view name, int64_t def, int64_t min, int64_t max) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, Param(ctx, name));
  if (!raw) return def;
  int64_t v = 0;
  const char* end = raw->data() + raw->size();
  auto [p, ec] = std::from_chars(raw->data(), end, v);
  if (ec != std::errc() || p != end || v < min) {
    return BadParam(std::string(name) + " must be an integer of at least " + std::to_string(min));
  }
  return std::min(v, max);
}

Result<bool> BoolParam(const Context& ctx, std::string_view name, bool def) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, Param(ctx, name));
  if (!raw) return def;
  const std::string_view v = *raw;
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  return BadParam(std::string(name) + " must be true or false");
}

Result<std::optional<std::string>> UuidParam(const Context& ctx, std::string_view name) {
  return EnumParam(ctx, name, [](const std::string& s) { return util::IsUuid(s); });
}

// The filters of GET /v1/bugs from the query.
Result<ports::BugFilter> ParseBugFilter(const Context& ctx) {
  ports::BugFilter f;
  f.org_id = ctx.principal.org_id;
  SV_ASSIGN_OR_RETURN(f.project_id, UuidParam(ctx, "projectId"));
  if (IsAgent(ctx.principal)) {
    if (f.project_id) f.project_id = util::ToLower(*f.project_id);
    const std::vector<std::string>& granted = ctx.principal.granted_projects;
    if (!f.project_id && granted.size() > 1) return BadParam("projectId is required for agent tokens");
    if (!f.project_id && granted.size() == 1) f.project_id = granted.front();
    if (!f.project_id || !HasGrant(ctx.principal, *f.project_id)) {
      return Status(Code::kPermissionDenied, "This agent token has no grant for the project",
                    "PROJECT_GRANT_REQUIRED");
    }
  }
  SV_ASSIGN_OR_RETURN(f.status, EnumParam(ctx, "status", domain::capture::IsBugStatus));
  SV_ASSIGN_OR_RETURN(f.unresolved, BoolParam(ctx, "unresolved", false));
  SV_ASSIGN_OR_RETURN(f.severity, EnumParam(ctx, "severity", domain::capture::IsSeverity));
  SV_ASSIGN_OR_RETURN(std::optional<std::string> signal_class,
                      EnumParam(ctx, "signalClass", [](const std::string& s) {
                        return s == "all" || domain::capture::IsSignalClass(s);
                      }));
  SV_ASSIGN_OR_RETURN(const bool include_diagnostics, BoolParam(ctx, "includeDiagnostics", false));
  if (signal_class) {
    if (*signal_class != "all") f.signal_classes = {*signal_class};
  } else if (!include_diagnostics) {
    f.signal_classes = {"issue", "watch"};
  }
  SV_ASSIGN_OR_RETURN(std::optional<std::string> search, Param(ctx, "search"));
  if (search && !search->empty()) f.search = std::move(search);
  SV_ASSIGN_OR_RETURN(f.platform, EnumParam(ctx, "platform", domain::capture::IsPlatform));
  SV_ASSIGN_OR_RETURN(std::optional<std::string> assignee, Param(ctx, "assignee"));
  if (assignee) {
    const std::string_view a = *assignee;
    if (a == "unassigned") {
      f.assignee = ports::BugFilter::Assignee::kUnassigned;
    } else if (a == "me") {
      f.assignee = ports::BugFilter::Assignee::kUser;
      f.assignee_id = ctx.principal.user_id;
    } else if (util::IsUuid(*assignee)) {
      f.assignee = ports::BugFilter::Assignee::kUser;
      f.assignee_id = *assignee;
    } else {
      return BadParam("Invalid assignee");
    }
  }
  SV_ASSIGN_OR_RETURN(std::optional<std::string> feed,
                      EnumParam(ctx, "deliveryFeed", domain::capture::IsDeliveryFeed));
  if (feed) f.feed = *feed;
  return f;
}

Status AgentReadGate(const Context& ctx) {
  if (!IsAgent(ctx.principal) || HasScope(ctx.principal, "read_bugs")) return Status::Ok();
  return Status(Code::kPermissionDenied, "This agent token lacks the read_bugs scope", "SCOPE_REQUIRED");
}

Status AgentBugGate(const app::bugs::BugsDeps& deps, const Context& ctx, const std::string& bug_id,
                    std::initializer_list<std::string_view> scopes) {
  if (!IsAgent(ctx.principal)) return Status::Ok();
  bool scoped = false;
  for (std::string_view scope : scopes) scoped = scoped || HasScope(ctx.principal, scope);
  if (!scoped) {
    std::string names;
    for (std::string_view scope : scopes) names += (names.empty() ? "" : " or ") + std::string(scope);
    return Status(Code::kPermissionDenied, "This agent token lacks the " + names + " scope",
                  "SCOPE_REQUIRED");
  }
  SV_ASSIGN_OR_RETURN(std::string project, app::bugs::BugProject(deps, Actor(ctx), bug_id));
  if (!HasGrant(ctx.principal, project)) return NotFound("Bug not found");
  return Status::Ok();
}

app::ConsoleActor Actor(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

}  // namespace service::api
