// SQL behind ports::TicketRepository (one text for both backends).
#include "areas/tickets/ports/ticket_repository.h"
#include "areas/tickets/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kColumns =
    "SELECT id, org_id, title, description, status, position, bug_id, assignee_id, created_at, updated_at "
    "FROM tickets";

// Board order of the statuses (domain::tickets::kStatuses).
constexpr std::string_view kBoardOrder =
    " ORDER BY CASE status WHEN 'backlog' THEN 0 WHEN 'todo' THEN 1 WHEN 'in_progress' THEN 2 "
    "WHEN 'review' THEN 3 WHEN 'done' THEN 4 ELSE 5 END, position, id";

ports::TicketRow RowAt(const Rows& r, size_t i) {
  ports::TicketRow t;
  t.id = r.Str(i, 0);
  t.org_id = r.Str(i, 1);
  t.title = r.Str(i, 2);
  t.description = r.Str(i, 3);
  t.status = r.Str(i, 4);
  t.position = r.Int(i, 5);
  t.bug_id = r.OptStr(i, 6);
  t.assignee_id = r.OptStr(i, 7);
  t.created_at = r.Int(i, 8);
  t.updated_at = r.Int(i, 9);
  return t;
}

class SqlTicketRepository final : public ports::TicketRepository {
 public:
  Status LockBoard(ports::Tx& t, const std::string& org_id) override {
    Connection& tx = Sql(t);
    SV_RETURN_IF_ERROR(
        tx.Exec("INSERT INTO ticket_boards (org_id, revision) VALUES (?, 0) ON CONFLICT (org_id) DO NOTHING",
                {org_id})
            .status());
    return tx.Exec("UPDATE ticket_boards SET revision = revision + 1 WHERE org_id = ?", {org_id}).status();
  }

  Result<std::vector<ports::TicketRow>> List(ports::Tx& t, const ports::TicketFilter& f) override {
    Connection& c = Sql(t);
    std::string sql = std::string(kColumns) + " WHERE org_id = ?";
    std::vector<Value> params{f.org_id};
    if (f.status) {
      sql += " AND status = ?";
      params.emplace_back(*f.status);
    }
    if (f.bug_id) {
      sql += " AND bug_id = ?";
      params.emplace_back(*f.bug_id);
    }
    sql += kBoardOrder;
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::TicketRow> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back(RowAt(r, i));
    return out;
  }

  Result<std::optional<ports::TicketRow>> Find(ports::Tx& t, const std::string& org_id,
                                               const std::string& id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string(kColumns) + " WHERE org_id = ? AND id = ?", {org_id, id}));
    if (r.empty()) return std::optional<ports::TicketRow>();
    return std::optional<ports::TicketRow>(RowAt(r, 0));
  }

  Result<int64_t> CountInColumn(ports::Tx& t, const std::string& org_id, const std::string& status) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT COUNT(*) FROM tickets WHERE org_id = ? AND status = ?",
                                             {org_id, status}));
    return r.Int(0, 0);
  }

  Status Insert(ports::Tx& t, const ports::TicketRow& row) override {
    return Sql(t)
        .Exec(
            "INSERT INTO tickets (id, org_id, title, description, status, position, bug_id, assignee_id, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {row.id, row.org_id, row.title, row.description, row.status, row.position, OptText(row.bug_id),
             OptText(row.assignee_id), row.created_at, row.updated_at})
        .status();
  }

  Result<bool> UpdateFields(ports::Tx& t, const ports::TicketRow& row) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n, Sql(t).Exec("UPDATE tickets SET title = ?, description = ?, bug_id = ?, "
                               "assignee_id = ?, updated_at = ? WHERE org_id = ? AND id = ?",
                               {row.title, row.description, OptText(row.bug_id), OptText(row.assignee_id),
                                row.updated_at, row.org_id, row.id}));
    return n > 0;
  }

  Status CloseGap(ports::Tx& t, const std::string& org_id, const std::string& status,
                  int64_t position) override {
    return Sql(t)
        .Exec("UPDATE tickets SET position = position - 1 WHERE org_id = ? AND status = ? AND position > ?",
              {org_id, status, position})
        .status();
  }

  Status OpenGap(ports::Tx& t, const std::string& org_id, const std::string& status, int64_t position,
                 const std::string& except_id) override {
    return Sql(t)
        .Exec(
            "UPDATE tickets SET position = position + 1 WHERE org_id = ? AND status = ? AND position >= ? "
            "AND id <> ?",
            {org_id, status, position, except_id})
        .status();
  }

  Result<bool> Place(ports::Tx& t, const std::string& org_id, const std::string& id,
                     const std::string& status, int64_t position, int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(int64_t n, Sql(t).Exec("UPDATE tickets SET status = ?, position = ?, updated_at = ? "
                                               "WHERE org_id = ? AND id = ?",
                                               {status, position, now_ms, org_id, id}));
    return n > 0;
  }

  Result<bool> Delete(ports::Tx& t, const std::string& org_id, const std::string& id) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(t).Exec("DELETE FROM tickets WHERE org_id = ? AND id = ?", {org_id, id}));
    return n > 0;
  }

  Status DeleteOrganizationRows(ports::Tx& t, const std::string& org_id) override {
    Connection& tx = Sql(t);
    SV_RETURN_IF_ERROR(tx.Exec("DELETE FROM tickets WHERE org_id = ?", {org_id}).status());
    return tx.Exec("DELETE FROM ticket_boards WHERE org_id = ?", {org_id}).status();
  }

  Status ClearAssignee(ports::Tx& t, const std::string& org_id, const std::string& user_id) override {
    return Sql(t)
        .Exec("UPDATE tickets SET assignee_id = NULL WHERE org_id = ? AND assignee_id = ?", {org_id, user_id})
        .status();
  }
};

}  // namespace

std::unique_ptr<ports::TicketRepository> NewSqlTicketRepository() {
  return std::make_unique<SqlTicketRepository>();
}

}  // namespace service::store
