// Contract tests of the platform-side repositories on both backends,
// through their interfaces: settings (the existing value wins),
// the outbox (claims leased and counted, retries until attempts are
// spent), integrations (org-checked reads and writes, deliveries deduped,
// claimed, completed, released, retried, canceled, dead-lettered), the
// account data reads (what's new, export, inviter cleared), and the usage
// and presence methods capture_store_test.cpp leaves out.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/account_data_repository.h"
#include "areas/accounts/ports/invitation_repository.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/capture/ports/presence_repository.h"
#include "areas/capture/store/repositories.h"
#include "areas/integrations/ports/integration_repository.h"
#include "areas/integrations/store/repositories.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/operations/store/repositories.h"
#include "areas/triage/ports/triage_repository.h"
#include "areas/triage/store/repositories.h"
#include "ports/outbox_repository.h"
#include "ports/settings_repository.h"
#include "store/database.h"
#include "store/repositories.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<DatabaseTransactions> txs;

  Fixture() : StoreFixture({kProject}) {
    txs = NewTransactions(*db);
    AddOtherOrganization();
  }

  std::string Person(const std::string& email) {
    ports::User u;
    u.id = Id();
    u.email = email;
    u.name = "Name";
    u.status = "active";
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(NewSqlUserRepository()->Insert(tx, u));
      return NewSqlMembershipRepository()->Insert(tx,
                                                  ports::Membership{kOrg, u.id, "member", std::nullopt, 1});
    });
    return u.id;
  }

  std::string Bug(const std::string& org, const std::string& project, int64_t at,
                  const std::string& env = "live") {
    return AddBug({.org = org,
                   .project = project,
                   .env = env,
                   .title = "Bug at " + std::to_string(at),
                   .severity = "high",
                   .at = at});
  }
};

}  // namespace

TEST_CASE(
    "platform store: a setting is inserted once, outbox items are claimed under a lease, retried and "
    "counted") {
  Fixture f;
  {  // a setting is inserted once, the existing value wins
    auto settings = NewSqlSettingsRepository();
    auto missing = settings->Get(*f.txs, "signing_secret");
    REQUIRE(missing.ok());
    CHECK_FALSE(*missing);
    auto first = settings->GetOrInsert(*f.txs, "signing_secret", "one", 10);
    REQUIRE(first.ok());
    CHECK(*first == "one");
    auto second = settings->GetOrInsert(*f.txs, "signing_secret", "two", 20);
    REQUIRE(second.ok());
    CHECK(*second == "one");
    auto got = settings->Get(*f.txs, "signing_secret");
    REQUIRE(got.ok());
    CHECK(*got == std::optional<std::string>("one"));
  }
  {  // outbox items are claimed under a lease, retried, failed when spent and counted
    auto outbox = NewSqlOutboxRepository();
    const std::string a = f.Id(), b = f.Id(), c = f.Id(), other = f.Id();
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(outbox->Enqueue(tx, a, "mail", R"({"n":1})", 100, 2));
      SV_RETURN_IF_ERROR(outbox->Enqueue(tx, b, "mail", R"({"n":2})", 200, 2));
      SV_RETURN_IF_ERROR(outbox->Enqueue(tx, c, "mail", R"({"n":3})", 5000, 2));  // not due yet
      return outbox->Enqueue(tx, other, "webhook", "{}", 100);
    });
    // A rolled back action leaves no item.
    CHECK_FALSE(f.db->Write([&](Connection& tx) -> Status {
                      SV_RETURN_IF_ERROR(outbox->Enqueue(tx, f.Id(), "mail", "{}", 100));
                      return Internal("rolled back");
                    })
                    .ok());

    auto claimed = outbox->Claim(*f.txs, "mail", 1000, 60'000, 10);
    REQUIRE(claimed.ok());
    REQUIRE(claimed->size() == 2);
    // No order is promised: by id (a < b).
    std::sort(claimed->begin(), claimed->end(),
              [](const ports::OutboxItem& x, const ports::OutboxItem& y) { return x.id < y.id; });
    CHECK((*claimed)[0].id == a);
    CHECK((*claimed)[0].kind == "mail");
    CHECK((*claimed)[0].payload == R"({"n":1})");
    CHECK((*claimed)[0].attempts == 1);
    CHECK((*claimed)[0].max_attempts == 2);
    CHECK((*claimed)[1].id == b);
    // Leased: nobody else claims them until the lease ends.
    auto during = outbox->Claim(*f.txs, "mail", 2000, 60'000, 10);
    REQUIRE(during.ok());
    CHECK(during->empty());
    auto limited = outbox->Claim(*f.txs, "webhook", 2000, 60'000, 0);
    REQUIRE(limited.ok());
    CHECK(limited->empty());

    REQUIRE(outbox->MarkDone(*f.txs, a, 3000).ok());
    REQUIRE(outbox->MarkRetry(*f.txs, (*claimed)[1], "busy", 3000, 4000).ok());
    auto retried = outbox->Claim(*f.txs, "mail", 4000, 60'000, 10);
    REQUIRE(retried.ok());
    REQUIRE(retried->size() == 1);
    CHECK((*retried)[0].id == b);
    CHECK((*retried)[0].attempts == 2);
    // Attempts spent: the retry fails it for good.
    REQUIRE(outbox->MarkRetry(*f.txs, (*retried)[0], "still busy", 4000, 5000).ok());
    auto webhook = outbox->Claim(*f.txs, "webhook", 4000, 60'000, 10);
    REQUIRE(webhook.ok());
    REQUIRE(webhook->size() == 1);
    REQUIRE(outbox->MarkFailed(*f.txs, (*webhook)[0], "permanent", 4000).ok());

    auto counts = outbox->Counts(*f.txs, 5000 + 61'000);
    REQUIRE(counts.ok());
    CHECK(counts->pending == 1);  // c
    CHECK(counts->failed == 2);
    CHECK(counts->done == 1);
    CHECK(counts->overdue == 1);
    auto early = outbox->Counts(*f.txs, 5000);
    REQUIRE(early.ok());
    CHECK(early->overdue == 0);
    auto after = outbox->Claim(*f.txs, "mail", 10'000, 60'000, 10);
    REQUIRE(after.ok());
    REQUIRE(after->size() == 1);
    CHECK((*after)[0].id == c);
  }
}

TEST_CASE(
    "platform store: integrations, deliveries, issues and policies are read and written in their "
    "organization") {
  Fixture f;
  {  // integrations are read and written only in their organization
    auto integrations = NewSqlIntegrationRepository();
    auto row = [&](const std::string& org, const std::string& project, int64_t at,
                   std::vector<std::string> events, bool active) {
      ports::IntegrationRow x;
      x.id = f.Id();
      x.org_id = org;
      x.project_id = project;
      x.type = "webhook";
      x.name = "Hook " + std::to_string(at);
      x.config_sealed = "sealed";
      x.config_view = R"({"url":"https://example.com"})";
      x.events = std::move(events);
      x.is_active = active;
      x.min_severity = "high";
      x.secret_sealed = "s";
      x.secret_mask = "****";
      x.created_at = at;
      x.updated_at = at;
      f.Write([&](Connection& tx) { return integrations->Insert(tx, x); });
      return x;
    };
    ports::IntegrationRow second = row(kOrg, kProject, 20, {"bug.created", "bug.resolved"}, true);
    ports::IntegrationRow first = row(kOrg, kProject, 10, {"bug.resolved"}, true);
    ports::IntegrationRow inactive = row(kOrg, kProject, 30, {"bug.created"}, false);
    ports::IntegrationRow foreign = row(kOtherOrg, kOtherProject, 5, {"bug.created"}, true);

    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto got, integrations->Get(c, kOrg, second.id));
      REQUIRE(got);
      CHECK(got->type == "webhook");
      CHECK(got->name == second.name);
      CHECK(got->config_view == second.config_view);
      CHECK(got->events == second.events);
      CHECK(got->is_active);
      CHECK(got->delivery_feed == "all");
      CHECK(got->min_severity == std::optional<std::string>("high"));
      CHECK(got->secret_mask == "****");
      SV_ASSIGN_OR_RETURN(auto cross, integrations->Get(c, kOtherOrg, second.id));
      CHECK_FALSE(cross);
      SV_ASSIGN_OR_RETURN(auto many, integrations->GetMany(c, {foreign.id, first.id, f.Id()}));
      CHECK(many.size() == 2);
      SV_ASSIGN_OR_RETURN(auto list, integrations->ListForProject(c, kOrg, kProject));
      REQUIRE(list.size() == 3);
      CHECK(list[0].id == first.id);  // oldest first
      CHECK(list[1].id == second.id);
      CHECK(list[2].id == inactive.id);
      SV_ASSIGN_OR_RETURN(auto cross_list, integrations->ListForProject(c, kOtherOrg, kProject));
      CHECK(cross_list.empty());
      SV_ASSIGN_OR_RETURN(auto created, integrations->ActiveFor(c, kProject, "bug.created"));
      REQUIRE(created.size() == 1);
      CHECK(created[0].id == second.id);
      SV_ASSIGN_OR_RETURN(auto resolved, integrations->ActiveFor(c, kProject, "bug.resolved"));
      CHECK(resolved.size() == 2);
      return Status::Ok();
    });

    // Update is org-checked.
    ports::IntegrationRow changed = second;
    changed.name = "Renamed";
    changed.is_active = false;
    changed.updated_at = 99;
    ports::IntegrationRow hijack = changed;
    hijack.org_id = kOtherOrg;
    hijack.name = "Hijacked";
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(integrations->Update(tx, hijack));
      SV_ASSIGN_OR_RETURN(auto got, integrations->Get(tx, kOrg, second.id));
      REQUIRE(got);
      CHECK(got->name == second.name);
      SV_RETURN_IF_ERROR(integrations->Update(tx, changed));
      SV_ASSIGN_OR_RETURN(auto after, integrations->Get(tx, kOrg, second.id));
      REQUIRE(after);
      CHECK(after->name == std::optional<std::string>("Renamed"));
      CHECK_FALSE(after->is_active);
      CHECK(after->updated_at == 99);
      SV_ASSIGN_OR_RETURN(bool cross_delete, integrations->Delete(tx, kOtherOrg, first.id));
      CHECK_FALSE(cross_delete);
      SV_ASSIGN_OR_RETURN(bool deleted, integrations->Delete(tx, kOrg, first.id));
      CHECK(deleted);
      SV_ASSIGN_OR_RETURN(bool again, integrations->Delete(tx, kOrg, first.id));
      CHECK_FALSE(again);
      return Status::Ok();
    });

    // Code-host issues and alert policies.
    const std::string bug = f.Bug(kOrg, kProject, 1000);
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto none, integrations->GetIssue(tx, second.id, bug));
      CHECK_FALSE(none);
      SV_RETURN_IF_ERROR(integrations->PutIssue(tx, {second.id, bug, "https://git.example.com/1", 1}, 10));
      SV_ASSIGN_OR_RETURN(auto issue, integrations->GetIssue(tx, second.id, bug));
      REQUIRE(issue);
      CHECK(issue->url == "https://git.example.com/1");
      CHECK(issue->number == 1);
      SV_ASSIGN_OR_RETURN(auto no_policy, integrations->GetPolicy(tx, kProject));
      CHECK_FALSE(no_policy);
      SV_RETURN_IF_ERROR(integrations->PutPolicy(tx, {kProject, kOrg, R"({"a":1})", 10, "someone"}));
      SV_RETURN_IF_ERROR(integrations->PutPolicy(tx, {kProject, kOrg, R"({"a":2})", 20, "someone"}));
      SV_ASSIGN_OR_RETURN(auto policy, integrations->GetPolicy(tx, kProject));
      REQUIRE(policy);
      CHECK(policy->org_id == kOrg);
      CHECK(policy->body == R"({"a":2})");
      CHECK(policy->updated_at == 20);
      return Status::Ok();
    });

    // The organization's rows go; another organization's stay.
    f.Write([&](Connection& tx) { return integrations->DeleteOrganizationRows(tx, kOrg); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto list, integrations->ListForProject(c, kOrg, kProject));
      CHECK(list.empty());
      SV_ASSIGN_OR_RETURN(auto policy, integrations->GetPolicy(c, kProject));
      CHECK_FALSE(policy);
      SV_ASSIGN_OR_RETURN(auto kept, integrations->Get(c, kOtherOrg, foreign.id));
      CHECK(kept);
      return Status::Ok();
    });
  }
  {  // deliveries are deduped, claimed, completed, released and retried
    auto integrations = NewSqlIntegrationRepository();
    ports::IntegrationRow hook;
    hook.id = f.Id();
    hook.org_id = kOrg;
    hook.project_id = kProject;
    hook.type = "webhook";
    hook.config_view = "{}";
    hook.events = {"bug.created"};
    ports::IntegrationRow other_hook = hook;
    other_hook.id = f.Id();
    const std::string event = f.Id();
    auto delivery = [&](const std::string& integration, int64_t due, const std::string& dedupe) {
      ports::DeliveryRow d;
      d.id = f.Id();
      d.org_id = kOrg;
      d.project_id = kProject;
      d.integration_id = integration;
      d.event_id = event;
      d.event_type = "bug.created";
      d.schedule = "short";
      d.status = "pending";
      d.dedupe_key = dedupe;
      d.created_at = due;
      d.next_attempt_at = due;
      return d;
    };
    ports::DeliveryRow d1 = delivery(hook.id, 100, "k1");
    ports::DeliveryRow d2 = delivery(hook.id, 200, "k2");
    ports::DeliveryRow d3 = delivery(other_hook.id, 150, "k3");
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(integrations->Insert(tx, hook));
      SV_RETURN_IF_ERROR(integrations->Insert(tx, other_hook));
      SV_RETURN_IF_ERROR(integrations->InsertEvent(tx, event, kOrg, R"({"event":"bug.created"})", 50));
      for (const ports::DeliveryRow* d : {&d1, &d2, &d3}) {
        SV_ASSIGN_OR_RETURN(bool inserted, integrations->InsertDelivery(tx, *d));
        CHECK(inserted);
      }
      ports::DeliveryRow dup = delivery(hook.id, 300, "k1");
      SV_ASSIGN_OR_RETURN(bool duplicate, integrations->InsertDelivery(tx, dup));
      CHECK_FALSE(duplicate);
      return Status::Ok();
    });

    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto due, integrations->Due(c, 1000, 10, {other_hook.id}));
      REQUIRE(due.size() == 2);
      CHECK(due[0].id == d1.id);
      CHECK(due[1].id == d2.id);
      CHECK(due[0].payload == R"({"event":"bug.created"})");
      CHECK(due[0].attempts == 0);  // Due does not lease
      SV_ASSIGN_OR_RETURN(auto got, integrations->GetDelivery(c, hook.id, d1.id));
      REQUIRE(got);
      CHECK(got->payload == R"({"event":"bug.created"})");
      CHECK(got->dedupe_key == std::optional<std::string>("k1"));
      SV_ASSIGN_OR_RETURN(auto wrong, integrations->GetDelivery(c, other_hook.id, d1.id));
      CHECK_FALSE(wrong);
      return Status::Ok();
    });

    auto claimed = integrations->Claim(*f.txs, 1000, 60'000, 2, {});
    REQUIRE(claimed.ok());
    REQUIRE(claimed->size() == 2);
    CHECK((*claimed)[0].id == d1.id);  // oldest due first
    CHECK((*claimed)[1].id == d3.id);
    CHECK((*claimed)[0].attempts == 1);
    CHECK((*claimed)[0].payload == R"({"event":"bug.created"})");
    auto rest = integrations->Claim(*f.txs, 1000, 60'000, 10, {});
    REQUIRE(rest.ok());
    REQUIRE(rest->size() == 1);  // the leased rows are not claimed again
    CHECK((*rest)[0].id == d2.id);

    // d2 released (never sent): claimable again, its send uncounted.
    REQUIRE(integrations->Release(*f.txs, {d2.id}).ok());
    // d1 succeeds, d3 fails into the dead letters.
    ports::DeliveryOutcome ok{d1.id, "success", 200, std::nullopt, 0, false, false};
    ports::DeliveryOutcome failed{d3.id, "failed", 500, "boom", 0, true, false};
    REQUIRE(integrations->Complete(*f.txs, {ok, failed}, 2000).ok());
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto d2_now, integrations->GetDelivery(c, hook.id, d2.id));
      REQUIRE(d2_now);
      CHECK(d2_now->attempts == 0);
      CHECK(d2_now->lease_until == 0);
      SV_ASSIGN_OR_RETURN(auto d1_now, integrations->GetDelivery(c, hook.id, d1.id));
      REQUIRE(d1_now);
      CHECK(d1_now->status == "success");
      CHECK(d1_now->response_code == std::optional<int64_t>(200));
      CHECK(d1_now->completed_at == std::optional<int64_t>(2000));
      SV_ASSIGN_OR_RETURN(int64_t dead, integrations->DeadLetterCount(c, other_hook.id));
      CHECK(dead == 1);
      SV_ASSIGN_OR_RETURN(auto all, integrations->ListDeliveries(c, hook.id, "", 10, 0));
      REQUIRE(all.size() == 2);
      CHECK(all[0].id == d1.id);  // created-at ascending
      CHECK(all[1].id == d2.id);
      SV_ASSIGN_OR_RETURN(auto paged, integrations->ListDeliveries(c, hook.id, "", 1, 1));
      REQUIRE(paged.size() == 1);
      CHECK(paged[0].id == d2.id);
      SV_ASSIGN_OR_RETURN(auto successes, integrations->ListDeliveries(c, hook.id, "success", 10, 0));
      REQUIRE(successes.size() == 1);
      SV_ASSIGN_OR_RETURN(int64_t n_all, integrations->CountDeliveries(c, hook.id, ""));
      CHECK(n_all == 2);
      SV_ASSIGN_OR_RETURN(int64_t n_pending, integrations->CountDeliveries(c, hook.id, "pending"));
      CHECK(n_pending == 1);
      SV_ASSIGN_OR_RETURN(auto counts, integrations->CountsForOrg(c, kOrg, 0));
      CHECK(counts.pending == 1);
      CHECK(counts.failed == 1);
      CHECK(counts.success == 1);
      CHECK(counts.canceled == 0);
      SV_ASSIGN_OR_RETURN(auto later, integrations->CountsForOrg(c, kOrg, 150));
      CHECK(later.success == 0);  // created before `since`
      SV_ASSIGN_OR_RETURN(auto other_org, integrations->CountsForOrg(c, kOtherOrg, 0));
      CHECK(other_org.pending + other_org.failed + other_org.success == 0);
      return Status::Ok();
    });

    // A manual retry takes the failed row once.
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(bool taken, integrations->TakeForManualRetry(tx, d3.id, 3000, 60'000));
      CHECK(taken);
      SV_ASSIGN_OR_RETURN(bool twice, integrations->TakeForManualRetry(tx, d3.id, 3000, 60'000));
      CHECK_FALSE(twice);
      SV_ASSIGN_OR_RETURN(auto row, integrations->GetDelivery(tx, other_hook.id, d3.id));
      REQUIRE(row);
      CHECK(row->status == "pending");
      CHECK(row->manual_sends == 1);
      return Status::Ok();
    });

    // Cancel the pending work of an integration.
    f.Write([&](Connection& tx) { return integrations->CancelPending(tx, hook.id, "deactivated", 4000); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto d2_now, integrations->GetDelivery(c, hook.id, d2.id));
      REQUIRE(d2_now);
      CHECK(d2_now->status == "canceled");
      SV_ASSIGN_OR_RETURN(auto d1_now, integrations->GetDelivery(c, hook.id, d1.id));
      REQUIRE(d1_now);
      CHECK(d1_now->status == "success");
      SV_ASSIGN_OR_RETURN(auto d3_now, integrations->GetDelivery(c, other_hook.id, d3.id));
      REQUIRE(d3_now);
      CHECK(d3_now->status == "pending");
      return Status::Ok();
    });
  }
}

TEST_CASE("platform store: what's new counts new, regressed and resolved live bugs of the organization") {
  Fixture f;
  auto account_data = NewSqlAccountDataRepository();
  auto triage = NewSqlTriageRepository();
  const std::string user = f.Person("ada@example.com");
  const std::string old_bug = f.Bug(kOrg, kProject, 100);
  const std::string new1 = f.Bug(kOrg, kProject, 2000);
  const std::string new2 = f.Bug(kOrg, kProject, 3000);
  f.Bug(kOrg, kProject, 4000, "test");    // test namespace: not shown
  f.Bug(kOtherOrg, kOtherProject, 5000);  // another organization
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(triage->AddHistory(
        tx, ports::HistoryEntry{f.Id(), old_bug, kOrg, "new", "resolved", std::nullopt, user, 1500}));
    SV_RETURN_IF_ERROR(triage->AddHistory(
        tx, ports::HistoryEntry{f.Id(), old_bug, kOrg, "resolved", "open", std::nullopt, user, 2500}));
    return triage->AddHistory(
        tx, ports::HistoryEntry{f.Id(), new1, kOrg, "new", "resolved", std::nullopt, user, 3500});
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto all, account_data->WhatsNewSince(c, kOrg, 1000, 10));
    CHECK(all.new_bugs == 2);
    CHECK(all.regressions == 1);
    CHECK(all.resolved == 2);
    REQUIRE(all.items.size() == 5);
    CHECK(all.items[0].type == "resolved");  // newest first
    CHECK(all.items[0].bug_id == new1);
    CHECK(all.items[0].ts == 3500);
    CHECK(all.items[1].type == "new_bug");
    CHECK(all.items[1].bug_id == new2);
    CHECK(all.items[1].severity == "high");
    for (size_t i = 1; i < all.items.size(); ++i) CHECK(all.items[i - 1].ts >= all.items[i].ts);
    SV_ASSIGN_OR_RETURN(auto limited, account_data->WhatsNewSince(c, kOrg, 1000, 1));
    CHECK(limited.items.size() == 1);
    CHECK(limited.new_bugs == 2);  // counts over everything since
    SV_ASSIGN_OR_RETURN(auto recent, account_data->WhatsNewSince(c, kOrg, 2600, 10));
    CHECK(recent.new_bugs == 1);
    CHECK(recent.regressions == 0);
    CHECK(recent.resolved == 1);
    return Status::Ok();
  });
}

TEST_CASE("platform store: an account's export holds its rows, the inviter is cleared before deletion") {
  Fixture f;
  auto account_data = NewSqlAccountDataRepository();
  auto triage = NewSqlTriageRepository();
  const std::string ada = f.Person("ada@example.com");
  const std::string bob = f.Person("bob@example.com");
  const std::string bug = f.Bug(kOrg, kProject, 1000);
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(triage->AddComment(tx, ports::CommentRow{f.Id(), bug, kOrg, ada, "mine", 10}));
    SV_RETURN_IF_ERROR(triage->AddComment(tx, ports::CommentRow{f.Id(), bug, kOrg, bob, "his", 11}));
    ports::NotificationRow n;
    n.id = f.Id();
    n.user_id = ada;
    n.org_id = kOrg;
    n.type = "assigned";
    n.title = "T";
    n.body = "B";
    n.bug_id = bug;
    n.created_at = 12;
    SV_RETURN_IF_ERROR(triage->AddNotification(tx, n));
    ports::NotificationPreferences p;
    p.user_id = ada;
    p.org_id = kOrg;
    p.email_level = "digest";
    SV_RETURN_IF_ERROR(triage->SavePreferences(tx, p));
    SV_RETURN_IF_ERROR(triage->Watch(tx, kOrg, bug, ada, 13).status());
    ports::Invitation inv;
    inv.id = f.Id();
    inv.org_id = kOrg;
    inv.user_id = bob;
    inv.email = "bob@example.com";
    inv.role = "member";
    inv.token_hash = "h";
    inv.invited_by = ada;
    inv.expires_at = 9000;
    SV_RETURN_IF_ERROR(NewSqlInvitationRepository()->Insert(tx, inv));
    return tx.Exec("UPDATE bugs SET assigned_to = ? WHERE id = ?", {ada, bug}).status();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto data, account_data->Export(c, ada));
    REQUIRE(data.comments.size() == 1);
    CHECK(data.comments[0].content == "mine");
    CHECK(data.comments[0].bug_id == bug);
    REQUIRE(data.notifications.size() == 1);
    CHECK(data.notifications[0].type == "assigned");
    CHECK(data.notifications[0].bug_id == std::optional<std::string>(bug));
    REQUIRE(data.preferences.size() == 1);
    CHECK(data.preferences[0].email_level == "digest");
    REQUIRE(data.watching.size() == 1);
    CHECK(data.watching[0].bug_id == bug);
    REQUIRE(data.assigned_bugs.size() == 1);
    CHECK(data.assigned_bugs[0].bug_id == bug);
    CHECK(data.assigned_bugs[0].status == "new");
    SV_ASSIGN_OR_RETURN(auto nobody, account_data->Export(c, f.Id()));
    CHECK(nobody.comments.empty());
    CHECK(nobody.assigned_bugs.empty());
    return Status::Ok();
  });
  f.Write([&](Connection& tx) { return account_data->ClearInviter(tx, ada); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto inv, NewSqlInvitationRepository()->FindOpen(c, "h", 100));
    REQUIRE(inv);
    CHECK_FALSE(inv->invited_by);
    return Status::Ok();
  });
}

TEST_CASE("platform store: AI requests and integrations are counted per organization, rows deleted per org") {
  Fixture f;
  auto usage = NewSqlUsageRepository();
  auto presence = NewSqlPresenceRepository();
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(usage->CountAiRequest(tx, kOrg, "2026-01"));
    SV_RETURN_IF_ERROR(usage->CountAiRequest(tx, kOrg, "2026-01"));
    SV_RETURN_IF_ERROR(usage->CountAiRequest(tx, kOrg, "2026-02"));
    SV_RETURN_IF_ERROR(usage->CountAiRequest(tx, kOtherOrg, "2026-01"));
    ports::IntegrationRow x;
    x.id = f.Id();
    x.org_id = kOrg;
    x.project_id = kProject;
    x.type = "webhook";
    x.config_view = "{}";
    SV_RETURN_IF_ERROR(NewSqlIntegrationRepository()->Insert(tx, x));
    for (const char* org : {kOrg, kOtherOrg}) {
      ports::PresencePing p;
      p.org_id = org;
      p.project_id = org == std::string(kOrg) ? kProject : kOtherProject;
      p.session_id = "s";
      p.path = "/";
      p.at = 1000;
      SV_RETURN_IF_ERROR(presence->Upsert(tx, p));
    }
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t jan, usage->AiRequestsInMonth(c, kOrg, "2026-01"));
    CHECK(jan == 2);
    SV_ASSIGN_OR_RETURN(int64_t feb, usage->AiRequestsInMonth(c, kOrg, "2026-02"));
    CHECK(feb == 1);
    SV_ASSIGN_OR_RETURN(int64_t none, usage->AiRequestsInMonth(c, kOrg, "2026-03"));
    CHECK(none == 0);
    SV_ASSIGN_OR_RETURN(int64_t integrations, usage->IntegrationCount(c, kOrg));
    CHECK(integrations == 1);
    SV_ASSIGN_OR_RETURN(int64_t other_integrations, usage->IntegrationCount(c, kOtherOrg));
    CHECK(other_integrations == 0);
    SV_ASSIGN_OR_RETURN(int64_t credits, usage->PrepaidCredits(c, kOrg));
    CHECK(credits == 0);
    SV_ASSIGN_OR_RETURN(int64_t unknown, usage->PrepaidCredits(c, f.Id()));
    CHECK(unknown == 0);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(usage->DeleteOrganization(tx, kOrg));
    return presence->DeleteOrganization(tx, kOrg);
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t jan, usage->AiRequestsInMonth(c, kOrg, "2026-01"));
    CHECK(jan == 0);
    SV_ASSIGN_OR_RETURN(int64_t other_jan, usage->AiRequestsInMonth(c, kOtherOrg, "2026-01"));
    CHECK(other_jan == 1);
    SV_ASSIGN_OR_RETURN(auto mine, presence->Snapshot(c, kOrg, 0, 5));
    CHECK(mine.active_sessions == 0);
    SV_ASSIGN_OR_RETURN(auto theirs, presence->Snapshot(c, kOtherOrg, 0, 5));
    CHECK(theirs.active_sessions == 1);
    return Status::Ok();
  });
}

}  // namespace service::store
