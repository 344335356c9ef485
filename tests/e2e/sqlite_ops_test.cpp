// Operating a SQLite database with the real service-server binary: one
// process owns a SQLite file (a second server, `migrate` and `restore` are
// refused at once while a server holds it; PostgreSQL takes several
// servers), and `backup` / `restore` under ingest load.
#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server_process.h"
#include "service/options.h"
#include "service/service.h"
#include "store/database.h"

namespace service::e2e {
namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

boost::json::value ParseJson(const std::string& text) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec) return nullptr;
  return v;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Registers a user and returns the organization's capture key.
std::string Register(int port, const std::string& email, const std::string& password) {
  httplib::Client client("127.0.0.1", port);
  auto reg = client.Post("/v1/auth/register",
                         "{\"email\":\"" + email + "\",\"password\":\"" + password +
                             "\",\"name\":\"Ops\",\"orgName\":\"Ops Inc\"}",
                         "application/json");
  REQUIRE(reg);
  REQUIRE_MESSAGE(reg->status == 201, reg->body);
  return std::string(ParseJson(reg->body).at("apiKey").as_string());
}

std::string Report(int thread, int i) {
  return "{\"title\":\"TypeError: backup load " + std::to_string(thread) + "-" + std::to_string(i % 13) +
         "\",\"url\":\"https://app.example.com/cart/" + std::to_string(i) +
         "\",\"events\":[{\"type\":\"console\",\"data\":{\"message\":\"" + std::string(400, 'y') + "\"}}]}";
}

std::set<std::string> StoredOccurrences(const std::string& url) {
  auto db = store::OpenDatabase(url, {});
  REQUIRE_MESSAGE(db.ok(), db.status().ToString());
  std::set<std::string> stored;
  const Status st = (*db)->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(store::Rows r, c.Query("SELECT id FROM occurrences", {}));
    for (size_t i = 0; i < r.size(); ++i) stored.insert(r.Str(i, 0));
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  (*db)->Close();
  return stored;
}

}  // namespace

TEST_CASE(
    "a second server on a SQLite file exits at once naming the owner, migrate and restore are refused too") {
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    RunningServer first(backend.url);
    REQUIRE_MESSAGE(first.ok(), first.process().Stderr());

    if (backend.name == "postgres") {
      // Several processes on one PostgreSQL database are supported.
      RunningServer second(backend.url);
      CHECK_MESSAGE(second.ok(), second.process().Stderr());
      CHECK(second.Stop() == 0);
      CHECK(first.Stop() == 0);
      continue;
    }

    const std::string file = dir.path() + "/data/service.db";
    const auto start = std::chrono::steady_clock::now();
    const RunResult second = Run({"--listen", "127.0.0.1:0", "--database", backend.url});
    CHECK(SecondsSince(start) < 5.0);  // at once: no retry, no wait for a busy database
    CHECK(second.exit_code == 1);
    CHECK(second.out.empty());  // never printed a listening line
    CHECK_MESSAGE(Contains(second.err, "service-server: cannot open the service: the SQLite database " +
                                           file + " is in use by another process (pid "),
                  second.err);
    CHECK_MESSAGE(Contains(second.err, "(lock file " + file + ".lock)"), second.err);
    CHECK(Contains(second.err, "use PostgreSQL to run several processes"));

    const RunResult migrate = Run({"migrate", "--database", backend.url});
    CHECK(migrate.exit_code == 1);
    CHECK_MESSAGE(Contains(migrate.err, "migration failed: the SQLite database " + file + " is in use"),
                  migrate.err);

    // A backup runs beside the owner; a restore over its file is refused.
    const std::string backup = dir.path() + "/owner-test.backup";
    const RunResult copied = Run({"backup", "--database", backend.url, "--to", backup});
    CHECK_MESSAGE(copied.exit_code == 0, copied.err);
    const RunResult restore = Run({"restore", "--from", backup, "--database", backend.url});
    CHECK(restore.exit_code == 1);
    CHECK_MESSAGE(Contains(restore.err, "restore failed: the SQLite database " + file + " is in use"),
                  restore.err);

    // The first server still serves.
    auto health = httplib::Client("127.0.0.1", first.port()).Get("/v1/health");
    REQUIRE(health);
    CHECK(health->status == 200);

    // Once it stops, a new one starts; one killed outright leaves no lock behind.
    CHECK(first.Stop() == 0);
    {
      RunningServer next(backend.url);
      REQUIRE_MESSAGE(next.ok(), next.process().Stderr());
      next.process().Signal(SIGKILL);
      CHECK(next.process().Wait(std::chrono::milliseconds(5'000)).has_value());
    }
    RunningServer after_kill(backend.url);
    CHECK_MESSAGE(after_kill.ok(), after_kill.process().Stderr());
  }
}

TEST_CASE("a SQLite file opened twice by one process: the second Service::Open says so") {
  TempDir dir;
  Options options;
  options.database_url = "sqlite:" + dir.path() + "/twice.db";
  auto first = Service::Open(options);
  REQUIRE_MESSAGE(first.ok(), first.status().ToString());
  auto second = Service::Open(options);
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().code() == Code::kConflict);
  CHECK_MESSAGE(Contains(second.status().message(), "is in use by this process (pid "),
                second.status().message());
  CHECK(Contains(second.status().message(), "which has it open already"));
  CHECK(Migrate(options.database_url).code() == Code::kConflict);
  first->reset();
  auto again = Service::Open(options);
  CHECK_MESSAGE(again.ok(), again.status().ToString());
}

TEST_CASE(
    "backup while reports stream in, restore into a new server: every report acknowledged before is there") {
  TempDir dir;
  const std::string url = "sqlite:" + dir.path() + "/live.db";
  const std::string backup = dir.path() + "/backups/live-1.db";
  std::filesystem::create_directories(dir.path() + "/backups");

  std::mutex mu;
  std::vector<std::string> acknowledged;
  std::vector<std::string> before_backup;
  size_t acknowledged_when_done = 0;
  RunResult copied;
  {
    RunningServer server(url, {"SERVICE_RATE_LIMITS=off"});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    const std::string key = Register(server.port(), "ops@example.com", "ops-test-password");

    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        httplib::Client client("127.0.0.1", server.port());
        client.set_read_timeout(10, 0);
        const httplib::Headers headers{{"X-Service-Key", key}};
        for (int i = 0; !stop; ++i) {
          auto res = client.Post("/v1/ingest", headers, Report(t, i), "application/json");
          if (!res || res->status != 201) continue;
          const boost::json::value v = ParseJson(res->body);
          std::lock_guard lock(mu);
          acknowledged.push_back(std::string(v.at("occurrenceId").as_string()));
        }
      });
    }
    // Some load first, so the database is not trivially small.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      std::lock_guard lock(mu);
      if (acknowledged.size() >= 1500 || std::chrono::steady_clock::now() > give_up) break;
    }
    {
      std::lock_guard lock(mu);
      before_backup = acknowledged;
    }
    copied = Run({"backup", "--database", url, "--to", backup});
    {
      std::lock_guard lock(mu);
      acknowledged_when_done = acknowledged.size();
    }
    // Writers go on after the backup too, then stop.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
    for (std::thread& th : threads) th.join();
    CHECK(server.Stop() == 0);
  }
  REQUIRE(before_backup.size() >= 1500);
  REQUIRE_MESSAGE(copied.exit_code == 0, copied.err);
  MESSAGE(copied.out << "acknowledged before the backup: " << before_backup.size()
                     << ", by its end: " << acknowledged_when_done);
  // The writers were not held up while the pages were copied.
  CHECK(acknowledged_when_done > before_backup.size());
  CHECK_MESSAGE(Contains(copied.out, "backup: copied " + dir.path() + "/live.db to " + backup + ": "),
                copied.out);
  CHECK(Contains(copied.out, "backup: PRAGMA integrity_check: ok\n"));
  CHECK(Contains(copied.out, "backup: migration version "));
  CHECK_FALSE(std::filesystem::exists(backup + ".partial"));

  // Restored into a new file, served by a new server.
  const std::string restored_url = "sqlite:" + dir.path() + "/restored/service.db";
  const RunResult restored = Run({"restore", "--from", backup, "--database", restored_url});
  REQUIRE_MESSAGE(restored.exit_code == 0, restored.err);
  CHECK_MESSAGE(Contains(restored.out, "restore: checked " + backup + ": PRAGMA integrity_check ok"),
                restored.out);
  CHECK(Contains(restored.out, "restore: replaced the content of " + dir.path() + "/restored/service.db: "));
  {
    RunningServer server(restored_url);
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    httplib::Client client("127.0.0.1", server.port());
    auto login =
        client.Post("/v1/auth/login", "{\"email\":\"ops@example.com\",\"password\":\"ops-test-password\"}",
                    "application/json");
    REQUIRE(login);
    CHECK_MESSAGE(login->status == 200, login->body);
    CHECK(server.Stop() == 0);
  }
  const std::set<std::string> stored = StoredOccurrences(restored_url);
  size_t missing = 0;
  for (const std::string& id : before_backup) missing += stored.count(id) == 0 ? 1 : 0;
  CHECK(missing == 0);
  // The copy is one snapshot: nothing acknowledged after the backup ended.
  std::set<std::string> after;
  {
    std::lock_guard lock(mu);
    after.insert(acknowledged.begin() + static_cast<std::ptrdiff_t>(acknowledged_when_done),
                 acknowledged.end());
  }
  size_t later = 0;
  for (const std::string& id : after) later += stored.count(id);
  CHECK(later == 0);

  // A second restore over the restored file (server stopped) replaces it again.
  const RunResult again = Run({"restore", "--from", backup, "--database", restored_url});
  CHECK_MESSAGE(again.exit_code == 0, again.err);
  CHECK(StoredOccurrences(restored_url).size() == stored.size());
}

TEST_CASE("backup and restore refuse what they cannot do, with exit status 2") {
  TempDir dir;
  SUBCASE("PostgreSQL: use pg_dump") {
    const RunResult r =
        Run({"backup", "--database", "postgresql://ops@127.0.0.1:1/none", "--to", dir.path() + "/x.db"});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(Contains(r.err,
                           "service-server: backup failed: backup copies SQLite files; for PostgreSQL use "
                           "pg_dump"),
                  r.err);
    const RunResult restore =
        Run({"restore", "--from", dir.path() + "/x.db", "--database", "postgresql://ops@127.0.0.1:1/none"});
    CHECK(restore.exit_code == 2);
    CHECK(Contains(restore.err, "pg_dump"));
  }
  SUBCASE("an existing target, a missing database or backup, no --to") {
    const std::string url = "sqlite:" + dir.path() + "/db.db";
    REQUIRE(Run({"migrate", "--database", url}).exit_code == 0);
    REQUIRE(Run({"backup", "--database", url, "--to", dir.path() + "/b1.db"}).exit_code == 0);
    const RunResult exists = Run({"backup", "--database", url, "--to", dir.path() + "/b1.db"});
    CHECK(exists.exit_code == 2);
    CHECK(Contains(exists.err, "exists already"));
    const RunResult missing =
        Run({"backup", "--database", "sqlite:" + dir.path() + "/none.db", "--to", dir.path() + "/b2.db"});
    CHECK(missing.exit_code == 2);
    CHECK(Contains(missing.err, "no database file at " + dir.path() + "/none.db"));
    const RunResult no_backup = Run({"restore", "--from", dir.path() + "/none.db", "--database", url});
    CHECK(no_backup.exit_code == 2);
    CHECK(Run({"backup", "--database", url}).exit_code == 2);
    CHECK(Run({"restore", "--database", url}).exit_code == 2);
    CHECK(Run({"migrate", "--to", dir.path() + "/b3.db"}).exit_code == 2);
  }
  SUBCASE("a damaged backup is refused and the database kept") {
    const std::string url = "sqlite:" + dir.path() + "/keep.db";
    REQUIRE(Run({"migrate", "--database", url}).exit_code == 0);
    const std::string bad = dir.path() + "/bad.db";
    {
      std::FILE* f = std::fopen(bad.c_str(), "wb");
      REQUIRE(f != nullptr);
      const std::string junk(8192, 'z');
      std::fwrite(junk.data(), 1, junk.size(), f);
      std::fclose(f);
    }
    const RunResult r = Run({"restore", "--from", bad, "--database", url});
    CHECK(r.exit_code != 0);
    CHECK(Contains(r.err, "restore failed: "));
    CHECK(Run({"backup", "--database", url, "--to", dir.path() + "/kept.db"}).exit_code == 0);
  }
}

}  // namespace service::e2e
