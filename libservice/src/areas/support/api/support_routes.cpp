// Support sessions (Spec 2 "Superadmin", server contract "Support sessions"):
//
//   POST   /v1/admin/support/session      superadmin  body {orgId}
//          201 {session{id, orgId, orgName, orgSlug, mode, expiresAt}};
//          400 orgId missing or not a UUID; 404 Organization not found
//   DELETE /v1/admin/support/session/:id  superadmin (the session's operator)
//          200 {success: true}; 404 Support session not found (unknown,
//          another operator's, ended already)
//   GET    /v1/org/support-sessions       JWT+Org, admins  ?limit (50, at most 200)
//          200 {sessions[{id, operatorEmail, mode, createdAt, expiresAt,
//          endedAt, active, requests, lastRequestAt}],
//          activity[{sessionId, method, path, ts}], limit}, newest first;
//          `path` is the route's pattern ("/v1/bugs/:id")
//
// Using a session is the bearer authenticator's (areas/accounts/api/
// accounts_bearer_auth.cpp): X-Service-Org plus X-Service-Support-Session.
#include <charconv>

#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "api/validate.h"
#include "areas/support/api/routes.h"
#include "areas/support/app/support.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

app::support::Operator OperatorOf(const Context& ctx) {
  return app::support::Operator{ctx.principal.user_id, ctx.principal.email};
}

app::ConsoleActor ActorOf(const Context& ctx) {
  return app::ConsoleActor{ctx.principal.user_id, ctx.principal.email, ctx.principal.org_id,
                           ctx.principal.role};
}

json::value OptTime(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}

Response HandleStart(const app::support::SupportDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  StringRule rule;
  rule.required = true;
  rule.uuid = true;
  const std::optional<std::string> org_id = v.String("orgId", rule);
  if (!v.ok()) return ErrorResponse(400, "orgId required", json::object{{"details", v.details()}});
  auto r = app::support::StartSession(deps, OperatorOf(ctx), util::ToLower(*org_id));
  if (!r.ok()) return StatusResponse(r.status());
  return JsonResponse(
      201,
      json::object{{"session", json::object{{"id", r->session.id},
                                            {"orgId", r->org.id},
                                            {"orgName", r->org.name},
                                            {"orgSlug", r->org.slug},
                                            {"mode", r->session.mode},
                                            {"expiresAt", util::FormatIso8601(r->session.expires_at)}}}});
}

Response HandleEnd(const app::support::SupportDeps& deps, Context& ctx) {
  const std::string id = util::ToLower(ctx.params.Get("id"));
  if (!util::IsUuid(id)) return ErrorResponse(404, "Support session not found");
  Status s = app::support::EndSession(deps, OperatorOf(ctx), id);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

// ?limit: an integer of at least 1, larger values taken as the maximum.
Result<int64_t> LimitParam(const Context& ctx) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, ctx.query.One("limit"));
  if (!raw) return app::support::kDefaultListLimit;
  int64_t n = 0;
  const char* end = raw->data() + raw->size();
  auto [p, ec] = std::from_chars(raw->data(), end, n);
  if (ec != std::errc() || p != end || n < 1)
    return InvalidArgument("limit must be an integer of at least 1");
  return std::min(n, app::support::kMaxListLimit);
}

Response HandleList(const app::support::SupportDeps& deps, Context& ctx) {
  auto limit = LimitParam(ctx);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto r = app::support::ListForOrg(deps, ActorOf(ctx), *limit);
  if (!r.ok()) return StatusResponse(r.status());
  const int64_t now = deps.Now();
  json::array sessions;
  for (const ports::SupportSession& s : r->sessions) {
    sessions.push_back(json::object{{"id", s.id},
                                    {"operatorEmail", s.operator_email},
                                    {"mode", s.mode},
                                    {"createdAt", util::FormatIso8601(s.created_at)},
                                    {"expiresAt", util::FormatIso8601(s.expires_at)},
                                    {"endedAt", OptTime(s.ended_at)},
                                    {"active", !s.ended_at && now < s.expires_at && !s.user_id.empty()},
                                    {"requests", s.request_count},
                                    {"lastRequestAt", OptTime(s.last_request_at)}});
  }
  json::array activity;
  for (const ports::SupportRequest& q : r->requests) {
    activity.push_back(json::object{{"sessionId", q.session_id},
                                    {"method", q.method},
                                    {"path", q.route},
                                    {"ts", util::FormatIso8601(q.at)}});
  }
  return JsonResponse(
      200,
      json::object{{"sessions", std::move(sessions)}, {"activity", std::move(activity)}, {"limit", *limit}});
}

}  // namespace

void RegisterSupportRoutes(Pipeline& p, const app::support::SupportDeps& deps) {
  Router& r = p.router();
  r.Add("POST", "/v1/admin/support/session", RateClass::kGeneral, AuthMode::kSuperadmin,
        Bind(deps, HandleStart));
  r.Add("DELETE", "/v1/admin/support/session/:id", RateClass::kGeneral, AuthMode::kSuperadmin,
        Bind(deps, HandleEnd));
  // The use case checks the role again for embedders that call it directly.
  r.Add("GET", "/v1/org/support-sessions", RateClass::kGeneral, AuthMode::kJwtOrg,
        domain::Capability::kManageSettings, Bind(deps, HandleList));
}

}  // namespace service::api
