// Retention sweeps on both backends (README "Retention"; SERVICE_RETENTION):
// each repository's bounded delete (rows past the period gone, younger and
// unfinished rows kept, at most `limit` rows per statement, the oldest
// first, every organization's rows by the same instance-wide period), and
// SweepInBatches deleting a backlog in batches of the bound, one
// transaction each.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/retention.h"
#include "areas/agent_work/ports/command_log_repository.h"
#include "areas/agent_work/store/repositories.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/presence_repository.h"
#include "areas/capture/store/repositories.h"
#include "areas/evidence/ports/artifact_repository.h"
#include "areas/evidence/store/repositories.h"
#include "areas/integrations/app/integrations.h"
#include "areas/integrations/ports/integration_repository.h"
#include "areas/integrations/store/repositories.h"
#include "ports/outbox_repository.h"
#include "service/clock.h"
#include "store/database.h"
#include "store/repositories.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;
constexpr int64_t kDay = 86'400'000;
constexpr int64_t kNow = 1768471200000;  // 2026-01-15T10:00:00Z

struct Fixture : testing::StoreFixture {
  std::unique_ptr<DatabaseTransactions> txs;

  Fixture() : StoreFixture({kProject}) {
    txs = NewTransactions(*db);
    AddOtherOrganization();
  }

  void Exec(const std::string& sql, const std::vector<Value>& params) {
    Write([&](Connection& tx) { return tx.Exec(sql, params).status(); });
  }

  // Runs one bounded delete in its own transaction; returns how many it deleted.
  int64_t Delete(const std::function<Result<int64_t>(ports::Tx&)>& fn) {
    int64_t n = -1;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(n, fn(tx));
      return Status::Ok();
    });
    return n;
  }

  void Outbox(const std::string& id, const std::string& status, int64_t updated_at) {
    Exec(
        "INSERT INTO outbox (id, kind, payload, status, next_attempt_at, created_at, updated_at) "
        "VALUES (?, 'mail', '{}', ?, ?, ?, ?)",
        {id, status, updated_at, updated_at, updated_at});
  }

  void Integration(const std::string& id, const std::string& org, const std::string& project) {
    Exec(
        "INSERT INTO integrations (id, org_id, project_id, type, config_sealed, config_view, events, "
        "created_at, updated_at) VALUES (?, ?, ?, 'webhook', '', '{}', '[\"new_bug\"]', 0, 0)",
        {id, org, project});
  }

  // A delivery of `event_id` (whose payload row is created with it when new).
  void Delivery(const std::string& id, const std::string& org, const std::string& project,
                const std::string& integration, const std::string& event_id, const std::string& status,
                int64_t created_at, std::optional<int64_t> completed_at) {
    Exec(
        "INSERT INTO delivery_events (event_id, org_id, payload, created_at) VALUES (?, ?, '{}', ?) "
        "ON CONFLICT (event_id) DO NOTHING",
        {event_id, org, created_at});
    Exec(
        "INSERT INTO integration_deliveries (id, org_id, project_id, integration_id, event_id, event_type, "
        "schedule, status, created_at, completed_at, next_attempt_at) "
        "VALUES (?, ?, ?, ?, ?, 'new_bug', 'capture', ?, ?, ?, ?)",
        {id, org, project, integration, event_id, status, created_at,
         completed_at ? Value(*completed_at) : Value(), created_at});
  }

  void DeadLetter(const std::string& id, const std::string& org, const std::string& integration,
                  int64_t created_at) {
    Exec(
        "INSERT INTO delivery_dead_letters (id, delivery_id, org_id, integration_id, event_type, payload, "
        "attempts, created_at) VALUES (?, ?, ?, ?, 'new_bug', '{}', 8, ?)",
        {id, "d-" + id, org, integration, created_at});
  }

  int64_t Count(const std::string& table) { return Int("SELECT COUNT(*) FROM " + table); }
  bool Has(const std::string& table, const std::string& column, const std::string& value) {
    return Int("SELECT COUNT(*) FROM " + table + " WHERE " + column + " = ?", {value}) == 1;
  }
};

TEST_CASE("retention store: SweepInBatches deletes a backlog in transactions of at most the batch size") {
  Fixture f;
  std::unique_ptr<ports::OutboxRepository> outbox = NewSqlOutboxRepository();
  for (int i = 0; i < 7; ++i) f.Outbox("old-" + std::to_string(i), "done", kNow - 10 * kDay + i);
  f.Outbox("young", "done", kNow - kDay);
  std::vector<int64_t> batches;
  Result<int64_t> total =
      app::SweepInBatches(*f.txs, 3, [&](ports::Tx& tx, int64_t limit) -> Result<int64_t> {
        CHECK(limit == 3);
        SV_ASSIGN_OR_RETURN(int64_t n, outbox->DeleteFinished(tx, kNow - 7 * kDay, limit));
        batches.push_back(n);
        return n;
      });
  REQUIRE(total.ok());
  CHECK(*total == 7);
  CHECK(batches == std::vector<int64_t>{3, 3, 1});
  CHECK(f.Count("outbox") == 1);
  CHECK(f.Has("outbox", "id", "young"));

  // A run stops after max_batches; the rest waits for the next run.
  for (int i = 0; i < 5; ++i) f.Outbox("more-" + std::to_string(i), "failed", kNow - 10 * kDay + i);
  total = app::SweepInBatches(
      *f.txs, 2,
      [&](ports::Tx& tx, int64_t limit) { return outbox->DeleteFinished(tx, kNow - 7 * kDay, limit); },
      /*max_batches=*/1);
  REQUIRE(total.ok());
  CHECK(*total == 2);
  CHECK(f.Count("outbox") == 4);
}

TEST_CASE("retention store: outbox work done or failed is deleted after the period, pending never") {
  Fixture f;
  std::unique_ptr<ports::OutboxRepository> outbox = NewSqlOutboxRepository();
  const int64_t before = kNow - 7 * kDay;
  f.Outbox("done-oldest", "done", before - 300);
  f.Outbox("failed-old", "failed", before - 200);
  f.Outbox("done-old", "done", before - 100);
  f.Outbox("pending-old", "pending", before - 1000);
  f.Outbox("done-young", "done", before);  // exactly at the cutoff: kept
  // The bound: two rows per statement, the oldest first.
  CHECK(f.Delete([&](ports::Tx& tx) { return outbox->DeleteFinished(tx, before, 2); }) == 2);
  CHECK_FALSE(f.Has("outbox", "id", "done-oldest"));
  CHECK_FALSE(f.Has("outbox", "id", "failed-old"));
  CHECK(f.Has("outbox", "id", "done-old"));
  CHECK(f.Delete([&](ports::Tx& tx) { return outbox->DeleteFinished(tx, before, 2); }) == 1);
  CHECK(f.Delete([&](ports::Tx& tx) { return outbox->DeleteFinished(tx, before, 2); }) == 0);
  CHECK(f.Has("outbox", "id", "pending-old"));
  CHECK(f.Has("outbox", "id", "done-young"));
  CHECK(f.Count("outbox") == 2);
}

TEST_CASE(
    "retention store: finished deliveries, dead letters and unused event payloads after their periods") {
  Fixture f;
  std::unique_ptr<ports::IntegrationRepository> repo = NewSqlIntegrationRepository();
  f.Integration("i-1", kOrg, kProject);
  f.Integration("i-2", kOtherOrg, kOtherProject);
  const int64_t before = kNow - 30 * kDay;
  // Finished before the cutoff (both organizations: the period is the instance's).
  f.Delivery("old-success", kOrg, kProject, "i-1", "e-1", "success", before - 900, before - 500);
  f.Delivery("old-failed", kOtherOrg, kOtherProject, "i-2", "e-2", "failed", before - 800, before - 400);
  f.Delivery("old-canceled", kOrg, kProject, "i-1", "e-3", "canceled", before - 700, before - 300);
  // Created long ago but finished after the cutoff, or not finished at all.
  f.Delivery("late-finish", kOrg, kProject, "i-1", "e-4", "success", before - 900, before + 1);
  f.Delivery("old-pending", kOrg, kProject, "i-1", "e-5", "pending", before - 900, std::nullopt);
  f.Delivery("old-deferred", kOtherOrg, kOtherProject, "i-2", "e-6", "deferred", before - 900, std::nullopt);
  // e-1 is also named by a young delivery: its payload stays.
  f.Delivery("young-success", kOrg, kProject, "i-1", "e-1", "success", before + 10, before + 20);

  CHECK(f.Delete([&](ports::Tx& tx) { return repo->DeleteFinishedDeliveries(tx, before, 2); }) == 2);
  CHECK_FALSE(f.Has("integration_deliveries", "id", "old-success"));
  CHECK_FALSE(f.Has("integration_deliveries", "id", "old-failed"));
  CHECK(f.Has("integration_deliveries", "id", "old-canceled"));
  CHECK(f.Delete([&](ports::Tx& tx) { return repo->DeleteFinishedDeliveries(tx, before, 2); }) == 1);
  CHECK(f.Delete([&](ports::Tx& tx) { return repo->DeleteFinishedDeliveries(tx, before, 2); }) == 0);
  for (const char* kept : {"late-finish", "old-pending", "old-deferred", "young-success"}) {
    CHECK(f.Has("integration_deliveries", "id", kept));
  }

  // Payloads: e-2 and e-3 are named by no delivery any more; e-1 still is.
  CHECK(f.Delete([&](ports::Tx& tx) { return repo->DeleteUnusedEvents(tx, before, 1); }) == 1);
  CHECK(f.Delete([&](ports::Tx& tx) { return repo->DeleteUnusedEvents(tx, before, 10); }) == 1);
  CHECK_FALSE(f.Has("delivery_events", "event_id", "e-2"));
  CHECK_FALSE(f.Has("delivery_events", "event_id", "e-3"));
  for (const char* kept : {"e-1", "e-4", "e-5", "e-6"}) CHECK(f.Has("delivery_events", "event_id", kept));

  const int64_t dead_before = kNow - 90 * kDay;
  f.DeadLetter("dl-old-1", kOrg, "i-1", dead_before - 30);
  f.DeadLetter("dl-old-2", kOtherOrg, "i-2", dead_before - 20);
  f.DeadLetter("dl-old-3", kOrg, "i-1", dead_before - 10);
  f.DeadLetter("dl-young", kOtherOrg, "i-2", dead_before);
  CHECK(f.Delete([&](ports::Tx& tx) { return repo->DeleteDeadLetters(tx, dead_before, 2); }) == 2);
  CHECK(f.Has("delivery_dead_letters", "id", "dl-old-3"));
  CHECK(f.Delete([&](ports::Tx& tx) { return repo->DeleteDeadLetters(tx, dead_before, 2); }) == 1);
  CHECK(f.Count("delivery_dead_letters") == 1);
  CHECK(f.Has("delivery_dead_letters", "id", "dl-young"));
}

TEST_CASE("retention store: the integrations sweep follows the configured periods in bounded batches") {
  Fixture f;
  std::unique_ptr<ports::IntegrationRepository> repo = NewSqlIntegrationRepository();
  ManualClock clock(kNow);
  app::integrations::IntegrationsDeps deps;
  deps.db = f.txs.get();
  deps.clock = &clock;
  deps.integrations = repo.get();
  deps.retention.deliveries_ms = 2 * kDay;
  deps.retention.dead_letters_ms = 5 * kDay;
  f.Integration("i-1", kOrg, kProject);
  f.Integration("i-2", kOtherOrg, kOtherProject);
  for (int i = 0; i < 5; ++i) {
    const std::string n = std::to_string(i);
    f.Delivery("d-" + n, i % 2 ? kOrg : kOtherOrg, i % 2 ? kProject : kOtherProject, i % 2 ? "i-1" : "i-2",
               "e-" + n, "success", kNow - 3 * kDay, kNow - 3 * kDay + i);
    f.DeadLetter("dl-" + n, kOrg, "i-1", kNow - 6 * kDay + i);
  }
  f.Delivery("d-young", kOrg, kProject, "i-1", "e-young", "success", kNow - kDay, kNow - kDay);
  f.DeadLetter("dl-young", kOrg, "i-1", kNow - 4 * kDay);

  Result<app::integrations::RetentionSwept> swept = app::integrations::SweepRetention(deps, /*batch_rows=*/2);
  REQUIRE(swept.ok());
  CHECK(swept->deliveries == 5);
  CHECK(swept->dead_letters == 5);
  CHECK(swept->events == 5);
  CHECK(f.Count("integration_deliveries") == 1);
  CHECK(f.Has("integration_deliveries", "id", "d-young"));
  CHECK(f.Count("delivery_dead_letters") == 1);
  CHECK(f.Count("delivery_events") == 1);

  // Two days later the young rows are past the period too.
  clock.Advance(4 * kDay);
  swept = app::integrations::SweepRetention(deps, 2);
  REQUIRE(swept.ok());
  CHECK(f.Count("integration_deliveries") == 0);
  CHECK(f.Count("delivery_dead_letters") == 0);
  CHECK(f.Count("delivery_events") == 0);
}

TEST_CASE("retention store: presence rows, Sentry event ids and command answers in bounded deletes") {
  Fixture f;
  std::unique_ptr<ports::PresenceRepository> presence = NewSqlPresenceRepository();
  std::unique_ptr<ports::CaptureBugRepository> bugs = NewSqlCaptureBugRepository();
  std::unique_ptr<ports::CommandLogRepository> commands = NewSqlCommandLogRepository();
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    f.Exec("INSERT INTO presence (project_id, session_id, org_id, last_seen) VALUES (?, ?, ?, ?)",
           {i % 2 ? kProject : kOtherProject, "s-" + n, i % 2 ? kOrg : kOtherOrg, int64_t{100 + i}});
    f.Exec("INSERT INTO capture_delivery_ids (project_id, delivery_id, created_at) VALUES (?, ?, ?)",
           {i % 2 ? kProject : kOtherProject, "ev-" + n, int64_t{100 + i}});
    f.Exec(
        "INSERT INTO agent_commands (org_id, command_id, kind, fingerprint, token_id, status, answer, "
        "created_at) VALUES (?, ?, 'claim', 'fp', 't', 201, '{}', ?)",
        {i % 2 ? kOrg : kOtherOrg, "c-" + n, int64_t{100 + i}});
  }
  f.Exec("INSERT INTO presence (project_id, session_id, org_id, last_seen) VALUES (?, 's-young', ?, 500)",
         {kProject, kOrg});
  f.Exec("INSERT INTO capture_delivery_ids (project_id, delivery_id, created_at) VALUES (?, 'ev-young', 500)",
         {kProject});
  f.Exec(
      "INSERT INTO agent_commands (org_id, command_id, kind, fingerprint, token_id, status, answer, "
      "created_at) VALUES (?, 'c-young', 'claim', 'fp', 't', 201, '{}', 500)",
      {kOrg});

  CHECK(f.Delete([&](ports::Tx& tx) { return presence->DeleteOlderThan(tx, 500, 2); }) == 2);
  CHECK(f.Has("presence", "session_id", "s-2"));  // the youngest of the old ones waits
  CHECK(f.Delete([&](ports::Tx& tx) { return presence->DeleteOlderThan(tx, 500, 2); }) == 1);
  CHECK(f.Count("presence") == 1);
  CHECK(f.Has("presence", "session_id", "s-young"));

  CHECK(f.Delete([&](ports::Tx& tx) { return bugs->ForgetDeliveries(tx, 500, 2); }) == 2);
  CHECK(f.Has("capture_delivery_ids", "delivery_id", "ev-2"));
  CHECK(f.Delete([&](ports::Tx& tx) { return bugs->ForgetDeliveries(tx, 500, 2); }) == 1);
  CHECK(f.Count("capture_delivery_ids") == 1);
  CHECK(f.Has("capture_delivery_ids", "delivery_id", "ev-young"));

  CHECK(f.Delete([&](ports::Tx& tx) { return commands->Prune(tx, 500, 2); }) == 2);
  CHECK(f.Has("agent_commands", "command_id", "c-2"));
  CHECK(f.Delete([&](ports::Tx& tx) { return commands->Prune(tx, 500, 2); }) == 1);
  CHECK(f.Count("agent_commands") == 1);
  CHECK(f.Has("agent_commands", "command_id", "c-young"));
}

TEST_CASE("retention store: expired and deleted evidence rows after the period, live ones never") {
  Fixture f;
  std::unique_ptr<ports::ArtifactRepository> artifacts = NewSqlArtifactRepository();
  auto artifact = [&](const std::string& id, const std::string& org, const std::string& project,
                      const std::string& state, int64_t updated_at) {
    f.Exec(
        "INSERT INTO evidence_artifacts (id, org_id, project_id, kind, content_type, byte_count, sha256, "
        "storage_key, state, uploader_id, created_at, updated_at, expires_at) "
        "VALUES (?, ?, ?, 'log', 'text/plain', 1, 'x', ?, ?, 'u', 0, ?, ?)",
        {id, org, project, "key-" + id, state, updated_at, updated_at});
  };
  const int64_t before = kNow - 30 * kDay;
  artifact("expired-oldest", kOrg, kProject, "expired", before - 30);
  artifact("deleted-old", kOtherOrg, kOtherProject, "deleted", before - 20);
  artifact("expired-old", kOrg, kProject, "expired", before - 10);
  artifact("expired-young", kOrg, kProject, "expired", before);
  artifact("ready-old", kOrg, kProject, "ready", before - 100);
  artifact("reserved-old", kOtherOrg, kOtherProject, "reserved", before - 100);
  CHECK(f.Delete([&](ports::Tx& tx) { return artifacts->DeleteSpent(tx, before, 2); }) == 2);
  CHECK(f.Has("evidence_artifacts", "id", "expired-old"));
  CHECK(f.Delete([&](ports::Tx& tx) { return artifacts->DeleteSpent(tx, before, 2); }) == 1);
  CHECK(f.Delete([&](ports::Tx& tx) { return artifacts->DeleteSpent(tx, before, 2); }) == 0);
  for (const char* kept : {"expired-young", "ready-old", "reserved-old"}) {
    CHECK(f.Has("evidence_artifacts", "id", kept));
  }
}

}  // namespace
}  // namespace service::store
