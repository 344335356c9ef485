#include "areas/capture/domain/grouping_v3.h"

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <optional>

#include "areas/capture/domain/embedding.h"
#include "areas/capture/domain/fingerprint.h"
#include "util/crypto.h"
#include "util/time.h"

namespace service::domain::capture {
namespace {

namespace json = boost::json;

bool Blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) <= ' '; });
}

// A non-blank string member of `o`.
std::optional<std::string> StringMember(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string() || Blank(v->as_string())) return std::nullopt;
  return std::string(v->as_string());
}

const json::object* ObjectMember(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_object() ? &v->as_object() : nullptr;
}

std::optional<std::string> Operation(const json::object& data) {
  for (const json::object* o : {&data, ObjectMember(data, "error"), ObjectMember(data, "exception")}) {
    if (o == nullptr) continue;
    for (const char* key : {"operation", "transaction", "route"}) {
      if (auto s = StringMember(*o, key)) return s;
    }
  }
  return std::nullopt;
}

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A segment naming one record rather than the operation.
bool ConcreteId(std::string_view seg) {
  if (seg.size() >= 2 && std::all_of(seg.begin(), seg.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return true;
  }
  size_t hex = 0;
  for (char c : seg) hex += IsHex(c) ? 1 : 0;
  const bool uuid_shape =
      seg.size() == 36 && seg[8] == '-' && seg[13] == '-' && seg[18] == '-' && seg[23] == '-';
  if (uuid_shape && hex == 32) return true;
  return seg.size() >= 16 && hex == seg.size();
}

bool Ambiguous(std::string_view op) {
  std::string trimmed(op);
  while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
  static constexpr const char* kBare[] = {"/",     "*",      "GET",  "POST",   "PUT",
                                          "PATCH", "DELETE", "HEAD", "OPTIONS"};
  for (const char* b : kBare) {
    if (trimmed == b) return true;
  }
  size_t start = 0;
  for (size_t i = 0; i <= op.size(); ++i) {
    if (i == op.size() || op[i] == '/' || op[i] == ' ' || op[i] == '?' || op[i] == '=' || op[i] == '&') {
      if (ConcreteId(op.substr(start, i - start))) return true;
      start = i + 1;
    }
  }
  return false;
}

const json::array* Frames(const json::object& data) {
  const auto frames_of = [](const json::object* o) -> const json::array* {
    if (o == nullptr) return nullptr;
    const json::value* f = o->if_contains("frames");
    return f != nullptr && f->is_array() ? &f->as_array() : nullptr;
  };
  if (const json::array* f = frames_of(&data)) return f;
  if (const json::array* f = frames_of(ObjectMember(data, "stacktrace"))) return f;
  if (const json::object* ex = ObjectMember(data, "exception"))
    return frames_of(ObjectMember(*ex, "stacktrace"));
  return nullptr;
}

// The crashing frame: the last in-app one, else the last object.
const json::object* CrashingFrame(const json::array& frames) {
  const json::object* last = nullptr;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!it->is_object()) continue;
    const json::object& f = it->as_object();
    if (last == nullptr) last = &f;
    const json::value* in_app = f.if_contains("in_app");
    if (in_app != nullptr && in_app->is_bool() && in_app->as_bool()) return &f;
  }
  return last;
}

std::optional<std::string> FrameSite(const json::object& f) {
  auto fn = StringMember(f, "function");
  if (!fn) return std::nullopt;
  for (const char* key : {"filename", "abs_path", "module"}) {
    if (auto file = StringMember(f, key)) return *fn + "@" + *file;
  }
  return std::nullopt;
}

std::optional<std::string> FrameImageOffset(const json::object& f) {
  auto addr = StringMember(f, "instruction_addr");
  if (!addr) return std::nullopt;
  for (const char* key : {"package", "image", "image_addr"}) {
    if (auto image = StringMember(f, key)) return *image + "+" + *addr;
  }
  return std::nullopt;
}

// "    at fn (https://x/app.js:10:5)" -> "fn@https://x/app.js" (line and
// column dropped: they move with every build).
std::optional<std::string> JsStackSite(std::string_view stack) {
  size_t pos = 0;
  while (pos < stack.size()) {
    size_t end = stack.find('\n', pos);
    if (end == std::string_view::npos) end = stack.size();
    std::string_view line = stack.substr(pos, end - pos);
    pos = end + 1;
    const size_t at = line.find("at ");
    if (at == std::string_view::npos) continue;
    line.remove_prefix(at + 3);
    const size_t open = line.find(" (");
    const size_t close = line.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      return std::nullopt;
    const std::string_view fn = line.substr(0, open);
    std::string_view loc = line.substr(open + 2, close - open - 2);
    // Drop ":line:col".
    for (int k = 0; k < 2; ++k) {
      const size_t colon = loc.rfind(':');
      if (colon == std::string_view::npos) return std::nullopt;
      loc = loc.substr(0, colon);
    }
    if (Blank(fn) || Blank(loc)) return std::nullopt;
    return std::string(fn) + "@" + std::string(loc);
  }
  return std::nullopt;
}

GroupingV3Evidence Make(const char* reason, std::string_view error_type, const std::string& identity) {
  GroupingV3Evidence e;
  e.reason = reason;
  const std::string_view r = reason;
  e.routable = r.starts_with("v3_exact") || r.starts_with("v3_native");
  e.isolated = r.starts_with("v3_isolated");
  e.confidence = e.routable ? "high" : "none";
  if (e.routable) e.identity_hash = util::Sha256Hex(std::string(error_type) + "\n" + identity);
  return e;
}

}  // namespace

GroupingV3Evidence EvaluateGroupingV3(std::span<const Event> events, bool is_manual,
                                      std::string_view error_type) {
  const Event* first = nullptr;
  for (const Event& e : events) {
    if (IsErrorEventType(e.type)) {
      first = &e;
      break;
    }
  }
  if (is_manual || first == nullptr) return Make("insufficient_legacy_evidence", error_type, "");
  static const json::object kEmpty;
  const json::object& data = first->data.is_object() ? first->data.as_object() : kEmpty;
  const std::optional<std::string> op = Operation(data);
  const json::array* frames = Frames(data);
  const json::object* crashing = frames != nullptr ? CrashingFrame(*frames) : nullptr;
  std::optional<std::string> site = crashing != nullptr ? FrameSite(*crashing) : std::nullopt;
  const std::optional<std::string> stack = StringMember(data, "stack");
  if (!site && stack) site = JsStackSite(*stack);
  const std::optional<std::string> image = crashing != nullptr ? FrameImageOffset(*crashing) : std::nullopt;

  if (op && Ambiguous(*op)) return Make("v3_isolated_ambiguous_operation", error_type, "");
  if (op && site)
    return Make("v3_exact_operation_and_native_site", error_type, "op:" + *op + "\nsite:" + *site);
  if (op) return Make("v3_exact_operation", error_type, "op:" + *op);
  if (site) return Make("v3_native_symbol_site", error_type, "site:" + *site);
  if (image) return Make("v3_native_image_offset", error_type, "image:" + *image);
  if ((frames != nullptr && !frames->empty()) || stack) {
    return Make("v3_isolated_insufficient_evidence", error_type, "");
  }
  return Make("v3_isolated_missing_identity", error_type, "");
}

std::string GroupingV3Json(const GroupingV3Evidence& e, const std::string& occurrence_id,
                           int64_t observed_at_ms) {
  return json::serialize(json::object{{"version", 3},
                                      {"occurrenceId", occurrence_id},
                                      {"observedAt", util::FormatIso8601(observed_at_ms)},
                                      {"routable", e.routable},
                                      {"isolated", e.isolated},
                                      {"reason", e.reason},
                                      {"confidence", e.confidence}});
}

std::vector<DuplicateProposal> ProposeDuplicates(const DuplicatePeer& subject,
                                                 std::span<const DuplicatePeer> peers) {
  std::vector<DuplicateProposal> out;
  for (const DuplicatePeer& p : peers) {
    if (p.bug_id == subject.bug_id || p.group_key == subject.group_key) continue;
    if (!subject.identity_hash.empty() && p.identity_hash == subject.identity_hash) {
      out.push_back({p.bug_id, 95, "same_v3_identity", "high"});
      continue;
    }
    if (subject.embedding.empty() || p.embedding.empty()) continue;
    const double cos = Cosine(subject.embedding, p.embedding);
    if (cos >= kDuplicateMinCosine) {
      out.push_back({p.bug_id, static_cast<int64_t>(std::lround(cos * 100)), "similar_text",
                     cos >= 0.97 ? "high" : "low"});
    }
  }
  std::sort(out.begin(), out.end(), [](const DuplicateProposal& a, const DuplicateProposal& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.other_bug_id < b.other_bug_id;
  });
  if (out.size() > kMaxDuplicateProposals) out.resize(kMaxDuplicateProposals);
  return out;
}

}  // namespace service::domain::capture
