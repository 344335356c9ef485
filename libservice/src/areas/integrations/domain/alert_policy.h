// The alert policy of a project (Spec 2 "Alerts", "Events"): a severity
// floor, exclusions and quiet hours in a time zone, and what they decide for
// one outbound event. Pure apart from reading the system's time-zone
// database (tzdata); safe from any thread.
//
// The rules:
//   - agent_notify, agent_update and test are exempt: the destination's event
//     list alone decides.
//   - severityFloor: events of a bug below the floor are not delivered.
//   - excludes: an event named in `events`, a title or url containing one of
//     `titleContains` / `urlContains` (ASCII case-insensitive), or an
//     environment named in `environments`, is not delivered.
//   - quietHours [start, end) in `timeZone`, wrapping midnight when start >
//     end (start == end: none): capture-path webhooks and recommended_bug
//     deliveries wait until the window ends (the same delivery is sent then).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::integrations {

struct QuietHours {
  int start_minute = 0;  // minutes after local midnight, 0..1439
  int end_minute = 0;
  std::string time_zone;  // IANA name, e.g. "Europe/Berlin"
};

struct AlertPolicy {
  std::string severity_floor;  // "" for none, else critical, high, medium or low
  std::vector<std::string> exclude_events;
  std::vector<std::string> exclude_title_contains;
  std::vector<std::string> exclude_url_contains;
  std::vector<std::string> exclude_environments;
  std::optional<QuietHours> quiet_hours;
};

// Limits of a policy body.
inline constexpr size_t kMaxExcludeItems = 50;
inline constexpr size_t kMaxExcludeLength = 200;

// One event as the policy sees it.
struct AlertSample {
  std::string event;
  std::string severity;
  std::string title;
  std::string url;
  std::string environment;
};

// Events the policy never holds: agent_notify, agent_update, test.
bool IsPolicyExempt(std::string_view event);
// Events a policy may exclude by name: new_bug, regression, status_change,
// comment, assigned, recommended_bug.
bool IsExcludableEvent(std::string_view event);

// "" when the policy lets `s` through, else why not: below_severity_floor,
// excluded_event, excluded_title, excluded_url, excluded_environment.
std::string ExclusionReason(const AlertPolicy& policy, const AlertSample& s);

// A known IANA time-zone name.
bool IsTimeZone(std::string_view name);
// "HH:MM" (00:00 .. 23:59) -> minutes after midnight.
std::optional<int> ParseClockTime(std::string_view text);
std::string FormatClockTime(int minutes);
// When `now_ms` lies inside the quiet window: the instant it ends (ms since
// the epoch); otherwise nullopt. An unknown zone counts as UTC. A window end
// that falls into a daylight-saving gap ends at the gap.
std::optional<int64_t> QuietUntil(const QuietHours& q, int64_t now_ms);

}  // namespace service::domain::integrations
