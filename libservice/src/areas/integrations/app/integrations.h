// Integrations and outbound delivery (Spec 2 "Integrations", "Delivery",
// "Events", "Delivery rules", the alert policy, preview and overview).
//
//   integrations.cpp  list, create, update, delete, rotate, test, deliveries, retry
//   delivery.cpp      the outbox hook (rows written in the event's transaction),
//                     preparing and sending one delivery, the delivery engine
//   alerts.cpp        alert policy, preview, overview
//
// Failures are Status codes the API maps: kInvalidArgument (400, details in
// the payload), kNotFound (404), kPermissionDenied (403), kPaymentRequired
// (402), kFailedPrecondition (409), kBadGateway (502).
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "app/workers.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/integrations/app/secret_box.h"
#include "areas/integrations/domain/alert_policy.h"
#include "areas/integrations/domain/integration.h"
#include "areas/integrations/ports/integration_repository.h"
#include "areas/operations/domain/plans.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "areas/triage/app/triage.h"
#include "areas/triage/ports/triage_repository.h"
#include "ports/event_bus.h"
#include "ports/ids.h"
#include "ports/outbound_http.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/options.h"
#include "util/metrics.h"

namespace service::app::integrations {

struct IntegrationsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  Logger* log = nullptr;
  ports::OutboundHttp* http = nullptr;
  ports::IntegrationRepository* integrations = nullptr;
  ports::BugReadRepository* bugs = nullptr;  // a payload's bug, read in the event's transaction
  ports::ProjectRepository* projects = nullptr;
  ports::UsageRepository* usage = nullptr;
  ports::TriageRepository* triage = nullptr;  // the caller's notification preferences (preview)
  // Members' alert emails (new bugs and regressions the policy lets through). Null: none.
  const app::triage::TriageDeps* member_alerts = nullptr;
  const SecretBox* secrets = nullptr;
  PlanLimitOverrides plan_limits;
  std::string public_url;  // links in payloads (consoleUrl, evidence)
  bool production = false;
  // SERVICE_ROUTINE_FIRE_URL: the one URL the routine preset may post to ("" : preset refused).
  std::string routine_fire_url;
  // SERVICE_CODE_HOST_API_URL: a GitHub-compatible REST API.
  std::string code_host_api_url = "https://api.github.com";
  // SERVICE_RETENTION: deliveries_ms and dead_letters_ms.
  RetentionPeriods retention;
  // GET /metrics: delivery outcomes recorded, by outcome. Null: not counted.
  struct DeliveryCounters {
    util::metrics::Counter* success = nullptr;
    util::metrics::Counter* deferred = nullptr;
    util::metrics::Counter* failed = nullptr;
    util::metrics::Counter* canceled = nullptr;
  };
  DeliveryCounters delivery_counters;

  int64_t Now() const { return clock->NowMillis(); }
};

// Limits.
inline constexpr int64_t kDefaultDeliveryLimit = 20;
inline constexpr int64_t kMaxDeliveryLimit = 100;
inline constexpr size_t kMaxNameLength = 200;
inline constexpr size_t kMaxBearerLength = 4096;
inline constexpr size_t kMaxEvents = 9;

// ---- integrations.cpp ------------------------------------------------------

// A create request (validated for shape by the API; rules here).
struct NewIntegration {
  std::string project_id;
  std::string type;
  std::optional<std::string> name;
  domain::integrations::Config config;
  std::optional<std::vector<std::string>> events;  // nullopt: the type's defaults
  std::optional<std::string> delivery_feed;
  std::optional<std::string> min_severity;
  std::optional<std::string> bearer_token;  // "" : none
};

// A PATCH: absent fields stay. config keys present replace theirs; a
// config.secret of "***" keeps the secret; another value rotates to it.
struct IntegrationPatch {
  std::optional<std::optional<std::string>> name;
  std::optional<domain::integrations::Config> config;  // keys given (others: "" = keep)
  std::vector<std::string> config_keys;                // which keys the request named
  std::optional<std::vector<std::string>> events;
  std::optional<bool> is_active;
  std::optional<std::string> delivery_feed;
  std::optional<std::optional<std::string>> min_severity;
  std::optional<std::string> bearer_token;  // "" clears
  bool empty() const {
    return !name && !config && !events && !is_active && !delivery_feed && !min_severity && !bearer_token;
  }
};

struct CreatedIntegration {
  ports::IntegrationRow row;
  std::string signing_secret;  // shown once; "" when the type signs nothing
};

// The literal that keeps a stored secret in a PATCH.
inline constexpr std::string_view kKeepSecret = "***";

Result<std::vector<ports::IntegrationRow>> ListIntegrations(const IntegrationsDeps& deps,
                                                            const ConsoleActor& actor,
                                                            const std::string& project_id);
Result<CreatedIntegration> CreateIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                             const NewIntegration& in);
Result<ports::IntegrationRow> UpdateIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                                const std::string& id, const IntegrationPatch& patch);
Status DeleteIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor, const std::string& id);
Result<CreatedIntegration> RotateSecret(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                        const std::string& id);
// Sends a signed `test` payload now (a delivery row on the short schedule).
// kBadGateway "Webhook delivery failed" when the destination did not take it.
Status TestIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor, const std::string& id);

struct DeliveryPage {
  std::vector<ports::DeliveryRow> rows;
  int64_t total = 0;
};
Result<DeliveryPage> ListDeliveries(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                    const std::string& integration_id, const std::string& status,
                                    int64_t limit, int64_t offset);
// can_retry: failed, the manual budget not spent, the integration active.
bool CanRetry(const ports::DeliveryRow& d, const ports::IntegrationRow& integration);
Result<ports::IntegrationRow> GetIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                             const std::string& id);
// A manual retry: 404 unless the delivery can be retried; 409 when the
// current rules hold it (quiet hours) or exclude it (policy, subscription);
// 502 "Retry failed" when the send failed.
Status RetryDelivery(const IntegrationsDeps& deps, const ConsoleActor& actor,
                     const std::string& integration_id, const std::string& delivery_id);

// ---- delivery.cpp ----------------------------------------------------------

// Which path an event comes from (its schedule and quiet hours).
enum class EventPath { kCapture, kTriage };

// The events EnqueueDeliveries turns into deliveries: new_bug, regression,
// status_change, comment, assigned (the handoff area writes its own:
// IsHandoffEvent, EnqueueEvent).
bool TriggersDeliveries(std::string_view event_type);

// The subscriber to the platform's transactional events: writes a delivery row per destination that takes
// `event` (subscription, policy, minSeverity, deliveryFeed, quiet hours), and for a new bug or a regression
// the members' alert emails (app::triage::QueueBugAlert, when a mail provider is set), inside the event's
// own transaction. Events that no destination can take cost one query.
Status EnqueueDeliveries(const IntegrationsDeps& deps, ports::Tx& tx, const ports::Event& event,
                         EventPath path);

// What the project's alert policy says now of a member's alert email about
// `bug_id` (TriageDeps::alert_gate): excluded (severity floor, excludes, or
// the bug is gone) or held by quiet hours.
Result<app::triage::AlertGate> MemberAlertGate(const IntegrationsDeps& deps, ports::Tx& tx,
                                               const std::string& org_id, const std::string& bug_id,
                                               const std::string& event_type);

// ---- events of the handoff area (areas/handoff) ----------------------------

// The events whose producers live above this area (the handoff area:
// agent_notify, agent_update; the recommendations area: recommended_bug). Their producer writes their
// deliveries itself (EnqueueEvent) and publishes the event on the bus after
// its commit, which wakes the delivery engine (WakesDeliveryEngine).
bool IsHandoffEvent(std::string_view event_type);
// TriggersDeliveries or IsHandoffEvent.
bool WakesDeliveryEngine(std::string_view event_type);

// A delivery EnqueueEvent wrote, with the destination it goes to.
struct QueuedDelivery {
  ports::IntegrationRow destination;
  std::string delivery_id;
};

// Writes one delivery of `event` (IsHandoffEvent) for each of `dests` inside
// `tx`, on the short schedule (a direct send off the capture path), unless
// the project's alert policy excludes the event (agent_notify and
// agent_update are exempt: domain/alert_policy.h); inside the policy's quiet
// hours a recommended_bug delivery is written `deferred` until the window
// ends (the exempt events are never held). The
// payload is Spec 2's ("Payload fields") for the bug `event.payload` names
// (`bugId`), plus the event's own fields taken from `event.payload`:
// agent_notify `trigger`; agent_update `agentAction`, `agentActor`, `prUrl`.
// `dests` are the caller's choice (the handoff area picks its channels):
// a code_host destination takes agent_notify whether or not it lists it
// (SendDelivery), since Spec 2 makes every code host a handoff channel.
// Returns the deliveries written, in the order of `dests`; none when the
// bug is not in event.org_id or the policy excludes the event.
Result<std::vector<QueuedDelivery>> EnqueueEvent(const IntegrationsDeps& deps, ports::Tx& tx,
                                                 const ports::Event& event,
                                                 const std::vector<ports::IntegrationRow>& dests);

// Prepares and sends one claimed delivery; the outcome to record.
// `dest`: the integration as read for this claim (nullptr: read it now);
// nullopt inside: it no longer exists.
ports::DeliveryOutcome SendDelivery(const IntegrationsDeps& deps, const ports::DeliveryRow& row,
                                    const std::optional<ports::IntegrationRow>* dest = nullptr);

// Sends every due delivery on the calling thread until none is due (tests,
// and a deterministic drain). Returns how many were sent.
Result<int64_t> DrainDeliveries(const IntegrationsDeps& deps);

struct DeliveryEngineOptions {
  int senders = 16;          // threads that send
  int per_destination = 4;   // sends in flight per integration at most
  int64_t poll_ms = 250;     // claim at least this often
  int64_t coalesce_ms = 10;  // after an event, wait this long to claim its neighbours too
  // A claimed row is held this long: a process that dies mid-send leaves
  // its rows to the others after it. Longer than the receiver's 10 s
  // deadline plus the sender's margin (internal::kLeaseMarginMs).
  int64_t lease_ms = 30'000;
};

// The background sender: a dispatcher thread claims due rows and reads
// their integrations once per claim (never more than `per_destination` in
// flight for one integration, so a destination that hangs holds at most
// that many senders), a pool of sender threads sends them, and a completer
// thread records the outcomes in batches (one transaction for many sends).
// Nudge() after an event wakes the dispatcher at once. Where several
// processes may share the database a claim leases its rows (a write);
// where one process owns it (ports::Transactions::single_process, SQLite)
// the engine reads the due rows and holds its claims in memory until their
// outcomes are recorded, so a delivery costs the one writer its insert and
// its completion only.
class DeliveryEngine {
 public:
  DeliveryEngine(const IntegrationsDeps& deps, DeliveryEngineOptions options);
  ~DeliveryEngine();
  DeliveryEngine(const DeliveryEngine&) = delete;
  DeliveryEngine& operator=(const DeliveryEngine&) = delete;

  void Start();
  // Stops claiming, lets sends in flight finish (each at most 10 s), joins.
  // Claimed rows not yet sent return to the queue when their lease ends.
  void Stop();
  void Nudge();

 private:
  struct State;
  void Dispatch();
  // Without leases: up to `room` due rows not already taken, marked taken.
  Result<std::vector<ports::DeliveryRow>> TakeDue(int room, const std::vector<std::string>& skip);
  void Send();
  void CompleteLoop();
  const IntegrationsDeps& deps_;
  DeliveryEngineOptions options_;
  std::unique_ptr<State> state_;
};

// ---- alerts.cpp ------------------------------------------------------------

// The JSON of a policy (the API's shape, documented in the README).
boost::json::object PolicyJson(const std::string& project_id, const domain::integrations::AlertPolicy& policy,
                               std::optional<int64_t> updated_at);
// Parses a stored or requested policy body; problems as {field, message}.
Result<domain::integrations::AlertPolicy> ParsePolicy(
    const boost::json::object& body, std::vector<std::pair<std::string, std::string>>* problems);

struct PolicyView {
  domain::integrations::AlertPolicy policy;
  std::optional<int64_t> updated_at;
};
Result<PolicyView> GetPolicy(const IntegrationsDeps& deps, const ConsoleActor& actor,
                             const std::string& project_id);
Status PutPolicy(const IntegrationsDeps& deps, const ConsoleActor& actor, const std::string& project_id,
                 const domain::integrations::AlertPolicy& policy);
// The policy in force for a project inside a transaction (none: empty policy).
Result<domain::integrations::AlertPolicy> PolicyFor(const IntegrationsDeps& deps, ports::Tx& tx,
                                                    const std::string& project_id);

struct PreviewRequest {
  std::string project_id;
  std::string event_type;
  std::string title;
  std::string severity;
  std::string url;
  std::string user_email;
};
// The dry run of POST /v1/alerts/preview (nothing written, nothing sent).
Result<boost::json::object> Preview(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                    const PreviewRequest& request);
// GET /v1/alerts/overview.
Result<boost::json::object> Overview(const IntegrationsDeps& deps, const ConsoleActor& actor);

// ---- retention (README "Retention") -----------------------------------------

// What one run of SweepRetention deleted.
struct RetentionSwept {
  int64_t deliveries = 0;
  int64_t dead_letters = 0;
  int64_t events = 0;
};
// Deletes finished deliveries completed more than retention.deliveries_ms
// ago, dead letters older than retention.dead_letters_ms, then the event
// payloads older than retention.deliveries_ms no delivery names any more, in
// batches of `batch_rows` (one transaction each). Pending and deferred
// deliveries are never deleted. The hourly worker "integration-retention".
Result<RetentionSwept> SweepRetention(const IntegrationsDeps& deps, int64_t batch_rows = kRetentionBatchRows);

}  // namespace service::app::integrations
