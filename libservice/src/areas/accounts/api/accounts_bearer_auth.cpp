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
// Agent tokens (sv_pat_...) are refused with 401 until agent tokens exist.
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

Status Authenticate(const app::accounts::AccountsDeps& deps, Context& ctx, AuthMode mode) {
  const Status missing = Unauthenticated("Missing or invalid token");
  const std::string token = BearerToken(ctx.req);
  // Spec 2 "Superadmin": everyone but a superadmin gets 403 there, agent
  // tokens and capture keys included.
  if (mode == AuthMode::kSuperadmin &&
      (util::StartsWith(token, "sv_pat_") || (token.empty() && ctx.req.headers.Has("X-Service-Key")))) {
    return PermissionDenied("Superadmin access required");
  }
  if (token.empty()) return missing;
  // Agent tokens come with Spec 2's agent work; until then they open nothing.
  if (mode == AuthMode::kAgentToken || util::StartsWith(token, "sv_pat_")) return missing;

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
  if (ctx.route && ctx.route->capability) {
    const auto role = domain::ParseRole(p.role);
    if (!role || !domain::Can(*role, *ctx.route->capability))
      return PermissionDenied("Insufficient permissions");
  }
  return Status::Ok();
}

}  // namespace

void RegisterBearerAuthenticator(Pipeline& p, const app::accounts::AccountsDeps& deps) {
  p.SetBearerAuthenticator([&deps](Context& ctx, AuthMode mode) { return Authenticate(deps, ctx, mode); });
}

}  // namespace service::api
