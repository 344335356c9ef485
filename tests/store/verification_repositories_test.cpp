// Contract tests of the verification repository on both backends, through
// its interface (areas/verification/ports/verification_repository.h):
// runners and devices found by organization and project only, revocation
// once (the first time kept), listing order, challenges used by one signed
// receipt, receipts and promotions read back field by field, the latest
// promotion of an issue, regrouping, duplicate ids (kConflict) and the
// foreign keys (an organization's rows go with it).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "areas/verification/ports/verification_repository.h"
#include "areas/verification/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;
constexpr const char* kIssue = "00000000-0000-7000-8000-0000000000b1";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::VerificationRepository> repo = NewSqlVerificationRepository();
  Fixture() : StoreFixture({kProject}) { AddOtherOrganization(); }

  ports::VerificationRunnerRow Runner(int64_t at) {
    ports::VerificationRunnerRow r;
    r.id = Id();
    r.org_id = kOrg;
    r.project_id = kProject;
    r.name = "ci";
    r.public_key_pem = "-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----\n";
    r.public_key_raw = std::string(32, '\x07');
    r.fingerprint = "SHA256:ab";
    r.trust_level = "ci";
    r.allowed_runtimes = {"web", "ios"};
    r.created_by = "user-1";
    r.created_at = at;
    return r;
  }

  ports::VerificationReceiptRow Receipt(const std::string& issue) {
    ports::VerificationReceiptRow r;
    r.id = Id();
    r.org_id = kOrg;
    r.project_id = kProject;
    r.issue_id = issue;
    r.challenge_id = "c-1";
    r.claim_id = "claim-1";
    r.token_id = "token-1";
    r.runner_id = "runner-1";
    r.application_id = "app-1";
    r.build_id = "build-1";
    r.artifact_sha256 = std::string(64, 'a');
    r.runtime = "web";
    r.status = "verified";
    r.trust_level = "ci";
    r.tests_json = R"([{"name":"a","outcome":"passed"}])";
    r.evidence_ids_json = "[]";
    r.submission = R"({"a":1})";
    r.signature = "c2ln";
    r.measured_at = 5;
    r.occurrences_at = 3;
    r.created_at = 6;
    return r;
  }
};

}  // namespace

TEST_CASE(
    "verification store: runners and devices by organization and project, revoked once, listed in order") {
  Fixture f;
  ports::VerificationRunnerRow a = f.Runner(20), b = f.Runner(10);
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.repo->InsertRunner(tx, a));
    return f.repo->InsertRunner(tx, b);
  });
  CHECK(f.db->Write([&](Connection& tx) { return f.repo->InsertRunner(tx, a); }).code() == Code::kConflict);
  ports::VerificationDeviceRow d;
  d.id = f.Id();
  d.org_id = kOrg;
  d.project_id = kProject;
  d.runner_id = a.id;
  d.name = "iPhone";
  d.application_id = "app-1";
  d.installation_id = "inst-1";
  d.runtime = "ios";
  d.device_identifier_sha256 = std::string(64, 'b');
  d.os_version = "17";
  d.physical_device_confirmed = true;
  d.created_by = "user-1";
  d.created_at = 30;
  f.Write([&](Connection& tx) { return f.repo->InsertDevice(tx, d); });
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool first, f.repo->RevokeRunner(tx, kOrg, kProject, a.id, 100));
    SV_ASSIGN_OR_RETURN(bool second, f.repo->RevokeRunner(tx, kOrg, kProject, a.id, 200));
    SV_ASSIGN_OR_RETURN(bool foreign, f.repo->RevokeRunner(tx, kOtherOrg, kOtherProject, b.id, 100));
    SV_ASSIGN_OR_RETURN(bool device, f.repo->RevokeDevice(tx, kOrg, kProject, d.id, 150));
    CHECK(first);
    CHECK_FALSE(second);
    CHECK_FALSE(foreign);
    CHECK(device);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto got, f.repo->FindRunner(c, kOrg, kProject, a.id));
    REQUIRE(got.has_value());
    CHECK(got->public_key_raw == a.public_key_raw);
    CHECK(got->allowed_runtimes == a.allowed_runtimes);
    CHECK(got->revoked_at == 100);
    SV_ASSIGN_OR_RETURN(auto other_project, f.repo->FindRunner(c, kOrg, kOtherProject, a.id));
    SV_ASSIGN_OR_RETURN(auto other_org, f.repo->FindRunner(c, kOtherOrg, kProject, a.id));
    CHECK_FALSE(other_project.has_value());
    CHECK_FALSE(other_org.has_value());
    SV_ASSIGN_OR_RETURN(auto list, f.repo->ListRunners(c, kOrg, kProject));
    REQUIRE(list.size() == 2);
    CHECK(list[0].id == b.id);  // oldest first
    SV_ASSIGN_OR_RETURN(auto dev, f.repo->FindDevice(c, kOrg, kProject, d.id));
    REQUIRE(dev.has_value());
    CHECK(dev->physical_device_confirmed);
    CHECK(dev->revoked_at == 150);
    SV_ASSIGN_OR_RETURN(auto devices, f.repo->ListDevices(c, kOtherOrg, kOtherProject));
    CHECK(devices.empty());
    return Status::Ok();
  });
}

TEST_CASE(
    "verification store: challenges, receipts, promotions, regrouping and the organization's deletion") {
  Fixture f;
  ports::VerificationChallengeRow ch;
  ch.id = f.Id();
  ch.org_id = kOrg;
  ch.project_id = kProject;
  ch.issue_id = kIssue;
  ch.claim_id = "claim-1";
  ch.generation = 2;
  ch.fencing_token = 3;
  ch.token_id = "token-1";
  ch.nonce = "n";
  ch.created_at = 1;
  ch.expires_at = 2;
  ports::VerificationReceiptRow r = f.Receipt(kIssue);
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.repo->InsertChallenge(tx, ch));
    SV_RETURN_IF_ERROR(f.repo->InsertReceipt(tx, r));
    SV_ASSIGN_OR_RETURN(bool used, f.repo->UseChallenge(tx, kOrg, ch.id, r.id));
    SV_ASSIGN_OR_RETURN(bool again, f.repo->UseChallenge(tx, kOrg, ch.id, "other"));
    CHECK(used);
    CHECK_FALSE(again);
    for (int64_t at : {10, 20}) {
      ports::VerificationPromotionRow p;
      p.id = f.Id();
      p.org_id = kOrg;
      p.project_id = kProject;
      p.issue_id = kIssue;
      p.claim_id = "claim-1";
      p.token_id = "token-1";
      p.receipt_ids_json = "[\"" + r.id + "\"]";
      p.target_builds_json = "[]";
      p.coverage_json = "[]";
      p.occurrences_at = at;
      p.created_at = at;
      SV_RETURN_IF_ERROR(f.repo->InsertPromotion(tx, p));
    }
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto got_ch, f.repo->FindChallenge(c, kOrg, ch.id));
    REQUIRE(got_ch.has_value());
    CHECK(got_ch->signed_receipt_id == r.id);
    CHECK(got_ch->fencing_token == 3);
    SV_ASSIGN_OR_RETURN(auto got, f.repo->FindReceipt(c, kOrg, r.id));
    REQUIRE(got.has_value());
    CHECK(got->submission == r.submission);
    CHECK(got->signature == r.signature);
    CHECK(got->trust_level == r.trust_level);
    CHECK_FALSE(got->device_id.has_value());
    CHECK_FALSE(got->regrouped);
    SV_ASSIGN_OR_RETURN(auto foreign, f.repo->FindReceipt(c, kOtherOrg, r.id));
    CHECK_FALSE(foreign.has_value());
    SV_ASSIGN_OR_RETURN(auto latest, f.repo->LatestPromotion(c, kOrg, kIssue));
    REQUIRE(latest.has_value());
    CHECK(latest->created_at == 20);
    SV_ASSIGN_OR_RETURN(auto none, f.repo->LatestPromotion(c, kOtherOrg, kIssue));
    CHECK_FALSE(none.has_value());
    return Status::Ok();
  });
  f.Write([&](Connection& tx) { return f.repo->MarkRegrouped(tx, kOrg, {kIssue}); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto got, f.repo->FindReceipt(c, kOrg, r.id));
    SV_ASSIGN_OR_RETURN(auto latest, f.repo->LatestPromotion(c, kOrg, kIssue));
    CHECK(got->regrouped);
    CHECK(latest->regrouped);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM organizations WHERE id = ?", {kOrg}).status(); });
  CHECK(f.Int("SELECT COUNT(*) FROM verification_receipts") == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM verification_promotions") == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM verification_challenges") == 0);
}

}  // namespace service::store
