#include "areas/support/app/support.h"

#include "areas/support/domain/support_session.h"
#include "domain/roles.h"

namespace service::app::support {

Result<StartedSession> StartSession(const SupportDeps& deps, const Operator& op, const std::string& org_id) {
  StartedSession out;
  Status s = deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Organization> org, deps.orgs->Find(tx, org_id));
    if (!org) return NotFound("Organization not found");
    const int64_t now = deps.Now();
    ports::SupportSession& session = out.session;
    session.id = deps.ids->NewId();
    session.org_id = org->id;
    session.user_id = op.user_id;
    session.operator_email = op.email;
    session.mode = domain::support::kModeAdmin;
    session.created_at = now;
    session.expires_at = now + domain::support::kSessionLifetimeMs;
    SV_RETURN_IF_ERROR(deps.sessions->Insert(tx, session));
    out.org = std::move(*org);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Status EndSession(const SupportDeps& deps, const Operator& op, const std::string& session_id) {
  bool ended = false;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ended, deps.sessions->End(tx, session_id, op.user_id, deps.Now()));
    return Status::Ok();
  }));
  if (!ended) return NotFound("Support session not found");
  return Status::Ok();
}

Status CheckAndRecord(const SupportDeps& deps, const app::accounts::SupportSessionRequest& request) {
  Status refused;
  Status s = deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::SupportSession> found,
                        deps.sessions->Find(tx, request.org_id, request.session_id));
    std::optional<domain::support::SessionFacts> facts;
    if (found)
      facts =
          domain::support::SessionFacts{found->org_id, found->user_id, found->expires_at, found->ended_at};
    const int64_t now = deps.Now();
    refused = domain::support::CheckSession(facts, request.user_id, request.org_id, now);
    if (!refused.ok()) return Status::Ok();  // nothing to record
    return deps.sessions->RecordRequest(
        tx, ports::SupportRequest{deps.ids->NewId(), request.session_id, request.org_id, request.method,
                                  request.route, now});
  });
  if (!s.ok()) return app::accounts::AuthUnavailable();
  return refused;
}

Result<OrgSupportLog> ListForOrg(const SupportDeps& deps, const ConsoleActor& actor, int64_t limit) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageSettings));
  OrgSupportLog out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out.sessions, deps.sessions->ListForOrg(c, actor.org_id, limit));
    SV_ASSIGN_OR_RETURN(out.requests, deps.sessions->ListRequests(c, actor.org_id, limit));
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::support
