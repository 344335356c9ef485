// Alert email batches: queueing, sending, history and recipient decisions.
#include "areas/triage/app/digests.h"

#include <algorithm>
#include <tuple>

#include "app/retention.h"
#include "areas/triage/app/internal.h"
#include "areas/triage/domain/notify.h"
#include "service/mailer.h"
#include "util/strings.h"

namespace service::app::triage {
namespace {

namespace dt = domain::triage;

constexpr int64_t kSendBatch = 20;
constexpr size_t kMaxErrorLength = 500;
constexpr size_t kMaxAlertTitle = 150;  // of the bug's title in an alert subject
constexpr size_t kMaxAlertBody = 1000;

Status DigestBusy() {
  return Status(Code::kConflict, "A send holds this digest batch; resend the same request", "DIGEST_BUSY");
}

bool IsAlertType(std::string_view type) { return type == "new_bug" || type == "regression"; }

// The alert policy's answer for the batch's alert events now: a reason to
// cancel (every event is an alert the policy excludes), or the time to
// hold it until (its alerts are all in quiet hours and it carries nothing
// that could go now), or neither.
Result<std::pair<std::string, std::optional<int64_t>>> CheckAlertPolicy(const TriageDeps& deps, ports::Tx& tx,
                                                                        const ports::DigestBatch& b) {
  std::pair<std::string, std::optional<int64_t>> out;
  if (!deps.alert_gate) return out;
  SV_ASSIGN_OR_RETURN(std::vector<ports::DigestEventRef> events, deps.digests->Events(tx, b.id));
  size_t alerts = 0, excluded = 0;
  bool sendable = false;
  std::optional<int64_t> until;
  for (const ports::DigestEventRef& e : events) {
    if (!IsAlertType(e.type) || !e.bug_id) {
      sendable = true;
      continue;
    }
    ++alerts;
    SV_ASSIGN_OR_RETURN(AlertGate gate, deps.alert_gate(tx, b.org_id, *e.bug_id, e.type));
    if (gate.excluded) {
      ++excluded;
    } else if (gate.quiet_until) {
      until = until ? std::min(*until, *gate.quiet_until) : *gate.quiet_until;
    } else {
      sendable = true;
    }
  }
  if (sendable || alerts == 0) return out;
  if (until) {
    out.second = until;
  } else if (excluded == alerts) {
    out.first = "the project's alert policy now excludes every event of this email";
  }
  return out;
}

// Claims `b` and prepares its send in one write transaction. Returns the
// address to send to, or nullopt when another process took the batch or
// the recipient no longer gets it (then it is cancelled).
Result<std::optional<std::string>> ClaimAndPrepare(const TriageDeps& deps, const ports::DigestBatch& b) {
  std::optional<std::string> to;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(
        bool claimed, deps.digests->Claim(tx, b.id, b.generation, b.attempts, now + dt::kDigestLeaseMs, now));
    if (!claimed) return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::optional<ports::ActiveMember> member,
                        deps.triage->FindActiveMember(tx, b.org_id, b.user_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::NotificationPreferences> prefs,
                        deps.triage->FindPreferences(tx, b.org_id, b.user_id));
    std::string why;
    if (!member) {
      why = "the recipient is no longer an active member of the organization";
    } else if (prefs && prefs->email_level == "off") {
      why = "the recipient turned email off";
    }
    std::optional<int64_t> hold_until;
    if (why.empty()) {
      SV_ASSIGN_OR_RETURN(std::tie(why, hold_until), CheckAlertPolicy(deps, tx, b));
    }
    if (!why.empty()) {
      return deps.digests
          ->Finish(tx, b.id, b.generation, b.attempts + 1, "cancelled", why, now, std::nullopt, now)
          .status();
    }
    if (hold_until) {
      return deps.digests->Hold(tx, b.id, b.generation, b.attempts + 1, *hold_until, now).status();
    }
    to = member->email;
    return Status::Ok();
  }));
  return to;
}

Status SendOne(const TriageDeps& deps, Mailer& mailer, const ports::DigestBatch& b) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> to, ClaimAndPrepare(deps, b));
  if (!to) return Status::Ok();
  const int64_t attempts = b.attempts + 1;
  // A stable Message-ID per generation: a relay that deduplicates sees one
  // message per send the recipient asked for.
  const Status sent = mailer.Send(
      OutgoingMail{b.id + "-" + std::to_string(b.generation), *to, b.subject, b.body, deps.Now()});
  const int64_t now = deps.Now();
  std::string state, error;
  int64_t next_at = now;
  std::optional<int64_t> sent_at;
  if (sent.ok()) {
    state = "succeeded";
    sent_at = now;
  } else {
    error = sent.message().substr(0, kMaxErrorLength);
    if (IsMailOutcomeUnknown(sent)) {
      state = "outcome_unknown";
    } else if (IsPermanentMailFailure(sent) || attempts >= dt::kDigestMaxAttempts) {
      state = "permanent_failure";
    } else {
      state = "retryable";
      next_at = now + dt::DigestBackoffMs(attempts);
    }
  }
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    return deps.digests->Finish(tx, b.id, b.generation, attempts, state, error, next_at, sent_at, now)
        .status();
  });
}

}  // namespace

Status QueueAlertEmail(const TriageDeps& deps, ports::Tx& tx, const std::string& org_id,
                       const std::string& user_id, const std::string& kind, const std::string& subject,
                       const std::string& body, const std::vector<std::string>& notification_ids,
                       std::optional<int64_t> deliver_at) {
  ports::DigestBatch b;
  b.id = deps.ids->NewId();
  b.org_id = org_id;
  b.user_id = user_id;
  b.kind = kind;
  b.subject = subject;
  for (char& c : b.subject) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';  // one header line
  }
  b.body = body;
  b.created_at = deps.Now();
  b.next_attempt_at = deliver_at.value_or(b.created_at);
  return deps.digests->Insert(tx, b, notification_ids);
}

bool SendsAlertEmails(const TriageDeps& deps) {
  return deps.digests != nullptr && deps.mail != nullptr && deps.mail->configured();
}

Status QueueBugAlert(const TriageDeps& deps, ports::Tx& tx, const BugAlert& alert) {
  if (!SendsAlertEmails(deps)) return Status::Ok();
  SV_ASSIGN_OR_RETURN(std::vector<ports::AlertRecipient> recipients,
                      deps.triage->AlertRecipients(tx, alert.org_id));
  if (recipients.empty()) return Status::Ok();
  SV_ASSIGN_OR_RETURN(std::optional<ports::Project> project,
                      deps.projects->Find(tx, alert.org_id, alert.project_id));
  const std::string project_name = project ? project->name : alert.project_id;
  const std::string what = alert.event_type == "regression" ? "Regression" : "New bug";
  const std::string title = util::Utf8Shorten(alert.bug_title, kMaxAlertTitle);
  const std::string subject = "[" + project_name + "] " + what + ": " + title;
  const std::string link = internal::BugLink(deps, alert.bug_id);
  const std::string bug_title = util::Utf8Shorten(alert.bug_title, kMaxAlertBody);
  const int64_t now = deps.Now();
  for (const ports::AlertRecipient& to : recipients) {
    const dt::EmailRoute route = dt::RouteEmail(to.prefs.email_level, to.prefs.digest_freq);
    if (route == dt::EmailRoute::kNone) continue;
    ports::NotificationRow row;
    row.id = deps.ids->NewId();
    row.user_id = to.member.user_id;
    row.org_id = alert.org_id;
    row.type = alert.event_type;
    row.title = subject;
    row.body = what + " in " + project_name + ": " + bug_title;
    row.bug_id = alert.bug_id;
    row.in_app = false;  // alert emails only: the in-app list holds Spec 1's types
    row.email_pending = route == dt::EmailRoute::kDigest;
    row.created_at = now;
    row.deliver_at = alert.quiet_until;
    SV_RETURN_IF_ERROR(deps.triage->AddNotification(tx, row));
    if (route != dt::EmailRoute::kNow) continue;
    std::string text = what + " in " + project_name + ":\n\n" + bug_title + "\n\nOpen it: " + link + "\n";
    text += "\nYou receive this because of your notification preferences in the console.\n";
    SV_RETURN_IF_ERROR(QueueAlertEmail(deps, tx, alert.org_id, to.member.user_id, "instant", subject, text,
                                       {row.id}, alert.quiet_until));
  }
  return Status::Ok();
}

Status SendDueBatches(const TriageDeps& deps, const std::function<bool()>& keep_going) {
  if (deps.mail == nullptr || deps.mail->mailer() == nullptr || deps.digests == nullptr) return Status::Ok();
  Mailer& mailer = *deps.mail->mailer();
  SV_RETURN_IF_ERROR(deps.db->Write(
      [&](ports::Tx& tx) -> Status { return deps.digests->ExpireLeases(tx, deps.Now()).status(); }));
  for (int round = 0; round < 20 && keep_going(); ++round) {
    std::vector<ports::DigestBatch> due;
    SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
      SV_ASSIGN_OR_RETURN(due, deps.digests->Due(c, deps.Now(), kSendBatch));
      return Status::Ok();
    }));
    for (const ports::DigestBatch& b : due) {
      if (!keep_going()) return Status::Ok();
      SV_RETURN_IF_ERROR(SendOne(deps, mailer, b));
    }
    if (static_cast<int64_t>(due.size()) < kSendBatch) break;
  }
  return Status::Ok();
}

Result<int64_t> SweepDigestBatches(const TriageDeps& deps, int64_t batch_rows) {
  const int64_t before = deps.Now() - deps.digest_retention_ms;
  return SweepInBatches(*deps.db, batch_rows, [&](ports::Tx& tx, int64_t limit) {
    return deps.digests->SweepFinished(tx, before, limit);
  });
}

Result<DigestHistoryPage> DigestHistory(const TriageDeps& deps, const ConsoleActor& actor,
                                        const std::string& project_id,
                                        const std::optional<std::string>& after) {
  DigestHistoryPage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Project> project,
                        deps.projects->Find(c, actor.org_id, project_id));
    if (!project) return NotFound("Project not found");
    std::optional<std::pair<int64_t, std::string>> from;
    if (after) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::DigestBatch> cursor, deps.digests->Find(c, *after));
      bool mine = cursor && cursor->org_id == actor.org_id && cursor->user_id == actor.user_id &&
                  cursor->kind == "digest";
      if (mine) {
        SV_ASSIGN_OR_RETURN(mine, deps.digests->HoldsProject(c, *after, project_id));
      }
      if (!mine) return NotFound("Cursor not found");
      from = std::make_pair(cursor->created_at, cursor->id);
    }
    SV_ASSIGN_OR_RETURN(page.batches, deps.digests->History(c, actor.org_id, actor.user_id, project_id, from,
                                                            dt::kDigestHistoryPage + 1));
    if (static_cast<int64_t>(page.batches.size()) > dt::kDigestHistoryPage) {
      page.batches.resize(dt::kDigestHistoryPage);
      page.next_cursor = page.batches.back().id;
    }
    SV_ASSIGN_OR_RETURN(page.pending_events,
                        deps.digests->PendingEvents(c, actor.org_id, actor.user_id, project_id));
    return Status::Ok();
  }));
  return page;
}

Result<DigestReceipt> ResolveDigest(const TriageDeps& deps, const ConsoleActor& actor,
                                    const std::string& batch_id, const DigestResolutionRequest& req) {
  DigestReceipt out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(std::optional<ports::DigestBatch> b, deps.digests->Find(tx, batch_id));
    bool mine = b && b->org_id == actor.org_id && b->user_id == actor.user_id && b->kind == "digest";
    if (mine) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::Project> project,
                          deps.projects->Find(tx, actor.org_id, req.project_id));
      if (!project) return NotFound("Project not found");
      SV_ASSIGN_OR_RETURN(mine, deps.digests->HoldsProject(tx, batch_id, req.project_id));
    }
    if (!mine) return NotFound("Digest batch not found");

    SV_ASSIGN_OR_RETURN(std::optional<ports::DigestDecision> earlier,
                        deps.digests->FindDecision(tx, actor.user_id, req.request_id));
    if (earlier) {
      const bool same = earlier->batch_id == batch_id && earlier->project_id == req.project_id &&
                        earlier->action == req.action &&
                        earlier->expected_generation == req.expected_generation &&
                        earlier->accept_duplicate_risk == req.accept_duplicate_risk;
      if (!same) return Conflict("requestId was already used for a different request");
      out.decision = *earlier;
      out.replayed = true;
      return Status::Ok();
    }
    if (b->state == "sending") return DigestBusy();
    if (req.expected_generation != b->generation) {
      return Status(Code::kConflict, "expectedGeneration " + std::to_string(req.expected_generation) +
                                         " is stale; the batch is at "
                                         "generation " +
                                         std::to_string(b->generation));
    }
    const dt::DigestAllowed allowed = dt::AllowedDigestActions(b->state, b->attempts, b->generation,
                                                               b->resolution && *b->resolution == "received");
    if ((req.action == "received" && !allowed.received) || (req.action == "retry" && !allowed.retry)) {
      return Status(Code::kConflict,
                    req.action + " is not allowed now: " + allowed.reason.value_or("not allowed"));
    }
    bool changed = false;
    if (req.action == "received") {
      SV_ASSIGN_OR_RETURN(changed, deps.digests->MarkReceived(tx, batch_id, b->generation, now));
    } else {
      SV_ASSIGN_OR_RETURN(changed, deps.digests->Requeue(tx, batch_id, b->generation, now));
    }
    if (!changed) return DigestBusy();  // a send or another decision moved it meanwhile
    ports::DigestDecision d;
    d.id = deps.ids->NewId();
    d.batch_id = batch_id;
    d.user_id = actor.user_id;
    d.request_id = req.request_id;
    d.project_id = req.project_id;
    d.action = req.action;
    d.accept_duplicate_risk = req.accept_duplicate_risk;
    d.expected_generation = b->generation;
    d.next_generation = req.action == "retry" ? b->generation + 1 : b->generation;
    d.created_at = now;
    SV_RETURN_IF_ERROR(deps.digests->InsertDecision(tx, d));
    out.decision = d;
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::triage
