// The bearer authenticator (Spec 1 "Authentication"): console access tokens
// for JWT, JWT+Org and superadmin routes. Every request re-reads the account
// (active, same session revision) and, on organization routes, the caller's
// membership of X-Service-Org, then the route's required capability.
//
//   no or malformed token, refresh token, retired session  401
//   account lookup failed                                  503 AUTH_UNAVAILABLE
//   organization route without X-Service-Org               400 Organization ID required
//   not a member, role without the capability, not a
//   superadmin (verified email on the allowlist; agent
//   tokens and capture keys on superadmin routes)          403
//
// Support sessions (server contract "Support sessions"): on an organization
// route, a request carrying X-Service-Support-Session acts under that
// session whether or not the caller is a member: the caller must be a
// superadmin and the session theirs, for X-Service-Org, neither ended nor
// expired (AccountsDeps::check_support_session, the support area's, which
// also logs the request: method and route pattern, at authentication time);
// then the role is "admin" and Principal::support_session_id names the
// session. Otherwise 403 (an ended or expired session says so, with the
// codes SUPPORT_SESSION_ENDED and SUPPORT_SESSION_EXPIRED). Routes without
// an organization ignore the header. Without it a superadmin is an
// ordinary user.
//
// Agent tokens (Spec 2 "Authentication" 2-3, server contract "Agent
// tokens"): an `Authorization: Bearer sv_pat_...` opens only routes of
// AuthMode::kAgentToken and kJwtOrgOrAgent. Every call asks
// AccountsDeps::check_agent_token (the agent tokens area: token, creator,
// membership and grants read again, no cache); the Principal is then
// kAgent with the creator's user id, email, organization and current role,
// key_id the token's id, and the token's scopes and granted projects. The
// token names its organization: X-Service-Org is not needed, and one that
// names another organization is 403; so is X-Service-Support-Session. The
// route's capability applies to the creator's role. On every other route an
// agent token is refused like any bad token (401; 403 on superadmin
// routes), and a human bearer on a kAgentToken route is 401.
//
// X-Agent-Token (the tickets' development-only credential): a
// kJwtOrgOrAgent request under /v1/tickets carrying it and no bearer
// reaches the route, whose AgentGate checks it (tickets_routes.cpp).
#include "api/context.h"
#include "api/pipeline.h"
#include "areas/accounts/app/accounts.h"
#include "domain/roles.h"
#include "util/strings.h"

namespace service::api {

std::string BearerToken(const Request& req) {
  const std::string* h = req.headers.Find("Authorization");
  if (!h) return {};
  const std::string_view v = *h;
  constexpr std::string_view kScheme = "bearer ";
  if (v.size() <= kScheme.size() || !util::EqualsIgnoreCase(v.substr(0, kScheme.size()), kScheme)) return {};
  return util::Trim(v.substr(kScheme.size()));
}

namespace {

constexpr std::string_view kAgentTokenPrefix = "sv_pat_";

// The route's capability for `role` (the membership's or the token creator's).
Status CheckCapability(const Context& ctx, const std::string& role) {
  if (ctx.route && ctx.route->capability) {
    const auto parsed = domain::ParseRole(role);
    if (!parsed || !domain::Can(*parsed, *ctx.route->capability))
      return PermissionDenied("Insufficient permissions");
  }
  return Status::Ok();
}

Status AuthenticateAgent(const app::accounts::AccountsDeps& deps, Context& ctx, const std::string& token) {
  if (!deps.check_agent_token) return Unauthenticated("Missing or invalid token");
  auto caller = deps.check_agent_token(token);
  if (!caller.ok()) return caller.status();
  const std::string org_header = util::ToLower(util::Trim(ctx.req.headers.Get("X-Service-Org")));
  if (!org_header.empty() && org_header != caller->org_id) {
    return PermissionDenied("This agent token belongs to another organization");
  }
  if (ctx.req.headers.Has("X-Service-Support-Session")) {
    return PermissionDenied("Support sessions are for superadmins");
  }
  Principal& p = ctx.principal;
  p.kind = Principal::Kind::kAgent;
  p.user_id = std::move(caller->user_id);
  p.email = std::move(caller->email);
  p.org_id = std::move(caller->org_id);
  p.role = std::move(caller->role);
  p.key_id = std::move(caller->token_id);
  p.scopes = std::move(caller->scopes);
  p.granted_projects = std::move(caller->granted_projects);
  return CheckCapability(ctx, p.role);
}

Status Authenticate(const app::accounts::AccountsDeps& deps, Context& ctx, AuthMode mode) {
  const Status missing = Unauthenticated("Missing or invalid token");
  const std::string token = BearerToken(ctx.req);
  const bool agent_token = util::StartsWith(token, kAgentTokenPrefix);
  // Spec 2 "Superadmin": everyone but a superadmin gets 403 there, agent
  // tokens and capture keys included.
  if (mode == AuthMode::kSuperadmin &&
      (agent_token || (token.empty() && ctx.req.headers.Has("X-Service-Key")))) {
    return PermissionDenied("Superadmin access required");
  }
  const bool agent_route = mode == AuthMode::kAgentToken || mode == AuthMode::kJwtOrgOrAgent;
  if (token.empty()) {
    // The tickets' X-Agent-Token: their AgentGate decides (see above).
    if (mode == AuthMode::kJwtOrgOrAgent && ctx.route &&
        util::StartsWith(ctx.route->pattern, "/v1/tickets") && ctx.req.headers.Has("X-Agent-Token")) {
      return Status::Ok();
    }
    return missing;
  }
  if (agent_token) return agent_route ? AuthenticateAgent(deps, ctx, token) : missing;
  // A human bearer on a route for agent tokens only.
  if (mode == AuthMode::kAgentToken) return missing;

  const bool org_route = mode == AuthMode::kJwtOrg || mode == AuthMode::kJwtOrgOrAgent;
  const std::string org_header = util::ToLower(util::Trim(ctx.req.headers.Get("X-Service-Org")));
  const bool org_usable = org_route && util::IsUuid(org_header);

  auto caller = app::accounts::AuthenticateAccess(deps, token, org_usable ? &org_header : nullptr);
  if (!caller.ok()) return caller.status();

  Principal& p = ctx.principal;
  p.kind = Principal::Kind::kUser;
  p.user_id = caller->user.id;
  p.email = caller->user.email;
  p.session_id = caller->session_id;
  p.superadmin = app::accounts::IsSuperadmin(deps, caller->user);

  if (mode == AuthMode::kSuperadmin && !p.superadmin) return PermissionDenied("Superadmin access required");
  if (!org_route) return Status::Ok();

  if (org_header.empty()) return InvalidArgument("Organization ID required");
  const std::string support = util::ToLower(util::Trim(ctx.req.headers.Get("X-Service-Support-Session")));
  if (!support.empty()) {
    if (!p.superadmin) return PermissionDenied("Support sessions are for superadmins");
    if (!org_usable || !util::IsUuid(support) || !deps.check_support_session) {
      return PermissionDenied("Support session not found for this organization");
    }
    SV_RETURN_IF_ERROR(deps.check_support_session(app::accounts::SupportSessionRequest{
        support, org_header, p.user_id, ctx.req.method, ctx.route ? ctx.route->pattern : std::string()}));
    p.org_id = org_header;
    p.role = "admin";
    p.support_session_id = support;
  } else {
    if (!caller->membership) return PermissionDenied("Not a member of this organization");
    p.org_id = caller->membership->org_id;
    p.role = caller->membership->role;
  }
  return CheckCapability(ctx, p.role);
}

}  // namespace

Status AuthenticateBearer(const app::accounts::AccountsDeps& deps, Context& ctx, AuthMode mode) {
  return Authenticate(deps, ctx, mode);
}

void RegisterBearerAuthenticator(Pipeline& p, const app::accounts::AccountsDeps& deps) {
  p.SetBearerAuthenticator([&deps](Context& ctx, AuthMode mode) { return Authenticate(deps, ctx, mode); });
}

}  // namespace service::api
