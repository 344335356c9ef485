#include "areas/capture/app/retention.h"

#include <string>
#include <vector>

#include "app/retention.h"
#include "areas/operations/domain/plans.h"

namespace service::app::capture {

Result<int64_t> SweepOccurrences(const CaptureDeps& deps, int64_t batch_rows) {
  constexpr int64_t kDayMs = 86'400'000;
  constexpr int64_t kOrgPage = 200;
  const int64_t now = deps.Now();
  int64_t total = 0;
  std::string after;
  for (;;) {
    std::vector<ports::OccurrenceRepository::OrganizationPlan> page;
    SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(page, deps.occurrences->OrganizationPlans(tx, after, kOrgPage));
      return Status::Ok();
    }));
    for (const auto& org : page) {
      const int64_t days = domain::operations::LimitsFor(org.plan, deps.plan_limits).retention_days;
      if (days == domain::operations::kUnlimited) continue;
      const int64_t before = now - days * kDayMs;
      SV_ASSIGN_OR_RETURN(int64_t n, SweepInBatches(*deps.db, batch_rows, [&](ports::Tx& tx, int64_t limit) {
                            return deps.occurrences->DeleteOlderThan(tx, org.org_id, before, limit);
                          }));
      total += n;
    }
    if (static_cast<int64_t>(page.size()) < kOrgPage) break;
    after = page.back().org_id;
  }
  return total;
}

}  // namespace service::app::capture
