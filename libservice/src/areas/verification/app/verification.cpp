#include "areas/verification/app/verification.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "areas/agent_work/domain/claims.h"
#include "areas/verification/domain/verification.h"
#include "util/crypto.h"
#include "util/time.h"

namespace service::app::verification {
namespace {

namespace json = boost::json;
namespace dv = domain::verification;
namespace dw = domain::agent_work;
using agent_work::AgentCaller;

bool Has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

json::value OptTime(const std::optional<int64_t>& t) {
  return t ? json::value(util::FormatIso8601(*t)) : json::value(nullptr);
}
json::value OptStr(const std::optional<std::string>& s) { return s ? json::value(*s) : json::value(nullptr); }

json::array StrArray(const std::vector<std::string>& list) {
  json::array a;
  for (const auto& s : list) a.emplace_back(s);
  return a;
}

std::vector<std::string> ParseStrArray(const std::string& text) {
  std::vector<std::string> out;
  boost::system::error_code ec;
  const json::value v = json::parse(text, ec);
  if (ec || !v.is_array()) return out;
  for (const json::value& e : v.get_array()) {
    if (e.is_string()) out.emplace_back(e.get_string());
  }
  return out;
}

json::value ParseJson(const std::string& text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  return ec ? json::value(nullptr) : v;
}

Status Coded(Code code, std::string message, std::string_view error_code, json::object extra = {}) {
  return dv::Coded(code, std::move(message), error_code,
                   extra.empty() ? std::string() : json::serialize(extra));
}

Status ProjectNotFound() { return Coded(Code::kNotFound, "Project not found", "PROJECT_NOT_FOUND"); }
Status RunnerNotFound() { return Coded(Code::kNotFound, "Runner not found", "RUNNER_NOT_FOUND"); }
Status DeviceNotFound() { return Coded(Code::kNotFound, "Device not found", "DEVICE_NOT_FOUND"); }
Status ReceiptNotFound() { return Coded(Code::kNotFound, "Receipt not found", "RECEIPT_NOT_FOUND"); }

json::object RunnerJson(const ports::VerificationRunnerRow& r) {
  return json::object{{"id", r.id},
                      {"projectId", r.project_id},
                      {"name", r.name},
                      {"publicKeyPem", r.public_key_pem},
                      {"publicKeyFingerprint", r.fingerprint},
                      {"trustLevel", r.trust_level},
                      {"allowedRuntimes", StrArray(r.allowed_runtimes)},
                      {"status", r.revoked_at ? "revoked" : "active"},
                      {"createdAt", util::FormatIso8601(r.created_at)},
                      {"revokedAt", OptTime(r.revoked_at)}};
}

json::object DeviceJson(const ports::VerificationDeviceRow& d) {
  return json::object{{"id", d.id},
                      {"projectId", d.project_id},
                      {"runnerId", d.runner_id},
                      {"name", d.name},
                      {"applicationId", d.application_id},
                      {"installationId", d.installation_id},
                      {"runtime", d.runtime},
                      {"deviceIdentifierSha256", d.device_identifier_sha256},
                      {"osVersion", d.os_version},
                      {"physicalDeviceConfirmed", d.physical_device_confirmed},
                      {"status", d.revoked_at ? "revoked" : "active"},
                      {"createdAt", util::FormatIso8601(d.created_at)},
                      {"revokedAt", OptTime(d.revoked_at)}};
}

// The logged answer of `command_id`: OK with `out` set for a replay,
// COMMAND_CONFLICT for other input, OK with `out` empty when new.
Status LookUp(const VerificationDeps& deps, ports::Tx& tx, const std::string& org_id,
              const std::string& command_id, const std::string& fingerprint, std::optional<Answer>& out) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::CommandRecord> logged,
                      deps.work->commands->Find(tx, org_id, command_id));
  if (!logged) return Status::Ok();
  if (logged->fingerprint != fingerprint) return dw::CommandConflict();
  json::value answer = ParseJson(logged->answer_json);
  if (!answer.is_object()) return Internal("agent_commands: unreadable answer of " + command_id);
  out = Answer{logged->status, std::move(answer.get_object()), true};
  return Status::Ok();
}

Status Log(const VerificationDeps& deps, ports::Tx& tx, const std::string& org_id,
           const std::string& caller_id, const std::string& command_id, std::string_view kind,
           const std::string& fingerprint, const Answer& a) {
  ports::CommandRecord r;
  r.org_id = org_id;
  r.command_id = command_id;
  r.kind = std::string(kind);
  r.fingerprint = fingerprint;
  r.token_id = caller_id;
  r.status = a.status;
  r.answer_json = json::serialize(a.body);
  r.created_at = deps.Now();
  return deps.work->commands->Insert(tx, r);
}

// Runs a command: the log first (a replay answers at once), then `fn`,
// whose answer is logged in the same transaction. Once more when it lost a
// race on a unique key.
Result<Answer> RunCommand(const VerificationDeps& deps, const std::string& org_id,
                          const std::string& caller_id, const std::string& command_id, std::string_view kind,
                          const json::value& body, const std::function<Result<Answer>(ports::Tx&)>& fn) {
  const std::string fingerprint = dv::CommandFingerprint(kind, caller_id, body);
  std::optional<Answer> out;
  const ports::TxFn tx_fn = [&](ports::Tx& tx) -> Status {
    out.reset();
    SV_RETURN_IF_ERROR(LookUp(deps, tx, org_id, command_id, fingerprint, out));
    if (out) return Status::Ok();
    SV_ASSIGN_OR_RETURN(Answer a, fn(tx));
    SV_RETURN_IF_ERROR(Log(deps, tx, org_id, caller_id, command_id, kind, fingerprint, a));
    out = std::move(a);
    return Status::Ok();
  };
  Status s = deps.db->WriteAlone(tx_fn);
  if (s.code() == Code::kConflict && s.error_code().empty()) s = deps.db->WriteAlone(tx_fn);
  if (s.code() == Code::kConflict && s.error_code().empty()) {
    return Status::Public(Code::kUnavailable, "Busy, please resend the command");
  }
  SV_RETURN_IF_ERROR(s);
  return std::move(*out);
}

Status RequireProject(const VerificationDeps& deps, ports::Tx& tx, const std::string& org_id,
                      const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(auto project, deps.projects->Find(tx, org_id, project_id));
  if (!project) return ProjectNotFound();
  return Status::Ok();
}

Status RequireAgent(const AgentCaller& caller, std::string_view scope, const std::string& project_id) {
  if (!Has(caller.scopes, scope)) return dw::ScopeRequired(scope);
  if (!Has(caller.granted_projects, project_id)) return dw::ProjectGrantRequired();
  return Status::Ok();
}

// Whether a receipt is still current (domain ApplicabilityOf).
Result<dv::Applicability> ApplicabilityOfReceipt(const VerificationDeps& deps, ports::Tx& tx,
                                                 const ports::VerificationReceiptRow& r) {
  dv::ReceiptFacts f;
  if (r.runner_id) {
    SV_ASSIGN_OR_RETURN(auto runner, deps.repo->FindRunner(tx, r.org_id, r.project_id, *r.runner_id));
    f.runner_revoked = !runner || runner->revoked_at.has_value();
  }
  f.regrouped = r.regrouped;
  SV_ASSIGN_OR_RETURN(auto bug, deps.bugs->Find(tx, r.org_id, r.issue_id));
  if (!bug) {
    SV_ASSIGN_OR_RETURN(auto target, deps.work->claims->MergeTarget(tx, r.org_id, r.issue_id));
    if (target) {
      f.regrouped = true;
    } else {
      f.issue_gone = true;
    }
  } else {
    f.occurrences_at_receipt = r.occurrences_at;
    f.occurrences_now = bug->occurrence_count;
  }
  if (deps.evidence_ready) {
    for (const std::string& id : ParseStrArray(r.evidence_ids_json)) {
      SV_ASSIGN_OR_RETURN(bool ready, deps.evidence_ready(tx, r.org_id, r.project_id, id));
      if (!ready) f.evidence_revoked = true;
    }
  }
  return dv::ApplicabilityOf(f);
}

json::object ReceiptJson(const ports::VerificationReceiptRow& r,
                         const std::optional<dv::Applicability>& applicability) {
  json::object o{{"receiptId", r.id},
                 {"projectId", r.project_id},
                 {"issueId", r.issue_id},
                 {"challengeId", r.challenge_id},
                 {"claimId", r.claim_id},
                 {"status", r.status},
                 {"trust", OptStr(r.trust_level)},
                 {"signed", r.signature.has_value()},
                 {"runnerId", OptStr(r.runner_id)},
                 {"deviceId", OptStr(r.device_id)},
                 {"applicationId", r.application_id},
                 {"buildId", r.build_id},
                 {"artifactSha256", r.artifact_sha256},
                 {"runtime", r.runtime},
                 {"tests", ParseJson(r.tests_json)},
                 {"evidenceIds", ParseJson(r.evidence_ids_json)},
                 {"measuredAt", util::FormatIso8601(r.measured_at)},
                 {"createdAt", util::FormatIso8601(r.created_at)}};
  if (applicability) o["applicability"] = dv::ApplicabilityJson(*applicability);
  return o;
}

// The receipt `receipt_id` when it belongs to the project and the issue the
// query names (that issue, or the issue it was merged into); else 404.
Result<ports::VerificationReceiptRow> ReceiptFor(const VerificationDeps& deps, ports::Tx& tx,
                                                 const std::string& org_id, const std::string& receipt_id,
                                                 const std::string& project_id, const std::string& issue_id) {
  SV_ASSIGN_OR_RETURN(auto r, deps.repo->FindReceipt(tx, org_id, receipt_id));
  if (!r || r->project_id != project_id) return ReceiptNotFound();
  if (r->issue_id == issue_id) return std::move(*r);
  Result<std::string> canonical = agent_work::ResolveIssue(*deps.work, tx, org_id, project_id, issue_id);
  if (canonical.ok() && *canonical == r->issue_id) return std::move(*r);
  return ReceiptNotFound();
}

}  // namespace

// ---- Enrollment ----

Result<Answer> EnrollRunner(const VerificationDeps& deps, const AdminCaller& caller,
                            const json::value& body) {
  SV_ASSIGN_OR_RETURN(dv::RunnerInput in, dv::ParseRunnerInput(body));
  SV_ASSIGN_OR_RETURN(dv::RunnerKey key, dv::ParseRunnerPublicKey(in.public_key_pem));
  return RunCommand(deps, caller.org_id, caller.user_id, in.command_id, "verification.runner", body,
                    [&](ports::Tx& tx) -> Result<Answer> {
                      SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller.org_id, in.project_id));
                      ports::VerificationRunnerRow row;
                      row.id = deps.ids->NewId();
                      row.org_id = caller.org_id;
                      row.project_id = in.project_id;
                      row.name = in.name;
                      row.public_key_pem = key.pem;
                      row.public_key_raw = key.raw;
                      row.fingerprint = key.fingerprint;
                      row.trust_level = in.trust_level;
                      row.allowed_runtimes = in.allowed_runtimes;
                      row.created_by = caller.user_id;
                      row.created_at = deps.Now();
                      SV_RETURN_IF_ERROR(deps.repo->InsertRunner(tx, row));
                      return Answer{201, json::object{{"runner", RunnerJson(row)}}, false};
                    });
}

Result<Answer> EnrollDevice(const VerificationDeps& deps, const AdminCaller& caller,
                            const json::value& body) {
  SV_ASSIGN_OR_RETURN(dv::DeviceInput in, dv::ParseDeviceInput(body));
  return RunCommand(
      deps, caller.org_id, caller.user_id, in.command_id, "verification.device", body,
      [&](ports::Tx& tx) -> Result<Answer> {
        SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller.org_id, in.project_id));
        SV_ASSIGN_OR_RETURN(auto runner,
                            deps.repo->FindRunner(tx, caller.org_id, in.project_id, in.runner_id));
        if (!runner) return RunnerNotFound();
        if (runner->revoked_at) return Coded(Code::kConflict, "The runner is revoked", "RUNNER_REVOKED");
        if (!Has(runner->allowed_runtimes, in.runtime)) {
          return Coded(Code::kConflict, "The runner is not allowed this runtime", "RUNTIME_NOT_ALLOWED");
        }
        SV_ASSIGN_OR_RETURN(
            auto app, deps.directory->FindApplication(tx, caller.org_id, in.project_id, in.application_id));
        if (!app) return Coded(Code::kNotFound, "Application not found", "APPLICATION_NOT_FOUND");
        SV_ASSIGN_OR_RETURN(
            auto inst, deps.directory->FindInstallation(tx, caller.org_id, in.project_id, in.application_id,
                                                        in.installation_id));
        if (!inst) return Coded(Code::kNotFound, "Installation not found", "INSTALLATION_NOT_FOUND");
        ports::VerificationDeviceRow row;
        row.id = deps.ids->NewId();
        row.org_id = caller.org_id;
        row.project_id = in.project_id;
        row.runner_id = in.runner_id;
        row.name = in.name;
        row.application_id = in.application_id;
        row.installation_id = in.installation_id;
        row.runtime = in.runtime;
        row.device_identifier_sha256 = in.device_identifier_sha256;
        row.os_version = in.os_version;
        row.physical_device_confirmed = in.physical_device_confirmed;
        row.created_by = caller.user_id;
        row.created_at = deps.Now();
        SV_RETURN_IF_ERROR(deps.repo->InsertDevice(tx, row));
        return Answer{201, json::object{{"device", DeviceJson(row)}}, false};
      });
}

Result<Answer> RevokeRunner(const VerificationDeps& deps, const AdminCaller& caller,
                            const json::value& body) {
  SV_ASSIGN_OR_RETURN(dv::RevokeInput in, dv::ParseRevokeInput(body, "runnerId"));
  return RunCommand(
      deps, caller.org_id, caller.user_id, in.command_id, "verification.runner_revoke", body,
      [&](ports::Tx& tx) -> Result<Answer> {
        SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller.org_id, in.project_id));
        SV_RETURN_IF_ERROR(
            deps.repo->RevokeRunner(tx, caller.org_id, in.project_id, in.id, deps.Now()).status());
        SV_ASSIGN_OR_RETURN(auto runner, deps.repo->FindRunner(tx, caller.org_id, in.project_id, in.id));
        if (!runner) return RunnerNotFound();
        return Answer{200, json::object{{"runner", RunnerJson(*runner)}}, false};
      });
}

Result<Answer> RevokeDevice(const VerificationDeps& deps, const AdminCaller& caller,
                            const json::value& body) {
  SV_ASSIGN_OR_RETURN(dv::RevokeInput in, dv::ParseRevokeInput(body, "deviceId"));
  return RunCommand(
      deps, caller.org_id, caller.user_id, in.command_id, "verification.device_revoke", body,
      [&](ports::Tx& tx) -> Result<Answer> {
        SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller.org_id, in.project_id));
        SV_RETURN_IF_ERROR(
            deps.repo->RevokeDevice(tx, caller.org_id, in.project_id, in.id, deps.Now()).status());
        SV_ASSIGN_OR_RETURN(auto device, deps.repo->FindDevice(tx, caller.org_id, in.project_id, in.id));
        if (!device) return DeviceNotFound();
        return Answer{200, json::object{{"device", DeviceJson(*device)}}, false};
      });
}

Result<json::object> GetEnrollment(const VerificationDeps& deps, const AdminCaller& caller,
                                   const std::string& project_id) {
  json::object out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, caller.org_id, project_id));
    SV_ASSIGN_OR_RETURN(auto runners, deps.repo->ListRunners(tx, caller.org_id, project_id));
    SV_ASSIGN_OR_RETURN(auto devices, deps.repo->ListDevices(tx, caller.org_id, project_id));
    json::array r, d;
    for (const auto& x : runners) r.push_back(RunnerJson(x));
    for (const auto& x : devices) d.push_back(DeviceJson(x));
    out = json::object{{"projectId", project_id}, {"runners", std::move(r)}, {"devices", std::move(d)}};
    return Status::Ok();
  }));
  return out;
}

// ---- Agent commands ----

Result<Answer> Challenge(const VerificationDeps& deps, const AgentCaller& caller, const json::value& body) {
  if (!Has(caller.scopes, dv::kSubmitScope)) return dw::ScopeRequired(dv::kSubmitScope);
  SV_ASSIGN_OR_RETURN(dv::LeaseFields in, dv::ParseChallengeInput(body));
  SV_RETURN_IF_ERROR(RequireAgent(caller, dv::kSubmitScope, in.project_id));
  return RunCommand(
      deps, caller.org_id, caller.token_id, in.command_id, "verification.challenge", body,
      [&](ports::Tx& tx) -> Result<Answer> {
        const int64_t now = deps.Now();
        SV_ASSIGN_OR_RETURN(
            agent_work::HeldLease lease,
            agent_work::LockLiveLease(*deps.work, tx, caller.org_id, caller.token_id, in.project_id,
                                      in.issue_id, in.claim_id, in.generation, in.fencing_token, now));
        ports::VerificationChallengeRow row;
        row.id = deps.ids->NewId();
        row.org_id = caller.org_id;
        row.project_id = in.project_id;
        row.issue_id = lease.issue_id;
        row.claim_id = lease.claim.id;
        row.generation = lease.claim.generation;
        row.fencing_token = lease.claim.fencing_token;
        row.token_id = caller.token_id;
        row.nonce = util::Base64UrlEncode(deps.ids->RandomBytes(32));
        row.created_at = now;
        row.expires_at = now + dv::kChallengeTtlMs;
        SV_RETURN_IF_ERROR(deps.repo->InsertChallenge(tx, row));
        json::object challenge{{"challengeId", row.id},
                               {"nonce", row.nonce},
                               {"projectId", row.project_id},
                               {"issueId", row.issue_id},
                               {"claimId", row.claim_id},
                               {"generation", std::to_string(row.generation)},
                               {"fencingToken", std::to_string(row.fencing_token)},
                               {"createdAt", util::FormatIso8601(row.created_at)},
                               {"expiresAt", util::FormatIso8601(row.expires_at)}};
        return Answer{201, json::object{{"challenge", std::move(challenge)}}, false};
      });
}

Result<Answer> SubmitReceipt(const VerificationDeps& deps, const AgentCaller& caller,
                             const json::value& body) {
  if (!Has(caller.scopes, dv::kSubmitScope)) return dw::ScopeRequired(dv::kSubmitScope);
  SV_ASSIGN_OR_RETURN(dv::ReceiptInput in, dv::ParseReceiptInput(body));
  SV_RETURN_IF_ERROR(RequireAgent(caller, dv::kSubmitScope, in.project_id));
  const dv::Submission& m = in.submission;
  return RunCommand(
      deps, caller.org_id, caller.token_id, in.command_id, "verification.receipt", body,
      [&](ports::Tx& tx) -> Result<Answer> {
        const int64_t now = deps.Now();
        SV_ASSIGN_OR_RETURN(auto challenge, deps.repo->FindChallenge(tx, caller.org_id, m.challenge_id));
        if (!challenge || challenge->project_id != in.project_id) {
          return Coded(Code::kNotFound, "Challenge not found", "CHALLENGE_NOT_FOUND");
        }
        if (challenge->token_id != caller.token_id) {
          return Coded(Code::kPermissionDenied, "The challenge was asked by another token",
                       "CHALLENGE_TOKEN_MISMATCH");
        }
        if (challenge->expires_at <= now)
          return Coded(Code::kConflict, "The challenge expired", "CHALLENGE_EXPIRED");
        if (!util::ConstantTimeEquals(challenge->nonce, m.nonce)) {
          return Coded(Code::kInvalidArgument, "The nonce is not the challenge's", "SUBMISSION_MISMATCH");
        }
        // The lease the challenge was bound to must still be live and held.
        SV_ASSIGN_OR_RETURN(agent_work::HeldLease lease,
                            agent_work::LockLiveLease(*deps.work, tx, caller.org_id, caller.token_id,
                                                      in.project_id, in.issue_id, challenge->claim_id,
                                                      challenge->generation, challenge->fencing_token, now));
        if (lease.issue_id != challenge->issue_id) {
          return Coded(Code::kInvalidArgument, "The issue is not the challenge's", "SUBMISSION_MISMATCH");
        }
        if (m.measured_at < challenge->created_at - dv::kClockSkewMs ||
            m.measured_at > now + dv::kClockSkewMs) {
          return Coded(Code::kInvalidArgument, "measuredAt must lie between the challenge and now",
                       "MEASURED_AT_OUT_OF_RANGE");
        }
        SV_ASSIGN_OR_RETURN(
            auto app, deps.directory->FindApplication(tx, caller.org_id, in.project_id, m.application_id));
        if (!app) return Coded(Code::kNotFound, "Application not found", "APPLICATION_NOT_FOUND");
        SV_ASSIGN_OR_RETURN(auto build,
                            deps.directory->FindBuild(tx, caller.org_id, in.project_id, m.build_id));
        if (!build || build->application_id != m.application_id) {
          return Coded(Code::kNotFound, "Build not found for this application", "BUILD_NOT_FOUND");
        }
        if (build->artifact_sha256 != m.artifact_sha256) {
          return Coded(Code::kInvalidArgument, "artifactSha256 is not the build's", "ARTIFACT_MISMATCH");
        }
        if (deps.evidence_ready) {
          for (const std::string& id : m.evidence_ids) {
            SV_ASSIGN_OR_RETURN(bool ready, deps.evidence_ready(tx, caller.org_id, in.project_id, id));
            if (!ready) {
              return Coded(Code::kConflict, "An evidence artifact is not ready", "EVIDENCE_NOT_READY",
                           json::object{{"artifactId", id}});
            }
          }
        }
        ports::VerificationReceiptRow row;
        row.id = deps.ids->NewId();
        row.org_id = caller.org_id;
        row.project_id = in.project_id;
        row.issue_id = lease.issue_id;
        row.challenge_id = challenge->id;
        row.claim_id = challenge->claim_id;
        row.token_id = caller.token_id;
        row.application_id = m.application_id;
        row.build_id = m.build_id;
        row.artifact_sha256 = m.artifact_sha256;
        row.runtime = m.runtime;
        json::array tests;
        for (const auto& t : m.tests) tests.push_back(json::object{{"name", t.name}, {"outcome", t.outcome}});
        row.tests_json = json::serialize(tests);
        row.evidence_ids_json = json::serialize(StrArray(m.evidence_ids));
        row.submission = in.canonical;
        row.measured_at = m.measured_at;
        row.created_at = now;
        row.status = std::string(dv::kPending);
        row.device_id = m.device_id;
        if (in.runner_id) {
          if (challenge->signed_receipt_id) {
            return Coded(Code::kConflict, "A signed receipt already used this challenge", "CHALLENGE_USED");
          }
          SV_ASSIGN_OR_RETURN(auto runner,
                              deps.repo->FindRunner(tx, caller.org_id, in.project_id, *in.runner_id));
          if (!runner) return RunnerNotFound();
          if (runner->revoked_at) return Coded(Code::kConflict, "The runner is revoked", "RUNNER_REVOKED");
          if (!Has(runner->allowed_runtimes, m.runtime)) {
            return Coded(Code::kConflict, "The runner is not allowed this runtime", "RUNTIME_NOT_ALLOWED");
          }
          if (m.device_id) {
            SV_ASSIGN_OR_RETURN(auto device,
                                deps.repo->FindDevice(tx, caller.org_id, in.project_id, *m.device_id));
            if (!device) return DeviceNotFound();
            if (device->revoked_at) return Coded(Code::kConflict, "The device is revoked", "DEVICE_REVOKED");
            if (device->runner_id != runner->id || device->application_id != m.application_id ||
                device->runtime != m.runtime) {
              return Coded(Code::kInvalidArgument,
                           "The device is not this runner's for this application and runtime",
                           "DEVICE_MISMATCH");
            }
          }
          if (!dv::VerifyEd25519(runner->public_key_raw, in.canonical, in.signature)) {
            return Coded(
                Code::kInvalidArgument,
                "The signature does not verify with the runner's key over the submission's canonical JSON",
                "SIGNATURE_INVALID");
          }
          row.runner_id = runner->id;
          row.trust_level = runner->trust_level;
          row.signature = util::Base64Encode(in.signature);
          row.status = std::string(dv::SignedStatus(m.tests));
        }
        SV_ASSIGN_OR_RETURN(auto bug, deps.bugs->Find(tx, caller.org_id, lease.issue_id));
        row.occurrences_at = bug ? bug->occurrence_count : 0;
        SV_RETURN_IF_ERROR(deps.repo->InsertReceipt(tx, row));
        if (row.signature) {
          SV_ASSIGN_OR_RETURN(bool used, deps.repo->UseChallenge(tx, caller.org_id, challenge->id, row.id));
          if (!used)
            return Coded(Code::kConflict, "A signed receipt already used this challenge", "CHALLENGE_USED");
        }
        return Answer{201,
                      json::object{{"receipt", ReceiptJson(row, dv::Applicability{"current", std::nullopt})}},
                      false};
      });
}

Result<json::object> GetReceipt(const VerificationDeps& deps, const AgentCaller& caller,
                                const std::string& receipt_id, const std::string& project_id,
                                const std::string& issue_id) {
  SV_RETURN_IF_ERROR(RequireAgent(caller, dv::kReadScope, project_id));
  json::object out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::VerificationReceiptRow r,
                        ReceiptFor(deps, tx, caller.org_id, receipt_id, project_id, issue_id));
    SV_ASSIGN_OR_RETURN(dv::Applicability a, ApplicabilityOfReceipt(deps, tx, r));
    out = json::object{{"receipt", ReceiptJson(r, a)}};
    return Status::Ok();
  }));
  return out;
}

Result<json::object> GetReceiptEvidence(const VerificationDeps& deps, const AgentCaller& caller,
                                        const std::string& receipt_id, const std::string& project_id,
                                        const std::string& issue_id) {
  SV_RETURN_IF_ERROR(RequireAgent(caller, dv::kEvidenceScope, project_id));
  json::object out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::VerificationReceiptRow r,
                        ReceiptFor(deps, tx, caller.org_id, receipt_id, project_id, issue_id));
    json::array artifacts;
    for (const std::string& id : ParseStrArray(r.evidence_ids_json)) {
      json::value ready = nullptr;
      if (deps.evidence_ready) {
        SV_ASSIGN_OR_RETURN(bool is_ready, deps.evidence_ready(tx, r.org_id, r.project_id, id));
        ready = is_ready;
      }
      artifacts.push_back(json::object{{"artifactId", id}, {"ready", ready}, {"contentAvailable", false}});
    }
    out = json::object{{"evidence", json::object{{"receiptId", r.id},
                                                 {"projectId", r.project_id},
                                                 {"issueId", r.issue_id},
                                                 {"status", r.status},
                                                 {"signed", r.signature.has_value()},
                                                 {"submissionSha256", util::Sha256Hex(r.submission)},
                                                 {"testCount", ParseJson(r.tests_json).as_array().size()},
                                                 {"measuredAt", util::FormatIso8601(r.measured_at)},
                                                 {"artifacts", std::move(artifacts)},
                                                 {"contentAvailable", false}}}};
    return Status::Ok();
  }));
  return out;
}

Result<Answer> Promote(const VerificationDeps& deps, const AgentCaller& caller, const json::value& body) {
  if (!Has(caller.scopes, dv::kSubmitScope)) return dw::ScopeRequired(dv::kSubmitScope);
  SV_ASSIGN_OR_RETURN(dv::PromoteInput in, dv::ParsePromoteInput(body));
  SV_RETURN_IF_ERROR(RequireAgent(caller, dv::kSubmitScope, in.lease.project_id));
  const dv::LeaseFields& l = in.lease;
  return RunCommand(
      deps, caller.org_id, caller.token_id, l.command_id, "verification.promote", body,
      [&](ports::Tx& tx) -> Result<Answer> {
        const int64_t now = deps.Now();
        SV_ASSIGN_OR_RETURN(
            agent_work::HeldLease lease,
            agent_work::LockLiveLease(*deps.work, tx, caller.org_id, caller.token_id, l.project_id,
                                      l.issue_id, l.claim_id, l.generation, l.fencing_token, now));
        const std::string& issue = lease.issue_id;

        // The receipts: this issue's, signed and verified, current.
        std::vector<ports::VerificationReceiptRow> receipts;
        json::array not_found, not_verified, not_current;
        for (const std::string& id : in.receipt_ids) {
          SV_ASSIGN_OR_RETURN(auto r, deps.repo->FindReceipt(tx, caller.org_id, id));
          if (!r || r->project_id != l.project_id || r->issue_id != issue) {
            not_found.emplace_back(id);
            continue;
          }
          if (r->status != dv::kVerified) {
            not_verified.push_back(json::object{{"receiptId", id}, {"status", r->status}});
            continue;
          }
          SV_ASSIGN_OR_RETURN(dv::Applicability a, ApplicabilityOfReceipt(deps, tx, *r));
          if (a.state != "current") {
            not_current.push_back(json::object{{"receiptId", id}, {"reason", OptStr(a.reason)}});
            continue;
          }
          receipts.push_back(std::move(*r));
        }
        if (!not_found.empty()) {
          return Coded(Code::kConflict, "Receipts not found for this issue", "RECEIPT_NOT_FOUND",
                       json::object{{"receiptIds", std::move(not_found)}});
        }
        if (!not_verified.empty()) {
          return Coded(Code::kConflict, "Receipts must be signed and verified (every test passed)",
                       "RECEIPT_NOT_VERIFIED", json::object{{"receipts", std::move(not_verified)}});
        }
        if (!not_current.empty()) {
          return Coded(Code::kConflict, "Receipts are historical", "RECEIPT_NOT_CURRENT",
                       json::object{{"receipts", std::move(not_current)}});
        }

        // The exact target builds: each exists, and they are exactly the
        // receipts' builds.
        json::array unknown_builds;
        for (const std::string& b : in.target_builds) {
          SV_ASSIGN_OR_RETURN(auto build, deps.directory->FindBuild(tx, caller.org_id, l.project_id, b));
          if (!build) unknown_builds.emplace_back(b);
        }
        if (!unknown_builds.empty()) {
          return Coded(Code::kConflict, "Target builds not found", "TARGET_BUILD_NOT_FOUND",
                       json::object{{"buildIds", std::move(unknown_builds)}});
        }
        std::set<std::string> receipt_builds;
        for (const auto& r : receipts) receipt_builds.insert(r.build_id);
        json::array untested, unlisted;
        for (const std::string& b : in.target_builds) {
          if (!receipt_builds.count(b)) untested.emplace_back(b);
        }
        for (const std::string& b : receipt_builds) {
          if (!Has(in.target_builds, b)) unlisted.emplace_back(b);
        }
        if (!untested.empty() || !unlisted.empty()) {
          return Coded(Code::kConflict, "targetBuilds must be exactly the receipts' builds",
                       "TARGET_BUILDS_MISMATCH",
                       json::object{{"buildsWithoutReceipt", std::move(untested)},
                                    {"receiptBuildsNotTargeted", std::move(unlisted)}});
        }

        // Coverage: every application and runtime the bug was observed on.
        SV_ASSIGN_OR_RETURN(std::vector<std::string> bug_ids,
                            deps.work->claims->MergedInto(tx, caller.org_id, issue));
        bug_ids.insert(bug_ids.begin(), issue);
        SV_ASSIGN_OR_RETURN(std::vector<ports::ObservedTarget> observed,
                            deps.directory->ObservedTargets(tx, caller.org_id, bug_ids));
        std::set<std::pair<std::string, std::string>> needed;
        json::array missing, coverage;
        for (const auto& t : observed) {
          const std::string runtime = dv::RuntimeOfCapture(t.platform, t.runtime, t.os_family);
          if (!needed
                   .insert({t.application_id, runtime.empty() ? "?" + t.platform + "/" + t.runtime : runtime})
                   .second) {
            continue;
          }
          const ports::VerificationReceiptRow* cover = nullptr;
          for (const auto& r : receipts) {
            if (!runtime.empty() && r.application_id == t.application_id && r.runtime == runtime) {
              cover = &r;
              break;
            }
          }
          if (cover == nullptr) {
            missing.push_back(
                json::object{{"applicationId", t.application_id},
                             {"runtime", runtime.empty() ? json::value(nullptr) : json::value(runtime)},
                             {"capturedPlatform", t.platform},
                             {"capturedRuntime", t.runtime},
                             {"capturedOsFamily", t.os_family}});
          } else {
            coverage.push_back(json::object{
                {"applicationId", t.application_id}, {"runtime", runtime}, {"receiptId", cover->id}});
          }
        }
        if (!missing.empty()) {
          return Coded(Code::kConflict,
                       "No current receipt covers every application and runtime the bug was observed on",
                       "COVERAGE_MISSING", json::object{{"missing", std::move(missing)}});
        }

        SV_ASSIGN_OR_RETURN(auto bug, deps.bugs->Find(tx, caller.org_id, issue));
        ports::VerificationPromotionRow p;
        p.id = deps.ids->NewId();
        p.org_id = caller.org_id;
        p.project_id = l.project_id;
        p.issue_id = issue;
        p.claim_id = lease.claim.id;
        p.token_id = caller.token_id;
        p.receipt_ids_json = json::serialize(StrArray(in.receipt_ids));
        p.target_builds_json = json::serialize(StrArray(in.target_builds));
        p.coverage_json = json::serialize(coverage);
        p.occurrences_at = bug ? bug->occurrence_count : 0;
        p.created_at = now;
        SV_RETURN_IF_ERROR(deps.repo->InsertPromotion(tx, p));
        SV_ASSIGN_OR_RETURN(dw::ClaimView claim,
                            agent_work::CompleteHeldLease(*deps.work, tx, std::move(lease.claim), p.id, now));
        json::object promotion{{"promotionId", p.id},
                               {"projectId", p.project_id},
                               {"issueId", p.issue_id},
                               {"state", "verified_fixed"},
                               {"receiptIds", StrArray(in.receipt_ids)},
                               {"targetBuilds", StrArray(in.target_builds)},
                               {"coverage", std::move(coverage)},
                               {"promotedAt", util::FormatIso8601(now)}};
        return Answer{200, json::object{{"promotion", std::move(promotion)}, {"claim", dw::ClaimJson(claim)}},
                      false};
      });
}

Result<json::object> BugVerification(const VerificationDeps& deps, const std::string& org_id,
                                     const std::string& bug_id) {
  json::object out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto bug, deps.bugs->Find(tx, org_id, bug_id));
    if (!bug) return NotFound("Bug not found");
    SV_ASSIGN_OR_RETURN(auto fix, ReadVerifiedFix(deps, tx, *bug));
    json::value verification = nullptr;
    if (fix) {
      verification = json::object{{"state", fix->state},
                                  {"promotionId", fix->promotion_id},
                                  {"promotedAt", util::FormatIso8601(fix->promoted_at)},
                                  {"reason", OptStr(fix->reason)},
                                  {"receiptIds", StrArray(fix->receipt_ids)}};
    }
    SV_ASSIGN_OR_RETURN(auto rows, deps.repo->ListReceipts(tx, org_id, bug_id, 50));
    json::array receipts;
    for (const auto& r : rows) {
      SV_ASSIGN_OR_RETURN(dv::Applicability a, ApplicabilityOfReceipt(deps, tx, r));
      receipts.push_back(ReceiptJson(r, a));
    }
    out = json::object{
        {"bugId", bug_id}, {"verification", std::move(verification)}, {"receipts", std::move(receipts)}};
    return Status::Ok();
  }));
  return out;
}

Result<std::optional<bugs::VerifiedFix>> ReadVerifiedFix(const VerificationDeps& deps, ports::Tx& tx,
                                                         const ports::BugRecord& bug) {
  SV_ASSIGN_OR_RETURN(auto p, deps.repo->LatestPromotion(tx, bug.org_id, bug.id));
  if (!p) return std::optional<bugs::VerifiedFix>();
  bugs::VerifiedFix fix;
  fix.promotion_id = p->id;
  fix.promoted_at = p->created_at;
  fix.receipt_ids = ParseStrArray(p->receipt_ids_json);
  if (p->regrouped) {
    fix.reason = "regrouped";
  } else if (bug.occurrence_count > p->occurrences_at) {
    fix.reason = "recurrence";
  } else {
    for (const std::string& id : fix.receipt_ids) {
      SV_ASSIGN_OR_RETURN(auto r, deps.repo->FindReceipt(tx, bug.org_id, id));
      if (!r || !r->runner_id) continue;
      SV_ASSIGN_OR_RETURN(auto runner, deps.repo->FindRunner(tx, bug.org_id, r->project_id, *r->runner_id));
      if (!runner || runner->revoked_at) {
        fix.reason = "runner_revoked";
        break;
      }
    }
  }
  fix.state = fix.reason ? "unproven" : "verified_fixed";
  return std::optional<bugs::VerifiedFix>(std::move(fix));
}

Status OnTriageEvent(const VerificationDeps& deps, ports::Tx& tx, const std::string& type,
                     const std::string& org_id, const std::string& payload_json) {
  if (type != "deleted" || payload_json.find("\"mergedInto\"") == std::string::npos) return Status::Ok();
  const json::value v = ParseJson(payload_json);
  if (!v.is_object()) return Status::Ok();
  const json::value* source = v.get_object().if_contains("bugId");
  const json::value* target = v.get_object().if_contains("mergedInto");
  if (source == nullptr || target == nullptr || !source->is_string() || !target->is_string())
    return Status::Ok();
  return deps.repo->MarkRegrouped(tx, org_id,
                                  {std::string(source->get_string()), std::string(target->get_string())});
}

}  // namespace service::app::verification
