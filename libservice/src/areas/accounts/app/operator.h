// The superadmin's account use cases (Spec 2 "Superadmin"; the admin area's
// routes call them): customer organizations created by an operator, members
// added by an operator, plan changes, the waitlist's approve, reject and
// resend, and an organization's hard deletion. The operator is a verified
// allowlisted account (IsSuperadmin) that need not belong to the
// organization; the routes check that, these functions do not.
//
// Every function writes what it changes in ONE Database::Write, mail
// included. Failure: kNotFound for an unknown organization or entry (the
// messages below), kInvalidArgument for a rule the domain refuses,
// kConflict for an existing membership or a deactivated account.
//
// Thread-safety: every function is safe to call concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "areas/accounts/app/accounts.h"

namespace service::app::accounts {

// POST /v1/admin/customers. `contact_email` normalised, names valid, `plan`
// a known plan. Creates the organization (slug from its name) and its first
// project (AccountsDeps::create_first_project, key created by the operator).
// An existing account (active or pending) becomes its admin: an active one
// is mailed that it was added, a pending one an invitation link. Anyone
// else gets an approved waitlist entry naming the organization (an earlier
// entry of the email is replaced) with a 7-day approval token and the
// approval mail: completing that signup joins the organization as admin.
// `extra` runs in the same transaction with the new organization (the admin
// area writes its customer profile there). 409 for a deactivated account.
struct NewCustomer {
  std::string org_name;
  std::string contact_email;
  std::string contact_name;  // may be empty
  std::string plan = "free";
  std::optional<std::string> use_case;
  std::string operator_id;  // the superadmin's user id
};
struct CreatedCustomer {
  ports::Organization org;
  FirstProject project;     // api_key: never shown by the admin routes
  std::string user_id;      // the existing account made admin, or ""
  std::string waitlist_id;  // the approved entry, or ""
};
using CustomerExtra = std::function<Status(ports::Tx& tx, const ports::Organization& org)>;
Result<CreatedCustomer> CreateCustomer(const AccountsDeps& deps, const NewCustomer& in,
                                       const CustomerExtra& extra = {});

// POST /v1/admin/customers/:orgId/team: adds `email` with `role` (a known
// role) to the organization as the operator: a new email gets a pending
// account (named `name`) and an invitation link, a pending one a fresh link,
// an active one the "added" mail. No plan limit applies to the operator.
// 404 "Customer not found"; 409 already a member or deactivated.
struct OperatorMemberInput {
  std::string org_id;
  std::string email;  // normalised
  std::string role;
  std::string name;
  std::string operator_id;
};
struct OperatorMember {
  std::string user_id;
  std::string role;
};
Result<OperatorMember> AddMemberAsOperator(const AccountsDeps& deps, const OperatorMemberInput& in);

// PATCH /v1/admin/customers/:orgId {plan}: the one way a plan changes.
// 404 "Customer not found".
Status SetOrganizationPlan(const AccountsDeps& deps, ports::Tx& tx, const std::string& org_id,
                           const std::string& plan);

// POST /v1/admin/waitlist/:id/{approve,reject,resend} (rules in
// domain/account.h). Approve and resend issue a fresh 7-day token (the
// earlier one stops working) and mail the link; reject clears it. 404
// "Waitlist entry not found"; approve of a completed entry 400 "Signup
// already completed"; resend of a non-approved entry 400 "Only approved
// entries can be resent".
Status ApproveWaitlistEntry(const AccountsDeps& deps, const std::string& id,
                            const std::optional<std::string>& note);
Status RejectWaitlistEntry(const AccountsDeps& deps, const std::string& id,
                           const std::optional<std::string>& note);
Status ResendWaitlistApproval(const AccountsDeps& deps, const std::string& id);

// POST /v1/admin/gdpr/delete-org: runs every area's deletion hooks, then
// deletes the organization (its cascading rows go with it), in one
// transaction. `before_delete` runs first in it (the admin area counts what
// goes). 404 "Customer not found".
using OrganizationStep = std::function<Status(ports::Tx& tx, const ports::Organization& org)>;
Result<ports::Organization> DeleteOrganizationAsOperator(const AccountsDeps& deps, const std::string& org_id,
                                                         const OrganizationStep& before_delete = {});

}  // namespace service::app::accounts
