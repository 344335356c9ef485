// The agent handoff (Spec 2 "Agent handoff", "Agent notification row",
// "Agent settings", "States and transitions", "Events": agent_notify and
// agent_update): use cases behind
//   POST /v1/bugs/:id/notify-agent          NotifyAgent
//   GET  /v1/bugs/:id/agent-status          GetAgentStatus
//   POST /v1/bugs/:id/ack                   Ack        (also the MCP tool ack_bug)
//   GET/PUT /v1/projects/:id/agent-settings GetSettings, PutSettings
//   GET  /v1/projects/:id/agent-notifications  Listen  (also the MCP tool listen_handoffs)
// and auto-notify, the subscriber to capture's events (OnCaptureEvent).
//
// Channels of a bug's project, one notification row each (FanOut):
//   agent, webhook  active integrations subscribed to agent_notify: a
//                   delivery of agent_notify each (the integrations engine
//                   signs and sends it; the row shows its live outcome)
//   code_host       every active code_host integration: the delivery that
//                   opened (or is opening) the bug's issue is reused; else
//                   the issue is linked when it exists; else a delivery of
//                   agent_notify opens one
//   mcp             one row when an agent token may listen for the project
//                   (ports::AgentListeners::HasListener); queued until a
//                   listen request collects it
// None: one row with channel null and status no_channel.
//
// Who may (the routes check the same through their capability; the use
// cases check again for callers such as the MCP tools):
//   notify-agent    members with Capability::kNotifyAgent (admin, manager,
//                   member); agent tokens refused (the API answers 403)
//   agent-status    any member
//   ack             an agent token with `subscribe` or `claim_issue` and a
//                   grant for the bug's project (403 SCOPE_REQUIRED,
//                   PROJECT_GRANT_REQUIRED), or a member with kNotifyAgent
//   settings        read: any member; write: kManageProjects (admin,
//                   manager); support sessions and agent tokens: the API
//                   refuses them (403)
//   listen          an agent token with `subscribe` and a grant for the
//                   project, or any member
// Another organization's bug or project is 404.
//
// Failures: kNotFound "Bug not found" / "Project not found";
// kPermissionDenied (codes SCOPE_REQUIRED, PROJECT_GRANT_REQUIRED);
// kInvalidArgument (PR_URL_INVALID, "Invalid after"); database failures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/actor.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/handoff/domain/handoff.h"
#include "areas/handoff/ports/agent_listeners.h"
#include "areas/handoff/ports/handoff_repository.h"
#include "areas/integrations/app/integrations.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/event_bus.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/status.h"

namespace service::app::handoff {

struct HandoffDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  Logger* log = nullptr;
  ports::EventBus* bus = nullptr;  // wakes the delivery engine after a commit
  ports::HandoffRepository* handoff = nullptr;
  ports::AgentListeners* listeners = nullptr;
  ports::BugReadRepository* bugs = nullptr;
  ports::ProjectRepository* projects = nullptr;
  const integrations::IntegrationsDeps* integrations_deps = nullptr;  // channels and their deliveries

  int64_t Now() const { return clock->NowMillis(); }
};

// Who calls: a member (console session) or an agent token acting for its
// creator (actor: the creator's user, organization and role).
struct HandoffCaller {
  ConsoleActor actor;
  bool agent = false;
  std::string token_id;
  std::vector<std::string> scopes;
  std::vector<std::string> granted_projects;
};

// A row as answered (its linked delivery's live outcome applied).
struct RowView {
  ports::AgentNotificationRow row;
  std::string status;                   // live
  std::optional<int64_t> delivered_at;  // live
  std::optional<std::string> detail;    // live (a failed delivery's error)
};

struct NotifyResult {
  std::string bug_id;
  bool reused = false;
  bool no_channel = false;
  std::vector<RowView> rows;
};
Result<NotifyResult> NotifyAgent(const HandoffDeps& deps, const ConsoleActor& actor,
                                 const std::string& bug_id);

struct HistoryEntry {
  int64_t at = 0;
  std::string action;                 // notified, no_channel, working, pr_opened
  std::string trigger;                // notified, no_channel: auto or manual
  std::string by;                     // who asked or acknowledged ("" for auto)
  std::vector<std::string> channels;  // notified: the batch's channels
  std::optional<std::string> pr_url;  // pr_opened
  std::optional<std::string> note;    // working
};

struct AgentStatus {
  std::string bug_id;
  std::string state;                           // none, no_channel, notified, working, pr_opened
  std::optional<ports::NotifyBatch> notified;  // the latest batch
  std::vector<RowView> notified_rows;
  std::optional<ports::AgentState> agent;  // pickedUp / prOpened
  bool can_connect = false;                // the project has a channel now
  std::vector<HistoryEntry> history;       // newest first, at most kHistoryLimit
};
Result<AgentStatus> GetAgentStatus(const HandoffDeps& deps, const ConsoleActor& actor,
                                   const std::string& bug_id);

struct AckRequest {
  std::string action = "working";  // REQUIRES: "working" (the API validates)
  std::optional<std::string> pr_url;
  std::optional<std::string> note;
};
struct AckResult {
  AgentStatus status;
  // The agent_update this ack sent: "" when none was due (a repeated
  // working ack, the same prUrl); else working or pr_opened, with the
  // number of deliveries queued to the project's human destinations.
  std::string update_action;
  int64_t update_deliveries = 0;
};
// The first working ack and each new prUrl send one agent_update (agentAction
// pr_opened when the ack brings a new prUrl, else working) to the project's
// active integrations subscribed to agent_update, agent destinations left
// out (they are the agents' own channels).
Result<AckResult> Ack(const HandoffDeps& deps, const HandoffCaller& caller, const std::string& bug_id,
                      const AckRequest& request);

struct AgentSettings {
  std::string project_id;
  bool auto_notify = false;
  std::string min_severity = "high";
};
Result<AgentSettings> GetSettings(const HandoffDeps& deps, const ConsoleActor& actor,
                                  const std::string& project_id);
struct SettingsPatch {
  std::optional<bool> auto_notify;
  std::optional<std::string> min_severity;  // REQUIRES: a severity
};
Result<AgentSettings> PutSettings(const HandoffDeps& deps, const ConsoleActor& actor,
                                  const std::string& project_id, const SettingsPatch& patch);

struct ListenPage {
  std::string cursor;
  std::vector<ports::ListenRow> rows;
};
// Without `after`: the project's queued MCP rows of the last 24 hours; with
// it (a cursor of an earlier answer): the MCP rows created after it (any
// status) within the last 24 hours. At most kListenPageSize rows, oldest
// first; the queued ones become delivered. The cursor names the last row
// returned (none returned: `after` itself, or now).
Result<ListenPage> Listen(const HandoffDeps& deps, const HandoffCaller& caller, const std::string& project_id,
                          const std::optional<std::string>& after);

// The subscriber to the platform's transactional events (inside capture's
// transaction): a new_bug or regression written by capture in a project
// whose agent settings have autoNotify on, at or above minSeverity, is
// handed to the project's channels (trigger auto; the reuse window
// applies). It only writes rows (notification rows and queued
// deliveries); a failure among them is rolled back to a savepoint and
// recorded as one `failed` row, and never fails capture.
Status OnCaptureEvent(const HandoffDeps& deps, ports::Tx& tx, const ports::Event& event,
                      std::string_view area);

}  // namespace service::app::handoff
