#include "support/triage_fixture.h"

#include <doctest/doctest.h>

#include "areas/triage/module.h"
#include "modules/platform.h"
#include "service_internal.h"

namespace service::testing {
namespace {

const app::triage::TriageDeps& TriageOf(TestService& t) {
  return service::internal::ModulesOf(t.service()).Get<service::modules::TriageModule>().deps();
}

void Require(const Status& st) { REQUIRE_MESSAGE(st.ok(), st.ToString()); }

// Applies `change` to `bug` in `org_id`; calls `then` with the bug as it
// was, inside the same transaction.
void ChangeBug(TestService& t, const std::string& org_id, const std::string& bug,
               const ports::BugChange& change,
               const std::function<Status(ports::Tx&, const ports::BugState&, int64_t)>& then = {}) {
  const app::triage::TriageDeps& d = TriageOf(t);
  const int64_t now = d.Now();
  Require(d.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> before, d.bugs->Lock(tx, org_id, bug, now));
    if (!before) return Status(Code::kNotFound, "no bug " + bug + " in " + org_id);
    SV_RETURN_IF_ERROR(d.bugs->Apply(tx, bug, change, now));
    return then ? then(tx, *before, now) : Status::Ok();
  }));
}

}  // namespace

void SetBugStatus(TestService& t, const std::string& org_id, const std::string& bug,
                  const std::string& status, const std::string& by) {
  ports::BugChange change;
  change.status = status;
  ChangeBug(t, org_id, bug, change, [&](ports::Tx& tx, const ports::BugState& before, int64_t now) -> Status {
    if (by.empty()) return Status::Ok();
    const app::triage::TriageDeps& d = TriageOf(t);
    ports::HistoryEntry h;
    h.id = d.ids->NewId();
    h.bug_id = bug;
    h.org_id = before.org_id;
    h.old_status = before.status;
    h.new_status = status;
    h.changed_by = by;
    h.changed_at = now;
    return d.triage->AddHistory(tx, h);
  });
}

void AssignBug(TestService& t, const std::string& org_id, const std::string& bug,
               const std::string& user_id) {
  ports::BugChange change;
  change.assigned_to = std::optional<std::string>(user_id);
  ChangeBug(t, org_id, bug, change);
}

void AddComment(TestService& t, const std::string& org_id, const std::string& bug, const std::string& user_id,
                const std::string& content) {
  const app::triage::TriageDeps& d = TriageOf(t);
  ports::CommentRow c{d.ids->NewId(), bug, org_id, user_id, content, d.Now()};
  Require(d.db->Write([&](ports::Tx& tx) { return d.triage->AddComment(tx, c); }));
}

void AddWatcher(TestService& t, const std::string& org_id, const std::string& bug,
                const std::string& user_id) {
  const app::triage::TriageDeps& d = TriageOf(t);
  Require(d.db->Write(
      [&](ports::Tx& tx) { return d.triage->Watch(tx, org_id, bug, user_id, d.Now()).status(); }));
}

void AddNotification(TestService& t, const std::string& org_id, const std::string& user_id,
                     const std::string& bug, const std::string& type, const std::string& title) {
  const app::triage::TriageDeps& d = TriageOf(t);
  ports::NotificationRow n;
  n.id = d.ids->NewId();
  n.user_id = user_id;
  n.org_id = org_id;
  n.type = type;
  n.title = title;
  n.bug_id = bug;
  n.created_at = d.Now();
  Require(d.db->Write([&](ports::Tx& tx) { return d.triage->AddNotification(tx, n); }));
}

void SetNotificationPreferences(TestService& t, const std::string& org_id, const std::string& user_id,
                                const std::string& email_level) {
  const app::triage::TriageDeps& d = TriageOf(t);
  Require(d.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::NotificationPreferences> kept,
                        d.triage->FindPreferences(tx, org_id, user_id));
    if (kept) return Status::Ok();
    ports::NotificationPreferences p;  // the table's defaults
    p.user_id = user_id;
    p.org_id = org_id;
    p.email_level = email_level;
    p.updated_at = d.Now();
    return d.triage->SavePreferences(tx, p);
  }));
}

}  // namespace service::testing
