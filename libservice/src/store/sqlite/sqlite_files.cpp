// SQLite files as a whole: the owner's lock, backup, check and restore.
#include "store/sqlite/sqlite_files.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::store {
namespace {

constexpr int kBusyTimeoutMs = 10000;

std::string LockPath(const std::string& path) { return path + ".lock"; }

// The pid the holder wrote into the lock file; 0 when unreadable.
long HolderPid(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return 0;
  return std::strtol(buf, nullptr, 10);
}

// An open connection closed on scope exit.
class Handle {
 public:
  Handle() = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Close(); }
  sqlite3* get() const { return db_; }
  sqlite3** out() { return &db_; }
  int Close() {
    const int rc = db_ != nullptr ? sqlite3_close(db_) : SQLITE_OK;
    db_ = nullptr;
    return rc;
  }

 private:
  sqlite3* db_ = nullptr;
};

Status Error(sqlite3* db, std::string_view what, const std::string& path) {
  return Internal("sqlite: " + std::string(what) + " " + path + ": " +
                  (db != nullptr ? sqlite3_errmsg(db) : "out of memory"));
}

// Opens an existing file read-write (WAL readers write the -shm file), never
// creating it.
Status OpenExisting(const std::string& path, Handle& h, bool query_only) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return InvalidArgument("no database file at " + path);
  if (sqlite3_open_v2(path.c_str(), h.out(), SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    return Error(h.get(), "cannot open", path);
  }
  sqlite3_busy_timeout(h.get(), kBusyTimeoutMs);
  if (query_only && sqlite3_exec(h.get(), "PRAGMA query_only=ON", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return Error(h.get(), "cannot open", path);
  }
  return Status::Ok();
}

Status Exec(sqlite3* db, const char* sql, const std::string& path) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
    return Error(db, std::string("\"") + sql + "\" failed on", path);
  }
  return Status::Ok();
}

// The first column of each row of `sql` as text.
Result<std::vector<std::string>> Column(sqlite3* db, const char* sql, const std::string& path) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
    return Error(db, std::string("\"") + sql + "\" failed on", path);
  }
  std::vector<std::string> out;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    out.emplace_back(text != nullptr ? text : "");
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) return Error(db, std::string("\"") + sql + "\" failed on", path);
  return out;
}

// Page size, page count and newest migration, read on `db` (inside the
// caller's transaction, if any).
Status ReadShape(sqlite3* db, const std::string& path, SqliteCopyReport& report) {
  SV_ASSIGN_OR_RETURN(std::vector<std::string> has,
                      Column(db,
                             "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = "
                             "'schema_migrations'",
                             path));
  if (has.empty() || has[0] != "1") {
    return InvalidArgument(path + " is not a service database (it has no schema_migrations table)");
  }
  SV_ASSIGN_OR_RETURN(std::vector<std::string> version,
                      Column(db, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", path));
  SV_ASSIGN_OR_RETURN(std::vector<std::string> name,
                      Column(db, "SELECT name FROM schema_migrations ORDER BY version DESC LIMIT 1", path));
  SV_ASSIGN_OR_RETURN(std::vector<std::string> page_size, Column(db, "PRAGMA page_size", path));
  SV_ASSIGN_OR_RETURN(std::vector<std::string> pages, Column(db, "PRAGMA page_count", path));
  report.migration_version = std::stoll(version.at(0));
  report.migration_name = name.empty() ? "" : name[0];
  report.page_size = std::stoll(page_size.at(0));
  report.pages = std::stoll(pages.at(0));
  return Status::Ok();
}

// fsync of a file or folder; errors ignored where the platform refuses
// folders.
Status Sync(const std::string& path, bool folder) {
  const int fd = ::open(path.c_str(), (folder ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
  if (fd < 0) return Unavailable("cannot open " + path + ": " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && !folder) return Unavailable("cannot sync " + path + ": " + std::strerror(err));
  return Status::Ok();
}

void RemoveWithSidecars(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) std::filesystem::remove(path + suffix, ec);
}

}  // namespace

std::optional<std::string> SqliteFilePath(std::string_view url) {
  constexpr std::string_view kSqlite = "sqlite:";
  if (url.substr(0, kSqlite.size()) != kSqlite) return std::nullopt;
  std::string_view path = url.substr(kSqlite.size());
  if (path.substr(0, 2) == "//") path.remove_prefix(2);  // as OpenDatabase reads it
  if (path.empty() || path == ":memory:") return std::nullopt;
  return std::string(path);
}

SqliteFileOwner::~SqliteFileOwner() {
  if (fd_ >= 0) {
    (void)::ftruncate(fd_, 0);  // no stale pid for the next reader
    ::close(fd_);               // drops the flock
  }
}

Result<std::unique_ptr<SqliteFileOwner>> ClaimSqliteFile(const std::string& path) {
  const std::string lock_path = LockPath(path);
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) return Unavailable("sqlite: cannot create folder " + parent.string() + ": " + ec.message());
  }
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Unavailable("sqlite: cannot create the lock file " + lock_path + ": " + std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const long pid = HolderPid(fd);
    ::close(fd);
    if (err != EWOULDBLOCK) {
      return Unavailable("sqlite: cannot lock " + lock_path + ": " + std::strerror(err));
    }
    std::string holder = "another process";
    if (pid == static_cast<long>(::getpid())) {
      holder = "this process (pid " + std::to_string(pid) + ", which has it open already)";
    } else if (pid > 0) {
      holder = "another process (pid " + std::to_string(pid) + ")";
    }
    return Status(Code::kConflict, "the SQLite database " + path + " is in use by " + holder +
                                       ": one process owns a SQLite file (lock file " + lock_path +
                                       "); stop it first, or use PostgreSQL to run several processes");
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 ||
      ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    // The lock holds without the pid; only the message loses it.
  }
  return std::make_unique<SqliteFileOwner>(fd);
}

Result<SqliteCopyReport> CheckSqliteFile(const std::string& path) {
  Handle h;
  SV_RETURN_IF_ERROR(OpenExisting(path, h, /*query_only=*/true));
  SV_ASSIGN_OR_RETURN(std::vector<std::string> problems, Column(h.get(), "PRAGMA integrity_check", path));
  if (problems.size() != 1 || problems[0] != "ok") {
    return Internal("sqlite: " + path + " failed PRAGMA integrity_check: " +
                    (problems.empty() ? std::string("no answer") : problems[0]));
  }
  SqliteCopyReport report;
  SV_RETURN_IF_ERROR(ReadShape(h.get(), path, report));
  return report;
}

Result<SqliteCopyReport> BackupSqlite(const std::string& path, const std::string& to, int pages_per_step) {
  std::error_code ec;
  if (std::filesystem::exists(to, ec)) {
    return InvalidArgument(to + " exists already; back up into a new file");
  }
  const std::string partial = to + ".partial";
  RemoveWithSidecars(partial);  // a leftover of an interrupted backup
  const std::filesystem::path to_folder = std::filesystem::path(to).parent_path();
  if (!to_folder.empty()) {
    std::filesystem::create_directories(to_folder, ec);
    if (ec) return Unavailable("cannot create folder " + to_folder.string() + ": " + ec.message());
  }

  Handle src;
  SV_RETURN_IF_ERROR(OpenExisting(path, src, /*query_only=*/true));
  // One snapshot for every step: with a read transaction open on the source,
  // sqlite3_backup_step reads through it, so commits of other processes
  // (which WAL lets go on meanwhile) never restart the copy.
  SV_RETURN_IF_ERROR(Exec(src.get(), "BEGIN", path));
  SqliteCopyReport snapshot;
  SV_RETURN_IF_ERROR(ReadShape(src.get(), path, snapshot));

  SqliteCopyReport report;
  Status copied = [&]() -> Status {
    Handle dst;
    if (sqlite3_open_v2(partial.c_str(), dst.out(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
      return Error(dst.get(), "cannot create", partial);
    }
    sqlite3_backup* backup = sqlite3_backup_init(dst.get(), "main", src.get(), "main");
    if (backup == nullptr) return Error(dst.get(), "cannot start the backup into", partial);
    int rc;
    do {
      rc = sqlite3_backup_step(backup, pages_per_step > 0 ? pages_per_step : -1);
      ++report.steps;
    } while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) {
      return Internal("sqlite: backup of " + path + " failed: " + std::string(sqlite3_errstr(rc)));
    }
    // The source's header says WAL; a backup is one self-contained file.
    SV_RETURN_IF_ERROR(Exec(dst.get(), "PRAGMA journal_mode=DELETE", partial));
    if (dst.Close() != SQLITE_OK) return Internal("sqlite: cannot close " + partial);
    return Status::Ok();
  }();
  (void)Exec(src.get(), "COMMIT", path);
  src.Close();
  if (copied.ok()) {
    Result<SqliteCopyReport> checked = CheckSqliteFile(partial);
    if (!checked.ok()) {
      copied = checked.status();
    } else if (checked->migration_version != snapshot.migration_version) {
      copied =
          Internal("sqlite: the copy holds migration version " + std::to_string(checked->migration_version) +
                   ", the database " + std::to_string(snapshot.migration_version));
    } else {
      const int steps = report.steps;
      report = *checked;
      report.steps = steps;
    }
  }
  if (copied.ok()) copied = Sync(partial, /*folder=*/false);
  if (copied.ok()) {
    std::filesystem::rename(partial, to, ec);
    if (ec) copied = Unavailable("cannot rename " + partial + " to " + to + ": " + ec.message());
  }
  if (!copied.ok()) {
    RemoveWithSidecars(partial);
    return copied;
  }
  (void)Sync(to_folder.empty() ? "." : to_folder.string(), /*folder=*/true);
  return report;
}

Result<SqliteCopyReport> RestoreSqlite(const std::string& from, const std::string& path) {
  Handle src;
  SV_RETURN_IF_ERROR(OpenExisting(from, src, /*query_only=*/true));
  SqliteCopyReport report;
  SV_RETURN_IF_ERROR(ReadShape(src.get(), from, report));
  Handle dst;
  if (sqlite3_open_v2(path.c_str(), dst.out(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    return Error(dst.get(), "cannot open", path);
  }
  sqlite3_busy_timeout(dst.get(), kBusyTimeoutMs);
  // The service runs its files in WAL mode; the backup API keeps a WAL
  // destination's -wal and -shm consistent with the new pages.
  SV_RETURN_IF_ERROR(Exec(dst.get(), "PRAGMA journal_mode=WAL", path));
  sqlite3_backup* backup = sqlite3_backup_init(dst.get(), "main", src.get(), "main");
  if (backup == nullptr) return Error(dst.get(), "cannot start the restore into", path);
  const int rc = sqlite3_backup_step(backup, -1);  // one transaction: all or nothing
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) {
    return Internal("sqlite: restore into " + path + " failed: " + std::string(sqlite3_errstr(rc)) +
                    " (the database is unchanged)");
  }
  SV_RETURN_IF_ERROR(Exec(dst.get(), "PRAGMA wal_checkpoint(TRUNCATE)", path));
  SqliteCopyReport restored;
  SV_RETURN_IF_ERROR(ReadShape(dst.get(), path, restored));
  if (restored.migration_version != report.migration_version) {
    return Internal("sqlite: the restored database holds migration version " +
                    std::to_string(restored.migration_version) + ", the backup " +
                    std::to_string(report.migration_version));
  }
  if (dst.Close() != SQLITE_OK) return Internal("sqlite: cannot close " + path);
  return restored;
}

}  // namespace service::store
