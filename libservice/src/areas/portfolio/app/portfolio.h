// The portfolio (issue 28 item 4, server-contract "Portfolio"): one row per
// organization the caller belongs to, with the bug figures the bugs area
// already reads (its BugReadRepository and BugInsightRepository, no SQL of
// its own), and their totals. GET /v1/portfolio/overview.
//
// Figures per organization:
//   projects      its projects
//   openBugs      unmerged bugs with an open status (not resolved or
//                 silenced), signal classes issue and watch: the total of
//                 GET /v1/bugs?unresolved=true
//   criticalOpen  the same with severity critical
//   newBugs7d     bugs first seen in the last 7 UTC days, today included
//                 (every signal class: aggregates.total of
//                 GET /v1/bugs/stats?days=7)
//   lastBugSeen   last_seen of the most recently seen bug of GET /v1/bugs
//                 (issue and watch), or none
//
// Failure: driver errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/bugs/ports/bug_insight_repository.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::portfolio {

struct PortfolioDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::MembershipRepository* memberships = nullptr;
  ports::ProjectRepository* projects = nullptr;
  ports::BugReadRepository* bugs = nullptr;
  ports::BugInsightRepository* insights = nullptr;

  int64_t Now() const { return clock->NowMillis(); }
};

struct OrgRollup {
  std::string org_id;
  std::string name;
  std::string slug;
  std::string role;
  std::string plan;
  int64_t projects = 0;
  int64_t open_bugs = 0;
  int64_t critical_open = 0;
  int64_t new_bugs_7d = 0;
  std::optional<int64_t> last_bug_seen;
};

struct Portfolio {
  std::vector<OrgRollup> organizations;  // by name, then slug
  int64_t projects = 0;
  int64_t open_bugs = 0;
  int64_t critical_open = 0;
};

// Every organization `user_id` is a member of, read in one snapshot.
Result<Portfolio> Overview(const PortfolioDeps& deps, const std::string& user_id);

}  // namespace service::app::portfolio
