// BugReadRepository: the reads of Spec 1 "Bugs: read" over the bugs the
// capture area writes and the rows the triage area attaches to them.
//
// Every method names the caller's organization, and a bug, project or
// occurrence of another organization reads as absent (the routes answer
// 404, never 403 or data). Assignees are read under the active-member rule:
// a stored assignee who is not an active member of the bug's organization
// reads as null.
//
// Methods run inside the caller's Transactions::Read (REQUIRES).
// Thread-safety: stateless; safe from any thread. Failure: driver errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// A bug row as the reads show it (Spec 1 "Bug").
struct BugRecord {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string project_name;
  std::string fingerprint;
  std::string title;
  std::string description;
  std::string url;
  std::string severity;
  std::string status;
  std::string platform;
  int64_t report_count = 0;
  int64_t occurrence_count = 0;
  int64_t reporter_count = 0;
  int64_t affected_user_count = 0;
  int64_t affected_session_count = 0;
  std::string latest_release;
  std::string latest_environment;
  bool is_regression = false;
  std::string signal_class;
  std::string signal_family;
  std::string signal_reason;
  std::string classifier_confidence;
  std::optional<std::string> ai_summary_json;
  std::optional<std::string> assigned_to;    // active members only
  std::optional<std::string> assignee_name;  // their name, else email
  std::optional<std::string> agent_ack;
  std::optional<std::string> agent_ack_by;
  std::optional<std::string> agent_pr_url;
  std::optional<std::string> signature;
  std::string group_key;  // signature hash, else the bug id
  std::optional<std::string> grouping_v3_json;
  bool ui_ux = false;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  int64_t created_at = 0;
  int64_t updated_at = 0;
  std::optional<int64_t> resolved_at;
};

// The filters of GET /v1/bugs (validated by the caller).
struct BugFilter {
  std::string org_id;
  std::optional<std::string> project_id;
  std::optional<std::string> status;
  bool unresolved = false;  // open statuses only (domain::capture::IsOpenStatus)
  std::optional<std::string> severity;
  // Signal classes shown: empty = every class; else only these.
  std::vector<std::string> signal_classes;
  std::optional<std::string> search;    // case-insensitive substring of title or description
  std::optional<std::string> platform;  // any occurrence on it
  enum class Assignee { kAny, kUser, kUnassigned };
  Assignee assignee = Assignee::kAny;
  std::string assignee_id;  // kUser: matches only while an active member
  // deliveryFeed: "all", "urgent_critical" or "ui_ux" (domain/triage/vocabulary.h).
  std::string feed = "all";
  // Non-empty: only these bugs (the search's candidates).
  std::vector<std::string> bug_ids;
};

struct BugPage {
  std::vector<BugRecord> bugs;
  int64_t total = 0;
};

struct ReporterRecord {
  std::string email;
  int64_t report_count = 0;
  int64_t first_reported_at = 0;
  int64_t last_reported_at = 0;
};

// One occurrence's events as stored: a JSON array of {type, timestamp, data}.
struct OccurrenceEvents {
  std::string occurrence_id;
  int64_t occurred_at = 0;
  std::string events_json;
};

struct HistoryRecord {
  std::string id;
  std::optional<std::string> old_status;
  std::string new_status;
  std::optional<std::string> note;
  int64_t changed_at = 0;
  std::optional<std::string> changed_by_name;
  std::optional<std::string> changed_by_email;
};

struct CommentRecord {
  std::string id;
  std::string bug_id;
  std::string user_id;
  std::optional<std::string> user_name;
  std::optional<std::string> user_email;
  std::string content;
  int64_t created_at = 0;
};

// An open duplicate proposal between two bugs (Spec 1 "Duplicate candidate").
struct DuplicateCandidateRecord {
  std::string id;
  std::string other_bug_id;
  std::string other_title;
  int64_t score = 0;
  std::string reason;
  std::string confidence;
  std::string algorithm_version;
  std::string state;
  int64_t created_at = 0;
};

// One group of GET /v1/bugs/groups: bugs of one project sharing a groupKey
// (the signature hash, or the bug id when unsigned). Aggregates are over
// every unmerged member, whatever the filter that selected the group.
struct GroupRecord {
  std::string project_id;
  std::string project_name;
  std::string group_key;
  // The representative: the most recently seen member (ties: greater id).
  std::string sample_bug_id;
  std::string sample_title;
  std::string sample_description;
  std::optional<std::string> signature;
  std::string signal_reason;
  std::optional<std::string> grouping_v3_json;
  std::string status;  // the representative's
  int64_t instance_count = 0;
  int64_t report_count = 0;      // sum over members
  int64_t occurrence_count = 0;  // occurrence rows over members
  int64_t session_count = 0;     // distinct sessions over members
  int64_t user_count = 0;        // distinct userKeys over members
  int max_severity_rank = 0;     // domain::capture::SeverityRank of the maximum
  bool any_regression = false;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  std::vector<std::string> member_ids;      // ascending
  std::vector<std::string> platforms;       // ascending
  std::vector<std::string> assignees;       // active-member assignee ids, ascending
  std::vector<std::string> signal_classes;  // ascending
  int64_t duplicate_candidate_count = 0;    // open proposals reaching another group
};

// The sorts of GET /v1/bugs/groups.
enum class GroupSort { kLastSeen, kFirstSeen, kCount, kSeverity, kTitle, kSignal, kAssignee };

struct GroupPage {
  std::vector<GroupRecord> groups;
  int64_t total = 0;  // groups the filter selects
};

class BugReadRepository {
 public:
  BugReadRepository() = default;
  BugReadRepository(const BugReadRepository&) = delete;
  BugReadRepository& operator=(const BugReadRepository&) = delete;
  virtual ~BugReadRepository() = default;

  // GET /v1/bugs: the page in the order last_seen desc, project_id, id, and
  // the number of bugs the filter selects.
  virtual Result<BugPage> List(Tx& c, const BugFilter& filter, int64_t limit, int64_t offset) = 0;
  virtual Result<std::optional<BugRecord>> Find(Tx& c, const std::string& org_id,
                                                const std::string& bug_id) = 0;

  // GET /v1/bugs/groups: groups with any member the filter selects, sorted
  // by `sort` (descending when `descending`) with the spec's tie-breaks:
  // first_seen and last_seen break on project_id then group_key ascending;
  // the others on last_seen desc, then project_id, group_key ascending.
  virtual Result<GroupPage> Groups(Tx& c, const BugFilter& filter, GroupSort sort, bool descending,
                                   int64_t limit, int64_t offset) = 0;
  // The projects of the organization in which `group_key` names a group.
  virtual Result<std::vector<std::string>> GroupProjects(Tx& c, const std::string& org_id,
                                                         const std::string& group_key) = 0;
  // The members of one group, last_seen desc, id.
  virtual Result<BugPage> GroupInstances(Tx& c, const std::string& org_id, const std::string& project_id,
                                         const std::string& group_key, int64_t limit, int64_t offset) = 0;

  // Most reports first, then email.
  virtual Result<std::vector<ReporterRecord>> Reporters(Tx& c, const std::string& bug_id, int64_t limit) = 0;
  // The events of the bug's occurrences, newest occurrence first, at most
  // `max_occurrences` of them; `occurrence_id` narrows to one.
  virtual Result<std::vector<OccurrenceEvents>> Events(Tx& c, const std::string& bug_id,
                                                       const std::optional<std::string>& occurrence_id,
                                                       int64_t max_occurrences) = 0;
  // Newest first.
  virtual Result<std::vector<HistoryRecord>> History(Tx& c, const std::string& bug_id) = 0;
  // Oldest first.
  virtual Result<std::vector<CommentRecord>> Comments(Tx& c, const std::string& bug_id) = 0;
  virtual Result<bool> IsWatching(Tx& c, const std::string& bug_id, const std::string& user_id) = 0;
  // Proposals naming the bug on either side whose other bug still exists
  // unmerged, highest score first, then newest.
  virtual Result<std::vector<DuplicateCandidateRecord>> DuplicateCandidates(Tx& c, const std::string& bug_id,
                                                                            int64_t limit) = 0;
};

}  // namespace service::ports
