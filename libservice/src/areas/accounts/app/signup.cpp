// Signup: direct registration, the waitlist, and completing an approved
// waitlist signup.
#include "areas/accounts/app/accounts.h"
#include "areas/accounts/app/internal.h"
#include "areas/accounts/domain/account.h"
#include "areas/accounts/domain/secrets.h"

namespace service::app::accounts {

using internal::WorkspaceSeed;

namespace {

// Runs `attempt` in a write transaction, again when another request took the
// organization slug it chose (a race on the unique index).
Result<Workspace> WriteWorkspace(const AccountsDeps& deps,
                                 const std::function<Status(ports::Tx&, Workspace*)>& attempt) {
  for (int i = 0;; ++i) {
    Workspace ws;
    Status s = deps.db->Write([&](ports::Tx& tx) { return attempt(tx, &ws); });
    if (s.ok()) return ws;
    if (s.error_code() != internal::kSlugTakenCode || i >= 3) return s;
  }
}

}  // namespace

Result<Workspace> Register(const AccountsDeps& deps, const RegisterInput& in) {
  SV_ASSIGN_OR_RETURN(std::string hash, internal::HashNewPassword(deps, in.password));
  const WorkspaceSeed seed{in.email, in.name, in.org_name, hash, false};
  return WriteWorkspace(
      deps, [&](ports::Tx& tx, Workspace* ws) { return internal::InsertWorkspace(deps, tx, seed, ws); });
}

Result<WaitlistOutcome> JoinWaitlist(const AccountsDeps& deps, const WaitlistInput& in) {
  WaitlistOutcome out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindByEmail(tx, in.email));
    if (user) return Conflict("An account with this email already exists");
    SV_ASSIGN_OR_RETURN(std::optional<ports::WaitlistEntry> entry, deps.waitlist->FindByEmail(tx, in.email));
    std::optional<domain::accounts::WaitlistStatus> current;
    if (entry)
      current = domain::accounts::ParseWaitlistStatus(entry->status)
                    .value_or(domain::accounts::WaitlistStatus::kPending);
    SV_ASSIGN_OR_RETURN(domain::accounts::WaitlistJoin join, domain::accounts::DecideWaitlistJoin(current));
    out.status = std::string(domain::accounts::WaitlistStatusName(join.next));
    out.accepted = join.accepted;
    const int64_t now = deps.Now();
    if (!entry) {
      ports::WaitlistEntry e;
      e.id = deps.ids->NewId();
      e.email = in.email;
      e.name = in.name;
      e.org_name = in.org_name;
      e.use_case = in.use_case;
      e.status = out.status;
      e.created_at = e.updated_at = now;
      SV_RETURN_IF_ERROR(deps.waitlist->Insert(tx, e));
    } else if (join.next == domain::accounts::WaitlistStatus::kPending) {
      // Pending again (or still): the latest details win.
      ports::WaitlistEntry e = *entry;
      e.name = in.name;
      e.org_name = in.org_name;
      e.use_case = in.use_case;
      e.status = out.status;
      SV_RETURN_IF_ERROR(deps.waitlist->UpdateDetails(tx, e, now));
    }
    if (join.send_receipt && deps.mail->configured()) {
      SV_RETURN_IF_ERROR(deps.mail->Enqueue(tx, internal::WaitlistReceiptMail(deps, in.email, in.name)));
    }
    return Status::Ok();
  }));
  return out;
}

namespace {
Status InvalidApproval() { return InvalidArgument("Invalid or expired approval link"); }

// Completing the signup of an entry an operator made with a new
// organization (POST /v1/admin/customers): the account joins that
// organization as its admin; its project exists already (ws->project stays
// empty: no capture key is shown again).
Status JoinCustomerOrganization(const AccountsDeps& deps, ports::Tx& tx, const ports::WaitlistEntry& entry,
                                const std::string& name, const std::string& password_hash, Workspace* ws) {
  const int64_t now = deps.Now();
  SV_ASSIGN_OR_RETURN(std::optional<ports::Organization> org, deps.orgs->Find(tx, *entry.target_org_id));
  if (!org) return InvalidApproval();
  SV_ASSIGN_OR_RETURN(std::optional<ports::User> existing, deps.users->FindByEmail(tx, entry.email));
  if (existing) return Conflict("Email already registered");
  ports::User& user = ws->user;
  user = ports::User{};
  user.id = deps.ids->NewId();
  user.email = entry.email;
  user.name = name;
  user.password_hash = password_hash;
  user.email_verified = true;
  user.status = "active";
  user.created_at = user.updated_at = now;
  user.last_org_id = org->id;
  user.last_login_at = now;
  const std::string session_id = deps.ids->NewId();  // signing up is the first sign-in
  user.first_session_id = session_id;
  Status s = deps.users->Insert(tx, user);
  if (s.code() == Code::kConflict) return Conflict("Email already registered");
  SV_RETURN_IF_ERROR(s);
  SV_RETURN_IF_ERROR(
      deps.memberships->Insert(tx, ports::Membership{org->id, user.id, "admin", std::nullopt, now}));
  ws->org = *org;
  SV_ASSIGN_OR_RETURN(ws->tokens,
                      internal::IssueSession(deps, tx, user.id, org->id, user.session_revision, session_id));
  return Status::Ok();
}
}  // namespace

Result<ApprovalInfo> InspectApproval(const AccountsDeps& deps, std::string_view token) {
  if (!domain::accounts::IsWellFormedSecret(token)) return InvalidApproval();
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  std::optional<ports::WaitlistEntry> entry;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(entry, deps.waitlist->FindByApprovalToken(c, hash, deps.Now()));
    return Status::Ok();
  }));
  if (!entry) return InvalidApproval();
  return ApprovalInfo{entry->email, entry->name, entry->org_name};
}

Result<Workspace> CompleteSignup(const AccountsDeps& deps, std::string_view token, const std::string& name,
                                 const std::string& password) {
  if (!domain::accounts::IsWellFormedSecret(token)) return InvalidApproval();
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(token));
  SV_ASSIGN_OR_RETURN(std::string password_hash, internal::HashNewPassword(deps, password));
  return WriteWorkspace(deps, [&](ports::Tx& tx, Workspace* ws) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::WaitlistEntry> entry,
                        deps.waitlist->Complete(tx, hash, deps.Now()));
    if (!entry) return InvalidApproval();
    // The approval link came by mail: the address is verified.
    if (entry->target_org_id) return JoinCustomerOrganization(deps, tx, *entry, name, password_hash, ws);
    const WorkspaceSeed seed{entry->email, name, entry->org_name, password_hash, true};
    return internal::InsertWorkspace(deps, tx, seed, ws);
  });
}

}  // namespace service::app::accounts
