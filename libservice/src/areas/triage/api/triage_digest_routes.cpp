// Alert email batch history and recipient decisions (Spec 2 "Alerts (JWT+Org)";
// issue 32), JWT+Org, the caller's own batches only, every answer no-store:
//   GET  /v1/alerts/digests?projectId=&after=          {batches, pendingEvents, nextCursor}
//   POST /v1/alerts/digests/:batchId/resolution        receipt
// Agent tokens and support sessions are refused (403); capture keys never
// authenticate JWT+Org routes.
#include <boost/json.hpp>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/triage/api/routes.h"
#include "areas/triage/app/digests.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace dt = domain::triage;
using app::triage::TriageDeps;

Response NoStore(Response r) {
  r.headers.Set("Cache-Control", "no-store");
  return r;
}

json::value OptTime(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}

json::object BatchJson(const ports::DigestBatch& b) {
  const bool received = b.resolution && *b.resolution == "received";
  const dt::DigestAllowed allowed = dt::AllowedDigestActions(b.state, b.attempts, b.generation, received);
  json::value resolution = nullptr;
  if (b.resolution) {
    resolution = json::object{{"action", *b.resolution},
                              {"generation", b.resolution_generation.value_or(0)},
                              {"confirmedByRecipient", received},
                              {"createdAt", OptTime(b.resolution_at)}};
  }
  return json::object{{"id", b.id},
                      {"generation", b.generation},
                      {"state", b.state},
                      {"resolution", std::move(resolution)},
                      {"allowedActions", json::object{{"received", allowed.received},
                                                      {"retry", allowed.retry},
                                                      {"reason", allowed.reason ? json::value(*allowed.reason)
                                                                                : json::value(nullptr)}}},
                      {"batchProjectCount", b.project_count},
                      {"eventCount", b.project_events},
                      {"attempts", b.attempts},
                      {"manualRetries", b.generation},
                      {"subject", b.subject},
                      {"createdAt", util::FormatIso8601(b.created_at)},
                      {"sentAt", OptTime(b.sent_at)}};
}

json::object ReceiptJson(const app::triage::DigestReceipt& r) {
  const ports::DigestDecision& d = r.decision;
  return json::object{{"id", d.id},
                      {"batchId", d.batch_id},
                      {"projectId", d.project_id},
                      {"requestId", d.request_id},
                      {"action", d.action},
                      {"generation", d.expected_generation},
                      {"nextGeneration", d.next_generation},
                      {"createdAt", util::FormatIso8601(d.created_at)},
                      {"replayed", r.replayed}};
}

Response Invalid(const std::string& field, const std::string& message) {
  return ValidationFailed(json::array{json::object{{"field", field}, {"message", message}}});
}

Response HandleHistory(const TriageDeps& deps, Context& ctx) {
  if (IsAgent(ctx.principal)) return NoStore(ErrorResponse(403, "Agent tokens cannot use this route"));
  auto project_param = ctx.query.One("projectId");
  if (!project_param.ok()) return NoStore(StatusResponse(project_param.status()));
  auto after_param = ctx.query.One("after");
  if (!after_param.ok()) return NoStore(StatusResponse(after_param.status()));
  if (!*project_param || project_param->value().empty()) return NoStore(Invalid("projectId", "is required"));
  const std::string project = util::ToLower(**project_param);
  if (!util::IsUuid(project)) return NoStore(ErrorResponse(404, "Project not found"));
  std::optional<std::string> after;
  if (*after_param) {
    after = util::ToLower(**after_param);
    if (!util::IsUuid(*after)) return NoStore(ErrorResponse(404, "Cursor not found"));
  }
  auto page = app::triage::DigestHistory(deps, Actor(ctx), project, after);
  if (!page.ok()) return NoStore(StatusResponse(page.status()));
  json::array batches;
  for (const ports::DigestBatch& b : page->batches) batches.push_back(BatchJson(b));
  return NoStore(JsonResponse(
      200, json::object{
               {"batches", std::move(batches)},
               {"pendingEvents", page->pending_events},
               {"nextCursor", page->next_cursor ? json::value(*page->next_cursor) : json::value(nullptr)}}));
}

// The closed body: projectId, requestId, expectedGeneration, action, and
// acceptDuplicateRisk (true, required with retry; absent with received).
Response HandleResolution(const TriageDeps& deps, Context& ctx) {
  if (IsAgent(ctx.principal)) return NoStore(ErrorResponse(403, "Agent tokens cannot use this route"));
  if (!ctx.principal.support_session_id.empty()) {
    return NoStore(ErrorResponse(403, "Support sessions cannot decide on digests"));
  }
  Result<const json::value*> body = ctx.Body();
  if (!body.ok()) return NoStore(StatusResponse(body.status()));
  if (!(*body)->is_object()) return NoStore(Invalid("body", "must be a JSON object"));
  const json::object& o = (*body)->get_object();
  json::array details;
  const auto problem = [&](const std::string& field, const std::string& message) {
    details.push_back(json::object{{"field", field}, {"message", message}});
  };
  for (const auto& kv : o) {
    const std::string_view k = kv.key();
    if (k != "projectId" && k != "requestId" && k != "expectedGeneration" && k != "action" &&
        k != "acceptDuplicateRisk") {
      problem(std::string(k), "is not a known field");
    }
  }
  app::triage::DigestResolutionRequest req;
  const json::value* v = o.if_contains("projectId");
  if (v == nullptr || !v->is_string() || !util::IsUuid(v->get_string())) {
    problem("projectId", "must be a project id");
  } else {
    req.project_id = util::ToLower(v->get_string());
  }
  v = o.if_contains("requestId");
  if (v == nullptr || !v->is_string() || !util::IsUuid(v->get_string())) {
    problem("requestId", "must be a UUID");
  } else {
    req.request_id = util::ToLower(v->get_string());
  }
  v = o.if_contains("expectedGeneration");
  if (v == nullptr || !v->is_int64() || v->get_int64() < 0 || v->get_int64() > dt::kDigestMaxManualRetries) {
    problem("expectedGeneration", "must be an integer from 0 to 3");
  } else {
    req.expected_generation = v->get_int64();
  }
  v = o.if_contains("action");
  if (v == nullptr || !v->is_string() || (v->get_string() != "received" && v->get_string() != "retry")) {
    problem("action", "must be received or retry");
  } else {
    req.action = std::string(v->get_string());
  }
  v = o.if_contains("acceptDuplicateRisk");
  if (req.action == "retry" && (v == nullptr || !v->is_bool() || !v->get_bool())) {
    problem("acceptDuplicateRisk", "must be true with retry");
  } else if (req.action == "received" && v != nullptr) {
    problem("acceptDuplicateRisk", "must be omitted with received");
  }
  req.accept_duplicate_risk = req.action == "retry";
  if (!details.empty()) return NoStore(ValidationFailed(details));
  const std::string batch = util::ToLower(ctx.params.Get("batchId"));
  if (!util::IsUuid(batch)) return NoStore(ErrorResponse(404, "Digest batch not found"));
  auto receipt = app::triage::ResolveDigest(deps, Actor(ctx), batch, req);
  if (!receipt.ok()) return NoStore(StatusResponse(receipt.status()));
  return NoStore(JsonResponse(200, ReceiptJson(*receipt)));
}

}  // namespace

void RegisterDigestRoutes(Pipeline& p, const TriageDeps& deps) {
  Router& r = p.router();
  r.Add("GET", "/v1/alerts/digests", RateClass::kGeneral, AuthMode::kJwtOrg, Bind(deps, HandleHistory));
  r.Add("POST", "/v1/alerts/digests/:batchId/resolution", RateClass::kGeneral, AuthMode::kJwtOrg,
        Bind(deps, HandleResolution));
}

}  // namespace service::api
