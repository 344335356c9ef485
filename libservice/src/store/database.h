// Database: the tiny SQL interface the repositories are written against.
//
// SQL is written once for both backends with `?` placeholders; the PostgreSQL
// driver rewrites them to $1..$n. Booleans are stored as integers 0/1, times
// as integer Unix milliseconds, ids as UUID text, JSON as text, in both
// backends, so the same statements work everywhere.
//
// Thread-safety: Database is safe to use from any thread. A Connection is
// only valid inside the Read/Write callback that received it, on that thread.
// Failure: every call returns a Status; driver errors map to kInternal,
// unreachable servers to kUnavailable, unique violations to kConflict.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ports/event_bus.h"
#include "ports/transaction.h"
#include "service/logger.h"
#include "service/status.h"

namespace service::store {

enum class Dialect { kSqlite, kPostgres };

// A bound parameter or a result cell. Booleans travel as int64 0/1.
using Value = std::variant<std::nullptr_t, int64_t, double, std::string>;

inline Value Null() { return nullptr; }
inline Value Bool(bool b) { return int64_t{b ? 1 : 0}; }
inline Value OptText(const std::optional<std::string>& s) { return s ? Value(*s) : Value(nullptr); }

// A fully materialised result set.
struct Rows {
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> data;

  size_t size() const { return data.size(); }
  bool empty() const { return data.empty(); }
  // Column index by name; -1 when absent.
  int Column(std::string_view name) const;
  bool IsNull(size_t row, size_t col) const;
  // Typed reads. Null reads as "" / 0 / 0.0. Integers stored as text (and
  // text holding integers) are converted.
  std::string Str(size_t row, size_t col) const;
  std::optional<std::string> OptStr(size_t row, size_t col) const;
  int64_t Int(size_t row, size_t col) const;
  std::optional<int64_t> OptInt(size_t row, size_t col) const;
  double Dbl(size_t row, size_t col) const;
  bool Bool(size_t row, size_t col) const { return Int(row, col) != 0; }
};

// The SQL backends' ports::Tx: a connection inside one transaction or read.
class Connection : public ports::Tx {
 public:
  Connection() = default;

  virtual Dialect dialect() const = 0;
  // Runs one statement and returns its rows (RETURNING works on both).
  // Statements are prepared once per connection and cached by their text.
  virtual Result<Rows> Query(std::string_view sql, const std::vector<Value>& params = {}) = 0;
  // Runs one statement and returns the number of rows it changed.
  virtual Result<int64_t> Exec(std::string_view sql, const std::vector<Value>& params = {}) = 0;
  // Runs a script of several statements without parameters (migrations).
  virtual Status ExecScript(std::string_view sql) = 0;
};

struct DatabaseOptions {
  // SQLite: readers in the pool. PostgreSQL: connections in the pool.
  // Default: 4.
  int pool_size = 4;
  // SQLite: how many queued Write calls one transaction may carry (group
  // commit). Default: 256.
  int max_batch = 256;
};

class Database {
 public:
  Database() = default;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  virtual ~Database() = default;

  virtual Dialect dialect() const = 0;
  // "sqlite" or "postgresql".
  virtual std::string_view backend_name() const = 0;

  // Runs `fn` on a connection that sees one consistent snapshot. `fn` must
  // not write. Returns fn's status, or the driver's failure.
  virtual Status Read(const std::function<Status(Connection&)>& fn) = 0;

  // Runs `fn` inside a transaction. When this returns OK the writes are
  // committed and durable. When `fn` fails, its writes are rolled back and
  // its status returned. Concurrent Write calls may share one transaction
  // (group commit), each inside its own savepoint, so one failing callback
  // never undoes another's work. `fn` may run on another thread than the
  // caller's and must not block on other Write calls.
  virtual Status Write(const std::function<Status(Connection&)>& fn) = 0;

  // Like Write, but `fn` never shares its transaction with other callbacks
  // on a backend with row locks (PostgreSQL): for callers that batch work
  // themselves and take their locks in a fixed order, which a transaction
  // shared with another batch would break. On SQLite (one writer, no row
  // locks) it is Write.
  virtual Status WriteAlone(const std::function<Status(Connection&)>& fn) = 0;

  // Cheap round trip proving the database answers.
  virtual Status Ping() = 0;

  // The connection pool now (GET /metrics). SQLite: the readers (the one
  // writer connection is not counted); PostgreSQL: the pooled connections.
  struct PoolStats {
    int64_t in_use = 0;
    int64_t idle = 0;
    int64_t max = 0;
  };
  virtual PoolStats pool_stats() { return {}; }

  // Stops background threads after draining queued writes. Idempotent.
  virtual void Close() = 0;
};

// The connection behind a Tx handed out by the Transactions of a SQL
// Database. REQUIRES: `tx` came from such a Transactions (the SQL
// repositories are only ever given those).
inline Connection& Sql(ports::Tx& tx) { return static_cast<Connection&>(tx); }

// The ports::Transactions of a Database (the application's view of it).
class DatabaseTransactions : public ports::Transactions {
 public:
  // Points every later call at `db` (tests wrap the database in a fault
  // injector after the service opened). REQUIRES: `db` outlives this.
  virtual void Rebind(Database& db) = 0;
};
// REQUIRES: `db` outlives the result.
std::unique_ptr<DatabaseTransactions> NewTransactions(Database& db);

// Opens `url`: "sqlite:PATH" (file and folder created), "sqlite::memory:",
// or a libpq URI "postgresql://..." / "postgres://...".
Result<std::unique_ptr<Database>> OpenDatabase(std::string_view url, const DatabaseOptions& options = {});

// The event bus for the database at `url`: in-process for SQLite (one
// process owns the file); for PostgreSQL, local delivery plus LISTEN/NOTIFY
// so that an event published by one server process reaches subscribers
// (live streams) in every other process on the same database. `origin`
// identifies this process (random); `log` receives connection failures.
std::unique_ptr<ports::EventBus> NewEventBus(std::string_view url, const std::string& origin, Logger* log);

// Driver factories (used by OpenDatabase; callable directly by embedders).
Result<std::unique_ptr<Database>> OpenSqlite(const std::string& path, const DatabaseOptions& options);
Result<std::unique_ptr<Database>> OpenPostgres(const std::string& conninfo, const DatabaseOptions& options);

// The first 80 characters of a statement on one line, for driver errors
// (which the API logs and never shows to clients).
std::string AbbreviateSql(std::string_view sql);

// Rewrites `?` placeholders (outside quotes and comments) to $1..$n.
std::string ToPostgresPlaceholders(std::string_view sql);

}  // namespace service::store
