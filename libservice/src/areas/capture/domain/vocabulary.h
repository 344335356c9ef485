// Triage vocabulary and rules that need no I/O (Spec 1 "Enumerations",
// "Bugs: read"): the enumerations a read may filter on, the two triage
// facets of `deliveryFeed`, the stats health score and the recommended
// score. Pure; safe from any thread.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "areas/capture/domain/event.h"

namespace service::domain::capture {

bool IsSeverity(std::string_view s);     // critical, high, medium, low
bool IsBugStatus(std::string_view s);    // new, known, working, resolved, silenced
bool IsSignalClass(std::string_view s);  // issue, watch, diagnostic
bool IsPlatform(std::string_view s);     // web, ios, android, react-native, flutter, server, other
// A bug's platforms as a bit set (bugs.platforms, migration 0016): web 1,
// ios 2, android 4, react-native 8, flutter 16, server 32, other 64; any
// other string 0.
int64_t PlatformBit(std::string_view platform);
// The platforms of a bit set, in alphabetical order.
std::vector<std::string> PlatformsOf(int64_t bits);
// critical 4, high 3, medium 2, low 1, anything else 0.
int SeverityRank(std::string_view severity);

// Statuses that count as open in aggregates, lists and `unresolved`:
// everything but resolved and silenced.
bool IsOpenStatus(std::string_view status);

// deliveryFeed values: all, urgent_critical, ui_ux.
bool IsDeliveryFeed(std::string_view feed);

// The `urgent_critical` facet: a problem users hit (signal class `issue`)
// that is critical, or high and either a regression or a hard failure (signal
// family crash, uncaught_error, unhandled_rejection or http_5xx). Changes
// with severity and regression, so lists evaluate it when they read.
bool IsUrgentCritical(std::string_view severity, std::string_view signal_class,
                      std::string_view signal_family, bool is_regression);

// The `ui_ux` facet, decided when a bug is created and stored with it: not a
// diagnostic, and either a person's report (signal family user_report) whose
// title or description is not about a crash, or interface evidence: a title
// or description naming the interface (button, layout, display, render,
// screen, page, modal, dialog, menu, scroll, style, css, font, image, icon,
// form, input, click, tap, ui, ux, overlap, misaligned, blank, flicker,
// responsive, dark mode), or a click/tap/rage-click event among the events.
// Words match whole (ASCII case-insensitive).
bool IsUiUx(std::string_view title, std::string_view description, std::string_view signal_class,
            std::string_view signal_family, std::span<const Event> events);

// Health score of GET /v1/bugs/stats: critical x10 + high x5 + medium x2 +
// low x1 + regressions x20 over open bugs; lower is better.
int64_t HealthScore(int64_t critical, int64_t high, int64_t medium, int64_t low, int64_t regressions);

// The recommended score of GET /v1/bugs/recommended (0-100, higher first):
//   severity   critical 40, high 28, medium 16, low 6 (the group's maximum)
//   regression +15 when any member regressed
//   recency    up to 20: 20 within the last hour, then 20 * 0.5^(age / 24 h)
//   volume     up to 15: 15 * min(1, log10(1 + reports) / 3) (1,000 reports = 15)
//   users      up to 10: 10 * min(1, log10(1 + users) / 2) (100 users = 10)
// Open groups only score; resolved and silenced groups score 0. Rounded to
// two decimals so equal inputs order by the tie-breaks.
struct RecommendInput {
  int max_severity_rank = 0;  // SeverityRank of the group's maximum
  bool any_regression = false;
  bool open = true;
  int64_t last_seen_ms = 0;
  int64_t now_ms = 0;
  int64_t reports = 0;
  int64_t users = 0;
};
double RecommendedScore(const RecommendInput& in);
// The severity a group is recommended at: its maximum member severity, one
// step up (to at most critical) when it regressed or affects 100+ users.
std::string RecommendedSeverity(int max_severity_rank, bool any_regression, int64_t users);

}  // namespace service::domain::capture
