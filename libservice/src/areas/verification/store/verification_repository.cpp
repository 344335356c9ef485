// SQL behind ports::VerificationRepository (one text for both backends).
#include "areas/verification/ports/verification_repository.h"
#include "areas/verification/store/repositories.h"
#include "store/database.h"
#include "util/crypto.h"

namespace service::store {
namespace {

std::string JoinRuntimes(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::vector<std::string> SplitRuntimes(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

constexpr std::string_view kRunnerColumns =
    "SELECT id, org_id, project_id, name, public_key_pem, public_key_hex, fingerprint, trust_level, "
    "allowed_runtimes, created_by, created_at, revoked_at FROM verification_runners";

ports::VerificationRunnerRow RunnerAt(const Rows& r, size_t i) {
  ports::VerificationRunnerRow x;
  x.id = r.Str(i, 0);
  x.org_id = r.Str(i, 1);
  x.project_id = r.Str(i, 2);
  x.name = r.Str(i, 3);
  x.public_key_pem = r.Str(i, 4);
  util::HexDecode(r.Str(i, 5), &x.public_key_raw);
  x.fingerprint = r.Str(i, 6);
  x.trust_level = r.Str(i, 7);
  x.allowed_runtimes = SplitRuntimes(r.Str(i, 8));
  x.created_by = r.Str(i, 9);
  x.created_at = r.Int(i, 10);
  x.revoked_at = r.OptInt(i, 11);
  return x;
}

constexpr std::string_view kDeviceColumns =
    "SELECT id, org_id, project_id, runner_id, name, application_id, installation_id, runtime, "
    "device_identifier_sha256, os_version, physical_device_confirmed, created_by, created_at, revoked_at "
    "FROM verification_devices";

ports::VerificationDeviceRow DeviceAt(const Rows& r, size_t i) {
  ports::VerificationDeviceRow x;
  x.id = r.Str(i, 0);
  x.org_id = r.Str(i, 1);
  x.project_id = r.Str(i, 2);
  x.runner_id = r.Str(i, 3);
  x.name = r.Str(i, 4);
  x.application_id = r.Str(i, 5);
  x.installation_id = r.Str(i, 6);
  x.runtime = r.Str(i, 7);
  x.device_identifier_sha256 = r.Str(i, 8);
  x.os_version = r.Str(i, 9);
  x.physical_device_confirmed = r.Bool(i, 10);
  x.created_by = r.Str(i, 11);
  x.created_at = r.Int(i, 12);
  x.revoked_at = r.OptInt(i, 13);
  return x;
}

constexpr std::string_view kReceiptColumns =
    "SELECT id, org_id, project_id, issue_id, challenge_id, claim_id, token_id, runner_id, device_id, "
    "application_id, build_id, artifact_sha256, runtime, status, trust_level, tests, evidence_ids, "
    "submission, "
    "signature, measured_at, occurrences_at, regrouped, created_at FROM verification_receipts";

ports::VerificationReceiptRow ReceiptAt(const Rows& r, size_t i) {
  ports::VerificationReceiptRow x;
  x.id = r.Str(i, 0);
  x.org_id = r.Str(i, 1);
  x.project_id = r.Str(i, 2);
  x.issue_id = r.Str(i, 3);
  x.challenge_id = r.Str(i, 4);
  x.claim_id = r.Str(i, 5);
  x.token_id = r.Str(i, 6);
  x.runner_id = r.OptStr(i, 7);
  x.device_id = r.OptStr(i, 8);
  x.application_id = r.Str(i, 9);
  x.build_id = r.Str(i, 10);
  x.artifact_sha256 = r.Str(i, 11);
  x.runtime = r.Str(i, 12);
  x.status = r.Str(i, 13);
  x.trust_level = r.OptStr(i, 14);
  x.tests_json = r.Str(i, 15);
  x.evidence_ids_json = r.Str(i, 16);
  x.submission = r.Str(i, 17);
  x.signature = r.OptStr(i, 18);
  x.measured_at = r.Int(i, 19);
  x.occurrences_at = r.Int(i, 20);
  x.regrouped = r.Bool(i, 21);
  x.created_at = r.Int(i, 22);
  return x;
}

constexpr std::string_view kPromotionColumns =
    "SELECT id, org_id, project_id, issue_id, claim_id, token_id, receipt_ids, target_builds, coverage, "
    "occurrences_at, regrouped, created_at FROM verification_promotions";

ports::VerificationPromotionRow PromotionAt(const Rows& r, size_t i) {
  ports::VerificationPromotionRow x;
  x.id = r.Str(i, 0);
  x.org_id = r.Str(i, 1);
  x.project_id = r.Str(i, 2);
  x.issue_id = r.Str(i, 3);
  x.claim_id = r.Str(i, 4);
  x.token_id = r.Str(i, 5);
  x.receipt_ids_json = r.Str(i, 6);
  x.target_builds_json = r.Str(i, 7);
  x.coverage_json = r.Str(i, 8);
  x.occurrences_at = r.Int(i, 9);
  x.regrouped = r.Bool(i, 10);
  x.created_at = r.Int(i, 11);
  return x;
}

Value OptInt(const std::optional<int64_t>& v) { return v ? Value(*v) : Null(); }

// The first row `sql` answers, read by `at`, or none.
template <typename Row>
Result<std::optional<Row>> FirstRow(ports::Tx& t, const std::string& sql, const std::vector<Value>& params,
                                    Row (*at)(const Rows&, size_t)) {
  SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(sql, params));
  if (r.empty()) return std::optional<Row>();
  return std::optional<Row>(at(r, 0));
}

// Runners and devices are read and revoked the same way: by id within their
// project, and listed per project (at most 500, oldest first).
template <typename Row>
Result<std::optional<Row>> FindInProject(ports::Tx& t, std::string_view columns, const std::string& org_id,
                                         const std::string& project_id, const std::string& id,
                                         Row (*at)(const Rows&, size_t)) {
  return FirstRow(t, std::string(columns) + " WHERE id = ? AND org_id = ? AND project_id = ?",
                  {id, org_id, project_id}, at);
}

template <typename Row>
Result<std::vector<Row>> ListInProject(ports::Tx& t, std::string_view columns, const std::string& org_id,
                                       const std::string& project_id, Row (*at)(const Rows&, size_t)) {
  SV_ASSIGN_OR_RETURN(
      Rows r, Sql(t).Query(std::string(columns) +
                               " WHERE org_id = ? AND project_id = ? ORDER BY created_at, id LIMIT 500",
                           {org_id, project_id}));
  std::vector<Row> out;
  for (size_t i = 0; i < r.size(); ++i) out.push_back(at(r, i));
  return out;
}

// `table` is one of this file's constants, never input.
Result<bool> RevokeInProject(ports::Tx& t, std::string_view table, const std::string& org_id,
                             const std::string& project_id, const std::string& id, int64_t now_ms) {
  SV_ASSIGN_OR_RETURN(int64_t n, Sql(t).Exec("UPDATE " + std::string(table) +
                                                 " SET revoked_at = ? WHERE id = ? AND org_id = ? AND "
                                                 "project_id = ? AND revoked_at IS NULL",
                                             {now_ms, id, org_id, project_id}));
  return n > 0;
}

class SqlVerificationRepository final : public ports::VerificationRepository {
 public:
  Status InsertRunner(ports::Tx& t, const ports::VerificationRunnerRow& x) override {
    return Sql(t)
        .Exec(
            "INSERT INTO verification_runners (id, org_id, project_id, name, public_key_pem, public_key_hex, "
            "fingerprint, trust_level, allowed_runtimes, created_by, created_at, revoked_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {x.id, x.org_id, x.project_id, x.name, x.public_key_pem, util::HexEncode(x.public_key_raw),
             x.fingerprint, x.trust_level, JoinRuntimes(x.allowed_runtimes), x.created_by, x.created_at,
             OptInt(x.revoked_at)})
        .status();
  }

  Result<std::optional<ports::VerificationRunnerRow>> FindRunner(ports::Tx& t, const std::string& org_id,
                                                                 const std::string& project_id,
                                                                 const std::string& id) override {
    return FindInProject(t, kRunnerColumns, org_id, project_id, id, RunnerAt);
  }

  Result<bool> RevokeRunner(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                            const std::string& id, int64_t now_ms) override {
    return RevokeInProject(t, "verification_runners", org_id, project_id, id, now_ms);
  }

  Result<std::vector<ports::VerificationRunnerRow>> ListRunners(ports::Tx& t, const std::string& org_id,
                                                                const std::string& project_id) override {
    return ListInProject(t, kRunnerColumns, org_id, project_id, RunnerAt);
  }

  Status InsertDevice(ports::Tx& t, const ports::VerificationDeviceRow& x) override {
    return Sql(t)
        .Exec(
            "INSERT INTO verification_devices (id, org_id, project_id, runner_id, name, application_id, "
            "installation_id, runtime, device_identifier_sha256, os_version, physical_device_confirmed, "
            "created_by, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {x.id, x.org_id, x.project_id, x.runner_id, x.name, x.application_id, x.installation_id,
             x.runtime, x.device_identifier_sha256, x.os_version, Bool(x.physical_device_confirmed),
             x.created_by, x.created_at, OptInt(x.revoked_at)})
        .status();
  }

  Result<std::optional<ports::VerificationDeviceRow>> FindDevice(ports::Tx& t, const std::string& org_id,
                                                                 const std::string& project_id,
                                                                 const std::string& id) override {
    return FindInProject(t, kDeviceColumns, org_id, project_id, id, DeviceAt);
  }

  Result<bool> RevokeDevice(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                            const std::string& id, int64_t now_ms) override {
    return RevokeInProject(t, "verification_devices", org_id, project_id, id, now_ms);
  }

  Result<std::vector<ports::VerificationDeviceRow>> ListDevices(ports::Tx& t, const std::string& org_id,
                                                                const std::string& project_id) override {
    return ListInProject(t, kDeviceColumns, org_id, project_id, DeviceAt);
  }

  Status InsertChallenge(ports::Tx& t, const ports::VerificationChallengeRow& x) override {
    return Sql(t)
        .Exec(
            "INSERT INTO verification_challenges (id, org_id, project_id, issue_id, claim_id, generation, "
            "fencing_token, token_id, nonce, created_at, expires_at, signed_receipt_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {x.id, x.org_id, x.project_id, x.issue_id, x.claim_id, x.generation, x.fencing_token, x.token_id,
             x.nonce, x.created_at, x.expires_at, OptText(x.signed_receipt_id)})
        .status();
  }

  Result<std::optional<ports::VerificationChallengeRow>> FindChallenge(ports::Tx& t,
                                                                       const std::string& org_id,
                                                                       const std::string& id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query("SELECT id, org_id, project_id, issue_id, claim_id, generation, fencing_token, "
                             "token_id, nonce, created_at, expires_at, signed_receipt_id FROM "
                             "verification_challenges WHERE id = ? AND org_id = ?",
                             {id, org_id}));
    if (r.empty()) return std::optional<ports::VerificationChallengeRow>();
    ports::VerificationChallengeRow x;
    x.id = r.Str(0, 0);
    x.org_id = r.Str(0, 1);
    x.project_id = r.Str(0, 2);
    x.issue_id = r.Str(0, 3);
    x.claim_id = r.Str(0, 4);
    x.generation = r.Int(0, 5);
    x.fencing_token = r.Int(0, 6);
    x.token_id = r.Str(0, 7);
    x.nonce = r.Str(0, 8);
    x.created_at = r.Int(0, 9);
    x.expires_at = r.Int(0, 10);
    x.signed_receipt_id = r.OptStr(0, 11);
    return std::optional<ports::VerificationChallengeRow>(std::move(x));
  }

  Result<bool> UseChallenge(ports::Tx& t, const std::string& org_id, const std::string& id,
                            const std::string& receipt_id) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(t).Exec("UPDATE verification_challenges SET signed_receipt_id = ? WHERE id "
                                    "= ? AND org_id = ? AND signed_receipt_id IS NULL",
                                    {receipt_id, id, org_id}));
    return n > 0;
  }

  Status InsertReceipt(ports::Tx& t, const ports::VerificationReceiptRow& x) override {
    return Sql(t)
        .Exec(
            "INSERT INTO verification_receipts (id, org_id, project_id, issue_id, challenge_id, claim_id, "
            "token_id, runner_id, device_id, application_id, build_id, artifact_sha256, runtime, status, "
            "trust_level, tests, evidence_ids, submission, signature, measured_at, occurrences_at, "
            "regrouped, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {x.id,
             x.org_id,
             x.project_id,
             x.issue_id,
             x.challenge_id,
             x.claim_id,
             x.token_id,
             OptText(x.runner_id),
             OptText(x.device_id),
             x.application_id,
             x.build_id,
             x.artifact_sha256,
             x.runtime,
             x.status,
             OptText(x.trust_level),
             x.tests_json,
             x.evidence_ids_json,
             x.submission,
             OptText(x.signature),
             x.measured_at,
             x.occurrences_at,
             Bool(x.regrouped),
             x.created_at})
        .status();
  }

  Result<std::optional<ports::VerificationReceiptRow>> FindReceipt(ports::Tx& t, const std::string& org_id,
                                                                   const std::string& id) override {
    return FirstRow(t, std::string(kReceiptColumns) + " WHERE id = ? AND org_id = ?", {id, org_id},
                    ReceiptAt);
  }

  Result<std::vector<ports::VerificationReceiptRow>> ListReceipts(ports::Tx& t, const std::string& org_id,
                                                                  const std::string& issue_id,
                                                                  int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kReceiptColumns) +
                                         " WHERE issue_id = ? AND org_id = ? ORDER BY created_at DESC, id "
                                         "DESC LIMIT ?",
                                     {issue_id, org_id, limit}));
    std::vector<ports::VerificationReceiptRow> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(ReceiptAt(r, i));
    return out;
  }

  Status InsertPromotion(ports::Tx& t, const ports::VerificationPromotionRow& x) override {
    return Sql(t)
        .Exec(
            "INSERT INTO verification_promotions (id, org_id, project_id, issue_id, claim_id, token_id, "
            "receipt_ids, target_builds, coverage, occurrences_at, regrouped, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {x.id, x.org_id, x.project_id, x.issue_id, x.claim_id, x.token_id, x.receipt_ids_json,
             x.target_builds_json, x.coverage_json, x.occurrences_at, Bool(x.regrouped), x.created_at})
        .status();
  }

  Result<std::optional<ports::VerificationPromotionRow>> LatestPromotion(
      ports::Tx& t, const std::string& org_id, const std::string& issue_id) override {
    return FirstRow(t,
                    std::string(kPromotionColumns) +
                        " WHERE issue_id = ? AND org_id = ? ORDER BY created_at DESC, id DESC LIMIT 1",
                    {issue_id, org_id}, PromotionAt);
  }

  Status MarkRegrouped(ports::Tx& t, const std::string& org_id,
                       const std::vector<std::string>& issue_ids) override {
    Connection& tx = Sql(t);
    for (const std::string& id : issue_ids) {
      SV_RETURN_IF_ERROR(
          tx.Exec("UPDATE verification_receipts SET regrouped = 1 WHERE issue_id = ? AND org_id = ? AND "
                  "regrouped = 0",
                  {id, org_id})
              .status());
      SV_RETURN_IF_ERROR(
          tx.Exec("UPDATE verification_promotions SET regrouped = 1 WHERE issue_id = ? AND org_id = ? AND "
                  "regrouped = 0",
                  {id, org_id})
              .status());
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<ports::VerificationRepository> NewSqlVerificationRepository() {
  return std::make_unique<SqlVerificationRepository>();
}

}  // namespace service::store
