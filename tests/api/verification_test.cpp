// Verification (issue 30 item 4; README "Verification") through the router
// on both backends, driven by a runner client that signs with OpenSSL
// directly (tests/support/ed25519_signer.h, its own RFC 8785 writer): runner
// and device enrollment (Ed25519 public keys only: a private key, RSA, EC
// and garbage refused; physical iOS confirmation; the application and
// installation must exist; public metadata only; revocation; the command
// log), challenges bound to a live lease and its token, signed, unsigned
// and refused receipts (wrong key, revoked runner, runtime not allowed,
// stale lease, another token's challenge, expired challenge, missing
// application or build), receipt reads (status, trust, applicability, the
// evidence metadata), promotion (exact target builds, coverage of every
// observed application and runtime, completing the claim, the bug's
// verified-fixed state) and a receipt turning historical after a
// recurrence, a merge and a revoked runner.
#include <doctest/doctest.h>

#include <atomic>
#include <boost/json.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "support/capture_fixture.h"
#include "support/ed25519_signer.h"
#include "util/crypto.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

const std::string kBase = "/v1/agent-work/verification";

std::string S(const json::value& v, const char* key) {
  const json::value& x = v.at(key);
  return x.is_string() ? std::string(x.as_string()) : json::serialize(x);
}

std::string ErrCode(const TestResponse& r) {
  return r.json.is_object() && r.json.as_object().contains("code") ? S(r.json, "code") : "";
}

std::atomic<int> g_id{1};
std::string NewUuid() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "0190f000-0000-7000-8000-%012d", 500000 + g_id++);
  return buf;
}

std::string Sha(const std::string& seed) { return util::Sha256Hex(seed); }

HeaderList AgentHeaders(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

std::string NewToken(TestService& t, const Member& admin, const std::vector<std::string>& scopes,
                     const std::vector<std::string>& projects) {
  json::array sc, grants;
  for (const auto& s : scopes) sc.emplace_back(s);
  for (const auto& p : projects) grants.push_back(json::object{{"projectId", p}});
  const std::string expires = util::FormatIso8601(t.clock().NowMillis() + 30LL * 86400 * 1000);
  TestResponse r = t.Post(
      "/v1/org/agent-pats",
      json::object{{"name", "agent"}, {"scopes", sc}, {"expiresAt", expires}, {"projectGrants", grants}},
      admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "token");
}

const std::vector<std::string> kAllScopes = {"claim_issue", "submit_verification", "read_verification",
                                             "request_evidence"};

// An organization with a project, an application with an installation and
// a build, an agent token, and a bug captured by the application on the
// web.
struct World {
  CaptureSetup s;
  HeaderList agent;
  std::string app_id, installation_id, build_id, artifact;
  std::string bug;
};

json::value Created(TestService& t, const std::string& path, const json::object& body, const HeaderList& h,
                    const char* key) {
  TestResponse r = t.Post(path, body, h);
  REQUIRE_MESSAGE(r.status == 201, path << " " << r.body);
  return r.json.at(key);
}

std::string NewBuild(TestService& t, const World& w, const std::string& app_id, const std::string& artifact) {
  return S(Created(t, "/v1/applications/projects/" + w.s.project_id + "/" + app_id + "/builds",
                   json::object{
                       {"requestId", NewUuid()}, {"sourceRevision", "abc123"}, {"artifactSha256", artifact}},
                   w.s.admin.headers(), "build"),
           "id");
}

std::string NewApplication(TestService& t, const World& w, const std::string& name) {
  return S(Created(t, "/v1/applications/projects/" + w.s.project_id,
                   json::object{{"requestId", NewUuid()}, {"name", name}, {"identifier", name + ".example"}},
                   w.s.admin.headers(), "application"),
           "id");
}

std::string NewInstallation(TestService& t, const World& w, const std::string& app_id) {
  return S(
      Created(t, "/v1/applications/projects/" + w.s.project_id + "/" + app_id + "/installations",
              json::object{{"requestId", NewUuid()}, {"label", "main"}}, w.s.admin.headers(), "installation"),
      "id");
}

json::object WebIdentity(const World& w) {
  return json::object{{"applicationId", w.app_id},    {"installationId", w.installation_id},
                      {"sdkName", "service-browser"}, {"sdkVersion", "1.0.0"},
                      {"source", "automatic"},        {"framework", "react"},
                      {"runtime", "browser"},         {"osFamily", "linux"}};
}

// A report of the bug "Checkout fails" carrying `identity` as metadata.capture.
TestResponse Capture(TestService& t, const World& w, const json::object& identity) {
  t.clock().Advance(1000);
  json::object report = Report("Checkout fails", "total is undefined");
  report["platform"] = identity.at("sdkName") == "service-swift" ? "ios" : "web";
  report["metadata"] = json::object{{"capture", identity}};
  TestResponse r = Ingest(t, w.s.key, report);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r;
}

World NewWorld(TestService& t) {
  World w;
  w.s = NewCaptureSetup(t, "pro");
  w.agent = AgentHeaders(NewToken(t, w.s.admin, kAllScopes, {w.s.project_id}));
  w.app_id = NewApplication(t, w, "shop");
  w.installation_id = NewInstallation(t, w, w.app_id);
  w.artifact = Sha("shop-build-1");
  w.build_id = NewBuild(t, w, w.app_id, w.artifact);
  w.bug = S(Capture(t, w, WebIdentity(w)).json, "id");
  return w;
}

json::object RunnerBody(const World& w, const std::string& pem, json::array runtimes = {"web", "node"},
                        const std::string& trust = "ci", const std::string& command = NewUuid()) {
  return json::object{{"commandId", command}, {"projectId", w.s.project_id}, {"name", "ci runner"},
                      {"publicKeyPem", pem},  {"trustLevel", trust},         {"allowedRuntimes", runtimes}};
}

std::string EnrollRunner(TestService& t, const World& w, const Ed25519Signer& key,
                         json::array runtimes = {"web"}, const std::string& trust = "ci") {
  TestResponse r =
      t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem(), runtimes, trust), w.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json.at("runner"), "id");
}

json::value Claim(TestService& t, const World& w, const HeaderList& agent, int ttl = 900) {
  TestResponse r = t.Post(
      "/v1/agent-work/claims",
      json::object{
          {"commandId", NewUuid()}, {"projectId", w.s.project_id}, {"issueId", w.bug}, {"ttlSeconds", ttl}},
      agent);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json.at("claim");
}

json::object LeaseBody(const json::value& claim, const std::string& command = NewUuid()) {
  return json::object{{"commandId", command},
                      {"projectId", S(claim, "projectId")},
                      {"issueId", S(claim, "issueId")},
                      {"claimId", S(claim, "claimId")},
                      {"generation", S(claim, "generation")},
                      {"fencingToken", S(claim, "fencingToken")}};
}

json::value Challenge(TestService& t, const json::value& claim, const HeaderList& agent) {
  TestResponse r = t.Post(kBase + "/challenges", LeaseBody(claim), agent);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json.at("challenge");
}

// The measured submission for `challenge` (README "Verification").
json::object Submission(TestService& t, const World& w, const json::value& challenge,
                        const std::string& runtime = "web", const std::string& outcome = "passed") {
  return json::object{
      {"challengeId", S(challenge, "challengeId")},
      {"nonce", S(challenge, "nonce")},
      {"projectId", w.s.project_id},
      {"issueId", S(challenge, "issueId")},
      {"applicationId", w.app_id},
      {"buildId", w.build_id},
      {"artifactSha256", w.artifact},
      {"runtime", runtime},
      {"tests", json::array{json::object{{"name", "checkout total"}, {"outcome", outcome}},
                            json::object{{"name", "checkout \"empty\" cart\n"}, {"outcome", "passed"}}}},
      {"measuredAt", util::FormatIso8601(t.clock().NowMillis())}};
}

json::object ReceiptBody(const World& w, const json::object& submission, const std::string& runner_id,
                         const Ed25519Signer* key) {
  json::object body{{"commandId", NewUuid()},
                    {"projectId", w.s.project_id},
                    {"issueId", S(submission, "issueId")},
                    {"submission", submission}};
  if (key != nullptr) {
    body["proof"] =
        json::object{{"runnerId", runner_id}, {"signature", key->SignBase64(TestCanonicalJson(submission))}};
  }
  return body;
}

std::string ReceiptQuery(const World& w, const std::string& receipt, const std::string& suffix = "") {
  return kBase + "/receipts/" + receipt + suffix + "?projectId=" + w.s.project_id + "&issueId=" + w.bug;
}

json::object PromoteBody(const json::value& claim, std::vector<std::string> builds,
                         std::vector<std::string> receipts) {
  json::object b = LeaseBody(claim);
  json::array bs, rs;
  for (auto& x : builds) bs.emplace_back(x);
  for (auto& x : receipts) rs.emplace_back(x);
  b["targetBuilds"] = bs;
  b["receiptIds"] = rs;
  return b;
}

}  // namespace

TEST_CASE("verification: runner enrollment takes Ed25519 public keys only, shows public metadata, revokes") {
  TestService t;
  World w = NewWorld(t);
  Ed25519Signer key;
  const HeaderList admin = w.s.admin.headers();

  const std::string command = NewUuid();
  TestResponse ok = t.Post(kBase + "/runners",
                           RunnerBody(w, key.PublicKeyPem(), {"web", "ios"}, "device_lab", command), admin);
  REQUIRE_MESSAGE(ok.status == 201, ok.body);
  const json::value runner = ok.json.at("runner");
  CHECK(S(runner, "trustLevel") == "device_lab");
  CHECK(runner.at("allowedRuntimes") == json::array{"web", "ios"});
  CHECK(S(runner, "status") == "active");
  CHECK(S(runner, "publicKeyPem") == key.PublicKeyPem());
  CHECK(S(runner, "publicKeyFingerprint").rfind("SHA256:", 0) == 0);

  // Replay: the first answer; other input under the id: conflict.
  TestResponse replay = t.Post(
      kBase + "/runners", RunnerBody(w, key.PublicKeyPem(), {"web", "ios"}, "device_lab", command), admin);
  CHECK(replay.status == 200);
  CHECK(replay.Header("Idempotent-Replayed") == "true");
  CHECK(replay.json.at("runner") == runner);
  CHECK(ErrCode(t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem(), {"web"}, "ci", command),
                       admin)) == "COMMAND_CONFLICT");

  // Never a private key, never another key type, never garbage.
  TestResponse priv = t.Post(kBase + "/runners", RunnerBody(w, key.PrivateKeyPem()), admin);
  CHECK(priv.status == 400);
  CHECK(ErrCode(priv) == "PRIVATE_KEY_REFUSED");
  CHECK(priv.body.find("PRIVATE KEY-----\\nMC") == std::string::npos);
  TestResponse rsa = t.Post(kBase + "/runners", RunnerBody(w, RsaPublicKeyPem()), admin);
  CHECK(rsa.status == 400);
  CHECK(ErrCode(rsa) == "KEY_TYPE_UNSUPPORTED");
  CHECK(ErrCode(t.Post(kBase + "/runners", RunnerBody(w, EcPublicKeyPem()), admin)) ==
        "KEY_TYPE_UNSUPPORTED");
  TestResponse garbage =
      t.Post(kBase + "/runners",
             RunnerBody(w, "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----"), admin);
  CHECK(garbage.status == 400);
  CHECK(ErrCode(garbage) == "PUBLIC_KEY_INVALID");
  CHECK(ErrCode(t.Post(kBase + "/runners", RunnerBody(w, "hello"), admin)) == "PUBLIC_KEY_INVALID");
  // Runtimes and trust levels from the vocabulary.
  CHECK(ErrCode(t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem(), {"web", "beos"}), admin)) ==
        "VALIDATION_ERROR");
  CHECK(ErrCode(t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem(), json::array{}), admin)) ==
        "VALIDATION_ERROR");
  CHECK(ErrCode(t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem(), {"web"}, "cloud"), admin)) ==
        "VALIDATION_ERROR");
  json::object unknown = RunnerBody(w, key.PublicKeyPem());
  unknown["privateKeyPem"] = "x";
  CHECK(ErrCode(t.Post(kBase + "/runners", unknown, admin)) == "VALIDATION_ERROR");

  // Admins only: a manager is refused, an agent token is not a person, a
  // project of another organization is not found.
  Member manager = AddMemberWithRole(t, w.s.admin.org_id, "manager");
  CHECK(t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem()), manager.headers()).status == 403);
  CHECK(t.Get(kBase + "/enrollment?projectId=" + w.s.project_id, manager.headers()).status == 403);
  CHECK(t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem()), w.agent).status == 401);
  CaptureSetup other = NewCaptureSetup(t, "pro");
  TestResponse foreign = t.Post(kBase + "/runners", RunnerBody(w, key.PublicKeyPem()), other.admin.headers());
  CHECK(foreign.status == 404);
  CHECK(ErrCode(foreign) == "PROJECT_NOT_FOUND");

  // Devices: the runner, application and installation must exist; a
  // physical iOS device must be confirmed.
  const std::string runner_id = S(runner, "id");
  auto device = [&](json::object extra) {
    json::object d{{"commandId", NewUuid()},    {"projectId", w.s.project_id},
                   {"name", "iPhone 15"},       {"runnerId", runner_id},
                   {"applicationId", w.app_id}, {"installationId", w.installation_id},
                   {"runtime", "ios"},          {"deviceIdentifierSha256", Sha("device-1")},
                   {"osVersion", "17.4"}};
    for (const auto& [k, v] : extra) d[k] = v;
    return d;
  };
  TestResponse unconfirmed = t.Post(kBase + "/devices", device({}), admin);
  CHECK(unconfirmed.status == 400);
  CHECK(ErrCode(unconfirmed) == "PHYSICAL_DEVICE_UNCONFIRMED");
  CHECK(ErrCode(t.Post(kBase + "/devices", device({{"physicalDeviceConfirmed", false}}), admin)) ==
        "PHYSICAL_DEVICE_UNCONFIRMED");
  TestResponse dev = t.Post(kBase + "/devices", device({{"physicalDeviceConfirmed", true}}), admin);
  REQUIRE_MESSAGE(dev.status == 201, dev.body);
  CHECK(dev.json.at("device").at("physicalDeviceConfirmed") == true);
  CHECK(S(dev.json.at("device"), "deviceIdentifierSha256") == Sha("device-1"));
  TestResponse no_app = t.Post(
      kBase + "/devices", device({{"physicalDeviceConfirmed", true}, {"applicationId", NewUuid()}}), admin);
  CHECK(no_app.status == 404);
  CHECK(ErrCode(no_app) == "APPLICATION_NOT_FOUND");
  CHECK(ErrCode(t.Post(kBase + "/devices",
                       device({{"physicalDeviceConfirmed", true}, {"installationId", NewUuid()}}), admin)) ==
        "INSTALLATION_NOT_FOUND");
  CHECK(ErrCode(t.Post(kBase + "/devices",
                       device({{"physicalDeviceConfirmed", true}, {"runnerId", NewUuid()}}), admin)) ==
        "RUNNER_NOT_FOUND");
  CHECK(ErrCode(t.Post(kBase + "/devices", device({{"deviceIdentifierSha256", "abc"}}), admin)) ==
        "VALIDATION_ERROR");
  CHECK(ErrCode(t.Post(kBase + "/devices", device({{"runtime", "android"}}), admin)) ==
        "RUNTIME_NOT_ALLOWED");
  // Android needs no confirmation (the rule is iOS's).
  TestResponse web_device =
      t.Post(kBase + "/devices", device({{"runtime", "web"}, {"name", "Chrome"}}), admin);
  CHECK(web_device.status == 201);

  // The enrollment read: public metadata only.
  TestResponse read = t.Get(kBase + "/enrollment?projectId=" + w.s.project_id, admin);
  REQUIRE(read.status == 200);
  CHECK(read.json.at("runners").as_array().size() == 1);
  CHECK(read.json.at("devices").as_array().size() == 2);
  CHECK(read.body.find("PRIVATE") == std::string::npos);
  CHECK(read.json.at("runners").at(0).as_object().size() == 10);
  CHECK(t.Get(kBase + "/enrollment", admin).status == 400);
  CHECK(t.Get(kBase + "/enrollment?projectId=" + w.s.project_id, other.admin.headers()).status == 404);

  // Revocations (a repeat keeps the first time).
  TestResponse revoked = t.Post(
      kBase + "/runners/revoke",
      json::object{{"commandId", NewUuid()}, {"projectId", w.s.project_id}, {"runnerId", runner_id}}, admin);
  REQUIRE_MESSAGE(revoked.status == 200, revoked.body);
  CHECK(S(revoked.json.at("runner"), "status") == "revoked");
  t.clock().Advance(5000);
  TestResponse again = t.Post(
      kBase + "/runners/revoke",
      json::object{{"commandId", NewUuid()}, {"projectId", w.s.project_id}, {"runnerId", runner_id}}, admin);
  CHECK(S(again.json.at("runner"), "revokedAt") == S(revoked.json.at("runner"), "revokedAt"));
  CHECK(ErrCode(t.Post(
            kBase + "/runners/revoke",
            json::object{{"commandId", NewUuid()}, {"projectId", w.s.project_id}, {"runnerId", NewUuid()}},
            admin)) == "RUNNER_NOT_FOUND");
  TestResponse dev_revoked = t.Post(kBase + "/devices/revoke",
                                    json::object{{"commandId", NewUuid()},
                                                 {"projectId", w.s.project_id},
                                                 {"deviceId", S(dev.json.at("device"), "id")}},
                                    admin);
  REQUIRE(dev_revoked.status == 200);
  CHECK(S(dev_revoked.json.at("device"), "status") == "revoked");
  // A revoked runner takes no new device.
  CHECK(ErrCode(t.Post(kBase + "/devices", device({{"physicalDeviceConfirmed", true}}), admin)) ==
        "RUNNER_REVOKED");
}

TEST_CASE(
    "verification: challenge, signed receipt and promotion mark the bug verified fixed and complete the "
    "claim") {
  TestService t;
  World w = NewWorld(t);
  Ed25519Signer key;
  const std::string runner = EnrollRunner(t, w, key, {"web"});

  const json::value claim = Claim(t, w, w.agent);
  const json::value challenge = Challenge(t, claim, w.agent);
  CHECK(S(challenge, "issueId") == w.bug);
  CHECK(S(challenge, "claimId") == S(claim, "claimId"));
  CHECK(S(challenge, "nonce").size() >= 40);

  t.clock().Advance(1000);
  const json::object submission = Submission(t, w, challenge);
  TestResponse r = t.Post(kBase + "/receipts", ReceiptBody(w, submission, runner, &key), w.agent);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const json::value receipt = r.json.at("receipt");
  CHECK(S(receipt, "status") == "verified");
  CHECK(S(receipt, "trust") == "ci");
  CHECK(receipt.at("signed") == true);
  const std::string receipt_id = S(receipt, "receiptId");

  TestResponse got = t.Get(ReceiptQuery(w, receipt_id), w.agent);
  REQUIRE_MESSAGE(got.status == 200, got.body);
  CHECK(S(got.json.at("receipt"), "status") == "verified");
  CHECK(S(got.json.at("receipt").at("applicability"), "state") == "current");
  CHECK(got.json.at("receipt").at("applicability").at("reason").is_null());
  CHECK(got.json.at("receipt").at("tests").as_array().size() == 2);
  TestResponse ev = t.Get(ReceiptQuery(w, receipt_id, "/evidence"), w.agent);
  REQUIRE_MESSAGE(ev.status == 200, ev.body);
  CHECK(ev.json.at("evidence").at("contentAvailable") == false);
  CHECK(S(ev.json.at("evidence"), "submissionSha256") == Sha(TestCanonicalJson(submission)));
  // The stored submission is the canonical form the runner signed.
  CHECK(QueryText(t, "SELECT submission FROM verification_receipts WHERE id = ?", {receipt_id}) ==
        TestCanonicalJson(submission));

  // Promotion: the exact builds and the receipts covering web.
  TestResponse wrong_builds =
      t.Post(kBase + "/promote",
             PromoteBody(claim, {w.build_id, NewBuild(t, w, w.app_id, Sha("b2"))}, {receipt_id}), w.agent);
  CHECK(wrong_builds.status == 409);
  CHECK(ErrCode(wrong_builds) == "TARGET_BUILDS_MISMATCH");
  CHECK(ErrCode(t.Post(kBase + "/promote", PromoteBody(claim, {NewUuid()}, {receipt_id}), w.agent)) ==
        "TARGET_BUILD_NOT_FOUND");
  CHECK(ErrCode(t.Post(kBase + "/promote", PromoteBody(claim, {w.build_id}, {NewUuid()}), w.agent)) ==
        "RECEIPT_NOT_FOUND");

  TestResponse bug0 = t.Get("/v1/bugs/" + w.bug, w.s.admin.headers());
  CHECK(bug0.json.at("active_verification_promotion_id").is_null());
  CHECK(bug0.json.at("verification").is_null());

  const json::object promote = PromoteBody(claim, {w.build_id}, {receipt_id});
  TestResponse p = t.Post(kBase + "/promote", promote, w.agent);
  REQUIRE_MESSAGE(p.status == 200, p.body);
  const std::string promotion = S(p.json.at("promotion"), "promotionId");
  CHECK(S(p.json.at("promotion"), "state") == "verified_fixed");
  CHECK(S(p.json.at("claim"), "status") == "completed");
  CHECK(p.json.at("promotion").at("coverage").as_array().size() == 1);
  CHECK(QueryText(t, "SELECT receipt_id FROM agent_claims WHERE id = ?", {S(claim, "claimId")}) == promotion);
  // Replay: the first answer.
  TestResponse again = t.Post(kBase + "/promote", promote, w.agent);
  CHECK(again.status == 200);
  CHECK(again.Header("Idempotent-Replayed") == "true");
  CHECK(again.json == p.json);
  // The claim is over: the lease is stale now.
  CHECK(ErrCode(t.Post(kBase + "/promote", PromoteBody(claim, {w.build_id}, {receipt_id}), w.agent)) ==
        "LEASE_STALE");

  TestResponse bug = t.Get("/v1/bugs/" + w.bug, w.s.admin.headers());
  REQUIRE(bug.status == 200);
  CHECK(S(bug.json, "active_verification_promotion_id") == promotion);
  CHECK(S(bug.json.at("verification"), "state") == "verified_fixed");
  // The console's read of the bug's verification: members, this organization.
  TestResponse bv = t.Get("/v1/bugs/" + w.bug + "/verification", w.s.admin.headers());
  REQUIRE_MESSAGE(bv.status == 200, bv.body);
  CHECK(S(bv.json.at("verification"), "promotionId") == promotion);
  REQUIRE(bv.json.at("receipts").as_array().size() == 1);
  CHECK(S(bv.json.at("receipts").at(0), "receiptId") == receipt_id);
  CHECK(S(bv.json.at("receipts").at(0).at("applicability"), "state") == "current");
  Member viewer = AddMemberWithRole(t, w.s.admin.org_id, "viewer");
  CHECK(t.Get("/v1/bugs/" + w.bug + "/verification", viewer.headers()).status == 200);
  CaptureSetup stranger = NewCaptureSetup(t);
  CHECK(t.Get("/v1/bugs/" + w.bug + "/verification", stranger.admin.headers()).status == 404);
  CHECK(t.Get("/v1/bugs/" + w.bug + "/verification", w.agent).status == 401);

  // A recurrence: the receipt is historical, the label unproven.
  Capture(t, w, WebIdentity(w));
  TestResponse hist = t.Get(ReceiptQuery(w, receipt_id), w.agent);
  CHECK(S(hist.json.at("receipt").at("applicability"), "state") == "historical");
  CHECK(S(hist.json.at("receipt").at("applicability"), "reason") == "recurrence");
  TestResponse bug2 = t.Get("/v1/bugs/" + w.bug, w.s.admin.headers());
  CHECK(bug2.json.at("active_verification_promotion_id").is_null());
  CHECK(S(bug2.json.at("verification"), "state") == "unproven");
  CHECK(S(bug2.json.at("verification"), "reason") == "recurrence");
}

TEST_CASE(
    "verification: refused receipts (wrong key, revoked runner, runtime, stale lease, other token, expiry)") {
  TestService t;
  World w = NewWorld(t);
  Ed25519Signer key, other_key;
  const std::string runner = EnrollRunner(t, w, key, {"web"});
  json::value claim = Claim(t, w, w.agent);
  json::value challenge = Challenge(t, claim, w.agent);
  auto submit = [&](const json::object& sub, const std::string& runner_id, const Ed25519Signer* k,
                    const HeaderList& h) {
    return t.Post(kBase + "/receipts", ReceiptBody(w, sub, runner_id, k), h);
  };

  // Wrong key: signed by another key than the runner's.
  TestResponse wrong = submit(Submission(t, w, challenge), runner, &other_key, w.agent);
  CHECK(wrong.status == 400);
  CHECK(ErrCode(wrong) == "SIGNATURE_INVALID");
  // A changed field after signing.
  json::object tampered = Submission(t, w, challenge);
  json::object body = ReceiptBody(w, tampered, runner, &key);
  body["submission"].as_object()["tests"].as_array()[0].as_object()["outcome"] = "skipped";
  CHECK(ErrCode(t.Post(kBase + "/receipts", body, w.agent)) == "SIGNATURE_INVALID");
  // A runtime the runner is not allowed.
  TestResponse runtime = submit(Submission(t, w, challenge, "ios"), runner, &key, w.agent);
  CHECK(runtime.status == 409);
  CHECK(ErrCode(runtime) == "RUNTIME_NOT_ALLOWED");
  // An unknown application or build, an artifact digest not the build's.
  json::object no_app = Submission(t, w, challenge);
  no_app["applicationId"] = NewUuid();
  TestResponse missing_app = submit(no_app, runner, &key, w.agent);
  CHECK(missing_app.status == 404);
  CHECK(ErrCode(missing_app) == "APPLICATION_NOT_FOUND");
  json::object no_build = Submission(t, w, challenge);
  no_build["buildId"] = NewUuid();
  CHECK(ErrCode(submit(no_build, runner, &key, w.agent)) == "BUILD_NOT_FOUND");
  json::object bad_sha = Submission(t, w, challenge);
  bad_sha["artifactSha256"] = Sha("other");
  CHECK(ErrCode(submit(bad_sha, runner, &key, w.agent)) == "ARTIFACT_MISMATCH");
  json::object bad_nonce = Submission(t, w, challenge);
  bad_nonce["nonce"] = "nonce";
  CHECK(ErrCode(submit(bad_nonce, runner, &key, w.agent)) == "SUBMISSION_MISMATCH");
  // Strict bodies.
  json::object extra = Submission(t, w, challenge);
  extra["note"] = "x";
  CHECK(ErrCode(submit(extra, runner, &key, w.agent)) == "VALIDATION_ERROR");
  json::object bad_sig = ReceiptBody(w, Submission(t, w, challenge), runner, &key);
  bad_sig["proof"].as_object()["signature"] = "AAAA";
  CHECK(ErrCode(t.Post(kBase + "/receipts", bad_sig, w.agent)) == "VALIDATION_ERROR");

  // Another token's challenge.
  const HeaderList second = AgentHeaders(NewToken(t, w.s.admin, kAllScopes, {w.s.project_id}));
  TestResponse foreign = submit(Submission(t, w, challenge), runner, &key, second);
  CHECK(foreign.status == 403);
  CHECK(ErrCode(foreign) == "CHALLENGE_TOKEN_MISMATCH");
  // Another token cannot ask a challenge for a lease it does not hold.
  CHECK(ErrCode(t.Post(kBase + "/challenges", LeaseBody(claim), second)) == "LEASE_STALE");
  // Scopes and grants.
  const HeaderList claimer = AgentHeaders(NewToken(t, w.s.admin, {"claim_issue"}, {w.s.project_id}));
  CHECK(ErrCode(t.Post(kBase + "/challenges", LeaseBody(claim), claimer)) == "SCOPE_REQUIRED");
  CHECK(ErrCode(t.Get(ReceiptQuery(w, NewUuid()), claimer)) == "SCOPE_REQUIRED");
  const HeaderList ungranted = AgentHeaders(NewToken(t, w.s.admin, kAllScopes, {}));
  CHECK(ErrCode(t.Post(kBase + "/challenges", LeaseBody(claim), ungranted)) == "PROJECT_GRANT_REQUIRED");
  CHECK(t.Post(kBase + "/challenges", LeaseBody(claim), w.s.admin.headers()).status == 401);

  // Unsigned: pending, and a pending receipt does not promote.
  TestResponse unsigned_r = submit(Submission(t, w, challenge), "", nullptr, w.agent);
  REQUIRE_MESSAGE(unsigned_r.status == 201, unsigned_r.body);
  CHECK(S(unsigned_r.json.at("receipt"), "status") == "pending");
  CHECK(unsigned_r.json.at("receipt").at("trust").is_null());
  const std::string pending = S(unsigned_r.json.at("receipt"), "receiptId");
  TestResponse not_verified =
      t.Post(kBase + "/promote", PromoteBody(claim, {w.build_id}, {pending}), w.agent);
  CHECK(not_verified.status == 409);
  CHECK(ErrCode(not_verified) == "RECEIPT_NOT_VERIFIED");

  // A failed test: signed but failed, not promotable.
  TestResponse failed = submit(Submission(t, w, challenge, "web", "failed"), runner, &key, w.agent);
  REQUIRE_MESSAGE(failed.status == 201, failed.body);
  CHECK(S(failed.json.at("receipt"), "status") == "failed");
  // The challenge took its one signed receipt.
  CHECK(ErrCode(submit(Submission(t, w, challenge), runner, &key, w.agent)) == "CHALLENGE_USED");

  // Revoked runner.
  challenge = Challenge(t, claim, w.agent);
  REQUIRE(t.Post(kBase + "/runners/revoke",
                 json::object{{"commandId", NewUuid()}, {"projectId", w.s.project_id}, {"runnerId", runner}},
                 w.s.admin.headers())
              .status == 200);
  TestResponse revoked = submit(Submission(t, w, challenge), runner, &key, w.agent);
  CHECK(revoked.status == 409);
  CHECK(ErrCode(revoked) == "RUNNER_REVOKED");
  // The failed receipt of the revoked runner reads historical.
  TestResponse hist = t.Get(ReceiptQuery(w, S(failed.json.at("receipt"), "receiptId")), w.agent);
  CHECK(S(hist.json.at("receipt").at("applicability"), "reason") == "runner_revoked");

  // Stale lease: released after the challenge.
  const std::string runner2 = EnrollRunner(t, w, key, {"web"});
  REQUIRE(t.Post("/v1/agent-work/claims/release", LeaseBody(claim), w.agent).status == 200);
  TestResponse stale = submit(Submission(t, w, challenge), runner2, &key, w.agent);
  CHECK(stale.status == 409);
  CHECK(ErrCode(stale) == "LEASE_STALE");
  CHECK(ErrCode(t.Post(kBase + "/challenges", LeaseBody(claim), w.agent)) == "LEASE_STALE");

  // Expired challenge (its 15 minutes passed).
  claim = Claim(t, w, w.agent);
  challenge = Challenge(t, claim, w.agent);
  t.clock().Advance(15 * 60 * 1000 + 1);
  TestResponse expired = submit(Submission(t, w, challenge), runner2, &key, w.agent);
  CHECK(expired.status == 409);
  CHECK(ErrCode(expired) == "CHALLENGE_EXPIRED");
}

TEST_CASE("verification: promotion needs current receipts covering every observed application and runtime") {
  TestService t;
  World w = NewWorld(t);
  Ed25519Signer key;
  const std::string runner = EnrollRunner(t, w, key, {"web", "ios"}, "device_lab");
  // The bug is also observed on iOS through a second application.
  const std::string ios_app = NewApplication(t, w, "shop-ios");
  const std::string ios_installation = NewInstallation(t, w, ios_app);
  const std::string ios_artifact = Sha("ios-build");
  const std::string ios_build = NewBuild(t, w, ios_app, ios_artifact);
  Capture(t, w,
          json::object{{"applicationId", ios_app},
                       {"installationId", ios_installation},
                       {"sdkName", "service-swift"},
                       {"sdkVersion", "1.0.0"},
                       {"source", "handled_error"},
                       {"framework", "native"},
                       {"runtime", "swift"},
                       {"osFamily", "ios"}});

  json::value claim = Claim(t, w, w.agent);
  json::value challenge = Challenge(t, claim, w.agent);
  TestResponse web =
      t.Post(kBase + "/receipts", ReceiptBody(w, Submission(t, w, challenge), runner, &key), w.agent);
  REQUIRE_MESSAGE(web.status == 201, web.body);
  const std::string web_receipt = S(web.json.at("receipt"), "receiptId");

  // Missing runtime: iOS has no receipt.
  TestResponse missing = t.Post(kBase + "/promote", PromoteBody(claim, {w.build_id}, {web_receipt}), w.agent);
  CHECK(missing.status == 409);
  CHECK(ErrCode(missing) == "COVERAGE_MISSING");
  REQUIRE(missing.json.at("missing").as_array().size() == 1);
  CHECK(S(missing.json.at("missing").at(0), "applicationId") == ios_app);
  CHECK(S(missing.json.at("missing").at(0), "runtime") == "ios");

  challenge = Challenge(t, claim, w.agent);
  json::object ios_sub = Submission(t, w, challenge, "ios");
  ios_sub["applicationId"] = ios_app;
  ios_sub["buildId"] = ios_build;
  ios_sub["artifactSha256"] = ios_artifact;
  TestResponse ios = t.Post(kBase + "/receipts", ReceiptBody(w, ios_sub, runner, &key), w.agent);
  REQUIRE_MESSAGE(ios.status == 201, ios.body);
  CHECK(S(ios.json.at("receipt"), "trust") == "device_lab");
  const std::string ios_receipt = S(ios.json.at("receipt"), "receiptId");

  // The builds must be exactly the receipts'.
  CHECK(ErrCode(t.Post(kBase + "/promote", PromoteBody(claim, {w.build_id}, {web_receipt, ios_receipt}),
                       w.agent)) == "TARGET_BUILDS_MISMATCH");
  // Another token cannot promote on this lease.
  const HeaderList second = AgentHeaders(NewToken(t, w.s.admin, kAllScopes, {w.s.project_id}));
  CHECK(ErrCode(t.Post(kBase + "/promote",
                       PromoteBody(claim, {w.build_id, ios_build}, {web_receipt, ios_receipt}), second)) ==
        "LEASE_STALE");
  TestResponse ok = t.Post(kBase + "/promote",
                           PromoteBody(claim, {w.build_id, ios_build}, {web_receipt, ios_receipt}), w.agent);
  REQUIRE_MESSAGE(ok.status == 200, ok.body);
  CHECK(ok.json.at("promotion").at("coverage").as_array().size() == 2);

  // A merge regroups the issue: its receipts read historical.
  TestResponse other_bug = Ingest(t, w.s.key, Report("Login fails", "token is null"));
  REQUIRE(other_bug.status == 201);
  TestResponse merged =
      t.Post("/v1/bugs/merge",
             json::object{{"targetId", w.bug}, {"sourceIds", json::array{S(other_bug.json, "id")}}},
             w.s.admin.headers());
  REQUIRE_MESSAGE(merged.status == 200, merged.body);
  TestResponse hist = t.Get(ReceiptQuery(w, web_receipt), w.agent);
  CHECK(S(hist.json.at("receipt").at("applicability"), "reason") == "regrouped");
  CHECK(S(t.Get("/v1/bugs/" + w.bug, w.s.admin.headers()).json.at("verification"), "state") == "unproven");
}

}  // namespace service::testing
