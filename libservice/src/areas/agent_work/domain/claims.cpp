#include "areas/agent_work/domain/claims.h"

#include <algorithm>
#include <initializer_list>

#include "util/strings.h"
#include "util/time.h"

namespace service::domain::agent_work {
namespace {

namespace json = boost::json;

void AddError(json::array& details, std::string_view field, std::string_view message) {
  details.push_back(json::object{{"field", field}, {"message", message}});
}

// Reads the body's members one by one, collecting every problem.
class Reader {
 public:
  explicit Reader(const json::value& body) {
    if (body.is_object()) {
      obj_ = &body.get_object();
    } else {
      AddError(details_, "body", "must be a JSON object");
    }
  }

  void RejectUnknown(std::initializer_list<std::string_view> allowed) {
    if (obj_ == nullptr) return;
    for (const auto& [key, unused] : *obj_) {
      if (std::find(allowed.begin(), allowed.end(), std::string_view(key)) == allowed.end()) {
        AddError(details_, key, "unknown field");
      }
    }
  }

  // A required UUID, lower-cased.
  std::string Uuid(std::string_view field) {
    const json::value* v = Get(field);
    if (v == nullptr) {
      if (obj_ != nullptr) AddError(details_, field, "is required");
      return {};
    }
    if (!v->is_string() || !util::IsUuid(v->get_string())) {
      AddError(details_, field, "must be a UUID");
      return {};
    }
    return util::ToLower(v->get_string());
  }

  // An optional integer in [min, max]; present as null is an error.
  std::optional<int64_t> OptInt(std::string_view field, int64_t min, int64_t max) {
    const json::value* v = Get(field);
    if (v == nullptr) return std::nullopt;
    std::optional<int64_t> n;
    if (v->is_int64()) n = v->get_int64();
    if (v->is_uint64() && v->get_uint64() <= static_cast<uint64_t>(max))
      n = static_cast<int64_t>(v->get_uint64());
    if (!n) {
      AddError(details_, field, "must be an integer");
      return std::nullopt;
    }
    if (*n < min || *n > max) {
      AddError(details_, field, "must be between " + std::to_string(min) + " and " + std::to_string(max));
      return std::nullopt;
    }
    return n;
  }

  // A required positive decimal string.
  int64_t Counter(std::string_view field) {
    const json::value* v = Get(field);
    if (v == nullptr) {
      if (obj_ != nullptr) AddError(details_, field, "is required");
      return 0;
    }
    std::optional<int64_t> n;
    if (v->is_string()) n = ParseCounter(v->get_string());
    if (!n) {
      AddError(details_, field, "must be a positive decimal string");
      return 0;
    }
    return *n;
  }

  // A required non-empty string of at most `max` characters, no NUL.
  std::string Text(std::string_view field, size_t max) {
    const json::value* v = Get(field);
    if (v == nullptr) {
      if (obj_ != nullptr) AddError(details_, field, "is required");
      return {};
    }
    if (!v->is_string()) {
      AddError(details_, field, "must be a string");
      return {};
    }
    const std::string_view s = v->get_string();
    if (!util::IsValidUtf8(s) || s.find('\0') != std::string_view::npos) {
      AddError(details_, field, "must be valid text");
      return {};
    }
    const size_t n = util::Utf8Length(s);
    if (n == 0 || n > max) {
      AddError(details_, field, "must be 1 to " + std::to_string(max) + " characters");
      return {};
    }
    return std::string(s);
  }

  bool ok() const { return details_.empty(); }
  json::array take_details() { return std::move(details_); }

 private:
  const json::value* Get(std::string_view field) const {
    if (obj_ == nullptr) return nullptr;
    auto it = obj_->find(field);
    return it == obj_->end() ? nullptr : &it->value();
  }

  const json::object* obj_ = nullptr;
  json::array details_;
};

Status Coded(Code code, std::string message, std::string_view error_code) {
  return Status(code, std::move(message), std::string(error_code));
}

}  // namespace

std::string_view CommandName(CommandKind kind) {
  switch (kind) {
    case CommandKind::kClaim:
      return "claim";
    case CommandKind::kRenew:
      return "renew";
    case CommandKind::kRelease:
      return "release";
    case CommandKind::kComplete:
      return "complete";
  }
  return "unknown";
}

std::optional<int64_t> ParseCounter(std::string_view text) {
  if (text.empty() || text.size() > kMaxCounterDigits || text[0] == '0') return std::nullopt;
  int64_t n = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    n = n * 10 + (ch - '0');
  }
  return n;
}

Result<ClaimInput> ParseClaimInput(const json::value& body) {
  Reader r(body);
  r.RejectUnknown({"commandId", "projectId", "issueId", "ttlSeconds"});
  ClaimInput in;
  in.command_id = r.Uuid("commandId");
  in.project_id = r.Uuid("projectId");
  in.issue_id = r.Uuid("issueId");
  in.ttl_seconds = r.OptInt("ttlSeconds", kMinTtlSeconds, kMaxTtlSeconds);
  if (!r.ok()) return ValidationError(r.take_details());
  return in;
}

Result<LeaseInput> ParseLeaseInput(CommandKind kind, const json::value& body) {
  Reader r(body);
  switch (kind) {
    case CommandKind::kRenew:
      r.RejectUnknown(
          {"commandId", "projectId", "issueId", "claimId", "generation", "fencingToken", "ttlSeconds"});
      break;
    case CommandKind::kComplete:
      r.RejectUnknown(
          {"commandId", "projectId", "issueId", "claimId", "generation", "fencingToken", "receiptId"});
      break;
    default:
      r.RejectUnknown({"commandId", "projectId", "issueId", "claimId", "generation", "fencingToken"});
      break;
  }
  LeaseInput in;
  in.command_id = r.Uuid("commandId");
  in.project_id = r.Uuid("projectId");
  in.issue_id = r.Uuid("issueId");
  in.claim_id = r.Uuid("claimId");
  in.generation = r.Counter("generation");
  in.fencing_token = r.Counter("fencingToken");
  if (kind == CommandKind::kRenew) in.ttl_seconds = r.OptInt("ttlSeconds", kMinTtlSeconds, kMaxTtlSeconds);
  if (kind == CommandKind::kComplete) in.receipt_id = r.Text("receiptId", kMaxReceiptIdLength);
  if (!r.ok()) return ValidationError(r.take_details());
  return in;
}

std::string Fingerprint(const std::string& token_id, const ClaimInput& in) {
  return json::serialize(json::array{"claim", token_id, in.project_id, in.issue_id,
                                     in.ttl_seconds ? json::value(*in.ttl_seconds) : json::value(nullptr)});
}

std::string Fingerprint(CommandKind kind, const std::string& token_id, const LeaseInput& in) {
  return json::serialize(json::array{
      CommandName(kind), token_id, in.project_id, in.issue_id, in.claim_id, in.generation, in.fencing_token,
      in.ttl_seconds ? json::value(*in.ttl_seconds) : json::value(nullptr), in.receipt_id});
}

json::object ClaimJson(const ClaimView& c) {
  return json::object{{"claimId", c.claim_id},
                      {"generation", std::to_string(c.generation)},
                      {"fencingToken", std::to_string(c.fencing_token)},
                      {"projectId", c.project_id},
                      {"issueId", c.issue_id},
                      {"status", c.status},
                      {"expiresAt", util::FormatIso8601(c.expires_at)}};
}

std::optional<ClaimView> ClaimFromJson(const json::value& v) {
  if (!v.is_object()) return std::nullopt;
  const json::object& o = v.get_object();
  auto str = [&](std::string_view k) -> std::optional<std::string> {
    auto it = o.find(k);
    if (it == o.end() || !it->value().is_string()) return std::nullopt;
    return std::string(it->value().get_string());
  };
  const auto id = str("claimId"), gen = str("generation"), fence = str("fencingToken"),
             project = str("projectId"), issue = str("issueId"), status = str("status"),
             expires = str("expiresAt");
  if (!id || !gen || !fence || !project || !issue || !status || !expires) return std::nullopt;
  const auto g = ParseCounter(*gen), f = ParseCounter(*fence);
  const auto at = util::ParseIso8601(*expires);
  if (!g || !f || !at) return std::nullopt;
  return ClaimView{*id, *g, *f, *project, *issue, *status, *at};
}

std::string_view EffectiveStatus(std::string_view stored, int64_t expires_at, int64_t now_ms) {
  if (stored == kActive && expires_at <= now_ms) return kExpired;
  if (stored == kActive) return kActive;
  if (stored == kReleased) return kReleased;
  if (stored == kCompleted) return kCompleted;
  return kExpired;
}

Status CheckLease(const std::optional<StoredLease>& stored, const std::string& issue_id,
                  const std::string& project_id, int64_t generation, int64_t fencing_token, int64_t now_ms) {
  if (!stored || stored->issue_id != issue_id || stored->project_id != project_id ||
      stored->generation != generation || stored->fencing_token != fencing_token ||
      !IsLive(stored->status, stored->expires_at, now_ms)) {
    return LeaseStale();
  }
  return Status::Ok();
}

Status ValidationError(json::array details) {
  return Status(Code::kInvalidArgument, "Validation failed", std::string(kValidationError),
                json::serialize(json::object{{"details", std::move(details)}}));
}
Status ClaimHeld() { return Coded(Code::kConflict, "Another live claim holds this issue", kClaimHeld); }
Status LeaseStale() {
  return Coded(Code::kConflict, "The lease is stale: wrong generation or fencing token, or no longer live",
               kLeaseStale);
}
Status CommandConflict() {
  return Coded(Code::kConflict, "This commandId was used with different input", kCommandConflict);
}
Status IssueNotFound() { return Coded(Code::kNotFound, "Issue not found in this project", kIssueNotFound); }
Status ClaimNotFound() { return Coded(Code::kNotFound, "No claim for this issue", kClaimNotFound); }
Status ScopeRequired(std::string_view scope) {
  return Coded(Code::kPermissionDenied, "This token lacks the scope " + std::string(scope), kScopeRequired);
}
Status ProjectGrantRequired() {
  return Coded(Code::kPermissionDenied, "This token has no grant for the project", kProjectGrantRequired);
}

}  // namespace service::domain::agent_work
