// Pieces shared by the triage use cases: notifying one member under their
// preferences, and the stream events of triage writes. Internal to
// app/triage.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "areas/triage/app/triage.h"

namespace service::app::triage::internal {

struct Notice {
  std::string type;   // assigned, comment, mention, status_changed
  std::string title;  // one line
  std::string body;   // the detail (comment text, note); may be empty
  std::optional<std::string> actor_id;
};

// Writes `notice` about `bug` for `to` under their preferences: an in-app
// row unless inAppEnabled is off, an email now or a digest mark per
// emailLevel and digestFreq (only when mail is configured), and a chat post
// when chatEnabled with a chatWebhook. REQUIRES: inside the write.
Status Notify(const TriageDeps& deps, ports::Tx& tx, const ports::ActiveMember& to, const Notice& notice,
              const ports::BugState& bug);

// The console link of a bug.
std::string BugLink(const TriageDeps& deps, const std::string& bug_id);

// A stream event of `type` about `bug` with its common fields (type, id,
// bugId, orgId, projectId, title, severity, status, url, signal_class,
// is_regression, assignedTo, timestamp) plus `extra`.
ports::Event BugEvent(const TriageDeps& deps, const std::string& type, const ports::BugState& bug,
                      const boost::json::object& extra = {});

// Events collected during a write: queued on the event outbox inside it
// (Queue) and published after the commit (Publish).
class PendingEvents {
 public:
  Status Queue(const TriageDeps& deps, ports::Tx& tx, ports::Event e);
  void Publish(const TriageDeps& deps);
  void Clear() { events_.clear(); }

 private:
  std::vector<ports::Event> events_;
};

Status BugNotFound();
// 400 ASSIGNEE_INVALID.
Status AssigneeInvalid();

}  // namespace service::app::triage::internal
