// Triage writes (Spec 1 "Bugs: write", JWT+Org):
//   PATCH  /v1/bugs/bulk                   {success, updated}          update_bugs
//   POST   /v1/bugs/merge                  {success, targetId, mergedCount}  merge_bugs
//   PATCH  /v1/bugs/:id                    {success: true}             update_bugs
//   DELETE /v1/bugs/:id                    {success, deleted}          delete_bugs
//   POST   /v1/bugs/:id/comments           201 comment                 comment
//   POST   /v1/bugs/:id/watch              {watching: true}            view_bugs
//   DELETE /v1/bugs/:id/watch              {watching: false}           view_bugs
//   POST   /v1/bugs/:id/analyze            {analysis, stats}           analyze_bugs
//   POST   /v1/bugs/:id/events/:eventId/ai {assessment, mode}          analyze_bugs
#include <boost/json.hpp>
#include <set>

#include "api/json.h"
#include "api/validate.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/capture/domain/vocabulary.h"
#include "areas/triage/api/routes.h"
#include "areas/triage/app/triage.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
using app::triage::TriageDeps;

// status, severity, assignedTo and note of a PATCH body; 400s per Spec 1.
Result<app::triage::BugPatch> ParsePatch(const json::object& o) {
  app::triage::BugPatch patch;
  if (const json::value* v = o.if_contains("status"); v && !v->is_null()) {
    if (!v->is_string() || !domain::capture::IsBugStatus(v->get_string()))
      return InvalidArgument("Invalid status");
    patch.status = std::string(v->get_string());
  }
  if (const json::value* v = o.if_contains("severity"); v && !v->is_null()) {
    if (!v->is_string() || !domain::capture::IsSeverity(v->get_string())) {
      return InvalidArgument("Invalid severity");
    }
    patch.severity = std::string(v->get_string());
  }
  if (const json::value* v = o.if_contains("note"); v && !v->is_null()) {
    if (!v->is_string() || util::Utf8Length(v->get_string()) > app::triage::kMaxNoteLength) {
      return InvalidArgument("note must be a string of at most " +
                             std::to_string(app::triage::kMaxNoteLength) + " characters");
    }
    patch.note = std::string(v->get_string());
  }
  if (const json::value* v = o.if_contains("assignedTo")) {
    if (v->is_null()) {
      patch.assigned_to = std::optional<std::string>();
    } else if (v->is_string()) {
      // A malformed id is rejected by the use case with the same 400 as a
      // non-member (Spec 1: one ASSIGNEE_INVALID for all of them).
      patch.assigned_to = std::optional<std::string>(util::ToLower(std::string(v->get_string())));
    } else {
      patch.assigned_to = std::optional<std::string>(std::string("malformed"));
    }
  }
  return patch;
}

const json::object* BodyObject(const json::value* body) { return body ? body->if_object() : nullptr; }

Response HandlePatch(const TriageDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  const json::object* o = BodyObject(body);
  if (!o) return ErrorResponse(400, "Validation failed");
  SV_ASSIGN_OR_RESPOND(app::triage::BugPatch patch, ParsePatch(*o));
  Status s = app::triage::UpdateBug(deps, Actor(ctx), ctx.params.Get("id"), patch);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

// An array of at most kMaxBulkSelectors strings; absent or null: empty.
Result<std::vector<std::string>> StringList(const json::object& o, std::string_view key, bool uuids) {
  std::vector<std::string> out;
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return out;
  const std::string name(key);
  if (!v->is_array()) return InvalidArgument(name + " must be an array");
  if (v->get_array().size() > app::triage::kMaxBulkSelectors) {
    return InvalidArgument(name + " may hold at most " + std::to_string(app::triage::kMaxBulkSelectors) +
                           " entries");
  }
  for (const json::value& e : v->get_array()) {
    if (!e.is_string() || e.get_string().empty() || e.get_string().size() > 200) {
      return InvalidArgument(name + " must hold non-empty strings");
    }
    std::string s(e.get_string());
    if (uuids) {
      s = util::ToLower(s);
      if (!util::IsUuid(s)) return InvalidArgument(name + " must hold bug ids");
    }
    out.push_back(std::move(s));
  }
  return out;
}

Response HandleBulk(const TriageDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  const json::object* o = BodyObject(body);
  if (!o) return ErrorResponse(400, "Validation failed");
  app::triage::BulkSelection sel;
  SV_ASSIGN_OR_RESPOND(sel.ids, StringList(*o, "ids", true));
  SV_ASSIGN_OR_RESPOND(sel.group_keys, StringList(*o, "groupKeys", false));
  if (const json::value* v = o->if_contains("groupRefs"); v && !v->is_null()) {
    if (!v->is_array()) return ErrorResponse(400, "groupRefs must be an array of {projectId, groupKey}");
    if (v->get_array().size() > app::triage::kMaxBulkSelectors) {
      return ErrorResponse(
          400, "groupRefs may hold at most " + std::to_string(app::triage::kMaxBulkSelectors) + " entries");
    }
    for (const json::value& e : v->get_array()) {
      const json::object* ref = e.if_object();
      const json::value* p = ref ? ref->if_contains("projectId") : nullptr;
      const json::value* k = ref ? ref->if_contains("groupKey") : nullptr;
      if (!p || !k || !p->is_string() || !k->is_string() ||
          !util::IsUuid(util::ToLower(std::string(p->get_string()))) || k->get_string().empty() ||
          k->get_string().size() > 200) {
        return ErrorResponse(400, "groupRefs must be an array of {projectId, groupKey}");
      }
      sel.group_refs.push_back({util::ToLower(std::string(p->get_string())), std::string(k->get_string())});
    }
  }
  if (sel.ids.empty() && sel.group_refs.empty() && sel.group_keys.empty()) {
    return ErrorResponse(400, "Give ids, groupRefs or groupKeys");
  }
  SV_ASSIGN_OR_RESPOND(app::triage::BugPatch patch, ParsePatch(*o));
  if (!patch.status && !patch.severity && !patch.assigned_to) {
    return ErrorResponse(400, "Give status, severity or assignedTo");
  }
  patch.note.reset();  // a bulk change carries no note
  auto updated = app::triage::BulkUpdate(deps, Actor(ctx), sel, patch);
  if (!updated.ok()) return StatusResponse(updated.status());
  return JsonResponse(200, json::object{{"success", true}, {"updated", *updated}});
}

Response HandleDelete(const TriageDeps& deps, Context& ctx) {
  const std::string id = ctx.params.Get("id");
  Status s = app::triage::DeleteBug(deps, Actor(ctx), id);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}, {"deleted", id}});
}

Response HandleMerge(const TriageDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  const json::object* o = BodyObject(body);
  if (!o) return ErrorResponse(400, "Validation failed");
  const json::value* target = o->if_contains("targetId");
  const json::value* sources = o->if_contains("sourceIds");
  if (!target || !target->is_string() || target->get_string().empty() || !sources || !sources->is_array() ||
      sources->get_array().empty()) {
    return ErrorResponse(400, "sourceIds and targetId are required");
  }
  const std::string target_id = util::ToLower(std::string(target->get_string()));
  std::vector<std::string> ids;
  std::set<std::string> seen;
  for (const json::value& v : sources->get_array()) {
    if (!v.is_string() || v.get_string().empty()) return ErrorResponse(400, "sourceIds must hold bug ids");
    std::string id = util::ToLower(std::string(v.get_string()));
    if (id == target_id) return ErrorResponse(400, "The target cannot be one of the sources");
    if (seen.insert(id).second) ids.push_back(std::move(id));
  }
  if (ids.size() > app::triage::kMaxMergeSources) {
    return ErrorResponse(
        400, "At most " + std::to_string(app::triage::kMaxMergeSources) + " bugs can be merged at once");
  }
  auto merged = app::triage::MergeBugs(deps, Actor(ctx), target_id, ids);
  if (!merged.ok()) return StatusResponse(merged.status());
  return JsonResponse(200,
                      json::object{{"success", true}, {"targetId", target_id}, {"mergedCount", *merged}});
}

Response HandleComment(const TriageDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  const json::object* o = BodyObject(body);
  const json::value* content = o ? o->if_contains("content") : nullptr;
  if (!content || !content->is_string() || util::Trim(content->get_string()).empty()) {
    return ErrorResponse(400, "Content is required");
  }
  if (util::Utf8Length(content->get_string()) > app::triage::kMaxCommentLength) {
    return ErrorResponse(
        400, "Content must be at most " + std::to_string(app::triage::kMaxCommentLength) + " characters");
  }
  auto c =
      app::triage::AddComment(deps, Actor(ctx), ctx.params.Get("id"), std::string(content->get_string()));
  if (!c.ok()) return StatusResponse(c.status());
  return JsonResponse(201, json::object{{"id", c->id},
                                        {"bug_id", c->bug_id},
                                        {"user_id", c->user_id},
                                        {"user_name", OptText(c->user_name)},
                                        {"user_email", OptText(c->user_email)},
                                        {"content", c->content},
                                        {"created_at", util::FormatIso8601(c->created_at)}});
}

Response HandleWatch(const TriageDeps& deps, Context& ctx) {
  const bool watch = ctx.req.method == "POST";
  Status s = app::triage::SetWatching(deps, Actor(ctx), ctx.params.Get("id"), watch);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"watching", watch}});
}

Response HandleAnalyze(const TriageDeps& deps, Context& ctx) {
  auto a = app::triage::AnalyzeBug(deps, Actor(ctx), ctx.params.Get("id"));
  if (!a.ok()) return StatusResponse(a.status());
  json::array anomalies;
  for (const auto& t : a->stats.anomalies) anomalies.emplace_back(t);
  return JsonResponse(200,
                      json::object{{"analysis", json::parse(a->analysis_json)},
                                   {"stats", json::object{{"total_events", a->stats.total_events},
                                                          {"errors", a->stats.errors},
                                                          {"network", a->stats.network},
                                                          {"console", a->stats.console},
                                                          {"user_actions", a->stats.user_actions},
                                                          {"anomalies", std::move(anomalies)},
                                                          {"duration_seconds", a->stats.duration_seconds}}}});
}

Response HandleEventAi(const TriageDeps& deps, Context& ctx) {
  auto mode = EnumParam(ctx, "mode", [](const std::string& m) { return m == "explain" || m == "fix"; });
  if (!mode.ok()) return StatusResponse(mode.status());
  const std::string m = mode->value_or("explain");
  auto a = app::triage::AssessEvent(deps, Actor(ctx), ctx.params.Get("id"), ctx.params.Get("eventId"), m);
  if (!a.ok()) return StatusResponse(a.status());
  return JsonResponse(200, json::object{{"assessment", *a}, {"mode", m}});
}

}  // namespace

void RegisterTriageRoutes(Pipeline& p, const app::triage::TriageDeps& deps) {
  using domain::Capability;
  Router& r = p.router();
  const auto add = [&](const char* method, const char* pattern, Capability cap,
                       Response (*fn)(const TriageDeps&, Context&)) {
    r.Add(method, pattern, RateClass::kGeneral, AuthMode::kJwtOrg, cap, Bind(deps, fn));
  };
  add("PATCH", "/v1/bugs/bulk", Capability::kUpdateBugs, HandleBulk);
  add("POST", "/v1/bugs/merge", Capability::kMergeBugs, HandleMerge);
  add("PATCH", "/v1/bugs/:id", Capability::kUpdateBugs, HandlePatch);
  add("DELETE", "/v1/bugs/:id", Capability::kDeleteBugs, HandleDelete);
  add("POST", "/v1/bugs/:id/comments", Capability::kComment, HandleComment);
  add("POST", "/v1/bugs/:id/watch", Capability::kViewBugs, HandleWatch);
  add("DELETE", "/v1/bugs/:id/watch", Capability::kViewBugs, HandleWatch);
  add("POST", "/v1/bugs/:id/analyze", Capability::kAnalyzeBugs, HandleAnalyze);
  add("POST", "/v1/bugs/:id/events/:eventId/ai", Capability::kAnalyzeBugs, HandleEventAi);
}

}  // namespace service::api
