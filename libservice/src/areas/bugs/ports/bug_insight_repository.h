// BugInsightRepository: the aggregate and people reads of Spec 1 "Bugs:
// read" beyond the lists: stats, recommended rows, the live feed, export
// pages, similar-bug candidates, a reporter's bugs, end users and their
// timelines, and the end users of one bug.
//
// Every method names the caller's organization; rows of another
// organization never appear. Methods run inside the caller's
// Transactions::Read (REQUIRES). Thread-safety: stateless; safe from any
// thread. Failure: driver errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// Which bugs a stats or export read covers.
struct BugScope {
  std::string org_id;
  std::optional<std::string> project_id;
  std::string feed = "all";  // deliveryFeed (domain/triage/vocabulary.h)
};

// Counts over the bugs first seen in [from_ms, to_ms).
struct StatsWindow {
  int64_t total = 0;
  int64_t open = 0;
  int64_t status_new = 0;
  int64_t status_known = 0;
  int64_t status_working = 0;
  int64_t status_resolved = 0;
  int64_t status_silenced = 0;
  int64_t sev_critical = 0;
  int64_t sev_high = 0;
  int64_t sev_medium = 0;
  int64_t sev_low = 0;
  int64_t total_reports = 0;
  // Mean of resolved_at - first_seen over those resolved; null without any.
  std::optional<double> avg_resolution_hours;
  // Open bugs among them by severity, and open regressions (health score).
  int64_t open_critical = 0;
  int64_t open_high = 0;
  int64_t open_medium = 0;
  int64_t open_low = 0;
  int64_t open_regressions = 0;
};

// Bugs first seen on one UTC day with one status, severity and regression
// flag (part of them: see BugInsightRepository::BugDays).
struct BugDayTally {
  int64_t day = 0;
  std::string status;
  std::string severity;
  bool is_regression = false;
  int64_t n = 0;
  int64_t reports = 0;      // their report_count
  int64_t resolved_n = 0;   // of them resolved, with resolved_at
  int64_t resolved_ms = 0;  // sum of resolved_at - first_seen over those
};

struct StatsDay {
  int64_t day_start_ms = 0;  // 00:00 UTC
  int64_t bug_count = 0;     // bugs first seen that day
  int64_t report_count = 0;  // occurrences that day
};

struct TopBug {
  std::string id;
  std::string title;
  std::string severity;
  std::string status;
  std::string url;
  int64_t report_count = 0;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
};

// A selected group of GET /v1/bugs/recommended with its aggregates over
// every unmerged member (filters never shrink them).
struct RecommendedGroup {
  BugRecord representative;  // most recently seen member (ties: greater id)
  int64_t instance_count = 0;
  int64_t report_total = 0;
  int64_t occurrence_count = 0;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  int max_severity_rank = 0;
  bool any_regression = false;
  bool any_open = false;
  std::vector<std::string> member_ids;
  std::vector<std::string> assignees;  // active members, ascending
  std::vector<std::string> signal_classes;
  std::vector<std::string> signal_families;
  std::vector<std::string> platforms;
  std::vector<std::string> browsers;
  std::vector<std::string> oses;
  int64_t session_count = 0;
  int64_t user_count = 0;
};

// The filters of GET /v1/bugs/recommended, matched at group level.
struct RecommendedFilter {
  std::string org_id;
  std::optional<std::string> project_id;
  std::optional<std::string> search;        // any member's title or description
  std::optional<std::string> severity;      // the group's maximum severity
  std::vector<std::string> signal_classes;  // any member's; empty = all
  std::optional<std::string> platform;      // any member's occurrence
  BugFilter::Assignee assignee = BugFilter::Assignee::kAny;
  std::string assignee_id;
  std::optional<int64_t> since_ms;  // groups seen at or after
};

// A row of the live feed: an occurrence with its bug's fields.
struct LiveRow {
  Occurrence occurrence;
  std::string title;
  std::string status;
  std::string severity;
  std::string signal_class;
  std::string signal_family;
  std::string signal_reason;
  int64_t report_count = 0;
  std::string project_name;
};

struct ExportRow {
  std::string id;
  std::string title;
  std::string severity;
  std::string status;
  int64_t report_count = 0;
  std::string url;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  int64_t created_at = 0;
};

// Export selection: bugs of `scope` with the listed statuses and
// severities (empty: any) whose last_seen is after `after_ms`.
struct ExportFilter {
  BugScope scope;
  std::vector<std::string> statuses;
  std::vector<std::string> severities;
  int64_t after_ms = -1;
};
// Export keyset position: rows after (last_seen, id).
struct ExportCursor {
  int64_t last_seen = -1;
  std::string id;
};

struct SimilarCandidate {
  std::string id;
  std::string title;
  std::string severity;
  std::string status;
  std::string url;
  int64_t report_count = 0;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  std::string fingerprint;
};

struct ReporterBug {
  std::string id;
  std::string title;
  std::string severity;
  std::string status;
  std::string url;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  int64_t report_count = 0;       // this reporter's reports of the bug
  int64_t reported_at = 0;        // this reporter's latest report
  int64_t first_reported_at = 0;  // this reporter's first report
};

struct TimelineRow {
  Occurrence occurrence;
  std::string title;
  std::string severity;
  std::string status;
  std::string signal_class;
  std::string project_name;
};

// Aggregates of one end user over their occurrences.
struct EndUserActivity {
  std::vector<std::string> emails;  // distinct reporter emails, ascending
  int64_t bug_count = 0;
  int64_t session_count = 0;
};

class BugInsightRepository {
 public:
  BugInsightRepository() = default;
  BugInsightRepository(const BugInsightRepository&) = delete;
  BugInsightRepository& operator=(const BugInsightRepository&) = delete;
  virtual ~BugInsightRepository() = default;

  // GET /v1/bugs/stats reads counters kept on write, over whole UTC days
  // (day = ms / 86,400,000) in [first_day, end_day): the bugs first seen
  // on each day, as stored rows (a day, status, severity and regression
  // flag may span several rows; the caller sums them).
  virtual Result<std::vector<BugDayTally>> BugDays(Tx& c, const BugScope& scope, int64_t first_day,
                                                   int64_t end_day) = 0;
  // Occurrences per day in [first_day, end_day), ascending; days without
  // any are left out.
  virtual Result<std::vector<std::pair<int64_t, int64_t>>> OccurrenceDays(Tx& c, const BugScope& scope,
                                                                          int64_t first_day,
                                                                          int64_t end_day) = 0;
  // Open bugs seen in [from_ms, to_ms), most reports first, then last_seen
  // desc, id.
  virtual Result<std::vector<TopBug>> TopOpen(Tx& c, const BugScope& scope, int64_t from_ms, int64_t to_ms,
                                              int64_t limit) = 0;
  // Mean hours from first_seen to resolved_at over the bugs resolved on
  // the days [first_day, end_day).
  virtual Result<std::optional<double>> MeanTimeToResolve(Tx& c, const BugScope& scope, int64_t first_day,
                                                          int64_t end_day) = 0;

  // GET /v1/bugs/recommended: every selected group (the caller scores,
  // orders and limits them).
  virtual Result<std::vector<RecommendedGroup>> RecommendedGroups(Tx& c, const RecommendedFilter& filter) = 0;

  // GET /v1/bugs/live: newest occurrences first (occurred_at desc, id desc).
  virtual Result<std::vector<LiveRow>> Live(Tx& c, const BugScope& scope,
                                            const std::vector<std::string>& signal_classes,
                                            int64_t limit) = 0;

  // GET /v1/bugs/export: how many rows the filter selects (at most `cap`),
  // and the page after `cursor` in the order last_seen, id.
  virtual Result<int64_t> ExportCount(Tx& c, const ExportFilter& filter, int64_t cap) = 0;
  // The position of the row at `index` (0-based) in that order, if any.
  virtual Result<std::optional<ExportCursor>> ExportPosition(Tx& c, const ExportFilter& filter,
                                                             int64_t index) = 0;
  virtual Result<std::vector<ExportRow>> ExportPage(Tx& c, const ExportFilter& filter,
                                                    const ExportCursor& cursor, int64_t limit) = 0;

  // GET /v1/bugs/:id/similar: the organization's other unmerged bugs that
  // share the first four fingerprint characters or a title word of
  // `words` (lower-cased), at most `limit` of them, most recent first.
  virtual Result<std::vector<SimilarCandidate>> SimilarCandidates(Tx& c, const std::string& org_id,
                                                                  const std::string& bug_id,
                                                                  const std::string& fingerprint,
                                                                  const std::vector<std::string>& words,
                                                                  int64_t limit) = 0;

  // GET /v1/bugs/reporters/:email/bugs: the bugs `email` (lower-cased)
  // reported in the organization, latest report first, then id.
  virtual Result<std::vector<ReporterBug>> ReporterBugs(Tx& c, const std::string& org_id,
                                                        const std::string& email) = 0;

  // GET /v1/end-users: end users whose userKey, endUserId or email starts
  // with `prefix` (case-insensitive for emails), latest seen first.
  virtual Result<std::vector<EndUser>> SearchEndUsers(Tx& c, const std::string& org_id,
                                                      const std::string& prefix, int64_t limit) = 0;
  // Distinct bugs and sessions of one end user, and their reporter emails.
  virtual Result<EndUserActivity> EndUserActivityOf(Tx& c, const std::string& org_id,
                                                    const std::string& user_key) = 0;
  // GET /v1/end-users/:userKey/timeline: newest first (occurred_at desc, id).
  virtual Result<std::vector<TimelineRow>> UserTimeline(Tx& c, const std::string& org_id,
                                                        const std::string& user_key,
                                                        const std::optional<std::string>& project_id,
                                                        int64_t limit, int64_t offset) = 0;
  virtual Result<int64_t> CountUserTimeline(Tx& c, const std::string& org_id, const std::string& user_key,
                                            const std::optional<std::string>& project_id) = 0;

  // GET /v1/bugs/:id/users: the bug's end users, latest seen first, then
  // userKey; the organization-wide end-user rows of those keys. Nothing when
  // the bug is not `org_id`'s.
  virtual Result<std::vector<EndUser>> BugUsers(Tx& c, const std::string& org_id, const std::string& bug_id,
                                                int64_t limit, int64_t offset) = 0;
  virtual Result<int64_t> CountBugUsers(Tx& c, const std::string& bug_id) = 0;
};

}  // namespace service::ports
