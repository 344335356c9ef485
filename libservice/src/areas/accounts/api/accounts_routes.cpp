// /v1/auth/* (Spec 1 "Auth"): every route under the auth rate limit.
#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "areas/accounts/api/account_fields.h"
#include "areas/accounts/api/routes.h"
#include "areas/accounts/app/accounts.h"
#include "areas/accounts/domain/validation.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {

namespace {

constexpr RateClass kAuth = RateClass::kAuth;

json::object TokensJson(const app::accounts::SessionTokens& t) {
  return {{"accessToken", t.access_token}, {"refreshToken", t.refresh_token}};
}

Response WorkspaceResponse(const app::accounts::Workspace& ws) {
  json::object body = TokensJson(ws.tokens);
  body["user"] = UserJson(ws.user);
  body["org"] =
      json::object{{"id", ws.org.id}, {"name", ws.org.name}, {"slug", ws.org.slug}, {"plan", ws.org.plan}};
  // A signup that joined an operator's organization made no project.
  if (ws.project.id.empty()) return JsonResponse(201, body);
  body["project"] = json::object{{"id", ws.project.id},
                                 {"name", ws.project.name},
                                 {"slug", ws.project.slug},
                                 {"platform", ws.project.platform},
                                 {"project_number", ws.project.project_number}};
  body["apiKey"] = ws.project.api_key;
  body["dsn"] = ws.project.dsn;
  return JsonResponse(201, body);
}

json::object Success(std::string_view message) { return {{"success", true}, {"message", message}}; }

// A required string field whose absence has its own message in the spec
// ("Token is required", "Refresh token required", "Email is required").
std::optional<std::string> RequiredString(const json::value& body, std::string_view field) {
  const json::object* o = body.if_object();
  if (!o) return std::nullopt;
  auto s = StringField(*o, field);
  if (!s || util::Trim(*s).empty()) return std::nullopt;
  return util::Trim(*s);
}

Response Register(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::accounts::RegisterInput in;
  auto email = EmailField(v, "email");
  auto password = PasswordField(v, "password");
  auto name = NameField(v, "name");
  auto org_name = NameField(v, "orgName");
  if (!v.ok()) return ValidationFailed(v.details());
  auto ws = app::accounts::Register(deps, {*email, *password, *name, *org_name});
  if (!ws.ok()) return StatusResponse(ws.status());
  return WorkspaceResponse(*ws);
}

Response Waitlist(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto email = EmailField(v, "email");
  auto name = NameField(v, "name");
  auto org_name = NameField(v, "orgName");
  auto use_case = v.String("useCase", StringRule{.max = domain::accounts::kMaxUseCaseChars});
  if (!v.ok()) return ValidationFailed(v.details());
  std::optional<std::string> use_case_text;
  if (use_case) {
    auto text =
        domain::accounts::ValidateOptionalText(*use_case, "useCase", domain::accounts::kMaxUseCaseChars);
    if (!text.ok()) {
      v.AddError("useCase", text.status().message());
      return ValidationFailed(v.details());
    }
    if (!text->empty()) use_case_text = *text;
  }
  auto out = app::accounts::JoinWaitlist(deps, {*email, *name, *org_name, use_case_text});
  if (!out.ok()) return StatusResponse(out.status());
  const bool approved = out->status == "approved";
  return JsonResponse(
      out->accepted ? 202 : 200,
      json::object{{"success", true},
                   {"status", out->status},
                   {"message", approved ? "Your request is approved: check your email for the "
                                          "signup link"
                                        : "You are on the waitlist; we will email you once your "
                                          "request is approved"}});
}

Response Approval(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto info = app::accounts::InspectApproval(deps, ctx.params.Get("token"));
  if (!info.ok()) return StatusResponse(info.status());
  return JsonResponse(
      200, json::object{{"email", info->email}, {"name", info->name}, {"orgName", info->org_name}});
}

Response CompleteSignup(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto token = v.String("token", StringRule{.required = true, .max = 256});
  auto name = NameField(v, "name");
  auto password = PasswordField(v, "password");
  if (!v.ok()) return ValidationFailed(v.details());
  auto ws = app::accounts::CompleteSignup(deps, *token, *name, *password);
  if (!ws.ok()) return StatusResponse(ws.status());
  return WorkspaceResponse(*ws);
}

Response Login(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto email = EmailField(v, "email");
  auto password = v.String("password", StringRule{.required = true, .max = 1024});
  if (!v.ok()) return ValidationFailed(v.details());
  auto out = app::accounts::Login(deps, *email, *password);
  if (!out.ok()) return StatusResponse(out.status());
  json::object b = TokensJson(out->tokens);
  b["user"] = json::object{{"id", out->user.id}, {"email", out->user.email}, {"name", out->user.name}};
  if (out->org) {
    b["org"] = json::object{{"id", out->org->org_id}, {"name", out->org->org_name}, {"role", out->org->role}};
  } else {
    b["org"] = nullptr;
  }
  return JsonResponse(200, b);
}

Response InvitationInvalid() {
  return ErrorResponse(400, "Invalid or expired invitation", json::object{{"code", "INVITATION_INVALID"}});
}

Response InspectInvitation(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  auto token = RequiredString(*body, "token");
  if (!token) return InvitationInvalid();
  auto info = app::accounts::InspectInvitation(deps, *token);
  if (!info.ok()) return StatusResponse(info.status());
  return JsonResponse(200, json::object{{"orgName", info->org_name},
                                        {"email", info->email},
                                        {"expiresAt", util::FormatIso8601(info->expires_at)}});
}

Response AcceptInvitation(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto token = v.String("token", StringRule{.required = true, .max = 256});
  auto email = EmailField(v, "email");
  auto password = PasswordField(v, "newPassword");
  if (!v.ok()) return ValidationFailed(v.details());
  auto out = app::accounts::AcceptInvitation(deps, *token, *email, *password);
  if (!out.ok()) return StatusResponse(out.status());
  return JsonResponse(200,
                      json::object{{"success", true},
                                   {"orgId", out->org_id},
                                   {"orgName", out->org_name},
                                   {"message", out->activated ? "Invitation accepted: you can sign in now"
                                                              : "Invitation accepted: the organization was "
                                                                "added to your account"}});
}

Response ApiKeySession(Context&) {
  return ErrorResponse(410, "Capture-key sessions are retired: sign in with your email and password",
                       json::object{{"code", "CAPTURE_KEY_SESSION_RETIRED"}});
}

Response Refresh(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  auto token = RequiredString(*body, "refreshToken");
  if (!token) return ErrorResponse(400, "Refresh token required");
  auto out = app::accounts::Refresh(deps, *token);
  if (!out.ok()) return StatusResponse(out.status());
  return JsonResponse(200, TokensJson(*out));
}

// GET /v1/auth/agent-context (Spec 1; agent tokens only): the token's
// organization, its creator's current role there and the token's scopes. A
// mismatched X-Service-Org is refused by the authenticator (403).
Response AgentContext(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto p = app::accounts::GetProfile(deps, ctx.principal.user_id);
  if (!p.ok()) return StatusResponse(p.status());
  for (const auto& o : p->orgs) {
    if (o.org_id != ctx.principal.org_id) continue;
    json::array scopes;
    for (const std::string& scope : ctx.principal.scopes) scopes.emplace_back(scope);
    return JsonResponse(200, json::object{{"orgId", o.org_id},
                                          {"orgName", o.org_name},
                                          {"role", ctx.principal.role},
                                          {"scopes", std::move(scopes)}});
  }
  return ErrorResponse(401, "Missing or invalid token");  // the creator left between the checks
}

Response Me(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto p = app::accounts::GetProfile(deps, ctx.principal.user_id);
  if (!p.ok()) return StatusResponse(p.status());
  json::object b = UserJson(p->user);
  json::array orgs;
  for (const auto& o : p->orgs) {
    orgs.push_back(json::object{
        {"orgId", o.org_id}, {"role", o.role}, {"orgName", o.org_name}, {"orgSlug", o.org_slug}});
  }
  b["orgs"] = std::move(orgs);
  b["isSuperAdmin"] = p->superadmin;
  return JsonResponse(200, b);
}

Response ForgotPassword(const app::accounts::AccountsDeps& deps, bool show_token, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  if (!RequiredString(*body, "email")) return ErrorResponse(400, "Email is required");
  Validator v(*body);
  auto email = EmailField(v, "email");
  if (!v.ok()) return ValidationFailed(v.details());
  auto token = app::accounts::ForgotPassword(deps, *email);
  if (!token.ok()) return StatusResponse(token.status());
  json::object b = Success("If an account exists for this email, a password reset link has been sent");
  // Outside production the token is shown (development and tests have no mailbox).
  if (show_token && *token) b["token"] = **token;
  return JsonResponse(200, b);
}

Response ResetPassword(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto token = v.String("token", StringRule{.required = true, .max = 256});
  auto email = EmailField(v, "email");
  auto password = PasswordField(v, "newPassword");
  if (!v.ok()) return ValidationFailed(v.details());
  Status s = app::accounts::ResetPassword(deps, *token, *email, *password);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, Success("Password updated: sign in with your new password"));
}

Response SendVerification(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto out = app::accounts::SendVerification(deps, ctx.principal.user_id);
  if (!out.ok()) return StatusResponse(out.status());
  if (out->already_verified) return JsonResponse(200, Success("Email already verified"));
  json::object b = Success("Verification email sent");
  b["maskedEmail"] = out->masked_email;
  return JsonResponse(200, b);
}

Response ResendVerification(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto email = EmailField(v, "email");
  if (!v.ok()) return ValidationFailed(v.details());
  auto masked = app::accounts::ResendVerification(deps, *email);
  if (!masked.ok()) return StatusResponse(masked.status());
  json::object b = Success("If this email needs verification, a new link has been sent");
  b["maskedEmail"] = *masked;
  return JsonResponse(200, b);
}

Response VerifyEmail(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  auto token = RequiredString(*body, "token");
  if (!token) return ErrorResponse(400, "Token is required");
  Status s = app::accounts::VerifyEmail(deps, *token);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

Response WhatsNew(const app::accounts::AccountsDeps& deps, Context& ctx) {
  const std::string org = util::ToLower(util::Trim(ctx.req.headers.Get("X-Service-Org")));
  if (org.empty()) return JsonResponse(200, json::object{{"items", json::array()}});
  if (!util::IsUuid(org)) return ErrorResponse(403, "Not a member of this organization");
  auto out = app::accounts::GetWhatsNew(deps, ctx.principal.user_id, ctx.principal.session_id, org);
  if (!out.ok()) return StatusResponse(out.status());
  if (out->first_login)
    return JsonResponse(200, json::object{{"items", json::array()}, {"firstLogin", true}});
  json::array items;
  for (const auto& i : out->feed.items) {
    items.push_back(json::object{{"type", i.type},
                                 {"id", i.bug_id},
                                 {"title", i.title},
                                 {"severity", i.severity},
                                 {"ts", util::FormatIso8601(i.ts)}});
  }
  return JsonResponse(200, json::object{{"items", std::move(items)},
                                        {"since", util::FormatIso8601(out->since)},
                                        {"counts", json::object{{"newBugs", out->feed.new_bugs},
                                                                {"regressions", out->feed.regressions},
                                                                {"resolved", out->feed.resolved}}}});
}

Response SwitchOrg(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  auto org_id = v.String("orgId", StringRule{.required = true, .uuid = true});
  if (!v.ok()) return ValidationFailed(v.details());
  auto out =
      app::accounts::SwitchOrg(deps, ctx.principal.user_id, util::ToLower(*org_id), ctx.principal.session_id);
  if (!out.ok()) return StatusResponse(out.status());
  json::object b = TokensJson(out->tokens);
  b["org"] = json::object{{"id", out->org.org_id}, {"name", out->org.org_name}, {"slug", out->org.org_slug}};
  b["role"] = out->org.role;
  return JsonResponse(200, b);
}

Response RequestDataExport(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto expires = app::accounts::RequestDataExport(deps, ctx.principal.user_id);
  if (!expires.ok()) return StatusResponse(expires.status());
  json::object b = Success("We are emailing you a link to download your data");
  b["expiresAt"] = util::FormatIso8601(*expires);
  return JsonResponse(202, b);
}

Response DownloadDataExport(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto e = app::accounts::DownloadDataExport(deps, ctx.params.Get("token"));
  if (!e.ok()) return StatusResponse(e.status());
  json::object user = UserJson(e->user);
  user["status"] = e->user.status;
  user["created_at"] = util::FormatIso8601(e->user.created_at);
  user["last_login_at"] = OptTime(e->user.last_login_at);
  json::array memberships;
  for (const auto& o : e->orgs) {
    memberships.push_back(json::object{{"orgId", o.org_id},
                                       {"orgName", o.org_name},
                                       {"role", o.role},
                                       {"joinedAt", util::FormatIso8601(o.joined_at)}});
  }
  json::array comments;
  for (const auto& c : e->data.comments) {
    comments.push_back(json::object{{"id", c.id},
                                    {"bug_id", c.bug_id},
                                    {"org_id", c.org_id},
                                    {"content", c.content},
                                    {"created_at", util::FormatIso8601(c.created_at)}});
  }
  json::array notifications;
  for (const auto& n : e->data.notifications) {
    notifications.push_back(json::object{{"id", n.id},
                                         {"org_id", n.org_id},
                                         {"type", n.type},
                                         {"title", n.title},
                                         {"body", n.body},
                                         {"bug_id", n.bug_id ? json::value(*n.bug_id) : json::value(nullptr)},
                                         {"read", n.read},
                                         {"created_at", util::FormatIso8601(n.created_at)}});
  }
  json::array preferences;
  for (const auto& p : e->data.preferences) {
    preferences.push_back(
        json::object{{"orgId", p.org_id},
                     {"emailLevel", p.email_level},
                     {"chatEnabled", p.chat_enabled},
                     {"chatWebhook", p.chat_webhook ? json::value(*p.chat_webhook) : json::value(nullptr)},
                     {"inAppEnabled", p.in_app_enabled},
                     {"digestFreq", p.digest_freq},
                     {"updatedAt", util::FormatIso8601(p.updated_at)}});
  }
  json::array watching;
  for (const auto& w : e->data.watching) {
    watching.push_back(json::object{
        {"bug_id", w.bug_id}, {"org_id", w.org_id}, {"since", util::FormatIso8601(w.created_at)}});
  }
  json::array assigned;
  for (const auto& a : e->data.assigned_bugs) {
    assigned.push_back(
        json::object{{"id", a.bug_id}, {"org_id", a.org_id}, {"title", a.title}, {"status", a.status}});
  }
  Response r = JsonResponse(200, json::object{{"exportedAt", util::FormatIso8601(e->exported_at)},
                                              {"user", std::move(user)},
                                              {"memberships", std::move(memberships)},
                                              {"comments", std::move(comments)},
                                              {"notifications", std::move(notifications)},
                                              {"notificationPreferences", std::move(preferences)},
                                              {"watching", std::move(watching)},
                                              {"assignedBugs", std::move(assigned)}});
  r.headers.Set("Content-Disposition", "attachment; filename=\"account-data.json\"");
  r.headers.Set("Cache-Control", "no-store");
  return r;
}

Response RequestDeletion(const app::accounts::AccountsDeps& deps, Context& ctx) {
  auto expires = app::accounts::RequestAccountDeletion(deps, ctx.principal.user_id);
  if (!expires.ok()) return StatusResponse(expires.status());
  json::object b = Success("We are emailing you a link to confirm the deletion of your account");
  b["expiresAt"] = util::FormatIso8601(*expires);
  return JsonResponse(202, b);
}

Response ConfirmDeletion(const app::accounts::AccountsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  auto token = RequiredString(*body, "token");
  if (!token) return ErrorResponse(400, "Token is required");
  auto out = app::accounts::ConfirmAccountDeletion(deps, *token);
  if (!out.ok()) return StatusResponse(out.status());
  json::array orgs;
  for (const auto& id : out->deleted_org_ids) orgs.push_back(json::value(id));
  return JsonResponse(200, json::object{{"success", true},
                                        {"deleted", out->user_id},
                                        {"deletedOrganizations", std::move(orgs)},
                                        {"message", "Your account and its data were deleted"}});
}

}  // namespace

void RegisterAuthRoutes(Pipeline& p, const app::accounts::AccountsDeps& deps, bool production) {
  Router& r = p.router();
  r.Add("POST", "/v1/auth/register", kAuth, AuthMode::kNone, Bind(deps, Register));
  r.Add("POST", "/v1/auth/waitlist", kAuth, AuthMode::kNone, Bind(deps, Waitlist));
  r.Add("GET", "/v1/auth/approval/:token", kAuth, AuthMode::kNone, Bind(deps, Approval));
  r.Add("POST", "/v1/auth/complete-signup", kAuth, AuthMode::kNone, Bind(deps, CompleteSignup));
  r.Add("POST", "/v1/auth/login", kAuth, AuthMode::kNone, Bind(deps, Login));
  r.Add("POST", "/v1/auth/invitations/inspect", kAuth, AuthMode::kNone, Bind(deps, InspectInvitation));
  r.Add("POST", "/v1/auth/invitations/accept", kAuth, AuthMode::kNone, Bind(deps, AcceptInvitation));
  r.Add("POST", "/v1/auth/api-key-session", kAuth, AuthMode::kNone, ApiKeySession);
  r.Add("POST", "/v1/auth/refresh", kAuth, AuthMode::kNone, Bind(deps, Refresh));
  r.Add("GET", "/v1/auth/me", kAuth, AuthMode::kJwt, Bind(deps, Me));
  r.Add("GET", "/v1/auth/agent-context", kAuth, AuthMode::kAgentToken, Bind(deps, AgentContext));
  r.Add("POST", "/v1/auth/forgot-password", kAuth, AuthMode::kNone,
        [&deps, show = !production](Context& ctx) { return ForgotPassword(deps, show, ctx); });
  r.Add("POST", "/v1/auth/reset-password", kAuth, AuthMode::kNone, Bind(deps, ResetPassword));
  r.Add("POST", "/v1/auth/send-verification", kAuth, AuthMode::kJwt, Bind(deps, SendVerification));
  r.Add("POST", "/v1/auth/resend-verification", kAuth, AuthMode::kNone, Bind(deps, ResendVerification));
  r.Add("POST", "/v1/auth/verify-email", kAuth, AuthMode::kNone, Bind(deps, VerifyEmail));
  // JWT with an optional workspace: without X-Service-Org the feed is empty.
  r.Add("GET", "/v1/auth/whats-new", kAuth, AuthMode::kJwt, Bind(deps, WhatsNew));
  r.Add("POST", "/v1/auth/switch-org", kAuth, AuthMode::kJwt, Bind(deps, SwitchOrg));
  r.Add("POST", "/v1/auth/data-export", kAuth, AuthMode::kJwt, Bind(deps, RequestDataExport));
  r.Add("GET", "/v1/auth/data-export/:token", kAuth, AuthMode::kNone, Bind(deps, DownloadDataExport));
  r.Add("POST", "/v1/auth/data-delete/request", kAuth, AuthMode::kJwt, Bind(deps, RequestDeletion));
  r.Add("POST", "/v1/auth/data-delete/confirm", kAuth, AuthMode::kNone, Bind(deps, ConfirmDeletion));
}

}  // namespace service::api
