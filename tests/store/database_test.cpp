// Contract tests for store::Database, run on the backend SERVICE_TEST_BACKEND
// names (each case gets a fresh database from tests/support).
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "store/database.h"
#include "store/migrations.h"
#include "support/test_db.h"

namespace service::store {
namespace {

std::unique_ptr<Database> OpenFresh(DatabaseOptions options = {}) {
  auto db = OpenDatabase(testing::FreshDatabaseUrl(), options);
  REQUIRE_MESSAGE(db.ok(), db.status().ToString());
  return std::move(db).value();
}

void MustWrite(Database& db, const std::function<Status(Connection&)>& fn) {
  Status st = db.Write(fn);
  REQUIRE_MESSAGE(st.ok(), st.ToString());
}

void CreateTable(Database& db, std::string_view ddl) {
  MustWrite(db, [&](Connection& c) { return c.ExecScript(ddl); });
}

int64_t CountRows(Database& db, std::string_view table) {
  int64_t n = -1;
  Status st = db.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(Rows rows, c.Query("SELECT COUNT(*) FROM " + std::string(table)));
    n = rows.Int(0, 0);
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return n;
}

// A TCP port on 127.0.0.1 with nothing listening.
int ClosedPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  ::close(fd);
  return ntohs(addr.sin_port);
}

constexpr std::string_view kKindsTable =
    "CREATE TABLE kinds (id BIGINT PRIMARY KEY, i BIGINT, d DOUBLE PRECISION, s TEXT, n TEXT)";

TEST_CASE("every Value kind binds and reads back typed, including NULL, unicode and large text") {
  auto db = OpenFresh();
  CreateTable(*db, kKindsTable);
  const std::string unicode =
      "h\xC3\xA9llo w\xC3\xB6rld \xE2\x9C\x93 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x8E\x89 'quote' \"dq\" ?";
  std::string large(1 << 20, 'x');
  for (size_t i = 0; i < large.size(); i += 7) large[i] = static_cast<char>('a' + i % 26);

  MustWrite(*db, [&](Connection& c) -> Status {
    SV_RETURN_IF_ERROR(c.Exec("INSERT INTO kinds (id, i, d, s, n) VALUES (?, ?, ?, ?, ?)",
                              {int64_t{1}, int64_t{9007199254740993}, 3.25, unicode, Null()})
                           .status());
    SV_RETURN_IF_ERROR(c.Exec("INSERT INTO kinds (id, i, d, s, n) VALUES (?, ?, ?, ?, ?)",
                              {int64_t{2}, int64_t{-9223372036854775807 - 1}, -0.5, large, std::string("")})
                           .status());
    return c
        .Exec("INSERT INTO kinds (id, i, d, s, n) VALUES (?, ?, ?, ?, ?)",
              {int64_t{3}, Bool(true), Null(), Null(), OptText(std::string("opt"))})
        .status();
  });

  Rows rows;
  Status st = db->Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(rows, c.Query("SELECT id, i, d, s, n FROM kinds ORDER BY id"));
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  REQUIRE(rows.size() == 3);
  REQUIRE(rows.columns == std::vector<std::string>{"id", "i", "d", "s", "n"});

  // Cells carry the column's type on both backends.
  CHECK(std::holds_alternative<int64_t>(rows.data[0][1]));
  CHECK(std::holds_alternative<double>(rows.data[0][2]));
  CHECK(std::holds_alternative<std::string>(rows.data[0][3]));
  CHECK(std::holds_alternative<std::nullptr_t>(rows.data[0][4]));

  CHECK(rows.Int(0, 1) == 9007199254740993);
  CHECK(rows.Dbl(0, 2) == 3.25);
  CHECK(rows.Str(0, 3) == unicode);
  CHECK(rows.IsNull(0, 4));
  CHECK_FALSE(rows.OptStr(0, 4).has_value());
  CHECK(rows.Str(0, 4).empty());

  CHECK(rows.Int(1, 1) == std::numeric_limits<int64_t>::min());
  CHECK(rows.Dbl(1, 2) == -0.5);
  CHECK(rows.Str(1, 3) == large);
  CHECK_FALSE(rows.IsNull(1, 4));
  CHECK(rows.OptStr(1, 4) == std::optional<std::string>(""));

  CHECK(rows.Bool(2, 1));
  CHECK(rows.IsNull(2, 2));
  CHECK(rows.Dbl(2, 2) == 0.0);
  CHECK_FALSE(rows.OptInt(2, 2).has_value());
  CHECK(rows.OptStr(2, 4) == std::optional<std::string>("opt"));

  CHECK(rows.Column("s") == 3);
  CHECK(rows.Column("missing") == -1);
  // Integers read as text and text holding integers converts.
  CHECK(rows.Str(0, 0) == "1");
}

TEST_CASE("a NULL parameter compares as NULL and binds in WHERE clauses") {
  auto db = OpenFresh();
  CreateTable(*db, kKindsTable);
  MustWrite(*db, [](Connection& c) {
    return c.Exec("INSERT INTO kinds (id, s) VALUES (?, ?), (?, ?)", {int64_t{1}, Null(), int64_t{2}, "two"})
        .status();
  });
  Status st = db->Read([](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(Rows nulls, c.Query("SELECT id FROM kinds WHERE s IS NULL"));
    CHECK(nulls.size() == 1);
    SV_ASSIGN_OR_RETURN(Rows two, c.Query("SELECT id FROM kinds WHERE s = ?", {"two"}));
    REQUIRE(two.size() == 1);
    CHECK(two.Int(0, 0) == 2);
    SV_ASSIGN_OR_RETURN(Rows none, c.Query("SELECT id FROM kinds WHERE s = ?", {Null()}));
    CHECK(none.empty());
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
}

TEST_CASE("RETURNING gives the inserted and updated rows, Exec counts changed rows") {
  auto db = OpenFresh();
  CreateTable(*db, kKindsTable);
  Rows inserted;
  int64_t updated = -1;
  MustWrite(*db, [&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(inserted,
                        c.Query("INSERT INTO kinds (id, i, s) VALUES (?, ?, ?), (?, ?, ?) RETURNING id, s",
                                {int64_t{10}, int64_t{1}, "a", int64_t{11}, int64_t{1}, "b"}));
    SV_ASSIGN_OR_RETURN(updated, c.Exec("UPDATE kinds SET i = i + 1 WHERE i = ?", {int64_t{1}}));
    return Status::Ok();
  });
  REQUIRE(inserted.size() == 2);
  CHECK(inserted.columns == std::vector<std::string>{"id", "s"});
  CHECK(inserted.Int(0, 0) + inserted.Int(1, 0) == 21);
  CHECK(updated == 2);

  Rows deleted;
  MustWrite(*db, [&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(deleted, c.Query("DELETE FROM kinds WHERE id = ? RETURNING i", {int64_t{10}}));
    return Status::Ok();
  });
  REQUIRE(deleted.size() == 1);
  CHECK(deleted.Int(0, 0) == 2);
  CHECK(CountRows(*db, "kinds") == 1);
}

TEST_CASE("a unique violation is kConflict and its message never quotes the bound value") {
  auto db = OpenFresh();
  CreateTable(*db, "CREATE TABLE accounts (id BIGINT PRIMARY KEY, email TEXT NOT NULL UNIQUE)");
  const std::string secret = "secret-value-8f3a@example.com";
  MustWrite(*db, [&](Connection& c) {
    return c.Exec("INSERT INTO accounts (id, email) VALUES (?, ?)", {int64_t{1}, secret}).status();
  });

  Status dup_unique = db->Write([&](Connection& c) {
    return c.Exec("INSERT INTO accounts (id, email) VALUES (?, ?)", {int64_t{2}, secret}).status();
  });
  CHECK(dup_unique.code() == Code::kConflict);
  CHECK(dup_unique.message().find(secret) == std::string::npos);

  Status dup_key = db->Write([&](Connection& c) {
    return c.Exec("INSERT INTO accounts (id, email) VALUES (?, ?)", {int64_t{1}, "other@example.com"})
        .status();
  });
  CHECK(dup_key.code() == Code::kConflict);

  // Other failures are kInternal, and bad input values are not echoed either.
  if (db->dialect() == Dialect::kPostgres) {  // SQLite would store the text
    Status bad = db->Write([&](Connection& c) {
      return c
          .Exec("INSERT INTO accounts (id, email) VALUES (?, ?)", {"not-a-number-s3cr3t", "x@example.com"})
          .status();
    });
    CHECK(bad.code() == Code::kInternal);
    CHECK(bad.message().find("s3cr3t") == std::string::npos);
  }
  Status not_null = db->Write([&](Connection& c) {
    return c.Exec("INSERT INTO accounts (id, email) VALUES (?, ?)", {int64_t{3}, Null()}).status();
  });
  CHECK(not_null.code() == Code::kInternal);
  Status syntax = db->Write([](Connection& c) { return c.Exec("INSERT INTO nowhere VALUES (1)").status(); });
  CHECK(syntax.code() == Code::kInternal);
  Status arity = db->Write([](Connection& c) {
    return c.Exec("INSERT INTO accounts (id, email) VALUES (?, ?)", {int64_t{4}}).status();
  });
  CHECK(arity.code() == Code::kInternal);
  Status two = db->Write([](Connection& c) {
    return c
        .Exec(
            "INSERT INTO accounts (id, email) VALUES (7, 'a'); INSERT INTO accounts (id, email) VALUES (8, "
            "'b')")
        .status();
  });
  CHECK(two.code() == Code::kInternal);
  CHECK(CountRows(*db, "accounts") == 1);
}

TEST_CASE("concurrent writes: failing callbacks leave nothing, the others all commit") {
  DatabaseOptions options;
  options.pool_size = 4;
  auto db = OpenFresh(options);
  CreateTable(*db, "CREATE TABLE items (thread BIGINT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (thread, n))");
  constexpr int kThreads = 8;
  constexpr int kWrites = 200;
  std::atomic<int> wrong_status{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int n = 0; n < kWrites; ++n) {
        const bool fail = n % 10 == 9;
        Status st = db->Write([&](Connection& c) -> Status {
          SV_RETURN_IF_ERROR(
              c.Exec("INSERT INTO items (thread, n) VALUES (?, ?)", {int64_t{t}, int64_t{n}}).status());
          // Two statements per callback: a failure must undo both.
          SV_RETURN_IF_ERROR(
              c.Exec("INSERT INTO items (thread, n) VALUES (?, ?)", {int64_t{t}, int64_t{n + 1000}})
                  .status());
          if (fail) return Status(Code::kInvalidArgument, "deliberate failure");
          return Status::Ok();
        });
        if (fail) {
          if (st.code() != Code::kInvalidArgument) wrong_status++;
          failed++;
        } else if (!st.ok()) {
          wrong_status++;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(wrong_status.load() == 0);
  CHECK(failed.load() == kThreads * kWrites / 10);
  CHECK(CountRows(*db, "items") == 2 * kThreads * (kWrites - kWrites / 10));
  int64_t failed_rows = -1;
  Status st = db->Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM items WHERE n % 10 = 9"));
    failed_rows = r.Int(0, 0);
    return Status::Ok();
  });
  REQUIRE(st.ok());
  CHECK(failed_rows == 0);
}

TEST_CASE("a failing callback alone rolls back and an exception reaches the caller") {
  auto db = OpenFresh();
  CreateTable(*db, kKindsTable);
  Status st = db->Write([](Connection& c) -> Status {
    SV_RETURN_IF_ERROR(c.Exec("INSERT INTO kinds (id) VALUES (?)", {int64_t{1}}).status());
    return NotFound("nope");
  });
  CHECK(st.code() == Code::kNotFound);
  CHECK(st.message() == "nope");
  CHECK(CountRows(*db, "kinds") == 0);

  CHECK_THROWS_AS(db->Write([](Connection& c) -> Status {
    c.Exec("INSERT INTO kinds (id) VALUES (?)", {int64_t{2}}).status().IgnoreError();
    throw std::runtime_error("bug");
  }),
                  std::runtime_error);
  CHECK(CountRows(*db, "kinds") == 0);
  // The database still works afterwards.
  MustWrite(*db,
            [](Connection& c) { return c.Exec("INSERT INTO kinds (id) VALUES (?)", {int64_t{3}}).status(); });
  CHECK(CountRows(*db, "kinds") == 1);
}

TEST_CASE("an acknowledged write is visible to the next read") {
  auto db = OpenFresh();
  CreateTable(*db, kKindsTable);
  for (int64_t i = 1; i <= 100; ++i) {
    MustWrite(*db, [&](Connection& c) {
      return c.Exec("INSERT INTO kinds (id, i) VALUES (?, ?)", {i, i}).status();
    });
    int64_t seen = -1;
    Status st = db->Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT i FROM kinds WHERE id = ?", {i}));
      seen = r.empty() ? -1 : r.Int(0, 0);
      return Status::Ok();
    });
    REQUIRE(st.ok());
    REQUIRE(seen == i);
  }
}

TEST_CASE("a read sees one snapshot while writes commit around it") {
  auto db = OpenFresh();
  CreateTable(*db, kKindsTable);
  MustWrite(*db, [](Connection& c) { return c.Exec("INSERT INTO kinds (id) VALUES (1)").status(); });
  int64_t before = -1;
  int64_t after = -1;
  Status st = db->Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(Rows a, c.Query("SELECT COUNT(*) FROM kinds"));
    before = a.Int(0, 0);
    // Commits while this read is open.
    SV_RETURN_IF_ERROR(
        db->Write([](Connection& w) { return w.Exec("INSERT INTO kinds (id) VALUES (2)").status(); }));
    SV_ASSIGN_OR_RETURN(Rows b, c.Query("SELECT COUNT(*) FROM kinds"));
    after = b.Int(0, 0);
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  CHECK(before == 1);
  CHECK(after == 1);
  CHECK(CountRows(*db, "kinds") == 2);
}

// On SQLite the writer's WAL appends go through store/sqlite/wal_write_vfs
// (gathered per commit): readers must still see every acknowledged commit
// and nothing else, across transactions larger than its buffer and than the
// page cache, and the file must be intact when opened again.
TEST_CASE(
    "acknowledged writes of every size stay visible and intact while readers read and after reopening") {
  const std::string url = testing::FreshDatabaseUrl();
  std::atomic<int64_t> acknowledged{0};
  {
    auto opened = OpenDatabase(url, {});
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    std::unique_ptr<Database> db = std::move(opened).value();
    MustWrite(*db, [](Connection& c) {
      return c.ExecScript("CREATE TABLE blobs (id BIGINT PRIMARY KEY, body TEXT NOT NULL)");
    });
    // One transaction of about 24 MB (past the 8 MB buffer and the cache).
    const std::string big(6000, 'x');
    MustWrite(*db, [&](Connection& c) -> Status {
      for (int64_t i = 0; i < 4000; ++i) {
        SV_RETURN_IF_ERROR(c.Exec("INSERT INTO blobs (id, body) VALUES (?, ?)", {i, big}).status());
      }
      return Status::Ok();
    });
    acknowledged = 4000;
    // Small commits from several threads while a reader checks that what it
    // sees never goes backwards and never exceeds what was acknowledged.
    std::atomic<bool> stop{false};
    std::atomic<int> reader_errors{0};
    std::thread reader([&] {
      int64_t last = 0;
      while (!stop) {
        const int64_t floor = acknowledged.load();
        int64_t n = -1;
        Status st = db->Read([&](Connection& c) -> Status {
          SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM blobs"));
          n = r.Int(0, 0);
          return Status::Ok();
        });
        if (!st.ok() || n < floor || n < last) ++reader_errors;
        last = n;
      }
    });
    std::vector<std::thread> writers;
    std::atomic<int64_t> next_id{100000};
    for (int t = 0; t < 4; ++t) {
      writers.emplace_back([&] {
        for (int k = 0; k < 100; ++k) {
          const int64_t id = next_id++;
          Status st = db->Write([&](Connection& c) {
            return c.Exec("INSERT INTO blobs (id, body) VALUES (?, ?)", {id, std::string(100 + k * 37, 'y')})
                .status();
          });
          if (st.ok()) ++acknowledged;
        }
      });
    }
    for (std::thread& w : writers) w.join();
    stop = true;
    reader.join();
    CHECK(reader_errors == 0);
    CHECK(acknowledged == 4400);
    CHECK(CountRows(*db, "blobs") == 4400);
    db->Close();
  }
  auto again = OpenDatabase(url, {});
  REQUIRE_MESSAGE(again.ok(), again.status().ToString());
  CHECK(CountRows(**again, "blobs") == 4400);
  if ((*again)->dialect() == Dialect::kSqlite) {
    std::string check;
    Status st = (*again)->Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(Rows r, c.Query("PRAGMA integrity_check"));
      check = r.Str(0, 0);
      return Status::Ok();
    });
    REQUIRE(st.ok());
    CHECK(check == "ok");
  }
}

TEST_CASE("a read cannot write") {
  auto db = OpenFresh();
  CreateTable(*db, kKindsTable);
  Status st = db->Read([](Connection& c) { return c.Exec("INSERT INTO kinds (id) VALUES (1)").status(); });
  CHECK_FALSE(st.ok());
  CHECK(CountRows(*db, "kinds") == 0);
}

TEST_CASE("migrations apply once, applying again is a no-op") {
  auto db = OpenFresh();
  auto before = ReadMigrationState(*db);
  REQUIRE_MESSAGE(before.ok(), before.status().ToString());
  CHECK(before->applied == 0);
  CHECK(before->known == static_cast<int64_t>(AllMigrations().size()));
  REQUIRE_FALSE(AllMigrations().empty());

  Status first = ApplyMigrations(*db);
  REQUIRE_MESSAGE(first.ok(), first.ToString());
  Status second = ApplyMigrations(*db);
  REQUIRE_MESSAGE(second.ok(), second.ToString());

  auto state = ReadMigrationState(*db);
  REQUIRE(state.ok());
  int64_t max_version = 0;
  for (const Migration& m : AllMigrations()) max_version = std::max<int64_t>(max_version, m.version);
  CHECK(state->applied == static_cast<int64_t>(AllMigrations().size()));
  CHECK(state->known == static_cast<int64_t>(AllMigrations().size()));
  CHECK(state->latest_applied == max_version);
  CHECK(CountRows(*db, "schema_migrations") == static_cast<int64_t>(AllMigrations().size()));
}

TEST_CASE("migrations run concurrently from several handles apply each version once") {
  const std::string url = testing::FreshDatabaseUrl();
  std::vector<std::unique_ptr<Database>> dbs;
  for (int i = 0; i < 3; ++i) {
    auto db = OpenDatabase(url);
    REQUIRE_MESSAGE(db.ok(), db.status().ToString());
    dbs.push_back(std::move(db).value());
  }
  std::vector<Status> results(dbs.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < dbs.size(); ++i) {
    threads.emplace_back([&, i] { results[i] = ApplyMigrations(*dbs[i]); });
  }
  for (auto& t : threads) t.join();
  for (const Status& st : results) CHECK_MESSAGE(st.ok(), st.ToString());
  CHECK(CountRows(*dbs[0], "schema_migrations") == static_cast<int64_t>(AllMigrations().size()));
}

TEST_CASE("ToPostgresPlaceholders rewrites only real placeholders") {
  CHECK(ToPostgresPlaceholders("SELECT ?") == "SELECT $1");
  CHECK(ToPostgresPlaceholders("INSERT INTO t VALUES (?, ?, ?)") == "INSERT INTO t VALUES ($1, $2, $3)");
  CHECK(ToPostgresPlaceholders("SELECT ?::text, x::bigint FROM t WHERE a = ?") ==
        "SELECT $1::text, x::bigint FROM t WHERE a = $2");
  CHECK(ToPostgresPlaceholders("SELECT '?', 'it''s ?', ? FROM t") == "SELECT '?', 'it''s ?', $1 FROM t");
  CHECK(ToPostgresPlaceholders("SELECT \"odd?name\", ? FROM \"t\"\"?\"") ==
        "SELECT \"odd?name\", $1 FROM \"t\"\"?\"");
  CHECK(ToPostgresPlaceholders("SELECT ? -- why?\n, ?") == "SELECT $1 -- why?\n, $2");
  CHECK(ToPostgresPlaceholders("SELECT /* a ? /* nested ? */ still ? */ ?") ==
        "SELECT /* a ? /* nested ? */ still ? */ $1");
  CHECK(ToPostgresPlaceholders("SELECT E'\\'?', ?") == "SELECT E'\\'?', $1");
  CHECK(ToPostgresPlaceholders("SELECT $$ ? $$, $tag$ ? $tag$, ?") == "SELECT $$ ? $$, $tag$ ? $tag$, $1");
  CHECK(ToPostgresPlaceholders("SELECT a/b, c-d, ?") == "SELECT a/b, c-d, $1");
  CHECK(ToPostgresPlaceholders("SELECT 'unterminated ?") == "SELECT 'unterminated ?");
  CHECK(ToPostgresPlaceholders("") == "");
  std::string many = "VALUES (";
  for (int i = 0; i < 12; ++i) many += i ? ",?" : "?";
  CHECK(ToPostgresPlaceholders(many + ")") == "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)");
}

TEST_CASE("sqlite::memory: is one database shared by the writer and every reader, distinct per open") {
  DatabaseOptions options;
  options.pool_size = 3;
  auto a = OpenDatabase("sqlite::memory:", options);
  auto b = OpenDatabase("sqlite::memory:", options);
  REQUIRE_MESSAGE(a.ok(), a.status().ToString());
  REQUIRE_MESSAGE(b.ok(), b.status().ToString());
  CreateTable(**a, kKindsTable);
  CreateTable(**b, kKindsTable);
  MustWrite(**a, [](Connection& c) { return c.Exec("INSERT INTO kinds (id) VALUES (1), (2)").status(); });

  // Every pooled reader, used concurrently, sees the writer's data.
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&] {
      for (int k = 0; k < 20; ++k) {
        Status st = (*a)->Read([&](Connection& c) -> Status {
          SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM kinds"));
          if (r.Int(0, 0) == 2) good++;
          return Status::Ok();
        });
        st.IgnoreError();
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(good.load() == 120);
  CHECK(CountRows(**b, "kinds") == 0);
  (*a)->Close();
  CHECK((*a)->Write([](Connection&) { return Status::Ok(); }).code() == Code::kUnavailable);
}

TEST_CASE("a sqlite URL creates its file and parent folders") {
  if (testing::TestBackend() != "sqlite") return;
  std::string url = testing::FreshDatabaseUrl();
  std::string path = url.substr(7);
  path.insert(path.rfind('/'), "/nested/deeper");
  {
    auto db = OpenDatabase("sqlite:" + path);
    REQUIRE_MESSAGE(db.ok(), db.status().ToString());
    CHECK((*db)->backend_name() == "sqlite");
    CHECK((*db)->Ping().ok());
  }
  CHECK(::access(path.c_str(), F_OK) == 0);
}

TEST_CASE("an unreachable PostgreSQL server is kUnavailable, quickly" *
          doctest::skip(!SERVICE_HAS_POSTGRES)) {
  const int port = ClosedPort();
  const auto start = std::chrono::steady_clock::now();
  auto db = OpenDatabase("postgresql://postgres@127.0.0.1:" + std::to_string(port) + "/nothing");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  REQUIRE_FALSE(db.ok());
  CHECK(db.status().code() == Code::kUnavailable);
  CHECK(db.status().message().find("cannot connect") != std::string::npos);
  CHECK(elapsed < std::chrono::seconds(4));
}

TEST_CASE("unknown URL schemes are rejected") {
  auto db = OpenDatabase("mysql://root:hunter2@localhost/x");
  REQUIRE_FALSE(db.ok());
  CHECK(db.status().code() == Code::kInvalidArgument);
  CHECK(db.status().message().find("hunter2") == std::string::npos);
}

TEST_CASE("Ping answers and the backend names itself") {
  auto db = OpenFresh();
  CHECK(db->Ping().ok());
  if (testing::TestBackend() == "postgres") {
    CHECK(db->dialect() == Dialect::kPostgres);
    CHECK(db->backend_name() == "postgresql");
  } else {
    CHECK(db->dialect() == Dialect::kSqlite);
    CHECK(db->backend_name() == "sqlite");
  }
}

TEST_CASE("writes queued before Close are committed, writes after it fail") {
  const std::string url = testing::FreshDatabaseUrl();
  auto opened = OpenDatabase(url);
  REQUIRE(opened.ok());
  auto db = std::move(opened).value();
  CreateTable(*db, kKindsTable);
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        Status st = db->Write([&](Connection& c) {
          return c.Exec("INSERT INTO kinds (id) VALUES (?)", {int64_t{t * 100 + i}}).status();
        });
        if (st.ok()) ok++;
      }
    });
  }
  for (auto& th : threads) th.join();
  db->Close();
  db->Close();  // idempotent
  CHECK(db->Write([](Connection&) { return Status::Ok(); }).code() == Code::kUnavailable);
  db.reset();
  auto again = OpenDatabase(url);
  REQUIRE(again.ok());
  CHECK(CountRows(**again, "kinds") == ok.load());
  CHECK(ok.load() == 100);
}

}  // namespace
}  // namespace service::store
