#include "ports/outbox_repository.h"
#include "store/database.h"
#include "store/repositories.h"

namespace service::store {
namespace {

class SqlOutboxRepository final : public ports::OutboxRepository {
 public:
  Status Enqueue(ports::Tx& tx_tx, const std::string& id, const std::string& kind, const std::string& payload,
                 int64_t now_ms, int64_t max_attempts) override {
    Connection& tx = Sql(tx_tx);
    auto r = tx.Exec(
        "INSERT INTO outbox (id, kind, payload, status, attempts, max_attempts, next_attempt_at, created_at, "
        "updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?)",
        {id, kind, payload, max_attempts, now_ms, now_ms, now_ms});
    return r.status();
  }

  Result<std::vector<ports::OutboxItem>> Claim(ports::Transactions& db, const std::string& kind,
                                               int64_t now_ms, int64_t lease_ms, int limit) override {
    std::vector<ports::OutboxItem> items;
    Status s = db.Write([&](ports::Tx& c_tx) -> Status {
      Connection& c = Sql(c_tx);
      // PostgreSQL: several processes claim concurrently without blocking.
      const std::string lock = c.dialect() == Dialect::kPostgres ? " FOR UPDATE SKIP LOCKED" : "";
      SV_ASSIGN_OR_RETURN(
          Rows rows,
          c.Query("UPDATE outbox SET attempts = attempts + 1, locked_until = ?, updated_at = ? WHERE id IN ("
                  "SELECT id FROM outbox WHERE kind = ? AND status = 'pending' AND next_attempt_at <= ? AND "
                  "(locked_until IS NULL OR locked_until <= ?) ORDER BY next_attempt_at, id LIMIT ?" +
                      lock + ") RETURNING id, kind, payload, attempts, max_attempts",
                  {now_ms + lease_ms, now_ms, kind, now_ms, now_ms, int64_t{limit}}));
      items.clear();
      for (size_t i = 0; i < rows.size(); ++i)
        items.push_back({rows.Str(i, 0), rows.Str(i, 1), rows.Str(i, 2), rows.Int(i, 3), rows.Int(i, 4)});
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return items;
  }

  Status MarkDone(ports::Transactions& db, const std::string& id, int64_t now_ms) override {
    return db.Write([&](ports::Tx& c_tx) {
      Connection& c = Sql(c_tx);
      return c
          .Exec("UPDATE outbox SET status = 'done', locked_until = NULL, updated_at = ? WHERE id = ?",
                {now_ms, id})
          .status();
    });
  }

  Status MarkRetry(ports::Transactions& db, const ports::OutboxItem& item, const std::string& error,
                   int64_t now_ms, int64_t next_attempt_ms) override {
    const bool give_up = item.attempts >= item.max_attempts;
    return db.Write([&](ports::Tx& c_tx) {
      Connection& c = Sql(c_tx);
      return c
          .Exec(
              "UPDATE outbox SET status = ?, next_attempt_at = ?, locked_until = NULL, last_error = ?, "
              "updated_at = ? WHERE id = ?",
              {std::string(give_up ? "failed" : "pending"), next_attempt_ms, error.substr(0, 500), now_ms,
               item.id})
          .status();
    });
  }

  Result<int64_t> DeleteFinished(ports::Tx& c_tx, int64_t before_ms, int64_t limit) override {
    return Sql(c_tx).Exec(
        "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status IN ('done', 'failed') AND "
        "updated_at < ? ORDER BY updated_at LIMIT ?)",
        {before_ms, limit});
  }

  Result<ports::OutboxCounts> Counts(ports::Transactions& db, int64_t now_ms) override {
    ports::OutboxCounts counts;
    Status s = db.Read([&](ports::Tx& c_tx) -> Status {
      Connection& c = Sql(c_tx);
      SV_ASSIGN_OR_RETURN(
          Rows rows, c.Query("SELECT COUNT(*) FILTER (WHERE status = 'pending'), "
                             "COUNT(*) FILTER (WHERE status = 'failed'), "
                             "COUNT(*) FILTER (WHERE status = 'done'), "
                             "COUNT(*) FILTER (WHERE status = 'pending' AND next_attempt_at < ?) FROM outbox",
                             {now_ms - 60'000}));
      counts = {rows.Int(0, 0), rows.Int(0, 1), rows.Int(0, 2), rows.Int(0, 3)};
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return counts;
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::OutboxRepository> NewSqlOutboxRepository() {
  return std::make_unique<store::SqlOutboxRepository>();
}
}  // namespace service::store
