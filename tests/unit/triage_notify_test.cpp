// Notification rules without I/O (domain/triage/notify.h): email routing by
// preferences, digest periods and due times, and @-mentions in comments.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/triage/domain/notify.h"

namespace triage = service::domain::triage;
using triage::EmailRoute;

TEST_CASE("email routing follows emailLevel, then digestFreq") {
  struct Row {
    const char* level;
    const char* freq;
    EmailRoute route;
    int64_t period_ms;
  };
  const Row rows[] = {
      {"full", "realtime", EmailRoute::kNow, 0},
      {"notification", "realtime", EmailRoute::kNow, 0},
      {"full", "hourly", EmailRoute::kDigest, 3'600'000},
      {"notification", "daily", EmailRoute::kDigest, 86'400'000},
      {"digest", "realtime", EmailRoute::kDigest, 3'600'000},
      {"digest", "hourly", EmailRoute::kDigest, 3'600'000},
      {"digest", "daily", EmailRoute::kDigest, 86'400'000},
      {"off", "realtime", EmailRoute::kNone, 0},
      {"off", "daily", EmailRoute::kNone, 0},
      {"bogus", "realtime", EmailRoute::kNone, 0},
  };
  for (const Row& r : rows) {
    CAPTURE(r.level);
    CAPTURE(r.freq);
    CHECK(triage::RouteEmail(r.level, r.freq) == r.route);
    CHECK(triage::DigestPeriodMs(r.level, r.freq) == r.period_ms);
  }
}

TEST_CASE("a digest is due once the UTC hour or day of its oldest item is over") {
  constexpr int64_t kHour = 3'600'000, kDay = 24 * kHour;
  constexpr int64_t ten = 1768471200000;  // 2026-01-15T10:00:00Z
  struct Row {
    int64_t period, oldest, now;
    bool due;
  };
  const Row rows[] = {
      {kHour, ten + 5 * 60'000, ten + 59 * 60'000, false},
      {kHour, ten + 5 * 60'000, ten + kHour, true},
      {kHour, ten, ten + kHour - 1, false},
      {kDay, ten, ten + 13 * kHour, false},  // 23:00 the same day
      {kDay, ten, ten + 14 * kHour, true},   // midnight UTC
      {0, ten, ten, true},                   // no digest any more: send now
  };
  for (const Row& r : rows) {
    CAPTURE(r.now - r.oldest);
    CHECK(triage::DigestDue(r.period, r.oldest, r.now) == r.due);
  }
}

TEST_CASE("mentions are @-prefixed addresses, lower-cased, distinct, without trailing punctuation") {
  struct Row {
    const char* text;
    std::vector<std::string> emails;
  };
  const Row rows[] = {
      {"@Ann@Example.com please look", {"ann@example.com"}},
      {"cc @bob@example.com, @ann@example.com.", {"bob@example.com", "ann@example.com"}},
      {"@ann@example.com and again @ANN@example.com", {"ann@example.com"}},
      {"write to ann@example.com", {}},  // no mention: no leading @
      {"@ann@localhost", {}},            // a domain needs a dot
      {"@@ann@example.com", {"ann@example.com"}},
      {"x@ann@example.com", {}},  // @ inside a word
      {"(@first.last+tag@sub.example.org)", {"first.last+tag@sub.example.org"}},
      {"@ann@example..com", {}},
      {"@", {}},
      {"", {}},
  };
  for (const Row& r : rows) {
    CAPTURE(r.text);
    CHECK(triage::MentionedEmails(r.text) == r.emails);
  }
  std::string many;
  for (int i = 0; i < 80; ++i) many += "@u" + std::to_string(i) + "@example.com ";
  CHECK(triage::MentionedEmails(many).size() == 50);
}

TEST_CASE("preference vocabularies") {
  for (const char* s : {"full", "notification", "digest", "off"}) CHECK(triage::IsEmailLevel(s));
  CHECK_FALSE(triage::IsEmailLevel("all"));
  for (const char* s : {"realtime", "hourly", "daily"}) CHECK(triage::IsDigestFreq(s));
  CHECK_FALSE(triage::IsDigestFreq("weekly"));
  for (const char* s : {"assigned", "comment", "mention", "status_changed"})
    CHECK(triage::IsNotificationType(s));
  CHECK_FALSE(triage::IsNotificationType("regression"));
}
