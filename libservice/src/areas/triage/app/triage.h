// Triage writes and collaboration (Spec 1 "Bugs: write", the bug rows of
// "States and transitions", "Notifications", "Notification preferences",
// team activity and "Organization usage"; issue 11).
//
// Every write runs in one Database::Write: its rows, watchers,
// notifications, emails (through the mail outbox) and chat posts (through
// the chat outbox) commit together or not at all. Stream events are
// published after the commit. A bug of another organization is 404 "Bug
// not found", never 403 or data. Request shapes arrive validated by the API
// layer (enumerations, lengths, caps); rules that need the database are
// checked here.
//
// Recipients: notifications reach active members only (account active,
// member of the bug's organization). The actor is not notified of their own
// comment or mention; status changes notify every active watcher and
// assignments the assignee, as Spec 1 words it.
//
// Thread-safety: every function is safe to call concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "app/transactional_events.h"
#include "app/workers.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/ai/ports/ai_provider.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/mail/app/mail.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "areas/triage/ports/bug_write_repository.h"
#include "areas/triage/ports/digest_repository.h"
#include "areas/triage/ports/triage_repository.h"
#include "ports/event_bus.h"
#include "ports/ids.h"
#include "ports/outbound_http.h"
#include "ports/outbox_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/options.h"
#include "service/status.h"

namespace service::app::agent_tokens {
struct AgentTokensDeps;
}  // namespace service::app::agent_tokens

namespace service::app::triage {

// What a project's alert policy says of an alert email now.
struct AlertGate {
  bool excluded = false;               // severity floor or an exclude matches: never sent
  std::optional<int64_t> quiet_until;  // in quiet hours: held until then
};

struct TriageDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::EventBus* bus = nullptr;
  Logger* log = nullptr;
  ports::BugWriteRepository* bugs = nullptr;
  ports::BugReadRepository* reads = nullptr;
  ports::TriageRepository* triage = nullptr;
  ports::DigestRepository* digests = nullptr;  // alert email batches (digests.h)
  ports::UserRepository* users = nullptr;
  ports::OrgRepository* orgs = nullptr;
  ports::MembershipRepository* memberships = nullptr;
  ports::ProjectRepository* projects = nullptr;
  ports::UsageRepository* usage = nullptr;
  // The live agent token count of GET /v1/org/usage (null: none counted).
  const app::agent_tokens::AgentTokensDeps* agent_tokens = nullptr;
  ports::OutboxRepository* outbox = nullptr;
  ports::OutboundHttp* http = nullptr;  // chat posts
  ports::AiProvider* ai = nullptr;      // null: AI not configured
  const app::mail::MailOutbox* mail = nullptr;
  // SERVICE_DIGEST_PERIODS: the length of an hourly and of a daily digest.
  int64_t digest_hourly_ms = 3'600'000;
  int64_t digest_daily_ms = 86'400'000;
  // SERVICE_RETENTION digest_batches: finished alert email batches are kept this long.
  int64_t digest_retention_ms = 90LL * 86'400'000;
  PlanLimitOverrides plan_limits;
  std::string public_url;  // links in emails and chat posts
  // Each domain event a triage write causes (regression, status_change,
  // comment, assigned, deleted) is published to these subscribers inside
  // the write's transaction (area kTriageEvents), so outbound deliveries
  // (Spec 2) are queued atomically with the change. Null: none.
  const TransactionalEvents* events = nullptr;
  // The project's alert policy for a new bug or regression alert email
  // (severity floor, excludes, quiet hours), as the integrations area
  // (which owns the policy) answers it now: a batch's alert events are
  // checked again before each send. Null: no policy (everything goes).
  std::function<Result<AlertGate>(ports::Tx& tx, const std::string& org_id, const std::string& bug_id,
                                  const std::string& event_type)>
      alert_gate;

  int64_t Now() const { return clock->NowMillis(); }
};

inline constexpr size_t kMaxCommentLength = 10'000;  // code points
inline constexpr size_t kMaxNoteLength = 2'000;      // code points
inline constexpr size_t kMaxBulkSelectors = 100;
inline constexpr size_t kMaxMergeSources = 20;
inline constexpr int64_t kDefaultNotificationLimit = 50;
inline constexpr int64_t kMaxNotificationLimit = 200;
inline constexpr int64_t kDefaultActivityLimit = 30;
inline constexpr int64_t kMaxActivityLimit = 100;
inline constexpr size_t kMaxChatWebhookLength = 2'000;

// ---- Bug writes (bug_writes.cpp) ----

// The fields of PATCH /v1/bugs/:id and of a bulk update. `assigned_to`:
// absent = unchanged; set to nullopt or "" = unassign; otherwise a user id
// that must be an active member of the actor's organization.
struct BugPatch {
  std::optional<std::string> status;    // one of the five (checked by the caller)
  std::optional<std::string> severity;  // critical, high, medium, low
  std::optional<std::optional<std::string>> assigned_to;
  std::optional<std::string> note;  // recorded with a status change
};

// PATCH /v1/bugs/:id. The assignee is validated first (400 ASSIGNEE_INVALID:
// malformed, nonexistent, foreign, pending or deactivated, all alike)
// before the bug is read; then 404 "Bug not found".
Status UpdateBug(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id,
                 const BugPatch& patch);

struct GroupRef {
  std::string project_id;
  std::string group_key;
};
struct BulkSelection {
  std::vector<std::string> ids;
  std::vector<GroupRef> group_refs;
  std::vector<std::string> group_keys;  // legacy: each must name one project
};
// PATCH /v1/bugs/bulk: returns how many bugs were updated. Order of checks:
// assignee (400 ASSIGNEE_INVALID), group-reference projects (404 "Project
// not found"), legacy keys (409 GROUP_KEY_AMBIGUOUS when a key spans
// projects), ids (404 "Bugs not found" when any id is not an unmerged bug
// of the organization), an empty selection (404 "Bugs not found"). Nothing
// is written unless every check passes; all of it is one transaction.
Result<int64_t> BulkUpdate(const TriageDeps& deps, const ConsoleActor& actor, const BulkSelection& selection,
                           const BugPatch& patch);

// DELETE /v1/bugs/:id: the bug and all its rows; a `deleted` stream event.
Status DeleteBug(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id);

// POST /v1/bugs/merge: returns the number of merged sources. `sources` are
// distinct and exclude the target (checked by the caller). 404 "Bugs not
// found" when any id is not an unmerged bug of the organization; 400 when
// they are not all in one project (an occurrence belongs to its project);
// 500 "Merge failed" when the database fails. One transaction; a `deleted`
// stream event per source.
Result<int64_t> MergeBugs(const TriageDeps& deps, const ConsoleActor& actor, const std::string& target,
                          const std::vector<std::string>& sources);

// ---- Comments and watching (collaboration.cpp) ----

// POST /v1/bugs/:id/comments. Subscribes the commenter; "@address" mentions
// of active members subscribe them and notify them (`mention`); other
// active watchers get a `comment` notification. A `comment` stream event.
Result<ports::CommentRecord> AddComment(const TriageDeps& deps, const ConsoleActor& actor,
                                        const std::string& bug_id, const std::string& content);
// POST / DELETE /v1/bugs/:id/watch.
Status SetWatching(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id, bool watch);

// ---- Notifications (notifications.cpp) ----

struct NotificationList {
  std::vector<ports::NotificationRow> notifications;
  int64_t unread_count = 0;
};
Result<NotificationList> ListNotifications(const TriageDeps& deps, const ConsoleActor& actor,
                                           bool unread_only, int64_t limit);
// 404 "Notification not found" for another member's or organization's.
Status MarkNotificationRead(const TriageDeps& deps, const ConsoleActor& actor, const std::string& id);
Status MarkAllNotificationsRead(const TriageDeps& deps, const ConsoleActor& actor);

struct PreferencesPatch {
  std::optional<std::string> email_level;
  std::optional<bool> chat_enabled;
  std::optional<std::optional<std::string>> chat_webhook;  // nullopt inside: cleared
  std::optional<bool> in_app_enabled;
  std::optional<std::string> digest_freq;
};
// The member's preferences in the actor's organization (defaults when never
// saved). A member reads and edits their own; admins anyone's (403
// otherwise); 404 "Member not found" when `user_id` is not a member.
Result<ports::NotificationPreferences> GetPreferences(const TriageDeps& deps, const ConsoleActor& actor,
                                                      const std::string& user_id);
Status UpdatePreferences(const TriageDeps& deps, const ConsoleActor& actor, const std::string& user_id,
                         const PreferencesPatch& patch);

// Sends the digests that are due (domain::triage::DigestDue) as one email
// per member and organization; items of members whose preferences no
// longer ask for a digest are sent at once. Tests call it directly.
Status SendDueDigests(const TriageDeps& deps);
// Posts queued chat messages (outbox kind "chat") to their webhooks through
// the outbound client (private destinations refused unless allowed), with
// retries and backoff. Tests call it directly.
Status SendChatPosts(
    const TriageDeps& deps, const std::function<bool()>& keep_going = [] { return true; });
// Registers the digest (every 60 s) and chat (every 1 s) workers.
void RegisterNotificationWorkers(const TriageDeps& deps, Workers& workers);

// ---- Activity and usage (activity.cpp) ----

Result<std::vector<ports::ActivityRecord>> TeamActivity(const TriageDeps& deps, const ConsoleActor& actor,
                                                        int64_t limit);

struct ResourceUsage {
  std::string name;    // projects, members, bugsThisMonth, integrations, agentTokens
  int64_t limit = -1;  // -1: unlimited
  int64_t current = 0;
  bool over() const { return limit >= 0 && current > limit; }
  bool at_limit() const { return limit >= 0 && current >= limit; }
};
struct OrgUsage {
  std::string plan;
  std::string period;  // the month counted, "YYYY-MM" (UTC)
  std::vector<ResourceUsage> resources;
  int64_t ai_requests = 0;  // this month
  int64_t prepaid_credits = 0;
  bool mcp = false;
  std::string mcp_source;  // plan, credits, none
};
// GET /v1/org/usage. 404 "Organization not found".
Result<OrgUsage> GetUsage(const TriageDeps& deps, const ConsoleActor& actor);

// ---- AI (analysis.cpp) ----

inline constexpr size_t kMaxAnalysisEvents = 500;

struct AnalysisStats {
  int64_t total_events = 0;
  int64_t errors = 0;
  int64_t network = 0;
  int64_t console = 0;
  int64_t user_actions = 0;
  std::vector<std::string> anomalies;  // anomaly types found
  int64_t duration_seconds = 0;
};
// POST /v1/bugs/:id/analyze: `analysis_json` is the validated analysis
// object (Spec 1's shape, every field present and typed).
struct BugAnalysis {
  std::string analysis_json;
  AnalysisStats stats;
};
// 404 "Bug not found"; 503 "AI service not configured"; 500 "Analysis
// failed" when the provider fails or answers something that is not an
// analysis of Spec 1's shape. Counted in the organization's AI usage
// (answered or not: the provider was asked).
Result<BugAnalysis> AnalyzeBug(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id);
// POST /v1/bugs/:id/events/:eventId/ai, mode "explain" or "fix". 404 "Event
// not found"; 503; 500 as above.
Result<std::string> AssessEvent(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id,
                                const std::string& event_id, const std::string& mode);
// Reads a model's analysis reply (a JSON object, possibly fenced) into the
// canonical object text, or kInternal "Analysis failed". Exposed for tests.
Result<std::string> ParseAnalysisReply(std::string_view content);

}  // namespace service::app::triage
