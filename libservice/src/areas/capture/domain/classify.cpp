#include "areas/capture/domain/classify.h"

#include <array>
#include <boost/json/string.hpp>
#include <cstdint>
#include <optional>

#include "areas/capture/domain/fingerprint.h"
#include "areas/capture/domain/text.h"

namespace service::domain::capture {
namespace {

using text::ContainsCi;
using text::StartsWithCi;

// ---- facts -----------------------------------------------------------------

enum Fact : uint32_t {
  kSelfTest = 1u << 0,
  kManual = 1u << 1,
  kCrash = 1u << 2,
  kUncaught = 1u << 3,
  kRejection = 1u << 4,
  kHttp5xx = 1u << 5,
  kNetworkFailure = 1u << 6,
  kSlow = 1u << 7,
  kHttp4xx = 1u << 8,
  kDeprecation = 1u << 9,
  kConsoleError = 1u << 10,
  kConsoleWarning = 1u << 11,
  kOnlyConsoleInfo = 1u << 12,
  kOnlyBreadcrumbs = 1u << 13,
  kTitleCrash = 1u << 14,
  kTitleError = 1u << 15,
  kTitle5xx = 1u << 16,
  kTitleDeprecation = 1u << 17,
  kTitleSlow = 1u << 18,
  kHandled = 1u << 19,
  kMessage = 1u << 20,
  kAlways = 1u << 31,
};

// ---- the policy: one ordered table, first match wins ------------------------

struct Rule {
  uint32_t when;  // any of these facts
  std::string_view signal_class;
  std::string_view family;
  std::string_view reason;
  std::string_view confidence;
};

constexpr std::array<Rule, 22> kRules = {{
    {kSelfTest, kSignalDiagnostic, "self_test", "An SDK self-test report, not a problem users hit.", "high"},
    {kManual, kSignalIssue, "user_report", "A user submitted this report.", "high"},
    {kCrash, kSignalIssue, "crash", "The app crashed.", "high"},
    {kUncaught, kSignalIssue, "uncaught_error", "An error was thrown and not caught.", "high"},
    {kRejection, kSignalIssue, "unhandled_rejection", "A promise was rejected and nothing handled it.",
     "high"},
    {kHttp5xx, kSignalIssue, "http_5xx", "A request failed with a server error (HTTP 5xx).", "high"},
    {kHandled, kSignalIssue, "handled_error", "An error was caught by the app and reported.", "high"},
    {kNetworkFailure, kSignalWatch, "network_failure", "A request failed before a response arrived.",
     "medium"},
    {kSlow, kSignalWatch, "slow_request", "A request took 3 seconds or more.", "medium"},
    {kHttp4xx, kSignalWatch, "http_4xx", "A request was refused with a client error (HTTP 4xx).", "medium"},
    {kDeprecation, kSignalWatch, "deprecation", "The platform reported use of a deprecated feature.", "high"},
    {kConsoleError, kSignalWatch, "console_error", "An error was logged to the console but not thrown.",
     "medium"},
    {kConsoleWarning, kSignalWatch, "console_warning", "A warning was logged to the console.", "low"},
    {kMessage, kSignalWatch, "message", "The app sent a message, not an error.", "high"},
    {kOnlyConsoleInfo, kSignalDiagnostic, "console", "Only informational console output was captured.",
     "high"},
    {kOnlyBreadcrumbs, kSignalDiagnostic, "breadcrumb",
     "Only breadcrumbs were captured: navigation, interactions and successful requests.", "medium"},
    {kTitleCrash, kSignalIssue, "crash", "The title describes a crash; no crash event was attached.", "low"},
    {kTitleError, kSignalIssue, "uncaught_error",
     "The title describes an error; no error event was attached.", "low"},
    {kTitle5xx, kSignalIssue, "http_5xx",
     "The title describes a server error; no request event was attached.", "low"},
    {kTitleDeprecation, kSignalWatch, "deprecation", "The title mentions a deprecation.", "low"},
    {kTitleSlow, kSignalWatch, "slow_request", "The title mentions slowness.", "low"},
    {kAlways, kSignalWatch, "unclassified",
     "An automatic report without a recognised error, request or console signal.", "low"},
}};

// Auto-report kinds (as AutoReportKind writes them) and the fact each states.
struct KindFact {
  std::string_view kind;
  uint32_t fact;
};

constexpr std::array<KindFact, 52> kKindFacts = {{
    {"self_test", kSelfTest},
    {"selftest", kSelfTest},
    {"sdk_self_test", kSelfTest},
    {"sdk_test", kSelfTest},
    {"test", kSelfTest},
    {"crash", kCrash},
    {"native_crash", kCrash},
    {"fatal", kCrash},
    {"anr", kCrash},
    {"panic", kCrash},
    {"oom", kCrash},
    {"uncaught_error", kUncaught},
    {"uncaught_exception", kUncaught},
    {"error", kUncaught},
    {"exception", kUncaught},
    {"onerror", kUncaught},
    {"window_error", kUncaught},
    {"js_error", kUncaught},
    {"error_boundary", kUncaught},
    {"handled", kHandled},
    {"handled_error", kHandled},
    {"handled_exception", kHandled},
    {"caught", kHandled},
    {"caught_error", kHandled},
    {"caught_exception", kHandled},
    {"unhandled_rejection", kRejection},
    {"unhandledrejection", kRejection},
    {"promise_rejection", kRejection},
    {"http_5xx", kHttp5xx},
    {"server_error", kHttp5xx},
    {"5xx", kHttp5xx},
    {"network_error", kNetworkFailure},
    {"network_failure", kNetworkFailure},
    {"fetch_error", kNetworkFailure},
    {"xhr_error", kNetworkFailure},
    {"offline", kNetworkFailure},
    {"slow_request", kSlow},
    {"slow_network", kSlow},
    {"slow_response", kSlow},
    {"slow", kSlow},
    {"http_4xx", kHttp4xx},
    {"client_error", kHttp4xx},
    {"4xx", kHttp4xx},
    {"deprecation", kDeprecation},
    {"intervention", kDeprecation},
    {"console_error", kConsoleError},
    {"console_warning", kConsoleWarning},
    {"console_warn", kConsoleWarning},
    {"console", kOnlyConsoleInfo},
    {"console_log", kOnlyConsoleInfo},
    {"breadcrumb", kOnlyBreadcrumbs},
    {"breadcrumbs", kOnlyBreadcrumbs},
}};

// ---- events ----------------------------------------------------------------

enum class Category {
  kCrash,
  kUncaught,
  kHandled,  // an error event that says it was handled
  kMessage,  // a captured message (a Sentry SDK's capture_message)
  kRejection,
  kConsoleError,
  kConsoleWarning,
  kConsoleInfo,
  kNetwork,
  kDeprecation,
  kSlow,
  kBreadcrumb,
  kOther,
};

// Event types (prefixes) that describe what the user or app did.
constexpr std::array<std::string_view, 28> kBreadcrumbPrefixes = {
    "breadcrumb",  "navigation", "navigate",    "click",      "tap",   "touch",    "ui",
    "dom",         "input",      "key",         "scroll",     "route", "pageview", "page_view",
    "page",        "screen",     "lifecycle",   "visibility", "focus", "blur",     "session",
    "user_action", "action",     "interaction", "custom",     "state", "redux",    "metric"};
constexpr std::array<std::string_view, 7> kNetworkPrefixes = {"network", "fetch",    "xhr", "http",
                                                              "request", "resource", "api"};
constexpr std::array<std::string_view, 8> kCrashParts = {"crash",   "fatal",  "panic",         "sigsegv",
                                                         "sigabrt", "sigbus", "out_of_memory", "outofmemory"};
constexpr std::array<std::string_view, 5> kInfoTypes = {"log", "info", "debug", "trace", "verbose"};

bool EqualsCi(std::string_view a, std::string_view lower_b) {
  return a.size() == lower_b.size() && StartsWithCi(a, lower_b);
}

template <size_t N>
bool AnyPrefixCi(std::string_view s, const std::array<std::string_view, N>& prefixes) {
  for (std::string_view p : prefixes) {
    if (StartsWithCi(s, p)) return true;
  }
  return false;
}

template <size_t N>
bool AnyPartCi(std::string_view s, const std::array<std::string_view, N>& parts) {
  for (std::string_view p : parts) {
    if (ContainsCi(s, p)) return true;
  }
  return false;
}

std::optional<int64_t> NumberOf(const boost::json::value* v) {
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<int64_t>(v->get_uint64() > INT64_MAX ? INT64_MAX : v->get_uint64());
  if (v->is_double()) {
    const double d = v->get_double();
    if (!(d >= -1e15 && d <= 1e15)) return std::nullopt;
    return static_cast<int64_t>(d);
  }
  if (v->is_string()) {
    const boost::json::string& s = v->get_string();
    if (s.empty() || s.size() > 15) return std::nullopt;
    int64_t n = 0;
    for (char c : s) {
      if (!text::IsDigit(c)) return std::nullopt;
      n = n * 10 + (c - '0');
    }
    return n;
  }
  return std::nullopt;
}

std::optional<int64_t> FirstNumber(const boost::json::value& data,
                                   std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    if (auto n = NumberOf(JsonField(data, key))) return n;
  }
  return std::nullopt;
}

// A console event's level: the type's suffix (`console.error`) or
// data.level / data.severity / data.method.
std::string_view ConsoleLevel(const Event& e) {
  std::string_view t = e.type;
  if (StartsWithCi(t, "console")) {
    t.remove_prefix(7);
    while (!t.empty() && (t.front() == '.' || t.front() == '_' || t.front() == ':' || t.front() == '-')) {
      t.remove_prefix(1);
    }
    if (!t.empty()) return t;
  }
  for (std::string_view key : {"level", "severity", "method"}) {
    if (std::string_view v = JsonString(e.data, key); !v.empty()) return v;
  }
  return {};
}

Category ConsoleCategory(std::string_view level) {
  for (std::string_view l : {"error", "fatal", "assert", "critical"}) {
    if (StartsWithCi(level, l)) return Category::kConsoleError;
  }
  if (StartsWithCi(level, "warn")) return Category::kConsoleWarning;
  return Category::kConsoleInfo;
}

// An error event's own word on whether the app handled it: data.handled, or
// data.mechanism.handled (Sentry's exception mechanism), a boolean.
std::optional<bool> HandledFlag(const Event& e) {
  const boost::json::value* handled = JsonField(e.data, "handled");
  if (handled == nullptr || !handled->is_bool()) {
    if (const boost::json::value* mechanism = JsonField(e.data, "mechanism"))
      handled = JsonField(*mechanism, "handled");
  }
  if (handled == nullptr || !handled->is_bool()) return std::nullopt;
  return handled->get_bool();
}

Category Categorize(const Event& e) {
  const std::string_view t = e.type;
  if (EqualsCi(t, "message")) return Category::kMessage;
  if (ContainsCi(t, "deprecat") || ContainsCi(t, "intervention")) return Category::kDeprecation;
  if (StartsWithCi(t, "console")) {
    const Category c = ConsoleCategory(ConsoleLevel(e));
    if (c == Category::kConsoleWarning && ContainsCi(ErrorEventMessage(e), "deprecat")) {
      return Category::kDeprecation;
    }
    return c;
  }
  for (std::string_view info : kInfoTypes) {
    if (EqualsCi(t, info)) return Category::kConsoleInfo;
  }
  if (EqualsCi(t, "warn") || EqualsCi(t, "warning")) return Category::kConsoleWarning;
  if (AnyPrefixCi(t, kNetworkPrefixes)) return Category::kNetwork;
  if (AnyPartCi(t, kCrashParts) || EqualsCi(t, "anr") || EqualsCi(t, "oom")) return Category::kCrash;
  if (ContainsCi(t, "rejection") || ContainsCi(t, "unhandledpromise")) return Category::kRejection;
  if (ContainsCi(t, "error") || ContainsCi(t, "exception") || ContainsCi(t, "uncaught") ||
      ContainsCi(t, "throw")) {
    return HandledFlag(e).value_or(false) ? Category::kHandled : Category::kUncaught;
  }
  if (ContainsCi(t, "slow")) return Category::kSlow;
  if (AnyPrefixCi(t, kBreadcrumbPrefixes)) return Category::kBreadcrumb;
  return Category::kOther;
}

// Whether a network event without a status failed.
bool NetworkFailed(const Event& e) {
  for (std::string_view part : {"error", "fail", "abort", "timeout"}) {
    if (ContainsCi(e.type, part)) return true;
  }
  const boost::json::value* err = JsonField(e.data, "error");
  return err != nullptr && !err->is_null() && !(err->is_bool() && !err->get_bool());
}

uint32_t EventFacts(std::span<const Event> events) {
  if (events.empty()) return 0;
  uint32_t facts = 0;
  bool only_info = true;
  bool only_crumbs = true;
  for (const Event& e : events) {
    const Category cat = Categorize(e);
    std::optional<int64_t> status = FirstNumber(e.data, {"status", "statusCode", "status_code"});
    if (!status.has_value()) {
      if (const boost::json::value* response = JsonField(e.data, "response")) {
        status = FirstNumber(*response, {"status", "statusCode"});
      }
    }
    const std::optional<int64_t> duration = FirstNumber(
        e.data, {"duration", "durationMs", "duration_ms", "elapsed", "elapsedMs", "responseTime"});
    const bool has_status = status.has_value() && *status >= 100 && *status <= 599;
    bool failed = false;
    bool slow = cat == Category::kSlow || ContainsCi(e.type, "slow");

    switch (cat) {
      case Category::kCrash:
        facts |= kCrash;
        break;
      case Category::kUncaught:
        facts |= kUncaught;
        break;
      case Category::kHandled:
        facts |= kHandled;
        break;
      case Category::kMessage:
        facts |= kMessage;
        break;
      case Category::kRejection:
        facts |= kRejection;
        break;
      case Category::kConsoleError:
        facts |= kConsoleError;
        break;
      case Category::kConsoleWarning:
        facts |= kConsoleWarning;
        break;
      case Category::kDeprecation:
        facts |= kDeprecation;
        break;
      case Category::kNetwork:
        failed = !has_status && ((status.has_value() && *status == 0) || NetworkFailed(e));
        if (failed) facts |= kNetworkFailure;
        break;
      default:
        break;
    }
    if (has_status && *status >= 500) facts |= kHttp5xx;
    if (has_status && *status >= 400 && *status < 500) facts |= kHttp4xx;
    if ((cat == Category::kNetwork || has_status) && duration.has_value() && *duration >= kSlowRequestMs) {
      slow = true;
    }
    if (slow) facts |= kSlow;

    const bool info_like = cat == Category::kConsoleInfo && !has_status && !slow;
    const bool ok_request = cat == Category::kNetwork && !failed && !slow && (!has_status || *status < 400);
    const bool crumb_like =
        info_like || ok_request || (cat == Category::kBreadcrumb && !slow && (!has_status || *status < 400));
    only_info = only_info && info_like;
    only_crumbs = only_crumbs && crumb_like;
  }
  if (only_info) facts |= kOnlyConsoleInfo;
  if (only_crumbs) facts |= kOnlyBreadcrumbs;
  return facts;
}

uint32_t KindFacts(std::string_view kind) {
  if (kind.empty()) return kManual;
  std::string k;
  for (char c : kind) k.push_back(c == '-' || c == '.' || c == ' ' ? '_' : text::LowerAscii(c));
  for (const KindFact& kf : kKindFacts) {
    if (k == kf.kind) return kf.fact;
  }
  return 0;
}

// A standalone 3-digit number 500-599 in `s`.
bool HasStatus5xx(std::string_view s) {
  for (size_t i = 0; i + 3 <= s.size(); ++i) {
    if (s[i] == '5' && text::IsDigit(s[i + 1]) && text::IsDigit(s[i + 2]) &&
        (i == 0 || !text::IsAlnum(s[i - 1])) && (i + 3 == s.size() || !text::IsAlnum(s[i + 3]))) {
      return true;
    }
  }
  return false;
}

bool ContainsWordCi(std::string_view s, std::string_view lower_word) {
  for (size_t i = 0; i + lower_word.size() <= s.size(); ++i) {
    if ((i == 0 || !text::IsAlpha(s[i - 1])) && StartsWithCi(s.substr(i), lower_word) &&
        (i + lower_word.size() == s.size() || !text::IsAlpha(s[i + lower_word.size()]))) {
      return true;
    }
  }
  return false;
}

uint32_t TitleFacts(std::string_view title) {
  uint32_t facts = 0;
  std::string_view t = title;
  while (!t.empty() && static_cast<unsigned char>(t.front()) <= 0x20) t.remove_prefix(1);
  for (std::string_view p : {"[self-test]", "[selftest]", "[sdk self-test]", "self-test", "selftest",
                             "sdk self-test", "sdk self test"}) {
    if (StartsWithCi(t, p)) facts |= kSelfTest;
  }
  if (ContainsCi(t, "crash") || ContainsCi(t, "fatal") || ContainsCi(t, "panic") ||
      ContainsWordCi(t, "anr") || ContainsCi(t, "application not responding") || ContainsCi(t, "sigsegv") ||
      ContainsCi(t, "sigabrt") || ContainsCi(t, "out of memory")) {
    facts |= kTitleCrash;
  }
  if (ContainsCi(t, "error") || ContainsCi(t, "exception") || ContainsCi(t, "uncaught") ||
      ContainsCi(t, "is not a function") || ContainsCi(t, "is not defined")) {
    facts |= kTitleError;
  }
  if (ContainsCi(t, "internal server error") || ContainsCi(t, "bad gateway") ||
      ContainsCi(t, "service unavailable") || ContainsCi(t, "gateway timeout") ||
      ((ContainsCi(t, "http") || ContainsCi(t, "status")) && HasStatus5xx(t))) {
    facts |= kTitle5xx;
  }
  if (ContainsCi(t, "deprecat")) facts |= kTitleDeprecation;
  if (ContainsCi(t, "slow") || ContainsCi(t, "took too long")) facts |= kTitleSlow;
  return facts;
}

}  // namespace

Classification Classify(const ClassifyInput& input) {
  const uint32_t event_facts = EventFacts(input.events);
  uint32_t kind_facts = KindFacts(input.auto_report_kind);
  // An error event that says it was handled is more specific than a kind
  // that names errors in general ("error", "exception"): unless another
  // event was not handled, the report is a handled error.
  if ((event_facts & kHandled) != 0 && (event_facts & kUncaught) == 0) kind_facts &= ~kUncaught;
  const uint32_t facts = kind_facts | event_facts | TitleFacts(input.title) | kAlways;
  for (const Rule& rule : kRules) {
    if ((facts & rule.when) != 0) {
      return {std::string(rule.signal_class), std::string(rule.family), std::string(rule.reason),
              std::string(rule.confidence)};
    }
  }
  return {};  // unreachable: the last rule always holds
}

}  // namespace service::domain::capture
