// The ports::Transactions of a SQL Database: the application's view of it.
#include <atomic>
#include <memory>

#include "store/database.h"
#include "store/group_committer.h"

namespace service::store {
namespace {

class SqlTransactions final : public DatabaseTransactions {
 public:
  explicit SqlTransactions(Database& db) : db_(&db) {}

  void Rebind(Database& db) override { db_.store(&db); }

  std::string_view backend_name() const override { return db().backend_name(); }
  bool single_process() const override { return db().dialect() == Dialect::kSqlite; }
  Status Read(const ports::TxFn& fn) override {
    return db().Read([&](Connection& c) { return fn(c); });
  }
  Status Write(const ports::TxFn& fn) override {
    return db().Write([&](Connection& c) { return fn(c); });
  }
  Status WriteAlone(const ports::TxFn& fn) override {
    return db().WriteAlone([&](Connection& c) { return fn(c); });
  }
  Status Ping() override { return db().Ping(); }
  std::unique_ptr<ports::BatchCommitter> NewBatchCommitter(ports::BatchCommitter::BatchFn fn, int max_writers,
                                                           size_t max_batch) override {
    // The committer writes through this object, so a later Rebind reaches it.
    return std::make_unique<GroupCommitter>(*this, std::move(fn), max_writers, max_batch);
  }

 private:
  Database& db() const { return *db_.load(std::memory_order_acquire); }

  std::atomic<Database*> db_;
};

}  // namespace

std::unique_ptr<DatabaseTransactions> NewTransactions(Database& db) {
  return std::make_unique<SqlTransactions>(db);
}

}  // namespace service::store
