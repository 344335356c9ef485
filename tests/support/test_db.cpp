// Fresh databases for tests: a new SQLite file in a per-process folder, or a
// new schema in the PostgreSQL named by SERVICE_TEST_POSTGRES_URL.
#include "support/test_db.h"

#include <doctest/doctest.h>
#if SERVICE_HAS_POSTGRES
#include <libpq-fe.h>
#endif
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>

namespace service::testing {
namespace {

std::string RandomSuffix() {
  static std::mutex mu;
  static std::mt19937_64 rng{std::random_device{}()};
  static const char* kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::lock_guard lock(mu);
  std::string s;
  for (int i = 0; i < 12; ++i) s.push_back(kAlphabet[rng() % 36]);
  return s;
}

// One folder per test process, removed when the process exits.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path base = (tmp != nullptr && *tmp != '\0') ? tmp : "/tmp";
    path_ = base / ("service-test-" + std::to_string(::getpid()) + "-" + RandomSuffix());
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string FreshSqliteUrl() {
  static TempDir dir;
  static std::atomic<int> counter{0};
  return "sqlite:" + (dir.path() / ("db-" + std::to_string(++counter) + ".sqlite")).string();
}

#if SERVICE_HAS_POSTGRES
std::string FreshPostgresUrl() {
  const char* env = std::getenv("SERVICE_TEST_POSTGRES_URL");
  if (env == nullptr || *env == '\0') {
    FAIL(
        "SERVICE_TEST_BACKEND=postgres needs SERVICE_TEST_POSTGRES_URL (start one with "
        "`scripts/pg-cluster.sh start /tmp/pg` and export the URL it prints)");
  }
  const std::string base = env;
  const std::string schema = "t_" + RandomSuffix();

  PGconn* conn = PQconnectdb(base.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string err = PQerrorMessage(conn);
    PQfinish(conn);
    FAIL("cannot connect to SERVICE_TEST_POSTGRES_URL: " << err);
  }
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  // pg_trgm (bug search's index) lives once per database, in public, which
  // every test schema's search path includes; parallel tests may race to
  // create it, and the loser's error is harmless.
  PQclear(PQexec(conn, "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public"));
  PGresult* res = PQexec(conn, ("CREATE SCHEMA " + schema).c_str());
  const bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
  std::string err = ok ? "" : PQresultErrorMessage(res);
  PQclear(res);
  PQfinish(conn);
  if (!ok) FAIL("cannot create test schema " << schema << ": " << err);

  // A libpq URI: options=-csearch_path=<schema>,public
  // -csynchronous_commit=off, percent-encoded. A test's commits do not wait
  // for the WAL flush (fsync stays on in the cluster, for the benchmarks):
  // every other session still sees them at once, only a crash of PostgreSQL
  // itself could lose the last ones, which no test does.
  const std::string option = "options=-csearch_path%3D" + schema + "%2Cpublic%20-csynchronous_commit%3Doff";
  return base + (base.find('?') == std::string::npos ? "?" : "&") + option;
}
#else
std::string FreshPostgresUrl() {
  FAIL("this build has no PostgreSQL support (SERVICE_USE_POSTGRES_IF_AVAILABLE)");
  return {};
}
#endif

}  // namespace

std::string TestBackend() {
  const char* env = std::getenv("SERVICE_TEST_BACKEND");
  if (env == nullptr || *env == '\0') return "sqlite";
  std::string b = env;
  if (b == "postgresql" || b == "pg") return "postgres";
  return b;
}

std::string FreshDatabaseUrl() {
  const std::string backend = TestBackend();
  if (backend == "sqlite") return FreshSqliteUrl();
  if (backend == "postgres") return FreshPostgresUrl();
  FAIL("unknown SERVICE_TEST_BACKEND \"" << backend << "\" (expected sqlite or postgres)");
  return {};
}

}  // namespace service::testing
