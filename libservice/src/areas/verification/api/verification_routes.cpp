// Verification (README "Verification"), under /v1/agent-work/verification:
//   organization admins (JWT + X-Service-Org, role admin; support sessions
//   act as admins; agent tokens 401):
//     POST /runners          201 {runner}
//     POST /devices          201 {device}
//     POST /runners/revoke   200 {runner}
//     POST /devices/revoke   200 {device}
//     GET  /enrollment?projectId=   200 {projectId, runners, devices}
//   agent tokens:
//     POST /challenges       201 {challenge}            submit_verification
//     POST /receipts         201 {receipt}              submit_verification
//     GET  /receipts/:receiptId?projectId=&issueId=    200 {receipt}   read_verification
//     GET  /receipts/:receiptId/evidence?projectId=&issueId=  200 {evidence}  request_evidence
//     POST /promote          200 {promotion, claim}     submit_verification + the live claim
//   members (JWT + X-Service-Org, view_bugs): GET /v1/bugs/:id/verification
//     200 {bugId, verification, receipts} (the console's bug page)
// Commands answer a replay with its first answer (status 200 instead of 201
// and `Idempotent-Replayed: true`). Bodies are strict JSON objects (400
// VALIDATION_ERROR with details).
#include <boost/json.hpp>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/agent_work/api/routes.h"
#include "areas/agent_work/domain/claims.h"
#include "areas/verification/api/routes.h"
#include "areas/verification/domain/verification.h"
#include "util/strings.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace dv = domain::verification;
using app::verification::VerificationDeps;

Response AnswerResponse(const app::verification::Answer& a) {
  Response r = JsonResponse(a.replayed && a.status == 201 ? 200 : a.status, a.body);
  if (a.replayed) r.headers.Set("Idempotent-Replayed", "true");
  return r;
}

Result<const json::value*> Body(Context& ctx) {
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) {
    return dv::ValidationError(
        json::array{json::object{{"field", "body"}, {"message", body.status().message()}}});
  }
  return body;
}

app::verification::AdminCaller AdminOf(const Context& ctx) {
  return app::verification::AdminCaller{ctx.principal.org_id, ctx.principal.user_id};
}

using AdminFn = Result<app::verification::Answer> (*)(const VerificationDeps&,
                                                      const app::verification::AdminCaller&,
                                                      const json::value&);
using AgentFn = Result<app::verification::Answer> (*)(const VerificationDeps&,
                                                      const app::agent_work::AgentCaller&,
                                                      const json::value&);

Response HandleAdmin(const VerificationDeps& deps, Context& ctx, AdminFn fn) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, Body(ctx));
  SV_ASSIGN_OR_RESPOND(app::verification::Answer a, fn(deps, AdminOf(ctx), *body));
  return AnswerResponse(a);
}

Response HandleAgent(const VerificationDeps& deps, Context& ctx, AgentFn fn, std::string_view scope) {
  if (!IsAgent(ctx.principal)) return StatusResponse(Unauthenticated("An agent token is required"));
  // The scope first: a token without it learns nothing about the body.
  if (!HasScope(ctx.principal, scope)) return StatusResponse(domain::agent_work::ScopeRequired(scope));
  SV_ASSIGN_OR_RESPOND(const json::value* body, Body(ctx));
  SV_ASSIGN_OR_RESPOND(app::verification::Answer a, fn(deps, AgentCallerOf(ctx.principal), *body));
  return AnswerResponse(a);
}

// Required single UUID query parameters, lower-cased; every problem listed.
Result<std::vector<std::string>> UuidQuery(Context& ctx, std::initializer_list<const char*> names) {
  json::array details;
  std::vector<std::string> out;
  for (const char* name : names) {
    Result<std::optional<std::string>> one = ctx.query.One(name);
    std::string v;
    if (!one.ok()) {
      details.push_back(json::object{{"field", name}, {"message", "must be provided at most once"}});
    } else if (one->value_or("").empty()) {
      details.push_back(json::object{{"field", name}, {"message", "is required"}});
    } else if (!util::IsUuid(**one)) {
      details.push_back(json::object{{"field", name}, {"message", "must be a UUID"}});
    } else {
      v = util::ToLower(**one);
    }
    out.push_back(std::move(v));
  }
  if (!details.empty()) return dv::ValidationError(std::move(details));
  return out;
}

Response HandleEnrollment(const VerificationDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(std::vector<std::string> q, UuidQuery(ctx, {"projectId"}));
  SV_ASSIGN_OR_RESPOND(json::object out, app::verification::GetEnrollment(deps, AdminOf(ctx), q[0]));
  return JsonResponse(200, out);
}

Response HandleReceiptRead(const VerificationDeps& deps, Context& ctx, bool evidence) {
  if (!IsAgent(ctx.principal)) return StatusResponse(Unauthenticated("An agent token is required"));
  const std::string_view scope = evidence ? dv::kEvidenceScope : dv::kReadScope;
  if (!HasScope(ctx.principal, scope)) return StatusResponse(domain::agent_work::ScopeRequired(scope));
  const std::string id = util::ToLower(ctx.params.Get("receiptId"));
  SV_ASSIGN_OR_RESPOND(std::vector<std::string> q, UuidQuery(ctx, {"projectId", "issueId"}));
  if (!util::IsUuid(id))
    return StatusResponse(dv::Coded(Code::kNotFound, "Receipt not found", "RECEIPT_NOT_FOUND"));
  const auto caller = AgentCallerOf(ctx.principal);
  SV_ASSIGN_OR_RESPOND(json::object out,
                       evidence ? app::verification::GetReceiptEvidence(deps, caller, id, q[0], q[1])
                                : app::verification::GetReceipt(deps, caller, id, q[0], q[1]));
  Response r = JsonResponse(200, out);
  r.headers.Set("Cache-Control", "private, no-store");
  return r;
}

Response HandleBugVerification(const VerificationDeps& deps, Context& ctx) {
  const std::string id = util::ToLower(ctx.params.Get("id"));
  if (!util::IsUuid(id)) return StatusResponse(NotFound("Bug not found"));
  SV_ASSIGN_OR_RESPOND(json::object out, app::verification::BugVerification(deps, ctx.principal.org_id, id));
  return JsonResponse(200, out);
}

}  // namespace

void RegisterVerificationRoutes(Pipeline& p, const VerificationDeps& deps) {
  Router& r = p.router();
  using domain::Capability;
  const std::string base = "/v1/agent-work/verification";
  const struct {
    const char* path;
    AdminFn fn;
  } admin[] = {{"/runners", app::verification::EnrollRunner},
               {"/devices", app::verification::EnrollDevice},
               {"/runners/revoke", app::verification::RevokeRunner},
               {"/devices/revoke", app::verification::RevokeDevice}};
  for (const auto& a : admin) {
    const AdminFn fn = a.fn;
    r.Add("POST", base + a.path, RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageSettings,
          [&deps, fn](Context& ctx) { return HandleAdmin(deps, ctx, fn); });
  }
  r.Add("GET", base + "/enrollment", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kManageSettings,
        Bind(deps, HandleEnrollment));

  const struct {
    const char* path;
    AgentFn fn;
  } agent[] = {{"/challenges", app::verification::Challenge},
               {"/receipts", app::verification::SubmitReceipt},
               {"/promote", app::verification::Promote}};
  for (const auto& a : agent) {
    const AgentFn fn = a.fn;
    r.Add("POST", base + a.path, RateClass::kGeneral, AuthMode::kAgentToken,
          [&deps, fn](Context& ctx) { return HandleAgent(deps, ctx, fn, dv::kSubmitScope); });
  }
  r.Add("GET", base + "/receipts/:receiptId", RateClass::kGeneral, AuthMode::kAgentToken,
        [&deps](Context& ctx) { return HandleReceiptRead(deps, ctx, false); });
  // The console's bug page: any member who may read bugs.
  r.Add("GET", "/v1/bugs/:id/verification", RateClass::kGeneral, AuthMode::kJwtOrg, Capability::kViewBugs,
        Bind(deps, HandleBugVerification));
  r.Add("GET", base + "/receipts/:receiptId/evidence", RateClass::kGeneral, AuthMode::kAgentToken,
        [&deps](Context& ctx) { return HandleReceiptRead(deps, ctx, true); });
}

}  // namespace service::api
