#include "areas/mcp/api/mcp_tools.h"

#include <functional>
#include <map>
#include <string>

#include "api/json.h"
#include "areas/agent_work/domain/claims.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/handoff/api/routes.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api::mcp {
namespace {

namespace json = boost::json;
using app::mcp::AgentCaller;
using app::mcp::McpDeps;

// ---- arguments (already checked against the tool's table) ----

std::optional<std::string> OptString(const json::object& a, std::string_view key) {
  const json::value* v = a.if_contains(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

std::string String(const json::object& a, std::string_view key) { return OptString(a, key).value_or(""); }

int64_t IntOr(const json::object& a, std::string_view key, int64_t def) {
  const json::value* v = a.if_contains(key);
  if (v == nullptr) return def;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64()) return static_cast<int64_t>(v->as_uint64());
  if (v->is_double()) return static_cast<int64_t>(v->as_double());
  return def;
}

bool BoolOr(const json::object& a, std::string_view key, bool def) {
  const json::value* v = a.if_contains(key);
  return v != nullptr && v->is_bool() ? v->as_bool() : def;
}

// An integer argument, or its default from the tool's table (0 when it has none).
int64_t IntArg(const domain::mcp::ToolSpec& tool, const json::object& a, std::string_view key) {
  int64_t def = 0;
  for (const auto& spec : tool.args) {
    if (spec.name == key && spec.default_value) def = *spec.default_value;
  }
  return IntOr(a, key, def);
}

// ---- answers ----

json::array Strings(const std::vector<std::string>& v) {
  json::array out;
  for (const auto& s : v) out.emplace_back(s);
  return out;
}

const char* SeverityName(int rank) {
  static constexpr const char* kNames[] = {nullptr, "low", "medium", "high", "critical"};
  return rank >= 1 && rank <= 4 ? kNames[rank] : "medium";
}

// A group of GET /v1/bugs/search, with the members an agent needs.
json::object GroupJson(const ports::GroupRecord& g, double score) {
  return json::object{{"groupKey", g.group_key},
                      {"projectId", g.project_id},
                      {"sampleBugId", g.sample_bug_id},
                      {"sampleTitle", g.sample_title},
                      {"sampleDescription", g.sample_description},
                      {"signatureCanonical", OptText(g.signature)},
                      {"status", g.status},
                      {"severity", SeverityName(g.max_severity_rank)},
                      {"instanceCount", g.instance_count},
                      {"reportCount", g.report_count},
                      {"userCount", g.user_count},
                      {"firstSeen", util::FormatIso8601(g.first_seen)},
                      {"lastSeen", util::FormatIso8601(g.last_seen)},
                      {"memberIds", Strings(g.member_ids)},
                      {"platforms", Strings(g.platforms)},
                      {"score", score}};
}

// An end user of GET /v1/bugs/:id/users.
json::object EndUserJson(const ports::EndUser& u) {
  return json::object{{"userKey", u.user_key},
                      {"kind", u.kind},
                      {"endUserId", OptText(u.end_user_id)},
                      {"email", OptText(u.email)},
                      {"firstSeen", util::FormatIso8601(u.first_seen)},
                      {"lastSeen", util::FormatIso8601(u.last_seen)},
                      {"occurrenceCount", u.occurrence_count},
                      {"platforms", Strings(u.platforms)},
                      {"lastRelease", OptText(u.last_release)},
                      {"lastEnvironment", OptText(u.last_environment)},
                      {"lastOccurrenceId", OptText(u.last_occurrence_id)}};
}

// An event of GET /v1/bugs/:id/events.
json::object EventJson(const app::bugs::BugEvent& e, const std::string& bug_id) {
  boost::system::error_code ec;
  json::value data = json::parse(e.data_json, ec);
  return json::object{{"id", e.id},
                      {"bug_id", bug_id},
                      {"occurrence_id", e.occurrence_id},
                      {"event_type", e.event_type},
                      {"timestamp", util::FormatIso8601(e.timestamp)},
                      {"data", ec ? json::value(nullptr) : std::move(data)}};
}

// The filters list_bugs and search_bugs share with GET /v1/bugs (issues and
// watches unless a status narrows further, as the HTTP list's default).
ports::BugFilter Filter(const json::object& a) {
  ports::BugFilter f;
  f.project_id = OptString(a, "projectId");
  if (f.project_id) *f.project_id = util::ToLower(*f.project_id);
  f.status = OptString(a, "status");
  f.severity = OptString(a, "severity");
  f.unresolved = BoolOr(a, "unresolved", false);
  f.signal_classes = {"issue", "watch"};
  if (auto search = OptString(a, "search"); search && !search->empty()) f.search = std::move(search);
  return f;
}

using ToolFn = std::function<Result<json::object>(const McpDeps&, const Context&, const AgentCaller&,
                                                  const domain::mcp::ToolSpec&, const json::object&)>;

Result<json::object> ListBugsTool(const McpDeps& deps, const Context&, const AgentCaller& caller,
                                  const domain::mcp::ToolSpec& tool, const json::object& a) {
  const int64_t limit = IntArg(tool, a, "limit");
  const int64_t offset = IntArg(tool, a, "offset");
  SV_ASSIGN_OR_RETURN(ports::BugPage page, app::mcp::ListBugs(deps, caller, Filter(a), limit, offset));
  json::array bugs;
  for (const auto& b : page.bugs) bugs.push_back(BugJson(b));
  return json::object{{"bugs", std::move(bugs)}, {"total", page.total}, {"limit", limit}, {"offset", offset}};
}

Result<json::object> SearchBugsTool(const McpDeps& deps, const Context&, const AgentCaller& caller,
                                    const domain::mcp::ToolSpec& tool, const json::object& a) {
  const std::string query(util::Trim(String(a, "q")));
  if (util::Utf8Length(query) < app::bugs::kSearchMinQuery) {
    return Status(Code::kInvalidArgument, "q must be at least 2 characters", "VALIDATION_ERROR");
  }
  const int64_t limit = IntArg(tool, a, "limit");
  SV_ASSIGN_OR_RETURN(app::bugs::SearchResult result,
                      app::mcp::SearchBugs(deps, caller, Filter(a), query, limit));
  json::array groups;
  for (const auto& g : result.groups) groups.push_back(GroupJson(g.group, g.score));
  return json::object{
      {"query", query}, {"groups", std::move(groups)}, {"total", result.total}, {"limit", limit}};
}

Result<json::object> GetBugTool(const McpDeps& deps, const Context& ctx, const AgentCaller& caller,
                                const domain::mcp::ToolSpec& tool, const json::object& a) {
  app::mcp::ReproLimits limits;
  limits.events = IntArg(tool, a, "eventLimit");
  limits.occurrences = IntArg(tool, a, "occurrenceLimit");
  limits.users = IntArg(tool, a, "userLimit");
  SV_ASSIGN_OR_RETURN(app::mcp::BugContext c,
                      app::mcp::GetBugContext(deps, caller, util::ToLower(String(a, "bugId")), limits,
                                              "mcp get_bug " + caller.token_id + " " + ctx.request_id));
  const ports::BugRecord& b = c.detail.bug;
  json::object bug = BugJson(b);
  json::array reporters;
  for (const auto& r : c.detail.reporters) {
    reporters.push_back(json::object{{"email", r.email},
                                     {"report_count", r.report_count},
                                     {"first_reported_at", util::FormatIso8601(r.first_reported_at)},
                                     {"last_reported_at", util::FormatIso8601(r.last_reported_at)}});
  }
  bug["reporters"] = std::move(reporters);
  bug["signature"] = OptText(b.signature);
  bug["groupKey"] = b.group_key;
  json::array events;
  for (const auto& e : c.events) events.push_back(EventJson(e, b.id));
  json::array occurrences;
  for (const auto& o : c.occurrences.occurrences) occurrences.push_back(OccurrenceJson(o));
  json::array users;
  for (const auto& u : c.users.users) users.push_back(EndUserJson(u));
  return json::object{{"bug", std::move(bug)},
                      {"events", std::move(events)},
                      {"occurrences", std::move(occurrences)},
                      {"occurrenceTotal", c.occurrences.total},
                      {"users", std::move(users)},
                      {"userTotal", c.users.total},
                      {"metered", c.charged}};
}

// list_evidence: GET /v1/evidence/projects/:projectId/occurrences/:occurrenceId/artifacts.
Result<json::object> ListEvidenceTool(const McpDeps& deps, const Context&, const AgentCaller& caller,
                                      const domain::mcp::ToolSpec& spec, const json::object& a) {
  domain::evidence::ListBounds bounds;
  bounds.limit = IntArg(spec, a, "limit");
  bounds.offset = IntArg(spec, a, "offset");
  SV_ASSIGN_OR_RETURN(app::evidence::ArtifactList list,
                      app::mcp::ListEvidence(deps, caller, util::ToLower(String(a, "projectId")),
                                             util::ToLower(String(a, "occurrenceId")), bounds));
  json::array artifacts;
  for (const auto& x : list.artifacts) artifacts.push_back(domain::evidence::ArtifactJson(x));
  return json::object{{"artifacts", std::move(artifacts)},
                      {"total", list.total},
                      {"limit", list.limit},
                      {"offset", list.offset}};
}

Status Unassembled(const std::string& capability) {
  return Status::Public(Code::kUnavailable, capability + " is not available on this server",
                        "CAPABILITY_UNAVAILABLE");
}

// claim_issue: POST /v1/agent-work/claims over the same use case and parser.
Result<json::object> ClaimTool(const McpDeps& deps, const Context&, const AgentCaller& caller,
                               const domain::mcp::ToolSpec&, const json::object& a) {
  if (deps.work == nullptr) return Unassembled("Work claims");
  SV_ASSIGN_OR_RETURN(domain::agent_work::ClaimInput in, domain::agent_work::ParseClaimInput(json::value(a)));
  SV_ASSIGN_OR_RETURN(app::agent_work::ClaimOutcome out,
                      app::agent_work::Claim(*deps.work, caller.WorkCaller(), in));
  return json::object{{"claim", domain::agent_work::ClaimJson(out.claim)}, {"replayed", out.replayed}};
}

// renew_claim, release_claim, complete_claim: POST /v1/agent-work/claims/*.
ToolFn LeaseTool(domain::agent_work::CommandKind kind) {
  return [kind](const McpDeps& deps, const Context&, const AgentCaller& caller, const domain::mcp::ToolSpec&,
                const json::object& a) -> Result<json::object> {
    if (deps.work == nullptr) return Unassembled("Work claims");
    SV_ASSIGN_OR_RETURN(domain::agent_work::LeaseInput in,
                        domain::agent_work::ParseLeaseInput(kind, json::value(a)));
    SV_ASSIGN_OR_RETURN(app::agent_work::ClaimOutcome out,
                        app::agent_work::LeaseCommand(*deps.work, caller.WorkCaller(), kind, in));
    return json::object{{"claim", domain::agent_work::ClaimJson(out.claim)}, {"replayed", out.replayed}};
  };
}

// listen_handoffs: GET /v1/projects/:id/agent-notifications (its answer).
Result<json::object> ListenTool(const McpDeps& deps, const Context&, const AgentCaller& caller,
                                const domain::mcp::ToolSpec&, const json::object& a) {
  if (deps.handoff == nullptr) return Unassembled("The agent handoff");
  SV_ASSIGN_OR_RETURN(app::handoff::ListenPage page,
                      app::handoff::Listen(*deps.handoff, caller.HandoffCaller(),
                                           util::ToLower(String(a, "projectId")), OptString(a, "after")));
  return ListenJson(page);
}

// ack_bug: POST /v1/bugs/:id/ack (its answer: the agent status and the
// agent_update it sent).
Result<json::object> AckTool(const McpDeps& deps, const Context&, const AgentCaller& caller,
                             const domain::mcp::ToolSpec&, const json::object& a) {
  if (deps.handoff == nullptr) return Unassembled("The agent handoff");
  app::handoff::AckRequest request;
  request.action = String(a, "action");
  request.pr_url = OptString(a, "prUrl");
  request.note = OptString(a, "note");
  SV_ASSIGN_OR_RETURN(
      app::handoff::AckResult r,
      app::handoff::Ack(*deps.handoff, caller.HandoffCaller(), util::ToLower(String(a, "bugId")), request));
  return AckJson(r);
}

const std::map<std::string, ToolFn, std::less<>>& ToolTable() {
  static const std::map<std::string, ToolFn, std::less<>> kTable = {
      {"list_bugs", ListBugsTool},
      {"search_bugs", SearchBugsTool},
      {"get_bug", GetBugTool},
      {"claim_issue", ClaimTool},
      {"renew_claim", LeaseTool(domain::agent_work::CommandKind::kRenew)},
      {"release_claim", LeaseTool(domain::agent_work::CommandKind::kRelease)},
      {"complete_claim", LeaseTool(domain::agent_work::CommandKind::kComplete)},
      {"listen_handoffs", ListenTool},
      {"ack_bug", AckTool},
      {"list_evidence", ListEvidenceTool},
  };
  return kTable;
}

json::object TextContent(const json::object& body) {
  return json::object{{"type", "text"}, {"text", json::serialize(body)}};
}

}  // namespace

json::object CallTool(const McpDeps& deps, const Context& ctx, const AgentCaller& caller,
                      const domain::mcp::ToolSpec& tool, const json::object& arguments) {
  const auto& table = ToolTable();
  const auto it = table.find(tool.name);
  Result<json::object> r = it != table.end()
                               ? it->second(deps, ctx, caller, tool, arguments)
                               : Result<json::object>(Internal("tool without an implementation"));
  if (r.ok()) {
    return json::object{
        {"content", json::array{TextContent(*r)}}, {"structuredContent", *r}, {"isError", false}};
  }
  const Status& s = r.status();
  const int http = HttpStatusFor(s.code());
  json::object body;
  if (s.is_public()) {
    body["error"] = s.message();
    if (!s.error_code().empty()) body["code"] = s.error_code();
    body["status"] = http;
    if (!s.payload_json().empty()) {
      boost::system::error_code ec;
      json::value payload = json::parse(s.payload_json(), ec);
      if (!ec && payload.is_object()) {
        for (const auto& kv : payload.as_object()) body[kv.key()] = kv.value();
      }
    }
  } else {
    body["error"] = kInternalServerError;
    body["status"] = http;
    body["requestId"] = ctx.request_id;
    if (deps.log != nullptr) {
      deps.log->Log(LogLevel::kError, "mcp tool failed",
                    {{"requestId", ctx.request_id}, {"tool", tool.name}, {"error", s.ToString()}});
    }
  }
  return json::object{{"content", json::array{TextContent(body)}}, {"isError", true}};
}

}  // namespace service::api::mcp
