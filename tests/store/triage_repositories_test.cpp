// Contract tests of the triage repositories on both backends, through their
// interfaces (ports/triage_repository.h, bug_write_repository.h,
// bug_status_repository.h, duplicate_candidate_repository.h): active
// members, watchers, notifications and their digests, preferences, the
// activity feed, the deletion hooks; bug locks, changes, selections,
// deletion and merges; the status write; duplicate peers and proposals.
// Each scoped by organization where the header says so.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/bugs/store/repositories.h"
#include "areas/capture/ports/duplicate_candidate_repository.h"
#include "areas/capture/store/repositories.h"
#include "areas/triage/ports/bug_status_repository.h"
#include "areas/triage/ports/bug_write_repository.h"
#include "areas/triage/ports/triage_repository.h"
#include "areas/triage/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kProject2 = "00000000-0000-7000-8000-000000000003";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::TriageRepository> triage = NewSqlTriageRepository();
  std::unique_ptr<ports::BugWriteRepository> writes = NewSqlBugWriteRepository();
  std::unique_ptr<ports::BugStatusRepository> status = NewSqlBugStatusRepository();
  std::unique_ptr<ports::DuplicateCandidateRepository> duplicates = NewSqlDuplicateCandidateRepository();
  std::unique_ptr<ports::BugReadRepository> reads = NewSqlBugReadRepository();
  std::unique_ptr<ports::UserRepository> users = NewSqlUserRepository();
  std::unique_ptr<ports::MembershipRepository> members = NewSqlMembershipRepository();

  Fixture() : StoreFixture({kProject, kProject2}) { AddOtherOrganization(); }

  // An account with `status`, a member of `org` unless it is empty.
  std::string Person(const std::string& email, const std::string& org, const std::string& status = "active") {
    ports::User u;
    u.id = Id();
    u.email = email;
    u.name = "Name " + email.substr(0, email.find('@'));
    u.status = status;
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(users->Insert(tx, u));
      if (org.empty()) return Status::Ok();
      return members->Insert(tx, ports::Membership{org, u.id, "member", std::nullopt, 1});
    });
    return u.id;
  }

  struct BugSpec {
    std::string org = kOrg;
    std::string project = kProject;
    std::string group_key;
    std::string identity;  // grouping_v3_key
    std::string title = "A bug";
    int64_t at = 1000;
  };
  std::string Bug(const BugSpec& s) {
    return AddBug({.org = s.org,
                   .project = s.project,
                   .title = s.title,
                   .group_key = s.group_key,
                   .identity = s.identity,
                   .at = s.at});
  }
  std::string Bug(const std::string& group_key = "", int64_t at = 1000) {
    BugSpec s;
    s.group_key = group_key;
    s.at = at;
    return Bug(s);
  }

  ports::NotificationRow Notification(const std::string& org, const std::string& user, int64_t at,
                                      bool in_app = true, bool email_pending = false,
                                      const std::optional<std::string>& bug_id = std::nullopt,
                                      std::optional<int64_t> deliver_at = std::nullopt) {
    ports::NotificationRow n;
    n.id = Id();
    n.user_id = user;
    n.org_id = org;
    n.type = "comment";
    n.title = "Title " + std::to_string(at);
    n.body = "Body";
    n.bug_id = bug_id;
    n.in_app = in_app;
    n.email_pending = email_pending;
    n.created_at = at;
    n.deliver_at = deliver_at;
    Write([&](Connection& tx) { return triage->AddNotification(tx, n); });
    return n;
  }
};

}  // namespace

TEST_CASE("triage store: active members are active accounts with a membership in the organization") {
  Fixture f;
  const std::string ada = f.Person("ada@example.com", kOrg);
  const std::string pending = f.Person("pending@example.com", kOrg, "pending");
  const std::string outsider = f.Person("out@example.com", kOtherOrg);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, f.triage->FindActiveMember(c, kOrg, ada));
    REQUIRE(found);
    CHECK(found->email == "ada@example.com");
    CHECK(found->name == "Name ada");
    SV_ASSIGN_OR_RETURN(auto not_active, f.triage->FindActiveMember(c, kOrg, pending));
    CHECK_FALSE(not_active);
    SV_ASSIGN_OR_RETURN(auto other_org, f.triage->FindActiveMember(c, kOrg, outsider));
    CHECK_FALSE(other_org);
    SV_ASSIGN_OR_RETURN(
        auto by_email,
        f.triage->ActiveMembersByEmail(
            c, kOrg, {"out@example.com", "pending@example.com", "ada@example.com", "nobody@example.com"}));
    REQUIRE(by_email.size() == 1);
    CHECK(by_email[0].user_id == ada);
    SV_ASSIGN_OR_RETURN(auto none, f.triage->ActiveMembersByEmail(c, kOrg, {}));
    CHECK(none.empty());
    return Status::Ok();
  });
}

TEST_CASE("triage store: history, comments and watchers are read back by the bug reads") {
  Fixture f;
  const std::string ada = f.Person("ada@example.com", kOrg);
  const std::string bob = f.Person("bob@example.com", kOrg);
  const std::string gone = f.Person("gone@example.com", "");
  const std::string bug = f.Bug();
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.triage->AddHistory(
        tx, ports::HistoryEntry{f.Id(), bug, kOrg, std::nullopt, "new", std::nullopt, ada, 10}));
    SV_RETURN_IF_ERROR(
        f.triage->AddHistory(tx, ports::HistoryEntry{f.Id(), bug, kOrg, "new", "resolved", "done", bob, 20}));
    SV_RETURN_IF_ERROR(f.triage->AddComment(tx, ports::CommentRow{f.Id(), bug, kOrg, bob, "second", 40}));
    SV_RETURN_IF_ERROR(f.triage->AddComment(tx, ports::CommentRow{f.Id(), bug, kOrg, ada, "first", 30}));
    SV_ASSIGN_OR_RETURN(bool first, f.triage->Watch(tx, kOrg, bug, ada, 50));
    CHECK(first);
    SV_ASSIGN_OR_RETURN(bool again, f.triage->Watch(tx, kOrg, bug, ada, 51));
    CHECK_FALSE(again);
    SV_ASSIGN_OR_RETURN(bool bobs, f.triage->Watch(tx, kOrg, bug, bob, 52));
    CHECK(bobs);
    SV_ASSIGN_OR_RETURN(bool not_member, f.triage->Watch(tx, kOrg, bug, gone, 53));
    CHECK(not_member);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto history, f.reads->History(c, bug));
    REQUIRE(history.size() == 2);
    CHECK(history[0].new_status == "resolved");  // newest first
    CHECK(history[0].old_status == std::optional<std::string>("new"));
    CHECK(history[0].note == std::optional<std::string>("done"));
    CHECK(history[0].changed_by_email == std::optional<std::string>("bob@example.com"));
    CHECK_FALSE(history[1].old_status);
    SV_ASSIGN_OR_RETURN(auto comments, f.reads->Comments(c, bug));
    REQUIRE(comments.size() == 2);
    CHECK(comments[0].content == "first");  // oldest first
    CHECK(comments[0].user_id == ada);
    CHECK(comments[1].content == "second");
    SV_ASSIGN_OR_RETURN(auto watchers, f.triage->ActiveWatchers(c, kOrg, bug));
    std::vector<std::string> ids;
    for (const auto& w : watchers) ids.push_back(w.user_id);
    CHECK(ids == Sorted({ada, bob}));  // by user id; not the non-member
    SV_ASSIGN_OR_RETURN(auto other_org, f.triage->ActiveWatchers(c, kOtherOrg, bug));
    CHECK(other_org.empty());
    SV_ASSIGN_OR_RETURN(bool watching, f.reads->IsWatching(c, bug, ada));
    CHECK(watching);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) { return f.triage->Unwatch(tx, bug, ada); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(bool watching, f.reads->IsWatching(c, bug, ada));
    CHECK_FALSE(watching);
    SV_ASSIGN_OR_RETURN(auto watchers, f.triage->ActiveWatchers(c, kOrg, bug));
    REQUIRE(watchers.size() == 1);
    CHECK(watchers[0].user_id == bob);
    return Status::Ok();
  });
}

TEST_CASE("triage store: notifications are listed newest first, limited, counted and read per member") {
  Fixture f;
  const std::string ada = f.Person("ada@example.com", kOrg);
  const std::string bob = f.Person("bob@example.com", kOrg);
  const ports::NotificationRow n1 = f.Notification(kOrg, ada, 100);
  const ports::NotificationRow n2 = f.Notification(kOrg, ada, 200);
  const ports::NotificationRow n3 = f.Notification(kOrg, ada, 300);
  const ports::NotificationRow email_only = f.Notification(kOrg, ada, 400, /*in_app=*/false);
  const ports::NotificationRow elsewhere = f.Notification(kOtherOrg, ada, 500);
  const ports::NotificationRow bobs = f.Notification(kOrg, bob, 600);

  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto all, f.triage->ListNotifications(c, kOrg, ada, false, 10));
    REQUIRE(all.size() == 3);
    CHECK(all[0].id == n3.id);
    CHECK(all[1].id == n2.id);
    CHECK(all[2].id == n1.id);
    CHECK(all[0].title == "Title 300");
    CHECK(all[0].type == "comment");
    CHECK_FALSE(all[0].read);
    SV_ASSIGN_OR_RETURN(auto two, f.triage->ListNotifications(c, kOrg, ada, false, 2));
    CHECK(two.size() == 2);
    SV_ASSIGN_OR_RETURN(int64_t unread, f.triage->UnreadCount(c, kOrg, ada));
    CHECK(unread == 3);
    SV_ASSIGN_OR_RETURN(int64_t other_unread, f.triage->UnreadCount(c, kOtherOrg, ada));
    CHECK(other_unread == 1);
    return Status::Ok();
  });

  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool read, f.triage->MarkRead(tx, kOrg, ada, n2.id));
    CHECK(read);
    SV_ASSIGN_OR_RETURN(bool not_hers, f.triage->MarkRead(tx, kOrg, ada, bobs.id));
    CHECK_FALSE(not_hers);
    SV_ASSIGN_OR_RETURN(bool wrong_org, f.triage->MarkRead(tx, kOrg, ada, elsewhere.id));
    CHECK_FALSE(wrong_org);
    SV_ASSIGN_OR_RETURN(bool not_in_app, f.triage->MarkRead(tx, kOrg, ada, email_only.id));
    CHECK_FALSE(not_in_app);
    SV_ASSIGN_OR_RETURN(bool missing, f.triage->MarkRead(tx, kOrg, ada, f.Id()));
    CHECK_FALSE(missing);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto unread, f.triage->ListNotifications(c, kOrg, ada, true, 10));
    REQUIRE(unread.size() == 2);
    CHECK(unread[0].id == n3.id);
    CHECK(unread[1].id == n1.id);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) { return f.triage->MarkAllRead(tx, kOrg, ada); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t unread, f.triage->UnreadCount(c, kOrg, ada));
    CHECK(unread == 0);
    SV_ASSIGN_OR_RETURN(int64_t elsewhere_unread, f.triage->UnreadCount(c, kOtherOrg, ada));
    CHECK(elsewhere_unread == 1);
    SV_ASSIGN_OR_RETURN(int64_t bob_unread, f.triage->UnreadCount(c, kOrg, bob));
    CHECK(bob_unread == 1);
    return Status::Ok();
  });
}

TEST_CASE("triage store: preferences are saved per organization, digests are taken once, oldest first") {
  Fixture f;
  const std::string ada = f.Person("ada@example.com", kOrg);
  const std::string bob = f.Person("bob@example.com", kOrg);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto none, f.triage->FindPreferences(c, kOrg, ada));
    CHECK_FALSE(none);
    return Status::Ok();
  });
  ports::NotificationPreferences p;
  p.user_id = ada;
  p.org_id = kOrg;
  p.email_level = "digest";
  p.chat_enabled = true;
  p.chat_webhook = "https://chat.example.com/hook";
  p.in_app_enabled = false;
  p.digest_freq = "daily";
  p.updated_at = 10;
  f.Write([&](Connection& tx) { return f.triage->SavePreferences(tx, p); });
  p.email_level = "off";  // saved again: replaced
  p.updated_at = 20;
  f.Write([&](Connection& tx) { return f.triage->SavePreferences(tx, p); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto got, f.triage->FindPreferences(c, kOrg, ada));
    REQUIRE(got);
    CHECK(got->email_level == "off");
    CHECK(got->chat_enabled);
    CHECK(got->chat_webhook == p.chat_webhook);
    CHECK_FALSE(got->in_app_enabled);
    CHECK(got->digest_freq == "daily");
    CHECK(got->updated_at == 20);
    SV_ASSIGN_OR_RETURN(auto other_org, f.triage->FindPreferences(c, kOtherOrg, ada));
    CHECK_FALSE(other_org);
    return Status::Ok();
  });

  const ports::NotificationRow a2 = f.Notification(kOrg, ada, 300, true, true);
  const ports::NotificationRow a1 = f.Notification(kOrg, ada, 100, true, true);
  f.Notification(kOrg, bob, 200, true, true);
  f.Notification(kOrg, bob, 50, true, false);  // not waiting
  // An alert held by quiet hours until 1000: no digest takes it before.
  const ports::NotificationRow held = f.Notification(kOrg, ada, 20, false, true, std::nullopt, 1000);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto owners, f.triage->DigestOwners(c, 500, 10));
    REQUIRE(owners.size() == 2);
    CHECK(owners[0].user_id == ada);  // the oldest waiting item first
    CHECK(owners[0].org_id == kOrg);
    CHECK(owners[0].oldest_at == 100);
    CHECK(owners[1].user_id == bob);
    CHECK(owners[1].oldest_at == 200);
    SV_ASSIGN_OR_RETURN(auto one, f.triage->DigestOwners(c, 500, 1));
    CHECK(one.size() == 1);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto taken, f.triage->TakeDigest(tx, kOrg, ada, 500));
    REQUIRE(taken.size() == 2);
    CHECK(taken[0].id == a1.id);
    CHECK(taken[1].id == a2.id);
    SV_ASSIGN_OR_RETURN(auto again, f.triage->TakeDigest(tx, kOrg, ada, 500));
    CHECK(again.empty());
    SV_ASSIGN_OR_RETURN(auto other_org, f.triage->TakeDigest(tx, kOtherOrg, bob, 500));
    CHECK(other_org.empty());
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto owners, f.triage->DigestOwners(c, 500, 10));
    REQUIRE(owners.size() == 1);
    CHECK(owners[0].user_id == bob);
    SV_ASSIGN_OR_RETURN(auto later, f.triage->DigestOwners(c, 1000, 10));
    REQUIRE(later.size() == 2);
    CHECK(later[0].user_id == ada);  // the held alert, now deliverable
    CHECK(later[0].oldest_at == 20);
    return Status::Ok();
  });
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto taken, f.triage->TakeDigest(tx, kOrg, ada, 1000));
    REQUIRE(taken.size() == 1);
    CHECK(taken[0].id == held.id);
    CHECK(taken[0].deliver_at == 1000);
    CHECK(taken[0].type == held.type);
    return Status::Ok();
  });
}

TEST_CASE("triage store: alert recipients are the active members with their preferences or the defaults") {
  Fixture f;
  const std::string ada = f.Person("ada@example.com", kOrg);
  const std::string bob = f.Person("bob@example.com", kOrg);
  f.Person("cy@example.com", kOtherOrg);
  ports::NotificationPreferences p;
  p.user_id = bob;
  p.org_id = kOrg;
  p.email_level = "digest";
  p.digest_freq = "daily";
  p.updated_at = 5;
  f.Write([&](Connection& tx) { return f.triage->SavePreferences(tx, p); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto recipients, f.triage->AlertRecipients(c, kOrg));
    REQUIRE(recipients.size() == 2);
    CHECK(recipients[0].member.user_id == ada);
    CHECK(recipients[0].member.email == "ada@example.com");
    CHECK(recipients[0].prefs.email_level == "full");  // no saved preferences: the defaults
    CHECK(recipients[0].prefs.digest_freq == "realtime");
    CHECK(recipients[1].member.user_id == bob);
    CHECK(recipients[1].prefs.email_level == "digest");
    CHECK(recipients[1].prefs.digest_freq == "daily");
    return Status::Ok();
  });
}

TEST_CASE("triage store: the activity feed merges comments, status changes and new bugs, newest first") {
  Fixture f;
  const std::string ada = f.Person("ada@example.com", kOrg);
  const std::string bug = f.Bug("", 1000);  // created_at: the fixture's bug creation time
  const std::string other_bug = [&] {
    Fixture::BugSpec s;
    s.org = kOtherOrg;
    s.project = kOtherProject;
    return f.Bug(s);
  }();
  const int64_t created = f.Int("SELECT created_at FROM bugs WHERE id = ?", {bug});
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(
        f.triage->AddComment(tx, ports::CommentRow{f.Id(), bug, kOrg, ada, "hello", created + 10}));
    SV_RETURN_IF_ERROR(f.triage->AddHistory(
        tx, ports::HistoryEntry{f.Id(), bug, kOrg, "new", "resolved", std::nullopt, ada, created + 20}));
    return f.triage->AddComment(
        tx, ports::CommentRow{f.Id(), other_bug, kOtherOrg, ada, "elsewhere", created + 30});
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto feed, f.triage->Activity(c, kOrg, 10));
    REQUIRE(feed.size() == 3);
    CHECK(feed[0].type == "status_change");
    CHECK(feed[0].detail == "resolved");
    CHECK(feed[0].old_status == std::optional<std::string>("new"));
    CHECK(feed[0].actor_email == std::optional<std::string>("ada@example.com"));
    CHECK(feed[0].bug_title == "A bug");
    CHECK(feed[1].type == "comment");
    CHECK(feed[1].detail == "hello");
    CHECK(feed[2].type == "new_bug");
    CHECK(feed[2].bug_id == bug);
    CHECK(feed[2].detail == "medium");
    SV_ASSIGN_OR_RETURN(auto limited, f.triage->Activity(c, kOrg, 2));
    CHECK(limited.size() == 2);
    return Status::Ok();
  });
}

TEST_CASE("triage store: the deletion hooks remove member, account and organization rows") {
  Fixture f;
  const std::string ada = f.Person("ada@example.com", kOrg);
  const std::string bob = f.Person("bob@example.com", kOrg);
  const std::string bug = f.Bug();
  auto seed = [&](const std::string& user) {
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(f.triage->Watch(tx, kOrg, bug, user, 10).status());
      SV_RETURN_IF_ERROR(f.triage->AddComment(tx, ports::CommentRow{f.Id(), bug, kOrg, user, "c", 10}));
      SV_RETURN_IF_ERROR(f.triage->AddHistory(
          tx, ports::HistoryEntry{f.Id(), bug, kOrg, "new", "open", std::nullopt, user, 10}));
      ports::NotificationPreferences p;
      p.user_id = user;
      p.org_id = kOrg;
      p.updated_at = 10;
      SV_RETURN_IF_ERROR(f.triage->SavePreferences(tx, p));
      ports::BugChange assign;
      assign.assigned_to = std::optional<std::string>(user);
      return f.writes->Apply(tx, bug, assign, 10);
    });
    f.Notification(kOrg, user, 10);
  };

  // A member leaving: preferences and watches go, the assignment is cleared.
  seed(ada);
  f.Write([&](Connection& tx) { return f.triage->DeleteMemberRows(tx, kOrg, ada); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto prefs, f.triage->FindPreferences(c, kOrg, ada));
    CHECK_FALSE(prefs);
    SV_ASSIGN_OR_RETURN(bool watching, f.reads->IsWatching(c, bug, ada));
    CHECK_FALSE(watching);
    SV_ASSIGN_OR_RETURN(auto state, f.writes->Existing(c, kOrg, {bug}));
    CHECK(state.size() == 1);
    SV_ASSIGN_OR_RETURN(auto comments, f.reads->Comments(c, bug));
    CHECK(comments.size() == 1);  // comments stay
    return Status::Ok();
  });
  CHECK(f.Text("SELECT assigned_to FROM bugs WHERE id = ?", {bug}).empty());

  // An account deleted: its comments, notifications, preferences and watches go;
  // history keeps its rows without naming it.
  seed(bob);
  f.Write([&](Connection& tx) { return f.triage->DeleteAccountRows(tx, bob); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto comments, f.reads->Comments(c, bug));
    REQUIRE(comments.size() == 1);
    CHECK(comments[0].user_id == ada);
    SV_ASSIGN_OR_RETURN(int64_t unread, f.triage->UnreadCount(c, kOrg, bob));
    CHECK(unread == 0);
    SV_ASSIGN_OR_RETURN(auto prefs, f.triage->FindPreferences(c, kOrg, bob));
    CHECK_FALSE(prefs);
    SV_ASSIGN_OR_RETURN(bool watching, f.reads->IsWatching(c, bug, bob));
    CHECK_FALSE(watching);
    SV_ASSIGN_OR_RETURN(auto history, f.reads->History(c, bug));
    CHECK(history.size() == 2);
    return Status::Ok();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM status_history WHERE changed_by = ?", {bob}) == 0);
  CHECK(f.Text("SELECT assigned_to FROM bugs WHERE id = ?", {bug}).empty());

  // The organization's notifications and preferences go.
  ports::NotificationPreferences p;
  p.user_id = ada;
  p.org_id = kOrg;
  f.Write([&](Connection& tx) { return f.triage->SavePreferences(tx, p); });
  f.Notification(kOtherOrg, ada, 20);
  f.Write([&](Connection& tx) { return f.triage->DeleteOrganizationRows(tx, kOrg); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto prefs, f.triage->FindPreferences(c, kOrg, ada));
    CHECK_FALSE(prefs);
    SV_ASSIGN_OR_RETURN(int64_t unread, f.triage->UnreadCount(c, kOrg, ada));
    CHECK(unread == 0);
    SV_ASSIGN_OR_RETURN(int64_t elsewhere, f.triage->UnreadCount(c, kOtherOrg, ada));
    CHECK(elsewhere == 1);
    return Status::Ok();
  });
}

TEST_CASE("triage store: a bug is locked, changed and its status set only in its organization") {
  Fixture f;
  {  // a bug is locked and changed only in its organization
    const std::string ada = f.Person("ada@example.com", kOrg);
    const std::string bug = f.Bug();
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto other_org, f.writes->Lock(tx, kOtherOrg, bug, 10));
      CHECK_FALSE(other_org);
      SV_ASSIGN_OR_RETURN(auto missing, f.writes->Lock(tx, kOrg, f.Id(), 10));
      CHECK_FALSE(missing);
      SV_ASSIGN_OR_RETURN(auto state, f.writes->Lock(tx, kOrg, bug, 10));
      REQUIRE(state);
      CHECK(state->id == bug);
      CHECK(state->org_id == kOrg);
      CHECK(state->project_id == kProject);
      CHECK(state->title == "A bug");
      CHECK(state->severity == "medium");
      CHECK(state->status == "new");
      CHECK(state->signal_class == "issue");
      CHECK_FALSE(state->assigned_to);
      CHECK_FALSE(state->is_regression);
      return Status::Ok();
    });

    struct Step {
      ports::BugChange change;
      std::string status, severity, assignee;
      bool regression, resolved;
    };
    ports::BugChange resolve;
    resolve.status = "resolved";
    resolve.severity = "high";
    resolve.assigned_to = std::optional<std::string>(ada);
    ports::BugChange reopen;
    reopen.status = "open";
    reopen.mark_regression = true;
    ports::BugChange unassign;
    unassign.assigned_to = std::optional<std::string>();
    for (const Step& s :
         {Step{resolve, "resolved", "high", ada, false, true}, Step{reopen, "open", "high", ada, true, false},
          Step{unassign, "open", "high", "", true, false}}) {
      CAPTURE(s.status);
      f.Write([&](Connection& tx) -> Status {
        SV_RETURN_IF_ERROR(f.writes->Apply(tx, bug, s.change, 5000));
        SV_ASSIGN_OR_RETURN(auto state, f.writes->Lock(tx, kOrg, bug, 5000));
        REQUIRE(state);
        CHECK(state->status == s.status);
        CHECK(state->severity == s.severity);
        CHECK(state->assigned_to.value_or("") == s.assignee);
        CHECK(state->is_regression == s.regression);
        return Status::Ok();
      });
      CHECK((f.Int("SELECT resolved_at FROM bugs WHERE id = ?", {bug}) == 5000) == s.resolved);
    }
  }
  {  // the status write returns the previous status, only in the bug's organization
    const std::string bug = f.Bug();
    struct Step {
      const char* org;
      const char* status;
      std::optional<std::string> previous;
      int64_t resolved_at;  // -1: NULL
    };
    for (const Step& s : {Step{kOtherOrg, "resolved", std::nullopt, -1}, Step{kOrg, "resolved", "new", 700},
                          Step{kOrg, "open", "resolved", -1}}) {
      CAPTURE(s.status);
      f.Write([&](Connection& tx) -> Status {
        SV_ASSIGN_OR_RETURN(auto previous, f.status->SetStatus(tx, s.org, bug, s.status, 700));
        CHECK(previous == s.previous);
        return Status::Ok();
      });
      CHECK(f.Int("SELECT COALESCE(resolved_at, -1) FROM bugs WHERE id = ?", {bug}) == s.resolved_at);
    }
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto missing, f.status->SetStatus(tx, kOrg, f.Id(), "open", 800));
      CHECK_FALSE(missing);
      return Status::Ok();
    });
  }
}

TEST_CASE("triage store: selections of bugs and group members skip other organizations and merged bugs") {
  Fixture f;
  const std::string a1 = f.Bug("g-a", 1000);
  const std::string a2 = f.Bug("g-a", 2000);
  const std::string b1 = f.Bug("g-b", 1500);
  const std::string a_p2 = [&] {
    Fixture::BugSpec s;
    s.project = kProject2;
    s.group_key = "g-a";
    return f.Bug(s);
  }();
  const std::string foreign = [&] {
    Fixture::BugSpec s;
    s.org = kOtherOrg;
    s.project = kOtherProject;
    s.group_key = "g-a";
    return f.Bug(s);
  }();
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto existing, f.writes->Existing(c, kOrg, {a1, foreign, f.Id(), b1}));
    CHECK(Sorted(existing) == Sorted({a1, b1}));
    SV_ASSIGN_OR_RETURN(auto none, f.writes->Existing(c, kOrg, {}));
    CHECK(none.empty());
    SV_ASSIGN_OR_RETURN(auto members, f.writes->GroupMembers(c, kOrg, kProject, "g-a"));
    CHECK(Sorted(members) == Sorted({a1, a2}));
    SV_ASSIGN_OR_RETURN(auto cross, f.writes->GroupMembers(c, kOtherOrg, kProject, "g-a"));
    CHECK(cross.empty());
    SV_ASSIGN_OR_RETURN(auto projects, f.writes->GroupProjects(c, kOrg, "g-a"));
    CHECK(Sorted(projects) == Sorted({kProject, kProject2}));
    SV_ASSIGN_OR_RETURN(bool in, f.writes->ProjectInOrg(c, kOrg, kProject2));
    CHECK(in);
    SV_ASSIGN_OR_RETURN(bool out, f.writes->ProjectInOrg(c, kOrg, kOtherProject));
    CHECK_FALSE(out);
    return Status::Ok();
  });
  (void)a_p2;

  // Merge: the sources disappear from every selection, the target adds
  // their reports and widens its seen span.
  const std::string user = f.Person("ada@example.com", kOrg);
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.triage->AddComment(tx, ports::CommentRow{f.Id(), a2, kOrg, user, "on a2", 10}));
    return f.writes->Merge(tx, a1, {a2, b1}, 9000);
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto existing, f.writes->Existing(c, kOrg, {a1, a2, b1}));
    CHECK(existing == std::vector<std::string>{a1});
    SV_ASSIGN_OR_RETURN(auto members, f.writes->GroupMembers(c, kOrg, kProject, "g-a"));
    CHECK(members == std::vector<std::string>{a1});
    SV_ASSIGN_OR_RETURN(auto comments, f.reads->Comments(c, a1));
    REQUIRE(comments.size() == 1);
    CHECK(comments[0].content == "on a2");
    return Status::Ok();
  });
  CHECK(f.Int("SELECT report_count FROM bugs WHERE id = ?", {a1}) == 3);
  CHECK(f.Int("SELECT first_seen FROM bugs WHERE id = ?", {a1}) == 1000);
  CHECK(f.Int("SELECT last_seen FROM bugs WHERE id = ?", {a1}) == 2000);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto merged, f.writes->Lock(tx, kOrg, a2, 9100));
    CHECK_FALSE(merged);
    return Status::Ok();
  });

  // Delete: the bug and its rows go.
  f.Notification(kOrg, user, 20, true, false, a1);
  f.Write([&](Connection& tx) { return f.writes->Delete(tx, a1); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto existing, f.writes->Existing(c, kOrg, {a1}));
    CHECK(existing.empty());
    SV_ASSIGN_OR_RETURN(auto comments, f.reads->Comments(c, a1));
    CHECK(comments.empty());
    SV_ASSIGN_OR_RETURN(int64_t unread, f.triage->UnreadCount(c, kOrg, user));
    CHECK(unread == 0);
    return Status::Ok();
  });
}

TEST_CASE("triage store: duplicate peers are open bugs outside the group, proposals are written once") {
  Fixture f;
  Fixture::BugSpec s;
  s.group_key = "g-self";
  s.identity = "id-1";
  s.at = 1000;
  const std::string self = f.Bug(s);
  s.group_key = "g-same-identity";
  s.at = 500;  // the oldest: found by its identity, not by recency
  const std::string same_identity = f.Bug(s);
  s.identity = "";
  s.group_key = "g-recent";
  s.at = 3000;
  const std::string recent = f.Bug(s);
  s.group_key = "g-resolved";
  s.at = 4000;
  const std::string resolved = f.Bug(s);
  s.group_key = "g-self";
  s.at = 5000;
  f.Bug(s);  // the same group: never a peer
  s.group_key = "g-older";
  s.at = 2000;
  const std::string older = f.Bug(s);
  s.project = kProject2;
  s.group_key = "g-elsewhere";
  s.at = 6000;
  f.Bug(s);  // another project
  f.Write([&](Connection& tx) { return f.status->SetStatus(tx, kOrg, resolved, "resolved", 10).status(); });

  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto peers, f.duplicates->Peers(c, kProject, "g-self", "id-1", 1));
    std::vector<std::string> ids;
    for (const auto& p : peers) ids.push_back(p.bug_id);
    CHECK(Sorted(ids) == Sorted({same_identity, recent}));
    for (const auto& p : peers) {
      if (p.bug_id == same_identity) {
        CHECK(p.identity_hash == "id-1");
        CHECK(p.group_key == "g-same-identity");
      } else {
        CHECK(p.identity_hash.empty());
        CHECK(p.group_key == "g-recent");
      }
    }
    SV_ASSIGN_OR_RETURN(auto by_recency, f.duplicates->Peers(c, kProject, "g-self", "", 3));
    ids.clear();
    for (const auto& p : by_recency) ids.push_back(p.bug_id);
    CHECK(ids == std::vector<std::string>{recent, older, same_identity});
    return Status::Ok();
  });

  const std::string proposal = f.Id();
  f.Write([&](Connection& tx) {
    return f.duplicates->Insert(tx, kOrg, self, {{proposal, recent, 80, "same frames", "high", "v3"}}, 100);
  });
  f.Write([&](Connection& tx) {  // the same pair again: left as it is
    return f.duplicates->Insert(tx, kOrg, self, {{f.Id(), recent, 10, "other", "low", "v3"}}, 200);
  });
  f.Write([&](Connection& tx) {
    return f.duplicates->Insert(tx, kOrg, self, {{f.Id(), older, 60, "near", "medium", "v3"}}, 300);
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto candidates, f.reads->DuplicateCandidates(c, self, 10));
    REQUIRE(candidates.size() == 2);
    CHECK(candidates[0].id == proposal);  // highest score first
    CHECK(candidates[0].other_bug_id == recent);
    CHECK(candidates[0].score == 80);
    CHECK(candidates[0].reason == "same frames");
    CHECK(candidates[0].confidence == "high");
    CHECK(candidates[0].algorithm_version == "v3");
    CHECK(candidates[0].state == "open");
    CHECK(candidates[0].created_at == 100);
    CHECK(candidates[1].other_bug_id == older);
    // Named on the other side too.
    SV_ASSIGN_OR_RETURN(auto from_other, f.reads->DuplicateCandidates(c, recent, 10));
    REQUIRE(from_other.size() == 1);
    CHECK(from_other[0].other_bug_id == self);
    SV_ASSIGN_OR_RETURN(auto limited, f.reads->DuplicateCandidates(c, self, 1));
    CHECK(limited.size() == 1);
    return Status::Ok();
  });
}

}  // namespace service::store
