// Migration runner: builds the migrations from the embedded files, applies
// those newer than the recorded version, one Write transaction each, and
// records them in schema_migrations.
//
// Concurrency: on PostgreSQL every step holds a transaction-scoped advisory
// lock and re-reads the version after taking it, so several processes
// starting together apply each migration once. On SQLite the single writer's
// BEGIN IMMEDIATE serialises them the same way.
#include "store/migrations.h"

#include <algorithm>
#include <chrono>
#include <map>
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

// "NNNN_what[.sqlite|.postgres].sql" -> version, what, dialect ("" both).
struct FileName {
  int version = 0;
  std::string what;
  std::string dialect;
};

bool ParseFileName(std::string_view name, FileName* out) {
  constexpr std::string_view kExt = ".sql";
  if (name.size() <= kExt.size() || name.substr(name.size() - kExt.size()) != kExt) return false;
  std::string_view stem = name.substr(0, name.size() - kExt.size());
  for (std::string_view d : {std::string_view("sqlite"), std::string_view("postgres")}) {
    const std::string suffix = "." + std::string(d);
    if (stem.size() > suffix.size() && stem.substr(stem.size() - suffix.size()) == suffix) {
      out->dialect = std::string(d);
      stem.remove_suffix(suffix.size());
      break;
    }
  }
  const size_t underscore = stem.find('_');
  if (underscore == 0 || underscore == std::string_view::npos || underscore > 9) return false;
  int version = 0;
  for (char c : stem.substr(0, underscore)) {
    if (c < '0' || c > '9') return false;
    version = version * 10 + (c - '0');
  }
  out->version = version;
  out->what = std::string(stem.substr(underscore + 1));
  if (out->what.empty()) return false;
  for (char c : out->what) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

// The NAME of the first "-- migration: NAME" line, or "".
std::string DeclaredName(std::string_view text) {
  constexpr std::string_view kTag = "-- migration:";
  const size_t at = text.find(kTag);
  if (at == std::string_view::npos) return {};
  size_t b = at + kTag.size();
  while (b < text.size() && text[b] == ' ') ++b;
  size_t e = b;
  while (e < text.size() && text[e] != '\n' && text[e] != '\r' && text[e] != ' ') ++e;
  return std::string(text.substr(b, e - b));
}

}  // namespace

Result<std::vector<Migration>> BuildMigrations(const std::vector<MigrationFile>& files) {
  struct Parsed {
    FileName name;
    const MigrationFile* file;
  };
  std::vector<Parsed> parsed;
  for (const MigrationFile& f : files) {
    FileName n;
    if (!ParseFileName(f.name, &n)) {
      return InvalidArgument("migration file " + std::string(f.name) +
                             ": expected NNNN_name.sql, NNNN_name.sqlite.sql or NNNN_name.postgres.sql");
    }
    if (n.version <= 0)
      return InvalidArgument("migration file " + std::string(f.name) + ": version must be positive");
    parsed.push_back({std::move(n), &f});
  }
  std::sort(parsed.begin(), parsed.end(),
            [](const Parsed& a, const Parsed& b) { return a.file->name < b.file->name; });

  std::map<int, Migration> by_version;
  for (const Parsed& p : parsed) {
    if (!p.name.dialect.empty()) {
      const std::string other = p.name.dialect == "sqlite" ? "postgres" : "sqlite";
      const bool paired = std::any_of(parsed.begin(), parsed.end(), [&](const Parsed& q) {
        return q.name.version == p.name.version && q.name.what == p.name.what && q.name.dialect == other;
      });
      if (!paired) {
        return InvalidArgument("migration file " + std::string(p.file->name) + ": its ." + other +
                               ".sql variant is missing");
      }
    }
    Migration& m = by_version[p.name.version];
    m.version = p.name.version;
    if (m.name.empty()) m.name = DeclaredName(p.file->text);
    std::string text(p.file->text);
    if (text.empty() || text.back() != '\n') text += '\n';
    if (p.name.dialect != "postgres") m.sql += text;
    if (p.name.dialect != "sqlite") m.postgres_sql += text;
  }
  std::vector<Migration> out;
  for (auto& [version, m] : by_version) {
    if (m.name.empty()) {
      for (const Parsed& p : parsed) {
        if (p.name.version == version) {
          m.name = p.name.what;
          break;
        }
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

const std::vector<Migration>& AllMigrations() {
  static const std::vector<Migration> kAll = [] {
    auto built = BuildMigrations(EmbeddedMigrationFiles());
    return built.ok() ? std::move(built).value() : std::vector<Migration>{};
  }();
  return kAll;
}

Status ApplyMigrations(Database& db, int up_to_version) {
  SV_ASSIGN_OR_RETURN(const std::vector<Migration> all, BuildMigrations(EmbeddedMigrationFiles()));
  std::vector<const Migration*> ordered;
  for (const Migration& m : all) ordered.push_back(&m);

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
    if (m->version > up_to_version) break;
    Status st = db.Write([&](Connection& c) -> Status {
      SV_RETURN_IF_ERROR(LockIfPostgres(c));
      // Another process may have applied it while we waited for the lock.
      SV_ASSIGN_OR_RETURN(int64_t now_version, CurrentVersion(c));
      if (now_version >= m->version) return Status::Ok();
      const bool pg = c.dialect() == Dialect::kPostgres;
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
