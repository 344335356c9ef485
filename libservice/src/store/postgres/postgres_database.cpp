// PostgreSQL driver over libpq: a pool of connections, each with its own
// prepared-statement cache keyed by SQL text.
//
// Read() runs in REPEATABLE READ READ ONLY (one snapshot); Write() in a plain
// BEGIN ... COMMIT on a pooled connection. Parameters travel as text and the
// server infers their types. A connection that breaks is dropped when it
// returns to the pool and a new one is made on demand, so the pool heals when
// the server comes back.
#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/database.h"
#include "store/postgres/libpq_connect.h"
#include "util/mutex.h"
#include "util/strings.h"

namespace service::store {
namespace {

// Type OIDs from pg_type.h (stable across releases).
constexpr Oid kBoolOid = 16;
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt2Oid = 21;
constexpr Oid kInt4Oid = 23;
constexpr Oid kFloat4Oid = 700;
constexpr Oid kFloat8Oid = 701;
constexpr Oid kNumericOid = 1700;

constexpr size_t kMaxCachedStatements = 512;
constexpr auto kAcquireTimeout = std::chrono::seconds(30);
constexpr auto kPingAcquireTimeout = std::chrono::seconds(3);
constexpr auto kPingTimeout = std::chrono::milliseconds(3000);

std::string TrimNewlines(const char* text) {
  // libpq messages span lines ("...\n\tIs the server running..."): one line.
  std::string s;
  for (const char* p = text != nullptr ? text : ""; *p != '\0'; ++p) {
    const char c = (*p == '\n' || *p == '\t' || *p == '\r') ? ' ' : *p;
    if (c == ' ' && (s.empty() || s.back() == ' ')) continue;
    s.push_back(c);
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

using util::StringHash;

bool IsConnectionState(const char* sqlstate) {
  if (sqlstate == nullptr) return false;
  // 08: connection exception; 57P01..03: shutdown / cannot connect now.
  return std::strncmp(sqlstate, "08", 2) == 0 || std::strcmp(sqlstate, "57P01") == 0 ||
         std::strcmp(sqlstate, "57P02") == 0 || std::strcmp(sqlstate, "57P03") == 0;
}

class PgConnection final : public Connection {
 public:
  explicit PgConnection(PGconn* conn) : conn_(conn) {}
  ~PgConnection() override { PQfinish(conn_); }

  Dialect dialect() const override { return Dialect::kPostgres; }

  bool broken() const { return broken_ || PQstatus(conn_) != CONNECTION_OK; }
  PGTransactionStatusType txn_status() const { return PQtransactionStatus(conn_); }

  Result<Rows> Query(std::string_view sql, const std::vector<Value>& params) override {
    ResultPtr res;
    SV_RETURN_IF_ERROR(Run(sql, params, &res));
    PGresult* r = res.get();
    Rows rows;
    const int ncol = PQnfields(r);
    const int nrow = PQntuples(r);
    rows.columns.reserve(ncol);
    for (int c = 0; c < ncol; ++c) rows.columns.emplace_back(PQfname(r, c));
    rows.data.resize(static_cast<size_t>(nrow));
    for (int i = 0; i < nrow; ++i) {
      std::vector<Value>& row = rows.data[static_cast<size_t>(i)];
      row.reserve(ncol);
      for (int c = 0; c < ncol; ++c) {
        if (PQgetisnull(r, i, c)) {
          row.emplace_back(nullptr);
          continue;
        }
        const char* text = PQgetvalue(r, i, c);
        const int len = PQgetlength(r, i, c);
        switch (PQftype(r, c)) {
          case kInt2Oid:
          case kInt4Oid:
          case kInt8Oid: {
            int64_t v = 0;
            std::from_chars(text, text + len, v);
            row.emplace_back(v);
            break;
          }
          case kFloat4Oid:
          case kFloat8Oid:
          case kNumericOid:
            row.emplace_back(std::strtod(text, nullptr));
            break;
          case kBoolOid:
            row.emplace_back(int64_t{text[0] == 't' ? 1 : 0});
            break;
          default:
            row.emplace_back(std::string(text, static_cast<size_t>(len)));
            break;
        }
      }
    }
    return rows;
  }

  Result<int64_t> Exec(std::string_view sql, const std::vector<Value>& params) override {
    ResultPtr res;
    SV_RETURN_IF_ERROR(Run(sql, params, &res));
    const char* tuples = PQcmdTuples(res.get());
    int64_t n = 0;
    if (tuples != nullptr) std::from_chars(tuples, tuples + std::strlen(tuples), n);
    return n;
  }

  Status ExecScript(std::string_view sql) override {
    std::string text(sql);
    ResultPtr res(PQexec(conn_, text.c_str()));
    return Check(res.get(), "script failed", {});
  }

  // Runs a parameterless control statement (BEGIN, COMMIT...).
  Status Control(const char* sql) {
    ResultPtr res(PQexec(conn_, sql));
    return Check(res.get(), "control statement failed", sql);
  }

  // SELECT 1, giving up after `timeout` (a hung server or network); the
  // connection is then marked broken and dropped by the pool.
  Status Ping(std::chrono::milliseconds timeout) {
    if (!PQsendQuery(conn_, "SELECT 1")) return Check(nullptr, "ping failed", {});
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (PQisBusy(conn_)) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd pfd{PQsocket(conn_), POLLIN, 0};
      const int n = left.count() > 0 ? ::poll(&pfd, 1, static_cast<int>(left.count())) : 0;
      if (n == 0 || (n < 0 && errno != EINTR)) {
        broken_ = true;
        return Unavailable("postgresql: ping timed out");
      }
      if (!PQconsumeInput(conn_)) return Check(nullptr, "ping failed", {});
    }
    Status st;
    bool first = true;
    while (PGresult* r = PQgetResult(conn_)) {
      ResultPtr res(r);
      if (first) st = Check(r, "ping failed", {});
      first = false;
    }
    return st;
  }

  // Re-establishes a broken session. Server-side prepared statements died
  // with it, so the cache is forgotten.
  bool Reset() {
    cache_.clear();
    PQreset(conn_);
    broken_ = PQstatus(conn_) != CONNECTION_OK;
    return !broken_;
  }

 private:
  Status Run(std::string_view sql, const std::vector<Value>& params, ResultPtr* out) {
    const Prepared* prepared = nullptr;
    auto it = cache_.find(sql);
    if (it != cache_.end()) {
      prepared = &it->second;
    } else {
      if (cache_.size() >= kMaxCachedStatements) {
        // Server-side statements stay until the session ends; new names avoid clashes.
        cache_.clear();
      }
      std::string stmt_name = "sv" + std::to_string(++next_id_);
      std::string pg_sql = ToPostgresPlaceholders(sql);
      ResultPtr prep(PQprepare(conn_, stmt_name.c_str(), pg_sql.c_str(), 0, nullptr));
      SV_RETURN_IF_ERROR(Check(prep.get(), "prepare failed", sql));
      // Learn the parameter count once, so a wrong count is a clear error
      // rather than a protocol violation (SQLSTATE 08P01).
      ResultPtr desc(PQdescribePrepared(conn_, stmt_name.c_str()));
      SV_RETURN_IF_ERROR(Check(desc.get(), "describe failed", sql));
      const int nparams = PQnparams(desc.get());
      prepared = &cache_.emplace(std::string(sql), Prepared{std::move(stmt_name), nparams}).first->second;
    }

    const size_t n = params.size();
    if (static_cast<int>(n) != prepared->nparams) {
      return Internal("postgresql: statement takes " + std::to_string(prepared->nparams) +
                      " parameters, got " + std::to_string(n) + " [" + AbbreviateSql(sql) + "]");
    }
    values_.resize(n);
    numbers_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const Value& v = params[i];
      if (const auto* s = std::get_if<std::string>(&v)) {
        values_[i] = s->c_str();
      } else if (const auto* k = std::get_if<int64_t>(&v)) {
        numbers_[i] = std::to_string(*k);
        values_[i] = numbers_[i].c_str();
      } else if (const auto* d = std::get_if<double>(&v)) {
        numbers_[i] = FormatDouble(*d);
        values_[i] = numbers_[i].c_str();
      } else {
        values_[i] = nullptr;
      }
    }
    ResultPtr res(PQexecPrepared(conn_, prepared->name.c_str(), static_cast<int>(n),
                                 n > 0 ? values_.data() : nullptr, nullptr, nullptr, 0));
    Status st = Check(res.get(), "statement failed", sql);
    if (!st.ok()) {
      const char* state = res ? PQresultErrorField(res.get(), PG_DIAG_SQLSTATE) : nullptr;
      // 0A000 "cached plan must not change result type" after a schema
      // change, 26000 statement gone: prepare afresh next time.
      if (state != nullptr && (std::strcmp(state, "0A000") == 0 || std::strcmp(state, "26000") == 0)) {
        cache_.erase(std::string(sql));
      }
      return st;
    }
    *out = std::move(res);
    return Status::Ok();
  }

  static std::string FormatDouble(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, d);
    return ec == std::errc() ? std::string(buf, ptr) : std::string("0");
  }

  // Maps a result to a Status. Messages carry the primary text only (the
  // DETAIL of a unique violation quotes the key) and, for data exceptions
  // whose primary text may quote an input value, only the SQLSTATE.
  Status Check(PGresult* res, std::string_view what, std::string_view sql) {
    ExecStatusType s = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_EMPTY_QUERY) return Status::Ok();
    const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    std::string msg = "postgresql: ";
    msg += what;
    msg += ": ";
    if (state != nullptr && std::strncmp(state, "22", 2) == 0) {
      msg += "invalid data value";
    } else {
      const char* primary = res != nullptr ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
      msg += TrimNewlines(primary != nullptr ? primary : PQerrorMessage(conn_));
    }
    if (state != nullptr) {
      msg += " (SQLSTATE ";
      msg += state;
      msg += ")";
    }
    if (!sql.empty()) {
      msg += " [";
      msg += AbbreviateSql(sql);
      msg += "]";
    }
    if (PQstatus(conn_) != CONNECTION_OK || IsConnectionState(state)) {
      broken_ = true;
      return Status(Code::kUnavailable, std::move(msg));
    }
    if (state != nullptr && std::strcmp(state, "23505") == 0) return Status(Code::kConflict, std::move(msg));
    return Status(Code::kInternal, std::move(msg));
  }

  PGconn* conn_;
  bool broken_ = false;
  uint64_t next_id_ = 0;
  struct Prepared {
    std::string name;
    int nparams;
  };
  std::unordered_map<std::string, Prepared, StringHash, std::equal_to<>> cache_;
  // Parameter marshalling buffers, reused across calls.
  std::vector<const char*> values_;
  std::vector<std::string> numbers_;
};

void IgnoreNotice(void*, const char*) {}

Result<std::unique_ptr<PgConnection>> Connect(const std::string& conninfo) {
  std::string error;
  PGconn* conn = ConnectLibpq(conninfo, "service", &error);
  if (conn == nullptr) return Unavailable("postgresql: cannot connect: " + error);
  return std::make_unique<PgConnection>(conn);
}

class PostgresDatabase final : public Database {
 public:
  PostgresDatabase(std::string conninfo, int pool_size)
      : conninfo_(std::move(conninfo)),
        pool_size_(std::max(1, pool_size)),
        max_leaders_(std::max(1, pool_size_ / 2)) {}
  ~PostgresDatabase() override { Close(); }

  // Makes the first connection now so a bad URL or a dead server fails Open().
  Status Open() {
    SV_ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> first, Connect(conninfo_));
    util::MutexLock lock(&mu_);
    free_.push_back(std::move(first));
    created_ = 1;
    return Status::Ok();
  }

  Dialect dialect() const override { return Dialect::kPostgres; }
  std::string_view backend_name() const override { return "postgresql"; }

  Status Read(const std::function<Status(Connection&)>& fn) override {
    return Transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", fn);
  }

  // Group commit: concurrent Write calls queue up; a caller that finds no
  // batch running for it becomes the leader, takes up to kMaxBatch queued
  // callbacks and runs them in one transaction on one pooled connection, each
  // in its own savepoint, then releases every caller after COMMIT. At most
  // max_leaders_ batches run at once so reads keep connections. One commit
  // (one WAL flush) then acknowledges many requests.
  Status Write(const std::function<Status(Connection&)>& fn) override {
    WriteItem item;
    item.fn = &fn;
    wq_mu_.Lock();
    write_queue_.push_back(&item);
    for (;;) {
      if (item.done) break;
      if (leaders_ < max_leaders_ && !write_queue_.empty()) {
        std::vector<WriteItem*> batch;
        while (!write_queue_.empty() && batch.size() < kMaxBatch) {
          batch.push_back(write_queue_.front());
          write_queue_.pop_front();
        }
        ++leaders_;
        wq_mu_.Unlock();
        RunBatch(batch);
        wq_mu_.Lock();
        --leaders_;
        for (WriteItem* w : batch) w->done = true;
        wq_cv_.SignalAll();
        continue;
      }
      wq_cv_.Wait(&wq_mu_);
    }
    wq_mu_.Unlock();
    if (item.exception) std::rethrow_exception(item.exception);
    return item.status;
  }

  Status WriteAlone(const std::function<Status(Connection&)>& fn) override {
    return Transaction("BEGIN", fn);
  }

  PoolStats pool_stats() override {
    util::MutexLock lock(&mu_);
    const auto idle = static_cast<int64_t>(free_.size());
    return {std::max<int64_t>(0, created_ - idle), idle, pool_size_};
  }

  Status Ping() override {
    std::unique_ptr<PgConnection> conn;
    SV_RETURN_IF_ERROR(Acquire(kPingAcquireTimeout, &conn));
    Status st = conn->Ping(kPingTimeout);
    if (!st.ok() && conn->broken() && conn->Reset()) st = conn->Ping(kPingTimeout);
    Release(std::move(conn));
    return st;
  }

  void Close() override {
    util::MutexLock lock(&mu_);
    closed_ = true;
    cv_.SignalAll();
    while (leased_ != 0) cv_.Wait(&mu_);
    free_.clear();
    created_ = 0;
  }

 private:
  Status Transaction(const char* begin, const std::function<Status(Connection&)>& fn) {
    std::unique_ptr<PgConnection> conn;
    SV_RETURN_IF_ERROR(Acquire(kAcquireTimeout, &conn));
    struct Lease {
      PostgresDatabase* db;
      std::unique_ptr<PgConnection>* conn;
      ~Lease() { db->Release(std::move(*conn)); }
    } lease{this, &conn};

    Status st = conn->Control(begin);
    if (!st.ok() && conn->broken()) {
      // Nothing ran yet: a connection the server dropped (restart, idle
      // timeout) is re-established and the transaction started again.
      if (!conn->Reset()) return st;
      st = conn->Control(begin);
    }
    SV_RETURN_IF_ERROR(st);

    try {
      st = fn(*conn);
    } catch (...) {
      if (!conn->broken()) conn->Control("ROLLBACK").IgnoreError();
      throw;
    }
    if (!st.ok()) {
      if (!conn->broken()) conn->Control("ROLLBACK").IgnoreError();
      return st;
    }
    if (conn->txn_status() == PQTRANS_INERROR) {
      // The callback swallowed a failed statement; COMMIT would silently roll back.
      conn->Control("ROLLBACK").IgnoreError();
      return Internal("postgresql: transaction aborted by an earlier failed statement");
    }
    return conn->Control("COMMIT");
  }

  struct WriteItem {
    const std::function<Status(Connection&)>* fn = nullptr;
    Status status;
    std::exception_ptr exception;
    bool done = false;
  };
  static constexpr size_t kMaxBatch = 128;

  // Runs one callback inside the open transaction; with `savepoint`, its
  // failure rolls back only its own writes.
  static void RunItem(PgConnection& conn, WriteItem& w, bool savepoint) {
    if (savepoint) {
      w.status = conn.Control("SAVEPOINT sv_item");
      if (!w.status.ok()) return;
    }
    try {
      w.status = (*w.fn)(conn);
    } catch (...) {
      w.exception = std::current_exception();
      w.status = Internal("postgresql: write callback threw");
    }
    if (w.status.ok() && conn.txn_status() == PQTRANS_INERROR) {
      // The callback swallowed a failed statement; its writes are void.
      w.status = Internal("postgresql: transaction aborted by an earlier failed statement");
    }
    if (savepoint && !conn.broken()) {
      Status end =
          conn.Control(w.status.ok() ? "RELEASE SAVEPOINT sv_item" : "ROLLBACK TO SAVEPOINT sv_item");
      if (w.status.ok() && !end.ok()) w.status = end;
      if (!w.status.ok() && end.ok()) conn.Control("RELEASE SAVEPOINT sv_item").IgnoreError();
    }
  }

  void RunBatch(const std::vector<WriteItem*>& batch) {
    if (batch.size() == 1 && batch[0]->exception == nullptr) {
      WriteItem& w = *batch[0];
      try {
        w.status = Transaction("BEGIN", *w.fn);
      } catch (...) {
        w.exception = std::current_exception();
        w.status = Internal("postgresql: write callback threw");
      }
      return;
    }
    std::unique_ptr<PgConnection> conn;
    Status acquired = Acquire(kAcquireTimeout, &conn);
    if (!acquired.ok()) {
      for (WriteItem* w : batch) w->status = acquired;
      return;
    }
    struct Lease {
      PostgresDatabase* db;
      std::unique_ptr<PgConnection>* conn;
      ~Lease() { db->Release(std::move(*conn)); }
    } lease{this, &conn};
    Status st = conn->Control("BEGIN");
    if (!st.ok() && conn->broken() && conn->Reset()) st = conn->Control("BEGIN");
    if (!st.ok()) {
      for (WriteItem* w : batch) w->status = st;
      return;
    }
    for (WriteItem* w : batch) {
      if (conn->broken()) {
        w->status = Unavailable("postgresql: connection lost");
        continue;
      }
      RunItem(*conn, *w, true);
    }
    Status commit = conn->broken() ? Unavailable("postgresql: connection lost") : conn->Control("COMMIT");
    if (!commit.ok()) {
      if (!conn->broken()) conn->Control("ROLLBACK").IgnoreError();
      for (WriteItem* w : batch)
        if (w->status.ok()) w->status = commit;
    }
  }

  Status Acquire(std::chrono::steady_clock::duration timeout, std::unique_ptr<PgConnection>* out) {
    util::MutexLock lock(&mu_);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (closed_) return Unavailable("postgresql: database is closed");
      if (!free_.empty()) {
        *out = std::move(free_.back());
        free_.pop_back();
        ++leased_;
        return Status::Ok();
      }
      if (created_ < pool_size_) {
        ++created_;
        ++leased_;
        mu_.Unlock();
        auto conn = Connect(conninfo_);
        mu_.Lock();
        if (!conn.ok()) {
          --created_;
          --leased_;
          cv_.SignalAll();
          return conn.status();
        }
        *out = std::move(conn).value();
        return Status::Ok();
      }
      if (!cv_.WaitUntil(&mu_, deadline) && free_.empty() && created_ >= pool_size_) {
        return Unavailable("postgresql: timed out waiting for a pooled connection");
      }
    }
  }

  void Release(std::unique_ptr<PgConnection> conn) {
    if (conn == nullptr) return;
    const bool healthy = !conn->broken() && conn->txn_status() == PQTRANS_IDLE;
    std::unique_ptr<PgConnection> drop;
    {
      util::MutexLock lock(&mu_);
      --leased_;
      if (healthy && !closed_) {
        free_.push_back(std::move(conn));
      } else {
        --created_;
        drop = std::move(conn);
      }
    }
    cv_.SignalAll();
    // `drop` closes outside the lock.
  }

  const std::string conninfo_;
  const int pool_size_;

  util::Mutex mu_;
  util::CondVar cv_;
  std::vector<std::unique_ptr<PgConnection>> free_ SV_GUARDED_BY(mu_);
  int created_ SV_GUARDED_BY(mu_) = 0;  // connections alive or being made
  int leased_ SV_GUARDED_BY(mu_) = 0;   // connections handed out (or being made)
  bool closed_ SV_GUARDED_BY(mu_) = false;

  // Group-commit queue (see Write); also guards WriteItem::done hand-back.
  util::Mutex wq_mu_;
  util::CondVar wq_cv_;
  std::deque<WriteItem*> write_queue_ SV_GUARDED_BY(wq_mu_);
  int leaders_ SV_GUARDED_BY(wq_mu_) = 0;
  int max_leaders_ = 1;
};

}  // namespace

PGconn* ConnectLibpq(const std::string& conninfo, const char* application_name, std::string* error) {
  // Entries before "dbname" are defaults the URL may override.
  const char* keywords[] = {"connect_timeout",
                            "client_encoding",
                            "fallback_application_name",
                            "keepalives_idle",
                            "keepalives_interval",
                            "keepalives_count",
                            "dbname",
                            nullptr};
  const char* values[] = {"3", "UTF8", application_name, "30", "10", "3", conninfo.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) {
    *error = "out of memory creating a connection";
    return nullptr;
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    *error = TrimNewlines(PQerrorMessage(conn));
    PQfinish(conn);
    return nullptr;
  }
  PQsetNoticeProcessor(conn, IgnoreNotice, nullptr);
  return conn;
}

Result<std::unique_ptr<Database>> OpenPostgres(const std::string& conninfo, const DatabaseOptions& options) {
  auto db = std::make_unique<PostgresDatabase>(conninfo, options.pool_size);
  SV_RETURN_IF_ERROR(db->Open());
  return std::unique_ptr<Database>(std::move(db));
}

}  // namespace service::store
