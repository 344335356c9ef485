// Signup: direct registration, the waitlist, and completing an approved
// waitlist signup.
#include "app/auth/auth.h"
#include "app/auth/internal.h"
#include "domain/auth/account.h"
#include "domain/auth/secrets.h"

namespace service::app {

using auth_internal::WorkspaceSeed;

namespace {

// Runs `attempt` in a write transaction, again when another request took the
// organization slug it chose (a race on the unique index).
Result<Workspace> WriteWorkspace(Core& core,
                                 const std::function<Status(store::Connection&, Workspace*)>& attempt) {
  for (int i = 0;; ++i) {
    Workspace ws;
    Status s = core.db->Write([&](store::Connection& tx) { return attempt(tx, &ws); });
    if (s.ok()) return ws;
    if (s.error_code() != auth_internal::kSlugTakenCode || i >= 3) return s;
  }
}

}  // namespace

Result<Workspace> Register(Core& core, const RegisterInput& in) {
  SV_ASSIGN_OR_RETURN(std::string hash, auth_internal::HashNewPassword(core, in.password));
  const WorkspaceSeed seed{in.email, in.name, in.org_name, hash, false};
  return WriteWorkspace(core, [&](store::Connection& tx, Workspace* ws) {
    return auth_internal::InsertWorkspace(core, tx, seed, ws);
  });
}

Result<WaitlistOutcome> JoinWaitlist(Core& core, const WaitlistInput& in) {
  WaitlistOutcome out;
  SV_RETURN_IF_ERROR(core.db->Write([&](store::Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, core.users->FindByEmail(tx, in.email));
    if (user) return Conflict("An account with this email already exists");
    SV_ASSIGN_OR_RETURN(std::optional<ports::WaitlistEntry> entry, core.waitlist->FindByEmail(tx, in.email));
    std::optional<domain::WaitlistStatus> current;
    if (entry)
      current = domain::ParseWaitlistStatus(entry->status).value_or(domain::WaitlistStatus::kPending);
    SV_ASSIGN_OR_RETURN(domain::WaitlistJoin join, domain::DecideWaitlistJoin(current));
    out.status = std::string(domain::WaitlistStatusName(join.next));
    out.accepted = join.accepted;
    const int64_t now = core.Now();
    if (!entry) {
      ports::WaitlistEntry e;
      e.id = core.ids->NewId();
      e.email = in.email;
      e.name = in.name;
      e.org_name = in.org_name;
      e.use_case = in.use_case;
      e.status = out.status;
      e.created_at = e.updated_at = now;
      SV_RETURN_IF_ERROR(core.waitlist->Insert(tx, e));
    } else if (join.next == domain::WaitlistStatus::kPending) {
      // Pending again (or still): the latest details win.
      ports::WaitlistEntry e = *entry;
      e.name = in.name;
      e.org_name = in.org_name;
      e.use_case = in.use_case;
      e.status = out.status;
      SV_RETURN_IF_ERROR(core.waitlist->UpdateDetails(tx, e, now));
    }
    if (join.send_receipt && MailConfigured(core)) {
      SV_RETURN_IF_ERROR(EnqueueMail(core, tx, auth_internal::WaitlistReceiptMail(core, in.email, in.name)));
    }
    return Status::Ok();
  }));
  return out;
}

namespace {
Status InvalidApproval() { return InvalidArgument("Invalid or expired approval link"); }
}  // namespace

Result<ApprovalInfo> InspectApproval(Core& core, std::string_view token) {
  if (!domain::IsWellFormedSecret(token)) return InvalidApproval();
  const std::string hash = domain::SecretHash(domain::NormalizeSecret(token));
  std::optional<ports::WaitlistEntry> entry;
  SV_RETURN_IF_ERROR(core.db->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(entry, core.waitlist->FindByApprovalToken(c, hash, core.Now()));
    return Status::Ok();
  }));
  if (!entry) return InvalidApproval();
  return ApprovalInfo{entry->email, entry->name, entry->org_name};
}

Result<Workspace> CompleteSignup(Core& core, std::string_view token, const std::string& name,
                                 const std::string& password) {
  if (!domain::IsWellFormedSecret(token)) return InvalidApproval();
  const std::string hash = domain::SecretHash(domain::NormalizeSecret(token));
  SV_ASSIGN_OR_RETURN(std::string password_hash, auth_internal::HashNewPassword(core, password));
  return WriteWorkspace(core, [&](store::Connection& tx, Workspace* ws) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::WaitlistEntry> entry,
                        core.waitlist->Complete(tx, hash, core.Now()));
    if (!entry) return InvalidApproval();
    // The approval link came by mail: the address is verified.
    const WorkspaceSeed seed{entry->email, name, entry->org_name, password_hash, true};
    return auth_internal::InsertWorkspace(core, tx, seed, ws);
  });
}

}  // namespace service::app
