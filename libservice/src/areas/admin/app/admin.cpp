#include "areas/admin/app/admin.h"

#include <algorithm>

#include "util/strings.h"

namespace service::app::admin {
namespace {

Status CustomerNotFound() { return NotFound("Customer not found"); }

int64_t TimeOf(const ports::AdminRecord& r, std::string_view name) {
  const ports::AdminValue* v = r.Get(name);
  if (!v) return -1;
  if (const auto* t = std::get_if<ports::AdminTime>(v)) return t->unix_ms;
  return -1;
}

// last_activity_at: the later of the last bug seen and the members' last
// sign-in (null when neither exists); the helper field goes.
void AddLastActivity(ports::AdminRecord& r) {
  const int64_t last = std::max(TimeOf(r, "last_bug_seen"), TimeOf(r, "last_member_login"));
  std::erase_if(r.fields, [](const auto& f) { return f.first == "last_member_login"; });
  r.Set("last_activity_at",
        last < 0 ? ports::AdminValue(nullptr) : ports::AdminValue(ports::AdminTime{last}));
}

ports::PageRequest AsOf(const AdminDeps& deps, ports::PageRequest page) {
  page.now_ms = deps.Now();
  return page;
}

}  // namespace

Result<ports::User> AuthenticateSuperadmin(const AdminDeps& deps, std::string_view token) {
  const Status denied = PermissionDenied("Superadmin access required");
  if (token.empty()) return Unauthenticated("Missing or invalid token");
  // Agent tokens are never a superadmin's.
  if (util::StartsWith(token, "sv_pat_")) return denied;
  SV_ASSIGN_OR_RETURN(app::accounts::Caller caller,
                      app::accounts::AuthenticateAccess(*deps.accounts, token, nullptr));
  if (!app::accounts::IsSuperadmin(*deps.accounts, caller.user)) return denied;
  return caller.user;
}

Result<Overview> GetOverview(const AdminDeps& deps) {
  Overview out;
  const int64_t first = domain::admin::SeriesStart(deps.Now(), domain::admin::kGrowthDays);
  ports::DailyCounts users, orgs, bugs;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out.counts, deps.read->Counts(c));
    SV_ASSIGN_OR_RETURN(users, deps.read->Daily(c, ports::GrowthSeries::kUsers, first));
    SV_ASSIGN_OR_RETURN(orgs, deps.read->Daily(c, ports::GrowthSeries::kOrganizations, first));
    SV_ASSIGN_OR_RETURN(bugs, deps.read->Daily(c, ports::GrowthSeries::kBugs, first));
    return Status::Ok();
  }));
  for (int64_t d = first; d < first + domain::admin::kGrowthDays; ++d) {
    Overview::Day day;
    day.date = domain::admin::DayString(d);
    if (auto it = users.find(d); it != users.end()) day.users = it->second;
    if (auto it = orgs.find(d); it != orgs.end()) day.organizations = it->second;
    if (auto it = bugs.find(d); it != bugs.end()) day.bugs = it->second;
    out.growth.push_back(std::move(day));
  }
  return out;
}

Result<ports::AdminPage> ListOrganizations(const AdminDeps& deps, const std::optional<std::string>& search,
                                           ports::PageRequest page) {
  ports::AdminPage out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->Organizations(c, search, AsOf(deps, page)));
    return Status::Ok();
  }));
  return out;
}

Result<ports::AdminPage> ListCustomers(const AdminDeps& deps, const ports::CustomerFilter& filter,
                                       ports::PageRequest page) {
  ports::AdminPage out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->Customers(c, filter, AsOf(deps, page)));
    return Status::Ok();
  }));
  for (auto& r : out.rows) AddLastActivity(r);
  return out;
}

Result<CustomerDetail> GetCustomer(const AdminDeps& deps, const std::string& org_id) {
  CustomerDetail out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::AdminRecord> customer,
                        deps.read->Customer(c, org_id, deps.Now()));
    if (!customer) return CustomerNotFound();
    out.customer = std::move(*customer);
    SV_ASSIGN_OR_RETURN(out.team, deps.read->Team(c, org_id));
    SV_ASSIGN_OR_RETURN(out.projects, deps.read->CustomerProjects(c, org_id, deps.Now()));
    return Status::Ok();
  }));
  AddLastActivity(out.customer);
  return out;
}

Result<app::accounts::CreatedCustomer> CreateCustomer(const AdminDeps& deps, const NewCustomerInput& in) {
  app::accounts::NewCustomer c;
  c.org_name = in.org_name;
  c.contact_email = in.contact_email;
  c.contact_name = in.contact_name;
  c.plan = in.plan;
  c.use_case = in.use_case;
  c.operator_id = in.operator_id;
  return app::accounts::CreateCustomer(*deps.accounts, c, [&](ports::Tx& tx, const ports::Organization& org) {
    ports::CustomerProfile p;
    p.org_id = org.id;
    p.lifecycle_stage = in.lifecycle_stage;
    p.billing_status = in.billing_status;
    if (!in.contact_name.empty()) p.contact_name = in.contact_name;
    p.contact_email = in.contact_email;
    p.use_case = in.use_case;
    p.created_at = p.updated_at = deps.Now();
    return deps.profiles->Insert(tx, p);
  });
}

Result<app::accounts::OperatorMember> AddTeamMember(const AdminDeps& deps,
                                                    const app::accounts::OperatorMemberInput& in) {
  return app::accounts::AddMemberAsOperator(*deps.accounts, in);
}

Result<ports::AdminRecord> UpdateCustomer(const AdminDeps& deps, const std::string& org_id,
                                          const CustomerUpdate& in) {
  if (in.empty()) return InvalidArgument("Nothing to update");
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    if (in.plan) {
      SV_RETURN_IF_ERROR(app::accounts::SetOrganizationPlan(*deps.accounts, tx, org_id, *in.plan));
    } else {
      SV_ASSIGN_OR_RETURN(std::optional<ports::AdminRecord> found,
                          deps.read->Customer(tx, org_id, deps.Now()));
      if (!found) return CustomerNotFound();
    }
    const ports::CustomerProfileChange& p = in.profile;
    if (p.lifecycle_stage || p.billing_status || p.admin_notes)
      SV_RETURN_IF_ERROR(deps.profiles->Apply(tx, org_id, p, deps.Now()));
    return Status::Ok();
  }));
  SV_ASSIGN_OR_RETURN(CustomerDetail detail, GetCustomer(deps, org_id));
  return detail.customer;
}

Result<UserPage> ListUsers(const AdminDeps& deps, const std::optional<std::string>& search,
                           ports::PageRequest page) {
  UserPage out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::AdminPage users, deps.read->Users(c, search, AsOf(deps, page)));
    out.total = users.total;
    std::vector<std::string> ids;
    for (auto& u : users.rows) {
      const ports::AdminValue* id = u.Get("id");
      ids.push_back(id && std::holds_alternative<std::string>(*id) ? std::get<std::string>(*id)
                                                                   : std::string());
      out.users.push_back(UserRow{std::move(u), {}});
    }
    SV_ASSIGN_OR_RETURN(std::vector<ports::AdminRecord> orgs, deps.read->OrgsOfUsers(c, ids));
    for (auto& o : orgs) {
      const ports::AdminValue* uid = o.Get("user_id");
      const std::string user_id =
          uid && std::holds_alternative<std::string>(*uid) ? std::get<std::string>(*uid) : "";
      std::erase_if(o.fields, [](const auto& f) { return f.first == "user_id"; });
      for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == user_id) out.users[i].orgs.push_back(o);
    }
    return Status::Ok();
  }));
  return out;
}

Result<ports::AdminPage> ListWaitlist(const AdminDeps& deps, const std::optional<std::string>& search,
                                      const std::optional<std::string>& status, ports::PageRequest page) {
  ports::AdminPage out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->Waitlist(c, search, status, AsOf(deps, page)));
    return Status::Ok();
  }));
  return out;
}

Status ActOnWaitlist(const AdminDeps& deps, const std::string& id, WaitlistAction action,
                     const std::optional<std::string>& note) {
  switch (action) {
    case WaitlistAction::kApprove:
      return app::accounts::ApproveWaitlistEntry(*deps.accounts, id, note);
    case WaitlistAction::kReject:
      return app::accounts::RejectWaitlistEntry(*deps.accounts, id, note);
    case WaitlistAction::kResend:
      return app::accounts::ResendWaitlistApproval(*deps.accounts, id);
  }
  return InvalidArgument("Unknown waitlist action");
}

Result<ports::AdminPage> ListProjects(const AdminDeps& deps, ports::PageRequest page) {
  ports::AdminPage out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->Projects(c, AsOf(deps, page)));
    return Status::Ok();
  }));
  return out;
}

Result<ports::AdminPage> ListKeys(const AdminDeps& deps, ports::PageRequest page) {
  ports::AdminPage out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->Keys(c, AsOf(deps, page)));
    return Status::Ok();
  }));
  return out;
}

Result<ports::AdminRecord> GetKeyStats(const AdminDeps& deps) {
  ports::AdminRecord out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->KeyStats(c, deps.Now()));
    return Status::Ok();
  }));
  return out;
}

Result<std::vector<ports::AdminRecord>> GetActivity(const AdminDeps& deps) {
  std::vector<ports::AdminRecord> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->Activity(c, domain::admin::kActivityLimit));
    return Status::Ok();
  }));
  // Newest first across the kinds (stable: ties keep the kinds' order).
  std::stable_sort(out.begin(), out.end(), [](const ports::AdminRecord& a, const ports::AdminRecord& b) {
    return TimeOf(a, "ts") > TimeOf(b, "ts");
  });
  if (static_cast<int64_t>(out.size()) > domain::admin::kActivityLimit)
    out.resize(domain::admin::kActivityLimit);
  return out;
}

Result<std::vector<std::pair<std::string, int64_t>>> ListTables(const AdminDeps& deps) {
  std::vector<std::pair<std::string, int64_t>> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->TableCounts(c));
    return Status::Ok();
  }));
  return out;
}

Result<ports::AdminTable> ReadTable(const AdminDeps& deps, const std::string& name, ports::PageRequest page) {
  const Status not_allowed = InvalidArgument("Table not allowed");
  if (!domain::admin::IsAllowlistedTable(name)) return not_allowed;
  std::optional<ports::AdminTable> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.read->Table(c, name, AsOf(deps, page)));
    return Status::Ok();
  }));
  if (!out) return not_allowed;
  return std::move(*out);
}

Result<AiUsageReport> GetAiUsage(const AdminDeps& deps, int64_t days) {
  AiUsageReport out;
  out.days = days;
  const int64_t first = domain::admin::SeriesStart(deps.Now(), days);
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out.rollup, deps.read->AiUsage(c, first * domain::admin::kDayMs));
    return Status::Ok();
  }));
  for (int64_t d = first; d < first + days; ++d) {
    AiUsageReport::Day day;
    day.date = domain::admin::DayString(d);
    if (auto it = out.rollup.daily.find(d); it != out.rollup.daily.end()) {
      day.calls = it->second.calls;
      day.tokens = it->second.tokens;
    }
    out.daily.push_back(std::move(day));
  }
  return out;
}

Result<app::capture::BackfillResult> BackfillSignatures(const AdminDeps& deps,
                                                        const app::capture::BackfillInput& in) {
  return app::capture::BackfillSignatures(deps.signatures, in);
}

Result<DeletedOrganization> DeleteOrganization(const AdminDeps& deps, const std::string& org_id,
                                               const std::string& confirm_org_id) {
  if (!domain::admin::ConfirmsDeletion(org_id, confirm_org_id))
    return InvalidArgument("confirmOrgId must equal orgId");
  DeletedOrganization out;
  SV_ASSIGN_OR_RETURN(out.org,
                      app::accounts::DeleteOrganizationAsOperator(
                          *deps.accounts, org_id, [&](ports::Tx& tx, const ports::Organization&) -> Status {
                            SV_ASSIGN_OR_RETURN(out.deleted, deps.read->OrganizationFootprint(tx, org_id));
                            return Status::Ok();
                          }));
  return out;
}

}  // namespace service::app::admin
