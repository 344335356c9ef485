// SQLite database files as a whole: who owns one, and copying one (backup,
// restore).
//
// One owner per file. The service's workers (outbox deliveries, retention,
// digests) assume theirs is the only process on the database: two servers on
// one SQLite file would, for one, send every delivery twice. The owner holds
// an exclusive flock(2) on a sidecar file "<db>.lock" for as long as it has
// the database open. Why a sidecar and flock, not a lock on the database:
//  - SQLite locks the database file itself with fcntl (POSIX) byte-range
//    locks, which belong to the process: closing any descriptor of the file
//    drops all of them, so a descriptor of ours on the database could release
//    SQLite's own locks, and a byte range of ours could collide with SQLite's
//    (its lock bytes at 1 GiB, the -shm file's in WAL mode).
//  - flock locks are kept apart from fcntl locks (on local file systems), so
//    SQLite's locking and WAL work exactly as without ours; they belong to
//    the open file description, so a second open in the same process
//    conflicts as a second process does (an embedder opening the library
//    twice on one file gets the same error); the kernel drops them when the
//    process ends, even on SIGKILL (no stale lock to clean up); the
//    descriptor is close-on-exec.
//  - the sidecar can be locked before the database exists (first start,
//    restore into a new path) and is never removed: removing it would let two
//    processes lock two different files of one name. It holds the owner's
//    pid, for the message the next claimant prints.
// Backups need no claim: they read one snapshot through SQLite's own locks.
//
// Thread-safety: the functions may be called from any thread; an owner is
// released by destroying it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::store {

// The file a "sqlite:PATH" URL names (read as OpenDatabase reads it);
// nothing for "sqlite::memory:" (a private file no one else can open) and for
// other backends.
std::optional<std::string> SqliteFilePath(std::string_view url);

// An exclusive claim on a SQLite file (see above). Destroying it releases it.
class SqliteFileOwner {
 public:
  explicit SqliteFileOwner(int fd) : fd_(fd) {}
  SqliteFileOwner(const SqliteFileOwner&) = delete;
  SqliteFileOwner& operator=(const SqliteFileOwner&) = delete;
  ~SqliteFileOwner();

 private:
  int fd_;
};

// Claims the database file `path` (its folder is created). kConflict, naming
// the file, the lock file and the holder's pid, when another process or
// another open in this process holds it; kUnavailable when the lock file
// cannot be created.
Result<std::unique_ptr<SqliteFileOwner>> ClaimSqliteFile(const std::string& path);

// What a copy holds, read from it after the copy.
struct SqliteCopyReport {
  int64_t pages = 0;
  int64_t page_size = 0;
  int steps = 0;                  // backup steps (backups only)
  int64_t migration_version = 0;  // the highest version in schema_migrations
  std::string migration_name;     // its name
};

// Copies the database at `path` into the new file `to` with SQLite's online
// backup API while other processes keep writing: the copy is the snapshot
// of one read transaction held over every step (so a commit elsewhere never
// restarts it), `pages_per_step` pages per step. The copy is written to
// "<to>.partial", checked (CheckSqliteFile, and the same migration version
// as the snapshot), switched to a rollback journal (one self-contained
// file), synced and renamed to `to`. kInvalidArgument when `to` exists or
// `path` does not, or is not a service database; kInternal when the check
// fails (the partial file is removed).
Result<SqliteCopyReport> BackupSqlite(const std::string& path, const std::string& to, int pages_per_step);

// `PRAGMA integrity_check` and the newest schema_migrations row of the file
// at `path`, opened read-only. kInternal quoting SQLite's first complaint
// when the check finds damage; kInvalidArgument when the file is missing or
// has no schema_migrations table.
Result<SqliteCopyReport> CheckSqliteFile(const std::string& path);

// Replaces the content of the database at `path` (created when missing) by
// the backup `from`, through the backup API into `path` in WAL mode: one
// transaction, so a failure leaves the old content, and SQLite's -wal/-shm
// files stay consistent with the new content. REQUIRES: the caller holds
// the claim on `path` (ClaimSqliteFile), and `from` passed CheckSqliteFile.
Result<SqliteCopyReport> RestoreSqlite(const std::string& from, const std::string& path);

}  // namespace service::store
