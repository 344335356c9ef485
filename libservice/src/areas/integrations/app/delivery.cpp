// Outbound delivery: the rows an event writes in its own transaction, the
// preparation and sending of one row, and the engine that sends them.
#include <boost/json.hpp>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <thread>

#include "areas/capture/domain/vocabulary.h"
#include "areas/integrations/app/integrations.h"
#include "areas/integrations/app/internal.h"
#include "areas/triage/app/digests.h"
#include "util/mutex.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::app::integrations {
namespace {

namespace json = boost::json;
namespace di = domain::integrations;

constexpr int kDrainBatch = 50;
// The routine provider's two version headers (Spec 2 "Authentication" 7).
constexpr const char* kRoutineVersionHeader = "X-Routine-Api-Version";
constexpr const char* kRoutineVersion = "2026-01-01";
constexpr const char* kRoutineClientHeader = "X-Routine-Client";
constexpr const char* kRoutineClient = "service-webhook/1.0";

json::value OptStr(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? *v : json::value(nullptr);
}

json::value TextOrNull(const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

// Spec 2 "Payload fields", in the documented order: the common fields, the
// ingest fields (occurrenceId last), the event's own, then timestamp.
json::object BuildPayload(const IntegrationsDeps& deps, const std::string& type, const json::object& ev,
                          const ports::BugRecord& bug, EventPath path) {
  const std::string base = internal::LinkBase(deps);
  const std::string bug_url = base + "/v1/bugs/" + bug.id;
  json::object p;
  p["event"] = type;
  p["source"] = di::kPayloadSource;
  p["version"] = di::kPayloadVersion;
  p["title"] = bug.title;
  p["severity"] = bug.severity;
  p["reportCount"] = bug.report_count;
  p["release"] = TextOrNull(path == EventPath::kCapture && !di::PayloadText(ev, "release").empty()
                                ? di::PayloadText(ev, "release")
                                : bug.latest_release);
  p["bugId"] = bug.id;
  p["consoleUrl"] = base + "/bugs/" + bug.id;
  p["evidence"] =
      json::object{{"mcp", "Call get_bug with {\"bugId\":\"" + bug.id + "\"} for the full context"},
                   {"events", bug_url + "/events"},
                   {"occurrences", bug_url + "/occurrences"},
                   {"users", bug_url + "/users"}};
  p["url"] = di::PayloadText(ev, "url").empty() ? bug.url : di::PayloadText(ev, "url");
  p["projectId"] = di::PayloadText(ev, "projectId");
  p["status"] = bug.status;
  if (path == EventPath::kCapture) {
    p["fingerprint"] = bug.fingerprint;
    p["platform"] = di::PayloadText(ev, "platform").empty() ? TextOrNull(bug.platform)
                                                            : json::value(di::PayloadText(ev, "platform"));
    p["environment"] = di::PayloadText(ev, "environment").empty() ? TextOrNull(bug.latest_environment)
                                                                  : OptStr(ev, "environment");
    p["userId"] = OptStr(ev, "userId");
    p["sessionId"] = OptStr(ev, "sessionId");
    p["userEmail"] = OptStr(ev, "userEmail");
    p["description"] = bug.description;
    p["occurrenceId"] = OptStr(ev, "occurrenceId");
  } else if (type == "status_change") {
    p["oldStatus"] = OptStr(ev, "oldStatus");
  } else if (type == "comment") {
    p["commentId"] = OptStr(ev, "commentId");
    p["comment"] = OptStr(ev, "excerpt");
    p["author"] = OptStr(ev, "authorName");
  } else if (type == "assigned") {
    p["assignedTo"] = OptStr(ev, "assignedTo");
    p["assignedBy"] = OptStr(ev, "assignedBy");
  } else if (type == "regression") {
    p["reopenedBy"] = OptStr(ev, "reopenedBy");
  } else if (type == "agent_notify") {
    p["trigger"] = OptStr(ev, "trigger");
  } else if (type == "agent_update") {
    p["agentAction"] = OptStr(ev, "agentAction");
    p["agentActor"] = OptStr(ev, "agentActor");
    if (!di::PayloadText(ev, "prUrl").empty()) p["prUrl"] = OptStr(ev, "prUrl");
  }
  const std::string ts = di::PayloadText(ev, "timestamp");
  p["timestamp"] = ts.empty() ? util::FormatIso8601(deps.Now()) : ts;
  return p;
}

// The error text a delivery row keeps: no URL query, credentials or headers.
std::string ShortError(const Status& s) { return util::Utf8Shorten(s.message(), 300); }

struct Prepared {
  ports::HttpRequest request;
  bool code_host_issue = false;  // the answer carries the new issue
};

// Headers of every webhook or agent post (Spec 2 "Events").
void CommonHeaders(const ports::DeliveryRow& d, const std::string& type, ports::HttpRequest& r) {
  r.headers.emplace_back("Content-Type", "application/json");
  r.headers.emplace_back("X-Service-Event", d.event_type);
  r.headers.emplace_back("User-Agent", type == "agent" ? "Service-AgentWebhook/1.0" : "Service-Webhook/1.0");
  r.headers.emplace_back("X-Service-Event-Id", d.event_id);
  r.headers.emplace_back("X-Service-Delivery-Id", d.id);
}

Result<Prepared> Prepare(const IntegrationsDeps& deps, const ports::IntegrationRow& dest,
                         const ports::DeliveryRow& d, const json::object& payload) {
  SV_ASSIGN_OR_RETURN(di::Config config, internal::OpenConfig(deps, dest));
  std::string secret, previous, bearer;
  if (!dest.secret_sealed.empty()) {
    SV_ASSIGN_OR_RETURN(secret, deps.secrets->Open(dest.secret_sealed));
  }
  if (!dest.previous_secret_sealed.empty() && dest.previous_secret_until > deps.Now()) {
    SV_ASSIGN_OR_RETURN(previous, deps.secrets->Open(dest.previous_secret_sealed));
  }
  if (!dest.bearer_sealed.empty()) {
    SV_ASSIGN_OR_RETURN(bearer, deps.secrets->Open(dest.bearer_sealed));
  }

  Prepared out;
  ports::HttpRequest& r = out.request;
  r.method = "POST";
  r.timeout_ms = di::kReceiverTimeoutMs;
  if (di::IsSignedType(dest.type)) {
    r.url = config.url;
    r.body = config.preset == di::kRoutinePreset ? di::RoutineBody(payload, d.payload) : d.payload;
    CommonHeaders(d, dest.type, r);
    if (!secret.empty()) {
      const int64_t t = deps.Now() / 1000;
      r.headers.emplace_back("X-Service-Signature-256", di::SignatureHeader(t, r.body, secret, previous));
      r.headers.emplace_back("X-Service-Signature", di::LegacySignature(r.body, secret));
    }
    if (!bearer.empty()) r.headers.emplace_back("Authorization", "Bearer " + bearer);
    if (config.preset == di::kRoutinePreset) {
      // Provider headers go to the one fire URL only (checked again here).
      if (config.url != deps.routine_fire_url)
        return PermissionDenied("routine URL is not the provider's fire URL");
      r.headers.emplace_back(kRoutineVersionHeader, kRoutineVersion);
      r.headers.emplace_back(kRoutineClientHeader, kRoutineClient);
    }
    return out;
  }
  if (di::IsChatType(dest.type)) {
    r.url = config.url;
    r.body = di::ChatBody(dest.type, payload);
    CommonHeaders(d, dest.type, r);
    return out;
  }
  if (dest.type == "bridge") {
    r.url = config.bridge_url;
    r.body = di::BridgeBody(config.address, payload);
    CommonHeaders(d, dest.type, r);
    if (!secret.empty()) r.headers.emplace_back("X-Service-Signature", di::LegacySignature(r.body, secret));
    return out;
  }
  // code_host: a GitHub-compatible REST API.
  std::string api = deps.code_host_api_url;
  while (!api.empty() && api.back() == '/') api.pop_back();
  r.headers.emplace_back("Accept", "application/vnd.github+json");
  r.headers.emplace_back("X-GitHub-Api-Version", "2022-11-28");
  r.headers.emplace_back("User-Agent", "Service-Webhook/1.0");
  r.headers.emplace_back("Authorization", "Bearer " + config.token);
  r.headers.emplace_back("X-Service-Delivery-Id", d.id);
  if (d.event_type == "test") {
    r.method = "GET";
    r.url = api + "/repos/" + config.repo;
    return out;
  }
  r.headers.emplace_back("Content-Type", "application/json");
  std::optional<ports::CodeHostIssue> issue;
  if (d.bug_id) {
    SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(issue, deps.integrations->GetIssue(tx, dest.id, *d.bug_id));
      return Status::Ok();
    }));
  }
  if (issue) {
    std::string text = di::SummaryLine(payload);
    if (!di::PayloadText(payload, "consoleUrl").empty())
      text += "\n\n" + di::PayloadText(payload, "consoleUrl");
    r.url = api + "/repos/" + config.repo + "/issues/" + std::to_string(issue->number) + "/comments";
    r.body = json::serialize(json::object{{"body", text}});
    return out;
  }
  const di::IssueText it = di::CodeHostIssue(payload);
  r.url = api + "/repos/" + config.repo + "/issues";
  r.body = json::serialize(json::object{{"title", it.title}, {"body", it.body}});
  out.code_host_issue = d.bug_id.has_value();
  return out;
}

// Remembers the issue a code host opened (its answer: {number, html_url}).
void RememberIssue(const IntegrationsDeps& deps, const ports::DeliveryRow& d, const std::string& body) {
  boost::system::error_code ec;
  json::value v = json::parse(body, ec);
  if (ec || !v.is_object()) return;
  const json::object& o = v.get_object();
  const json::value* number = o.if_contains("number");
  if (number == nullptr || !number->is_int64()) return;
  const ports::CodeHostIssue issue{d.integration_id, *d.bug_id, di::PayloadText(o, "html_url"),
                                   number->get_int64()};
  Status s =
      deps.db->Write([&](ports::Tx& tx) { return deps.integrations->PutIssue(tx, issue, deps.Now()); });
  if (!s.ok() && deps.log != nullptr) {
    deps.log->Log(LogLevel::kError, "code host issue not recorded",
                  {{"delivery_id", d.id}, {"error", s.ToString()}});
  }
}

bool IsMemberAlert(std::string_view event_type) {
  return event_type == "new_bug" || event_type == "regression";
}

}  // namespace

bool TriggersDeliveries(std::string_view event_type) {
  return event_type == "new_bug" || event_type == "regression" || event_type == "status_change" ||
         event_type == "comment" || event_type == "assigned";
}

Status EnqueueDeliveries(const IntegrationsDeps& deps, ports::Tx& tx, const ports::Event& event,
                         EventPath path) {
  if (!TriggersDeliveries(event.type) || event.project_id.empty()) return Status::Ok();
  SV_ASSIGN_OR_RETURN(std::vector<ports::IntegrationRow> dests,
                      deps.integrations->ActiveFor(tx, event.project_id, event.type));
  const bool member_alerts = IsMemberAlert(event.type) && deps.member_alerts != nullptr &&
                             app::triage::SendsAlertEmails(*deps.member_alerts);
  if (dests.empty() && !member_alerts) return Status::Ok();
  boost::system::error_code ec;
  json::value parsed = json::parse(event.payload, ec);
  if (ec || !parsed.is_object()) return Internal("event payload is not a JSON object");
  const json::object& ev = parsed.get_object();
  const std::string bug_id =
      di::PayloadText(ev, "bugId").empty() ? di::PayloadText(ev, "id") : di::PayloadText(ev, "bugId");
  SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(tx, event.org_id, bug_id));
  if (!bug) return Status::Ok();
  SV_ASSIGN_OR_RETURN(di::AlertPolicy policy, PolicyFor(deps, tx, event.project_id));
  const std::string url = di::PayloadText(ev, "url").empty() ? bug->url : di::PayloadText(ev, "url");
  const std::string environment = di::PayloadText(ev, "environment").empty()
                                      ? bug->latest_environment
                                      : di::PayloadText(ev, "environment");
  if (!di::ExclusionReason(policy, di::AlertSample{event.type, bug->severity, bug->title, url, environment})
           .empty()) {
    return Status::Ok();
  }
  const int64_t now = deps.Now();
  std::optional<int64_t> quiet_until;
  if (path == EventPath::kCapture && policy.quiet_hours)
    quiet_until = di::QuietUntil(*policy.quiet_hours, now);
  if (member_alerts) {
    SV_RETURN_IF_ERROR(app::triage::QueueBugAlert(
        *deps.member_alerts, tx,
        app::triage::BugAlert{event.org_id, bug->project_id, bug->id, bug->title, event.type, quiet_until}));
  }
  if (dests.empty()) return Status::Ok();
  const std::string payload = json::serialize(BuildPayload(deps, event.type, ev, *bug, path));
  const di::IssueFacts facts{bug->severity, bug->signal_class, bug->signal_family, bug->is_regression,
                             bug->ui_ux};
  const std::string event_id = deps.ids->NewId();
  bool event_written = false;
  for (const ports::IntegrationRow& dest : dests) {
    if (!di::DestinationFilterReason(dest.type, dest.min_severity, dest.delivery_feed, event.type, facts)
             .empty()) {
      continue;
    }
    if (!event_written) {
      SV_RETURN_IF_ERROR(deps.integrations->InsertEvent(tx, event_id, event.org_id, payload, now));
      event_written = true;
    }
    ports::DeliveryRow d;
    d.id = deps.ids->NewId();
    d.org_id = dest.org_id;
    d.project_id = dest.project_id;
    d.integration_id = dest.id;
    d.bug_id = bug->id;
    d.event_id = event_id;
    d.event_type = event.type;
    const bool capture_schedule = path == EventPath::kCapture && di::IsSignedType(dest.type);
    d.schedule =
        std::string(di::ScheduleName(capture_schedule ? di::Schedule::kCapture : di::Schedule::kShort));
    d.status = quiet_until ? "deferred" : "pending";
    d.payload = payload;
    if (event.type == "new_bug") d.dedupe_key = dest.id + ":" + bug->id;
    d.created_at = now;
    d.deferred_until = quiet_until;
    d.next_attempt_at = quiet_until.value_or(now);
    SV_RETURN_IF_ERROR(deps.integrations->InsertDelivery(tx, d).status());
  }
  return Status::Ok();
}

Result<app::triage::AlertGate> MemberAlertGate(const IntegrationsDeps& deps, ports::Tx& tx,
                                               const std::string& org_id, const std::string& bug_id,
                                               const std::string& event_type) {
  app::triage::AlertGate gate;
  SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(tx, org_id, bug_id));
  if (!bug) {
    gate.excluded = true;
    return gate;
  }
  SV_ASSIGN_OR_RETURN(di::AlertPolicy policy, PolicyFor(deps, tx, bug->project_id));
  gate.excluded = !di::ExclusionReason(policy, di::AlertSample{event_type, bug->severity, bug->title,
                                                               bug->url, bug->latest_environment})
                       .empty();
  if (!gate.excluded && policy.quiet_hours)
    gate.quiet_until = di::QuietUntil(*policy.quiet_hours, deps.Now());
  return gate;
}

bool IsHandoffEvent(std::string_view event_type) {
  return event_type == "agent_notify" || event_type == "agent_update" || event_type == "recommended_bug";
}

bool WakesDeliveryEngine(std::string_view event_type) {
  return TriggersDeliveries(event_type) || IsHandoffEvent(event_type);
}

Result<std::vector<QueuedDelivery>> EnqueueEvent(const IntegrationsDeps& deps, ports::Tx& tx,
                                                 const ports::Event& event,
                                                 const std::vector<ports::IntegrationRow>& dests) {
  std::vector<QueuedDelivery> out;
  if (!IsHandoffEvent(event.type) || dests.empty()) return out;
  boost::system::error_code ec;
  json::value parsed = json::parse(event.payload, ec);
  if (ec || !parsed.is_object()) return Internal("event payload is not a JSON object");
  const json::object& ev = parsed.get_object();
  SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug,
                      deps.bugs->Find(tx, event.org_id, di::PayloadText(ev, "bugId")));
  if (!bug) return out;
  SV_ASSIGN_OR_RETURN(di::AlertPolicy policy, PolicyFor(deps, tx, bug->project_id));
  if (!di::ExclusionReason(
           policy, di::AlertSample{event.type, bug->severity, bug->title, bug->url, bug->latest_environment})
           .empty()) {
    return out;
  }
  const int64_t now = deps.Now();
  // Quiet hours hold the events the policy holds (recommended_bug) until the
  // window ends, like capture-path webhooks.
  std::optional<int64_t> quiet_until;
  if (!di::IsPolicyExempt(event.type) && policy.quiet_hours)
    quiet_until = di::QuietUntil(*policy.quiet_hours, now);
  const std::string payload = json::serialize(BuildPayload(deps, event.type, ev, *bug, EventPath::kTriage));
  const std::string event_id = deps.ids->NewId();
  SV_RETURN_IF_ERROR(deps.integrations->InsertEvent(tx, event_id, event.org_id, payload, now));
  for (const ports::IntegrationRow& dest : dests) {
    ports::DeliveryRow d;
    d.id = deps.ids->NewId();
    d.org_id = dest.org_id;
    d.project_id = dest.project_id;
    d.integration_id = dest.id;
    d.bug_id = bug->id;
    d.event_id = event_id;
    d.event_type = event.type;
    d.schedule = std::string(di::ScheduleName(di::Schedule::kShort));
    d.status = quiet_until ? "deferred" : "pending";
    d.payload = payload;
    d.created_at = now;
    d.deferred_until = quiet_until;
    d.next_attempt_at = quiet_until.value_or(now);
    SV_RETURN_IF_ERROR(deps.integrations->InsertDelivery(tx, d).status());
    out.push_back(QueuedDelivery{dest, d.id});
  }
  return out;
}

ports::DeliveryOutcome SendDelivery(const IntegrationsDeps& deps, const ports::DeliveryRow& d,
                                    const std::optional<ports::IntegrationRow>* preloaded) {
  ports::DeliveryOutcome out;
  out.id = d.id;
  auto finish = [&](std::string status, std::string error) {
    out.status = std::move(status);
    out.error_message = std::move(error);
    out.dead_letter = out.status == "failed";
    return out;
  };
  std::optional<ports::IntegrationRow> dest;
  Status loaded = Status::Ok();
  if (preloaded != nullptr) {
    dest = *preloaded;
  } else {
    loaded = deps.db->Read([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(dest, deps.integrations->Get(tx, d.org_id, d.integration_id));
      return Status::Ok();
    });
  }
  const di::Schedule schedule = di::ParseSchedule(d.schedule).value_or(di::Schedule::kShort);
  const int sends = static_cast<int>(d.attempts);
  // A failure that may pass: the next delay of the schedule, or failed.
  auto retry = [&](std::string error) {
    const std::optional<int64_t> delay = di::RetryDelayMs(schedule, sends);
    if (!delay) return finish("failed", std::move(error));
    out.next_attempt_at = deps.Now() + *delay;
    return finish("deferred", std::move(error));
  };
  if (!loaded.ok()) return retry("database unavailable while preparing the delivery");
  if (!dest) return finish("canceled", "integration deleted");
  if (!dest->is_active) return finish("canceled", "integration inactive");
  if (!internal::TakesEvent(*dest, d.event_type)) {
    return finish("canceled", "integration no longer subscribed to " + d.event_type);
  }
  boost::system::error_code ec;
  json::value payload = json::parse(d.payload, ec);
  if (ec || !payload.is_object()) return finish("failed", "stored payload is not a JSON object");
  Result<Prepared> prepared = Prepare(deps, *dest, d, payload.get_object());
  if (!prepared.ok()) {
    if (prepared.status().code() == Code::kPermissionDenied)
      return finish("failed", ShortError(prepared.status()));
    return retry("delivery could not be prepared");
  }
  Result<ports::HttpResponse> res = deps.http->Send(prepared->request);
  if (!res.ok()) {
    const Code c = res.status().code();
    if (c == Code::kUnavailable || c == Code::kBadGateway) return retry(ShortError(res.status()));
    return finish("failed", ShortError(res.status()));  // refused destination, malformed URL
  }
  out.response_code = res->status;
  if (di::IsSuccessStatus(res->status)) {
    if (prepared->code_host_issue) RememberIssue(deps, d, res->body);
    out.status = "success";
    return out;
  }
  const std::string error = "HTTP " + std::to_string(res->status);
  if (di::IsRetryableStatus(res->status)) return retry(error);
  return finish("failed", error);
}

namespace {

// Counts recorded outcomes for GET /metrics.
void CountOutcomes(const IntegrationsDeps& deps, const std::vector<ports::DeliveryOutcome>& outcomes) {
  const IntegrationsDeps::DeliveryCounters& c = deps.delivery_counters;
  for (const ports::DeliveryOutcome& o : outcomes) {
    util::metrics::Counter* n = o.status == "success"    ? c.success
                                : o.status == "deferred" ? c.deferred
                                : o.status == "failed"   ? c.failed
                                : o.status == "canceled" ? c.canceled
                                                         : nullptr;
    if (n != nullptr) n->Inc();
  }
}

}  // namespace

Result<int64_t> DrainDeliveries(const IntegrationsDeps& deps) {
  int64_t sent = 0;
  for (;;) {
    SV_ASSIGN_OR_RETURN(
        std::vector<ports::DeliveryRow> rows,
        deps.integrations->Claim(*deps.db, deps.Now(), internal::kSendLeaseMs, kDrainBatch, {}));
    if (rows.empty()) return sent;
    std::vector<ports::DeliveryOutcome> outcomes;
    for (const ports::DeliveryRow& d : rows) outcomes.push_back(SendDelivery(deps, d));
    SV_RETURN_IF_ERROR(deps.integrations->Complete(*deps.db, outcomes, deps.Now()));
    CountOutcomes(deps, outcomes);
    sent += static_cast<int64_t>(rows.size());
  }
}

// ---- the engine -------------------------------------------------------------

struct DeliveryEngine::State {
  struct Job {
    ports::DeliveryRow row;
    std::shared_ptr<const std::optional<ports::IntegrationRow>> dest;  // as read for its claim
  };
  util::Mutex mu;
  util::CondVar work_cv;      // senders wait for jobs
  util::CondVar dispatch_cv;  // the dispatcher waits for a nudge, capacity or its poll
  util::CondVar done_cv;      // the completer waits for outcomes
  std::deque<Job> queue SV_GUARDED_BY(mu);
  std::vector<ports::DeliveryOutcome> done SV_GUARDED_BY(mu);
  int sending_total SV_GUARDED_BY(mu) = 0;
  std::map<std::string, int> held SV_GUARDED_BY(mu);     // per integration: queued + sending
  std::map<std::string, int> sending SV_GUARDED_BY(mu);  // per integration: sending now
  int total_held SV_GUARDED_BY(mu) = 0;
  bool nudged SV_GUARDED_BY(mu) = false;
  bool stopping SV_GUARDED_BY(mu) = false;
  bool senders_done SV_GUARDED_BY(mu) = false;  // the completer may finish
  // Without leases (one process owns the database): the rows taken and not
  // yet recorded as done, which the next reads of due rows must skip.
  std::set<std::string> taken SV_GUARDED_BY(mu);
  bool leases = true;
  bool running = false;
  std::vector<std::thread> threads;  // the dispatcher and the senders
  std::thread completer;
};

DeliveryEngine::DeliveryEngine(const IntegrationsDeps& deps, DeliveryEngineOptions options)
    : deps_(deps), options_(options), state_(std::make_unique<State>()) {}

DeliveryEngine::~DeliveryEngine() { Stop(); }

void DeliveryEngine::Start() {
  if (state_->running) return;
  state_->running = true;
  state_->leases = !deps_.db->single_process();
  {
    util::MutexLock lock(&state_->mu);
    state_->stopping = false;
    state_->senders_done = false;
  }
  state_->completer = std::thread([this] { CompleteLoop(); });
  state_->threads.emplace_back([this] { Dispatch(); });
  for (int i = 0; i < options_.senders; ++i) state_->threads.emplace_back([this] { Send(); });
}

void DeliveryEngine::Stop() {
  if (!state_->running) return;
  std::vector<std::string> unsent;
  {
    util::MutexLock lock(&state_->mu);
    state_->stopping = true;
  }
  state_->work_cv.SignalAll();
  state_->dispatch_cv.SignalAll();
  for (std::thread& t : state_->threads) t.join();
  state_->threads.clear();
  {
    // Sends are over: the completer records the last outcomes and ends.
    util::MutexLock lock(&state_->mu);
    state_->senders_done = true;
  }
  state_->done_cv.SignalAll();
  state_->completer.join();
  state_->running = false;
  {
    util::MutexLock lock(&state_->mu);
    for (const State::Job& j : state_->queue) unsent.push_back(j.row.id);
    state_->queue.clear();
    state_->held.clear();
    state_->sending.clear();
    state_->total_held = 0;
    state_->taken.clear();
  }
  // Claimed but never sent: back to the queue for the next process.
  if (!unsent.empty() && state_->leases) (void)deps_.integrations->Release(*deps_.db, unsent);
}

void DeliveryEngine::Nudge() {
  {
    util::MutexLock lock(&state_->mu);
    state_->nudged = true;
  }
  state_->dispatch_cv.Signal();
}

void DeliveryEngine::Dispatch() {
  State& s = *state_;
  const int capacity = options_.senders * 2;
  // Rows one destination may hold (queued and sending) in this process.
  const int queue_cap = options_.per_destination * 4;
  for (;;) {
    int room = 0;
    std::vector<std::string> skip;
    bool woken = false;
    {
      util::MutexLock lock(&s.mu);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.poll_ms);
      while (!s.stopping && !s.nudged) {
        if (!s.dispatch_cv.WaitUntil(&s.mu, deadline)) break;
      }
      if (s.stopping) return;
      woken = s.nudged;
    }
    // Woken by an event: gather the events of the next few milliseconds into
    // one claim (a claim is a write transaction; one per event would cost
    // ingest a transaction per new bug).
    if (woken && options_.coalesce_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(options_.coalesce_ms));
    }
    {
      util::MutexLock lock(&s.mu);
      if (s.stopping) return;
      s.nudged = false;
      // Destinations holding their share (a slow or hanging one) neither
      // take more nor count against the others' room.
      int saturated = 0;
      for (const auto& [id, n] : s.held) {
        if (n >= queue_cap) {
          skip.push_back(id);
          saturated += n;
        }
      }
      room = capacity - (s.total_held - saturated);
    }
    if (room <= 0) continue;
    Result<std::vector<ports::DeliveryRow>> rows =
        s.leases ? deps_.integrations->Claim(*deps_.db, deps_.Now(), options_.lease_ms, room, skip)
                 : TakeDue(room, skip);
    if (!rows.ok()) {
      if (deps_.log != nullptr) {
        deps_.log->Log(LogLevel::kError, "delivery claim failed", {{"error", rows.status().ToString()}});
      }
      continue;
    }
    if (rows->empty()) continue;
    // The claim's integrations, read once for all its rows.
    std::map<std::string, std::shared_ptr<const std::optional<ports::IntegrationRow>>> dests;
    for (const ports::DeliveryRow& d : *rows) dests.emplace(d.integration_id, nullptr);
    std::vector<std::string> ids;
    for (const auto& [id, unused] : dests) ids.push_back(id);
    Status read = deps_.db->Read([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(std::vector<ports::IntegrationRow> found, deps_.integrations->GetMany(tx, ids));
      for (ports::IntegrationRow& row : found) {
        const std::string id = row.id;
        dests[id] = std::make_shared<const std::optional<ports::IntegrationRow>>(std::move(row));
      }
      return Status::Ok();
    });
    if (!read.ok()) dests.clear();  // each send reads its own
    std::vector<std::string> excess;
    {
      util::MutexLock lock(&s.mu);
      for (ports::DeliveryRow& d : *rows) {
        int& held = s.held[d.integration_id];
        if (held >= queue_cap) {  // one claim brought more of a slow destination than it may hold
          excess.push_back(d.id);
          if (!s.leases) s.taken.erase(d.id);
          continue;
        }
        ++held;
        ++s.total_held;
        std::shared_ptr<const std::optional<ports::IntegrationRow>> dest;
        if (read.ok()) {
          dest = dests[d.integration_id];
          if (!dest) dest = std::make_shared<const std::optional<ports::IntegrationRow>>();  // deleted
        }
        s.queue.push_back(State::Job{std::move(d), std::move(dest)});
      }
      if (static_cast<int>(rows->size()) == room && excess.empty()) s.nudged = true;  // more may be due
    }
    if (!excess.empty() && s.leases) {
      Status released = deps_.integrations->Release(*deps_.db, excess);
      if (!released.ok() && deps_.log != nullptr) {
        deps_.log->Log(LogLevel::kError, "delivery release failed", {{"error", released.ToString()}});
      }
    }
    s.work_cv.SignalAll();
  }
}

Result<std::vector<ports::DeliveryRow>> DeliveryEngine::TakeDue(int room,
                                                                const std::vector<std::string>& skip) {
  State& s = *state_;
  // The rows taken before the read: a row leaves `taken` only after its
  // outcome is committed, so a row not in this copy is either not taken or
  // was recorded before the read's snapshot began.
  std::set<std::string> taken;
  {
    util::MutexLock lock(&s.mu);
    taken = s.taken;
  }
  std::vector<ports::DeliveryRow> due;
  SV_RETURN_IF_ERROR(deps_.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(
        due, deps_.integrations->Due(tx, deps_.Now(), room + static_cast<int>(taken.size()), skip));
    return Status::Ok();
  }));
  std::vector<ports::DeliveryRow> out;
  util::MutexLock lock(&s.mu);
  for (ports::DeliveryRow& d : due) {
    if (static_cast<int>(out.size()) == room) break;
    if (taken.count(d.id) != 0) continue;
    ++d.attempts;  // this send, counted when its outcome is recorded
    d.lease_until = std::numeric_limits<int64_t>::max();
    s.taken.insert(d.id);
    out.push_back(std::move(d));
  }
  return out;
}

void DeliveryEngine::Send() {
  State& s = *state_;
  for (;;) {
    State::Job job;
    {
      util::MutexLock lock(&s.mu);
      for (;;) {
        if (s.stopping) return;
        // The oldest job whose destination has a free sending slot.
        auto it = s.queue.begin();
        for (; it != s.queue.end(); ++it) {
          auto found = s.sending.find(it->row.integration_id);
          if (found == s.sending.end() || found->second < options_.per_destination) break;
        }
        if (it != s.queue.end()) {
          job = std::move(*it);
          s.queue.erase(it);
          break;
        }
        s.work_cv.Wait(&s.mu);
      }
      ++s.sending[job.row.integration_id];
    }
    const ports::DeliveryRow& d = job.row;
    std::optional<ports::DeliveryOutcome> outcome;
    // A job that waited most of its lease is left to the next claim (another
    // process may take it once the lease ends; sending now could double it).
    if (d.lease_until - deps_.Now() >= internal::kLeaseMarginMs) {
      outcome = SendDelivery(deps_, d, job.dest.get());
    }
    {
      util::MutexLock lock(&s.mu);
      if (--s.sending[d.integration_id] == 0) s.sending.erase(d.integration_id);
      if (--s.held[d.integration_id] == 0) s.held.erase(d.integration_id);
      --s.total_held;
      if (outcome) {
        outcome->count_send = !s.leases;
        s.done.push_back(std::move(*outcome));
      } else if (!s.leases) {
        s.taken.erase(d.id);
      }
      if (static_cast<int>(s.queue.size()) < options_.senders) s.nudged = true;  // claim more soon
    }
    // This thread looks for its next job itself; the slot it freed may let
    // one queued job of the same destination go: one more sender suffices.
    s.work_cv.Signal();
    s.dispatch_cv.Signal();
    s.done_cv.Signal();
  }
}

void DeliveryEngine::CompleteLoop() {
  State& s = *state_;
  for (;;) {
    std::vector<ports::DeliveryOutcome> batch;
    bool finished = false;
    {
      util::MutexLock lock(&s.mu);
      while (!s.senders_done && s.done.empty()) s.done_cv.Wait(&s.mu);
      finished = s.senders_done;
      batch.swap(s.done);
    }
    if (!batch.empty()) {
      Status st = deps_.integrations->Complete(*deps_.db, batch, deps_.Now());
      if (st.ok()) CountOutcomes(deps_, batch);
      if (!st.ok() && deps_.log != nullptr) {
        // The rows stay leased (or, without leases, due) and are sent again
        // after the lease: at least once.
        deps_.log->Log(LogLevel::kError, "delivery outcomes not recorded",
                       {{"count", std::to_string(batch.size())}, {"error", st.ToString()}});
      }
      if (!s.leases) {
        // Recorded (or not): the next reads of due rows may see them again.
        util::MutexLock lock(&s.mu);
        for (const ports::DeliveryOutcome& o : batch) s.taken.erase(o.id);
      }
    }
    if (finished) return;  // nothing can be added after the senders ended
  }
}

}  // namespace service::app::integrations
