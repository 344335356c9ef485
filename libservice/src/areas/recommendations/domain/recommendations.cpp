#include "areas/recommendations/domain/recommendations.h"

#include "areas/capture/domain/vocabulary.h"

namespace service::domain::recommendations {

bool IsRecommendable(const TopRow& row) {
  return !row.bug_id.empty() && row.score > 0 && domain::capture::IsOpenStatus(row.status);
}

Due EmissionDue(std::optional<int64_t> last_emitted_at, const std::vector<StatusChange>& history) {
  if (!last_emitted_at) return Due::kFirst;
  for (const StatusChange& c : history) {
    if (c.at > *last_emitted_at && !domain::capture::IsOpenStatus(c.new_status)) return Due::kAgain;
  }
  return Due::kNo;
}

}  // namespace service::domain::recommendations
