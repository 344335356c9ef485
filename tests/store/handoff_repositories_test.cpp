// Contract tests of the handoff repositories on both backends, through
// their interfaces (areas/handoff/ports/): agent settings (defaults absent,
// upsert, organization scope), the reuse window's claim (inside and after
// the window, concurrent claimers on one bug: exactly one wins), batches and
// rows in order, the agent state and its mirror in the bug's own columns,
// acks newest first, the listen query (window, cursor, queued only, limit,
// scope) and delivered marks, the savepoint that undoes a failed part of a
// transaction, the MCP listener lookup over the agent tokens' tables, and
// the foreign keys (a deleted bug takes its rows).
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "areas/handoff/ports/agent_listeners.h"
#include "areas/handoff/ports/handoff_repository.h"
#include "areas/handoff/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::HandoffRepository> handoff = NewSqlHandoffRepository();
  std::unique_ptr<ports::AgentListeners> listeners = NewSqlAgentListeners();

  Fixture() : StoreFixture({kProject}) { AddOtherOrganization(); }

  std::string Bug(const std::string& org = kOrg, const std::string& project = kProject,
                  const std::string& title = "A bug", const std::string& severity = "high") {
    return AddBug({.org = org, .project = project, .title = title, .severity = severity});
  }

  ports::NotifyClaim Claim(const std::string& bug, const std::string& batch, int64_t now,
                           const std::string& org = kOrg) {
    ports::NotifyClaim out;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(out, handoff->ClaimNotify(tx, org, kProject, bug, batch, now, 60'000));
      return Status::Ok();
    });
    return out;
  }

  // A batch with `channels` rows (channel "" : null), created at `at`.
  ports::NotifyBatch Batch(const std::string& bug, int64_t at, const std::vector<std::string>& channels,
                           const std::string& status = "queued") {
    ports::NotifyBatch b{Id(), kOrg, kProject, bug, "manual", false, "ada@example.com", at};
    std::vector<ports::AgentNotificationRow> rows;
    for (const std::string& c : channels) {
      ports::AgentNotificationRow r;
      r.id = Id();
      r.batch_id = b.id;
      r.org_id = kOrg;
      r.project_id = kProject;
      r.bug_id = bug;
      r.trigger = "manual";
      if (!c.empty()) r.channel = c;
      r.status = status;
      r.created_at = at;
      rows.push_back(r);
    }
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(handoff->InsertBatch(tx, b));
      return handoff->InsertRows(tx, rows);
    });
    return b;
  }

  std::vector<ports::ListenRow> Listen(const ports::HandoffRepository::ListenQuery& q) {
    std::vector<ports::ListenRow> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, handoff->Listen(c, q));
      return Status::Ok();
    });
    return out;
  }

  // An agent token of `org` created by a fresh active member, with `scopes`
  // (space-separated), expiring at `expires`, granted `project` (grant
  // expiry `grant_expires`, nullopt: the token's).
  std::string Token(const std::string& scopes, int64_t expires, const std::string& project,
                    std::optional<int64_t> grant_expires = std::nullopt,
                    const std::string& user_status = "active", const std::string& org = kOrg) {
    const std::string user = Id();
    const std::string token = Id();
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(tx.Exec("INSERT INTO users (id, email, name, status, created_at, updated_at) "
                                 "VALUES (?, ?, 'Agent owner', ?, 1, 1)",
                                 {user, user + "@example.com", user_status})
                             .status());
      SV_RETURN_IF_ERROR(tx.Exec("INSERT INTO memberships (org_id, user_id, role, created_at, updated_at) "
                                 "VALUES (?, ?, 'admin', 1, 1)",
                                 {org, user})
                             .status());
      SV_RETURN_IF_ERROR(
          tx.Exec("INSERT INTO agent_tokens (id, org_id, created_by, name, prefix, token_hash, "
                  "scopes, expires_at, access_revision, created_at) "
                  "VALUES (?, ?, ?, 'night-shift', 'sv_pat_abcdefgh', ?, ?, ?, 'r1', 1)",
                  {token, org, user, "hash-" + token, scopes, expires})
              .status());
      return tx
          .Exec("INSERT INTO agent_token_grants (token_id, project_id, expires_at) VALUES (?, ?, ?)",
                {token, project, grant_expires ? Value(*grant_expires) : Value(nullptr)})
          .status();
    });
    return token;
  }

  bool HasListener(int64_t now, const std::string& project = kProject, const std::string& org = kOrg) {
    bool out = false;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, listeners->HasListener(c, org, project, now));
      return Status::Ok();
    });
    return out;
  }
};

TEST_CASE("handoff store: agent settings are absent until set, upserted, scoped by organization") {
  Fixture f;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto s, f.handoff->GetSettings(c, kOrg, kProject));
    CHECK_FALSE(s.has_value());
    return Status::Ok();
  });
  f.Write([&](Connection& tx) {
    return f.handoff->PutSettings(tx, ports::AgentSettingsRow{kProject, kOrg, true, "medium", 10, "u1"});
  });
  f.Write([&](Connection& tx) {
    return f.handoff->PutSettings(tx, ports::AgentSettingsRow{kProject, kOrg, false, "critical", 20, "u2"});
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto s, f.handoff->GetSettings(c, kOrg, kProject));
    REQUIRE(s.has_value());
    CHECK_FALSE(s->auto_notify);
    CHECK(s->min_severity == "critical");
    CHECK(s->updated_at == 20);
    CHECK(s->updated_by == "u2");
    SV_ASSIGN_OR_RETURN(auto other, f.handoff->GetSettings(c, kOtherOrg, kProject));
    CHECK_FALSE(other.has_value());
    return Status::Ok();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM agent_settings") == 1);
}

TEST_CASE("handoff store: the reuse window claims once per 60 s, another organization's bug claims nothing") {
  Fixture f;
  const std::string bug = f.Bug();
  const ports::NotifyClaim first = f.Claim(bug, "00000000-0000-7000-8000-00000000b001", 100'000);
  CHECK(first.claimed);
  const ports::NotifyClaim inside = f.Claim(bug, "00000000-0000-7000-8000-00000000b002", 159'999);
  CHECK_FALSE(inside.claimed);
  CHECK(inside.earlier_batch_id == "00000000-0000-7000-8000-00000000b001");
  const ports::NotifyClaim after = f.Claim(bug, "00000000-0000-7000-8000-00000000b003", 160'000);
  CHECK(after.claimed);
  CHECK(f.Text("SELECT last_batch_id FROM bug_agent_state WHERE bug_id = ?", {bug}) ==
        "00000000-0000-7000-8000-00000000b003");
  // Named under another organization, the bug's state is not touched.
  const ports::NotifyClaim foreign = f.Claim(bug, "00000000-0000-7000-8000-00000000b004", 500'000, kOtherOrg);
  CHECK_FALSE(foreign.claimed);
  CHECK(foreign.earlier_batch_id.empty());
}

TEST_CASE("handoff store: concurrent claimers of one bug: exactly one claims") {
  Fixture f;
  const std::string bug = f.Bug();
  std::atomic<int> claimed{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&, i] {
      const std::string batch = "00000000-0000-7000-8000-0000000c000" + std::to_string(i);
      Status s = f.db->Write([&](Connection& tx) -> Status {
        SV_ASSIGN_OR_RETURN(ports::NotifyClaim c,
                            f.handoff->ClaimNotify(tx, kOrg, kProject, bug, batch, 1000, 60'000));
        if (c.claimed) ++claimed;
        return Status::Ok();
      });
      if (!s.ok()) ++failed;
    });
  }
  for (auto& t : threads) t.join();
  CHECK(failed == 0);
  CHECK(claimed == 1);
}

TEST_CASE("handoff store: batches newest first, rows in creation order, scoped by organization") {
  Fixture f;
  const std::string bug = f.Bug();
  const ports::NotifyBatch older = f.Batch(bug, 1000, {"agent", "mcp"});
  const ports::NotifyBatch newer = f.Batch(bug, 2000, {""}, "no_channel");
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto batches, f.handoff->Batches(c, kOrg, bug, 10));
    REQUIRE(batches.size() == 2);
    CHECK(batches[0].id == newer.id);
    CHECK(batches[1].id == older.id);
    CHECK(batches[1].actor == "ada@example.com");
    SV_ASSIGN_OR_RETURN(auto limited, f.handoff->Batches(c, kOrg, bug, 1));
    CHECK(limited.size() == 1);
    SV_ASSIGN_OR_RETURN(auto rows, f.handoff->BatchRows(c, kOrg, older.id));
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].channel == std::optional<std::string>("agent"));
    CHECK(rows[1].channel == std::optional<std::string>("mcp"));
    SV_ASSIGN_OR_RETURN(auto none, f.handoff->BatchRows(c, kOtherOrg, older.id));
    CHECK(none.empty());
    SV_ASSIGN_OR_RETURN(auto got, f.handoff->GetBatch(c, kOrg, newer.id));
    REQUIRE(got.has_value());
    CHECK(got->trigger == "manual");
    SV_ASSIGN_OR_RETURN(auto foreign, f.handoff->GetBatch(c, kOtherOrg, newer.id));
    CHECK_FALSE(foreign.has_value());
    SV_ASSIGN_OR_RETURN(auto rows2, f.handoff->BatchRows(c, kOrg, newer.id));
    REQUIRE(rows2.size() == 1);
    CHECK_FALSE(rows2[0].channel.has_value());
    CHECK(rows2[0].status == "no_channel");
    return Status::Ok();
  });
}

TEST_CASE(
    "handoff store: the agent state is written with its mirror in the bug's columns, acks newest first") {
  Fixture f;
  const std::string bug = f.Bug();
  ports::AgentState s;
  s.bug_id = bug;
  s.org_id = kOrg;
  s.project_id = kProject;
  s.ack = "working";
  s.ack_by = "agent night-shift";
  s.ack_at = 500;
  s.ack_note = "on it";
  f.Write([&](Connection& tx) { return f.handoff->PutAck(tx, s, 500); });
  s.pr_url = "https://code.example.com/pull/1";
  s.pr_at = 600;
  f.Write([&](Connection& tx) { return f.handoff->PutAck(tx, s, 600); });
  f.Write([&](Connection& tx) {
    return f.handoff->InsertAck(tx, ports::AckRecord{f.Id(), kOrg, bug, "working", std::nullopt,
                                                     "agent night-shift", std::string("on it"), 500});
  });
  f.Write([&](Connection& tx) {
    return f.handoff->InsertAck(tx, ports::AckRecord{f.Id(), kOrg, bug, "pr_opened", s.pr_url,
                                                     "agent night-shift", std::nullopt, 600});
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto got, f.handoff->GetState(c, kOrg, bug));
    REQUIRE(got.has_value());
    CHECK(got->ack == std::optional<std::string>("working"));
    CHECK(got->ack_note == std::optional<std::string>("on it"));
    CHECK(got->pr_url == s.pr_url);
    CHECK(got->pr_at == std::optional<int64_t>(600));
    SV_ASSIGN_OR_RETURN(auto foreign, f.handoff->GetState(c, kOtherOrg, bug));
    CHECK_FALSE(foreign.has_value());
    SV_ASSIGN_OR_RETURN(auto acks, f.handoff->Acks(c, kOrg, bug, 10));
    REQUIRE(acks.size() == 2);
    CHECK(acks[0].action == "pr_opened");
    CHECK(acks[1].action == "working");
    CHECK(acks[1].note == std::optional<std::string>("on it"));
    return Status::Ok();
  });
  CHECK(f.Text("SELECT agent_ack FROM bugs WHERE id = ?", {bug}) == "working");
  CHECK(f.Text("SELECT agent_ack_by FROM bugs WHERE id = ?", {bug}) == "agent night-shift");
  CHECK(f.Text("SELECT agent_pr_url FROM bugs WHERE id = ?", {bug}) == "https://code.example.com/pull/1");
}

TEST_CASE(
    "handoff store: listen reads MCP rows by window, cursor and status, delivered marks queued rows only") {
  Fixture f;
  const std::string bug = f.Bug(kOrg, kProject, "Title one", "critical");
  const ports::NotifyBatch b1 = f.Batch(bug, 1000, {"mcp", "agent"});
  const ports::NotifyBatch b2 = f.Batch(bug, 2000, {"mcp"});
  const ports::NotifyBatch b3 = f.Batch(bug, 3000, {"mcp"}, "delivered");
  ports::HandoffRepository::ListenQuery q;
  q.org_id = kOrg;
  q.project_id = kProject;
  q.since_ms = 0;
  std::vector<ports::ListenRow> all = f.Listen(q);
  REQUIRE(all.size() == 3);  // the agent row is not an MCP row
  CHECK(all[0].row.batch_id == b1.id);
  CHECK(all[0].title == "Title one");
  CHECK(all[0].severity == "critical");
  CHECK(all[2].row.batch_id == b3.id);
  q.queued_only = true;
  CHECK(f.Listen(q).size() == 2);
  q.since_ms = 1500;
  REQUIRE(f.Listen(q).size() == 1);
  CHECK(f.Listen(q)[0].row.batch_id == b2.id);
  q.queued_only = false;
  q.since_ms = 0;
  q.after_at = all[0].row.created_at;
  q.after_id = all[0].row.id;
  CHECK(f.Listen(q).size() == 2);
  q.limit = 1;
  CHECK(f.Listen(q).size() == 1);
  q.org_id = kOtherOrg;
  CHECK(f.Listen(q).empty());

  f.Write([&](Connection& tx) { return f.handoff->MarkDelivered(tx, {all[0].row.id, all[2].row.id}, 9000); });
  CHECK(f.Text("SELECT status FROM agent_notifications WHERE id = ?", {all[0].row.id}) == "delivered");
  CHECK(f.Int("SELECT delivered_at FROM agent_notifications WHERE id = ?", {all[0].row.id}) == 9000);
  // Already delivered: its time stays unset by this call (it had none).
  CHECK(f.Text("SELECT delivered_at FROM agent_notifications WHERE id = ?", {all[2].row.id}).empty());
}

TEST_CASE("handoff store: a savepoint undoes a failed part of a transaction and keeps the rest") {
  Fixture f;
  const std::string bug = f.Bug();
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(
        f.handoff->PutSettings(tx, ports::AgentSettingsRow{kProject, kOrg, true, "high", 1, ""}));
    SV_RETURN_IF_ERROR(f.handoff->Savepoint(tx));
    SV_RETURN_IF_ERROR(
        f.handoff->InsertBatch(tx, ports::NotifyBatch{f.Id(), kOrg, kProject, bug, "auto", false, "", 5}));
    Status broken = tx.Exec("INSERT INTO no_such_table (x) VALUES (1)").status();
    CHECK_FALSE(broken.ok());
    SV_RETURN_IF_ERROR(f.handoff->RollbackToSavepoint(tx));
    SV_RETURN_IF_ERROR(f.handoff->ReleaseSavepoint(tx));
    // The transaction goes on.
    return f.handoff->InsertBatch(tx, ports::NotifyBatch{f.Id(), kOrg, kProject, bug, "manual", true, "", 6});
  });
  CHECK(f.Int("SELECT COUNT(*) FROM agent_settings") == 1);
  CHECK(f.Int("SELECT COUNT(*) FROM agent_notify_batches") == 1);
  CHECK(f.Text("SELECT trigger_kind FROM agent_notify_batches") == "manual");
}

TEST_CASE(
    "handoff store: an MCP listener is a live subscribe token with an unexpired grant of an active member") {
  Fixture f;
  const int64_t now = 1'000'000;
  CHECK_FALSE(f.HasListener(now));
  f.Token("read_bugs claim_issue", now + 1000, kProject);                   // no subscribe
  f.Token("subscribe", now - 1, kProject);                                  // expired
  f.Token("subscribe", now + 1000, kProject, now - 1);                      // grant expired
  f.Token("subscribe", now + 1000, kProject, std::nullopt, "deactivated");  // creator deactivated
  f.Token("subscribe", now + 1000, kOtherProject, std::nullopt, "active", kOtherOrg);
  f.Token("subscriber", now + 1000, kProject);  // not the scope's exact name
  const std::string revoked = f.Token("subscribe", now + 1000, kProject);
  f.Write([&](Connection& tx) {
    return tx.Exec("UPDATE agent_tokens SET revoked_at = 1 WHERE id = ?", {revoked}).status();
  });
  CHECK_FALSE(f.HasListener(now));
  const std::string live = f.Token("read_bugs subscribe", now + 1000, kProject, now + 500);
  CHECK(f.HasListener(now));
  CHECK_FALSE(f.HasListener(now, kProject, kOtherOrg));
  CHECK(f.HasListener(now, kOtherProject, kOtherOrg));  // the other organization's own listener
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto name, f.listeners->TokenName(c, kOrg, live));
    CHECK(name == std::optional<std::string>("night-shift"));
    SV_ASSIGN_OR_RETURN(auto foreign, f.listeners->TokenName(c, kOtherOrg, live));
    CHECK_FALSE(foreign.has_value());
    return Status::Ok();
  });
  // The creator leaves the organization: no listener any more.
  f.Write([&](Connection& tx) {
    return tx
        .Exec("DELETE FROM memberships WHERE user_id = (SELECT created_by FROM agent_tokens WHERE id = ?)",
              {live})
        .status();
  });
  CHECK_FALSE(f.HasListener(now));
}

TEST_CASE("handoff store: a deleted bug takes its batches, rows, state and acks") {
  Fixture f;
  const std::string bug = f.Bug();
  f.Batch(bug, 1000, {"mcp"});
  f.Claim(bug, f.Id(), 1000);
  f.Write([&](Connection& tx) {
    return f.handoff->InsertAck(
        tx, ports::AckRecord{f.Id(), kOrg, bug, "working", std::nullopt, "x", std::nullopt, 5});
  });
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM bugs WHERE id = ?", {bug}).status(); });
  CHECK(f.Int("SELECT COUNT(*) FROM agent_notify_batches") == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM agent_notifications") == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM bug_agent_state") == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM agent_acks") == 0);
}

}  // namespace
}  // namespace service::store
