// /v1/team (Spec 1 "Team"): member list, invitations, role changes and
// removal. JWT+Org; each route names the capability its caller's role needs.
#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "areas/accounts/api/account_fields.h"
#include "areas/accounts/api/routes.h"
#include "areas/accounts/app/team.h"
#include "domain/roles.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {

namespace {

const std::vector<std::string_view> kRoleNames = {"admin", "manager", "member", "tester", "viewer"};

app::accounts::TeamActor ActorOf(const Context& ctx) {
  return {ctx.principal.user_id, ctx.principal.org_id,
          domain::ParseRole(ctx.principal.role).value_or(domain::Role::kViewer)};
}

Response List(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto members = app::accounts::ListTeam(deps, ctx.principal.org_id);
  if (!members.ok()) return StatusResponse(members.status());
  json::array out;
  for (const auto& m : *members) {
    json::object o{{"id", m.user_id},
                   {"email", m.email},
                   {"name", m.name},
                   {"avatar_url", m.avatar_url ? json::value(*m.avatar_url) : json::value(nullptr)},
                   {"role", m.role},
                   {"state", m.status == "active"    ? "active"
                             : m.status == "pending" ? "pending"
                                                     : "deactivated"},
                   {"joinedAt", util::FormatIso8601(m.joined_at)},
                   {"lastLoginAt", OptTime(m.last_login_at)}};
    if (m.status == "pending") o["invitationExpiresAt"] = OptTime(m.invitation_expires_at);
    out.push_back(std::move(o));
  }
  const size_t total = out.size();
  return JsonResponse(200, json::object{{"members", std::move(out)}, {"total", total}});
}

Response Invite(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto email = EmailField(v, "email");
  auto role = v.String("role", StringRule{.one_of = &kRoleNames});
  auto org_id = v.String("orgId", StringRule{.required = true, .uuid = true});
  auto resend = v.Bool("resend");
  if (!v.ok()) return ValidationFailed(v.details());
  app::accounts::InviteInput in;
  in.email = *email;
  in.role = domain::ParseRole(role.value_or("member")).value_or(domain::Role::kMember);
  in.org_id = util::ToLower(*org_id);
  in.resend = resend.value_or(false);
  auto out = app::accounts::InviteMember(deps, ActorOf(ctx), in);
  if (!out.ok()) return StatusResponse(out.status());
  return JsonResponse(201,
                      json::object{{"success", true},
                                   {"userId", out->user_id},
                                   {"invitation", json::object{{"state", out->state},
                                                               {"emailStatus", out->email_status},
                                                               {"expiresAt", OptTime(out->expires_at)}}}});
}

Response ChangeRole(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto role = v.String("role", StringRule{.required = true, .one_of = &kRoleNames});
  if (!v.ok()) return ValidationFailed(v.details());
  const std::string user_id = util::ToLower(ctx.params.Get("userId"));
  if (!util::IsUuid(user_id)) return ErrorResponse(404, "Member not found");
  auto m = app::accounts::ChangeMemberRole(deps, ActorOf(ctx), user_id, *domain::ParseRole(*role));
  if (!m.ok()) return StatusResponse(m.status());
  return JsonResponse(
      200, json::object{{"success", true},
                        {"membership",
                         json::object{{"org_id", m->org_id}, {"user_id", m->user_id}, {"role", m->role}}}});
}

Response Remove(const app::accounts::AccountsDeps& deps, Context& ctx) {
  const std::string user_id = util::ToLower(ctx.params.Get("userId"));
  if (!util::IsUuid(user_id)) return ErrorResponse(404, "Member not found");
  Status s = app::accounts::RemoveMember(deps, ActorOf(ctx), user_id);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

}  // namespace

void RegisterTeamRoutes(Pipeline& p, const app::accounts::AccountsDeps& deps) {
  using domain::Capability;
  Router& r = p.router();
  r.Add("GET", "/v1/team", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kViewTeam, Bind(deps, List));
  r.Add("POST", "/v1/team/invite", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kInviteMembers,
        Bind(deps, Invite));
  r.Add("PATCH", "/v1/team/:userId", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageTeam,
        Bind(deps, ChangeRole));
  r.Add("DELETE", "/v1/team/:userId", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageTeam,
        Bind(deps, Remove));
}

}  // namespace service::api
