// Tickets: a kanban per organization (issue 28 item 4, server-contract
// "Tickets"). Use cases behind GET/POST /v1/tickets, GET/PATCH/DELETE
// /v1/tickets/:id and POST /v1/tickets/:id/move.
//
// Who may: reading needs Capability::kViewBugs (every role), writing
// kUpdateBugs (admin, manager, member, tester; viewers read only).
// Every use case is scoped to the actor's organization: another
// organization's ticket is 404 "Ticket not found".
//
// Positions stay dense under concurrent writers (domain/board.h,
// ports/ticket_repository.h): creation, moves, status changes and deletion
// run in one WriteAlone transaction that takes the board lock before it
// reads a position.
//
// Failures: kInvalidArgument "Validation failed" with details (a bugId
// that is not a bug of the organization, an assigneeId that is not an
// active member), kNotFound, kPermissionDenied, driver errors.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/tickets/ports/ticket_repository.h"
#include "areas/triage/ports/triage_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::tickets {

// The development-only agent credential of the ticket routes
// (server-contract "Tickets": `X-Agent-Token` with `X-Service-Org`,
// accepted only when SERVICE_ENV is development). Given the token and the
// organization named, it answers the actor the token acts for, or a
// failure (any failure is answered 401). Agent tokens arrive with the
// agents issue, which sets it (TicketsModule::SetAgentTokenCheck); until
// then it is empty and every X-Agent-Token is refused.
using AgentTokenCheck =
    std::function<Result<ConsoleActor>(const std::string& token, const std::string& org_id)>;

struct TicketsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::TicketRepository* tickets = nullptr;
  ports::BugReadRepository* bugs = nullptr;    // a bugId is a bug of the organization
  ports::TriageRepository* members = nullptr;  // an assigneeId is an active member
  // SERVICE_ENV=production: X-Agent-Token is refused without being looked at.
  bool production = false;
  AgentTokenCheck agent_token_check;  // empty: none can be valid

  int64_t Now() const { return clock->NowMillis(); }
};

struct NewTicket {
  std::string title;
  std::string description;
  std::string status = "backlog";
  std::optional<std::string> bug_id;
  std::optional<std::string> assignee_id;
};

// A PATCH: absent fields stay; bug_id and assignee_id hold nullopt inside
// to clear them. A new status moves the ticket to the end of that column.
struct TicketPatch {
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> status;
  std::optional<std::optional<std::string>> bug_id;
  std::optional<std::optional<std::string>> assignee_id;
  bool empty() const { return !title && !description && !status && !bug_id && !assignee_id; }
};

Result<std::vector<ports::TicketRow>> ListTickets(const TicketsDeps& deps, const ConsoleActor& actor,
                                                  const std::optional<std::string>& status,
                                                  const std::optional<std::string>& bug_id);
Result<ports::TicketRow> GetTicket(const TicketsDeps& deps, const ConsoleActor& actor, const std::string& id);
// Appends the ticket at the end of its column.
Result<ports::TicketRow> CreateTicket(const TicketsDeps& deps, const ConsoleActor& actor,
                                      const NewTicket& in);
Result<ports::TicketRow> UpdateTicket(const TicketsDeps& deps, const ConsoleActor& actor,
                                      const std::string& id, const TicketPatch& patch);
// Takes the ticket out of its column and inserts it into `status` at
// `position`, clamped to 0..n (domain::tickets::ClampPosition).
// REQUIRES: status is one of domain::tickets::kStatuses; position >= 0.
Result<ports::TicketRow> MoveTicket(const TicketsDeps& deps, const ConsoleActor& actor, const std::string& id,
                                    const std::string& status, int64_t position);
Status DeleteTicket(const TicketsDeps& deps, const ConsoleActor& actor, const std::string& id);

}  // namespace service::app::tickets
