#include "areas/bugs/domain/anomalies.h"

#include <algorithm>
#include <functional>
#include <map>

#include "areas/capture/domain/text.h"

namespace service::domain::bugs {
namespace {

namespace json = boost::json;

struct Rule {
  const char* type;
  size_t min;
  int64_t window_ms;
};
constexpr Rule kErrorCascade{"error_cascade", 3, 5'000};
constexpr Rule kFailedRequests{"failed_request_storm", 5, 10'000};
constexpr Rule kTimeouts{"timeout_cascade", 3, 30'000};
constexpr Rule kRageClick{"rage_click", 3, 1'000};
constexpr Rule kAuthLoop{"auth_refresh_loop", 3, 30'000};
constexpr Rule kRequestLoop{"request_loop", 10, 10'000};
constexpr Rule kConsoleFlood{"console_error_flood", 10, 10'000};

std::string Lower(std::string_view s) { return text::LowerAsciiCopy(s); }

const json::value* Field(const domain::capture::Event& e, std::string_view key) {
  const json::object* o = e.data.if_object();
  return o == nullptr ? nullptr : o->if_contains(key);
}
std::string StringField(const domain::capture::Event& e, std::string_view key) {
  const json::value* v = Field(e, key);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}
int64_t IntField(const domain::capture::Event& e, std::string_view key, int64_t def) {
  const json::value* v = Field(e, key);
  if (v == nullptr) return def;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<int64_t>(v->get_uint64());
  if (v->is_double()) return static_cast<int64_t>(v->get_double());
  return def;
}
bool TrueField(const domain::capture::Event& e, std::string_view key) {
  const json::value* v = Field(e, key);
  return v != nullptr && ((v->is_bool() && v->get_bool()) || (v->is_string() && !v->get_string().empty()));
}

bool IsErrorEvent(const domain::capture::Event& e) {
  const std::string t = Lower(e.type);
  return t == "error" || t == "exception" || t == "unhandledrejection" || t == "unhandled_rejection" ||
         t == "crash";
}
bool IsRequest(const domain::capture::Event& e) {
  const std::string t = Lower(e.type);
  return t == "network" || t == "fetch" || t == "xhr" || t == "http" || t == "request";
}
bool IsFailedRequest(const domain::capture::Event& e) {
  if (!IsRequest(e)) return false;
  const int64_t status = IntField(e, "status", -1);
  return status >= 400 || status == 0 || TrueField(e, "failed") || TrueField(e, "error");
}
bool SaysTimeout(std::string_view s) {
  return text::ContainsCi(s, "timeout") || text::ContainsCi(s, "timed out");
}
bool IsTimeout(const domain::capture::Event& e) {
  if (IsRequest(e)) {
    const int64_t status = IntField(e, "status", -1);
    if (status == 408 || status == 504 || TrueField(e, "timeout")) return true;
  }
  return SaysTimeout(StringField(e, "message")) || SaysTimeout(StringField(e, "error"));
}
bool IsClick(const domain::capture::Event& e) {
  const std::string t = Lower(e.type);
  return t == "click" || t == "tap" || t == "ui.click" || t == "rage_click";
}
std::string ClickTarget(const domain::capture::Event& e) {
  for (const char* key : {"selector", "target", "text", "id"}) {
    std::string v = StringField(e, key);
    if (!v.empty()) return v;
  }
  return "";
}
// The URL's path without scheme, host, query or fragment.
std::string UrlPath(std::string_view url) {
  size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : url.find('/', start + 3);
  if (start == std::string_view::npos) return "/";
  const size_t end = url.find_first_of("?#", start);
  return std::string(url.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
}
bool IsAuthRequest(const domain::capture::Event& e) {
  if (!IsRequest(e)) return false;
  const std::string path = Lower(UrlPath(StringField(e, "url")));
  return path.find("refresh") != std::string::npos || path.find("token") != std::string::npos ||
         path.find("oauth") != std::string::npos || path.find("/auth") != std::string::npos;
}
std::string RequestKey(const domain::capture::Event& e) {
  std::string method = StringField(e, "method");
  for (char& c : method) c = text::UpperAscii(c);
  return (method.empty() ? "GET" : method) + " " + UrlPath(StringField(e, "url"));
}
bool IsConsoleError(const domain::capture::Event& e) {
  return Lower(e.type) == "console" && Lower(StringField(e, "level")) == "error";
}

std::string Detail(const domain::capture::Event& e) {
  if (IsRequest(e)) {
    const int64_t status = IntField(e, "status", -1);
    return RequestKey(e) + (status >= 0 ? " -> " + std::to_string(status) : "");
  }
  if (IsClick(e)) return ClickTarget(e);
  std::string m = StringField(e, "message");
  if (m.empty()) m = StringField(e, "error");
  if (m.size() > 120) m.resize(120);
  return m;
}

// Bursts among `idx` (indexes into `ev`, in time order).
std::vector<std::pair<size_t, size_t>> Bursts(const std::vector<const domain::capture::Event*>& ev,
                                              const Rule& rule) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t i = 0;
  for (size_t j = 0; j < ev.size(); ++j) {
    while (ev[j]->timestamp_ms - ev[i]->timestamp_ms > rule.window_ms) ++i;
    if (j - i + 1 < rule.min) continue;
    size_t k = j;
    while (k + 1 < ev.size() && ev[k + 1]->timestamp_ms - ev[k]->timestamp_ms <= rule.window_ms) ++k;
    out.emplace_back(i, k);
    j = k;
    i = k + 1;
  }
  return out;
}

class Detector {
 public:
  explicit Detector(std::vector<const domain::capture::Event*> sorted) : ev_(std::move(sorted)) {
    if (!ev_.empty()) origin_ = ev_.front()->timestamp_ms;
  }

  // Bursts of the events `match` selects, grouped by `key` ("" = one group).
  void Find(const Rule& rule, const std::function<bool(const domain::capture::Event&)>& match,
            const std::function<std::string(const domain::capture::Event&)>& key,
            const std::function<std::string(size_t, const std::string&)>& severity,
            const std::function<std::string(size_t, const std::string&)>& describe) {
    std::map<std::string, std::vector<const domain::capture::Event*>> groups;
    for (const domain::capture::Event* e : ev_) {
      if (match(*e)) groups[key ? key(*e) : std::string()].push_back(e);
    }
    for (const auto& [k, list] : groups) {
      for (const auto& [first, last] : Bursts(list, rule)) {
        const size_t n = last - first + 1;
        Anomaly a;
        a.type = rule.type;
        a.severity = severity(n, k);
        a.description = describe(n, k);
        a.start_ms = list[first]->timestamp_ms;
        a.end_ms = list[last]->timestamp_ms;
        for (size_t x = first; x <= last && a.evidence.size() < kMaxEvidence; ++x) {
          a.evidence.push_back("+" + std::to_string(list[x]->timestamp_ms - origin_) + "ms " + list[x]->type +
                               (Detail(*list[x]).empty() ? "" : " " + Detail(*list[x])));
        }
        found_.push_back(std::move(a));
      }
    }
  }

  std::vector<Anomaly> Finish() {
    std::sort(found_.begin(), found_.end(), [](const Anomaly& a, const Anomaly& b) {
      return a.start_ms != b.start_ms ? a.start_ms < b.start_ms : a.type < b.type;
    });
    // compound_failure: overlapping ranges of two or more distinct types.
    std::vector<Anomaly> compound;
    size_t i = 0;
    while (i < found_.size()) {
      int64_t end = found_[i].end_ms;
      size_t j = i + 1;
      while (j < found_.size() && found_[j].start_ms <= end) end = std::max(end, found_[j++].end_ms);
      std::vector<std::string> types;
      for (size_t x = i; x < j; ++x) {
        if (std::find(types.begin(), types.end(), found_[x].type) == types.end())
          types.push_back(found_[x].type);
      }
      if (types.size() >= 2) {
        std::sort(types.begin(), types.end());
        Anomaly a;
        a.type = "compound_failure";
        a.severity = "critical";
        a.start_ms = found_[i].start_ms;
        a.end_ms = end;
        a.description = "Failures compound: ";
        for (size_t t = 0; t < types.size(); ++t) a.description += (t ? ", " : "") + types[t];
        a.evidence = types;
        compound.push_back(std::move(a));
      }
      i = j;
    }
    for (auto& a : compound) found_.push_back(std::move(a));
    std::stable_sort(found_.begin(), found_.end(), [](const Anomaly& a, const Anomaly& b) {
      return a.start_ms != b.start_ms ? a.start_ms < b.start_ms : a.type < b.type;
    });
    return std::move(found_);
  }

 private:
  std::vector<const domain::capture::Event*> ev_;
  int64_t origin_ = 0;
  std::vector<Anomaly> found_;
};

std::string N(size_t n) { return std::to_string(n); }

}  // namespace

std::vector<Anomaly> DetectAnomalies(std::span<const domain::capture::Event> events) {
  std::vector<const domain::capture::Event*> sorted;
  sorted.reserve(events.size());
  for (const domain::capture::Event& e : events) sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const domain::capture::Event* a, const domain::capture::Event* b) {
                     return a->timestamp_ms < b->timestamp_ms;
                   });
  Detector d(std::move(sorted));
  d.Find(
      kErrorCascade, IsErrorEvent, nullptr,
      [](size_t n, const std::string&) { return n >= 5 ? "high" : "medium"; },
      [](size_t n, const std::string&) { return N(n) + " errors within seconds of each other"; });
  d.Find(
      kFailedRequests, IsFailedRequest, nullptr,
      [](size_t n, const std::string&) { return n >= 20   ? "critical"
                                                : n >= 10 ? "high"
                                                          : "medium"; },
      [](size_t n, const std::string&) { return N(n) + " failed requests in a burst"; });
  d.Find(
      kTimeouts, IsTimeout, nullptr, [](size_t, const std::string&) { return "high"; },
      [](size_t n, const std::string&) { return N(n) + " timeouts in a row"; });
  d.Find(
      kRageClick, IsClick, ClickTarget,
      [](size_t n, const std::string&) { return n >= 6 ? "high" : "medium"; },
      [](size_t n, const std::string& target) {
        return N(n) + " rapid clicks on " + (target.empty() ? std::string("the same spot") : target);
      });
  d.Find(
      kAuthLoop, IsAuthRequest, nullptr, [](size_t, const std::string&) { return "high"; },
      [](size_t n, const std::string&) {
        return N(n) + " authentication or token refresh requests in a loop";
      });
  d.Find(
      kRequestLoop, IsRequest, RequestKey,
      [](size_t n, const std::string&) { return n >= 30 ? "high" : "medium"; },
      [](size_t n, const std::string& key) { return key + " requested " + N(n) + " times in a loop"; });
  d.Find(
      kConsoleFlood, IsConsoleError, nullptr,
      [](size_t n, const std::string&) { return n >= 50 ? "high" : "medium"; },
      [](size_t n, const std::string&) { return N(n) + " console errors in a burst"; });
  return d.Finish();
}

}  // namespace service::domain::bugs
