// What's new, and the account's own data: export and deletion.
#include <algorithm>
#include <boost/json.hpp>

#include "areas/accounts/app/accounts.h"
#include "areas/accounts/app/internal.h"
#include "areas/accounts/domain/secrets.h"

namespace service::app::accounts {

Result<WhatsNewResult> GetWhatsNew(const AccountsDeps& deps, const std::string& user_id,
                                   const std::string& session_id, const std::string& org_id) {
  WhatsNewResult out;
  std::optional<ports::User> user;
  const int64_t now = deps.Now();  // before the read: nothing falls between two reads
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(user, deps.users->FindById(c, user_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m, deps.memberships->Find(c, org_id, user_id));
    if (!m) return PermissionDenied("Not a member of this organization");
    if (!user) return Status::Ok();
    out.first_login = !session_id.empty() && user->first_session_id == session_id;
    if (out.first_login) return Status::Ok();
    out.since = std::max(user->previous_login_at.value_or(user->created_at),
                         user->last_whats_new_at.value_or(user->created_at));
    SV_ASSIGN_OR_RETURN(out.feed, deps.account_data->WhatsNewSince(c, org_id, out.since, kWhatsNewLimit));
    return Status::Ok();
  }));
  if (!user) return NotFound("User not found");
  SV_RETURN_IF_ERROR(
      deps.db->Write([&](ports::Tx& tx) { return deps.users->SetLastWhatsNew(tx, user_id, now); }));
  return out;
}

namespace {

Status MailNotConfigured() { return Status::Public(Code::kUnavailable, "Email delivery is not configured"); }

struct DeletionPlan {
  std::vector<std::string> delete_orgs;  // the account is their only member
  boost::json::array blockers;           // {orgId, orgName}: sole admin with other members
};

Result<DeletionPlan> PlanDeletion(const AccountsDeps& deps, ports::Tx& c, const std::string& user_id) {
  DeletionPlan plan;
  SV_ASSIGN_OR_RETURN(std::vector<ports::UserOrg> orgs, deps.memberships->ListForUser(c, user_id));
  for (const ports::UserOrg& o : orgs) {
    SV_ASSIGN_OR_RETURN(int64_t members, deps.memberships->Count(c, o.org_id));
    if (members <= 1) {
      plan.delete_orgs.push_back(o.org_id);
      continue;
    }
    if (o.role != "admin") continue;
    SV_ASSIGN_OR_RETURN(int64_t admins, deps.memberships->CountWithRole(c, o.org_id, "admin"));
    if (admins <= 1)
      plan.blockers.push_back(boost::json::object{{"orgId", o.org_id}, {"orgName", o.org_name}});
  }
  return plan;
}

Status SoleAdmin(const DeletionPlan& plan) {
  return Status(Code::kConflict,
                "You are the only admin of an organization with other members: make another member admin or "
                "remove the members first",
                "SOLE_ADMIN", boost::json::serialize(boost::json::object{{"organizations", plan.blockers}}));
}

}  // namespace

Result<int64_t> RequestDataExport(const AccountsDeps& deps, const std::string& user_id) {
  if (!deps.mail->configured()) return MailNotConfigured();
  const int64_t expires_at = deps.Now() + kDataExportTokenLifetimeMs;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, user_id));
    if (!user) return NotFound("User not found");
    SV_ASSIGN_OR_RETURN(
        std::string token,
        internal::IssueEmailToken(deps, tx, user_id, ports::kDataExportToken, kDataExportTokenLifetimeMs));
    return deps.mail->Enqueue(tx, internal::DataExportMail(deps, user->email, token));
  }));
  return expires_at;
}

Result<DataExport> DownloadDataExport(const AccountsDeps& deps, std::string_view token) {
  const Status invalid = InvalidArgument("Invalid or expired export link");
  if (!domain::accounts::IsWellFormedSecret(token)) return invalid;
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  DataExport out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    out.exported_at = deps.Now();
    SV_ASSIGN_OR_RETURN(std::optional<std::string> user_id,
                        deps.email_tokens->Consume(tx, ports::kDataExportToken, hash, out.exported_at));
    if (!user_id) return invalid;
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, *user_id));
    if (!user) return invalid;
    out.user = std::move(*user);
    SV_ASSIGN_OR_RETURN(out.orgs, deps.memberships->ListForUser(tx, *user_id));
    SV_ASSIGN_OR_RETURN(out.data, deps.account_data->Export(tx, *user_id));
    return Status::Ok();
  }));
  return out;
}

Result<int64_t> RequestAccountDeletion(const AccountsDeps& deps, const std::string& user_id) {
  if (!deps.mail->configured()) return MailNotConfigured();
  const int64_t expires_at = deps.Now() + kDataDeleteTokenLifetimeMs;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, user_id));
    if (!user) return NotFound("User not found");
    SV_ASSIGN_OR_RETURN(DeletionPlan plan, PlanDeletion(deps, tx, user_id));
    if (!plan.blockers.empty()) return SoleAdmin(plan);
    SV_ASSIGN_OR_RETURN(
        std::string token,
        internal::IssueEmailToken(deps, tx, user_id, ports::kDataDeleteToken, kDataDeleteTokenLifetimeMs));
    return deps.mail->Enqueue(tx, internal::AccountDeletionMail(deps, user->email, token));
  }));
  return expires_at;
}

Result<DeletedAccount> ConfirmAccountDeletion(const AccountsDeps& deps, std::string_view token) {
  const Status invalid = InvalidArgument("Invalid or expired deletion link");
  if (!domain::accounts::IsWellFormedSecret(token)) return invalid;
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  DeletedAccount out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<std::string> user_id,
                        deps.email_tokens->Consume(tx, ports::kDataDeleteToken, hash, deps.Now()));
    if (!user_id) return invalid;
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, *user_id));
    if (!user) return invalid;
    // Re-checked at confirmation: the team may have changed since the
    // request. Refusing rolls back, so the link stays usable.
    SV_ASSIGN_OR_RETURN(DeletionPlan plan, PlanDeletion(deps, tx, *user_id));
    if (!plan.blockers.empty()) return SoleAdmin(plan);
    SV_RETURN_IF_ERROR(deps.deletion->RunAccountDeleted(tx, *user_id));
    for (const std::string& org_id : plan.delete_orgs) {
      SV_RETURN_IF_ERROR(deps.deletion->RunOrganizationDeleted(tx, org_id));
      SV_RETURN_IF_ERROR(deps.orgs->Delete(tx, org_id));
    }
    SV_RETURN_IF_ERROR(deps.waitlist->DeleteByEmail(tx, user->email));
    SV_RETURN_IF_ERROR(deps.users->Delete(tx, *user_id));
    out.user_id = *user_id;
    out.deleted_org_ids = plan.delete_orgs;
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::accounts
