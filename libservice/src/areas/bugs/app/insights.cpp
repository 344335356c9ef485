#include "areas/bugs/app/insights.h"

#include <algorithm>
#include <boost/json.hpp>

#include "areas/bugs/domain/similarity.h"
#include "areas/capture/domain/text.h"
#include "areas/capture/domain/vocabulary.h"

namespace service::app::bugs {
namespace {

constexpr int64_t kDayMs = 86'400'000;

// The title words a similar bug may share: at most 8 of three or more
// characters (shorter ones match too much to narrow the candidates).
std::vector<std::string> CandidateWords(const std::string& title) {
  std::vector<std::string> out;
  for (auto& w : domain::bugs::TitleWords(title)) {
    if (w.size() >= 3 && out.size() < 8) out.push_back(std::move(w));
  }
  return out;
}

}  // namespace

namespace {

// A stats window being summed from day tallies.
struct WindowSums {
  ports::StatsWindow w;
  int64_t resolved_n = 0;
  int64_t resolved_ms = 0;

  void Add(const ports::BugDayTally& t) {
    w.total += t.n;
    const bool open = domain::capture::IsOpenStatus(t.status);
    if (open) w.open += t.n;
    if (t.status == "new") w.status_new += t.n;
    if (t.status == "known") w.status_known += t.n;
    if (t.status == "working") w.status_working += t.n;
    if (t.status == "resolved") w.status_resolved += t.n;
    if (t.status == "silenced") w.status_silenced += t.n;
    int64_t* sev = nullptr;
    int64_t* open_sev = nullptr;
    if (t.severity == "critical") {
      sev = &w.sev_critical;
      open_sev = &w.open_critical;
    } else if (t.severity == "high") {
      sev = &w.sev_high;
      open_sev = &w.open_high;
    } else if (t.severity == "medium") {
      sev = &w.sev_medium;
      open_sev = &w.open_medium;
    } else if (t.severity == "low") {
      sev = &w.sev_low;
      open_sev = &w.open_low;
    }
    if (sev != nullptr) *sev += t.n;
    if (open && open_sev != nullptr) *open_sev += t.n;
    if (open && t.is_regression) w.open_regressions += t.n;
    w.total_reports += t.reports;
    resolved_n += t.resolved_n;
    resolved_ms += t.resolved_ms;
  }

  ports::StatsWindow Done() {
    if (resolved_n > 0) {
      w.avg_resolution_hours =
          static_cast<double>(resolved_ms) / static_cast<double>(resolved_n) / static_cast<double>(3'600'000);
    }
    return w;
  }
};

}  // namespace

Result<StatsResult> GetStats(const BugsDeps& deps, const ports::BugScope& scope, int64_t days) {
  // The window is the last `days` UTC days, today included; the previous
  // period the `days` days before it.
  const int64_t now = deps.Now();
  const int64_t end_day = now / kDayMs + 1;
  const int64_t first_day = end_day - days;
  const int64_t from = first_day * kDayMs;
  StatsResult out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::vector<ports::BugDayTally> tallies,
                        deps.insights->BugDays(c, scope, first_day - days, end_day));
    SV_ASSIGN_OR_RETURN(auto occurrences, deps.insights->OccurrenceDays(c, scope, first_day, end_day));
    SV_ASSIGN_OR_RETURN(out.top_bugs, deps.insights->TopOpen(c, scope, from, now + 1, kStatsTopBugs));
    SV_ASSIGN_OR_RETURN(out.mttr_hours, deps.insights->MeanTimeToResolve(c, scope, first_day, end_day));
    WindowSums current, previous;
    // Every day of the window, zeros included.
    out.timeline.resize(static_cast<size_t>(days));
    for (int64_t d = first_day; d < end_day; ++d) {
      out.timeline[static_cast<size_t>(d - first_day)].day_start_ms = d * kDayMs;
    }
    for (const ports::BugDayTally& t : tallies) {
      if (t.day < first_day) {
        previous.Add(t);
        continue;
      }
      current.Add(t);
      out.timeline[static_cast<size_t>(t.day - first_day)].bug_count += t.n;
    }
    for (const auto& [day, count] : occurrences) {
      if (day >= first_day && day < end_day)
        out.timeline[static_cast<size_t>(day - first_day)].report_count += count;
    }
    out.current = current.Done();
    out.previous = previous.Done();
    return Status::Ok();
  }));
  const ports::StatsWindow& w = out.current;
  out.health_score = domain::capture::HealthScore(w.open_critical, w.open_high, w.open_medium, w.open_low,
                                                  w.open_regressions);
  return out;
}

Result<RecommendedPage> Recommend(const BugsDeps& deps, const ports::RecommendedFilter& filter,
                                  int64_t limit) {
  std::vector<ports::RecommendedGroup> groups;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(groups, deps.insights->RecommendedGroups(c, filter));
    return Status::Ok();
  }));
  const int64_t now = deps.Now();
  RecommendedPage page;
  page.total = static_cast<int64_t>(groups.size());
  page.rows.reserve(groups.size());
  for (auto& g : groups) {
    domain::capture::RecommendInput in;
    in.max_severity_rank = g.max_severity_rank;
    in.any_regression = g.any_regression;
    in.open = g.any_open;
    in.last_seen_ms = g.last_seen;
    in.now_ms = now;
    in.reports = g.report_total;
    in.users = g.user_count;
    RecommendedRow row;
    row.score = domain::capture::RecommendedScore(in);
    row.severity = domain::capture::RecommendedSeverity(g.max_severity_rank, g.any_regression, g.user_count);
    row.group = std::move(g);
    page.rows.push_back(std::move(row));
  }
  std::sort(page.rows.begin(), page.rows.end(), [](const RecommendedRow& a, const RecommendedRow& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.group.last_seen != b.group.last_seen) return a.group.last_seen > b.group.last_seen;
    return a.group.representative.id < b.group.representative.id;
  });
  if (static_cast<int64_t>(page.rows.size()) > limit) page.rows.resize(static_cast<size_t>(limit));
  return page;
}

Result<std::vector<ports::LiveRow>> LiveFeed(const BugsDeps& deps, const ports::BugScope& scope,
                                             const std::vector<std::string>& signal_classes, int64_t limit) {
  std::vector<ports::LiveRow> rows;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(rows, deps.insights->Live(c, scope, signal_classes, limit));
    return Status::Ok();
  }));
  return rows;
}

Result<ExportPlan> PlanExport(const BugsDeps& deps, const ports::ExportFilter& filter, int64_t limit) {
  ExportPlan plan;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(const int64_t n, deps.insights->ExportCount(c, filter, limit + 1));
    plan.rows = std::min(n, limit);
    plan.truncated = n > limit;
    if (plan.truncated) {
      // The limit-th row's last_seen: where the next export continues.
      SV_ASSIGN_OR_RETURN(std::optional<ports::ExportCursor> last,
                          deps.insights->ExportPosition(c, filter, limit - 1));
      if (last) plan.next_after_ms = last->last_seen;
    }
    return Status::Ok();
  }));
  return plan;
}

Result<std::vector<ports::ExportRow>> ExportPage(const BugsDeps& deps, const ports::ExportFilter& filter,
                                                 const ports::ExportCursor& cursor, int64_t limit) {
  std::vector<ports::ExportRow> rows;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(rows, deps.insights->ExportPage(c, filter, cursor, limit));
    return Status::Ok();
  }));
  return rows;
}

Result<std::vector<SimilarBug>> FindSimilar(const BugsDeps& deps, const ConsoleActor& actor,
                                            const std::string& bug_id) {
  std::vector<SimilarBug> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(c, actor.org_id, bug_id));
    if (!bug) return NotFound("Bug not found");
    SV_ASSIGN_OR_RETURN(std::vector<ports::SimilarCandidate> candidates,
                        deps.insights->SimilarCandidates(c, actor.org_id, bug_id, bug->fingerprint,
                                                         CandidateWords(bug->title), 200));
    for (auto& cand : candidates) {
      const int score =
          domain::bugs::SimilarityScore(bug->fingerprint, bug->title, cand.fingerprint, cand.title);
      if (score > 0) out.push_back({std::move(cand), score});
    }
    return Status::Ok();
  }));
  // Candidates arrive most recent first: a stable sort keeps that for ties.
  std::stable_sort(out.begin(), out.end(),
                   [](const SimilarBug& a, const SimilarBug& b) { return a.score > b.score; });
  if (static_cast<int64_t>(out.size()) > kSimilarTop) out.resize(kSimilarTop);
  return out;
}

Result<AnomalyReport> DetectBugAnomalies(const BugsDeps& deps, const ConsoleActor& actor,
                                         const std::string& bug_id) {
  std::vector<ports::OccurrenceEvents> rows;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(c, actor.org_id, bug_id));
    if (!bug) return NotFound("Bug not found");
    SV_ASSIGN_OR_RETURN(rows, deps.bugs->Events(c, bug_id, std::nullopt, kAnomalyOccurrences));
    return Status::Ok();
  }));
  AnomalyReport report;
  for (const ports::OccurrenceEvents& row : rows) {
    const std::vector<domain::capture::Event> events =
        domain::capture::StoredEvents(row.events_json, row.occurred_at);
    report.event_count += static_cast<int64_t>(events.size());
    for (auto& a : domain::bugs::DetectAnomalies(events)) report.anomalies.push_back(std::move(a));
  }
  std::stable_sort(report.anomalies.begin(), report.anomalies.end(), [](const auto& a, const auto& b) {
    return a.start_ms != b.start_ms ? a.start_ms < b.start_ms : a.type < b.type;
  });
  return report;
}

Result<EndUserPage> ListBugUsers(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id,
                                 int64_t limit, int64_t offset) {
  EndUserPage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(c, actor.org_id, bug_id));
    if (!bug) return NotFound("Bug not found");
    SV_ASSIGN_OR_RETURN(page.users, deps.insights->BugUsers(c, actor.org_id, bug_id, limit, offset));
    SV_ASSIGN_OR_RETURN(page.total, deps.insights->CountBugUsers(c, bug_id));
    return Status::Ok();
  }));
  return page;
}

Result<ReporterSummary> ReporterBugs(const BugsDeps& deps, const ConsoleActor& actor,
                                     const std::string& email) {
  ReporterSummary out;
  for (char c : email) out.email.push_back(domain::text::LowerAscii(c));
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out.bugs, deps.insights->ReporterBugs(c, actor.org_id, out.email));
    return Status::Ok();
  }));
  for (const auto& b : out.bugs) {
    if (!out.first_report || b.first_reported_at < *out.first_report) out.first_report = b.first_reported_at;
    if (!out.last_report || b.reported_at > *out.last_report) out.last_report = b.reported_at;
  }
  return out;
}

Result<std::vector<EndUserHit>> SearchEndUsers(const BugsDeps& deps, const ConsoleActor& actor,
                                               const std::string& q, int64_t limit) {
  if (q.size() < 2) return InvalidArgument("q must be at least 2 characters");
  std::vector<EndUserHit> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::vector<ports::EndUser> users,
                        deps.insights->SearchEndUsers(c, actor.org_id, q, limit));
    for (auto& u : users) {
      SV_ASSIGN_OR_RETURN(ports::EndUserActivity a,
                          deps.insights->EndUserActivityOf(c, actor.org_id, u.user_key));
      out.push_back({std::move(u), a.bug_count});
    }
    return Status::Ok();
  }));
  return out;
}

Result<EndUserTimeline> GetEndUserTimeline(const BugsDeps& deps, const ConsoleActor& actor,
                                           const std::string& user_key,
                                           const std::optional<std::string>& project_id, int64_t limit,
                                           int64_t offset) {
  EndUserTimeline out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::EndUser> user, deps.end_users->Find(c, actor.org_id, user_key));
    if (!user) return NotFound("End user not found");
    out.identity = std::move(*user);
    SV_ASSIGN_OR_RETURN(out.activity, deps.insights->EndUserActivityOf(c, actor.org_id, user_key));
    if (out.activity.bug_count == 0) return NotFound("End user not found");
    SV_ASSIGN_OR_RETURN(out.rows,
                        deps.insights->UserTimeline(c, actor.org_id, user_key, project_id, limit, offset));
    SV_ASSIGN_OR_RETURN(out.total, deps.insights->CountUserTimeline(c, actor.org_id, user_key, project_id));
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::bugs
