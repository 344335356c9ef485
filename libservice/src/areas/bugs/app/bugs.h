// Triage reads (Spec 1 "Bugs: read"; issue 10): the bug list, one bug and
// its parts (occurrences, events, history, comments, watching).
//
// Every read names the actor's organization: a bug of another organization
// is 404 "Bug not found", never 403 or data. Filters arrive validated (the
// API layer checks enumerations and the one-value rule).
//
// Thread-safety: safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "areas/bugs/ports/bug_insight_repository.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/bugs/ports/bug_search_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::bugs {

// What the triage reads need.
class SearchIndex;  // app/bugs/search.h

// A bug's verified-fixed state, as the verification area (above) reads it
// (README "Verification"): its latest promotion, `verified_fixed` while
// current, else `unproven` with the reason (recurrence, regrouped, ...).
struct VerifiedFix {
  std::string promotion_id;
  std::string state;  // verified_fixed, unproven
  std::optional<std::string> reason;
  int64_t promoted_at = 0;
  std::vector<std::string> receipt_ids;
};
// Called inside the single-bug read's transaction with the bug read;
// nullopt when the bug was never promoted. Unset: no verification area.
using VerifiedFixRead =
    std::function<Result<std::optional<VerifiedFix>>(ports::Tx& tx, const ports::BugRecord& bug)>;

struct BugsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::BugReadRepository* bugs = nullptr;
  ports::BugInsightRepository* insights = nullptr;
  ports::OccurrenceRepository* occurrences = nullptr;
  ports::EndUserRepository* end_users = nullptr;
  ports::BugSearchRepository* search = nullptr;
  SearchIndex* search_index = nullptr;  // owned by the bugs module
  VerifiedFixRead verified_fix;         // set by the verification module, else empty

  int64_t Now() const { return clock->NowMillis(); }
};

inline constexpr int64_t kDefaultPageSize = 50;
inline constexpr int64_t kMaxPageSize = 200;
inline constexpr int64_t kDefaultEventLimit = 100;
inline constexpr int64_t kMaxEventLimit = 1000;
// Single-bug read: how many reporters and recent occurrences it carries.
inline constexpr int64_t kDetailReporters = 20;
inline constexpr int64_t kDetailOccurrences = 10;
inline constexpr int64_t kDetailCandidates = 20;

// GET /v1/bugs.
Result<ports::BugPage> ListBugs(const BugsDeps& deps, const ports::BugFilter& filter, int64_t limit,
                                int64_t offset);

struct BugDetail {
  ports::BugRecord bug;
  std::vector<ports::ReporterRecord> reporters;
  std::vector<ports::Occurrence> recent_occurrences;
  std::vector<ports::DuplicateCandidateRecord> duplicate_candidates;  // up to kDetailCandidates
  std::optional<VerifiedFix> verified_fix;
};

// GET /v1/bugs/groups.
Result<ports::GroupPage> ListGroups(const BugsDeps& deps, const ports::BugFilter& filter,
                                    ports::GroupSort sort, bool descending, int64_t limit, int64_t offset);

struct GroupInstances {
  std::string project_id;
  ports::BugPage page;
};
// GET /v1/bugs/groups/:groupKey/instances. Without `project_id`, a key that
// names groups in several of the organization's projects is 409
// GROUP_KEY_AMBIGUOUS; a key naming no group (in `project_id` when given)
// is 404 "Group not found".
Result<GroupInstances> ListGroupInstances(const BugsDeps& deps, const ConsoleActor& actor,
                                          const std::string& group_key,
                                          const std::optional<std::string>& project_id, int64_t limit,
                                          int64_t offset);

// The project of a bug of the actor's organization (an agent token's
// project grants are checked against it). 404 "Bug not found".
Result<std::string> BugProject(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id);

// GET /v1/bugs/:id.
Result<BugDetail> GetBug(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id);

struct OccurrencePage {
  std::vector<ports::Occurrence> occurrences;
  int64_t total = 0;
};
// GET /v1/bugs/:id/occurrences.
Result<OccurrencePage> ListOccurrences(const BugsDeps& deps, const ConsoleActor& actor,
                                       const std::string& bug_id, const std::optional<std::string>& user_key,
                                       int64_t limit, int64_t offset);

// One event of a bug (Spec 1 "Bug event"). `id` is "<occurrenceId>:<index>",
// stable for the life of the occurrence.
struct BugEvent {
  std::string id;
  std::string occurrence_id;
  std::string event_type;
  int64_t timestamp = 0;
  std::string data_json;  // the event's data as submitted ("null" when absent)
};
// GET /v1/bugs/:id/events: events of the newest occurrences first (each
// occurrence's events in submitted order), narrowed to `type` (exact) and
// `occurrence_id`, at most `limit`.
Result<std::vector<BugEvent>> ListEvents(const BugsDeps& deps, const ConsoleActor& actor,
                                         const std::string& bug_id, const std::optional<std::string>& type,
                                         const std::optional<std::string>& occurrence_id, int64_t limit);

// GET /v1/bugs/:id/history (newest first).
Result<std::vector<ports::HistoryRecord>> ListHistory(const BugsDeps& deps, const ConsoleActor& actor,
                                                      const std::string& bug_id);
// GET /v1/bugs/:id/comments (oldest first).
Result<std::vector<ports::CommentRecord>> ListComments(const BugsDeps& deps, const ConsoleActor& actor,
                                                       const std::string& bug_id);
// GET /v1/bugs/:id/watching.
Result<bool> IsWatching(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id);

}  // namespace service::app::bugs
