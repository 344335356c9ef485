#include "areas/tickets/app/tickets.h"

#include <boost/json.hpp>

#include "areas/tickets/domain/board.h"

namespace service::app::tickets {
namespace {

namespace json = boost::json;
namespace dt = domain::tickets;

Status TicketNotFound() { return NotFound("Ticket not found"); }

Status Invalid(std::string_view field, std::string_view message) {
  json::array details{json::object{{"field", field}, {"message", message}}};
  return Status(Code::kInvalidArgument, "Validation failed", "",
                json::serialize(json::object{{"details", std::move(details)}}));
}

// The references a write names, checked against the actor's organization:
// a bug of another organization reads as no bug (400, never a hint that it
// exists elsewhere).
Status CheckReferences(const TicketsDeps& deps, ports::Tx& tx, const std::string& org_id,
                       const std::optional<std::string>& bug_id,
                       const std::optional<std::string>& assignee_id) {
  if (bug_id) {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(tx, org_id, *bug_id));
    if (!bug) return Invalid("bugId", "must be a bug of this organization");
  }
  if (assignee_id) {
    SV_ASSIGN_OR_RETURN(std::optional<ports::ActiveMember> member,
                        deps.members->FindActiveMember(tx, org_id, *assignee_id));
    if (!member) return Invalid("assigneeId", "must be an active member of this organization");
  }
  return Status::Ok();
}

// Moves the locked board's ticket `t` to `status` at `requested` (clamped);
// updates `t`.
Status MoveLocked(const TicketsDeps& deps, ports::Tx& tx, ports::TicketRow& t, const std::string& status,
                  int64_t requested, int64_t now) {
  SV_ASSIGN_OR_RETURN(const int64_t in_target, deps.tickets->CountInColumn(tx, t.org_id, status));
  const int64_t others = status == t.status ? in_target - 1 : in_target;
  const int64_t position = dt::ClampPosition(requested, others);
  SV_RETURN_IF_ERROR(deps.tickets->CloseGap(tx, t.org_id, t.status, t.position));
  SV_RETURN_IF_ERROR(deps.tickets->OpenGap(tx, t.org_id, status, position, t.id));
  SV_ASSIGN_OR_RETURN(bool placed, deps.tickets->Place(tx, t.org_id, t.id, status, position, now));
  if (!placed) return TicketNotFound();
  t.status = status;
  t.position = position;
  t.updated_at = now;
  return Status::Ok();
}

}  // namespace

Result<std::vector<ports::TicketRow>> ListTickets(const TicketsDeps& deps, const ConsoleActor& actor,
                                                  const std::optional<std::string>& status,
                                                  const std::optional<std::string>& bug_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewBugs));
  std::vector<ports::TicketRow> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.tickets->List(c, ports::TicketFilter{actor.org_id, status, bug_id}));
    return Status::Ok();
  }));
  return out;
}

Result<ports::TicketRow> GetTicket(const TicketsDeps& deps, const ConsoleActor& actor,
                                   const std::string& id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewBugs));
  std::optional<ports::TicketRow> t;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(t, deps.tickets->Find(c, actor.org_id, id));
    return Status::Ok();
  }));
  if (!t) return TicketNotFound();
  return *t;
}

Result<ports::TicketRow> CreateTicket(const TicketsDeps& deps, const ConsoleActor& actor,
                                      const NewTicket& in) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kUpdateBugs));
  if (!dt::IsStatus(in.status)) return Invalid("status", "unknown status");
  ports::TicketRow row;
  row.id = deps.ids->NewId();
  row.org_id = actor.org_id;
  row.title = in.title;
  row.description = in.description;
  row.status = in.status;
  row.bug_id = in.bug_id;
  row.assignee_id = in.assignee_id;
  SV_RETURN_IF_ERROR(deps.db->WriteAlone([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(CheckReferences(deps, tx, actor.org_id, in.bug_id, in.assignee_id));
    SV_RETURN_IF_ERROR(deps.tickets->LockBoard(tx, actor.org_id));
    SV_ASSIGN_OR_RETURN(row.position, deps.tickets->CountInColumn(tx, actor.org_id, row.status));
    row.created_at = row.updated_at = deps.Now();
    return deps.tickets->Insert(tx, row);
  }));
  return row;
}

Result<ports::TicketRow> UpdateTicket(const TicketsDeps& deps, const ConsoleActor& actor,
                                      const std::string& id, const TicketPatch& patch) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kUpdateBugs));
  if (patch.status && !dt::IsStatus(*patch.status)) return Invalid("status", "unknown status");
  std::optional<ports::TicketRow> t;
  // A status change moves positions: the board lock first, like a move.
  SV_RETURN_IF_ERROR(deps.db->WriteAlone([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(CheckReferences(deps, tx, actor.org_id, patch.bug_id ? *patch.bug_id : std::nullopt,
                                       patch.assignee_id ? *patch.assignee_id : std::nullopt));
    if (patch.status) SV_RETURN_IF_ERROR(deps.tickets->LockBoard(tx, actor.org_id));
    SV_ASSIGN_OR_RETURN(t, deps.tickets->Find(tx, actor.org_id, id));
    if (!t) return TicketNotFound();
    const int64_t now = deps.Now();
    if (patch.title) t->title = *patch.title;
    if (patch.description) t->description = *patch.description;
    if (patch.bug_id) t->bug_id = *patch.bug_id;
    if (patch.assignee_id) t->assignee_id = *patch.assignee_id;
    t->updated_at = now;
    SV_ASSIGN_OR_RETURN(bool updated, deps.tickets->UpdateFields(tx, *t));
    if (!updated) return TicketNotFound();
    if (patch.status && *patch.status != t->status) {
      // The end of the new column: a position beyond it clamps there.
      SV_RETURN_IF_ERROR(MoveLocked(deps, tx, *t, *patch.status, INT64_MAX, now));
    }
    return Status::Ok();
  }));
  return *t;
}

Result<ports::TicketRow> MoveTicket(const TicketsDeps& deps, const ConsoleActor& actor, const std::string& id,
                                    const std::string& status, int64_t position) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kUpdateBugs));
  if (!dt::IsStatus(status)) return Invalid("status", "unknown status");
  std::optional<ports::TicketRow> t;
  SV_RETURN_IF_ERROR(deps.db->WriteAlone([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(deps.tickets->LockBoard(tx, actor.org_id));
    SV_ASSIGN_OR_RETURN(t, deps.tickets->Find(tx, actor.org_id, id));
    if (!t) return TicketNotFound();
    return MoveLocked(deps, tx, *t, status, position, deps.Now());
  }));
  return *t;
}

Status DeleteTicket(const TicketsDeps& deps, const ConsoleActor& actor, const std::string& id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kUpdateBugs));
  return deps.db->WriteAlone([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(deps.tickets->LockBoard(tx, actor.org_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::TicketRow> t, deps.tickets->Find(tx, actor.org_id, id));
    if (!t) return TicketNotFound();
    SV_ASSIGN_OR_RETURN(bool deleted, deps.tickets->Delete(tx, actor.org_id, id));
    if (!deleted) return TicketNotFound();
    return deps.tickets->CloseGap(tx, actor.org_id, t->status, t->position);
  });
}

}  // namespace service::app::tickets
