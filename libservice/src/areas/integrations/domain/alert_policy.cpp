#include "areas/integrations/domain/alert_policy.h"

#include <date/tz.h>

#include <algorithm>
#include <chrono>

#include "areas/capture/domain/vocabulary.h"
#include "util/strings.h"

namespace service::domain::integrations {
namespace {

bool ContainsAny(std::string_view text, const std::vector<std::string>& needles) {
  if (needles.empty() || text.empty()) return false;
  const std::string lower = util::ToLower(text);
  return std::any_of(needles.begin(), needles.end(), [&](const std::string& n) {
    return !n.empty() && lower.find(util::ToLower(n)) != std::string::npos;
  });
}

const date::time_zone* Zone(std::string_view name) {
  if (name.empty()) return nullptr;
  try {
    return date::locate_zone(name);
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

bool IsPolicyExempt(std::string_view event) {
  return event == "agent_notify" || event == "agent_update" || event == "test";
}

bool IsExcludableEvent(std::string_view event) {
  return event == "new_bug" || event == "regression" || event == "status_change" || event == "comment" ||
         event == "assigned" || event == "recommended_bug";
}

std::string ExclusionReason(const AlertPolicy& p, const AlertSample& s) {
  if (IsPolicyExempt(s.event)) return "";
  if (!p.severity_floor.empty() &&
      domain::capture::SeverityRank(s.severity) < domain::capture::SeverityRank(p.severity_floor)) {
    return "below_severity_floor";
  }
  if (std::find(p.exclude_events.begin(), p.exclude_events.end(), s.event) != p.exclude_events.end())
    return "excluded_event";
  if (ContainsAny(s.title, p.exclude_title_contains)) return "excluded_title";
  if (ContainsAny(s.url, p.exclude_url_contains)) return "excluded_url";
  if (!s.environment.empty() && std::find(p.exclude_environments.begin(), p.exclude_environments.end(),
                                          s.environment) != p.exclude_environments.end()) {
    return "excluded_environment";
  }
  return "";
}

bool IsTimeZone(std::string_view name) { return name.size() <= 64 && Zone(name) != nullptr; }

std::optional<int> ParseClockTime(std::string_view t) {
  if (t.size() != 5 || t[2] != ':') return std::nullopt;
  for (size_t i : {0, 1, 3, 4})
    if (t[i] < '0' || t[i] > '9') return std::nullopt;
  const int h = (t[0] - '0') * 10 + (t[1] - '0'), m = (t[3] - '0') * 10 + (t[4] - '0');
  if (h > 23 || m > 59) return std::nullopt;
  return h * 60 + m;
}

std::string FormatClockTime(int minutes) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d:%02d", (minutes / 60) % 24, minutes % 60);
  return buf;
}

std::optional<int64_t> QuietUntil(const QuietHours& q, int64_t now_ms) {
  using std::chrono::milliseconds;
  using std::chrono::minutes;
  if (q.start_minute == q.end_minute) return std::nullopt;
  const date::time_zone* zone = Zone(q.time_zone);
  const date::sys_time<milliseconds> now{milliseconds(now_ms)};
  // Local wall-clock time of `now` (UTC for an unknown zone).
  date::local_time<milliseconds> local =
      zone != nullptr ? zone->to_local(now) : date::local_time<milliseconds>(milliseconds(now_ms));
  const auto day = date::floor<date::days>(local);
  const int minute = static_cast<int>(date::floor<minutes>(local - day).count());
  std::optional<date::local_time<milliseconds>> end;
  if (q.start_minute < q.end_minute) {
    if (minute >= q.start_minute && minute < q.end_minute) end = day + minutes(q.end_minute);
  } else if (minute >= q.start_minute) {
    end = day + date::days(1) + minutes(q.end_minute);
  } else if (minute < q.end_minute) {
    end = day + minutes(q.end_minute);
  }
  if (!end) return std::nullopt;
  if (zone == nullptr) return end->time_since_epoch().count();
  return zone->to_sys(*end, date::choose::earliest).time_since_epoch().count();
}

}  // namespace service::domain::integrations
