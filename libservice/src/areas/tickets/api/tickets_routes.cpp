// Tickets (issue 28 item 4, server-contract "Tickets"), JWT+Org:
//   GET    /v1/tickets?status=&bugId=       {tickets} in board order
//   GET    /v1/tickets/:id                  {ticket}
//   POST   /v1/tickets                      201 {ticket} (appended to its column)
//   PATCH  /v1/tickets/:id                  {ticket}
//   POST   /v1/tickets/:id/move             {ticket}; body {status, position}
//   DELETE /v1/tickets/:id                  {success}
// Reads: any role (view_bugs); writes: update_bugs (not viewers).
//
// X-Agent-Token (with X-Service-Org): in production refused (401) without
// being looked at; in development checked through
// TicketsDeps::agent_token_check, which the agent tokens area fills (a
// valid sv_pat_ token of that organization; the route's capability then
// applies to the token creator's role, else 403).
#include <boost/json.hpp>

#include "api/json.h"
#include "api/validate.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/tickets/api/routes.h"
#include "areas/tickets/domain/board.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace dt = domain::tickets;
using app::tickets::TicketsDeps;

// Largest position a move may name (larger is a validation error; anything
// beyond a column's end lands at its end).
constexpr int64_t kMaxPosition = 1'000'000'000;

const std::vector<std::string_view>& StatusNames() {
  static const std::vector<std::string_view> names(dt::kStatuses.begin(), dt::kStatuses.end());
  return names;
}

json::object TicketJson(const ports::TicketRow& t) {
  return json::object{{"id", t.id},
                      {"title", t.title},
                      {"description", t.description},
                      {"status", t.status},
                      {"position", t.position},
                      {"bugId", OptText(t.bug_id)},
                      {"assigneeId", OptText(t.assignee_id)},
                      {"createdAt", util::FormatIso8601(t.created_at)},
                      {"updatedAt", util::FormatIso8601(t.updated_at)}};
}

Response TicketResponse(int status, const ports::TicketRow& t) {
  return JsonResponse(status, json::object{{"ticket", TicketJson(t)}});
}

// The path's id, or "" when it cannot be one (reads as 404).
std::string PathId(const Context& ctx) {
  std::string id = util::ToLower(ctx.params.Get("id"));
  return util::IsUuid(id) ? id : std::string();
}

// X-Agent-Token: see the file comment. Fills the principal from the
// check's actor. OK when the header is absent.
Status AgentGate(const TicketsDeps& deps, Context& ctx) {
  // An agent token as the bearer (the agent routes' form) is not the
  // tickets' credential: it would bypass the development-only rule.
  if (ctx.principal.kind == Principal::Kind::kAgent) return Unauthenticated("Missing or invalid token");
  const std::string* token = ctx.req.headers.Find("X-Agent-Token");
  if (token == nullptr) return Status::Ok();
  if (deps.production) return Unauthenticated("Agent tokens are not accepted here in production");
  const Status invalid = Unauthenticated("Missing or invalid agent token");
  if (!deps.agent_token_check) return invalid;
  const std::string org = util::ToLower(util::Trim(ctx.req.headers.Get("X-Service-Org")));
  if (!util::IsUuid(org)) return InvalidArgument("Organization ID required");
  auto actor = deps.agent_token_check(*token, org);
  if (!actor.ok() || actor->org_id != org) return invalid;
  // The token acts for its creator: the route's capability applies to the
  // creator's role (a viewer's token cannot write tickets).
  if (ctx.route && ctx.route->capability) {
    SV_RETURN_IF_ERROR(app::RequireCapability(*actor, *ctx.route->capability));
  }
  Principal& p = ctx.principal;
  p.kind = Principal::Kind::kAgent;
  p.user_id = actor->user_id;
  p.email = actor->email;
  p.org_id = actor->org_id;
  p.role = actor->role;
  return Status::Ok();
}

using Fn = Response (*)(const TicketsDeps&, Context&);

// Rejects body members other than `allowed` ("unknown field").
void RejectUnknown(Validator& v, std::initializer_list<std::string_view> allowed) {
  const json::object* o = v.body();
  if (o == nullptr) return;
  for (const auto& [key, unused] : *o) {
    if (std::find(allowed.begin(), allowed.end(), std::string_view(key)) == allowed.end()) {
      v.AddError(std::string(key), "unknown field");
    }
  }
}

// A nullable id field of a body: absent -> nullopt; null -> {nullopt}; a
// UUID -> {id}, lower-cased.
std::optional<std::optional<std::string>> NullableId(Validator& v, std::string_view field) {
  const json::object* o = v.body();
  if (o == nullptr || !o->contains(field)) return std::nullopt;
  if (o->at(field).is_null()) return std::optional<std::string>();
  std::optional<std::string> id = v.String(field, StringRule{.uuid = true});
  if (!id) return std::nullopt;
  return std::optional<std::string>(util::ToLower(*id));
}

// A field present as null where null means nothing: an error.
void RefuseNull(Validator& v, std::string_view field) {
  const json::object* o = v.body();
  if (o != nullptr && o->contains(field) && o->at(field).is_null()) v.AddError(field, "must not be null");
}

Response HandleList(const TicketsDeps& deps, Context& ctx) {
  auto status = EnumParam(ctx, "status", [](const std::string& s) { return dt::IsStatus(s); });
  if (!status.ok()) return StatusResponse(status.status());
  auto bug = UuidParam(ctx, "bugId");
  if (!bug.ok()) return StatusResponse(bug.status());
  std::optional<std::string> bug_id = *bug;
  if (bug_id) bug_id = util::ToLower(*bug_id);
  auto rows = app::tickets::ListTickets(deps, Actor(ctx), *status, bug_id);
  if (!rows.ok()) return StatusResponse(rows.status());
  json::array out;
  for (const auto& t : *rows) out.push_back(TicketJson(t));
  return JsonResponse(200, json::object{{"tickets", std::move(out)}});
}

Response HandleGet(const TicketsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Ticket not found");
  auto t = app::tickets::GetTicket(deps, Actor(ctx), id);
  if (!t.ok()) return StatusResponse(t.status());
  return TicketResponse(200, *t);
}

Response HandleCreate(const TicketsDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  RejectUnknown(v, {"title", "description", "status", "bugId", "assigneeId"});
  app::tickets::NewTicket in;
  const auto title = TextField(v, "title", StringRule{.required = true, .min = 1, .max = dt::kMaxTitle});
  RefuseNull(v, "description");
  const auto description = TextField(v, "description", StringRule{.max = dt::kMaxDescription});
  RefuseNull(v, "status");
  const auto status = v.String("status", StringRule{.one_of = &StatusNames()});
  const auto bug = NullableId(v, "bugId");
  const auto assignee = NullableId(v, "assigneeId");
  if (!v.ok()) return ValidationFailed(v.details());
  in.title = *title;
  in.description = description.value_or("");
  in.status = status.value_or(std::string(dt::kDefaultStatus));
  if (bug) in.bug_id = *bug;
  if (assignee) in.assignee_id = *assignee;
  auto t = app::tickets::CreateTicket(deps, Actor(ctx), in);
  if (!t.ok()) return StatusResponse(t.status());
  return TicketResponse(201, *t);
}

Response HandlePatch(const TicketsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Ticket not found");
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  RejectUnknown(v, {"title", "description", "status", "bugId", "assigneeId"});
  app::tickets::TicketPatch patch;
  RefuseNull(v, "title");
  patch.title = TextField(v, "title", StringRule{.min = 1, .max = dt::kMaxTitle});
  RefuseNull(v, "description");
  patch.description = TextField(v, "description", StringRule{.max = dt::kMaxDescription});
  RefuseNull(v, "status");
  patch.status = v.String("status", StringRule{.one_of = &StatusNames()});
  patch.bug_id = NullableId(v, "bugId");
  patch.assignee_id = NullableId(v, "assigneeId");
  if (!v.ok()) return ValidationFailed(v.details());
  if (patch.empty()) return ErrorResponse(400, "No fields to update");
  auto t = app::tickets::UpdateTicket(deps, Actor(ctx), id, patch);
  if (!t.ok()) return StatusResponse(t.status());
  return TicketResponse(200, *t);
}

Response HandleMove(const TicketsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Ticket not found");
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  RejectUnknown(v, {"status", "position"});
  const auto status = v.String("status", StringRule{.required = true, .one_of = &StatusNames()});
  const auto position = v.Int("position", true, 0, kMaxPosition);
  if (!v.ok()) return ValidationFailed(v.details());
  auto t = app::tickets::MoveTicket(deps, Actor(ctx), id, *status, *position);
  if (!t.ok()) return StatusResponse(t.status());
  return TicketResponse(200, *t);
}

Response HandleDelete(const TicketsDeps& deps, Context& ctx) {
  const std::string id = PathId(ctx);
  if (id.empty()) return ErrorResponse(404, "Ticket not found");
  Status s = app::tickets::DeleteTicket(deps, Actor(ctx), id);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

}  // namespace

void RegisterTicketRoutes(Pipeline& p, const TicketsDeps& deps) {
  Router& r = p.router();
  const auto add = [&](const char* method, const char* pattern, domain::Capability capability, Fn fn) {
    r.Add(method, pattern, RateClass::kGeneral, AuthMode::kJwtOrgOrAgent, capability,
          [&deps, fn](Context& ctx) {
            const Status gate = AgentGate(deps, ctx);
            if (!gate.ok()) return StatusResponse(gate);
            return fn(deps, ctx);
          });
  };
  using domain::Capability;
  add("GET", "/v1/tickets", Capability::kViewBugs, HandleList);
  add("POST", "/v1/tickets", Capability::kUpdateBugs, HandleCreate);
  add("GET", "/v1/tickets/:id", Capability::kViewBugs, HandleGet);
  add("PATCH", "/v1/tickets/:id", Capability::kUpdateBugs, HandlePatch);
  add("POST", "/v1/tickets/:id/move", Capability::kUpdateBugs, HandleMove);
  add("DELETE", "/v1/tickets/:id", Capability::kUpdateBugs, HandleDelete);
}

}  // namespace service::api
