// Contract tests of the tickets repository on both backends, through its
// interface (areas/tickets/ports/ticket_repository.h): board order and
// filters, organization scoping, the position primitives checked against
// the in-memory board of domain/board.h over a random sequence, the board
// lock under concurrent moves (two database handles on PostgreSQL, as two
// server processes would hold), the deletion hooks and the foreign keys
// (a deleted bug or account unlinks, a deleted organization takes its
// tickets).
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/tickets/app/tickets.h"
#include "areas/tickets/domain/board.h"
#include "areas/tickets/ports/ticket_repository.h"
#include "areas/tickets/store/repositories.h"
#include "areas/triage/ports/bug_write_repository.h"
#include "areas/triage/store/repositories.h"
#include "service/clock.h"
#include "store/database.h"
#include "store/migrations.h"
#include "support/store_fixture.h"
#include "support/test_db.h"

namespace service::store {
namespace {

namespace dt = domain::tickets;

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::TicketRepository> tickets = NewSqlTicketRepository();
  int64_t clock = 1000;

  Fixture() : StoreFixture({kProject}) { AddOtherOrganization(); }

  // Appends a ticket the way the use case does: lock, count, insert.
  ports::TicketRow Add(const std::string& title, const std::string& status = "backlog",
                       const std::string& org = kOrg) {
    ports::TicketRow row;
    row.id = Id();
    row.org_id = org;
    row.title = title;
    row.description = "about " + title;
    row.status = status;
    row.created_at = row.updated_at = ++clock;
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(tickets->LockBoard(tx, org));
      SV_ASSIGN_OR_RETURN(row.position, tickets->CountInColumn(tx, org, status));
      return tickets->Insert(tx, row);
    });
    return row;
  }

  std::vector<ports::TicketRow> List(const ports::TicketFilter& f) {
    std::vector<ports::TicketRow> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, tickets->List(c, f));
      return Status::Ok();
    });
    return out;
  }
  std::vector<ports::TicketRow> All(const std::string& org = kOrg) {
    return List(ports::TicketFilter{org, {}, {}});
  }

  std::optional<ports::TicketRow> Find(const std::string& id, const std::string& org = kOrg) {
    std::optional<ports::TicketRow> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, tickets->Find(c, org, id));
      return Status::Ok();
    });
    return out;
  }

  // The board as stored, as the in-memory model.
  dt::Board Stored(const std::string& org = kOrg) {
    dt::Board b;
    for (const auto& t : All(org)) {
      const auto s = dt::StatusIndex(t.status);
      REQUIRE(s.has_value());
      REQUIRE_MESSAGE(t.position == static_cast<int64_t>(b.columns[*s].size()), "positions not dense");
      b.columns[*s].push_back(t.id);
    }
    return b;
  }

  std::string Bug() { return AddBug({.project = kProject}); }

  std::string Person(const std::string& email) {
    ports::User u;
    u.id = Id();
    u.email = email;
    u.name = email;
    u.status = "active";
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(NewSqlUserRepository()->Insert(tx, u));
      return NewSqlMembershipRepository()->Insert(tx,
                                                  ports::Membership{kOrg, u.id, "member", std::nullopt, 1});
    });
    return u.id;
  }
};

std::vector<std::string> Titles(const std::vector<ports::TicketRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.title);
  return out;
}

TEST_CASE("tickets store: list in board order (status order, then position) with filters, per organization") {
  Fixture f;
  f.Add("d1", "done");
  f.Add("b1");
  f.Add("r1", "review");
  f.Add("i1", "in_progress");
  f.Add("b2");
  f.Add("t1", "todo");
  f.Add("other", "backlog", kOtherOrg);
  CHECK(Titles(f.All()) == std::vector<std::string>{"b1", "b2", "t1", "i1", "r1", "d1"});
  CHECK(Titles(f.List({kOrg, std::string("backlog"), {}})) == std::vector<std::string>{"b1", "b2"});
  CHECK(Titles(f.All(kOtherOrg)) == std::vector<std::string>{"other"});
  // Each organization's columns start at 0.
  CHECK(f.All(kOtherOrg)[0].position == 0);
  CHECK(f.All()[1].position == 1);

  const std::string bug = f.Bug();
  auto t = f.All()[2];
  t.bug_id = bug;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool ok, f.tickets->UpdateFields(tx, t));
    return ok ? Status::Ok() : Internal("not updated");
  });
  CHECK(Titles(f.List({kOrg, {}, bug})) == std::vector<std::string>{"t1"});
  CHECK(f.List({kOtherOrg, {}, bug}).empty());
}

TEST_CASE("tickets store: another organization's id finds, changes and deletes nothing") {
  Fixture f;
  const auto mine = f.Add("mine");
  CHECK(f.Find(mine.id).has_value());
  CHECK_FALSE(f.Find(mine.id, kOtherOrg).has_value());
  auto changed = mine;
  changed.org_id = kOtherOrg;
  changed.title = "stolen";
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool u, f.tickets->UpdateFields(tx, changed));
    SV_ASSIGN_OR_RETURN(bool p, f.tickets->Place(tx, kOtherOrg, mine.id, "done", 0, 5));
    SV_ASSIGN_OR_RETURN(bool d, f.tickets->Delete(tx, kOtherOrg, mine.id));
    CHECK_FALSE(u);
    CHECK_FALSE(p);
    CHECK_FALSE(d);
    return Status::Ok();
  });
  const auto after = f.Find(mine.id);
  REQUIRE(after.has_value());
  CHECK(after->title == "mine");
  CHECK(after->status == "backlog");
  CHECK(after->description == "about mine");
  CHECK_FALSE(after->bug_id.has_value());
  CHECK_FALSE(after->assignee_id.has_value());
  CHECK(after->created_at == mine.created_at);
}

TEST_CASE("tickets store: the position primitives follow the board model over a random sequence") {
  Fixture f;
  auto deps = std::make_shared<app::tickets::TicketsDeps>();
  std::unique_ptr<DatabaseTransactions> txs = NewTransactions(*f.db);
  auto clock = std::make_shared<ManualClock>(int64_t{1768471200000});
  struct SeqIds : ports::Ids {
    testing::StoreFixture* f;
    std::string NewId() override { return f->Id(); }
    std::string RandomBytes(size_t n) override { return std::string(n, 'x'); }
    std::string RandomAlnum(size_t n) override { return std::string(n, 'x'); }
  } ids;
  ids.f = &f;
  deps->db = txs.get();
  deps->clock = clock.get();
  deps->ids = &ids;
  deps->tickets = f.tickets.get();
  const app::ConsoleActor actor{"00000000-0000-7000-8000-0000000000aa", "a@example.com", kOrg, "admin"};

  dt::Board model;
  std::mt19937 rng(28);
  std::vector<std::string> live;
  for (int step = 0; step < 300; ++step) {
    const int op = static_cast<int>(rng() % 10);
    if (live.size() < 3 || op < 3) {
      app::tickets::NewTicket in;
      in.title = "t" + std::to_string(step);
      in.status = std::string(dt::kStatuses[rng() % dt::kStatusCount]);
      auto made = app::tickets::CreateTicket(*deps, actor, in);
      REQUIRE_MESSAGE(made.ok(), made.status().ToString());
      CHECK(made->position == model.Append(made->id, *dt::StatusIndex(in.status)));
      live.push_back(made->id);
    } else if (op < 9) {
      const std::string& id = live[rng() % live.size()];
      const size_t status = rng() % dt::kStatusCount;
      const int64_t position = static_cast<int64_t>(rng() % 8);
      auto moved = app::tickets::MoveTicket(*deps, actor, id, std::string(dt::kStatuses[status]), position);
      REQUIRE_MESSAGE(moved.ok(), moved.status().ToString());
      const auto landed = model.Move(id, status, position);
      CHECK(moved->position == landed->position);
      CHECK(moved->status == dt::kStatuses[status]);
    } else {
      const size_t i = rng() % live.size();
      REQUIRE(app::tickets::DeleteTicket(*deps, actor, live[i]).ok());
      model.Remove(live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (step % 25 == 0) REQUIRE(f.Stored().columns == model.columns);
  }
  CHECK(f.Stored().columns == model.columns);
}

TEST_CASE(
    "tickets store: concurrent moves from several threads and two database handles keep columns dense") {
  // Two handles on one PostgreSQL database stand for two server processes;
  // SQLite has one process (and one writer) per file.
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
  REQUIRE(db1->Write([](Connection& tx) {
               return tx
                   .Exec(
                       "INSERT INTO organizations (id, name, slug, plan, created_at, updated_at) VALUES "
                       "(?, 'Org', 'org', 'pro', 1, 1)",
                       {kOrg})
                   .status();
             })
              .ok());

  std::unique_ptr<ports::TicketRepository> repo = NewSqlTicketRepository();
  std::unique_ptr<DatabaseTransactions> tx1 = NewTransactions(*db1);
  std::unique_ptr<DatabaseTransactions> tx2 = db2 ? NewTransactions(*db2) : nullptr;
  auto clock = std::make_shared<ManualClock>(int64_t{1768471200000});
  struct CountingIds : ports::Ids {
    std::atomic<int> next{1000};
    std::string NewId() override {
      char buf[40];
      std::snprintf(buf, sizeof buf, "00000000-0000-7000-8000-%012d", next++);
      return buf;
    }
    std::string RandomBytes(size_t n) override { return std::string(n, 'x'); }
    std::string RandomAlnum(size_t n) override { return std::string(n, 'x'); }
  } ids;
  app::tickets::TicketsDeps d1;
  d1.db = tx1.get();
  d1.clock = clock.get();
  d1.ids = &ids;
  d1.tickets = repo.get();
  app::tickets::TicketsDeps d2 = d1;
  if (tx2) d2.db = tx2.get();
  const app::ConsoleActor actor{"00000000-0000-7000-8000-0000000000aa", "a@example.com", kOrg, "admin"};

  std::vector<std::string> ids_made;
  for (int i = 0; i < 24; ++i) {
    app::tickets::NewTicket in;
    in.title = "t" + std::to_string(i);
    in.status = std::string(dt::kStatuses[static_cast<size_t>(i) % dt::kStatusCount]);
    auto made = app::tickets::CreateTicket(d1, actor, in);
    REQUIRE(made.ok());
    ids_made.push_back(made->id);
  }

  constexpr int kThreads = 8;
  constexpr int kMoves = 40;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(static_cast<unsigned>(t) * 7919u + 1);
      const app::tickets::TicketsDeps& deps = t % 2 == 0 ? d1 : d2;
      for (int i = 0; i < kMoves; ++i) {
        const std::string& id = ids_made[rng() % ids_made.size()];
        const std::string status(dt::kStatuses[rng() % dt::kStatusCount]);
        auto moved = app::tickets::MoveTicket(deps, actor, id, status, static_cast<int64_t>(rng() % 10));
        if (!moved.ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures.load() == 0);

  std::vector<ports::TicketRow> rows;
  REQUIRE(db1->Read([&](Connection& c) -> Status {
               SV_ASSIGN_OR_RETURN(rows, repo->List(c, ports::TicketFilter{kOrg, {}, {}}));
               return Status::Ok();
             })
              .ok());
  CHECK(rows.size() == ids_made.size());
  std::array<int64_t, dt::kStatusCount> next{};
  for (const auto& r : rows) {
    const size_t s = *dt::StatusIndex(r.status);
    CAPTURE(r.status);
    CHECK(r.position == next[s]);  // 0..n-1 per column, no duplicate, no gap
    next[s] = r.position + 1;
  }
  if (db2) db2->Close();
  db1->Close();
}

TEST_CASE("tickets store: deletion hooks and foreign keys") {
  Fixture f;
  const std::string bug = f.Bug();
  const std::string person = f.Person("p@example.com");
  auto a = f.Add("a");
  auto b = f.Add("b");
  a.bug_id = bug;
  a.assignee_id = person;
  b.assignee_id = person;
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.tickets->UpdateFields(tx, a).status());
    return f.tickets->UpdateFields(tx, b).status();
  });
  f.Add("x", "todo", kOtherOrg);

  SUBCASE("a deleted bug leaves its tickets unlinked") {
    f.Write([&](Connection& tx) { return NewSqlBugWriteRepository()->Delete(tx, bug); });
    const auto after = f.Find(a.id);
    REQUIRE(after.has_value());
    CHECK_FALSE(after->bug_id.has_value());
    CHECK(after->assignee_id == person);
  }
  SUBCASE("a removed member's assignments in the organization are cleared") {
    f.Write([&](Connection& tx) { return f.tickets->ClearAssignee(tx, kOrg, person); });
    CHECK_FALSE(f.Find(a.id)->assignee_id.has_value());
    CHECK_FALSE(f.Find(b.id)->assignee_id.has_value());
    CHECK(f.Find(a.id)->bug_id == bug);
  }
  SUBCASE("a deleted account leaves its tickets unassigned") {
    f.Write([&](Connection& tx) { return NewSqlUserRepository()->Delete(tx, person); });
    CHECK_FALSE(f.Find(a.id)->assignee_id.has_value());
  }
  SUBCASE("the organization hook and the organization's deletion take its tickets only") {
    f.Write([&](Connection& tx) { return f.tickets->DeleteOrganizationRows(tx, kOrg); });
    CHECK(f.All().empty());
    CHECK(f.All(kOtherOrg).size() == 1);
    CHECK(f.Int("SELECT COUNT(*) FROM ticket_boards WHERE org_id = ?", {kOrg}) == 0);
    f.Write([&](Connection& tx) { return NewSqlOrgRepository()->Delete(tx, kOtherOrg); });
    CHECK(f.All(kOtherOrg).empty());
  }
}

}  // namespace
}  // namespace service::store
