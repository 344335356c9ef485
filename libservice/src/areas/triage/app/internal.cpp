#include "areas/triage/app/internal.h"

#include "areas/triage/app/digests.h"
#include "areas/triage/domain/notify.h"
#include "util/time.h"

namespace service::app::triage::internal {
namespace {

namespace json = boost::json;

constexpr const char* kChatKind = "chat";

std::string EmailText(const TriageDeps& deps, const Notice& n, const ports::BugState& bug, bool full) {
  std::string text = n.title + "\n\nBug: " + bug.title + "\n";
  if (full && !n.body.empty()) text += "\n" + n.body + "\n";
  text += "\nOpen it: " + BugLink(deps, bug.id) + "\n";
  text += "\nYou receive this because of your notification preferences in the console.\n";
  return text;
}

}  // namespace

Status BugNotFound() { return NotFound("Bug not found"); }

Status AssigneeInvalid() {
  return Status(Code::kInvalidArgument, "assignedTo must be an active member of this organization",
                "ASSIGNEE_INVALID");
}

std::string BugLink(const TriageDeps& deps, const std::string& bug_id) {
  std::string base = deps.public_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/bugs/" + bug_id;
}

Status Notify(const TriageDeps& deps, ports::Tx& tx, const ports::ActiveMember& to, const Notice& notice,
              const ports::BugState& bug) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::NotificationPreferences> stored,
                      deps.triage->FindPreferences(tx, bug.org_id, to.user_id));
  const ports::NotificationPreferences prefs = stored.value_or(ports::NotificationPreferences{});
  const bool mail = deps.mail != nullptr && deps.mail->configured();
  const domain::triage::EmailRoute route =
      mail ? domain::triage::RouteEmail(prefs.email_level, prefs.digest_freq)
           : domain::triage::EmailRoute::kNone;

  ports::NotificationRow row;
  row.id = deps.ids->NewId();
  row.user_id = to.user_id;
  row.org_id = bug.org_id;
  row.type = notice.type;
  row.title = notice.title;
  row.body = notice.body;
  row.bug_id = bug.id;
  row.actor_id = notice.actor_id;
  row.in_app = prefs.in_app_enabled;
  row.email_pending = route == domain::triage::EmailRoute::kDigest;
  row.created_at = deps.Now();
  if (row.in_app || row.email_pending) SV_RETURN_IF_ERROR(deps.triage->AddNotification(tx, row));

  if (route == domain::triage::EmailRoute::kNow) {
    SV_RETURN_IF_ERROR(QueueAlertEmail(deps, tx, bug.org_id, to.user_id, "instant", notice.title,
                                       EmailText(deps, notice, bug, prefs.email_level == "full"), {row.id}));
  }
  if (prefs.chat_enabled && prefs.chat_webhook && !prefs.chat_webhook->empty()) {
    const json::object payload{{"url", *prefs.chat_webhook},
                               {"text", notice.title + " - " + bug.title + " " + BugLink(deps, bug.id)}};
    SV_RETURN_IF_ERROR(
        deps.outbox->Enqueue(tx, deps.ids->NewId(), kChatKind, json::serialize(payload), deps.Now(), 6));
  }
  return Status::Ok();
}

ports::Event BugEvent(const TriageDeps& deps, const std::string& type, const ports::BugState& bug,
                      const json::object& extra) {
  json::object o{{"type", type},
                 {"id", bug.id},
                 {"bugId", bug.id},
                 {"orgId", bug.org_id},
                 {"projectId", bug.project_id},
                 {"title", bug.title},
                 {"severity", bug.severity},
                 {"status", bug.status},
                 {"url", bug.url},
                 {"signal_class", bug.signal_class},
                 {"is_regression", bug.is_regression},
                 {"assignedTo", bug.assigned_to ? json::value(*bug.assigned_to) : json::value(nullptr)},
                 {"timestamp", util::FormatIso8601(deps.Now())}};
  for (const auto& [k, v] : extra) o[k] = v;
  return ports::Event{type, bug.org_id, bug.project_id, json::serialize(o), bug.signal_class};
}

Status PendingEvents::Queue(const TriageDeps& deps, ports::Tx& tx, ports::Event e) {
  if (deps.events != nullptr) SV_RETURN_IF_ERROR(deps.events->Publish(tx, e, kTriageEvents));
  events_.push_back(std::move(e));
  return Status::Ok();
}

void PendingEvents::Publish(const TriageDeps& deps) {
  if (deps.bus == nullptr) return;
  for (const ports::Event& e : events_) deps.bus->Publish(e);
  events_.clear();
}

}  // namespace service::app::triage::internal
