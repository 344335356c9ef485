// Contract tests of the agent-work repositories on both backends, through
// their interfaces (areas/agent_work/ports/): the issue lock and counters,
// claims found by id and by issue, one active claim per issue (the unique
// index), organization scoping, merge records and their chains, the command
// log (duplicates, pruning), the foreign keys (an organization's rows go
// with it), and the lock under concurrent claimers from several threads
// and two database handles (on PostgreSQL, as two server processes hold).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "areas/agent_work/ports/claim_repository.h"
#include "areas/agent_work/ports/command_log_repository.h"
#include "areas/agent_work/store/repositories.h"
#include "store/database.h"
#include "store/migrations.h"
#include "support/store_fixture.h"
#include "support/test_db.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;
constexpr const char* kIssue = "00000000-0000-7000-8000-0000000000b1";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::ClaimRepository> claims = NewSqlClaimRepository();
  std::unique_ptr<ports::CommandLogRepository> commands = NewSqlCommandLogRepository();

  Fixture() : StoreFixture({kProject}) { AddOtherOrganization(); }

  ports::ClaimRow Row(const std::string& issue, int64_t generation, const std::string& status = "active") {
    ports::ClaimRow r;
    r.id = Id();
    r.org_id = kOrg;
    r.project_id = kProject;
    r.issue_id = issue;
    r.generation = generation;
    r.fencing_token = generation;
    r.token_id = "token-1";
    r.user_id = "user-1";
    r.status = status;
    r.ttl_seconds = 300;
    r.expires_at = 1000 + generation;
    r.created_at = r.updated_at = 1000;
    return r;
  }
};

}  // namespace

TEST_CASE("agent work store: the issue lock makes its counter row once and keeps its counters") {
  Fixture f;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::IssueCounters c, f.claims->LockIssue(tx, kOrg, kProject, kIssue, 10));
    CHECK(c.generation == 0);
    CHECK(c.fencing_token == 0);
    return f.claims->SetCounters(tx, kOrg, kIssue, ports::IssueCounters{3, 5});
  });
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::IssueCounters c, f.claims->LockIssue(tx, kOrg, kProject, kIssue, 20));
    CHECK(c.generation == 3);
    CHECK(c.fencing_token == 5);
    return Status::Ok();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM agent_claim_issues") == 1);
  CHECK(f.Int("SELECT locked_at FROM agent_claim_issues") == 20);
  // Another organization cannot lock (or read the counters of) this issue.
  REQUIRE(f.db->Write([&](Connection& tx) {
                return f.claims->LockIssue(tx, kOtherOrg, kOtherProject, kIssue, 30).status();
              })
              .code() == Code::kConflict);
}

TEST_CASE("agent work store: claims by id and by issue, one active per issue, scoped by organization") {
  Fixture f;
  const ports::ClaimRow first = f.Row(kIssue, 1);
  f.Write([&](Connection& tx) { return f.claims->Insert(tx, first); });
  // A second active claim of the issue: the unique index refuses it.
  const Status dup = f.db->Write([&](Connection& tx) { return f.claims->Insert(tx, f.Row(kIssue, 2)); });
  CHECK(dup.code() == Code::kConflict);

  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, f.claims->Find(c, kOrg, first.id));
    REQUIRE(found.has_value());
    CHECK(found->generation == 1);
    CHECK(found->status == "active");
    CHECK_FALSE(found->ended_at.has_value());
    SV_ASSIGN_OR_RETURN(auto other, f.claims->Find(c, kOtherOrg, first.id));
    CHECK_FALSE(other.has_value());
    SV_ASSIGN_OR_RETURN(auto none, f.claims->Latest(c, kOtherOrg, kIssue));
    CHECK_FALSE(none.has_value());
    return Status::Ok();
  });

  // Ended, the issue takes a new active claim; Latest is the highest generation.
  ports::ClaimRow ended = first;
  ended.status = "completed";
  ended.ended_at = 1500;
  ended.receipt_id = "receipt-1";
  ended.updated_at = 1500;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool updated, f.claims->Update(tx, ended));
    CHECK(updated);
    ports::ClaimRow foreign = ended;
    foreign.org_id = kOtherOrg;
    foreign.status = "released";
    SV_ASSIGN_OR_RETURN(bool foreign_updated, f.claims->Update(tx, foreign));
    CHECK_FALSE(foreign_updated);
    return f.claims->Insert(tx, f.Row(kIssue, 2));
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto latest, f.claims->Latest(c, kOrg, kIssue));
    REQUIRE(latest.has_value());
    CHECK(latest->generation == 2);
    SV_ASSIGN_OR_RETURN(auto done, f.claims->Find(c, kOrg, first.id));
    REQUIRE(done.has_value());
    CHECK(done->status == "completed");
    CHECK(done->ended_at == 1500);
    CHECK(done->receipt_id == "receipt-1");
    return Status::Ok();
  });
  // The same generation twice for one issue: refused.
  ports::ClaimRow again = f.Row(kIssue, 2, "released");
  CHECK(f.db->Write([&](Connection& tx) { return f.claims->Insert(tx, again); }).code() == Code::kConflict);
}

TEST_CASE("agent work store: merge records resolve a merged-away issue, chains included") {
  Fixture f;
  const std::string a = "00000000-0000-7000-8000-0000000000c1", b = "00000000-0000-7000-8000-0000000000c2",
                    c = "00000000-0000-7000-8000-0000000000c3";
  f.Write([&](Connection& tx) { return f.claims->RecordMerge(tx, kOrg, kProject, a, b, 1); });
  f.Write([&](Connection& tx) { return f.claims->RecordMerge(tx, kOrg, kProject, b, c, 2); });
  f.Read([&](Connection& conn) -> Status {
    SV_ASSIGN_OR_RETURN(auto ta, f.claims->MergeTarget(conn, kOrg, a));
    SV_ASSIGN_OR_RETURN(auto tb, f.claims->MergeTarget(conn, kOrg, b));
    SV_ASSIGN_OR_RETURN(auto tc, f.claims->MergeTarget(conn, kOrg, c));
    SV_ASSIGN_OR_RETURN(auto foreign, f.claims->MergeTarget(conn, kOtherOrg, a));
    CHECK(ta == c);
    CHECK(tb == c);
    CHECK_FALSE(tc.has_value());
    CHECK_FALSE(foreign.has_value());
    // MergedInto: every issue that now resolves to c (the verification
    // area's observed targets), none for another organization.
    SV_ASSIGN_OR_RETURN(auto into_c, f.claims->MergedInto(conn, kOrg, c));
    SV_ASSIGN_OR_RETURN(auto into_b, f.claims->MergedInto(conn, kOrg, b));
    SV_ASSIGN_OR_RETURN(auto into_foreign, f.claims->MergedInto(conn, kOtherOrg, c));
    CHECK(into_c == std::vector<std::string>{a, b});
    CHECK(into_b.empty());
    CHECK(into_foreign.empty());
    return Status::Ok();
  });
}

TEST_CASE("agent work store: the command log keeps one answer per commandId and prunes old ones") {
  Fixture f;
  ports::CommandRecord r{kOrg, "cmd-1", "claim", "fp-1", "token-1", 201, "{\"claimId\":\"x\"}", 1000};
  f.Write([&](Connection& tx) { return f.commands->Insert(tx, r); });
  CHECK(f.db->Write([&](Connection& tx) { return f.commands->Insert(tx, r); }).code() == Code::kConflict);
  // Another organization may use the same id.
  ports::CommandRecord other = r;
  other.org_id = kOtherOrg;
  other.created_at = 5000;
  f.Write([&](Connection& tx) { return f.commands->Insert(tx, other); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, f.commands->Find(c, kOrg, "cmd-1"));
    REQUIRE(found.has_value());
    CHECK(found->kind == "claim");
    CHECK(found->fingerprint == "fp-1");
    CHECK(found->token_id == "token-1");
    CHECK(found->status == 201);
    CHECK(found->answer_json == "{\"claimId\":\"x\"}");
    CHECK(found->created_at == 1000);
    SV_ASSIGN_OR_RETURN(auto missing, f.commands->Find(c, kOrg, "cmd-2"));
    CHECK_FALSE(missing.has_value());
    return Status::Ok();
  });
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t n, f.commands->Prune(tx, 2000, 100));
    CHECK(n == 1);
    return Status::Ok();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM agent_commands") == 1);
}

TEST_CASE("agent work store: an organization's claims, counters, merges and commands go with it") {
  Fixture f;
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.claims->LockIssue(tx, kOrg, kProject, kIssue, 1).status());
    SV_RETURN_IF_ERROR(f.claims->Insert(tx, f.Row(kIssue, 1)));
    SV_RETURN_IF_ERROR(f.claims->RecordMerge(tx, kOrg, kProject, "src", kIssue, 1));
    return f.commands->Insert(tx, ports::CommandRecord{kOrg, "c", "claim", "f", "t", 201, "{}", 1});
  });
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM organizations WHERE id = ?", {kOrg}).status(); });
  for (const char* table : {"agent_claim_issues", "agent_claims", "agent_issue_merges", "agent_commands"}) {
    CAPTURE(table);
    CHECK(f.Int(std::string("SELECT COUNT(*) FROM ") + table) == 0);
  }
}

TEST_CASE(
    "agent work store: concurrent claimers of one issue on two database handles get one active claim each "
    "turn") {
  const std::string url = testing::FreshDatabaseUrl();
  auto first = OpenDatabase(url);
  REQUIRE_MESSAGE(first.ok(), first.status().ToString());
  std::unique_ptr<Database> db1 = std::move(first).value();
  REQUIRE(ApplyMigrations(*db1).ok());
  std::unique_ptr<Database> db2;
  if (db1->dialect() == Dialect::kPostgres) {
    auto second = OpenDatabase(url);
    REQUIRE_MESSAGE(second.ok(), second.status().ToString());
    db2 = std::move(second).value();
  }
  REQUIRE(db1->Write([](Connection& tx) -> Status {
               SV_RETURN_IF_ERROR(tx.Exec("INSERT INTO organizations (id, name, slug, plan, created_at, "
                                          "updated_at) VALUES (?, 'Org', 'org', 'pro', 1, 1)",
                                          {kOrg})
                                      .status());
               return tx
                   .Exec(
                       "INSERT INTO projects (id, org_id, name, slug, created_at) VALUES (?, ?, 'P', 'p', 1)",
                       {kProject, kOrg})
                   .status();
             })
              .ok());
  std::unique_ptr<ports::ClaimRepository> repo = NewSqlClaimRepository();

  // Each thread claims the issue when no active claim holds it, and ends
  // its own claim afterwards; the lock must hand out generations 1, 2, ...
  // with never two active rows.
  constexpr int kThreads = 8;
  constexpr int kRounds = 25;
  std::atomic<int> granted{0};
  std::atomic<int> failures{0};
  std::atomic<int> next_id{1};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Database& db = (t % 2 == 1 && db2) ? *db2 : *db1;
      for (int i = 0; i < kRounds; ++i) {
        std::optional<std::string> mine;
        const Status s = db.WriteAlone([&](Connection& tx) -> Status {
          mine.reset();
          SV_ASSIGN_OR_RETURN(ports::IssueCounters c, repo->LockIssue(tx, kOrg, kProject, kIssue, 1));
          SV_ASSIGN_OR_RETURN(auto latest, repo->Latest(tx, kOrg, kIssue));
          if (latest && latest->status == "active") return Status::Ok();
          ports::ClaimRow r;
          char id[40];
          std::snprintf(id, sizeof id, "00000000-0000-7000-8000-%012d", next_id++);
          r.id = id;
          r.org_id = kOrg;
          r.project_id = kProject;
          r.issue_id = kIssue;
          r.generation = c.generation + 1;
          r.fencing_token = c.fencing_token + 1;
          r.token_id = "t";
          r.user_id = "u";
          r.status = "active";
          r.ttl_seconds = 60;
          r.expires_at = 1;
          SV_RETURN_IF_ERROR(
              repo->SetCounters(tx, kOrg, kIssue, ports::IssueCounters{r.generation, r.fencing_token}));
          SV_RETURN_IF_ERROR(repo->Insert(tx, r));
          mine = r.id;
          return Status::Ok();
        });
        if (!s.ok()) {
          ++failures;
          continue;
        }
        if (!mine) continue;
        ++granted;
        const Status end = db.WriteAlone([&](Connection& tx) -> Status {
          SV_RETURN_IF_ERROR(repo->LockIssue(tx, kOrg, kProject, kIssue, 2).status());
          SV_ASSIGN_OR_RETURN(auto claim, repo->Find(tx, kOrg, *mine));
          if (!claim) return Internal("claim vanished");
          claim->status = "released";
          SV_ASSIGN_OR_RETURN(bool updated, repo->Update(tx, *claim));
          return updated ? Status::Ok() : Internal("not updated");
        });
        if (!end.ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures.load() == 0);
  CHECK(granted.load() > 0);
  // Generations 1..granted, each once, and the counters agree.
  int64_t rows = 0, max_generation = 0, counter = 0;
  REQUIRE(db1->Read([&](Connection& c) -> Status {
               SV_ASSIGN_OR_RETURN(Rows r,
                                   c.Query("SELECT COUNT(*), MAX(generation), COUNT(DISTINCT generation) "
                                           "FROM agent_claims"));
               rows = r.Int(0, 0);
               max_generation = r.Int(0, 1);
               CHECK(r.Int(0, 2) == rows);
               SV_ASSIGN_OR_RETURN(Rows k, c.Query("SELECT last_generation FROM agent_claim_issues"));
               counter = k.Int(0, 0);
               return Status::Ok();
             })
              .ok());
  CHECK(rows == granted.load());
  CHECK(max_generation == rows);
  CHECK(counter == rows);
  if (db2) db2->Close();
  db1->Close();
}

}  // namespace service::store
