// Schema migrations: .sql files that each area keeps in its own folder
// (areas/<area>/migrations/; the platform's in store/migrations/), embedded
// in the binary at build time (cmake/EmbedMigrations.cmake), applied at start
// and recorded in the `schema_migrations` table (version, name, applied_at).
//
// File names: NNNN_<area>_<what>.sql (both backends), or .sqlite.sql and
// .postgres.sql where the dialects differ (both must exist). A file's
// migration is named by its first `-- migration: NAME` line, else by its
// <what>; the files of one name form ONE migration applied in one
// transaction (the init migration is one file per area, all named init).
//
// Order: by number, then by area. An area declares the areas its tables
// build on with `-- after: AREA ...` lines in its files (every area comes
// after the platform); the areas are ordered by those declarations (ties by
// name, a cycle is an error). Numbers are not a central list: two areas may
// use one number, and a new migration takes a number above the highest of
// its area and of the areas it comes after, so a fresh database and an
// upgraded one apply the migrations of one area in the same order.
//
// A migration is applied once per database: the runner skips the names
// recorded in schema_migrations and records a new one with the next version
// (on a fresh database the versions are the positions in the order above).
// Adding a migration is adding a file; never edit an applied one.
#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "service/status.h"
#include "store/database.h"

namespace service::store {

// One embedded file: "<area>/<file name>" (a bare file name: the platform's)
// and its text.
struct MigrationFile {
  std::string_view name;
  std::string_view text;
};
// Every migration file of the platform and the areas (generated).
const std::vector<MigrationFile>& EmbeddedMigrationFiles();

// The area of the platform's own migration files (store/migrations/).
inline constexpr std::string_view kPlatformArea = "platform";

struct Migration {
  int version = 0;  // position in the order, from 1
  int number = 0;   // NNNN of its files
  std::string name;
  std::vector<std::string> areas;  // the areas whose files it holds, in order
  std::string sql;                 // SQLite
  std::string postgres_sql;        // PostgreSQL
};

// Groups `files` into migrations in the order above. kInvalidArgument naming
// the file when a name does not follow the pattern, a number is not
// positive, a dialect-specific file lacks its other dialect, one name has
// two numbers or an area comes after an unknown one; naming the areas when
// their declarations form a cycle.
Result<std::vector<Migration>> BuildMigrations(const std::vector<MigrationFile>& files);

// The migrations of this binary (BuildMigrations of the embedded files).
// An invalid set is a build defect: ApplyMigrations reports it.
const std::vector<Migration>& AllMigrations();

// Applies every migration not yet recorded whose position is at most
// `up_to_version` (tests build a database of an earlier binary), each in its
// own transaction. Safe to run concurrently from several processes on
// PostgreSQL (advisory lock).
Status ApplyMigrations(Database& db, int up_to_version = INT_MAX);

struct MigrationState {
  int64_t applied = 0;
  int64_t known = 0;  // compiled into this binary
  int64_t latest_applied = 0;
};
Result<MigrationState> ReadMigrationState(Database& db);

}  // namespace service::store
