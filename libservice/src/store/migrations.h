// Embedded, numbered schema migrations, applied at start and recorded in the
// `schema_migrations` table. One list for both backends; a migration may carry
// a PostgreSQL-specific variant where the dialects differ.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "service/status.h"
#include "store/database.h"

namespace service::store {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;           // both backends, unless postgres_sql is set
  std::string_view postgres_sql;  // optional PostgreSQL variant
};

const std::vector<Migration>& AllMigrations();

// Applies every migration newer than the recorded version, each in its own
// transaction. Safe to run concurrently from several processes on PostgreSQL
// (advisory lock).
Status ApplyMigrations(Database& db);

struct MigrationState {
  int64_t applied = 0;
  int64_t known = 0;  // compiled into this binary
  int64_t latest_applied = 0;
};
Result<MigrationState> ReadMigrationState(Database& db);

}  // namespace service::store
