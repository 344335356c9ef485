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
#include <set>
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

Result<std::set<std::string>> AppliedNames(Connection& c) {
  SV_ASSIGN_OR_RETURN(Rows rows, c.Query("SELECT name FROM schema_migrations"));
  std::set<std::string> names;
  for (size_t i = 0; i < rows.size(); ++i) names.insert(rows.Str(i, 0));
  return names;
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

bool IsAreaName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// The values of every "-- TAG value..." line of `text`, split on spaces.
std::vector<std::string> TagValues(std::string_view text, std::string_view tag) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = text.find(tag, at)) != std::string_view::npos) {
    const bool line_start = at == 0 || text[at - 1] == '\n';
    at += tag.size();
    if (!line_start) continue;
    size_t e = at;
    while (e < text.size() && text[e] != '\n' && text[e] != '\r') ++e;
    std::string_view rest = text.substr(at, e - at);
    size_t b = 0;
    while (b < rest.size()) {
      while (b < rest.size() && (rest[b] == ' ' || rest[b] == ',')) ++b;
      size_t w = b;
      while (w < rest.size() && rest[w] != ' ' && rest[w] != ',') ++w;
      if (w > b) out.emplace_back(rest.substr(b, w - b));
      b = w;
    }
  }
  return out;
}

// The NAME of the first "-- migration: NAME" line, or "".
std::string DeclaredName(std::string_view text) {
  std::vector<std::string> names = TagValues(text, "-- migration:");
  return names.empty() ? std::string() : names.front();
}

}  // namespace

Result<std::vector<Migration>> BuildMigrations(const std::vector<MigrationFile>& files) {
  struct Parsed {
    std::string area;
    FileName name;
    std::string unit;  // the migration's recorded name
    const MigrationFile* file;
  };
  std::vector<Parsed> parsed;
  // area -> the areas it declares it comes after.
  std::map<std::string, std::set<std::string>> after;
  after[std::string(kPlatformArea)];
  for (const MigrationFile& f : files) {
    Parsed p;
    p.file = &f;
    std::string_view base = f.name;
    const size_t slash = base.rfind('/');
    p.area =
        slash == std::string_view::npos ? std::string(kPlatformArea) : std::string(base.substr(0, slash));
    if (slash != std::string_view::npos) base.remove_prefix(slash + 1);
    if (!IsAreaName(p.area) || !ParseFileName(base, &p.name)) {
      return InvalidArgument("migration file " + std::string(f.name) +
                             ": expected AREA/NNNN_name.sql, AREA/NNNN_name.sqlite.sql or "
                             "AREA/NNNN_name.postgres.sql");
    }
    if (p.name.version <= 0)
      return InvalidArgument("migration file " + std::string(f.name) + ": version must be positive");
    p.unit = DeclaredName(f.text);
    if (p.unit.empty()) p.unit = p.name.what;
    std::set<std::string>& deps = after[p.area];
    for (std::string& d : TagValues(f.text, "-- after:")) {
      if (d == p.area)
        return InvalidArgument("migration file " + std::string(f.name) +
                               ": an area cannot come after itself");
      deps.insert(std::move(d));
    }
    parsed.push_back(std::move(p));
  }

  // Areas in dependency order: every area after the platform and after the
  // areas it names; ties by name, so the order never depends on input order.
  for (auto& [area, deps] : after) {
    if (area != kPlatformArea) deps.insert(std::string(kPlatformArea));
  }
  for (const Parsed& p : parsed) {
    for (const std::string& d : after[p.area]) {
      if (after.count(d) == 0) {
        return InvalidArgument("migration file " + std::string(p.file->name) + ": it comes after area '" + d +
                               "', which has no migrations");
      }
    }
  }
  std::map<std::string, int> rank;
  while (rank.size() < after.size()) {
    std::string next;
    for (const auto& [area, deps] : after) {
      if (rank.count(area)) continue;
      const bool ready =
          std::all_of(deps.begin(), deps.end(), [&](const std::string& d) { return rank.count(d) > 0; });
      if (ready) {
        next = area;
        break;
      }
    }
    if (next.empty()) {
      std::string cycle;
      for (const auto& [area, deps] : after) {
        if (rank.count(area) == 0) cycle += (cycle.empty() ? "" : ", ") + area;
      }
      return InvalidArgument("migration areas come after each other in a cycle: " + cycle);
    }
    const int r = static_cast<int>(rank.size());
    rank[next] = r;
  }

  for (const Parsed& p : parsed) {
    if (!p.name.dialect.empty()) {
      const std::string other = p.name.dialect == "sqlite" ? "postgres" : "sqlite";
      const bool paired = std::any_of(parsed.begin(), parsed.end(), [&](const Parsed& q) {
        return q.area == p.area && q.name.version == p.name.version && q.name.what == p.name.what &&
               q.name.dialect == other;
      });
      if (!paired) {
        return InvalidArgument("migration file " + std::string(p.file->name) + ": its ." + other +
                               ".sql variant is missing");
      }
    }
  }

  // Files of one name form one migration (one transaction), in area order.
  std::sort(parsed.begin(), parsed.end(), [&](const Parsed& a, const Parsed& b) {
    if (a.name.version != b.name.version) return a.name.version < b.name.version;
    if (rank[a.area] != rank[b.area]) return rank[a.area] < rank[b.area];
    return a.file->name < b.file->name;
  });
  std::vector<Migration> out;
  std::map<std::string, size_t> by_name;
  for (const Parsed& p : parsed) {
    auto [it, inserted] = by_name.emplace(p.unit, out.size());
    if (inserted) {
      Migration m;
      m.number = p.name.version;
      m.name = p.unit;
      out.push_back(std::move(m));
    }
    Migration& m = out[it->second];
    if (m.number != p.name.version) {
      return InvalidArgument("migration file " + std::string(p.file->name) + ": migration '" + p.unit +
                             "' is numbered " + std::to_string(m.number) + " in another file");
    }
    if (std::find(m.areas.begin(), m.areas.end(), p.area) == m.areas.end()) m.areas.push_back(p.area);
    std::string text(p.file->text);
    if (text.empty() || text.back() != '\n') text += '\n';
    if (p.name.dialect != "postgres") m.sql += text;
    if (p.name.dialect != "sqlite") m.postgres_sql += text;
  }
  for (size_t i = 0; i < out.size(); ++i) out[i].version = static_cast<int>(i + 1);
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

  // Creating the table takes the lock too: two PostgreSQL sessions running
  // CREATE TABLE IF NOT EXISTS at once can otherwise collide.
  SV_RETURN_IF_ERROR(db.Write([](Connection& c) -> Status {
    SV_RETURN_IF_ERROR(LockIfPostgres(c));
    return c.ExecScript(kCreateTable);
  }));

  std::set<std::string> applied;
  SV_RETURN_IF_ERROR(db.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(applied, AppliedNames(c));
    return Status::Ok();
  }));

  for (const Migration& m : all) {
    if (m.version > up_to_version) break;
    if (applied.count(m.name)) continue;
    Status st = db.Write([&](Connection& c) -> Status {
      SV_RETURN_IF_ERROR(LockIfPostgres(c));
      // Another process may have applied it while we waited for the lock.
      SV_ASSIGN_OR_RETURN(std::set<std::string> now_applied, AppliedNames(c));
      if (now_applied.count(m.name)) return Status::Ok();
      const bool pg = c.dialect() == Dialect::kPostgres;
      Status body = c.ExecScript(pg ? m.postgres_sql : m.sql);
      if (!body.ok()) {
        return Status(body.code(), "migration " + std::to_string(m.number) + " (" + m.name +
                                       ") failed: " + body.message());
      }
      // Recorded in the order applied: the next version after the last.
      SV_ASSIGN_OR_RETURN(int64_t last, CurrentVersion(c));
      return c
          .Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                {last + 1, m.name, NowMillis()})
          .status();
    });
    SV_RETURN_IF_ERROR(st);
    applied.insert(m.name);
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
