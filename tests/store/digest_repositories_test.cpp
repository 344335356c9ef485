// Contract tests of ports::DigestRepository on both backends: alert email
// batches, their events and projects, the conditional state changes that
// keep two processes from sending one batch twice, the history page, the
// recipient's decisions, the retention sweep and the deletion hooks.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/store/repositories.h"
#include "areas/triage/ports/digest_repository.h"
#include "areas/triage/ports/triage_repository.h"
#include "areas/triage/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kProject2 = "00000000-0000-7000-8000-000000000003";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::DigestRepository> digests = NewSqlDigestRepository();
  std::unique_ptr<ports::TriageRepository> triage = NewSqlTriageRepository();
  std::unique_ptr<ports::UserRepository> users = NewSqlUserRepository();
  std::unique_ptr<ports::MembershipRepository> members = NewSqlMembershipRepository();
  std::string ada, bob;
  std::string bug1, bug2;

  Fixture() : StoreFixture({kProject, kProject2}) {
    ada = Person("ada@example.com");
    bob = Person("bob@example.com");
    bug1 = AddBug({.project = kProject});
    bug2 = AddBug({.project = kProject2});
  }

  std::string Person(const std::string& email) {
    ports::User u;
    u.id = Id();
    u.email = email;
    u.name = "Name";
    u.status = "active";
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(users->Insert(tx, u));
      return members->Insert(tx, ports::Membership{kOrg, u.id, "member", std::nullopt, 1});
    });
    return u.id;
  }

  std::string Notification(const std::string& user, const std::string& bug, bool pending = false) {
    ports::NotificationRow n;
    n.id = Id();
    n.user_id = user;
    n.org_id = kOrg;
    n.type = "assigned";
    n.title = "Assigned";
    n.bug_id = bug;
    n.email_pending = pending;
    n.created_at = 1000;
    Write([&](Connection& tx) { return triage->AddNotification(tx, n); });
    return n.id;
  }

  std::string Batch(const std::string& user, int64_t at, const std::vector<std::string>& events,
                    const std::string& kind = "digest") {
    ports::DigestBatch b;
    b.id = Id();
    b.org_id = kOrg;
    b.user_id = user;
    b.kind = kind;
    b.subject = "Your hourly digest";
    b.body = "text";
    b.created_at = at;
    b.next_attempt_at = at;
    Write([&](Connection& tx) { return digests->Insert(tx, b, events); });
    return b.id;
  }

  ports::DigestBatch Get(const std::string& id) {
    std::optional<ports::DigestBatch> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, digests->Find(c, id));
      return Status::Ok();
    });
    REQUIRE(out.has_value());
    return *out;
  }

  bool Claim(const ports::DigestBatch& b, int64_t now, int64_t lease = 1000) {
    bool ok = false;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(ok, digests->Claim(tx, b.id, b.generation, b.attempts, now + lease, now));
      return Status::Ok();
    });
    return ok;
  }

  bool Finish(const std::string& id, int64_t generation, int64_t attempts, const std::string& state,
              int64_t now) {
    bool ok = false;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(
          ok, digests->Finish(tx, id, generation, attempts, state, "", now,
                              state == "succeeded" ? std::optional<int64_t>(now) : std::nullopt, now));
      return Status::Ok();
    });
    return ok;
  }

  std::vector<ports::DigestBatch> History(const std::string& user, const std::string& project,
                                          std::optional<std::pair<int64_t, std::string>> after = std::nullopt,
                                          int64_t limit = 50) {
    std::vector<ports::DigestBatch> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, digests->History(c, kOrg, user, project, after, limit));
      return Status::Ok();
    });
    return out;
  }
};

}  // namespace

TEST_CASE("digest store: a batch's events keep their projects, the history counts the selected project") {
  Fixture f;
  const std::string n1 = f.Notification(f.ada, f.bug1);
  const std::string n2 = f.Notification(f.ada, f.bug2);
  const std::string n3 = f.Notification(f.ada, f.bug2);
  const std::string both = f.Batch(f.ada, 100, {n1, n2, n3});
  const std::string second = f.Batch(f.ada, 200, {n2});
  f.Batch(f.ada, 150, {n1}, "instant");  // never in the history
  f.Batch(f.bob, 150, {f.Notification(f.bob, f.bug1)});

  std::vector<ports::DigestBatch> h = f.History(f.ada, kProject);
  REQUIRE(h.size() == 1);
  CHECK(h[0].id == both);
  CHECK(h[0].project_count == 2);
  CHECK(h[0].project_events == 1);
  CHECK(h[0].state == "queued");
  CHECK(h[0].generation == 0);
  CHECK(h[0].attempts == 0);

  h = f.History(f.ada, kProject2);
  REQUIRE(h.size() == 2);
  CHECK(h[0].id == both);
  CHECK(h[0].project_events == 2);
  CHECK(h[1].id == second);
  CHECK(h[1].project_count == 1);
  // After a cursor, in (created_at, id) order; a limit.
  h = f.History(f.ada, kProject2, std::make_pair(int64_t{100}, both));
  REQUIRE(h.size() == 1);
  CHECK(h[0].id == second);
  CHECK(f.History(f.ada, kProject2, std::nullopt, 1).size() == 1);

  bool holds = false;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(holds, f.digests->HoldsProject(c, second, kProject));
    return Status::Ok();
  });
  CHECK_FALSE(holds);

  f.Notification(f.ada, f.bug1, /*pending=*/true);
  f.Notification(f.ada, f.bug2, /*pending=*/true);
  f.Notification(f.ada, f.bug2, /*pending=*/true);
  int64_t pending1 = 0, pending2 = 0;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(pending1, f.digests->PendingEvents(c, kOrg, f.ada, kProject));
    SV_ASSIGN_OR_RETURN(pending2, f.digests->PendingEvents(c, kOrg, f.ada, kProject2));
    return Status::Ok();
  });
  CHECK(pending1 == 1);
  CHECK(pending2 == 2);
}

TEST_CASE(
    "digest store: a batch is claimed once, finished by its own send only, and a lost lease is unknown") {
  Fixture f;
  const std::string id = f.Batch(f.ada, 100, {f.Notification(f.ada, f.bug1)});
  std::vector<ports::DigestBatch> due;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(due, f.digests->Due(c, 100, 10));
    return Status::Ok();
  });
  REQUIRE(due.size() == 1);
  const ports::DigestBatch read = due[0];
  CHECK(f.Claim(read, 100));
  CHECK_FALSE(f.Claim(read, 100));  // the other process read the same row: it loses
  ports::DigestBatch b = f.Get(id);
  CHECK(b.state == "sending");
  CHECK(b.attempts == 1);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(due, f.digests->Due(c, 10'000, 10));
    return Status::Ok();
  });
  CHECK(due.empty());

  CHECK_FALSE(f.Finish(id, 0, 2, "succeeded", 200));  // not this send's attempt
  CHECK(f.Finish(id, 0, 1, "retryable", 200));
  CHECK(f.Get(id).state == "retryable");
  CHECK(f.Claim(f.Get(id), 300));

  // The lease runs out: outcome_unknown, never due again; the late answer is still recorded.
  int64_t expired = 0;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(expired, f.digests->ExpireLeases(tx, 300 + 1000));
    return Status::Ok();
  });
  CHECK(expired == 0);  // not yet
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(expired, f.digests->ExpireLeases(tx, 300 + 1001));
    return Status::Ok();
  });
  CHECK(expired == 1);
  CHECK(f.Get(id).state == "outcome_unknown");
  CHECK_FALSE(f.Claim(f.Get(id), 5000));
  CHECK(f.Finish(id, 0, 2, "succeeded", 6000));
  b = f.Get(id);
  CHECK(b.state == "succeeded");
  CHECK(b.sent_at == 6000);
}

TEST_CASE("digest store: decisions, received once, retry requeues with the next generation") {
  Fixture f;
  const std::string id = f.Batch(f.ada, 100, {f.Notification(f.ada, f.bug1)});
  bool ok = false;
  // Queued or sending: no retry; sending: no received.
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ok, f.digests->Requeue(tx, id, 0, 150));
    return Status::Ok();
  });
  CHECK_FALSE(ok);
  REQUIRE(f.Claim(f.Get(id), 200));
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ok, f.digests->MarkReceived(tx, id, 0, 250));
    return Status::Ok();
  });
  CHECK_FALSE(ok);
  REQUIRE(f.Finish(id, 0, 1, "outcome_unknown", 300));

  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ok, f.digests->Requeue(tx, id, 1, 400));  // stale generation
    return Status::Ok();
  });
  CHECK_FALSE(ok);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ok, f.digests->Requeue(tx, id, 0, 400));
    return Status::Ok();
  });
  CHECK(ok);
  ports::DigestBatch b = f.Get(id);
  CHECK(b.state == "queued");
  CHECK(b.generation == 1);
  CHECK(b.attempts == 1);  // cumulative attempts kept
  CHECK(b.resolution == "retry");
  CHECK(b.next_attempt_at == 400);

  REQUIRE(f.Claim(b, 500));
  REQUIRE(f.Finish(id, 1, 2, "succeeded", 600));
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ok, f.digests->MarkReceived(tx, id, 1, 700));
    return Status::Ok();
  });
  CHECK(ok);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ok, f.digests->MarkReceived(tx, id, 1, 800));
    return Status::Ok();
  });
  CHECK_FALSE(ok);  // once
  b = f.Get(id);
  CHECK(b.state == "succeeded");  // received does not change the provider state
  CHECK(b.resolution == "received");
  CHECK(b.resolution_at == 700);

  ports::DigestDecision d;
  d.id = f.Id();
  d.batch_id = id;
  d.user_id = f.ada;
  d.request_id = "00000000-0000-4000-8000-000000000001";
  d.project_id = kProject;
  d.action = "received";
  d.expected_generation = 1;
  d.next_generation = 1;
  d.created_at = 700;
  f.Write([&](Connection& tx) { return f.digests->InsertDecision(tx, d); });
  std::optional<ports::DigestDecision> found, other;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(found, f.digests->FindDecision(c, f.ada, d.request_id));
    SV_ASSIGN_OR_RETURN(other, f.digests->FindDecision(c, f.bob, d.request_id));
    return Status::Ok();
  });
  REQUIRE(found.has_value());
  CHECK(found->id == d.id);
  CHECK(found->action == "received");
  CHECK(found->created_at == 700);
  CHECK_FALSE(other.has_value());  // request ids are per recipient
}

TEST_CASE("digest store: the retention sweep takes finished batches only, deletion hooks take the owner's") {
  Fixture f;
  const std::string old_done = f.Batch(f.ada, 100, {f.Notification(f.ada, f.bug1)});
  REQUIRE(f.Claim(f.Get(old_done), 100));
  REQUIRE(f.Finish(old_done, 0, 1, "succeeded", 100));
  const std::string old_queued = f.Batch(f.ada, 100, {f.Notification(f.ada, f.bug1)});
  const std::string new_done = f.Batch(f.ada, 5000, {f.Notification(f.ada, f.bug1)});
  REQUIRE(f.Claim(f.Get(new_done), 5000));
  REQUIRE(f.Finish(new_done, 0, 1, "permanent_failure", 5000));
  const std::string bobs = f.Batch(f.bob, 100, {f.Notification(f.bob, f.bug1)});

  int64_t swept = 0;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(swept, f.digests->SweepFinished(tx, 1000, 10));
    return Status::Ok();
  });
  CHECK(swept == 1);
  std::optional<ports::DigestBatch> gone;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(gone, f.digests->Find(c, old_done));
    return Status::Ok();
  });
  CHECK_FALSE(gone.has_value());
  CHECK(f.Get(old_queued).state == "queued");
  CHECK(f.Get(new_done).state == "permanent_failure");

  f.Write([&](Connection& tx) { return f.digests->DeleteAccountRows(tx, f.ada); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(gone, f.digests->Find(c, new_done));
    return Status::Ok();
  });
  CHECK_FALSE(gone.has_value());
  CHECK(f.Get(bobs).user_id == f.bob);
  f.Write([&](Connection& tx) { return f.digests->DeleteOrganizationRows(tx, kOrg); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(gone, f.digests->Find(c, bobs));
    return Status::Ok();
  });
  CHECK_FALSE(gone.has_value());
}

TEST_CASE(
    "digest store: a hold puts a claimed batch back without counting its attempt, events name their type") {
  Fixture f;
  const std::string n1 = f.Notification(f.ada, f.bug1);
  const std::string id = f.Batch(f.ada, 100, {n1});
  std::vector<ports::DigestEventRef> events;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(events, f.digests->Events(c, id));
    return Status::Ok();
  });
  REQUIRE(events.size() == 1);
  CHECK(events[0].notification_id == n1);
  CHECK(events[0].type == "assigned");
  CHECK(events[0].bug_id == f.bug1);

  REQUIRE(f.Claim(f.Get(id), 200));
  bool held = false;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(held, f.digests->Hold(tx, id, 0, 0, 900, 210));  // not the claim's attempts
    return Status::Ok();
  });
  CHECK_FALSE(held);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(held, f.digests->Hold(tx, id, 0, 1, 900, 210));
    return Status::Ok();
  });
  CHECK(held);
  ports::DigestBatch b = f.Get(id);
  CHECK(b.state == "queued");
  CHECK(b.attempts == 0);
  CHECK(b.next_attempt_at == 900);
  CHECK_FALSE(b.lease_until.has_value());
  std::vector<ports::DigestBatch> due;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(due, f.digests->Due(c, 899, 10));
    return Status::Ok();
  });
  CHECK(due.empty());  // held until 900
}

}  // namespace service::store
