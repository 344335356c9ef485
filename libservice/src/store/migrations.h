// Schema migrations: numbered .sql files in src/store/migrations/, embedded
// in the binary at build time (cmake/EmbedMigrations.cmake), applied at start
// and recorded in the `schema_migrations` table.
//
// File names: NNNN_<what>.sql (both backends), or NNNN_<what>.sqlite.sql and
// NNNN_<what>.postgres.sql where the dialects differ (both must exist). The
// files of one number N together form migration N, applied in ONE
// transaction, in name order (an area's tables in its own files: the init
// migration is 0001_01_platform.sql ... 0001_05_triage.sql). The migration's
// recorded name is the first `-- migration: NAME` line of its files, else the
// first file's <what>. Adding a migration is adding files; never edit an
// applied one.
#pragma once

#include <climits>
#include <cstdint>
#include <string_view>
#include <vector>

#include "service/status.h"
#include "store/database.h"

namespace service::store {

#include <string>

// One embedded file: its name and text.
struct MigrationFile {
  std::string_view name;
  std::string_view text;
};
// Every .sql file of src/store/migrations/, sorted by name (generated).
const std::vector<MigrationFile>& EmbeddedMigrationFiles();

struct Migration {
  int version = 0;
  std::string name;
  std::string sql;           // SQLite
  std::string postgres_sql;  // PostgreSQL
};

// Groups `files` into migrations ordered by version. kInvalidArgument naming
// the file when a name does not follow the pattern, a version is not
// positive, or a dialect-specific file lacks its other dialect.
Result<std::vector<Migration>> BuildMigrations(const std::vector<MigrationFile>& files);

// The migrations of this binary (BuildMigrations of the embedded files).
// An invalid set is a build defect: ApplyMigrations reports it.
const std::vector<Migration>& AllMigrations();

// Applies every migration newer than the recorded version up to
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
