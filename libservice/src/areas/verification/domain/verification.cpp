#include "areas/verification/domain/verification.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <set>

#include "areas/verification/domain/canonical_json.h"
#include "util/crypto.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::domain::verification {
namespace {

namespace json = boost::json;

void AddError(json::array& details, std::string_view field, std::string_view message) {
  details.push_back(json::object{{"field", field}, {"message", message}});
}

bool IsHex64(std::string_view s) {
  if (s.size() != 64) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Reads one object's members, collecting every problem; `prefix` names
// nested fields ("submission.tests[0].name").
class Reader {
 public:
  Reader(const json::value& v, json::array& details, std::string prefix = {})
      : details_(details), prefix_(std::move(prefix)) {
    if (v.is_object()) {
      obj_ = &v.get_object();
    } else {
      AddError(details_, prefix_.empty() ? "body" : prefix_, "must be a JSON object");
    }
  }

  void RejectUnknown(std::initializer_list<std::string_view> allowed) {
    if (obj_ == nullptr) return;
    for (const auto& [key, unused] : *obj_) {
      if (std::find(allowed.begin(), allowed.end(), std::string_view(key)) == allowed.end()) {
        Error(key, "unknown field");
      }
    }
  }

  const json::value* Get(std::string_view field) const {
    if (obj_ == nullptr) return nullptr;
    auto it = obj_->find(field);
    return it == obj_->end() ? nullptr : &it->value();
  }

  bool Required(std::string_view field, const json::value*& v) {
    v = Get(field);
    if (v == nullptr) {
      if (obj_ != nullptr) Error(field, "is required");
      return false;
    }
    return true;
  }

  std::string Uuid(std::string_view field) {
    const json::value* v;
    if (!Required(field, v)) return {};
    if (!v->is_string() || !util::IsUuid(v->get_string())) {
      Error(field, "must be a UUID");
      return {};
    }
    return util::ToLower(v->get_string());
  }

  std::optional<std::string> OptUuid(std::string_view field) {
    if (Get(field) == nullptr) return std::nullopt;
    std::string id = Uuid(field);
    if (id.empty()) return std::nullopt;
    return id;
  }

  std::string Text(std::string_view field, size_t max) {
    const json::value* v;
    if (!Required(field, v)) return {};
    if (!v->is_string()) {
      Error(field, "must be a string");
      return {};
    }
    const std::string_view s = v->get_string();
    if (!util::IsValidUtf8(s) || s.find('\0') != std::string_view::npos) {
      Error(field, "must be valid text");
      return {};
    }
    const size_t n = util::Utf8Length(s);
    if (n == 0 || n > max) {
      Error(field, "must be 1 to " + std::to_string(max) + " characters");
      return {};
    }
    return std::string(s);
  }

  std::string OneOf(std::string_view field, std::initializer_list<std::string_view> values) {
    const json::value* v;
    if (!Required(field, v)) return {};
    if (v->is_string()) {
      for (std::string_view allowed : values) {
        if (v->get_string() == allowed) return std::string(allowed);
      }
    }
    std::string list;
    for (std::string_view allowed : values) list += (list.empty() ? "" : ", ") + std::string(allowed);
    Error(field, "must be one of " + list);
    return {};
  }

  std::string Runtime(std::string_view field) {
    const json::value* v;
    if (!Required(field, v)) return {};
    if (!v->is_string() || !IsKnownRuntime(v->get_string())) {
      Error(field, "must be a known runtime (web, node, ios, macos, android, linux, windows)");
      return {};
    }
    return std::string(v->get_string());
  }

  std::string Hex64(std::string_view field) {
    const json::value* v;
    if (!Required(field, v)) return {};
    if (!v->is_string() || !IsHex64(util::ToLower(v->get_string()))) {
      Error(field, "must be 64 hexadecimal characters");
      return {};
    }
    return util::ToLower(v->get_string());
  }

  int64_t Counter(std::string_view field) {
    const json::value* v;
    if (!Required(field, v)) return 0;
    std::optional<int64_t> n;
    if (v->is_string()) {
      const std::string_view t = v->get_string();
      if (!t.empty() && t.size() <= 18 && t[0] != '0' &&
          std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        n = std::stoll(std::string(t));
      }
    }
    if (!n) {
      Error(field, "must be a positive decimal string");
      return 0;
    }
    return *n;
  }

  // A non-empty array of distinct UUIDs, at most `max`.
  std::vector<std::string> UuidList(std::string_view field, size_t max, bool required) {
    const json::value* v = Get(field);
    if (v == nullptr) {
      if (required && obj_ != nullptr) Error(field, "is required");
      return {};
    }
    if (!v->is_array() || v->get_array().empty() || v->get_array().size() > max) {
      Error(field, "must be an array of 1 to " + std::to_string(max) + " UUIDs");
      return {};
    }
    std::vector<std::string> out;
    for (const json::value& e : v->get_array()) {
      if (!e.is_string() || !util::IsUuid(e.get_string())) {
        Error(field, "must hold UUIDs only");
        return {};
      }
      std::string id = util::ToLower(e.get_string());
      if (std::find(out.begin(), out.end(), id) != out.end()) {
        Error(field, "must not repeat an id");
        return {};
      }
      out.push_back(std::move(id));
    }
    return out;
  }

  void Error(std::string_view field, std::string_view message) {
    AddError(details_, prefix_.empty() ? std::string(field) : prefix_ + "." + std::string(field), message);
  }

  const json::object* object() const { return obj_; }

 private:
  json::array& details_;
  std::string prefix_;
  const json::object* obj_ = nullptr;
};

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\r' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace

bool IsKnownRuntime(std::string_view runtime) {
  return std::find(std::begin(kRuntimes), std::end(kRuntimes), runtime) != std::end(kRuntimes);
}

std::string RuntimeOfCapture(std::string_view platform, std::string_view runtime,
                             std::string_view os_family) {
  const std::string rt = util::ToLower(runtime);
  if (util::ToLower(platform) == "web" || rt == "browser" || rt == "javascript") return "web";
  if (rt == "node") return "node";
  const std::string os = util::ToLower(os_family);
  for (std::string_view r : {"ios", "macos", "android", "linux", "windows"}) {
    if (os == r) return os;
  }
  return "";
}

Result<RunnerKey> ParseRunnerPublicKey(std::string_view pem_in) {
  const std::string_view pem = Trim(pem_in);
  if (pem.find("PRIVATE KEY") != std::string_view::npos) {
    return Coded(Code::kInvalidArgument, "publicKeyPem holds a private key: send only the public key",
                 kPrivateKeyRefused);
  }
  constexpr std::string_view kBegin = "-----BEGIN PUBLIC KEY-----";
  constexpr std::string_view kEnd = "-----END PUBLIC KEY-----";
  if (pem.size() > kMaxPemBytes || pem.substr(0, kBegin.size()) != kBegin || pem.size() < kEnd.size() ||
      pem.substr(pem.size() - kEnd.size()) != kEnd || pem.find(kBegin, 1) != std::string_view::npos) {
    return Coded(Code::kInvalidArgument, "publicKeyPem must be one PEM PUBLIC KEY block", kPublicKeyInvalid);
  }
  std::unique_ptr<BIO, BioFree> in(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (!in) return Internal("BIO_new_mem_buf failed");
  std::unique_ptr<EVP_PKEY, PkeyFree> key(PEM_read_bio_PUBKEY(in.get(), nullptr, nullptr, nullptr));
  if (!key) {
    return Coded(Code::kInvalidArgument, "publicKeyPem is not a readable public key", kPublicKeyInvalid);
  }
  if (EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_ED25519) {
    return Coded(Code::kInvalidArgument,
                 "publicKeyPem must be an Ed25519 key (RSA, EC and others are refused)", kKeyTypeUnsupported);
  }
  RunnerKey out;
  out.raw.resize(32);
  size_t len = out.raw.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char*>(out.raw.data()), &len) != 1 ||
      len != 32) {
    return Coded(Code::kInvalidArgument, "publicKeyPem is not a readable public key", kPublicKeyInvalid);
  }
  std::unique_ptr<BIO, BioFree> mem(BIO_new(BIO_s_mem()));
  if (!mem || PEM_write_bio_PUBKEY(mem.get(), key.get()) != 1) return Internal("PEM_write_bio_PUBKEY failed");
  char* data = nullptr;
  const long n = BIO_get_mem_data(mem.get(), &data);
  out.pem.assign(data, static_cast<size_t>(n));
  out.fingerprint = "SHA256:" + util::Sha256Hex(out.raw);
  return out;
}

bool VerifyEd25519(std::string_view raw_public_key, std::string_view message, std::string_view signature) {
  if (raw_public_key.size() != 32 || signature.size() != 64) return false;
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw_public_key.data()), 32));
  if (!key) return false;
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return false;
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                          signature.size(), reinterpret_cast<const unsigned char*>(message.data()),
                          message.size()) == 1;
}

Result<RunnerInput> ParseRunnerInput(const json::value& body) {
  json::array details;
  Reader r(body, details);
  r.RejectUnknown({"commandId", "projectId", "name", "publicKeyPem", "trustLevel", "allowedRuntimes"});
  RunnerInput in;
  in.command_id = r.Uuid("commandId");
  in.project_id = r.Uuid("projectId");
  in.name = r.Text("name", kMaxNameLength);
  in.public_key_pem = r.Text("publicKeyPem", kMaxPemBytes);
  in.trust_level = r.OneOf("trustLevel", {kTrustCi, kTrustDeviceLab});
  const json::value* rt;
  if (r.Required("allowedRuntimes", rt)) {
    bool ok = rt->is_array() && !rt->get_array().empty() && rt->get_array().size() <= std::size(kRuntimes);
    if (ok) {
      for (const json::value& e : rt->get_array()) {
        if (!e.is_string() || !IsKnownRuntime(e.get_string())) {
          ok = false;
          break;
        }
        const std::string name(e.get_string());
        if (std::find(in.allowed_runtimes.begin(), in.allowed_runtimes.end(), name) !=
            in.allowed_runtimes.end()) {
          ok = false;
          break;
        }
        in.allowed_runtimes.push_back(name);
      }
    }
    if (!ok) {
      r.Error("allowedRuntimes",
              "must be a non-empty list of distinct known runtimes (web, node, ios, macos, android, linux, "
              "windows)");
    }
  }
  if (!details.empty()) return ValidationError(std::move(details));
  return in;
}

Result<DeviceInput> ParseDeviceInput(const json::value& body) {
  json::array details;
  Reader r(body, details);
  r.RejectUnknown({"commandId", "projectId", "name", "runnerId", "applicationId", "installationId", "runtime",
                   "deviceIdentifierSha256", "osVersion", "physicalDeviceConfirmed"});
  DeviceInput in;
  in.command_id = r.Uuid("commandId");
  in.project_id = r.Uuid("projectId");
  in.name = r.Text("name", kMaxNameLength);
  in.runner_id = r.Uuid("runnerId");
  in.application_id = r.Uuid("applicationId");
  in.installation_id = r.Uuid("installationId");
  in.runtime = r.Runtime("runtime");
  in.device_identifier_sha256 = r.Hex64("deviceIdentifierSha256");
  in.os_version = r.Text("osVersion", kMaxNameLength);
  if (const json::value* v = r.Get("physicalDeviceConfirmed")) {
    if (v->is_bool()) {
      in.physical_device_confirmed = v->get_bool();
    } else {
      r.Error("physicalDeviceConfirmed", "must be a boolean");
    }
  }
  if (!details.empty()) return ValidationError(std::move(details));
  if (in.runtime == "ios" && !in.physical_device_confirmed) {
    return Coded(Code::kInvalidArgument, "A physical iOS device needs physicalDeviceConfirmed: true",
                 kPhysicalDeviceUnconfirmed);
  }
  return in;
}

Result<RevokeInput> ParseRevokeInput(const json::value& body, std::string_view id_field) {
  json::array details;
  Reader r(body, details);
  r.RejectUnknown({"commandId", "projectId", id_field});
  RevokeInput in;
  in.command_id = r.Uuid("commandId");
  in.project_id = r.Uuid("projectId");
  in.id = r.Uuid(id_field);
  if (!details.empty()) return ValidationError(std::move(details));
  return in;
}

namespace {
LeaseFields ReadLease(Reader& r) {
  LeaseFields l;
  l.command_id = r.Uuid("commandId");
  l.project_id = r.Uuid("projectId");
  l.issue_id = r.Uuid("issueId");
  l.claim_id = r.Uuid("claimId");
  l.generation = r.Counter("generation");
  l.fencing_token = r.Counter("fencingToken");
  return l;
}
}  // namespace

Result<LeaseFields> ParseChallengeInput(const json::value& body) {
  json::array details;
  Reader r(body, details);
  r.RejectUnknown({"commandId", "projectId", "issueId", "claimId", "generation", "fencingToken"});
  LeaseFields l = ReadLease(r);
  if (!details.empty()) return ValidationError(std::move(details));
  return l;
}

Result<ReceiptInput> ParseReceiptInput(const json::value& body) {
  json::array details;
  Reader r(body, details);
  r.RejectUnknown({"commandId", "projectId", "issueId", "submission", "proof"});
  ReceiptInput in;
  in.command_id = r.Uuid("commandId");
  in.project_id = r.Uuid("projectId");
  in.issue_id = r.Uuid("issueId");
  const json::value* sub;
  if (r.Required("submission", sub)) {
    Reader s(*sub, details, "submission");
    s.RejectUnknown({"challengeId", "nonce", "projectId", "issueId", "applicationId", "buildId",
                     "artifactSha256", "runtime", "deviceId", "tests", "measuredAt", "evidenceIds"});
    Submission& m = in.submission;
    m.challenge_id = s.Uuid("challengeId");
    m.nonce = s.Text("nonce", 200);
    m.project_id = s.Uuid("projectId");
    m.issue_id = s.Uuid("issueId");
    m.application_id = s.Uuid("applicationId");
    m.build_id = s.Uuid("buildId");
    m.artifact_sha256 = s.Hex64("artifactSha256");
    m.runtime = s.Runtime("runtime");
    m.device_id = s.OptUuid("deviceId");
    m.evidence_ids = s.UuidList("evidenceIds", kMaxListItems, false);
    const std::string measured = s.Text("measuredAt", 64);
    if (!measured.empty()) {
      const std::optional<int64_t> at = util::ParseIso8601(measured);
      if (at) {
        m.measured_at = *at;
      } else {
        s.Error("measuredAt", "must be an ISO 8601 time");
      }
    }
    const json::value* tests;
    if (s.Required("tests", tests)) {
      if (!tests->is_array() || tests->get_array().empty() || tests->get_array().size() > kMaxTests) {
        s.Error("tests", "must be an array of 1 to " + std::to_string(kMaxTests) + " tests");
      } else {
        std::set<std::string> names;
        size_t i = 0;
        for (const json::value& t : tests->get_array()) {
          Reader tr(t, details, "submission.tests[" + std::to_string(i++) + "]");
          tr.RejectUnknown({"name", "outcome"});
          TestOutcome o;
          o.name = tr.Text("name", kMaxTestNameLength);
          o.outcome = tr.OneOf("outcome", {kPassed, kTestFailed, kSkipped});
          if (!o.name.empty() && !names.insert(o.name).second)
            tr.Error("name", "repeats another test's name");
          m.tests.push_back(std::move(o));
        }
      }
    }
    if (details.empty()) {
      Result<std::string> canonical = CanonicalJson(*sub);
      if (!canonical.ok()) {
        AddError(details, "submission", canonical.status().message());
      } else {
        in.canonical = std::move(*canonical);
      }
    }
    if (details.empty() && (m.project_id != in.project_id || m.issue_id != in.issue_id)) {
      AddError(details, "submission", "projectId and issueId must equal the command's");
    }
  }
  if (const json::value* proof = r.Get("proof")) {
    Reader p(*proof, details, "proof");
    p.RejectUnknown({"runnerId", "signature"});
    in.runner_id = p.Uuid("runnerId");
    const std::string sig = p.Text("signature", 200);
    if (!sig.empty()) {
      std::string raw;
      const bool ok = sig.find_first_of("-_") == std::string::npos && util::Base64UrlDecode(sig, &raw);
      if (!ok || raw.size() != 64) {
        p.Error("signature", "must be the base64 of a 64-byte Ed25519 signature");
      } else {
        in.signature = std::move(raw);
      }
    }
  }
  if (!details.empty()) return ValidationError(std::move(details));
  return in;
}

Result<PromoteInput> ParsePromoteInput(const json::value& body) {
  json::array details;
  Reader r(body, details);
  r.RejectUnknown({"commandId", "projectId", "issueId", "claimId", "generation", "fencingToken",
                   "targetBuilds", "receiptIds"});
  PromoteInput in;
  in.lease = ReadLease(r);
  in.target_builds = r.UuidList("targetBuilds", kMaxListItems, true);
  in.receipt_ids = r.UuidList("receiptIds", kMaxListItems, true);
  if (!details.empty()) return ValidationError(std::move(details));
  return in;
}

std::string CommandFingerprint(std::string_view kind, const std::string& caller_id, const json::value& body) {
  Result<std::string> canonical = CanonicalJson(body);
  return json::serialize(json::array{kind, caller_id, canonical.ok() ? *canonical : json::serialize(body)});
}

std::string_view SignedStatus(const std::vector<TestOutcome>& tests) {
  bool passed = false;
  for (const TestOutcome& t : tests) {
    if (t.outcome == kTestFailed) return kFailed;
    if (t.outcome == kPassed) passed = true;
  }
  return passed ? kVerified : kFailed;
}

Applicability ApplicabilityOf(const ReceiptFacts& f) {
  auto historical = [](std::string reason) { return Applicability{"historical", std::move(reason)}; };
  if (f.runner_revoked) return historical("runner_revoked");
  if (f.issue_gone) return historical("issue_deleted");
  if (f.regrouped) return historical("regrouped");
  if (f.occurrences_now > f.occurrences_at_receipt) return historical("recurrence");
  if (f.evidence_revoked) return historical("evidence_revoked");
  return Applicability{"current", std::nullopt};
}

json::object ApplicabilityJson(const Applicability& a) {
  return json::object{{"state", a.state},
                      {"reason", a.reason ? json::value(*a.reason) : json::value(nullptr)}};
}

Status ValidationError(json::array details) {
  return Status(Code::kInvalidArgument, "Validation failed", std::string(kValidationError),
                json::serialize(json::object{{"details", std::move(details)}}));
}

Status Coded(Code code, std::string message, std::string_view error_code, std::string payload_json) {
  return Status(code, std::move(message), std::string(error_code), std::move(payload_json));
}

}  // namespace service::domain::verification
