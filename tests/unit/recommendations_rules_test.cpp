// The rules of recommended_bug (areas/recommendations/domain): which top row
// may be recommended, and when a bug is emitted first, again or not.
#include <doctest/doctest.h>

#include "areas/recommendations/domain/recommendations.h"

namespace service::domain::recommendations {
namespace {

TEST_CASE("recommendations: an open bug with a score above 0 is recommendable") {
  struct Row {
    TopRow row;
    bool expected;
  };
  const Row rows[] = {
      {{"b1", "new", 55.2}, true},     {{"b1", "known", 12}, true},     {{"b1", "working", 0.01}, true},
      {{"b1", "resolved", 40}, false}, {{"b1", "silenced", 40}, false}, {{"b1", "new", 0}, false},
      {{"", "new", 40}, false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.row.status);
    CAPTURE(r.row.score);
    CHECK(IsRecommendable(r.row) == r.expected);
  }
  CHECK(kTopSpots == 1);
  CHECK(kEvent == "recommended_bug");
  CHECK(kDefaultIntervalMs == 60'000);
}

TEST_CASE("recommendations: first emission, none while it stays open, again after a close") {
  struct Row {
    const char* name;
    std::optional<int64_t> last;
    std::vector<StatusChange> history;  // newest first
    Due expected;
  };
  const Row rows[] = {
      {"never emitted", std::nullopt, {}, Due::kFirst},
      {"never emitted, with history", std::nullopt, {{"resolved", 10}}, Due::kFirst},
      {"emitted, no history", 100, {}, Due::kNo},
      {"emitted, only open changes after", 100, {{"working", 200}, {"known", 150}}, Due::kNo},
      {"closed before the emission", 100, {{"new", 90}, {"resolved", 50}}, Due::kNo},
      {"closed at the emission's instant", 100, {{"resolved", 100}}, Due::kNo},
      {"resolved after, reopened", 100, {{"new", 300}, {"resolved", 200}}, Due::kAgain},
      {"silenced after, reopened", 100, {{"known", 300}, {"silenced", 150}}, Due::kAgain},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    CHECK(EmissionDue(r.last, r.history) == r.expected);
  }
}

}  // namespace
}  // namespace service::domain::recommendations
