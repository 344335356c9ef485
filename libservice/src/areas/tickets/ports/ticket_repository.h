// TicketRepository: the tickets of an organization's kanban and the
// primitives that keep their positions dense (domain/board.h).
//
// Every method names the organization; a ticket of another organization
// reads as absent and is never changed. Writes REQUIRE the caller's
// Transactions::Write (or WriteAlone), reads its Read or Write.
//
// Positions: a write that changes positions (insert, move, delete) calls
// LockBoard first, before it reads any position, and the whole change runs
// in that one transaction. The lock is the organization's ticket_boards
// row, taken with an UPDATE (PostgreSQL: held until the transaction ends,
// so concurrent writers of one board, in this process or another, take
// turns and each reads the positions its predecessor committed; SQLite has
// one writer). A transaction takes at most one board's lock (callers use
// WriteAlone, so a shared group-commit transaction never holds two).
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct TicketRow {
  std::string id;
  std::string org_id;
  std::string title;
  std::string description;
  std::string status;
  int64_t position = 0;
  std::optional<std::string> bug_id;
  std::optional<std::string> assignee_id;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

// The filters of GET /v1/tickets (validated by the caller).
struct TicketFilter {
  std::string org_id;
  std::optional<std::string> status;
  std::optional<std::string> bug_id;
};

class TicketRepository {
 public:
  TicketRepository() = default;
  TicketRepository(const TicketRepository&) = delete;
  TicketRepository& operator=(const TicketRepository&) = delete;
  virtual ~TicketRepository() = default;

  // Takes the organization's board lock until the transaction ends (see
  // above), making the board row when it is the first write.
  virtual Status LockBoard(Tx& tx, const std::string& org_id) = 0;

  // Board order: status in domain::tickets::kStatuses order, then
  // position, then id.
  virtual Result<std::vector<TicketRow>> List(Tx& c, const TicketFilter& filter) = 0;
  virtual Result<std::optional<TicketRow>> Find(Tx& c, const std::string& org_id, const std::string& id) = 0;
  // How many tickets the organization's `status` column holds.
  virtual Result<int64_t> CountInColumn(Tx& c, const std::string& org_id, const std::string& status) = 0;

  // Inserts `row` as given (its position chosen by the caller under the
  // board lock). An existing id: kConflict.
  virtual Status Insert(Tx& tx, const TicketRow& row) = 0;
  // Writes title, description, bug_id, assignee_id and updated_at of the
  // organization's ticket `row.id` (status and position untouched). Returns
  // false when there is none.
  virtual Result<bool> UpdateFields(Tx& tx, const TicketRow& row) = 0;
  // The tickets of `status` after `position` move up one (a ticket left
  // that place).
  virtual Status CloseGap(Tx& tx, const std::string& org_id, const std::string& status, int64_t position) = 0;
  // The tickets of `status` at or after `position`, except `except_id`,
  // move down one (room for a ticket at `position`).
  virtual Status OpenGap(Tx& tx, const std::string& org_id, const std::string& status, int64_t position,
                         const std::string& except_id) = 0;
  // Sets the ticket's status, position and updated_at. Returns false when
  // the organization has no such ticket.
  virtual Result<bool> Place(Tx& tx, const std::string& org_id, const std::string& id,
                             const std::string& status, int64_t position, int64_t now_ms) = 0;
  // Deletes the ticket (the caller closes its gap). Returns false when the
  // organization has no such ticket.
  virtual Result<bool> Delete(Tx& tx, const std::string& org_id, const std::string& id) = 0;

  // Deletion hooks (app/deletion_hooks.h): the organization's tickets and
  // board row; a removed member's assignments in that organization.
  virtual Status DeleteOrganizationRows(Tx& tx, const std::string& org_id) = 0;
  virtual Status ClearAssignee(Tx& tx, const std::string& org_id, const std::string& user_id) = 0;
};

}  // namespace service::ports
