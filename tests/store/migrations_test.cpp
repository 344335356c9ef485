// Migrations as files: the rules of BuildMigrations, the schema the files
// produce (the same as the binary before them), and the upgrade of a
// database created by that binary.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "areas/accounts/store/repositories.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/store/repositories.h"
#include "areas/projects/store/repositories.h"
#include "store/database.h"
#include "store/migrations.h"
#include "support/test_db.h"

namespace service::store {
namespace {

std::unique_ptr<Database> OpenFresh() {
  auto db = OpenDatabase(testing::FreshDatabaseUrl());
  REQUIRE_MESSAGE(db.ok(), db.status().ToString());
  return std::move(db).value();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read ", path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Applies the four migrations exactly as the binary before migration files
// did (their scripts kept in tests/store/data/legacy_migrations) and records
// them the way it recorded them.
void ApplyLegacyMigrations(Database& db) {
  const char* names[] = {"init", "capture_regression", "capture_storage", "capture_participants"};
  const std::string dir = std::string(SERVICE_SOURCE_DIR) + "/tests/store/data/legacy_migrations/";
  Status st = db.Write([](Connection& c) {
    return c.ExecScript(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, "
        "applied_at BIGINT NOT NULL)");
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  const std::string dialect = db.dialect() == Dialect::kPostgres ? "postgres" : "sqlite";
  for (int v = 1; v <= 4; ++v) {
    char file[32];
    std::snprintf(file, sizeof(file), "%04d.%s.sql", v, dialect.c_str());
    const std::string sql = ReadFile(dir + file);
    st = db.Write([&](Connection& c) -> Status {
      SV_RETURN_IF_ERROR(c.ExecScript(sql));
      return c
          .Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                {int64_t{v}, std::string(names[v - 1]), int64_t{1'700'000'000'000}})
          .status();
    });
    REQUIRE_MESSAGE(st.ok(), "legacy migration ", v, ": ", st.ToString());
  }
}

// The schema as the backend describes it: tables with their columns and
// indexes with their definitions, sorted.
std::vector<std::string> Schema(Database& db) {
  std::vector<std::string> out;
  Status st = db.Read([&](Connection& c) -> Status {
    const bool pg = c.dialect() == Dialect::kPostgres;
    const char* sql =
        pg ? "SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable "
             "|| "
             "' ' || COALESCE(column_default, '') FROM information_schema.columns WHERE table_schema = "
             "current_schema() UNION ALL SELECT 'index ' || replace(indexdef, current_schema() || '.', '') "
             "FROM pg_indexes WHERE schemaname = "
             "current_schema() UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || "
             "pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = "
             "current_schema()::regnamespace "
             "ORDER BY 1"
           : "SELECT type || ' ' || name || ' ' || COALESCE(sql, '') FROM sqlite_master "
             "WHERE name NOT LIKE 'sqlite_%' ORDER BY 1";
    SV_ASSIGN_OR_RETURN(Rows rows, c.Query(sql));
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string line = rows.Str(i, 0);
      // The runner's bookkeeping table is created the same way by both.
      out.push_back(line);
    }
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return out;
}

int64_t QueryInt(Database& db, const std::string& sql, const std::vector<Value>& params = {}) {
  int64_t n = -1;
  Status st = db.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(Rows rows, c.Query(sql, params));
    n = rows.Int(0, 0);
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return n;
}

std::string Joined(const std::vector<std::string>& rows) {
  std::string out;
  for (const std::string& r : rows) out += r + "\n";
  return out;
}

// The rows of `sql`, each as "a|b|...|" (NULL for null).
std::vector<std::string> QueryRows(Database& db, const std::string& sql) {
  std::vector<std::string> out;
  Status st = db.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(Rows rows, c.Query(sql, {}));
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string row;
      for (size_t k = 0; k < rows.columns.size(); ++k)
        row += (rows.IsNull(i, k) ? "NULL" : rows.Str(i, k)) + "|";
      out.push_back(row);
    }
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return out;
}

}  // namespace

TEST_CASE("migration files: areas, one name is one migration, dialect pairs and the declared order") {
  std::vector<MigrationFile> files = {
      {"capture/0002_capture_more.sqlite.sql", "-- migration: more\n-- after: projects\nSELECT 2;"},
      {"projects/0001_projects.sql", "-- migration: init\n-- after: accounts\nSELECT 12;"},
      {"0001_platform.sql", "-- migration: init\nSELECT 10;"},
      {"accounts/0001_accounts.sql", "-- migration: init\nSELECT 11;"},
      {"capture/0002_capture_more.postgres.sql", "-- migration: more\nSELECT 22;"},
      {"triage/0003_triage_notes.sql", "-- after: capture\nSELECT 3;"},
      // Two areas may take one number: the declared order decides.
      {"triage/0004_triage_late.sql", "-- migration: triage_late\nSELECT 42;"},
      {"capture/0004_capture_late.sql", "-- migration: capture_late\nSELECT 41;"},
  };
  auto built = BuildMigrations(files);
  REQUIRE_MESSAGE(built.ok(), built.status().ToString());
  REQUIRE(built->size() == 5);
  const Migration& init = (*built)[0];
  CHECK(init.version == 1);
  CHECK(init.number == 1);
  CHECK(init.name == "init");
  CHECK(init.areas == std::vector<std::string>{"platform", "accounts", "projects"});
  // The files of one migration run in the areas' order, whatever order they came in.
  CHECK(init.sql.find("SELECT 10;") < init.sql.find("SELECT 11;"));
  CHECK(init.sql.find("SELECT 11;") < init.sql.find("SELECT 12;"));
  CHECK(init.sql == init.postgres_sql);
  const Migration& more = (*built)[1];
  CHECK(more.version == 2);
  CHECK(more.name == "more");
  CHECK(more.sql.find("SELECT 2;") != std::string::npos);
  CHECK(more.sql.find("SELECT 22;") == std::string::npos);
  CHECK(more.postgres_sql.find("SELECT 22;") != std::string::npos);
  CHECK(more.postgres_sql.find("SELECT 2;") == std::string::npos);
  // Without a declared name, the file's name names it.
  CHECK((*built)[2].name == "triage_notes");
  // Number 4 in both areas: capture first, because triage comes after it.
  CHECK((*built)[3].name == "capture_late");
  CHECK((*built)[4].name == "triage_late");
  CHECK((*built)[4].version == 5);

  struct Bad {
    std::vector<MigrationFile> files;
    const char* names;  // what the message must name
  };
  const Bad bad[] = {
      {{{"capture/0004_capture_x.sqlite.sql", "SELECT 1;"}}, "capture/0004_capture_x.sqlite.sql"},
      {{{"capture/0005_capture_y.postgres.sql", "SELECT 1;"}}, "capture/0005_capture_y.postgres.sql"},
      {{{"capture/0000_zero.sql", "SELECT 1;"}}, "capture/0000_zero.sql"},
      {{{"capture/capture.sql", "SELECT 1;"}}, "capture/capture.sql"},
      {{{"capture/0006_Capture-Z.sql", "SELECT 1;"}}, "capture/0006_Capture-Z.sql"},
      {{{"capture/0007_notes.txt.sql", "SELECT 1;"}}, "capture/0007_notes.txt.sql"},
      {{{"Capture/0008_capture_a.sql", "SELECT 1;"}}, "Capture/0008_capture_a.sql"},
      {{{"capture/0009_capture_b.sql", "-- after: nowhere\nSELECT 1;"}}, "nowhere"},
      {{{"capture/0010_capture_c.sql", "-- after: capture\nSELECT 1;"}}, "capture/0010_capture_c.sql"},
      {{{"capture/0011_capture_d.sql", "-- migration: twice\nSELECT 1;"},
        {"capture/0012_capture_e.sql", "-- migration: twice\nSELECT 1;"}},
       "twice"},
      {{{"capture/0013_capture_f.sql", "-- after: triage\nSELECT 1;"},
        {"triage/0013_triage_g.sql", "-- after: capture\nSELECT 1;"}},
       "capture, triage"},
  };
  for (const Bad& b : bad) {
    auto r = BuildMigrations(b.files);
    CHECK_FALSE(r.ok());
    CHECK_MESSAGE(r.status().message().find(b.names) != std::string::npos, r.status().message());
  }
}

// The migrations release 0019 recorded, in its order: a fresh database
// records the same names under the same versions.
const char* const kRelease0019[] = {"init",
                                    "capture_regression",
                                    "capture_storage",
                                    "capture_participants",
                                    "triage_reads",
                                    "export_order",
                                    "bug_search",
                                    "grouping_v3",
                                    "search_vocab",
                                    "read_aggregates",
                                    "triage_writes",
                                    "sentry",
                                    "capture_delivery_ids",
                                    "integrations",
                                    "search_text",
                                    "group_reach",
                                    "group_reach_triggers",
                                    "capture_end_user_keys",
                                    "accounts_sign_ins"};

TEST_CASE("the embedded migration files build: the init has one file per area, the release's order holds") {
  auto built = BuildMigrations(EmbeddedMigrationFiles());
  REQUIRE_MESSAGE(built.ok(), built.status().ToString());
  REQUIRE(built->size() >= std::size(kRelease0019));
  CHECK((*built)[0].areas ==
        std::vector<std::string>{"platform", "accounts", "projects", "capture", "triage"});
  for (size_t i = 0; i < std::size(kRelease0019); ++i) {
    CHECK((*built)[i].name == kRelease0019[i]);
    CHECK((*built)[i].version == static_cast<int>(i + 1));
  }
  CHECK(AllMigrations().size() == built->size());
}

TEST_CASE("a database made by release 0019 (one global migration list) upgrades unchanged") {
  auto old = OpenFresh();
  const std::string dialect = old->dialect() == Dialect::kPostgres ? "postgres" : "sqlite";
  const std::string dump =
      ReadFile(std::string(SERVICE_SOURCE_DIR) + "/tests/store/data/release_0019." + dialect + ".sql");
  Status st = old->Write([&](Connection& c) { return c.ExecScript(dump); });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  const char* const kRows = "SELECT version, name, applied_at FROM schema_migrations ORDER BY version";
  const std::vector<std::string> recorded = QueryRows(*old, kRows);
  REQUIRE(recorded.size() == std::size(kRelease0019));

  REQUIRE(ApplyMigrations(*old).ok());
  // What the release applied is neither applied again nor renumbered; what
  // came after it is recorded after it.
  const std::vector<std::string> after = QueryRows(*old, kRows);
  REQUIRE(after.size() == AllMigrations().size());
  for (size_t i = 0; i < recorded.size(); ++i) CHECK(after[i] == recorded[i]);
  auto state = ReadMigrationState(*old);
  REQUIRE(state.ok());
  CHECK(state->applied == state->known);

  auto fresh = OpenFresh();
  REQUIRE(ApplyMigrations(*fresh).ok());
  const std::vector<std::string> a = Schema(*old);
  const std::vector<std::string> b = Schema(*fresh);
  CHECK(a.size() == b.size());
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) {
      FAIL_CHECK("schema differs:\n  upgraded: ", a[i], "\n  fresh:    ", b[i]);
      break;
    }
  }
  // The fresh database records the release's migrations under the same versions.
  const std::vector<std::string> fresh_rows = QueryRows(*fresh,
                                                        "SELECT version, name FROM schema_migrations "
                                                        "ORDER BY version");
  for (size_t i = 0; i < std::size(kRelease0019) && i < fresh_rows.size(); ++i)
    CHECK(fresh_rows[i] == std::to_string(i + 1) + "|" + kRelease0019[i] + "|");
  old->Close();
  fresh->Close();
}

TEST_CASE("a database of the binary before migration files, upgraded, has the schema of a fresh one") {
  auto legacy = OpenFresh();
  ApplyLegacyMigrations(*legacy);
  REQUIRE(ApplyMigrations(*legacy).ok());
  auto fresh = OpenFresh();
  REQUIRE(ApplyMigrations(*fresh).ok());
  std::vector<std::string> a = Schema(*legacy);
  std::vector<std::string> b = Schema(*fresh);
  CHECK(a.size() == b.size());
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) {
      FAIL_CHECK("schema differs:\n  upgraded: ", a[i], "\n  fresh:    ", b[i]);
      break;
    }
  }
  legacy->Close();
  fresh->Close();
}

TEST_CASE("a database created by the binary before migration files upgrades and keeps its rows") {
  auto db = OpenFresh();
  ApplyLegacyMigrations(*db);
  const int64_t now = 1'700'000'000'000;
  Status st = db->Write([&](Connection& c) -> Status {
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO organizations (id, name, slug, plan, created_at, updated_at) VALUES "
               "('o-1', 'Old Org', 'old-org', 'pro', ?, ?)",
               {now, now})
            .status());
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO users (id, email, name, password_hash, email_verified, status, "
               "session_revision, created_at, updated_at) VALUES ('u-1', 'old@example.com', 'Old', "
               "'x', 1, 'active', 1, ?, ?)",
               {now, now})
            .status());
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO memberships (org_id, user_id, role, created_at, updated_at) VALUES "
               "('o-1', 'u-1', 'admin', ?, ?)",
               {now, now})
            .status());
    SV_RETURN_IF_ERROR(c.Exec("INSERT INTO projects (id, org_id, name, slug, platform, created_at) "
                              "VALUES ('p-1', 'o-1', 'Web', 'web', 'web', ?)",
                              {now})
                           .status());
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO capture_keys (id, org_id, project_id, env, prefix, key_hash, label, "
               "created_at) VALUES ('k-1', 'o-1', 'p-1', 'live', 'sv_live_', 'hash-1', 'old', ?)",
               {now})
            .status());
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO bugs (id, org_id, project_id, key_env, fingerprint, title, severity, "
               "first_seen, last_seen, created_at, updated_at) VALUES ('b-1', 'o-1', 'p-1', 'live', "
               "'fp-1', 'Old bug', 'high', ?, ?, ?, ?)",
               {now, now, now, now})
            .status());
    return c
        .Exec(
            "INSERT INTO occurrences (id, bug_id, org_id, project_id, user_key, user_kind, platform, "
            "occurred_at, created_at) VALUES ('oc-1', 'b-1', 'o-1', 'p-1', 'anon:1', 'anonymous', 'ios', ?, "
            "?)",
            {now, now})
        .status();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());

  Status migrated = ApplyMigrations(*db);
  REQUIRE_MESSAGE(migrated.ok(), migrated.ToString());
  auto state = ReadMigrationState(*db);
  REQUIRE(state.ok());
  CHECK(state->applied == static_cast<int64_t>(AllMigrations().size()));
  CHECK(state->latest_applied == AllMigrations().back().version);
  // The legacy rows of schema_migrations are kept as they were.
  CHECK(QueryInt(*db, "SELECT COUNT(*) FROM schema_migrations WHERE version <= 4 AND applied_at = ?",
                 {now}) == 4);

  // The old rows read back through today's repositories.
  auto orgs = NewSqlOrgRepository();
  auto users = NewSqlUserRepository();
  auto projects = NewSqlProjectRepository();
  auto keys = NewSqlCaptureKeyRepository();
  st = db->Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto org, orgs->Find(c, "o-1"));
    CHECK(org.has_value());
    if (org) CHECK(org->plan == "pro");
    SV_ASSIGN_OR_RETURN(auto user, users->FindByEmail(c, "old@example.com"));
    CHECK(user.has_value());
    SV_ASSIGN_OR_RETURN(auto list, projects->List(c, "o-1"));
    CHECK(list.size() == 1);
    if (!list.empty()) CHECK(list[0].bug_count == 1);
    SV_ASSIGN_OR_RETURN(auto key, keys->FindByHash(c, "hash-1"));
    CHECK(key.has_value());
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  CHECK(QueryInt(*db, "SELECT COUNT(*) FROM occurrences WHERE bug_id = 'b-1'") == 1);
  // Migration 0016 took the bug's platforms from its occurrences (ios = 2).
  CHECK(QueryInt(*db, "SELECT platforms FROM bugs WHERE id = 'b-1'") == 2);
  db->Close();
}

TEST_CASE(
    "a database with prefixed end-user keys (before migration 18) keeps its users under their own ids") {
  auto db = OpenFresh();
  REQUIRE(ApplyMigrations(*db, 17).ok());
  auto bugs = NewSqlCaptureBugRepository();
  auto end_users = NewSqlEndUserRepository();
  const int64_t t0 = 1'700'000'000'000;
  // Two bugs of one group; keys as the binary before wrote them. Ann sent
  // her id (an email address) in one report and only her email in others:
  // one end user once the prefixes are gone.
  Status st = db->Write([&](Connection& c) -> Status {
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO organizations (id, name, slug, plan, created_at, updated_at) VALUES "
               "('o-1', 'Org', 'org', 'free', ?, ?)",
               {t0, t0})
            .status());
    SV_RETURN_IF_ERROR(c.Exec("INSERT INTO projects (id, org_id, name, slug, platform, created_at) "
                              "VALUES ('p-1', 'o-1', 'Web', 'web', 'web', ?)",
                              {t0})
                           .status());
    for (const char* id : {"b-1", "b-2"}) {
      ports::BugReportWrite w;
      w.org_id = "o-1";
      w.project_id = "p-1";
      w.key_env = "live";
      w.fingerprint = std::string("fp-") + id;
      w.signature_hash = "g-1";
      w.new_bug_id = id;
      w.occurrence_id = std::string("oc-") + id;
      w.title = "Checkout fails";
      w.severity = "high";
      w.platform = "web";
      w.signal_class = "issue";
      w.signal_family = "crash";
      w.seen_at = t0;
      SV_RETURN_IF_ERROR(bugs->Create(c, w).status());
    }
    SV_RETURN_IF_ERROR(
        bugs->AddParticipants(c, {{"b-1", "user:ann@example.com", "s1", std::nullopt, t0 + 1},
                                  {"b-1", "email:ann@example.com", "s2", std::nullopt, t0 + 2},
                                  {"b-1", "anon:0123456789abcdef", "s3", std::nullopt, t0 + 3},
                                  {"b-2", "user:cust-42", "s4", std::nullopt, t0 + 4},
                                  {"b-2", "email:ann@example.com", "s5", std::nullopt, t0 + 5}}));
    SV_RETURN_IF_ERROR(end_users->Touch(
        c, {{"o-1", "user:ann@example.com", "user", "ann@example.com", std::nullopt, "web", "1.0", "prod",
             "oc-1", t0 + 1},
            {"o-1", "email:ann@example.com", "email", std::nullopt, "ann@example.com", "ios", "2.0", "prod",
             "oc-2", t0 + 2},
            {"o-1", "email:ann@example.com", "email", std::nullopt, "ann@example.com", "ios", "2.0", "prod",
             "oc-5", t0 + 5},
            {"o-1", "user:cust-42", "user", "cust-42", std::nullopt, "web", "1.0", "prod", "oc-4", t0 + 4},
            {"o-1", "anon:0123456789abcdef", "anonymous", std::nullopt, std::nullopt, "web", std::nullopt,
             std::nullopt, "oc-3", t0 + 3}}));
    const char* occurrences[][4] = {{"oc-1", "b-1", "user:ann@example.com", "user"},
                                    {"oc-2", "b-1", "email:ann@example.com", "email"},
                                    {"oc-3", "b-1", "anon:0123456789abcdef", "anonymous"},
                                    {"oc-4", "b-2", "user:cust-42", "user"},
                                    {"oc-5", "b-2", "email:ann@example.com", "email"}};
    for (const auto& o : occurrences) {
      SV_RETURN_IF_ERROR(
          c.Exec("INSERT INTO occurrences (id, bug_id, org_id, project_id, user_key, user_kind, "
                 "platform, occurred_at, created_at) VALUES (?, ?, 'o-1', 'p-1', ?, ?, 'web', ?, ?)",
                 {std::string(o[0]), std::string(o[1]), std::string(o[2]), std::string(o[3]), t0, t0})
              .status());
    }
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  REQUIRE(QueryInt(*db, "SELECT affected_user_count FROM bugs WHERE id = 'b-1'") == 3);
  REQUIRE(QueryInt(*db, "SELECT users FROM bug_group_reach WHERE group_key = 'g-1'") == 4);

  Status migrated = ApplyMigrations(*db);
  REQUIRE_MESSAGE(migrated.ok(), migrated.ToString());

  CHECK(Joined(QueryRows(*db, "SELECT id, user_key FROM occurrences ORDER BY id")) ==
        Joined(std::vector<std::string>{"oc-1|ann@example.com|", "oc-2|ann@example.com|",
                                        "oc-3|anon:0123456789abcdef|", "oc-4|cust-42|",
                                        "oc-5|ann@example.com|"}));
  // Ann's two rows folded: kind user, counts added, the later row's release
  // and occurrence, both platforms.
  CHECK(Joined(QueryRows(
            *db,
            "SELECT user_key, kind, end_user_id, email, first_seen - 1700000000000, "
            "last_seen - 1700000000000, occurrence_count, platforms, last_release, last_occurrence_id "
            "FROM end_users ORDER BY user_key")) ==
        Joined({"ann@example.com|user|ann@example.com|ann@example.com|1|5|3|[\"web\",\"ios\"]|2.0|oc-5|",
                "anon:0123456789abcdef|anonymous|NULL|NULL|3|3|1|[\"web\"]|NULL|oc-3|",
                "cust-42|user|cust-42|NULL|4|4|1|[\"web\"]|1.0|oc-4|"}));
  CHECK(Joined(QueryRows(
            *db,
            "SELECT bug_id, key, first_seen - 1700000000000, last_seen - 1700000000000, report_count "
            "FROM bug_participants WHERE kind = 'user' ORDER BY bug_id, key")) ==
        Joined(std::vector<std::string>{"b-1|ann@example.com|1|2|2|", "b-1|anon:0123456789abcdef|3|3|1|",
                                        "b-2|ann@example.com|5|5|1|", "b-2|cust-42|4|4|1|"}));
  // The kept distinct-user counts follow the fold.
  CHECK(QueryInt(*db, "SELECT affected_user_count FROM bugs WHERE id = 'b-1'") == 2);
  CHECK(QueryInt(*db, "SELECT affected_user_count FROM bugs WHERE id = 'b-2'") == 2);
  CHECK(QueryInt(*db, "SELECT users FROM bug_group_reach WHERE group_key = 'g-1'") == 3);
  CHECK(QueryInt(*db, "SELECT sessions FROM bug_group_reach WHERE group_key = 'g-1'") == 5);

  // Read back through today's repository by the id the application sent.
  st = db->Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto user, end_users->Find(c, "o-1", "cust-42"));
    CHECK(user.has_value());
    SV_ASSIGN_OR_RETURN(auto gone, end_users->Find(c, "o-1", "user:cust-42"));
    CHECK(!gone.has_value());
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  db->Close();
}

}  // namespace service::store
