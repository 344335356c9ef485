// VerificationRepository: enrolled runners and devices, challenges, receipts
// and promotions of the verification area (README "Verification").
//
// Every method names the caller's organization (and, for enrollment rows,
// the project): another organization's or project's id finds nothing
// (nullopt, false, an empty list). Writes REQUIRE the caller's
// Transactions::Write; reads run in Read or Write.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status; an Insert of an existing id: kConflict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct VerificationRunnerRow {
  std::string id, org_id, project_id, name;
  std::string public_key_pem;  // as OpenSSL writes it (SubjectPublicKeyInfo)
  std::string public_key_raw;  // 32 bytes, stored as hex
  std::string fingerprint;     // "SHA256:<hex>"
  std::string trust_level;     // ci, device_lab
  std::vector<std::string> allowed_runtimes;
  std::string created_by;
  int64_t created_at = 0;
  std::optional<int64_t> revoked_at;
};

struct VerificationDeviceRow {
  std::string id, org_id, project_id, runner_id, name, application_id, installation_id, runtime,
      device_identifier_sha256, os_version;
  bool physical_device_confirmed = false;
  std::string created_by;
  int64_t created_at = 0;
  std::optional<int64_t> revoked_at;
};

struct VerificationChallengeRow {
  std::string id, org_id, project_id, issue_id, claim_id, token_id, nonce;
  int64_t generation = 0, fencing_token = 0;
  int64_t created_at = 0, expires_at = 0;
  std::optional<std::string> signed_receipt_id;  // the signed receipt that used it
};

struct VerificationReceiptRow {
  std::string id, org_id, project_id, issue_id, challenge_id, claim_id, token_id;
  std::optional<std::string> runner_id, device_id;
  std::string application_id, build_id, artifact_sha256, runtime;
  std::string status;                      // pending, verified, failed
  std::optional<std::string> trust_level;  // the runner's, when signed
  std::string tests_json;                  // [{name, outcome}]
  std::string evidence_ids_json;           // [ids]
  std::string submission;                  // the canonical JSON as received (the signed bytes)
  std::optional<std::string> signature;    // base64, when signed
  int64_t measured_at = 0;
  int64_t occurrences_at = 0;  // the issue's occurrence count when the receipt was taken
  bool regrouped = false;
  int64_t created_at = 0;
};

struct VerificationPromotionRow {
  std::string id, org_id, project_id, issue_id, claim_id, token_id;
  std::string receipt_ids_json, target_builds_json, coverage_json;
  int64_t occurrences_at = 0;
  bool regrouped = false;
  int64_t created_at = 0;
};

class VerificationRepository {
 public:
  VerificationRepository() = default;
  VerificationRepository(const VerificationRepository&) = delete;
  VerificationRepository& operator=(const VerificationRepository&) = delete;
  virtual ~VerificationRepository() = default;

  virtual Status InsertRunner(Tx& tx, const VerificationRunnerRow& row) = 0;
  virtual Result<std::optional<VerificationRunnerRow>> FindRunner(Tx& tx, const std::string& org_id,
                                                                  const std::string& project_id,
                                                                  const std::string& id) = 0;
  // Sets revoked_at when not yet revoked; false when there is no such runner
  // or it was revoked before (its first revoked_at stays).
  virtual Result<bool> RevokeRunner(Tx& tx, const std::string& org_id, const std::string& project_id,
                                    const std::string& id, int64_t now_ms) = 0;
  // The project's runners, oldest first (at most 500).
  virtual Result<std::vector<VerificationRunnerRow>> ListRunners(Tx& tx, const std::string& org_id,
                                                                 const std::string& project_id) = 0;

  virtual Status InsertDevice(Tx& tx, const VerificationDeviceRow& row) = 0;
  virtual Result<std::optional<VerificationDeviceRow>> FindDevice(Tx& tx, const std::string& org_id,
                                                                  const std::string& project_id,
                                                                  const std::string& id) = 0;
  virtual Result<bool> RevokeDevice(Tx& tx, const std::string& org_id, const std::string& project_id,
                                    const std::string& id, int64_t now_ms) = 0;
  virtual Result<std::vector<VerificationDeviceRow>> ListDevices(Tx& tx, const std::string& org_id,
                                                                 const std::string& project_id) = 0;

  virtual Status InsertChallenge(Tx& tx, const VerificationChallengeRow& row) = 0;
  virtual Result<std::optional<VerificationChallengeRow>> FindChallenge(Tx& tx, const std::string& org_id,
                                                                        const std::string& id) = 0;
  // Records the signed receipt that used the challenge; false when one did
  // before.
  virtual Result<bool> UseChallenge(Tx& tx, const std::string& org_id, const std::string& id,
                                    const std::string& receipt_id) = 0;

  virtual Status InsertReceipt(Tx& tx, const VerificationReceiptRow& row) = 0;
  virtual Result<std::optional<VerificationReceiptRow>> FindReceipt(Tx& tx, const std::string& org_id,
                                                                    const std::string& id) = 0;

  // The issue's receipts, newest first, at most `limit`.
  virtual Result<std::vector<VerificationReceiptRow>> ListReceipts(Tx& tx, const std::string& org_id,
                                                                   const std::string& issue_id,
                                                                   int64_t limit) = 0;

  virtual Status InsertPromotion(Tx& tx, const VerificationPromotionRow& row) = 0;
  // The issue's latest promotion, or nullopt.
  virtual Result<std::optional<VerificationPromotionRow>> LatestPromotion(Tx& tx, const std::string& org_id,
                                                                          const std::string& issue_id) = 0;

  // A merge regrouped these issues: their receipts and promotions become
  // historical (regrouped).
  virtual Status MarkRegrouped(Tx& tx, const std::string& org_id,
                               const std::vector<std::string>& issue_ids) = 0;
};

}  // namespace service::ports
