// Agent tokens (Spec 2 "Agent tokens (JWT+Org)", server contract "Agent
// tokens"), admins and managers (Capability::kManageAgentTokens):
//   GET    /v1/org/agent-pats       200 {agentPats[agentPat]}, newest first
//   POST   /v1/org/agent-pats       201 {agentPat, token}; body {name?, scopes,
//                                   expiresAt, projectGrants?[{projectId, expiresAt?}]}
//   PATCH  /v1/org/agent-pats/:id   200 {agentPat}; body any of {name, scopes,
//                                   expiresAt, projectGrants} plus expectedRevision?
//   DELETE /v1/org/agent-pats/:id   200 {success, agentPat} (revoked)
// agentPat = {id, name, prefix, scopes, expiresAt, projectGrants[{projectId,
// expiresAt}], accessRevision, createdAt, revokedAt, lastUsedAt, createdBy}; a
// grant without its own expiry shows the token's. Bodies are strict: an
// unknown member is 400. Agent tokens themselves are refused (JWT+Org: 401).
#include <algorithm>
#include <boost/json.hpp>

#include "api/context.h"
#include "api/json.h"
#include "api/validate.h"
#include "areas/agent_tokens/api/routes.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace dat = domain::agent_tokens;
using app::agent_tokens::AgentTokensDeps;

app::ConsoleActor ActorOf(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

json::value OptTime(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}

json::object TokenJson(const ports::AgentToken& t) {
  json::array scopes;
  for (const std::string& s : t.scopes) scopes.emplace_back(s);
  json::array grants;
  for (const dat::Grant& g : t.grants) {
    grants.push_back(json::object{{"projectId", g.project_id},
                                  {"expiresAt", util::FormatIso8601(dat::EffectiveExpiry(g, t.expires_at))}});
  }
  return json::object{{"id", t.id},
                      {"name", t.name},
                      {"prefix", t.prefix},
                      {"scopes", std::move(scopes)},
                      {"expiresAt", util::FormatIso8601(t.expires_at)},
                      {"projectGrants", std::move(grants)},
                      {"accessRevision", t.access_revision},
                      {"createdAt", util::FormatIso8601(t.created_at)},
                      {"revokedAt", OptTime(t.revoked_at)},
                      {"lastUsedAt", OptTime(t.last_used_at)},
                      {"createdBy", t.created_by}};
}

void RejectUnknown(Validator& v, std::initializer_list<std::string_view> allowed) {
  const json::object* o = v.body();
  if (o == nullptr) return;
  for (const auto& [key, unused] : *o) {
    if (std::find(allowed.begin(), allowed.end(), std::string_view(key)) == allowed.end()) {
      v.AddError(std::string(key), "unknown field");
    }
  }
}

// An ISO 8601 time field; absent: nullopt (an error when required).
std::optional<int64_t> TimeField(Validator& v, const json::object* o, std::string_view field, bool required) {
  const json::value* value = o ? Field(*o, field) : nullptr;
  if (value == nullptr || value->is_null()) {
    if (required) v.AddError(field, "is required");
    return std::nullopt;
  }
  if (!value->is_string()) {
    v.AddError(field, "must be an ISO 8601 date-time");
    return std::nullopt;
  }
  std::optional<int64_t> t = util::ParseIso8601(value->get_string());
  if (!t) v.AddError(field, "must be an ISO 8601 date-time");
  return t;
}

std::optional<std::vector<std::string>> ScopesField(Validator& v, bool required) {
  const json::array* a = v.Array("scopes", required, dat::kScopes.size());
  if (a == nullptr) return std::nullopt;
  std::vector<std::string> out;
  for (const json::value& s : *a) {
    if (!s.is_string() || !dat::IsKnownScope(s.get_string())) {
      v.AddError("scopes", "each scope must be one of the known scopes");
      return std::nullopt;
    }
    const std::string name(s.get_string());
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  if (out.empty()) {
    v.AddError("scopes", "must name at least one scope");
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<dat::Grant>> GrantsField(Validator& v) {
  const json::array* a = v.Array("projectGrants", false, dat::kMaxGrants);
  if (a == nullptr) return std::nullopt;
  std::vector<dat::Grant> out;
  for (const json::value& item : *a) {
    const json::object* o = item.if_object();
    if (o == nullptr) {
      v.AddError("projectGrants", "each grant must be an object {projectId, expiresAt?}");
      return std::nullopt;
    }
    for (const auto& [key, unused] : *o) {
      if (key != "projectId" && key != "expiresAt") {
        v.AddError("projectGrants", "unknown field " + std::string(key));
        return std::nullopt;
      }
    }
    const json::value* id = Field(*o, "projectId");
    if (id == nullptr || !id->is_string() || !util::IsUuid(id->get_string())) {
      v.AddError("projectGrants", "projectId must be a project id");
      return std::nullopt;
    }
    dat::Grant g;
    g.project_id = util::ToLower(id->get_string());
    g.expires_at = TimeField(v, o, "expiresAt", false);
    if (!v.ok()) return std::nullopt;
    for (const dat::Grant& seen : out) {
      if (seen.project_id == g.project_id) {
        v.AddError("projectGrants", "a project is granted twice");
        return std::nullopt;
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::optional<std::string> NameField(Validator& v) {
  StringRule rule;
  rule.max = dat::kMaxNameLength;
  std::optional<std::string> name = TextField(v, "name", rule);
  if (name) name = util::Trim(*name);
  return name;
}

Response HandleList(const AgentTokensDeps& deps, Context& ctx) {
  auto tokens = app::agent_tokens::ListTokens(deps, ActorOf(ctx));
  if (!tokens.ok()) return StatusResponse(tokens.status());
  json::array list;
  for (const ports::AgentToken& t : *tokens) list.push_back(TokenJson(t));
  return JsonResponse(200, json::object{{"agentPats", std::move(list)}});
}

Response HandleCreate(const AgentTokensDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  RejectUnknown(v, {"name", "scopes", "expiresAt", "projectGrants"});
  app::agent_tokens::NewToken in;
  in.name = NameField(v).value_or("");
  std::optional<std::vector<std::string>> scopes = ScopesField(v, true);
  std::optional<int64_t> expires_at = TimeField(v, v.body(), "expiresAt", true);
  std::optional<std::vector<dat::Grant>> grants = GrantsField(v);
  if (!v.ok()) return ValidationFailed(v.details());
  in.scopes = std::move(*scopes);
  in.expires_at = *expires_at;
  if (grants) in.grants = std::move(*grants);
  auto created = app::agent_tokens::CreateToken(deps, ActorOf(ctx), in);
  if (!created.ok()) return StatusResponse(created.status());
  return JsonResponse(201, json::object{{"agentPat", TokenJson(created->token)}, {"token", created->secret}});
}

// The path's id, or "" when it cannot be one (reads as 404).
std::string PathId(const Context& ctx) {
  std::string id = util::ToLower(ctx.params.Get("id"));
  return util::IsUuid(id) ? id : std::string();
}

Response HandlePatch(const AgentTokensDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Agent token not found");
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  RejectUnknown(v, {"name", "scopes", "expiresAt", "projectGrants", "expectedRevision"});
  app::agent_tokens::TokenPatch patch;
  patch.name = NameField(v);
  patch.scopes = ScopesField(v, false);
  patch.expires_at = TimeField(v, v.body(), "expiresAt", false);
  patch.grants = GrantsField(v);
  StringRule revision;
  revision.max = 200;
  patch.expected_revision = v.String("expectedRevision", revision);
  if (!v.ok()) return ValidationFailed(v.details());
  if (!patch.name && !patch.scopes && !patch.expires_at && !patch.grants) {
    return ErrorResponse(400, "No fields to update");
  }
  auto t = app::agent_tokens::UpdateToken(deps, ActorOf(ctx), id, patch);
  if (!t.ok()) return StatusResponse(t.status());
  return JsonResponse(200, json::object{{"agentPat", TokenJson(*t)}});
}

Response HandleRevoke(const AgentTokensDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Agent token not found");
  auto t = app::agent_tokens::RevokeToken(deps, ActorOf(ctx), id);
  if (!t.ok()) return StatusResponse(t.status());
  return JsonResponse(200, json::object{{"success", true}, {"agentPat", TokenJson(*t)}});
}

}  // namespace

void RegisterAgentTokenRoutes(Pipeline& p, const AgentTokensDeps& deps) {
  Router& r = p.router();
  using domain::Capability;
  // The use cases check the capability again for embedders that call them.
  r.Add("GET", "/v1/org/agent-pats", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageAgentTokens,
        Bind(deps, HandleList));
  r.Add("POST", "/v1/org/agent-pats", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageAgentTokens,
        Bind(deps, HandleCreate));
  r.Add("PATCH", "/v1/org/agent-pats/:id", RateClass::kGeneral, AuthMode::kJwtOrg,
        Capability::kManageAgentTokens, Bind(deps, HandlePatch));
  r.Add("DELETE", "/v1/org/agent-pats/:id", RateClass::kGeneral, AuthMode::kJwtOrg,
        Capability::kManageAgentTokens, Bind(deps, HandleRevoke));
}

}  // namespace service::api
