// Triage reads (Spec 1 "Bugs: read", JWT+Org, capability kViewBugs):
//   GET /v1/bugs                      {bugs[bug rows], total, limit, offset}
//   GET /v1/bugs/search               {query, groups[group rows + score], total, limit}
//   GET /v1/bugs/:id                  bug row + reporters, recent_occurrences, counts,
//                                     groupingV3, duplicateCandidates
//   GET /v1/bugs/:id/occurrences      {occurrences, total, limit, offset}
//   GET /v1/bugs/:id/events           {events}
//   GET /v1/bugs/:id/history          {history}
//   GET /v1/bugs/:id/comments         {comments}
//   GET /v1/bugs/:id/watching         {watching}
// Query parameters follow the one-value rule (QueryParams::One): a repeated
// or array-form scalar is 400 naming it.
//
// Agent tokens (server contract "Agent tokens"; Authorization: Bearer
// sv_pat_..., no X-Service-Org needed) may call the list, the grouped list,
// search, one bug, its occurrences and its events with the read_bugs scope
// (403 SCOPE_REQUIRED), on granted projects only (bug_params.h
// ParseBugFilter, AgentBugGate). Spec 2 "Limits": an agent's event read with
// limit above 1 (the default is 100) costs 2 prepaid credits unless the
// plan includes agent access; at a balance below 2 it answers 402
// credits_exhausted and no events. The other routes here refuse agent
// tokens (401).
#include <boost/json.hpp>
#include <charconv>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/agent_tokens/app/agent_tokens.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/bugs/api/routes.h"
#include "areas/bugs/app/bugs.h"
#include "areas/bugs/app/search.h"
#include "areas/capture/domain/vocabulary.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
using app::bugs::BugsDeps;

Response HandleList(const BugsDeps& deps, Context& ctx) {
  auto filter = ParseBugFilter(ctx);
  if (!filter.ok()) return StatusResponse(filter.status());
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultPageSize, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto offset = IntParam(ctx, "offset", 0, 0, INT64_MAX);
  if (!offset.ok()) return StatusResponse(offset.status());
  auto page = app::bugs::ListBugs(deps, *filter, *limit, *offset);
  if (!page.ok()) return StatusResponse(page.status());
  json::array bugs;
  for (const auto& b : page->bugs) bugs.push_back(BugJson(b));
  return JsonResponse(
      200, json::object{
               {"bugs", std::move(bugs)}, {"total", page->total}, {"limit", *limit}, {"offset", *offset}});
}

json::array Strings(const std::vector<std::string>& v) {
  json::array out;
  for (const auto& s : v) out.emplace_back(s);
  return out;
}

const char* SeverityName(int rank) {
  static constexpr const char* kNames[] = {nullptr, "low", "medium", "high", "critical"};
  return rank >= 1 && rank <= 4 ? kNames[rank] : "medium";
}

json::object GroupJson(const ports::GroupRecord& g) {
  return json::object{{"groupKey", g.group_key},
                      {"projectId", g.project_id},
                      {"projectName", g.project_name},
                      {"sampleBugId", g.sample_bug_id},
                      {"sampleTitle", g.sample_title},
                      {"sampleDescription", g.sample_description},
                      {"signatureCanonical", OptText(g.signature)},
                      {"signalReason", g.signal_reason},
                      {"status", g.status},
                      {"severity", SeverityName(g.max_severity_rank)},
                      {"instanceCount", g.instance_count},
                      {"reportCount", g.report_count},
                      {"occurrenceCount", g.occurrence_count},
                      {"sessionCount", g.session_count},
                      {"userCount", g.user_count},
                      {"anyRegression", g.any_regression},
                      {"firstSeen", util::FormatIso8601(g.first_seen)},
                      {"lastSeen", util::FormatIso8601(g.last_seen)},
                      {"memberIds", Strings(g.member_ids)},
                      {"platforms", Strings(g.platforms)},
                      {"assignees", Strings(g.assignees)},
                      {"signalClasses", Strings(g.signal_classes)},
                      {"groupingV3", StoredJson(g.grouping_v3_json)},
                      {"duplicateCandidateCount", g.duplicate_candidate_count}};
}

Result<ports::GroupSort> ParseGroupSort(const std::string& s) {
  using ports::GroupSort;
  static const std::pair<const char*, GroupSort> kSorts[] = {
      {"last_seen", GroupSort::kLastSeen}, {"first_seen", GroupSort::kFirstSeen},
      {"count", GroupSort::kCount},        {"severity", GroupSort::kSeverity},
      {"title", GroupSort::kTitle},        {"signal", GroupSort::kSignal},
      {"assignee", GroupSort::kAssignee}};
  for (const auto& [name, sort] : kSorts) {
    if (s == name) return sort;
  }
  return BadParam("Invalid sort");
}

Response HandleGroups(const BugsDeps& deps, Context& ctx) {
  auto filter = ParseBugFilter(ctx);
  if (!filter.ok()) return StatusResponse(filter.status());
  auto sort_name = Param(ctx, "sort");
  if (!sort_name.ok()) return StatusResponse(sort_name.status());
  auto sort = ParseGroupSort(sort_name->value_or("last_seen"));
  if (!sort.ok()) return StatusResponse(sort.status());
  auto direction =
      EnumParam(ctx, "direction", [](const std::string& s) { return s == "asc" || s == "desc"; });
  if (!direction.ok()) return StatusResponse(direction.status());
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultPageSize, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto offset = IntParam(ctx, "offset", 0, 0, INT64_MAX);
  if (!offset.ok()) return StatusResponse(offset.status());
  const bool descending = direction->value_or("desc") == "desc";
  auto page = app::bugs::ListGroups(deps, *filter, *sort, descending, *limit, *offset);
  if (!page.ok()) return StatusResponse(page.status());
  json::array groups;
  for (const auto& g : page->groups) groups.push_back(GroupJson(g));
  return JsonResponse(200, json::object{{"groups", std::move(groups)},
                                        {"total", page->total},
                                        {"limit", *limit},
                                        {"offset", *offset},
                                        {"sort", sort_name->value_or("last_seen")},
                                        {"direction", descending ? "desc" : "asc"}});
}

// GET /v1/bugs/search?q= (alias search) plus the grouped list's filters.
Response HandleSearch(const BugsDeps& deps, Context& ctx) {
  auto filter = ParseBugFilter(ctx);
  if (!filter.ok()) return StatusResponse(filter.status());
  auto q = Param(ctx, "q");
  if (!q.ok()) return StatusResponse(q.status());
  std::optional<std::string> raw = *q;
  if (filter->search) {
    if (raw) return StatusResponse(BadParam("Give q or search, not both"));
    raw = std::move(filter->search);
    filter->search.reset();
  }
  const std::string query(util::Trim(raw.value_or("")));
  const size_t length = util::Utf8Length(query);
  if (length < app::bugs::kSearchMinQuery) {
    return StatusResponse(
        BadParam("q must be at least " + std::to_string(app::bugs::kSearchMinQuery) + " characters"));
  }
  if (length > app::bugs::kSearchMaxQuery) {
    return StatusResponse(
        BadParam("q must be at most " + std::to_string(app::bugs::kSearchMaxQuery) + " characters"));
  }
  auto limit = IntParam(ctx, "limit", app::bugs::kSearchDefaultLimit, 1, app::bugs::kSearchMaxLimit);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto result = app::bugs::SearchGroups(deps, *filter, query, *limit);
  if (!result.ok()) return StatusResponse(result.status());
  json::array groups;
  for (const auto& g : result->groups) {
    json::object o = GroupJson(g.group);
    o["score"] = g.score;
    groups.push_back(std::move(o));
  }
  return JsonResponse(
      200, json::object{
               {"query", query}, {"groups", std::move(groups)}, {"total", result->total}, {"limit", *limit}});
}

Response HandleGroupInstances(const BugsDeps& deps, Context& ctx) {
  auto project = UuidParam(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultPageSize, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto offset = IntParam(ctx, "offset", 0, 0, INT64_MAX);
  if (!offset.ok()) return StatusResponse(offset.status());
  const std::string key = ctx.params.Get("groupKey");
  auto r = app::bugs::ListGroupInstances(deps, Actor(ctx), key, *project, *limit, *offset);
  if (!r.ok()) return StatusResponse(r.status());
  json::array bugs;
  for (const auto& b : r->page.bugs) bugs.push_back(BugJson(b));
  return JsonResponse(200, json::object{{"groupKey", key},
                                        {"projectId", r->project_id},
                                        {"bugs", std::move(bugs)},
                                        {"total", r->page.total},
                                        {"limit", *limit},
                                        {"offset", *offset}});
}

Response HandleGet(const BugsDeps& deps, Context& ctx) {
  auto d = app::bugs::GetBug(deps, Actor(ctx), ctx.params.Get("id"));
  if (!d.ok()) return StatusResponse(d.status());
  json::object o = BugJson(d->bug);
  json::array reporters;
  for (const auto& r : d->reporters) {
    reporters.push_back(json::object{{"email", r.email},
                                     {"report_count", r.report_count},
                                     {"first_reported_at", util::FormatIso8601(r.first_reported_at)},
                                     {"last_reported_at", util::FormatIso8601(r.last_reported_at)}});
  }
  json::array recent;
  for (const auto& occ : d->recent_occurrences) recent.push_back(OccurrenceJson(occ));
  json::array candidates;
  for (const auto& c : d->duplicate_candidates) {
    candidates.push_back(json::object{{"id", c.id},
                                      {"otherIssueId", c.other_bug_id},
                                      {"otherTitle", c.other_title},
                                      {"score", c.score},
                                      {"reason", c.reason},
                                      {"confidence", c.confidence},
                                      {"algorithmVersion", c.algorithm_version},
                                      {"state", c.state},
                                      {"createdAt", util::FormatIso8601(c.created_at)}});
  }
  o["reporters"] = std::move(reporters);
  o["recent_occurrences"] = std::move(recent);
  // The counters capture and merge keep over the occurrence and participant
  // rows (occurrence_count is already among the bug's fields).
  o["session_count"] = d->bug.affected_session_count;
  o["affected_user_count"] = d->bug.affected_user_count;
  o["groupingV3"] = StoredJson(d->bug.grouping_v3_json);
  o["duplicateCandidates"] = std::move(candidates);
  // The verification area's promotion (README "Verification"): its id while
  // the bug is verified fixed; `verification` also shows an unproven one.
  const auto& fix = d->verified_fix;
  o["active_verification_promotion_id"] =
      fix && fix->state == "verified_fixed" ? json::value(fix->promotion_id) : json::value(nullptr);
  if (fix) {
    json::array receipts;
    for (const auto& id : fix->receipt_ids) receipts.emplace_back(id);
    o["verification"] =
        json::object{{"state", fix->state},
                     {"promotionId", fix->promotion_id},
                     {"promotedAt", util::FormatIso8601(fix->promoted_at)},
                     {"reason", fix->reason ? json::value(*fix->reason) : json::value(nullptr)},
                     {"receiptIds", std::move(receipts)}};
  } else {
    o["verification"] = nullptr;
  }
  return JsonResponse(200, o);
}

Response HandleOccurrences(const BugsDeps& deps, Context& ctx) {
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultPageSize, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto offset = IntParam(ctx, "offset", 0, 0, INT64_MAX);
  if (!offset.ok()) return StatusResponse(offset.status());
  auto user_key = Param(ctx, "userKey");
  if (!user_key.ok()) return StatusResponse(user_key.status());
  auto page = app::bugs::ListOccurrences(deps, Actor(ctx), ctx.params.Get("id"), *user_key, *limit, *offset);
  if (!page.ok()) return StatusResponse(page.status());
  json::array list;
  for (const auto& occ : page->occurrences) list.push_back(OccurrenceJson(occ));
  return JsonResponse(
      200,
      json::object{
          {"occurrences", std::move(list)}, {"total", page->total}, {"limit", *limit}, {"offset", *offset}});
}

Response HandleEvents(const BugsDeps& deps, const app::agent_tokens::AgentTokensDeps* agents, Context& ctx) {
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultEventLimit, 1, app::bugs::kMaxEventLimit);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto type = Param(ctx, "type");
  if (!type.ok()) return StatusResponse(type.status());
  auto occurrence = Param(ctx, "occurrenceId");
  if (!occurrence.ok()) return StatusResponse(occurrence.status());
  auto events = app::bugs::ListEvents(deps, Actor(ctx), ctx.params.Get("id"), *type, *occurrence, *limit);
  if (!events.ok()) return StatusResponse(events.status());
  if (IsAgent(ctx.principal)) {
    if (agents == nullptr) return StatusResponse(Internal("agent tokens are not wired to the bug reads"));
    const Status charged =
        app::agent_tokens::ChargeEventRead(*agents, ctx.principal.org_id, ctx.principal.key_id, *limit);
    if (!charged.ok()) return StatusResponse(charged);
  }
  const std::string bug_id = ctx.params.Get("id");
  json::array list;
  for (const auto& e : *events) {
    boost::system::error_code ec;
    json::value data = json::parse(e.data_json, ec);
    list.push_back(json::object{{"id", e.id},
                                {"bug_id", bug_id},
                                {"occurrence_id", e.occurrence_id},
                                {"event_type", e.event_type},
                                {"timestamp", util::FormatIso8601(e.timestamp)},
                                {"data", ec ? json::value(nullptr) : std::move(data)}});
  }
  return JsonResponse(200, json::object{{"events", std::move(list)}});
}

Response HandleHistory(const BugsDeps& deps, Context& ctx) {
  auto history = app::bugs::ListHistory(deps, Actor(ctx), ctx.params.Get("id"));
  if (!history.ok()) return StatusResponse(history.status());
  json::array list;
  for (const auto& h : *history) {
    list.push_back(json::object{{"id", h.id},
                                {"old_status", OptText(h.old_status)},
                                {"new_status", h.new_status},
                                {"note", OptText(h.note)},
                                {"changed_at", util::FormatIso8601(h.changed_at)},
                                {"changed_by_name", OptText(h.changed_by_name)},
                                {"changed_by_email", OptText(h.changed_by_email)}});
  }
  return JsonResponse(200, json::object{{"history", std::move(list)}});
}

Response HandleComments(const BugsDeps& deps, Context& ctx) {
  auto comments = app::bugs::ListComments(deps, Actor(ctx), ctx.params.Get("id"));
  if (!comments.ok()) return StatusResponse(comments.status());
  json::array list;
  for (const auto& c : *comments) {
    list.push_back(json::object{{"id", c.id},
                                {"bug_id", c.bug_id},
                                {"user_id", c.user_id},
                                {"user_name", OptText(c.user_name)},
                                {"user_email", OptText(c.user_email)},
                                {"content", c.content},
                                {"created_at", util::FormatIso8601(c.created_at)}});
  }
  return JsonResponse(200, json::object{{"comments", std::move(list)}});
}

Response HandleWatching(const BugsDeps& deps, Context& ctx) {
  auto watching = app::bugs::IsWatching(deps, Actor(ctx), ctx.params.Get("id"));
  if (!watching.ok()) return StatusResponse(watching.status());
  return JsonResponse(200, json::object{{"watching", *watching}});
}

}  // namespace

void RegisterBugsRoutes(Pipeline& p, const app::bugs::BugsDeps& deps,
                        const app::agent_tokens::AgentTokensDeps* agents) {
  Router& r = p.router();
  const auto add = [&](const char* pattern, Response (*fn)(const BugsDeps&, Context&)) {
    r.Add("GET", pattern, RateClass::kGeneral, AuthMode::kJwtOrg, domain::Capability::kViewBugs,
          Bind(deps, fn));
  };
  // Open to agent tokens: lists (their filter keeps to granted projects).
  const auto add_agent_list = [&](const char* pattern, Response (*fn)(const BugsDeps&, Context&)) {
    r.Add("GET", pattern, RateClass::kGeneral, AuthMode::kJwtOrgOrAgent, domain::Capability::kViewBugs,
          [&deps, fn](Context& ctx) {
            const Status gate = AgentReadGate(ctx);
            if (!gate.ok()) return StatusResponse(gate);
            return fn(deps, ctx);
          });
  };
  // Open to agent tokens: one bug of a granted project.
  const auto add_agent_bug = [&](const char* pattern, std::function<Response(Context&)> fn) {
    r.Add("GET", pattern, RateClass::kGeneral, AuthMode::kJwtOrgOrAgent, domain::Capability::kViewBugs,
          [&deps, fn](Context& ctx) {
            const Status gate = AgentBugGate(deps, ctx, ctx.params.Get("id"));
            if (!gate.ok()) return StatusResponse(gate);
            return fn(ctx);
          });
  };
  add_agent_list("/v1/bugs", HandleList);
  add_agent_list("/v1/bugs/groups", HandleGroups);
  add_agent_list("/v1/bugs/search", HandleSearch);
  add("/v1/bugs/groups/:groupKey/instances", HandleGroupInstances);
  add_agent_bug("/v1/bugs/:id", [&deps](Context& ctx) { return HandleGet(deps, ctx); });
  add_agent_bug("/v1/bugs/:id/occurrences", [&deps](Context& ctx) { return HandleOccurrences(deps, ctx); });
  add_agent_bug("/v1/bugs/:id/events",
                [&deps, agents](Context& ctx) { return HandleEvents(deps, agents, ctx); });
  add("/v1/bugs/:id/history", HandleHistory);
  add("/v1/bugs/:id/comments", HandleComments);
  add("/v1/bugs/:id/watching", HandleWatching);
}

}  // namespace service::api
