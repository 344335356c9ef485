#include "areas/capture/api/capture_validation.h"

#include <boost/json.hpp>
#include <cmath>

#include "api/json.h"
#include "api/validate.h"
#include "areas/capture/domain/capture_identity.h"
#include "util/strings.h"

namespace service::api {
namespace {

namespace json = boost::json;

const std::vector<std::string_view> kSeverities = {"critical", "high", "medium", "low"};
const std::vector<std::string_view> kPlatforms = {"web",     "ios",    "android", "react-native",
                                                  "flutter", "server", "other"};
// More event errors than this are summarised in one detail.
constexpr size_t kMaxEventDetails = 20;
constexpr size_t kMaxEventTypeChars = 200;
// Unix milliseconds up to the year 9999.
constexpr double kMaxTimestampMs = 253402300799999.0;

// The first place under `v` holding invalid UTF-8 (a string or a key), as a
// field path such as "events[3].data.message"; empty when none.
bool FindInvalidUtf8(const json::value& v, std::string& path) {
  switch (v.kind()) {
    case json::kind::string: {
      const json::string& s = v.get_string();
      return !util::IsValidUtf8(std::string_view(s.data(), s.size()));
    }
    case json::kind::array: {
      const json::array& a = v.get_array();
      for (size_t i = 0; i < a.size(); ++i) {
        std::string sub = path + "[" + std::to_string(i) + "]";
        if (FindInvalidUtf8(a[i], sub)) {
          path = std::move(sub);
          return true;
        }
      }
      return false;
    }
    case json::kind::object: {
      for (const auto& kv : v.get_object()) {
        const std::string_view key(kv.key().data(), kv.key().size());
        if (!util::IsValidUtf8(key)) return true;
        std::string sub = path.empty() ? std::string(key) : path + "." + std::string(key);
        if (FindInvalidUtf8(kv.value(), sub)) {
          path = std::move(sub);
          return true;
        }
      }
      return false;
    }
    default:
      return false;
  }
}

json::array Detail(std::string_view field, std::string_view message) {
  return json::array{json::object{{"field", field}, {"message", message}}};
}

// Validator::String, refusing U+0000 too: the stores keep these fields as
// text, which PostgreSQL cannot hold with NUL bytes (JSON members are kept
// as JSON, where "\u0000" stays escaped).
}  // namespace

namespace {

std::optional<std::string> Text(Validator& v, std::string_view field, const StringRule& rule) {
  return TextField(v, field, rule);
}

// Optional string: absent, null and "" are nullopt.
std::optional<std::string> Opt(Validator& v, std::string_view field, size_t max) {
  StringRule rule;
  rule.max = max;
  std::optional<std::string> s = Text(v, field, rule);
  if (s && s->empty()) return std::nullopt;
  return s;
}

bool IsViewport(std::string_view s) {
  size_t i = 0;
  auto spaces = [&] {
    while (i < s.size() && s[i] == ' ') ++i;
  };
  auto digits = [&] {
    const size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start && i - start <= 6;
  };
  spaces();
  if (!digits()) return false;
  spaces();
  if (i < s.size() && (s[i] == 'x' || s[i] == 'X')) {
    ++i;
  } else if (s.substr(i, 2) == "\xC3\x97") {  // U+00D7 multiplication sign
    i += 2;
  } else {
    return false;
  }
  spaces();
  if (!digits()) return false;
  spaces();
  return i == s.size();
}

std::string Serialize(const json::value& v) { return json::serialize(v); }

}  // namespace

Status ValidationStatus(const json::array& details) {
  return Status(Code::kInvalidArgument, "Validation failed", "",
                json::serialize(json::object{{"details", details}}));
}

Result<json::value> ParseCaptureJson(std::string_view body, json::storage_ptr sp) {
  size_t i = 0;
  while (i < body.size() && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t')) ++i;
  if (i == body.size()) return json::value(json::object(sp));
  json::parse_options opts;
  opts.max_depth = kMaxJsonDepth;
  boost::system::error_code ec;
  json::value v = json::parse(body, ec, sp, opts);
  if (!ec) return v;
  if (ec == json::error::too_deep) {
    return ValidationStatus(
        Detail("body", "must not nest deeper than " + std::to_string(kMaxJsonDepth) + " levels"));
  }
  // Well-formed apart from its bytes? Then name the field with invalid UTF-8.
  opts.allow_invalid_utf8 = true;
  boost::system::error_code ec2;
  json::value lenient = json::parse(body, ec2, json::storage_ptr(), opts);
  if (ec2) return InvalidArgument("Invalid JSON in request body");
  std::string path;
  FindInvalidUtf8(lenient, path);
  return ValidationStatus(Detail(path.empty() ? "body" : path, "must be valid UTF-8"));
}

Result<app::capture::ReportInput> ParseIngestBody(std::string_view body, int64_t now_ms,
                                                  json::storage_ptr sp) {
  SV_ASSIGN_OR_RETURN(json::value doc, ParseCaptureJson(body, sp));
  Validator v(doc);
  // Values moved out of `doc` keep its storage only into values made with it.
  app::capture::ReportInput in{.metadata = json::value(sp)};
  if (!v.body()) return ValidationStatus(v.details());

  {
    StringRule rule;
    rule.required = true;
    rule.min = 1;
    rule.max = 500;
    std::optional<std::string> title = Text(v, "title", rule);
    if (title && util::Trim(*title).empty()) {
      v.AddError("title", "is required");
    } else if (title) {
      in.title = std::move(*title);
    }
  }
  {
    StringRule rule;
    rule.max = 10'000;
    in.description = Text(v, "description", rule).value_or("");
  }
  {
    StringRule rule;
    rule.one_of = &kSeverities;
    if (auto s = v.String("severity", rule)) in.severity = std::move(*s);
  }
  {
    StringRule rule;
    rule.max = 2000;
    in.url = Text(v, "url", rule).value_or("");
  }
  in.user_agent = Opt(v, "userAgent", 500);
  in.viewport = Opt(v, "viewport", 50);
  if (in.viewport && !IsViewport(*in.viewport)) {
    v.AddError("viewport", "must be width-by-height text such as 1280x720");
    in.viewport.reset();
  }
  {
    const json::object& o = *v.body();
    const json::value* email = Field(o, "reporterEmail");
    const bool blank = email && email->is_string() && email->as_string().empty();
    if (!blank) {
      StringRule rule;
      rule.email = true;
      in.reporter_email = Text(v, "reporterEmail", rule);
    }
  }
  in.reporter_id = Opt(v, "reporterId", 200);
  in.session_id = Opt(v, "sessionId", 200);
  in.user_id = Opt(v, "userId", 200);
  in.release = Opt(v, "release", 200);
  in.environment = Opt(v, "environment", 100);
  {
    StringRule rule;
    rule.one_of = &kPlatforms;
    in.platform = v.String("platform", rule);
  }
  in.device = Opt(v, "device", 120);
  in.os_version = Opt(v, "osVersion", 60);
  json::object& root = doc.as_object();
  // Values are moved out of the parsed body (no copy); `v` only keeps a
  // pointer to the root object, which stays valid.
  if (v.Object("metadata")) {
    in.metadata = std::move(*root.if_contains("metadata"));
    // The managed identity and evidence ids (contract "Capture identity",
    // "Evidence"), only when the metadata names them.
    if (const json::object* m = in.metadata.if_object()) {
      if (m->contains("capture")) in.capture_identity = domain::capture::ReadCaptureIdentity(*m);
      if (m->contains("evidence")) in.evidence_ids = domain::capture::ReadEvidenceIds(*m);
    }
  }
  v.Object("encrypted");  // unsupported, type-checked only

  // aiSummary: any; an object is kept as the bug's client summary, a string
  // as {"summary": text}.
  if (const json::value* ai = Field(*v.body(), "aiSummary")) {
    if (ai->is_object()) {
      in.ai_summary_json = Serialize(*ai);
    } else if (ai->is_string() && !ai->as_string().empty()) {
      in.ai_summary_json = Serialize(json::object{{"summary", ai->as_string()}});
    }
  }

  if (v.Array("events", false, kMaxIngestEvents)) {
    json::array* events = &root.if_contains("events")->as_array();
    in.events.reserve(events->size());
    size_t errors = 0;
    auto event_error = [&](size_t i, std::string_view member, std::string_view message) {
      ++errors;
      if (errors <= kMaxEventDetails) {
        std::string field = "events[" + std::to_string(i) + "]";
        if (!member.empty()) field += "." + std::string(member);
        v.AddError(field, message);
      }
    };
    for (size_t i = 0; i < events->size(); ++i) {
      json::value& e = (*events)[i];
      if (!e.is_object()) {
        event_error(i, "", "must be an object");
        continue;
      }
      json::object& eo = e.get_object();
      domain::capture::Event ev{std::string(), 0, json::value(sp)};
      const json::value* type = Field(eo, "type");
      if (!type || type->is_null()) {
        event_error(i, "type", "is required");
      } else if (!type->is_string()) {
        event_error(i, "type", "must be a string");
      } else {
        const std::string_view t(type->get_string().data(), type->get_string().size());
        const size_t len = util::Utf8Length(t);
        if (len == 0) {
          event_error(i, "type", "is required");
        } else if (len > kMaxEventTypeChars) {
          event_error(i, "type", "must be at most " + std::to_string(kMaxEventTypeChars) + " characters");
        } else {
          ev.type = std::string(t);
        }
      }
      ev.timestamp_ms = now_ms;
      if (const json::value* ts = Field(eo, "timestamp"); ts && !ts->is_null()) {
        double ms = -1;
        if (ts->is_int64()) {
          ms = static_cast<double>(ts->get_int64());
        } else if (ts->is_uint64()) {
          ms = static_cast<double>(ts->get_uint64());
        } else if (ts->is_double()) {
          ms = ts->get_double();
        } else {
          event_error(i, "timestamp", "must be a number (Unix milliseconds)");
        }
        if (ts->is_number()) {
          if (!std::isfinite(ms) || ms < 0 || ms > kMaxTimestampMs) {
            event_error(i, "timestamp", "must be Unix milliseconds between 0 and year 9999");
          } else {
            ev.timestamp_ms = static_cast<int64_t>(ms);
          }
        }
      }
      if (json::value* data = eo.if_contains("data")) ev.data = std::move(*data);
      in.events.push_back(std::move(ev));
    }
    if (errors > kMaxEventDetails) {
      v.AddError("events", std::to_string(errors - kMaxEventDetails) + " more invalid events");
    }
  }

  if (!v.ok()) return ValidationStatus(v.details());
  return in;
}

Result<app::capture::PresenceInput> ParsePresenceBody(std::string_view body) {
  SV_ASSIGN_OR_RETURN(json::value doc, ParseCaptureJson(body));
  Validator v(doc);
  app::capture::PresenceInput in;
  if (!v.body()) return ValidationStatus(v.details());
  {
    StringRule rule;
    rule.required = true;
    rule.min = 1;
    rule.max = 200;
    in.session_id = Text(v, "sessionId", rule).value_or("");
  }
  in.user_id = Opt(v, "userId", 200);
  in.reporter_id = Opt(v, "reporterId", 200);
  in.url = Opt(v, "url", 2000);
  in.path = Opt(v, "path", 1000);
  in.title = Opt(v, "title", 500);
  in.referrer = Opt(v, "referrer", 2000);
  in.event_type = Opt(v, "eventType", 100);
  in.visibility_state = Opt(v, "visibilityState", 50);
  if (const json::object* o = v.Object("interaction")) in.interaction_json = json::serialize(*o);
  if (const json::object* o = v.Object("metadata")) in.metadata_json = json::serialize(*o);
  if (!v.ok()) return ValidationStatus(v.details());
  return in;
}

}  // namespace service::api
