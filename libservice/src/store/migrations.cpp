// Migration runner: applies AllMigrations() newer than the recorded version,
// one Write transaction each, and records them in schema_migrations.
//
// Concurrency: on PostgreSQL every step holds a transaction-scoped advisory
// lock and re-reads the version after taking it, so several processes
// starting together apply each migration once. On SQLite the single writer's
// BEGIN IMMEDIATE serialises them the same way.
#include "store/migrations.h"

#include <algorithm>
#include <chrono>
#include <string>

namespace service::store {
namespace {

// pg_advisory_xact_lock key: "SVCMIGR1" as a big-endian integer.
constexpr std::string_view kLockSql = "SELECT pg_advisory_xact_lock(6005061152366088753)";

constexpr std::string_view kCreateTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    "version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)";

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<int64_t> CurrentVersion(Connection& c) {
  SV_ASSIGN_OR_RETURN(Rows rows, c.Query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"));
  return rows.Int(0, 0);
}

Status LockIfPostgres(Connection& c) {
  if (c.dialect() != Dialect::kPostgres) return Status::Ok();
  return c.Query(kLockSql).status();
}

}  // namespace

Status ApplyMigrations(Database& db) {
  std::vector<const Migration*> ordered;
  for (const Migration& m : AllMigrations()) ordered.push_back(&m);
  std::sort(ordered.begin(), ordered.end(),
            [](const Migration* a, const Migration* b) { return a->version < b->version; });
  for (size_t i = 0; i < ordered.size(); ++i) {
    if (ordered[i]->version <= 0 || (i > 0 && ordered[i]->version == ordered[i - 1]->version)) {
      return Internal("migrations: versions must be positive and unique (" +
                      std::to_string(ordered[i]->version) + ")");
    }
  }

  // Creating the table takes the lock too: two PostgreSQL sessions running
  // CREATE TABLE IF NOT EXISTS at once can otherwise collide.
  SV_RETURN_IF_ERROR(db.Write([](Connection& c) -> Status {
    SV_RETURN_IF_ERROR(LockIfPostgres(c));
    return c.ExecScript(kCreateTable);
  }));

  int64_t current = 0;
  SV_RETURN_IF_ERROR(db.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(current, CurrentVersion(c));
    return Status::Ok();
  }));

  for (const Migration* m : ordered) {
    if (m->version <= current) continue;
    Status st = db.Write([&](Connection& c) -> Status {
      SV_RETURN_IF_ERROR(LockIfPostgres(c));
      // Another process may have applied it while we waited for the lock.
      SV_ASSIGN_OR_RETURN(int64_t now_version, CurrentVersion(c));
      if (now_version >= m->version) return Status::Ok();
      const bool pg = c.dialect() == Dialect::kPostgres && !m->postgres_sql.empty();
      Status body = c.ExecScript(pg ? m->postgres_sql : m->sql);
      if (!body.ok()) {
        return Status(body.code(), "migration " + std::to_string(m->version) + " (" + std::string(m->name) +
                                       ") failed: " + body.message());
      }
      return c
          .Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                {int64_t{m->version}, std::string(m->name), NowMillis()})
          .status();
    });
    SV_RETURN_IF_ERROR(st);
    current = m->version;
  }
  return Status::Ok();
}

Result<MigrationState> ReadMigrationState(Database& db) {
  MigrationState state;
  state.known = static_cast<int64_t>(AllMigrations().size());
  Status st = db.Read([&](Connection& c) -> Status {
    const char* exists_sql = c.dialect() == Dialect::kPostgres
                                 ? "SELECT COUNT(*) FROM pg_catalog.pg_tables "
                                   "WHERE tablename = 'schema_migrations' AND schemaname = current_schema()"
                                 : "SELECT COUNT(*) FROM sqlite_master "
                                   "WHERE type = 'table' AND name = 'schema_migrations'";
    SV_ASSIGN_OR_RETURN(Rows exists, c.Query(exists_sql));
    if (exists.Int(0, 0) == 0) return Status::Ok();
    SV_ASSIGN_OR_RETURN(Rows rows,
                        c.Query("SELECT COUNT(*), COALESCE(MAX(version), 0) FROM schema_migrations"));
    state.applied = rows.Int(0, 0);
    state.latest_applied = rows.Int(0, 1);
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return state;
}

}  // namespace service::store
