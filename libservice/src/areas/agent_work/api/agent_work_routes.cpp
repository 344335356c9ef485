// Agent work: fenced claims (server contract "Agent work"), agent tokens
// only (Authorization: Bearer sv_pat_...; console tokens and capture keys
// are refused by the authenticator, 401):
//   POST /v1/agent-work/claims            201 {claim}; 200 for a replayed command
//   POST /v1/agent-work/claims/renew      200 {claim}
//   POST /v1/agent-work/claims/release    200 {claim}
//   POST /v1/agent-work/claims/complete   200 {claim}
//   GET  /v1/agent-work/claims?projectId=&issueId=   200 {claim}; 404 CLAIM_NOT_FOUND
// Bodies are strict JSON objects (400 VALIDATION_ERROR); a replay carries
// the header `Idempotent-Replayed: true`.
#include <boost/json.hpp>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/agent_work/api/routes.h"
#include "util/strings.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace dw = domain::agent_work;
using app::agent_work::AgentWorkDeps;

Response ClaimResponse(int status, const app::agent_work::ClaimOutcome& out) {
  Response r = JsonResponse(out.replayed ? 200 : status, json::object{{"claim", dw::ClaimJson(out.claim)}});
  if (out.replayed) r.headers.Set("Idempotent-Replayed", "true");
  return r;
}

// The body as JSON; malformed JSON is a VALIDATION_ERROR like any other
// bad body.
Result<const json::value*> Body(Context& ctx) {
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) {
    return dw::ValidationError(
        json::array{json::object{{"field", "body"}, {"message", body.status().message()}}});
  }
  return body;
}

Status RequireAgent(const Context& ctx) {
  if (!IsAgent(ctx.principal)) return Unauthenticated("An agent token is required");
  return Status::Ok();
}

Response HandleClaim(const AgentWorkDeps& deps, Context& ctx) {
  if (Status s = RequireAgent(ctx); !s.ok()) return StatusResponse(s);
  const app::agent_work::AgentCaller caller = AgentCallerOf(ctx.principal);
  // The scope first: a token without it learns nothing about the body.
  if (!HasScope(ctx.principal, dw::kClaimScope)) return StatusResponse(dw::ScopeRequired(dw::kClaimScope));
  SV_ASSIGN_OR_RESPOND(const json::value* body, Body(ctx));
  SV_ASSIGN_OR_RESPOND(dw::ClaimInput in, dw::ParseClaimInput(*body));
  SV_ASSIGN_OR_RESPOND(app::agent_work::ClaimOutcome out, app::agent_work::Claim(deps, caller, in));
  return ClaimResponse(201, out);
}

Response HandleLease(const AgentWorkDeps& deps, Context& ctx, dw::CommandKind kind) {
  if (Status s = RequireAgent(ctx); !s.ok()) return StatusResponse(s);
  const app::agent_work::AgentCaller caller = AgentCallerOf(ctx.principal);
  if (!HasScope(ctx.principal, dw::kClaimScope)) return StatusResponse(dw::ScopeRequired(dw::kClaimScope));
  SV_ASSIGN_OR_RESPOND(const json::value* body, Body(ctx));
  SV_ASSIGN_OR_RESPOND(dw::LeaseInput in, dw::ParseLeaseInput(kind, *body));
  SV_ASSIGN_OR_RESPOND(app::agent_work::ClaimOutcome out,
                       app::agent_work::LeaseCommand(deps, caller, kind, in));
  return ClaimResponse(200, out);
}

Response HandleGet(const AgentWorkDeps& deps, Context& ctx) {
  if (Status s = RequireAgent(ctx); !s.ok()) return StatusResponse(s);
  const app::agent_work::AgentCaller caller = AgentCallerOf(ctx.principal);
  if (!HasScope(ctx.principal, dw::kClaimScope) && !HasScope(ctx.principal, dw::kEvidenceScope)) {
    return StatusResponse(dw::ScopeRequired(dw::kClaimScope));
  }
  json::array details;
  std::string ids[2];
  const char* names[2] = {"projectId", "issueId"};
  for (int i = 0; i < 2; ++i) {
    Result<std::optional<std::string>> one = ctx.query.One(names[i]);
    if (!one.ok()) {
      details.push_back(json::object{{"field", names[i]}, {"message", "must be provided at most once"}});
      continue;
    }
    const std::string v = one->value_or("");
    if (v.empty()) {
      details.push_back(json::object{{"field", names[i]}, {"message", "is required"}});
    } else if (!util::IsUuid(v)) {
      details.push_back(json::object{{"field", names[i]}, {"message", "must be a UUID"}});
    } else {
      ids[i] = util::ToLower(v);
    }
  }
  if (!details.empty()) return StatusResponse(dw::ValidationError(std::move(details)));
  SV_ASSIGN_OR_RESPOND(dw::ClaimView claim, app::agent_work::GetClaim(deps, caller, ids[0], ids[1]));
  return JsonResponse(200, json::object{{"claim", dw::ClaimJson(claim)}});
}

}  // namespace

app::agent_work::AgentCaller AgentCallerOf(const Principal& p) {
  return app::agent_work::AgentCaller{p.key_id, p.org_id, p.user_id, p.scopes, p.granted_projects};
}

void RegisterAgentWorkRoutes(Pipeline& p, const AgentWorkDeps& deps) {
  Router& r = p.router();
  r.Add("POST", "/v1/agent-work/claims", RateClass::kGeneral, AuthMode::kAgentToken, Bind(deps, HandleClaim));
  r.Add("GET", "/v1/agent-work/claims", RateClass::kGeneral, AuthMode::kAgentToken, Bind(deps, HandleGet));
  const struct {
    const char* path;
    dw::CommandKind kind;
  } leases[] = {{"/v1/agent-work/claims/renew", dw::CommandKind::kRenew},
                {"/v1/agent-work/claims/release", dw::CommandKind::kRelease},
                {"/v1/agent-work/claims/complete", dw::CommandKind::kComplete}};
  for (const auto& l : leases) {
    const dw::CommandKind kind = l.kind;
    r.Add("POST", l.path, RateClass::kGeneral, AuthMode::kAgentToken,
          [&deps, kind](Context& ctx) { return HandleLease(deps, ctx, kind); });
  }
}

}  // namespace service::api
