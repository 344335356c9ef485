// PATCH /v1/bugs/:id, PATCH /v1/bugs/bulk, DELETE /v1/bugs/:id, POST /v1/bugs/merge.
#include <algorithm>
#include <set>

#include "areas/triage/app/internal.h"
#include "areas/triage/app/triage.h"
#include "util/strings.h"

namespace service::app::triage {
namespace {

namespace json = boost::json;
using internal::PendingEvents;

// The assignee a patch asks for, validated against the organization before
// anything else is read: nullopt = no change requested.
struct AssigneeCheck {
  bool requested = false;
  std::optional<ports::ActiveMember> member;  // empty when unassigning
};

Result<AssigneeCheck> CheckAssignee(const TriageDeps& deps, ports::Tx& tx, const ConsoleActor& actor,
                                    const BugPatch& patch) {
  AssigneeCheck out;
  if (!patch.assigned_to) return out;
  out.requested = true;
  const std::optional<std::string>& id = *patch.assigned_to;
  if (!id || id->empty()) return out;
  if (!util::IsUuid(*id)) return internal::AssigneeInvalid();
  SV_ASSIGN_OR_RETURN(out.member, deps.triage->FindActiveMember(tx, actor.org_id, *id));
  if (!out.member) return internal::AssigneeInvalid();
  return out;
}

// Applies `patch` to one locked bug with every side effect: history,
// regression, watchers' and assignee's notifications, events.
Status ApplyPatch(const TriageDeps& deps, ports::Tx& tx, const ConsoleActor& actor, ports::BugState bug,
                  const BugPatch& patch, const AssigneeCheck& assignee, PendingEvents& events) {
  const int64_t now = deps.Now();
  ports::BugChange change;
  const std::string old_status = bug.status;
  const bool status_changed = patch.status && *patch.status != bug.status;
  if (patch.status) change.status = *patch.status;
  if (patch.severity && *patch.severity != bug.severity) change.severity = *patch.severity;
  std::optional<std::string> new_assignee =
      assignee.member ? std::optional(assignee.member->user_id) : std::nullopt;
  const bool assignee_changed = assignee.requested && new_assignee != bug.assigned_to;
  if (assignee_changed) change.assigned_to = new_assignee;
  const bool reopened = status_changed && old_status == "resolved";
  if (reopened) change.mark_regression = true;

  SV_RETURN_IF_ERROR(deps.bugs->Apply(tx, bug.id, change, now));
  if (patch.status) {
    SV_RETURN_IF_ERROR(
        deps.triage->AddHistory(tx, ports::HistoryEntry{deps.ids->NewId(), bug.id, bug.org_id, old_status,
                                                        *patch.status, patch.note, actor.user_id, now}));
  }
  if (patch.status) bug.status = *patch.status;
  if (change.severity) bug.severity = *change.severity;
  if (assignee_changed) bug.assigned_to = new_assignee;
  if (reopened) bug.is_regression = true;

  if (status_changed) {
    SV_ASSIGN_OR_RETURN(std::vector<ports::ActiveMember> watchers,
                        deps.triage->ActiveWatchers(tx, bug.org_id, bug.id));
    const std::string title = "Status changed from " + old_status + " to " + bug.status + ": " + bug.title;
    for (const auto& w : watchers) {
      SV_RETURN_IF_ERROR(internal::Notify(
          deps, tx, w, internal::Notice{"status_changed", title, patch.note.value_or(""), actor.user_id},
          bug));
    }
    SV_RETURN_IF_ERROR(events.Queue(deps, tx,
                                    internal::BugEvent(deps, "status_change", bug,
                                                       json::object{{"oldStatus", old_status},
                                                                    {"newStatus", bug.status},
                                                                    {"changedBy", actor.user_id}})));
    if (reopened) {
      SV_RETURN_IF_ERROR(events.Queue(
          deps, tx,
          internal::BugEvent(deps, "regression", bug, json::object{{"reopenedBy", actor.user_id}})));
    }
  }
  if (assignee_changed && assignee.member) {
    SV_RETURN_IF_ERROR(deps.triage->Watch(tx, bug.org_id, bug.id, assignee.member->user_id, now).status());
    SV_RETURN_IF_ERROR(internal::Notify(
        deps, tx, *assignee.member,
        internal::Notice{"assigned", "You were assigned: " + bug.title, "", actor.user_id}, bug));
    SV_RETURN_IF_ERROR(events.Queue(
        deps, tx, internal::BugEvent(deps, "assigned", bug, json::object{{"assignedBy", actor.user_id}})));
  }
  return Status::Ok();
}

Status BugsNotFound() { return NotFound("Bugs not found"); }

}  // namespace

Status UpdateBug(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id,
                 const BugPatch& patch) {
  PendingEvents events;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    events.Clear();
    SV_ASSIGN_OR_RETURN(AssigneeCheck assignee, CheckAssignee(deps, tx, actor, patch));
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> bug,
                        deps.bugs->Lock(tx, actor.org_id, bug_id, deps.Now()));
    if (!bug) return internal::BugNotFound();
    return ApplyPatch(deps, tx, actor, std::move(*bug), patch, assignee, events);
  }));
  events.Publish(deps);
  return Status::Ok();
}

Result<int64_t> BulkUpdate(const TriageDeps& deps, const ConsoleActor& actor, const BulkSelection& sel,
                           const BugPatch& patch) {
  PendingEvents events;
  int64_t updated = 0;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    events.Clear();
    updated = 0;
    SV_ASSIGN_OR_RETURN(AssigneeCheck assignee, CheckAssignee(deps, tx, actor, patch));
    std::set<std::string> ids;
    for (const GroupRef& ref : sel.group_refs) {
      SV_ASSIGN_OR_RETURN(bool own, deps.bugs->ProjectInOrg(tx, actor.org_id, ref.project_id));
      if (!own) return NotFound("Project not found");
    }
    for (const std::string& key : sel.group_keys) {
      SV_ASSIGN_OR_RETURN(std::vector<std::string> projects, deps.bugs->GroupProjects(tx, actor.org_id, key));
      if (projects.size() > 1) {
        return Status(Code::kConflict, "Group key " + key + " exists in several projects; use groupRefs",
                      "GROUP_KEY_AMBIGUOUS");
      }
      if (projects.empty()) continue;
      SV_ASSIGN_OR_RETURN(std::vector<std::string> members,
                          deps.bugs->GroupMembers(tx, actor.org_id, projects.front(), key));
      ids.insert(members.begin(), members.end());
    }
    for (const GroupRef& ref : sel.group_refs) {
      SV_ASSIGN_OR_RETURN(std::vector<std::string> members,
                          deps.bugs->GroupMembers(tx, actor.org_id, ref.project_id, ref.group_key));
      ids.insert(members.begin(), members.end());
    }
    if (!sel.ids.empty()) {
      const std::set<std::string> wanted(sel.ids.begin(), sel.ids.end());
      SV_ASSIGN_OR_RETURN(std::vector<std::string> found,
                          deps.bugs->Existing(tx, actor.org_id, {wanted.begin(), wanted.end()}));
      if (found.size() != wanted.size()) return BugsNotFound();
      ids.insert(found.begin(), found.end());
    }
    if (ids.empty()) return BugsNotFound();
    for (const std::string& id : ids) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> bug,
                          deps.bugs->Lock(tx, actor.org_id, id, deps.Now()));
      if (!bug) return BugsNotFound();  // gone meanwhile
      SV_RETURN_IF_ERROR(ApplyPatch(deps, tx, actor, std::move(*bug), patch, assignee, events));
      ++updated;
    }
    return Status::Ok();
  }));
  events.Publish(deps);
  return updated;
}

Status DeleteBug(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id) {
  PendingEvents events;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    events.Clear();
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> bug,
                        deps.bugs->Lock(tx, actor.org_id, bug_id, deps.Now()));
    if (!bug) return internal::BugNotFound();
    SV_RETURN_IF_ERROR(deps.bugs->Delete(tx, bug_id));
    return events.Queue(
        deps, tx, internal::BugEvent(deps, "deleted", *bug, json::object{{"deletedBy", actor.user_id}}));
  }));
  events.Publish(deps);
  return Status::Ok();
}

Result<int64_t> MergeBugs(const TriageDeps& deps, const ConsoleActor& actor, const std::string& target,
                          const std::vector<std::string>& sources) {
  PendingEvents events;
  const Status s = deps.db->Write([&](ports::Tx& tx) -> Status {
    events.Clear();
    const int64_t now = deps.Now();
    // Rows are locked in id order, so two merges over the same bugs queue
    // instead of deadlocking.
    std::vector<std::string> all = sources;
    all.push_back(target);
    std::sort(all.begin(), all.end());
    std::optional<ports::BugState> kept;
    std::vector<ports::BugState> gone;
    for (const std::string& id : all) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> bug, deps.bugs->Lock(tx, actor.org_id, id, now));
      if (!bug) return BugsNotFound();
      if (id == target) {
        kept = std::move(bug);
      } else {
        gone.push_back(std::move(*bug));
      }
    }
    for (const ports::BugState& bug : gone) {
      if (bug.project_id != kept->project_id) {
        return InvalidArgument("Bugs to merge must belong to the same project");
      }
    }
    SV_RETURN_IF_ERROR(deps.bugs->Merge(tx, target, sources, now));
    for (const ports::BugState& bug : gone) {
      SV_RETURN_IF_ERROR(events.Queue(
          deps, tx,
          internal::BugEvent(deps, "deleted", bug,
                             json::object{{"mergedInto", target}, {"deletedBy", actor.user_id}})));
    }
    return Status::Ok();
  });
  if (!s.ok()) {
    if (s.code() == Code::kNotFound || s.code() == Code::kInvalidArgument) return s;
    if (deps.log) deps.log->Log(LogLevel::kError, "merge failed: " + s.message());
    return Status::Public(Code::kInternal, "Merge failed");
  }
  events.Publish(deps);
  return static_cast<int64_t>(sources.size());
}

}  // namespace service::app::triage
