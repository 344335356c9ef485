// The superadmin's use cases (Spec 2 "Superadmin"; server contract
// "Superadmin", "Plans"). Reads go through the admin read model (one
// read-only SQL view over every area's tables); every write goes through
// the owning area: accounts (customers' organizations, members, plans, the
// waitlist, organization deletion with every area's deletion hooks),
// capture (signature backfill), and the admin area's own customer profiles.
//
// Callers are verified superadmins (the routes check). Failure: Status
// with the spec's messages: 404 "Customer not found", "Waitlist entry not
// found"; 400 for invalid values.
//
// Thread-safety: every function is safe to call concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "areas/accounts/app/accounts.h"
#include "areas/accounts/app/operator.h"
#include "areas/admin/domain/admin.h"
#include "areas/admin/ports/admin_read_model.h"
#include "areas/admin/ports/customer_profile_repository.h"
#include "areas/capture/app/signatures.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::admin {

struct AdminDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::AdminReadModel* read = nullptr;
  ports::CustomerProfileRepository* profiles = nullptr;
  const app::accounts::AccountsDeps* accounts = nullptr;
  app::capture::SignatureDeps signatures;

  int64_t Now() const { return clock->NowMillis(); }
};

// The caller: a verified allowlisted account. kUnauthenticated for a
// missing or invalid token; kPermissionDenied for anyone else.
Result<ports::User> AuthenticateSuperadmin(const AdminDeps& deps, std::string_view bearer_token);

struct Overview {
  ports::AdminRecord counts;
  struct Day {
    std::string date;
    int64_t users = 0, organizations = 0, bugs = 0;
  };
  std::vector<Day> growth;  // kGrowthDays UTC days ending today, oldest first
};
Result<Overview> GetOverview(const AdminDeps& deps);

Result<ports::AdminPage> ListOrganizations(const AdminDeps& deps, const std::optional<std::string>& search,
                                           ports::PageRequest page);
// Rows carry last_activity_at: the later of the last bug seen and the
// members' last sign-in.
Result<ports::AdminPage> ListCustomers(const AdminDeps& deps, const ports::CustomerFilter& filter,
                                       ports::PageRequest page);
struct CustomerDetail {
  ports::AdminRecord customer;
  std::vector<ports::AdminRecord> team;
  std::vector<ports::AdminRecord> projects;
};
Result<CustomerDetail> GetCustomer(const AdminDeps& deps, const std::string& org_id);

// POST /v1/admin/customers (app::accounts::CreateCustomer, then the
// profile in the same transaction).
struct NewCustomerInput {
  std::string org_name;
  std::string contact_email;  // normalised
  std::string contact_name;
  std::string plan = "free";
  std::string lifecycle_stage = domain::admin::kDefaultStage;
  std::string billing_status = domain::admin::kDefaultBillingStatus;
  std::optional<std::string> use_case;
  std::string operator_id;
};
Result<app::accounts::CreatedCustomer> CreateCustomer(const AdminDeps& deps, const NewCustomerInput& in);

Result<app::accounts::OperatorMember> AddTeamMember(const AdminDeps& deps,
                                                    const app::accounts::OperatorMemberInput& in);

// PATCH /v1/admin/customers/:orgId: any of the fields (values checked by
// the route). 400 "Nothing to update" when none; 404.
struct CustomerUpdate {
  std::optional<std::string> plan;
  ports::CustomerProfileChange profile;
  bool empty() const {
    return !plan && !profile.lifecycle_stage && !profile.billing_status && !profile.admin_notes;
  }
};
Result<ports::AdminRecord> UpdateCustomer(const AdminDeps& deps, const std::string& org_id,
                                          const CustomerUpdate& in);

// Users with their organizations (orgs[{orgId, role, orgName}]).
struct UserRow {
  ports::AdminRecord user;
  std::vector<ports::AdminRecord> orgs;
};
struct UserPage {
  std::vector<UserRow> users;
  int64_t total = 0;
};
Result<UserPage> ListUsers(const AdminDeps& deps, const std::optional<std::string>& search,
                           ports::PageRequest page);

Result<ports::AdminPage> ListWaitlist(const AdminDeps& deps, const std::optional<std::string>& search,
                                      const std::optional<std::string>& status, ports::PageRequest page);
// POST /v1/admin/waitlist/:id/{approve,reject,resend}
// (app::accounts::ApproveWaitlistEntry and its siblings).
enum class WaitlistAction { kApprove, kReject, kResend };
Status ActOnWaitlist(const AdminDeps& deps, const std::string& id, WaitlistAction action,
                     const std::optional<std::string>& note);

Result<ports::AdminPage> ListProjects(const AdminDeps& deps, ports::PageRequest page);
Result<ports::AdminPage> ListKeys(const AdminDeps& deps, ports::PageRequest page);
Result<ports::AdminRecord> GetKeyStats(const AdminDeps& deps);

// Newest first, at most domain::admin::kActivityLimit.
Result<std::vector<ports::AdminRecord>> GetActivity(const AdminDeps& deps);

Result<std::vector<std::pair<std::string, int64_t>>> ListTables(const AdminDeps& deps);
// 400 "Table not allowed" for a name off the allowlist.
Result<ports::AdminTable> ReadTable(const AdminDeps& deps, const std::string& name, ports::PageRequest page);

struct AiUsageReport {
  int64_t days = 0;
  ports::AiUsageRollup rollup;
  struct Day {
    std::string date;
    int64_t calls = 0, tokens = 0;
  };
  std::vector<Day> daily;  // `days` UTC days ending today, oldest first, zeros included
};
// `days` in 1..kAiUsageMaxDays (checked by the route).
Result<AiUsageReport> GetAiUsage(const AdminDeps& deps, int64_t days);

Result<app::capture::BackfillResult> BackfillSignatures(const AdminDeps& deps,
                                                        const app::capture::BackfillInput& in);

// POST /v1/admin/gdpr/delete-org: 400 "confirmOrgId must equal orgId"
// unless they match; 404 "Customer not found". Answers the organization and
// how many of its rows each table held (all gone afterwards).
struct DeletedOrganization {
  ports::Organization org;
  std::vector<std::pair<std::string, int64_t>> deleted;
};
Result<DeletedOrganization> DeleteOrganization(const AdminDeps& deps, const std::string& org_id,
                                               const std::string& confirm_org_id);

}  // namespace service::app::admin
