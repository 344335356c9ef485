#include "areas/capture/domain/event.h"

#include <array>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/string.hpp>

#include "areas/capture/domain/text.h"

namespace service::domain::capture {
namespace {

constexpr std::array<std::string_view, 6> kManualKinds = {"manual",        "user",     "user_report",
                                                          "user_feedback", "feedback", "widget"};

std::string NormalizeKind(std::string_view raw) {
  std::string out;
  for (char c : raw) {
    if (out.size() >= 64) break;
    if (text::IsAlnum(c)) {
      out.push_back(text::LowerAscii(c));
    } else if (c == '_' || c == '-' || c == '.' || c == ' ' || c == '/') {
      if (!out.empty() && out.back() != '_') out.push_back('_');
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

bool IsManualKind(std::string_view kind) {
  for (std::string_view m : kManualKinds) {
    if (kind == m) return true;
  }
  return false;
}

bool IsTrue(const boost::json::value* v) { return v != nullptr && v->is_bool() && v->get_bool(); }

}  // namespace

const boost::json::value* JsonField(const boost::json::value& v, std::string_view key) {
  const boost::json::object* o = v.if_object();
  if (o == nullptr) return nullptr;
  return o->if_contains(key);
}

std::string_view JsonString(const boost::json::value& v, std::string_view key) {
  const boost::json::value* f = JsonField(v, key);
  if (f == nullptr || !f->is_string()) return {};
  const boost::json::string& s = f->get_string();
  return {s.data(), s.size()};
}

bool IsMarkedUserReport(const boost::json::value& metadata) {
  if (!metadata.is_object()) return false;
  const boost::json::value* auto_report = JsonField(metadata, "autoReport");
  if (auto_report != nullptr && auto_report->is_bool()) return !auto_report->get_bool();
  if (auto_report != nullptr && auto_report->is_string()) {
    const std::string kind = NormalizeKind(auto_report->get_string());
    if (!kind.empty()) return IsManualKind(kind);
  }
  for (std::string_view key : {"autoReportKind", "kind", "trigger"}) {
    const std::string kind = NormalizeKind(JsonString(metadata, key));
    if (!kind.empty()) return IsManualKind(kind);
  }
  return false;
}

std::string AutoReportKind(const boost::json::value& metadata) {
  if (!metadata.is_object()) return {};
  if (IsTrue(JsonField(metadata, "selfTest")) || IsTrue(JsonField(metadata, "sdkSelfTest")))
    return "self_test";

  const boost::json::value* auto_report = JsonField(metadata, "autoReport");
  if (auto_report != nullptr && auto_report->is_string()) {
    const std::string kind = NormalizeKind(auto_report->get_string());
    if (!kind.empty()) return IsManualKind(kind) ? std::string() : kind;
  }
  const bool explicit_auto = IsTrue(auto_report);
  const bool explicit_manual = auto_report != nullptr && auto_report->is_bool() && !auto_report->get_bool();
  if (!explicit_manual) {
    for (std::string_view key : {"autoReportKind", "kind", "trigger", "reason"}) {
      if (key == "reason" && !explicit_auto) continue;
      const std::string kind = NormalizeKind(JsonString(metadata, key));
      if (kind.empty()) continue;
      if (IsManualKind(kind)) {
        if (explicit_auto) continue;
        return {};
      }
      return kind;
    }
  }
  const std::string source = NormalizeKind(JsonString(metadata, "source"));
  if (source == "self_test" || source == "selftest" || source == "sdk_self_test") return "self_test";
  return explicit_auto ? "auto" : std::string();
}

std::vector<Event> StoredEvents(std::string_view events_json, int64_t occurred_at_ms, size_t max) {
  std::vector<Event> out;
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(events_json, ec);
  if (ec || !parsed.is_array()) return out;
  for (boost::json::value& v : parsed.get_array()) {
    if (out.size() >= max) break;
    boost::json::object* e = v.if_object();
    if (e == nullptr) continue;
    Event ev;
    if (const auto* t = e->if_contains("type"); t != nullptr && t->is_string()) ev.type = t->get_string();
    ev.timestamp_ms = occurred_at_ms;
    if (const auto* ts = e->if_contains("timestamp"); ts != nullptr && ts->is_int64())
      ev.timestamp_ms = ts->get_int64();
    if (auto* d = e->if_contains("data")) ev.data = std::move(*d);
    out.push_back(std::move(ev));
  }
  return out;
}

}  // namespace service::domain::capture
