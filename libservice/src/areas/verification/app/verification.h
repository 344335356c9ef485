// Verification use cases (issue 30 item 4; Spec 2 "Runner and device
// enrollment", the verification rows of "Agent work"; README
// "Verification"), behind the routes under /v1/agent-work/verification:
//
//   enrollment (organization admins): EnrollRunner, EnrollDevice,
//     RevokeRunner, RevokeDevice, GetEnrollment;
//   agent tokens: Challenge (submit_verification), SubmitReceipt
//     (submit_verification), GetReceipt (read_verification),
//     GetReceiptEvidence (request_evidence), Promote (submit_verification
//     plus the live claim).
//
// Commands carry a commandId and share the agent-work command log
// (agent_work/ports/command_log_repository.h): a command that took effect
// is logged with its answer in its own transaction; the same commandId with
// the same input (same caller) answers that first answer (`replayed`), with
// other input 409 COMMAND_CONFLICT; a refused command is not logged.
//
// Agent-token calls check, in this order: the scope (403 SCOPE_REQUIRED),
// the project grant (403 PROJECT_GRANT_REQUIRED), then the command.
// Enrollment reads and writes check the project is the organization's (404
// PROJECT_NOT_FOUND).
//
// Failure codes (Status::error_code()): see the README's table.
#pragma once

#include <boost/json.hpp>
#include <functional>
#include <optional>
#include <string>

#include "areas/agent_work/app/claims.h"
#include "areas/applications/ports/application_directory.h"
#include "areas/bugs/app/bugs.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "areas/verification/ports/verification_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::verification {

// Whether an evidence artifact of the project is still ready (the evidence
// area's answer); false for a missing, deleted or expired one.
using EvidenceReady = std::function<Result<bool>(
    ports::Tx& tx, const std::string& org_id, const std::string& project_id, const std::string& artifact_id)>;

struct VerificationDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::VerificationRepository* repo = nullptr;
  ports::ProjectRepository* projects = nullptr;
  ports::ApplicationDirectory* directory = nullptr;
  ports::BugReadRepository* bugs = nullptr;
  const agent_work::AgentWorkDeps* work = nullptr;  // leases, merges, the command log
  EvidenceReady evidence_ready;                     // empty: evidence ids are not checked

  int64_t Now() const { return clock->NowMillis(); }
};

// An organization admin (the route checked the role).
struct AdminCaller {
  std::string org_id;
  std::string user_id;
};

// A command's answer: its HTTP status and body, replayed or not.
struct Answer {
  int status = 200;
  boost::json::object body;
  bool replayed = false;
};

Result<Answer> EnrollRunner(const VerificationDeps& deps, const AdminCaller& caller,
                            const boost::json::value& body);
Result<Answer> EnrollDevice(const VerificationDeps& deps, const AdminCaller& caller,
                            const boost::json::value& body);
Result<Answer> RevokeRunner(const VerificationDeps& deps, const AdminCaller& caller,
                            const boost::json::value& body);
Result<Answer> RevokeDevice(const VerificationDeps& deps, const AdminCaller& caller,
                            const boost::json::value& body);
// {runners, devices}: public metadata only. REQUIRES: a lower-case UUID.
Result<boost::json::object> GetEnrollment(const VerificationDeps& deps, const AdminCaller& caller,
                                          const std::string& project_id);

Result<Answer> Challenge(const VerificationDeps& deps, const agent_work::AgentCaller& caller,
                         const boost::json::value& body);
Result<Answer> SubmitReceipt(const VerificationDeps& deps, const agent_work::AgentCaller& caller,
                             const boost::json::value& body);
// REQUIRES: lower-case UUIDs.
Result<boost::json::object> GetReceipt(const VerificationDeps& deps, const agent_work::AgentCaller& caller,
                                       const std::string& receipt_id, const std::string& project_id,
                                       const std::string& issue_id);
Result<boost::json::object> GetReceiptEvidence(const VerificationDeps& deps,
                                               const agent_work::AgentCaller& caller,
                                               const std::string& receipt_id, const std::string& project_id,
                                               const std::string& issue_id);
Result<Answer> Promote(const VerificationDeps& deps, const agent_work::AgentCaller& caller,
                       const boost::json::value& body);

// GET /v1/bugs/:id/verification (members of the organization, the
// console's bug page): {bugId, verification (null or as on the bug),
// receipts[receipt with applicability] (newest first, at most 50)}. A bug
// of another organization: 404 "Bug not found". REQUIRES: a UUID.
Result<boost::json::object> BugVerification(const VerificationDeps& deps, const std::string& org_id,
                                            const std::string& bug_id);

// The bug page's verified-fixed state (bugs::VerifiedFixRead).
Result<std::optional<bugs::VerifiedFix>> ReadVerifiedFix(const VerificationDeps& deps, ports::Tx& tx,
                                                         const ports::BugRecord& bug);

// Inside a triage write's transaction: a merge (`deleted` with
// `mergedInto`) makes the receipts and promotions of both issues historical
// (regrouped).
Status OnTriageEvent(const VerificationDeps& deps, ports::Tx& tx, const std::string& type,
                     const std::string& org_id, const std::string& payload_json);

}  // namespace service::app::verification
