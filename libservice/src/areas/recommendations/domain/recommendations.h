// The rules of recommended_bug (Spec 2 "Events": recommended_bug, emitted
// by "recommendation"; README "Recommended bug events"): which bug of a
// project is recommended now, and whether it is due.
//
//   the top spot   the first row of GET /v1/bugs/recommended for the project
//                  (recommended_score desc, last_seen desc, id; the bugs
//                  area scores it), when its bug is open (new, known or
//                  working: domain::capture::IsOpenStatus) and scores
//                  above 0. Only the top spot (kTopSpots = 1): the event
//                  says "this is the bug to look at next"; a top 3 would
//                  fire three times on subscription and again each time
//                  recency decay reshuffles places 2 to 4.
//   once per bug   a bug is emitted the first time it is seen at the top;
//                  it leaves and regains the top without a new event.
//   re-emission    when the bug was closed (a status history entry to a
//                  status that is not open: resolved or silenced) after
//                  its last emission and is at the top again (a regression
//                  or a reopen brought it back), it is emitted once more.
//
// Pure; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::recommendations {

inline constexpr std::string_view kEvent = "recommended_bug";
// How many places of the recommended list are watched.
inline constexpr int64_t kTopSpots = 1;
// The worker's default interval (SERVICE_RECOMMENDATION_INTERVAL).
inline constexpr int64_t kDefaultIntervalMs = 60'000;
inline constexpr int64_t kMinIntervalMs = 1'000;
inline constexpr int64_t kMaxIntervalMs = 3'600'000;

// The top row as the rules see it.
struct TopRow {
  std::string bug_id;
  std::string status;  // the bug's status
  double score = 0;
};
// True when `row` may be recommended: an open bug with a score above 0.
bool IsRecommendable(const TopRow& row);

// A status change of the bug (its history).
struct StatusChange {
  std::string new_status;
  int64_t at = 0;
};

// What to do with the top bug, given its last emission (nullopt: never)
// and its status history.
enum class Due { kFirst, kAgain, kNo };
Due EmissionDue(std::optional<int64_t> last_emitted_at, const std::vector<StatusChange>& history);

}  // namespace service::domain::recommendations
