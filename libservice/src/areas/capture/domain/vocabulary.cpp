#include "areas/capture/domain/vocabulary.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "areas/capture/domain/text.h"

namespace service::domain::capture {
namespace {

template <size_t N>
bool OneOf(std::string_view s, const std::array<std::string_view, N>& values) {
  return std::find(values.begin(), values.end(), s) != values.end();
}

constexpr std::array<std::string_view, 4> kSeverities = {"critical", "high", "medium", "low"};
constexpr std::array<std::string_view, 5> kStatuses = {"new", "known", "working", "resolved", "silenced"};
constexpr std::array<std::string_view, 3> kSignalClasses = {"issue", "watch", "diagnostic"};
constexpr std::array<std::string_view, 7> kPlatforms = {"web",     "ios",    "android", "react-native",
                                                        "flutter", "server", "other"};
constexpr std::array<std::string_view, 3> kFeeds = {"all", "urgent_critical", "ui_ux"};
constexpr std::array<std::string_view, 4> kHardFailures = {"crash", "uncaught_error", "unhandled_rejection",
                                                           "http_5xx"};
constexpr std::array<std::string_view, 31> kUiWords = {
    "button",   "layout",     "display", "render",    "rendering", "screen",     "page", "modal",
    "dialog",   "menu",       "scroll",  "scrolling", "style",     "css",        "font", "image",
    "icon",     "form",       "input",   "click",     "tap",       "ui",         "ux",   "overlap",
    "overlaps", "misaligned", "blank",   "flicker",   "flickers",  "responsive", "dark"};
constexpr std::array<std::string_view, 4> kCrashWords = {"crash", "crashed", "crashes", "exception"};

// Calls fn(word) for each maximal run of ASCII letters, lower-cased.
template <typename Fn>
bool AnyWord(std::string_view text, Fn fn) {
  std::string word;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (text::IsAlpha(c)) {
      if (word.size() < 32) word.push_back(text::LowerAscii(c));
      continue;
    }
    if (!word.empty() && fn(std::string_view(word))) return true;
    word.clear();
  }
  return false;
}

bool HasUiWord(std::string_view text) {
  return AnyWord(text, [](std::string_view w) { return OneOf(w, kUiWords); });
}
bool HasCrashWord(std::string_view text) {
  return AnyWord(text, [](std::string_view w) { return OneOf(w, kCrashWords); });
}

bool IsInteractionEvent(std::string_view type) {
  std::string t;
  for (char c : type) t.push_back(text::LowerAscii(c));
  return t == "click" || t == "tap" || t == "rage_click" || t == "rageclick" || t == "ui.click" ||
         t == "dead_click" || t == "touch";
}

}  // namespace

bool IsSeverity(std::string_view s) { return OneOf(s, kSeverities); }
bool IsBugStatus(std::string_view s) { return OneOf(s, kStatuses); }
bool IsSignalClass(std::string_view s) { return OneOf(s, kSignalClasses); }
bool IsPlatform(std::string_view s) { return OneOf(s, kPlatforms); }

int64_t PlatformBit(std::string_view platform) {
  for (size_t i = 0; i < kPlatforms.size(); ++i) {
    if (kPlatforms[i] == platform) return int64_t{1} << i;
  }
  return 0;
}

std::vector<std::string> PlatformsOf(int64_t bits) {
  std::vector<std::string> out;
  for (size_t i = 0; i < kPlatforms.size(); ++i) {
    if ((bits & (int64_t{1} << i)) != 0) out.emplace_back(kPlatforms[i]);
  }
  std::sort(out.begin(), out.end());
  return out;
}
bool IsDeliveryFeed(std::string_view feed) { return OneOf(feed, kFeeds); }

int SeverityRank(std::string_view severity) {
  if (severity == "critical") return 4;
  if (severity == "high") return 3;
  if (severity == "medium") return 2;
  if (severity == "low") return 1;
  return 0;
}

bool IsOpenStatus(std::string_view status) { return status != "resolved" && status != "silenced"; }

bool IsUrgentCritical(std::string_view severity, std::string_view signal_class,
                      std::string_view signal_family, bool is_regression) {
  if (signal_class != "issue") return false;
  if (severity == "critical") return true;
  return severity == "high" && (is_regression || OneOf(signal_family, kHardFailures));
}

bool IsUiUx(std::string_view title, std::string_view description, std::string_view signal_class,
            std::string_view signal_family, std::span<const Event> events) {
  if (signal_class == "diagnostic") return false;
  if (HasUiWord(title) || HasUiWord(description)) return true;
  if (signal_family == "user_report" && !HasCrashWord(title) && !HasCrashWord(description)) return true;
  return std::any_of(events.begin(), events.end(), [](const Event& e) { return IsInteractionEvent(e.type); });
}

int64_t HealthScore(int64_t critical, int64_t high, int64_t medium, int64_t low, int64_t regressions) {
  return critical * 10 + high * 5 + medium * 2 + low + regressions * 20;
}

double RecommendedScore(const RecommendInput& in) {
  if (!in.open) return 0;
  static constexpr double kSeverityPoints[] = {0, 6, 16, 28, 40};
  double score = kSeverityPoints[std::clamp(in.max_severity_rank, 0, 4)];
  if (in.any_regression) score += 15;
  const double age_h = static_cast<double>(std::max<int64_t>(0, in.now_ms - in.last_seen_ms)) / 3'600'000.0;
  score += age_h <= 1 ? 20 : 20 * std::pow(0.5, age_h / 24.0);
  score += 15 * std::min(1.0, std::log10(1.0 + static_cast<double>(std::max<int64_t>(0, in.reports))) / 3.0);
  score += 10 * std::min(1.0, std::log10(1.0 + static_cast<double>(std::max<int64_t>(0, in.users))) / 2.0);
  return std::round(score * 100) / 100;
}

std::string RecommendedSeverity(int max_severity_rank, bool any_regression, int64_t users) {
  int rank = std::clamp(max_severity_rank, 1, 4);
  if (any_regression || users >= 100) rank = std::min(4, rank + 1);
  return std::string(kSeverities[static_cast<size_t>(4 - rank)]);
}

}  // namespace service::domain::capture
