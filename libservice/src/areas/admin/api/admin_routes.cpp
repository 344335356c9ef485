// The superadmin routes (Spec 2 "Superadmin"; server contract
// "Superadmin"): a bearer JWT whose account is verified and on
// SERVICE_SUPERADMIN_EMAILS. No or an invalid token: 401; anyone else (a
// member's token, an unverified allowlisted account, an agent token, a
// capture key): 403. The routes authenticate themselves (AuthMode::kNone
// with the check below) so that agent tokens and capture keys get 403 as
// the spec says, not the bearer authenticator's 401.
//
//   GET    /v1/admin/overview                   {counts, growth[30 days]}
//   GET    /v1/admin/organizations              {organizations, total, limit, offset}
//   GET    /v1/admin/customers                  {customers, total, limit, offset}
//   GET    /v1/admin/customers/:orgId           {customer, team, projects}
//   POST   /v1/admin/customers                  201 {customer, project}
//   POST   /v1/admin/customers/:orgId/team      201 {success, userId, role}
//   PATCH  /v1/admin/customers/:orgId           {customer}
//   GET    /v1/admin/users                      {users, total, limit, offset}
//   GET    /v1/admin/waitlist                   {entries, total, limit, offset}
//   POST   /v1/admin/waitlist/:id/approve       {success}
//   POST   /v1/admin/waitlist/:id/reject        {success}
//   POST   /v1/admin/waitlist/:id/resend        {success}
//   GET    /v1/admin/projects                   {projects, total, limit, offset}
//   GET    /v1/admin/api-keys                   {keys, total, limit, offset}
//   GET    /v1/admin/activity                   {activity}
//   GET    /v1/admin/db/tables                  {tables}
//   GET    /v1/admin/db/tables/:table           {table, columns, rows, total, limit, offset}
//   GET    /v1/admin/api-key-stats              {total_keys, active_keys, used_last_24h, never_used}
//   GET    /v1/admin/ai-usage                   {summary, daily, byFeature, days}
//   POST   /v1/admin/backfill-signatures        {scanned, updated, unchanged, skipped, done, nextCursor}
//   POST   /v1/admin/gdpr/delete-org            {success, orgId, orgName, deleted}
#include <charconv>

#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "api/validate.h"
#include "areas/accounts/domain/validation.h"
#include "areas/admin/api/routes.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

using app::admin::AdminDeps;

json::value ToJson(const ports::AdminValue& v) {
  if (std::holds_alternative<std::nullptr_t>(v)) return nullptr;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  if (const auto* s = std::get_if<std::string>(&v)) return json::string(*s);
  return json::string(util::FormatIso8601(std::get<ports::AdminTime>(v).unix_ms));
}

// A record as an object; "a.b" fields nest under "a".
json::object ToJson(const ports::AdminRecord& r) {
  json::object o;
  for (const auto& [name, value] : r.fields) {
    const size_t dot = name.find('.');
    if (dot == std::string::npos) {
      o[name] = ToJson(value);
    } else {
      json::value& inner = o[name.substr(0, dot)];
      if (!inner.is_object()) inner = json::object();
      inner.as_object()[name.substr(dot + 1)] = ToJson(value);
    }
  }
  return o;
}

json::array ToJson(const std::vector<ports::AdminRecord>& rows) {
  json::array a;
  for (const auto& r : rows) a.push_back(ToJson(r));
  return a;
}

// A handler that runs only for a superadmin (ctx.principal filled).
template <typename Fn>
Handler Guarded(const AdminDeps& deps, Fn fn) {
  return [&deps, fn](Context& ctx) -> Response {
    auto user = app::admin::AuthenticateSuperadmin(deps, BearerToken(ctx.req));
    if (!user.ok()) {
      // Without a bearer, a capture key is still a credential that is not a
      // superadmin's: 403.
      if (user.status().code() == Code::kUnauthenticated && BearerToken(ctx.req).empty() &&
          !ctx.req.headers.Get("X-Service-Key").empty()) {
        return StatusResponse(PermissionDenied("Superadmin access required"));
      }
      return StatusResponse(user.status());
    }
    ctx.principal.kind = Principal::Kind::kUser;
    ctx.principal.user_id = user->id;
    ctx.principal.email = user->email;
    ctx.principal.superadmin = true;
    return fn(deps, ctx);
  };
}

Status BadParam(std::string message) { return InvalidArgument(std::move(message)); }

// An integer query parameter in [min, max]; above max reads as max. Absent: def.
Result<int64_t> IntParam(const Context& ctx, std::string_view name, int64_t def, int64_t min, int64_t max) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, ctx.query.One(name));
  if (!raw) return def;
  int64_t v = 0;
  const char* end = raw->data() + raw->size();
  auto [p, ec] = std::from_chars(raw->data(), end, v);
  if (ec != std::errc() || p != end || v < min)
    return BadParam(std::string(name) + " must be an integer of at least " + std::to_string(min));
  return std::min(v, max);
}

Result<ports::PageRequest> PageParams(const Context& ctx) {
  ports::PageRequest page;
  SV_ASSIGN_OR_RETURN(page.limit,
                      IntParam(ctx, "limit", domain::admin::kDefaultLimit, 1, domain::admin::kMaxLimit));
  SV_ASSIGN_OR_RETURN(page.offset, IntParam(ctx, "offset", 0, 0, INT64_MAX / 2));
  return page;
}

// A text filter: trimmed, empty reads as absent, at most 200 characters.
Result<std::optional<std::string>> SearchParam(const Context& ctx, std::string_view name) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, ctx.query.One(name));
  if (!raw) return raw;
  std::string v = util::Trim(*raw);
  if (v.empty()) return std::optional<std::string>();
  if (v.size() > 200) return BadParam(std::string(name) + " must be at most 200 characters");
  if (v.find('\0') != std::string::npos)
    return BadParam(std::string(name) + " must not contain NUL characters");
  return std::optional<std::string>(std::move(v));
}

// An enumerated filter: absent or one of the values, else 400 naming them.
Result<std::optional<std::string>> EnumParam(const Context& ctx, std::string_view name,
                                             bool (*valid)(std::string_view), std::string_view values) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, ctx.query.One(name));
  if (!raw || raw->empty()) return std::optional<std::string>();
  if (!valid(*raw)) return BadParam(std::string(name) + " must be one of " + std::string(values));
  return raw;
}

constexpr std::string_view kStages = "trial, active, paused, churned, internal";
constexpr std::string_view kPlans = "free, pro, team, enterprise";
constexpr std::string_view kBillingStatuses = "unassigned, manual, paid, past_due";
constexpr std::string_view kWaitlistStatuses = "pending, approved, rejected, completed";
constexpr std::string_view kRoles = "admin, manager, member, tester, viewer";

json::object PageJson(const char* key, json::array rows, int64_t total, const ports::PageRequest& page) {
  return json::object{
      {key, std::move(rows)}, {"total", total}, {"limit", page.limit}, {"offset", page.offset}};
}

Response Overview(const AdminDeps& deps, Context&) {
  SV_ASSIGN_OR_RESPOND(app::admin::Overview o, app::admin::GetOverview(deps));
  json::array growth;
  for (const auto& d : o.growth)
    growth.push_back(json::object{
        {"date", d.date}, {"users", d.users}, {"organizations", d.organizations}, {"bugs", d.bugs}});
  return JsonResponse(200, json::object{{"counts", ToJson(o.counts)}, {"growth", std::move(growth)}});
}

Response Organizations(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(std::optional<std::string> search, SearchParam(ctx, "search"));
  SV_ASSIGN_OR_RESPOND(ports::PageRequest page, PageParams(ctx));
  SV_ASSIGN_OR_RESPOND(ports::AdminPage p, app::admin::ListOrganizations(deps, search, page));
  return JsonResponse(200, PageJson("organizations", ToJson(p.rows), p.total, page));
}

Response Customers(const AdminDeps& deps, Context& ctx) {
  ports::CustomerFilter f;
  SV_ASSIGN_OR_RESPOND(f.search, SearchParam(ctx, "search"));
  SV_ASSIGN_OR_RESPOND(f.stage, EnumParam(ctx, "stage", domain::admin::IsLifecycleStage, kStages));
  SV_ASSIGN_OR_RESPOND(f.plan, EnumParam(ctx, "plan", domain::admin::IsCustomerPlan, kPlans));
  SV_ASSIGN_OR_RESPOND(f.billing_status,
                       EnumParam(ctx, "billingStatus", domain::admin::IsBillingStatus, kBillingStatuses));
  SV_ASSIGN_OR_RESPOND(ports::PageRequest page, PageParams(ctx));
  SV_ASSIGN_OR_RESPOND(ports::AdminPage p, app::admin::ListCustomers(deps, f, page));
  return JsonResponse(200, PageJson("customers", ToJson(p.rows), p.total, page));
}

// A path id that is not a UUID names nothing: 404 without a query.
bool IsId(const std::string& id) { return util::IsUuid(util::ToLower(id)); }

Response Customer(const AdminDeps& deps, Context& ctx) {
  const std::string org_id = util::ToLower(ctx.params.Get("orgId"));
  if (!IsId(org_id)) return StatusResponse(NotFound("Customer not found"));
  SV_ASSIGN_OR_RESPOND(app::admin::CustomerDetail d, app::admin::GetCustomer(deps, org_id));
  return JsonResponse(
      200, json::object{
               {"customer", ToJson(d.customer)}, {"team", ToJson(d.team)}, {"projects", ToJson(d.projects)}});
}

// An optional enumerated body field: absent/null -> nullopt; else one of.
std::optional<std::string> EnumField(Validator& v, std::string_view field, bool (*valid)(std::string_view),
                                     std::string_view values) {
  StringRule r;
  r.max = 50;
  std::optional<std::string> s = v.String(field, r);
  if (s && !valid(*s)) {
    v.AddError(field, "must be one of " + std::string(values));
    return std::nullopt;
  }
  return s;
}

Response CreateCustomer(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::admin::NewCustomerInput in;
  {
    StringRule r;
    r.required = true;
    r.min = 1;
    r.max = 100;
    in.org_name = util::Trim(TextField(v, "orgName", r).value_or(""));
    if (v.body() && in.org_name.empty() && v.ok()) v.AddError("orgName", "is required");
  }
  {
    StringRule r;
    r.required = true;
    r.email = true;
    r.max = 254;
    in.contact_email = domain::accounts::NormalizeEmail(v.String("contactEmail", r).value_or(""));
  }
  {
    StringRule r;
    r.max = 100;
    in.contact_name = util::Trim(TextField(v, "contactName", r).value_or(""));
  }
  in.plan = EnumField(v, "plan", domain::admin::IsCustomerPlan, kPlans).value_or("free");
  in.lifecycle_stage = EnumField(v, "lifecycleStage", domain::admin::IsLifecycleStage, kStages)
                           .value_or(domain::admin::kDefaultStage);
  in.billing_status = EnumField(v, "billingStatus", domain::admin::IsBillingStatus, kBillingStatuses)
                          .value_or(domain::admin::kDefaultBillingStatus);
  {
    StringRule r;
    r.max = 2000;
    in.use_case = TextField(v, "useCase", r);
  }
  if (!v.ok()) return ValidationFailed(v.details());
  in.operator_id = ctx.principal.user_id;
  SV_ASSIGN_OR_RESPOND(app::accounts::CreatedCustomer c, app::admin::CreateCustomer(deps, in));
  return JsonResponse(
      201,
      json::object{{"customer", json::object{{"id", c.org.id},
                                             {"name", c.org.name},
                                             {"slug", c.org.slug},
                                             {"plan", c.org.plan},
                                             {"lifecycle_stage", in.lifecycle_stage},
                                             {"billing_status", in.billing_status}}},
                   {"project",
                    json::object{{"id", c.project.id}, {"name", c.project.name}, {"slug", c.project.slug}}}});
}

Response AddTeamMember(const AdminDeps& deps, Context& ctx) {
  const std::string org_id = util::ToLower(ctx.params.Get("orgId"));
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  const json::object* o = body->if_object();
  std::optional<std::string> email = o ? StringField(*o, "email") : std::nullopt;
  std::optional<std::string> role = o ? StringField(*o, "role") : std::nullopt;
  std::optional<std::string> name = o ? StringField(*o, "name") : std::nullopt;
  const std::string normalized = email ? domain::accounts::NormalizeEmail(util::Trim(*email)) : "";
  if (!email || !util::IsValidEmail(normalized) || normalized.size() > 254 || !role ||
      !domain::admin::IsMemberRole(*role) ||
      (name && (name->size() > 100 || name->find('\0') != std::string::npos))) {
    return StatusResponse(InvalidArgument("Valid email and role required"));
  }
  if (!IsId(org_id)) return StatusResponse(NotFound("Customer not found"));
  app::accounts::OperatorMemberInput in;
  in.org_id = org_id;
  in.email = normalized;
  in.role = *role;
  in.name = name ? util::Trim(*name) : "";
  in.operator_id = ctx.principal.user_id;
  SV_ASSIGN_OR_RESPOND(app::accounts::OperatorMember m, app::admin::AddTeamMember(deps, in));
  return JsonResponse(201, json::object{{"success", true}, {"userId", m.user_id}, {"role", m.role}});
}

Response UpdateCustomer(const AdminDeps& deps, Context& ctx) {
  const std::string org_id = util::ToLower(ctx.params.Get("orgId"));
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::admin::CustomerUpdate in;
  in.plan = EnumField(v, "plan", domain::admin::IsCustomerPlan, kPlans);
  in.profile.lifecycle_stage = EnumField(v, "lifecycleStage", domain::admin::IsLifecycleStage, kStages);
  in.profile.billing_status = EnumField(v, "billingStatus", domain::admin::IsBillingStatus, kBillingStatuses);
  {
    StringRule r;
    r.max = domain::admin::kMaxAdminNotes;
    in.profile.admin_notes = TextField(v, "adminNotes", r);
  }
  if (!v.ok()) return ValidationFailed(v.details());
  if (in.empty()) return StatusResponse(InvalidArgument("Nothing to update"));
  if (!IsId(org_id)) return StatusResponse(NotFound("Customer not found"));
  SV_ASSIGN_OR_RESPOND(ports::AdminRecord c, app::admin::UpdateCustomer(deps, org_id, in));
  return JsonResponse(200, json::object{{"customer", ToJson(c)}});
}

Response Users(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(std::optional<std::string> search, SearchParam(ctx, "search"));
  SV_ASSIGN_OR_RESPOND(ports::PageRequest page, PageParams(ctx));
  SV_ASSIGN_OR_RESPOND(app::admin::UserPage p, app::admin::ListUsers(deps, search, page));
  json::array users;
  for (const auto& u : p.users) {
    json::object o = ToJson(u.user);
    o["orgs"] = ToJson(u.orgs);
    users.push_back(std::move(o));
  }
  return JsonResponse(200, PageJson("users", std::move(users), p.total, page));
}

Response Waitlist(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(std::optional<std::string> search, SearchParam(ctx, "search"));
  SV_ASSIGN_OR_RESPOND(std::optional<std::string> status,
                       EnumParam(ctx, "status", domain::admin::IsWaitlistStatus, kWaitlistStatuses));
  SV_ASSIGN_OR_RESPOND(ports::PageRequest page, PageParams(ctx));
  SV_ASSIGN_OR_RESPOND(ports::AdminPage p, app::admin::ListWaitlist(deps, search, status, page));
  return JsonResponse(200, PageJson("entries", ToJson(p.rows), p.total, page));
}

// The optional `note` of approve and reject (at most 1,000 characters).
Result<std::optional<std::string>> NoteOf(Context& ctx) {
  SV_ASSIGN_OR_RETURN(const json::value* body, ctx.Body());
  Validator v(*body);
  StringRule r;
  r.max = 1000;
  std::optional<std::string> note = TextField(v, "note", r);
  if (!v.ok()) return InvalidArgument("note must be a string of at most 1000 characters");
  return note;
}

Response WaitlistAction(const AdminDeps& deps, Context& ctx, app::admin::WaitlistAction action) {
  const std::string id = util::ToLower(ctx.params.Get("id"));
  std::optional<std::string> note;
  if (action != app::admin::WaitlistAction::kResend) {
    SV_ASSIGN_OR_RESPOND(note, NoteOf(ctx));
  }
  if (!IsId(id)) return StatusResponse(NotFound("Waitlist entry not found"));
  Status s = app::admin::ActOnWaitlist(deps, id, action, note);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

Response Projects(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(ports::PageRequest page, PageParams(ctx));
  SV_ASSIGN_OR_RESPOND(ports::AdminPage p, app::admin::ListProjects(deps, page));
  return JsonResponse(200, PageJson("projects", ToJson(p.rows), p.total, page));
}

Response Keys(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(ports::PageRequest page, PageParams(ctx));
  SV_ASSIGN_OR_RESPOND(ports::AdminPage p, app::admin::ListKeys(deps, page));
  return JsonResponse(200, PageJson("keys", ToJson(p.rows), p.total, page));
}

Response KeyStats(const AdminDeps& deps, Context&) {
  SV_ASSIGN_OR_RESPOND(ports::AdminRecord r, app::admin::GetKeyStats(deps));
  return JsonResponse(200, ToJson(r));
}

Response Activity(const AdminDeps& deps, Context&) {
  SV_ASSIGN_OR_RESPOND(std::vector<ports::AdminRecord> a, app::admin::GetActivity(deps));
  return JsonResponse(200, json::object{{"activity", ToJson(a)}});
}

Response Tables(const AdminDeps& deps, Context&) {
  SV_ASSIGN_OR_RESPOND(auto tables, app::admin::ListTables(deps));
  json::array out;
  for (const auto& [name, count] : tables)
    out.push_back(json::object{{"table_name", name}, {"row_count", count}});
  return JsonResponse(200, json::object{{"tables", std::move(out)}});
}

Response Table(const AdminDeps& deps, Context& ctx) {
  const std::string name = ctx.params.Get("table");
  SV_ASSIGN_OR_RESPOND(ports::PageRequest page, PageParams(ctx));
  SV_ASSIGN_OR_RESPOND(ports::AdminTable t, app::admin::ReadTable(deps, name, page));
  json::array columns;
  for (const auto& c : t.columns) columns.push_back(json::string(c));
  json::array rows;
  for (const auto& row : t.rows) {
    json::object o;
    for (size_t j = 0; j < row.size() && j < t.columns.size(); ++j) o[t.columns[j]] = ToJson(row[j]);
    rows.push_back(std::move(o));
  }
  return JsonResponse(200, json::object{{"table", name},
                                        {"columns", std::move(columns)},
                                        {"rows", std::move(rows)},
                                        {"total", t.total},
                                        {"limit", page.limit},
                                        {"offset", page.offset}});
}

Response AiUsage(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(int64_t days, IntParam(ctx, "days", domain::admin::kAiUsageDefaultDays, 1,
                                              domain::admin::kAiUsageMaxDays));
  SV_ASSIGN_OR_RESPOND(app::admin::AiUsageReport r, app::admin::GetAiUsage(deps, days));
  json::array daily;
  for (const auto& d : r.daily)
    daily.push_back(json::object{{"date", d.date}, {"calls", d.calls}, {"tokens", d.tokens}});
  const auto& u = r.rollup;
  return JsonResponse(
      200,
      json::object{{"summary", json::object{{"total_calls", u.total_calls},
                                            {"total_input_tokens", u.total_input_tokens},
                                            {"total_output_tokens", u.total_output_tokens},
                                            {"total_tokens", u.total_input_tokens + u.total_output_tokens}}},
                   {"daily", std::move(daily)},
                   {"byFeature", ToJson(u.by_feature)},
                   {"days", r.days}});
}

Response Backfill(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::capture::BackfillInput in;
  {
    StringRule r;
    r.uuid = true;
    std::optional<std::string> project = v.String("projectId", r);
    if (project) in.project_id = util::ToLower(*project);
  }
  {
    StringRule r;
    r.max = 100;
    in.cursor = TextField(v, "cursor", r).value_or("");
  }
  in.limit =
      v.Int("limit", false, 1, app::capture::kBackfillMaxLimit).value_or(app::capture::kBackfillDefaultLimit);
  if (!v.ok()) return ValidationFailed(v.details());
  SV_ASSIGN_OR_RESPOND(app::capture::BackfillResult r, app::admin::BackfillSignatures(deps, in));
  return JsonResponse(
      200, json::object{{"scanned", r.scanned},
                        {"updated", r.updated},
                        {"unchanged", r.unchanged},
                        {"skipped", r.skipped},
                        {"done", !r.next_cursor.has_value()},
                        {"nextCursor", r.next_cursor ? json::value(*r.next_cursor) : json::value(nullptr)}});
}

Response DeleteOrg(const AdminDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  StringRule r;
  r.required = true;
  r.max = 100;
  const std::string org_id = util::ToLower(v.String("orgId", r).value_or(""));
  const std::string confirm = util::ToLower(v.String("confirmOrgId", r).value_or(""));
  if (!v.ok()) return ValidationFailed(v.details());
  if (org_id != confirm) return StatusResponse(InvalidArgument("confirmOrgId must equal orgId"));
  if (!IsId(org_id)) return StatusResponse(NotFound("Customer not found"));
  SV_ASSIGN_OR_RESPOND(app::admin::DeletedOrganization d,
                       app::admin::DeleteOrganization(deps, org_id, confirm));
  json::object deleted;
  for (const auto& [table, n] : d.deleted) deleted[table] = n;
  return JsonResponse(
      200,
      json::object{
          {"success", true}, {"orgId", d.org.id}, {"orgName", d.org.name}, {"deleted", std::move(deleted)}});
}

}  // namespace

void RegisterAdminRoutes(Pipeline& p, const AdminDeps& deps) {
  Router& r = p.router();
  auto add = [&](const char* method, const char* pattern, Response (*fn)(const AdminDeps&, Context&)) {
    r.Add(method, pattern, RateClass::kGeneral, AuthMode::kNone, Guarded(deps, fn));
  };
  add("GET", "/v1/admin/overview", Overview);
  add("GET", "/v1/admin/organizations", Organizations);
  add("GET", "/v1/admin/customers", Customers);
  add("POST", "/v1/admin/customers", CreateCustomer);
  add("GET", "/v1/admin/customers/:orgId", Customer);
  add("PATCH", "/v1/admin/customers/:orgId", UpdateCustomer);
  add("POST", "/v1/admin/customers/:orgId/team", AddTeamMember);
  add("GET", "/v1/admin/users", Users);
  add("GET", "/v1/admin/waitlist", Waitlist);
  add("POST", "/v1/admin/waitlist/:id/approve", [](const AdminDeps& d, Context& c) {
    return WaitlistAction(d, c, app::admin::WaitlistAction::kApprove);
  });
  add("POST", "/v1/admin/waitlist/:id/reject", [](const AdminDeps& d, Context& c) {
    return WaitlistAction(d, c, app::admin::WaitlistAction::kReject);
  });
  add("POST", "/v1/admin/waitlist/:id/resend", [](const AdminDeps& d, Context& c) {
    return WaitlistAction(d, c, app::admin::WaitlistAction::kResend);
  });
  add("GET", "/v1/admin/projects", Projects);
  add("GET", "/v1/admin/api-keys", Keys);
  add("GET", "/v1/admin/api-key-stats", KeyStats);
  add("GET", "/v1/admin/activity", Activity);
  add("GET", "/v1/admin/db/tables", Tables);
  add("GET", "/v1/admin/db/tables/:table", Table);
  add("GET", "/v1/admin/ai-usage", AiUsage);
  add("POST", "/v1/admin/backfill-signatures", Backfill);
  add("POST", "/v1/admin/gdpr/delete-org", DeleteOrg);
}

}  // namespace service::api
