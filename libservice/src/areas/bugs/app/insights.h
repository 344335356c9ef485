// Triage reads beyond the lists (Spec 1 "Bugs: read"; issue 10): stats,
// recommended rows, the live feed, export, similar bugs, a bug's end users,
// a reporter's bugs, end-user search and timelines.
//
// Every read names the actor's organization; another organization's bug or
// end user reads as 404. Filters arrive validated by the API layer.
// Thread-safety: safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "areas/bugs/app/bugs.h"
#include "areas/bugs/domain/anomalies.h"
#include "areas/bugs/ports/bug_insight_repository.h"
#include "service/status.h"

namespace service::app::bugs {

// GET /v1/bugs/stats over the last `days` days (1-365) and the period of
// equal length before. The timeline has one entry per UTC day of the
// window, oldest first, zeros included.
inline constexpr int64_t kStatsTopBugs = 10;
struct StatsResult {
  ports::StatsWindow current;
  ports::StatsWindow previous;
  std::vector<ports::StatsDay> timeline;
  std::vector<ports::TopBug> top_bugs;
  std::optional<double> mttr_hours;  // bugs resolved within the window
  int64_t health_score = 0;          // over the window's open bugs
};
Result<StatsResult> GetStats(const BugsDeps& deps, const ports::BugScope& scope, int64_t days);

// GET /v1/bugs/recommended: one row per selected group, ordered
// recommended_score desc, last_seen desc, id (domain/triage/vocabulary.h
// documents the score).
struct RecommendedRow {
  ports::RecommendedGroup group;
  double score = 0;
  std::string severity;  // recommended severity
};
struct RecommendedPage {
  std::vector<RecommendedRow> rows;
  int64_t total = 0;  // selected groups
};
Result<RecommendedPage> Recommend(const BugsDeps& deps, const ports::RecommendedFilter& filter,
                                  int64_t limit);

// GET /v1/bugs/live.
Result<std::vector<ports::LiveRow>> LiveFeed(const BugsDeps& deps, const ports::BugScope& scope,
                                             const std::vector<std::string>& signal_classes, int64_t limit);

// GET /v1/bugs/export: the plan decided before the first byte (row count,
// whether the limit cut the selection, the cursor to continue from), then
// pages in the order last_seen, id.
inline constexpr int64_t kExportDefaultLimit = 10'000;
inline constexpr int64_t kExportMaxLimit = 50'000;
inline constexpr int64_t kExportPageRows = 1'000;
struct ExportPlan {
  int64_t rows = 0;
  bool truncated = false;
  std::optional<int64_t> next_after_ms;  // last_seen of the last row when truncated
};
Result<ExportPlan> PlanExport(const BugsDeps& deps, const ports::ExportFilter& filter, int64_t limit);
Result<std::vector<ports::ExportRow>> ExportPage(const BugsDeps& deps, const ports::ExportFilter& filter,
                                                 const ports::ExportCursor& cursor, int64_t limit);

// GET /v1/bugs/:id/similar: the top 5 by domain::bugs::SimilarityScore
// (ties: more recent first), scores above 0 only.
inline constexpr int64_t kSimilarTop = 5;
struct SimilarBug {
  ports::SimilarCandidate bug;
  int score = 0;
};
Result<std::vector<SimilarBug>> FindSimilar(const BugsDeps& deps, const ConsoleActor& actor,
                                            const std::string& bug_id);

// GET /v1/bugs/:id/anomalies: domain::bugs::DetectAnomalies over each of
// the bug's newest kAnomalyOccurrences occurrences (events of different
// occurrences never form one burst), ordered by start time, then type.
inline constexpr int64_t kAnomalyOccurrences = 10;
struct AnomalyReport {
  std::vector<domain::bugs::Anomaly> anomalies;
  int64_t event_count = 0;  // events examined
};
Result<AnomalyReport> DetectBugAnomalies(const BugsDeps& deps, const ConsoleActor& actor,
                                         const std::string& bug_id);

// GET /v1/bugs/:id/users.
struct EndUserPage {
  std::vector<ports::EndUser> users;
  int64_t total = 0;
};
Result<EndUserPage> ListBugUsers(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id,
                                 int64_t limit, int64_t offset);

// GET /v1/bugs/reporters/:email/bugs (`email` compared case-insensitively).
struct ReporterSummary {
  std::string email;
  std::vector<ports::ReporterBug> bugs;
  std::optional<int64_t> first_report;
  std::optional<int64_t> last_report;
};
Result<ReporterSummary> ReporterBugs(const BugsDeps& deps, const ConsoleActor& actor,
                                     const std::string& email);

// GET /v1/end-users?q= (q of at least 2 characters: 400 otherwise).
inline constexpr int64_t kEndUserSearchDefault = 20;
inline constexpr int64_t kEndUserSearchMax = 100;
struct EndUserHit {
  ports::EndUser user;
  int64_t bug_count = 0;
};
Result<std::vector<EndUserHit>> SearchEndUsers(const BugsDeps& deps, const ConsoleActor& actor,
                                               const std::string& q, int64_t limit);

// GET /v1/end-users/:userKey/timeline: 404 when the key has no occurrences
// in the organization.
struct EndUserTimeline {
  ports::EndUser identity;
  ports::EndUserActivity activity;
  std::vector<ports::TimelineRow> rows;
  int64_t total = 0;
};
Result<EndUserTimeline> GetEndUserTimeline(const BugsDeps& deps, const ConsoleActor& actor,
                                           const std::string& user_key,
                                           const std::optional<std::string>& project_id, int64_t limit,
                                           int64_t offset);

}  // namespace service::app::bugs
