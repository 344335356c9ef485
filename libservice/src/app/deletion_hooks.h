// DeletionHooks: how an organization, a membership or an account is removed
// completely without a hand-kept list of every area's tables. Rows that hang
// off an organization, user or bug through a foreign key go with it
// (ON DELETE CASCADE); each area registers a hook for the rows it owns that
// do not (rows keyed by org_id or user_id alone, references it clears rather
// than deletes). The deleting use case runs every hook inside its own write
// transaction, before the parent row is deleted, so a failing hook leaves
// nothing half-deleted.
//
// Thread-safety: register while the service is being assembled (before it
// handles requests); Run* may then be called from any thread.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::app {

class DeletionHooks {
 public:
  using OrganizationHook = std::function<Status(ports::Tx& tx, const std::string& org_id)>;
  using MemberHook =
      std::function<Status(ports::Tx& tx, const std::string& org_id, const std::string& user_id)>;
  using AccountHook = std::function<Status(ports::Tx& tx, const std::string& user_id)>;

  // An organization is about to be deleted (its memberships, projects, keys
  // and bugs cascade).
  void OnOrganizationDeleted(OrganizationHook hook) { org_hooks_.push_back(std::move(hook)); }
  // A member leaves an organization (removed by an admin, or their account
  // is deleted): their per-organization rows go.
  void OnMemberRemoved(MemberHook hook) { member_hooks_.push_back(std::move(hook)); }
  // An account is about to be deleted: its personal rows go, references to
  // it in shared rows are cleared.
  void OnAccountDeleted(AccountHook hook) { account_hooks_.push_back(std::move(hook)); }

  Status RunOrganizationDeleted(ports::Tx& tx, const std::string& org_id) const {
    for (const auto& h : org_hooks_) SV_RETURN_IF_ERROR(h(tx, org_id));
    return Status::Ok();
  }
  Status RunMemberRemoved(ports::Tx& tx, const std::string& org_id, const std::string& user_id) const {
    for (const auto& h : member_hooks_) SV_RETURN_IF_ERROR(h(tx, org_id, user_id));
    return Status::Ok();
  }
  Status RunAccountDeleted(ports::Tx& tx, const std::string& user_id) const {
    for (const auto& h : account_hooks_) SV_RETURN_IF_ERROR(h(tx, user_id));
    return Status::Ok();
  }

 private:
  std::vector<OrganizationHook> org_hooks_;
  std::vector<MemberHook> member_hooks_;
  std::vector<AccountHook> account_hooks_;
};

}  // namespace service::app
