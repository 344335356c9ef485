// Contract tests of the triage reads on both backends, through their
// interfaces (ports/bug_read_repository.h, bug_insight_repository.h): each
// method's main promise (filters, orderings, limits, aggregates) over a
// few bugs written the way capture writes them, and organization scoping:
// another organization's bugs, groups, occurrences and end users never
// appear. The kept aggregates themselves are read_aggregates_test.cpp's.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/bugs/ports/bug_insight_repository.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/bugs/store/repositories.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "areas/capture/store/repositories.h"
#include "areas/triage/ports/bug_status_repository.h"
#include "areas/triage/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;
constexpr int64_t kHour = 3'600'000;

// One report: a new bug with its occurrence, participants and end user.
struct Seen {
  std::string org = kOrg;
  std::string project = kProject;
  std::string group;
  std::string title;
  std::string severity = "medium";
  std::string fingerprint;
  std::string user;  // userKey
  std::string session;
  std::string reporter;  // email
  int64_t at = 0;
  std::string events_json;
};

struct Reported {
  std::string bug;
  std::string occurrence;
};

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::BugReadRepository> reads = NewSqlBugReadRepository();
  std::unique_ptr<ports::BugInsightRepository> insights = NewSqlBugInsightRepository();
  std::unique_ptr<ports::CaptureBugRepository> bugs = NewSqlCaptureBugRepository();

  // Bugs of the organization: a and b share group g1, c is alone in g2;
  // x is another organization's, in a group also named g1.
  Reported a, b, c, x;

  Fixture() : StoreFixture({kProject}) {
    AddOtherOrganization();
    a = Report({.group = "g1",
                .title = "Checkout fails",
                .severity = "high",
                .fingerprint = "abcd000000000001",
                .user = "alice",
                .session = "s1",
                .reporter = "alice@example.com",
                .at = 1 * kHour,
                .events_json = R"([{"type":"click","timestamp":1,"data":{}}])"});
    b = Report({.group = "g1",
                .title = "Checkout broken",
                .fingerprint = "abcd000000000002",
                .user = "alice",
                .session = "s2",
                .reporter = "alice@example.com",
                .at = 2 * kHour});
    c = Report({.group = "g2",
                .title = "Login slow",
                .severity = "low",
                .fingerprint = "ffff000000000003",
                .user = "bob",
                .session = "s3",
                .reporter = "bob@example.com",
                .at = 3 * kHour});
    x = Report({.org = kOtherOrg,
                .project = kOtherProject,
                .group = "g1",
                .title = "Checkout fails",
                .fingerprint = "abcd000000000009",
                .user = "alice",
                .session = "s9",
                .reporter = "alice@example.com",
                .at = 4 * kHour});
  }

  Reported Report(const Seen& s) {
    ports::BugReportWrite w;
    w.org_id = s.org;
    w.project_id = s.project;
    w.key_env = "live";
    w.fingerprint = s.fingerprint;
    w.new_bug_id = Id();
    w.occurrence_id = Id();
    w.signature_hash = s.group;
    w.title = s.title;
    w.severity = s.severity;
    w.platform = "web";
    w.signal_class = "issue";
    w.seen_at = s.at;
    ports::Occurrence o;
    o.id = w.occurrence_id;
    o.bug_id = w.new_bug_id;
    o.project_id = s.project;
    o.org_id = s.org;
    o.reporter_email = s.reporter;
    o.session_id = s.session;
    o.end_user_id = s.user;
    o.user_key = s.user;
    o.user_kind = "user";
    o.platform = "web";
    o.event_count = s.events_json.empty() ? 0 : 1;
    o.occurred_at = s.at;
    o.created_at = s.at;
    o.events_json = s.events_json;
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(bugs->Create(tx, w).status());
      SV_RETURN_IF_ERROR(NewSqlOccurrenceRepository()->Insert(tx, {&o}));
      SV_RETURN_IF_ERROR(bugs->AddParticipants(tx, {{w.new_bug_id, s.user, s.session, s.reporter, s.at}}));
      return NewSqlEndUserRepository()->Touch(
          tx, {{s.org, s.user, "user", s.user, s.reporter, "web", std::nullopt, std::nullopt, o.id, s.at}});
    });
    return {w.new_bug_id, o.id};
  }

  void SetStatus(const std::string& bug, const std::string& status, int64_t at) {
    Write([&](Connection& tx) {
      return NewSqlBugStatusRepository()->SetStatus(tx, kOrg, bug, status, at).status();
    });
  }
};

std::vector<std::string> Ids(const std::vector<ports::BugRecord>& bugs) {
  std::vector<std::string> out;
  for (const auto& b : bugs) out.push_back(b.id);
  return out;
}

}  // namespace

TEST_CASE("bug reads: the list and the groups are ordered, filtered, paged and scoped to the organization") {
  Fixture f;
  {  // the list is last seen first, filtered, paged and scoped to the organization
    f.Read([&](Connection& c) -> Status {
      ports::BugFilter all;
      all.org_id = kOrg;
      SV_ASSIGN_OR_RETURN(auto page, f.reads->List(c, all, 10, 0));
      CHECK(Ids(page.bugs) == std::vector<std::string>{f.c.bug, f.b.bug, f.a.bug});
      CHECK(page.total == 3);
      SV_ASSIGN_OR_RETURN(auto second, f.reads->List(c, all, 1, 1));
      CHECK(Ids(second.bugs) == std::vector<std::string>{f.b.bug});
      CHECK(second.total == 3);

      ports::BugFilter high = all;
      high.severity = "high";
      SV_ASSIGN_OR_RETURN(auto highs, f.reads->List(c, high, 10, 0));
      CHECK(Ids(highs.bugs) == std::vector<std::string>{f.a.bug});
      CHECK(highs.total == 1);
      ports::BugFilter search = all;
      search.search = "CHECKOUT";
      SV_ASSIGN_OR_RETURN(auto found, f.reads->List(c, search, 10, 0));
      CHECK(Ids(found.bugs) == std::vector<std::string>{f.b.bug, f.a.bug});

      ports::BugFilter other;
      other.org_id = kOtherOrg;
      SV_ASSIGN_OR_RETURN(auto theirs, f.reads->List(c, other, 10, 0));
      CHECK(Ids(theirs.bugs) == std::vector<std::string>{f.x.bug});
      ports::BugFilter cross = all;
      cross.project_id = kOtherProject;
      SV_ASSIGN_OR_RETURN(auto none, f.reads->List(c, cross, 10, 0));
      CHECK(none.bugs.empty());
      CHECK(none.total == 0);

      SV_ASSIGN_OR_RETURN(auto bug, f.reads->Find(c, kOrg, f.a.bug));
      REQUIRE(bug);
      CHECK(bug->title == "Checkout fails");
      CHECK(bug->project_id == kProject);
      CHECK(bug->project_name == kProject);  // the fixture names projects by id
      CHECK(bug->group_key == "g1");
      CHECK(bug->severity == "high");
      CHECK(bug->status == "new");
      CHECK(bug->first_seen == 1 * kHour);
      CHECK(bug->report_count == 1);
      CHECK(bug->affected_user_count == 1);
      CHECK(bug->reporter_count == 1);
      SV_ASSIGN_OR_RETURN(auto cross_find, f.reads->Find(c, kOtherOrg, f.a.bug));
      CHECK_FALSE(cross_find);
      return Status::Ok();
    });
  }
  {  // groups, their projects and instances stay in the organization
    f.Read([&](Connection& c) -> Status {
      ports::BugFilter all;
      all.org_id = kOrg;
      SV_ASSIGN_OR_RETURN(auto page, f.reads->Groups(c, all, ports::GroupSort::kLastSeen, true, 10, 0));
      CHECK(page.total == 2);
      REQUIRE(page.groups.size() == 2);
      CHECK(page.groups[0].group_key == "g2");
      const ports::GroupRecord& g1 = page.groups[1];
      CHECK(g1.group_key == "g1");
      CHECK(g1.instance_count == 2);
      CHECK(g1.sample_bug_id == f.b.bug);  // the most recently seen member
      CHECK(g1.member_ids == (f.a.bug < f.b.bug ? std::vector<std::string>{f.a.bug, f.b.bug}
                                                : std::vector<std::string>{f.b.bug, f.a.bug}));
      CHECK(g1.report_count == 2);
      CHECK(g1.first_seen == 1 * kHour);
      CHECK(g1.last_seen == 2 * kHour);
      CHECK(g1.session_count == 2);
      CHECK(g1.user_count == 1);
      SV_ASSIGN_OR_RETURN(auto limited, f.reads->Groups(c, all, ports::GroupSort::kLastSeen, true, 1, 0));
      REQUIRE(limited.groups.size() == 1);
      CHECK(limited.total == 2);
      SV_ASSIGN_OR_RETURN(auto ascending,
                          f.reads->Groups(c, all, ports::GroupSort::kFirstSeen, false, 10, 0));
      REQUIRE(ascending.groups.size() == 2);
      CHECK(ascending.groups[0].group_key == "g1");

      SV_ASSIGN_OR_RETURN(auto projects, f.reads->GroupProjects(c, kOrg, "g1"));
      CHECK(projects == std::vector<std::string>{kProject});
      SV_ASSIGN_OR_RETURN(auto theirs, f.reads->GroupProjects(c, kOtherOrg, "g1"));
      CHECK(theirs == std::vector<std::string>{kOtherProject});
      SV_ASSIGN_OR_RETURN(auto members, f.reads->GroupInstances(c, kOrg, kProject, "g1", 10, 0));
      CHECK(Ids(members.bugs) == std::vector<std::string>{f.b.bug, f.a.bug});
      CHECK(members.total == 2);
      SV_ASSIGN_OR_RETURN(auto cross, f.reads->GroupInstances(c, kOtherOrg, kProject, "g1", 10, 0));
      CHECK(cross.bugs.empty());
      return Status::Ok();
    });
  }
}

TEST_CASE("bug reads: reporters, events and watchers of one bug") {
  Fixture f;
  // A second report of a by bob (another reporter, another session).
  f.Write([&](Connection& tx) -> Status {
    return f.bugs->AddParticipants(
        tx, {{f.a.bug, "bob", std::string("s3"), std::string("bob@example.com"), 5000},
             {f.a.bug, "bob", std::string("s3"), std::string("bob@example.com"), 6000}});
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto reporters, f.reads->Reporters(c, f.a.bug, 10));
    REQUIRE(reporters.size() == 2);
    CHECK(reporters[0].email == "bob@example.com");  // most reports first
    CHECK(reporters[0].report_count == 2);
    CHECK(reporters[1].email == "alice@example.com");
    SV_ASSIGN_OR_RETURN(auto one, f.reads->Reporters(c, f.a.bug, 1));
    CHECK(one.size() == 1);

    SV_ASSIGN_OR_RETURN(auto events, f.reads->Events(c, f.a.bug, std::nullopt, 10));
    REQUIRE(events.size() == 1);
    CHECK(events[0].occurrence_id == f.a.occurrence);
    CHECK(events[0].occurred_at == 1 * kHour);
    CHECK(events[0].events_json.find("click") != std::string::npos);
    SV_ASSIGN_OR_RETURN(auto narrowed, f.reads->Events(c, f.a.bug, f.b.occurrence, 10));
    CHECK(narrowed.empty());  // b's occurrence is not a's
    SV_ASSIGN_OR_RETURN(bool watching, f.reads->IsWatching(c, f.a.bug, f.Id()));
    CHECK_FALSE(watching);
    return Status::Ok();
  });
}

TEST_CASE("bug insights: days, top open bugs and time to resolve, per organization") {
  Fixture f;
  f.SetStatus(f.c.bug, "resolved", 3 * kHour + 2 * kHour);  // two hours after first seen
  f.Read([&](Connection& c) -> Status {
    const ports::BugScope scope{kOrg, std::nullopt, "all"};
    SV_ASSIGN_OR_RETURN(auto days, f.insights->BugDays(c, scope, 0, 1));
    int64_t n = 0, reports = 0, resolved = 0;
    for (const auto& d : days) {
      CHECK(d.day == 0);
      n += d.n;
      reports += d.reports;
      resolved += d.resolved_n;
    }
    CHECK(n == 3);
    CHECK(reports == 3);
    CHECK(resolved == 1);
    SV_ASSIGN_OR_RETURN(auto later, f.insights->BugDays(c, scope, 1, 2));
    int64_t later_n = 0;
    for (const auto& d : later) later_n += d.n;
    CHECK(later_n == 0);

    SV_ASSIGN_OR_RETURN(auto occurrences, f.insights->OccurrenceDays(c, scope, 0, 2));
    REQUIRE(occurrences.size() == 1);
    CHECK(occurrences[0] == std::pair<int64_t, int64_t>{0, 3});

    SV_ASSIGN_OR_RETURN(auto top, f.insights->TopOpen(c, scope, 0, 10 * kHour, 10));
    REQUIRE(top.size() == 2);     // c is resolved
    CHECK(top[0].id == f.b.bug);  // equal reports: last seen first
    CHECK(top[1].id == f.a.bug);
    SV_ASSIGN_OR_RETURN(auto window, f.insights->TopOpen(c, scope, 0, 2 * kHour, 10));
    REQUIRE(window.size() == 1);
    CHECK(window[0].id == f.a.bug);

    SV_ASSIGN_OR_RETURN(auto mttr, f.insights->MeanTimeToResolve(c, scope, 0, 1));
    REQUIRE(mttr);
    CHECK(*mttr == doctest::Approx(2.0));
    const ports::BugScope other{kOtherOrg, std::nullopt, "all"};
    SV_ASSIGN_OR_RETURN(auto other_mttr, f.insights->MeanTimeToResolve(c, other, 0, 1));
    CHECK_FALSE(other_mttr);
    SV_ASSIGN_OR_RETURN(auto other_top, f.insights->TopOpen(c, other, 0, 10 * kHour, 10));
    REQUIRE(other_top.size() == 1);
    CHECK(other_top[0].id == f.x.bug);
    return Status::Ok();
  });
}

TEST_CASE("bug insights: recommended groups, the live feed and export pages stay in the organization") {
  Fixture f;
  {  // recommended groups and the live feed stay in the organization
    f.Read([&](Connection& c) -> Status {
      ports::RecommendedFilter filter;
      filter.org_id = kOrg;
      SV_ASSIGN_OR_RETURN(auto groups, f.insights->RecommendedGroups(c, filter));
      REQUIRE(groups.size() == 2);
      for (const auto& g : groups) {
        if (g.representative.group_key == "g1") {
          CHECK(g.instance_count == 2);
          CHECK(g.representative.id == f.b.bug);
          CHECK(g.report_total == 2);
          CHECK(g.any_open);
        } else {
          CHECK(g.representative.id == f.c.bug);
        }
      }
      filter.search = "login";
      SV_ASSIGN_OR_RETURN(auto login, f.insights->RecommendedGroups(c, filter));
      REQUIRE(login.size() == 1);
      CHECK(login[0].representative.id == f.c.bug);

      const ports::BugScope scope{kOrg, std::nullopt, "all"};
      SV_ASSIGN_OR_RETURN(auto live, f.insights->Live(c, scope, {}, 10));
      REQUIRE(live.size() == 3);
      CHECK(live[0].occurrence.id == f.c.occurrence);  // newest first
      CHECK(live[1].occurrence.id == f.b.occurrence);
      CHECK(live[2].occurrence.id == f.a.occurrence);
      CHECK(live[0].title == "Login slow");
      SV_ASSIGN_OR_RETURN(auto two, f.insights->Live(c, scope, {}, 2));
      CHECK(two.size() == 2);
      return Status::Ok();
    });
  }
  {  // export counts and pages in last seen order from a cursor
    f.Read([&](Connection& c) -> Status {
      ports::ExportFilter filter;
      filter.scope = ports::BugScope{kOrg, std::nullopt, "all"};
      SV_ASSIGN_OR_RETURN(int64_t n, f.insights->ExportCount(c, filter, 100));
      CHECK(n == 3);
      SV_ASSIGN_OR_RETURN(int64_t capped, f.insights->ExportCount(c, filter, 2));
      CHECK(capped == 2);
      SV_ASSIGN_OR_RETURN(auto first, f.insights->ExportPage(c, filter, ports::ExportCursor{}, 2));
      REQUIRE(first.size() == 2);
      CHECK(first[0].id == f.a.bug);
      CHECK(first[1].id == f.b.bug);
      CHECK(first[0].title == "Checkout fails");
      SV_ASSIGN_OR_RETURN(auto position, f.insights->ExportPosition(c, filter, 1));
      REQUIRE(position);
      CHECK(position->id == f.b.bug);
      CHECK(position->last_seen == 2 * kHour);
      SV_ASSIGN_OR_RETURN(auto rest, f.insights->ExportPage(c, filter, *position, 10));
      REQUIRE(rest.size() == 1);
      CHECK(rest[0].id == f.c.bug);
      SV_ASSIGN_OR_RETURN(auto beyond, f.insights->ExportPosition(c, filter, 3));
      CHECK_FALSE(beyond);

      ports::ExportFilter lows = filter;
      lows.severities = {"low"};
      SV_ASSIGN_OR_RETURN(int64_t low_n, f.insights->ExportCount(c, lows, 100));
      CHECK(low_n == 1);
      ports::ExportFilter recent = filter;
      recent.after_ms = 2 * kHour;
      SV_ASSIGN_OR_RETURN(int64_t recent_n, f.insights->ExportCount(c, recent, 100));
      CHECK(recent_n == 1);
      return Status::Ok();
    });
  }
}

TEST_CASE("bug insights: similar bugs, a reporter's bugs and end users, never another organization's") {
  Fixture f;
  {  // similar bugs and a reporter's bugs, never another organization's
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto by_fingerprint,
                          f.insights->SimilarCandidates(c, kOrg, f.a.bug, "abcd000000000001", {}, 10));
      REQUIRE(by_fingerprint.size() == 1);
      CHECK(by_fingerprint[0].id == f.b.bug);  // not a itself, not x
      SV_ASSIGN_OR_RETURN(auto by_word,
                          f.insights->SimilarCandidates(c, kOrg, f.a.bug, "zzzz", {"login"}, 10));
      REQUIRE(by_word.size() == 1);
      CHECK(by_word[0].id == f.c.bug);
      SV_ASSIGN_OR_RETURN(auto both,
                          f.insights->SimilarCandidates(c, kOrg, f.a.bug, "abcd000000000001", {"login"}, 10));
      REQUIRE(both.size() == 2);
      CHECK(both[0].id == f.c.bug);  // most recent first
      SV_ASSIGN_OR_RETURN(auto limited,
                          f.insights->SimilarCandidates(c, kOrg, f.a.bug, "abcd000000000001", {"login"}, 1));
      CHECK(limited.size() == 1);

      SV_ASSIGN_OR_RETURN(auto alice, f.insights->ReporterBugs(c, kOrg, "alice@example.com"));
      REQUIRE(alice.size() == 2);
      CHECK(alice[0].id == f.b.bug);  // latest report first
      CHECK(alice[1].id == f.a.bug);
      CHECK(alice[1].report_count == 1);
      CHECK(alice[1].reported_at == 1 * kHour);
      SV_ASSIGN_OR_RETURN(auto theirs, f.insights->ReporterBugs(c, kOtherOrg, "alice@example.com"));
      REQUIRE(theirs.size() == 1);
      CHECK(theirs[0].id == f.x.bug);
      SV_ASSIGN_OR_RETURN(auto nobody, f.insights->ReporterBugs(c, kOrg, "nobody@example.com"));
      CHECK(nobody.empty());
      return Status::Ok();
    });
  }
  {  // end users, their activity and timelines, a bug's users, per organization
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto found, f.insights->SearchEndUsers(c, kOrg, "ali", 10));
      REQUIRE(found.size() == 1);
      CHECK(found[0].user_key == "alice");
      CHECK(found[0].org_id == kOrg);
      CHECK(found[0].occurrence_count == 2);
      SV_ASSIGN_OR_RETURN(auto everyone, f.insights->SearchEndUsers(c, kOrg, "", 10));
      REQUIRE(everyone.size() == 2);
      CHECK(everyone[0].user_key == "bob");  // latest seen first
      SV_ASSIGN_OR_RETURN(auto by_email, f.insights->SearchEndUsers(c, kOrg, "BOB@", 10));
      REQUIRE(by_email.size() == 1);
      CHECK(by_email[0].user_key == "bob");

      SV_ASSIGN_OR_RETURN(auto activity, f.insights->EndUserActivityOf(c, kOrg, "alice"));
      CHECK(activity.bug_count == 2);
      CHECK(activity.session_count == 2);
      CHECK(activity.emails == std::vector<std::string>{"alice@example.com"});
      SV_ASSIGN_OR_RETURN(auto elsewhere, f.insights->EndUserActivityOf(c, kOtherOrg, "alice"));
      CHECK(elsewhere.bug_count == 1);

      SV_ASSIGN_OR_RETURN(auto timeline, f.insights->UserTimeline(c, kOrg, "alice", std::nullopt, 10, 0));
      REQUIRE(timeline.size() == 2);
      CHECK(timeline[0].occurrence.id == f.b.occurrence);  // newest first
      CHECK(timeline[1].occurrence.id == f.a.occurrence);
      CHECK(timeline[0].title == "Checkout broken");
      SV_ASSIGN_OR_RETURN(auto paged, f.insights->UserTimeline(c, kOrg, "alice", std::nullopt, 1, 1));
      REQUIRE(paged.size() == 1);
      CHECK(paged[0].occurrence.id == f.a.occurrence);
      SV_ASSIGN_OR_RETURN(int64_t count, f.insights->CountUserTimeline(c, kOrg, "alice", std::nullopt));
      CHECK(count == 2);
      SV_ASSIGN_OR_RETURN(int64_t cross, f.insights->CountUserTimeline(c, kOrg, "alice", kOtherProject));
      CHECK(cross == 0);

      SV_ASSIGN_OR_RETURN(auto users, f.insights->BugUsers(c, kOrg, f.a.bug, 10, 0));
      REQUIRE(users.size() == 1);
      CHECK(users[0].user_key == "alice");
      CHECK(users[0].org_id == kOrg);
      // Another organization's id finds none of this bug's users, not even
      // that organization's end users of the same keys.
      SV_ASSIGN_OR_RETURN(auto foreign, f.insights->BugUsers(c, kOtherOrg, f.a.bug, 10, 0));
      CHECK(foreign.empty());
      SV_ASSIGN_OR_RETURN(int64_t n, f.insights->CountBugUsers(c, f.a.bug));
      CHECK(n == 1);
      return Status::Ok();
    });
  }
}

}  // namespace service::store
