// Support sessions (Spec 2 "Superadmin" POST /v1/admin/support/session,
// "Billing" and "Alerts" refusals; server contract "Support sessions"): a
// superadmin opens a session on an organization and, for 8 hours, acts
// there with an admin's rights on every request that sends its bearer
// token, X-Service-Org and X-Service-Support-Session. The bearer
// authenticator (accounts) asks CheckAndRecord through
// AccountsDeps::check_support_session; every request it lets through is
// logged for the organization's admins (ListForOrg).
//
// The log is written when the request is authenticated (before its
// handler runs): it records that the operator called a route (method and
// route pattern), also when the handler then refuses or fails, and carries
// no response status. Routes Spec 2 closes to support sessions check
// Principal::support_session_id themselves (403).
//
// Thread-safety: every function is safe to call concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "areas/accounts/app/accounts.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/support/ports/support_session_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::support {

// What the support area needs. Pointers are borrowed from the Service and
// outlive every call.
struct SupportDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::OrgRepository* orgs = nullptr;  // the accounts area's
  ports::SupportSessionRepository* sessions = nullptr;

  int64_t Now() const { return clock->NowMillis(); }
};

// The superadmin opening or ending a session (authenticated already).
struct Operator {
  std::string user_id;
  std::string email;
};

struct StartedSession {
  ports::SupportSession session;
  ports::Organization org;
};
// POST /v1/admin/support/session: a new session on `org_id` for 8 hours
// (domain::support::kSessionLifetimeMs), mode "admin". 404 "Organization
// not found" (org_id is a UUID: the API layer answers 400 otherwise).
Result<StartedSession> StartSession(const SupportDeps& deps, const Operator& op, const std::string& org_id);

// DELETE /v1/admin/support/session/:id: ends the operator's own session at
// once. 404 "Support session not found" for an unknown id, another
// operator's session or one ended already.
Status EndSession(const SupportDeps& deps, const Operator& op, const std::string& session_id);

// The bearer authenticator's check (AccountsDeps::check_support_session):
// the rules of domain::support::CheckSession, then one log row; both in one
// write. 403 as CheckSession says; 503 AUTH_UNAVAILABLE when the store fails.
Status CheckAndRecord(const SupportDeps& deps, const app::accounts::SupportSessionRequest& request);

// GET /v1/org/support-sessions: the actor's organization's sessions and the
// requests made under them, newest first, at most `limit` of each. Admins
// only (Capability::kManageSettings), else 403.
inline constexpr int64_t kDefaultListLimit = 50;
inline constexpr int64_t kMaxListLimit = 200;
struct OrgSupportLog {
  std::vector<ports::SupportSession> sessions;
  std::vector<ports::SupportRequest> requests;
};
Result<OrgSupportLog> ListForOrg(const SupportDeps& deps, const ConsoleActor& actor, int64_t limit);

}  // namespace service::app::support
