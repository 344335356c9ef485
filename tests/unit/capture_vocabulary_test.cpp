// Triage rules without I/O (domain/triage/vocabulary.h): the enumerations
// reads filter on, the two delivery facets, the health score and the
// recommended score and severity.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/capture/domain/vocabulary.h"

using service::domain::capture::Event;

TEST_CASE("triage enumerations accept exactly the spec's values") {
  CHECK(service::domain::capture::IsSeverity("critical"));
  CHECK(service::domain::capture::IsSeverity("low"));
  CHECK_FALSE(service::domain::capture::IsSeverity("Critical"));
  CHECK_FALSE(service::domain::capture::IsSeverity(""));
  for (const char* s : {"new", "known", "working", "resolved", "silenced"})
    CHECK(service::domain::capture::IsBugStatus(s));
  CHECK_FALSE(service::domain::capture::IsBugStatus("open"));
  for (const char* s : {"issue", "watch", "diagnostic"}) CHECK(service::domain::capture::IsSignalClass(s));
  CHECK_FALSE(service::domain::capture::IsSignalClass("all"));  // `all` is a filter value, not a class
  for (const char* p : {"web", "ios", "android", "react-native", "flutter", "server", "other"}) {
    CHECK(service::domain::capture::IsPlatform(p));
  }
  CHECK_FALSE(service::domain::capture::IsPlatform("windows"));
  for (const char* f : {"all", "urgent_critical", "ui_ux"})
    CHECK(service::domain::capture::IsDeliveryFeed(f));
  CHECK_FALSE(service::domain::capture::IsDeliveryFeed("urgent"));
}

TEST_CASE("platform bit sets: one bit per platform, decoded in alphabetical order") {
  const struct {
    const char* platform;
    int64_t bit;
  } kBits[] = {{"web", 1},      {"ios", 2},     {"android", 4}, {"react-native", 8},
               {"flutter", 16}, {"server", 32}, {"other", 64},  {"windows", 0},
               {"", 0},         {"Web", 0}};
  for (const auto& row : kBits) {
    CAPTURE(row.platform);
    CHECK(service::domain::capture::PlatformBit(row.platform) == row.bit);
  }
  CHECK(service::domain::capture::PlatformsOf(0).empty());
  CHECK(service::domain::capture::PlatformsOf(1 | 4 | 64) ==
        std::vector<std::string>{"android", "other", "web"});
  CHECK(service::domain::capture::PlatformsOf(127).size() == 7);
  CHECK(service::domain::capture::PlatformsOf(128).empty());  // no such platform
}

TEST_CASE("severity ranks order critical > high > medium > low > unknown") {
  CHECK(service::domain::capture::SeverityRank("critical") == 4);
  CHECK(service::domain::capture::SeverityRank("high") == 3);
  CHECK(service::domain::capture::SeverityRank("medium") == 2);
  CHECK(service::domain::capture::SeverityRank("low") == 1);
  CHECK(service::domain::capture::SeverityRank("bogus") == 0);
  CHECK(service::domain::capture::IsOpenStatus("new"));
  CHECK(service::domain::capture::IsOpenStatus("working"));
  CHECK_FALSE(service::domain::capture::IsOpenStatus("resolved"));
  CHECK_FALSE(service::domain::capture::IsOpenStatus("silenced"));
}

TEST_CASE("urgent_critical: issues that are critical, or high and regressed or hard failures") {
  struct Row {
    const char* severity;
    const char* signal_class;
    const char* family;
    bool regression;
    bool urgent;
  };
  const Row rows[] = {
      {"critical", "issue", "", false, true},
      {"critical", "watch", "", false, false},
      {"critical", "diagnostic", "crash", true, false},
      {"high", "issue", "", false, false},
      {"high", "issue", "", true, true},
      {"high", "issue", "crash", false, true},
      {"high", "issue", "uncaught_error", false, true},
      {"high", "issue", "unhandled_rejection", false, true},
      {"high", "issue", "http_5xx", false, true},
      {"high", "issue", "http_4xx", false, false},
      {"medium", "issue", "crash", true, false},
      {"low", "issue", "", true, false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.severity);
    CAPTURE(r.signal_class);
    CAPTURE(r.family);
    CAPTURE(r.regression);
    CHECK(service::domain::capture::IsUrgentCritical(r.severity, r.signal_class, r.family, r.regression) ==
          r.urgent);
  }
}

TEST_CASE("ui_ux: interface words, people's non-crash reports, interaction events, never diagnostics") {
  struct Row {
    const char* title;
    const char* description;
    const char* signal_class;
    const char* family;
    const char* event_type;  // "" for none
    bool ui_ux;
  };
  const Row rows[] = {
      {"Checkout button does nothing", "", "issue", "uncaught_error", "", true},
      {"TypeError: x is undefined", "", "issue", "uncaught_error", "", false},
      {"Buttons look odd", "", "issue", "", "", false},  // whole words only: "Buttons" is not "button"
      {"The MODAL stays open", "", "issue", "", "", true},
      {"Error", "the layout breaks on phones", "issue", "", "", true},
      {"Prices look wrong", "", "issue", "user_report", "", true},
      {"App crashed when paying", "", "issue", "user_report", "", false},
      {"Request failed", "", "issue", "http_5xx", "click", true},
      {"Request failed", "", "issue", "http_5xx", "rage_click", true},
      {"Request failed", "", "issue", "http_5xx", "network", false},
      {"Debug button state", "", "diagnostic", "", "click", false},
      {"Texts unreadable in DARK mode", "", "watch", "", "", true},
  };
  for (const Row& r : rows) {
    CAPTURE(r.title);
    CAPTURE(r.description);
    CAPTURE(r.event_type);
    std::vector<Event> events;
    if (*r.event_type != '\0') events.push_back(Event{r.event_type, 0, boost::json::value()});
    CHECK(service::domain::capture::IsUiUx(r.title, r.description, r.signal_class, r.family, events) ==
          r.ui_ux);
  }
}

TEST_CASE("health score weighs critical 10, high 5, medium 2, low 1, regressions 20") {
  CHECK(service::domain::capture::HealthScore(0, 0, 0, 0, 0) == 0);
  CHECK(service::domain::capture::HealthScore(1, 0, 0, 0, 0) == 10);
  CHECK(service::domain::capture::HealthScore(0, 1, 0, 0, 0) == 5);
  CHECK(service::domain::capture::HealthScore(0, 0, 1, 0, 0) == 2);
  CHECK(service::domain::capture::HealthScore(0, 0, 0, 1, 0) == 1);
  CHECK(service::domain::capture::HealthScore(0, 0, 0, 0, 1) == 20);
  CHECK(service::domain::capture::HealthScore(2, 3, 4, 5, 1) == 20 + 15 + 8 + 5 + 20);
}

TEST_CASE("recommended score: severity, regression, recency, volume and users, closed groups score 0") {
  constexpr int64_t kHour = 3'600'000;
  const int64_t now = 1'800'000'000'000;
  service::domain::capture::RecommendInput base;
  base.now_ms = now;
  base.last_seen_ms = now;
  // A fresh low bug with no reports: 6 for severity, 20 for recency.
  base.max_severity_rank = 1;
  CHECK(service::domain::capture::RecommendedScore(base) == doctest::Approx(26));
  service::domain::capture::RecommendInput critical = base;
  critical.max_severity_rank = 4;
  CHECK(service::domain::capture::RecommendedScore(critical) == doctest::Approx(60));
  service::domain::capture::RecommendInput regressed = critical;
  regressed.any_regression = true;
  CHECK(service::domain::capture::RecommendedScore(regressed) == doctest::Approx(75));
  // Recency halves every 24 hours after the first hour.
  service::domain::capture::RecommendInput day_old = base;
  day_old.last_seen_ms = now - 24 * kHour;
  CHECK(service::domain::capture::RecommendedScore(day_old) == doctest::Approx(16));
  service::domain::capture::RecommendInput future = base;  // a clock skew counts as now
  future.last_seen_ms = now + kHour;
  CHECK(service::domain::capture::RecommendedScore(future) == doctest::Approx(26));
  // Volume saturates at 1,000 reports, users at 100.
  service::domain::capture::RecommendInput busy = base;
  busy.reports = 999;
  busy.users = 99;
  CHECK(service::domain::capture::RecommendedScore(busy) == doctest::Approx(51));
  busy.reports = 1'000'000;
  busy.users = 1'000'000;
  CHECK(service::domain::capture::RecommendedScore(busy) == doctest::Approx(51));
  service::domain::capture::RecommendInput some = base;
  some.reports = 9;  // log10(10) / 3 of 15
  CHECK(service::domain::capture::RecommendedScore(some) == doctest::Approx(31));
  service::domain::capture::RecommendInput closed = critical;
  closed.open = false;
  CHECK(service::domain::capture::RecommendedScore(closed) == 0);
}

TEST_CASE("recommended severity: the maximum, one step up for regressions or 100+ users") {
  CHECK(service::domain::capture::RecommendedSeverity(1, false, 0) == "low");
  CHECK(service::domain::capture::RecommendedSeverity(1, true, 0) == "medium");
  CHECK(service::domain::capture::RecommendedSeverity(2, false, 99) == "medium");
  CHECK(service::domain::capture::RecommendedSeverity(2, false, 100) == "high");
  CHECK(service::domain::capture::RecommendedSeverity(3, true, 500) == "critical");
  CHECK(service::domain::capture::RecommendedSeverity(4, true, 0) == "critical");
  CHECK(service::domain::capture::RecommendedSeverity(0, false, 0) == "low");
}
