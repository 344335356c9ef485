// Contract tests of the capture repositories on both backends: the bug
// upsert and its regression detection, distinct participants, occurrence
// events read back in order, end-user platforms, the monthly bug counter and
// presence snapshots.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <memory>
#include <string>
#include <vector>

#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "areas/capture/ports/presence_repository.h"
#include "areas/capture/store/repositories.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/operations/store/repositories.h"
#include "store/database.h"
#include "store/migrations.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::CaptureBugRepository> bugs = store::NewSqlCaptureBugRepository();
  std::unique_ptr<ports::OccurrenceRepository> occurrences = store::NewSqlOccurrenceRepository();
  std::unique_ptr<ports::EndUserRepository> end_users = store::NewSqlEndUserRepository();
  std::unique_ptr<ports::PresenceRepository> presence = store::NewSqlPresenceRepository();
  std::unique_ptr<ports::UsageRepository> usage = store::NewSqlUsageRepository();

  Fixture() : StoreFixture({kProject}) {}

  static ports::BugKeyReports KeyOf(const ports::BugReportWrite& w, int64_t count = 1) {
    return ports::BugKeyReports{w.project_id, w.key_env,     w.fingerprint,     count,          w.seen_at,
                                w.release,    w.environment, w.ai_summary_json, w.occurrence_id};
  }

  ports::BugReportWrite Report(const std::string& fingerprint, int64_t at) {
    ports::BugReportWrite w;
    w.org_id = kOrg;
    w.project_id = kProject;
    w.key_env = "live";
    w.fingerprint = fingerprint;
    w.new_bug_id = Id();
    w.occurrence_id = Id();
    w.title = "Title " + fingerprint;
    w.severity = "medium";
    w.platform = "web";
    w.signal_class = "issue";
    w.seen_at = at;
    return w;
  }

  // AddReport, else Create; what the ingest does.
  ports::BugAfterReport Add(const ports::BugReportWrite& w) {
    ports::BugAfterReport out;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto found, bugs->AddReports(tx, {KeyOf(w)}));
      if (!found[0]) {
        SV_ASSIGN_OR_RETURN(found[0], bugs->Create(tx, w));
      }
      REQUIRE(found[0]);
      out = *found[0];
      return Status::Ok();
    });
    return out;
  }
};

}  // namespace

TEST_CASE("capture store: a fingerprint creates one bug, later reports add to it") {
  Fixture f;
  ports::BugReportWrite first = f.Report("aaaaaaaaaaaaaaaa", 1000);
  first.release = "1.0";
  ports::BugAfterReport a = f.Add(first);
  CHECK(a.created);
  CHECK_FALSE(a.regression);
  CHECK(a.id == first.new_bug_id);
  CHECK(a.report_count == 1);
  // Participants are counted by AddParticipants, not by Create.
  CHECK(f.Int("SELECT affected_user_count FROM bugs WHERE id = ?", {a.id}) == 0);
  CHECK(f.Int("SELECT reporter_count FROM bugs WHERE id = ?", {a.id}) == 0);

  ports::BugReportWrite second = f.Report("aaaaaaaaaaaaaaaa", 900);  // older receipt: last_seen stays
  ports::BugAfterReport b = f.Add(second);
  CHECK_FALSE(b.created);
  CHECK(b.id == a.id);
  CHECK(b.report_count == 2);
  CHECK(b.title == "Title aaaaaaaaaaaaaaaa");
  CHECK(f.Int("SELECT last_seen FROM bugs WHERE id = ?", {a.id}) == 1000);
  CHECK(f.Text("SELECT latest_release FROM bugs WHERE id = ?", {a.id}) == "1.0");
  CHECK(f.Int("SELECT occurrence_count FROM bugs WHERE id = ?", {a.id}) == 2);

  // Several keys at once, one of them unknown; answers in the keys' order.
  ports::BugReportWrite later = f.Report("aaaaaaaaaaaaaaaa", 5000);
  later.release = "2.0";
  ports::BugReportWrite unknown = f.Report("ffffffffffffffff", 5000);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto answers,
                        f.bugs->AddReports(tx, {Fixture::KeyOf(unknown), Fixture::KeyOf(later, 3)}));
    REQUIRE(answers.size() == 2);
    CHECK_FALSE(answers[0]);
    REQUIRE(answers[1]);
    CHECK(answers[1]->id == a.id);
    CHECK(answers[1]->report_count == 5);
    return Status::Ok();
  });
  CHECK(f.Int("SELECT last_seen FROM bugs WHERE id = ?", {a.id}) == 5000);
  CHECK(f.Text("SELECT latest_release FROM bugs WHERE id = ?", {a.id}) == "2.0");

  // Another namespace, same fingerprint: another bug.
  ports::BugReportWrite test = f.Report("aaaaaaaaaaaaaaaa", 1100);
  test.key_env = "test";
  CHECK(f.Add(test).created);
  // Create refuses a fingerprint that exists (the lost-race answer).
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto again, f.bugs->Create(tx, f.Report("aaaaaaaaaaaaaaaa", 1200)));
    CHECK_FALSE(again);
    return Status::Ok();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM bugs") == 2);
}

TEST_CASE("capture store: a resolved bug reopens once, the answer says which report reopened it") {
  Fixture f;
  ports::BugAfterReport a = f.Add(f.Report("bbbbbbbbbbbbbbbb", 1000));
  f.Write([&](Connection& tx) {
    return tx.Exec("UPDATE bugs SET status = 'resolved', resolved_at = 5 WHERE id = ?", {a.id}).status();
  });
  ports::BugAfterReport r = f.Add(f.Report("bbbbbbbbbbbbbbbb", 2000));
  CHECK(r.regression);
  CHECK(r.is_regression);
  CHECK(r.status == "new");
  CHECK(f.Text("SELECT resolved_at FROM bugs WHERE id = ?", {a.id}).empty());
  ports::BugAfterReport next = f.Add(f.Report("bbbbbbbbbbbbbbbb", 3000));
  CHECK_FALSE(next.regression);
  CHECK(next.is_regression);  // the flag stays
  f.Write([&](Connection& tx) {
    return f.bugs->AddStatusHistory(tx, f.Id(), a.id, kOrg, "resolved", "new", "note", "", 2000);
  });
  CHECK(f.Int("SELECT COUNT(*) FROM status_history WHERE bug_id = ? AND changed_by IS NULL", {a.id}) == 1);
}

TEST_CASE("capture store: distinct participants raise the bug's counts once each") {
  Fixture f;
  ports::BugAfterReport a = f.Add(f.Report("cccccccccccccccc", 1000));
  ports::BugAfterReport b = f.Add(f.Report("dddddddddddddddd", 1000));
  auto add = [&](std::vector<ports::BugParticipants> batch) {
    f.Write([&](Connection& tx) { return f.bugs->AddParticipants(tx, batch); });
  };
  using P = ports::BugParticipants;
  // One batch with repeats of the same participants: each counts once.
  add({P{a.id, "user:1", std::string("s1"), std::string("a@x.io"), 1000},
       P{a.id, "user:1", std::string("s1"), std::string("a@x.io"), 1100},
       P{b.id, "user:1", std::nullopt, std::nullopt, 1000}});
  CHECK(f.Int("SELECT affected_user_count FROM bugs WHERE id = ?", {a.id}) == 1);
  CHECK(f.Int("SELECT affected_session_count FROM bugs WHERE id = ?", {a.id}) == 1);
  CHECK(f.Int("SELECT reporter_count FROM bugs WHERE id = ?", {a.id}) == 1);
  CHECK(f.Int("SELECT affected_user_count FROM bugs WHERE id = ?", {b.id}) == 1);
  CHECK(f.Int("SELECT affected_session_count FROM bugs WHERE id = ?", {b.id}) == 0);
  add({P{a.id, "user:1", std::nullopt, std::nullopt, 1200}});
  add({P{a.id, "user:2", std::string("s2"), std::nullopt, 1300},
       P{a.id, "anon:abc", std::string("s2"), std::string("b@x.io"), 1400}});
  CHECK(f.Int("SELECT affected_user_count FROM bugs WHERE id = ?", {a.id}) == 3);
  CHECK(f.Int("SELECT affected_session_count FROM bugs WHERE id = ?", {a.id}) == 2);
  CHECK(f.Int("SELECT reporter_count FROM bugs WHERE id = ?", {a.id}) == 2);
  CHECK(
      f.Int("SELECT report_count FROM bug_participants WHERE bug_id = ? AND kind = 'user' AND key = 'user:1'",
            {a.id}) == 3);
  CHECK(f.Int("SELECT first_seen FROM bug_participants WHERE bug_id = ? AND kind = 'user' AND key = 'user:1'",
              {a.id}) == 1000);
  CHECK(f.Int("SELECT last_seen FROM bug_participants WHERE bug_id = ? AND kind = 'user' AND key = 'user:1'",
              {a.id}) == 1200);
  CHECK(f.Int("SELECT report_count FROM bug_participants WHERE bug_id = ? AND kind = 'reporter' AND key = "
              "'a@x.io'",
              {a.id}) == 2);
  // The counters equal the distinct rows.
  CHECK(f.Int("SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? AND kind = 'user'", {a.id}) == 3);
  CHECK(f.Int("SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? AND kind = 'session'", {a.id}) == 2);
  CHECK(f.Int("SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? AND kind = 'reporter'", {a.id}) == 2);
  // A repeated session adds nothing; a repeated reporter counts again.
  add({P{a.id, "user:2", std::string("s2"), std::string("b@x.io"), 1500}});
  CHECK(f.Int("SELECT affected_session_count FROM bugs WHERE id = ?", {a.id}) == 2);
  CHECK(f.Int("SELECT reporter_count FROM bugs WHERE id = ?", {a.id}) == 2);
  CHECK(f.Int("SELECT report_count FROM bug_participants WHERE bug_id = ? AND kind = 'reporter' AND key = "
              "'b@x.io'",
              {a.id}) == 2);
  CHECK(f.Int("SELECT last_seen FROM bug_participants WHERE bug_id = ? AND kind = 'user' AND key = 'user:2'",
              {a.id}) == 1500);
}

TEST_CASE("capture store: occurrences keep their fields and their events in order") {
  Fixture f;
  ports::BugAfterReport bug = f.Add(f.Report("dddddddddddddddd", 1000));
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    ports::Occurrence o;
    o.id = f.Id();
    o.bug_id = bug.id;
    o.project_id = kProject;
    o.org_id = kOrg;
    o.user_key = "user:" + std::to_string(i);
    o.user_kind = "user";
    o.session_id = "s";
    o.platform = "ios";
    o.event_count = 2;
    o.metadata = R"({"device":"iPhone"})";
    o.occurred_at = 1000 + i;
    o.created_at = 1000 + i;
    if (i != 2) {
      o.events_json = "[{\"type\":\"a" + std::to_string(i) +
                      "\",\"timestamp\":1,\"data\":null},"
                      "{\"type\":\"b\",\"timestamp\":2,\"data\":{\"k\":[1,2,3]}}]";
    }
    f.Write([&](Connection& tx) { return f.occurrences->Insert(tx, {&o}); });
    ids.push_back(o.id);
  }
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(auto events, f.occurrences->Events(c, kOrg, ids[1]));
                REQUIRE(events);
                boost::json::array a = boost::json::parse(*events).as_array();
                REQUIRE(a.size() == 2);
                CHECK(a[0].at("type") == "a1");
                CHECK(a[1].at("data").at("k").at(2) == 3);
                SV_ASSIGN_OR_RETURN(auto none, f.occurrences->Events(c, kOrg, ids[2]));
                CHECK(none == std::optional<std::string>("[]"));
                SV_ASSIGN_OR_RETURN(auto foreign, f.occurrences->Events(c, "other-org", ids[1]));
                CHECK_FALSE(foreign);
                SV_ASSIGN_OR_RETURN(auto list,
                                    f.occurrences->ListForBug(c, kOrg, bug.id, std::nullopt, 10, 0));
                REQUIRE(list.size() == 3);
                CHECK(list[0].id == ids[2]);  // newest first
                CHECK(list[0].metadata == R"({"device":"iPhone"})");
                CHECK(list[0].platform == "ios");
                CHECK(list[0].session_id == std::optional<std::string>("s"));
                CHECK_FALSE(list[0].reporter_email);
                SV_ASSIGN_OR_RETURN(int64_t n, f.occurrences->CountForBug(c, kOrg, bug.id, std::nullopt));
                CHECK(n == 3);
                SV_ASSIGN_OR_RETURN(auto one, f.occurrences->Find(c, kOrg, ids[0]));
                REQUIRE(one);
                CHECK(one->user_key == "user:0");
                return Status::Ok();
              })
              .ok());
}

TEST_CASE("capture store: end users accumulate platforms, counts and the latest release") {
  Fixture f;
  auto touch = [&](const std::string& platform, std::optional<std::string> release, int64_t at,
                   std::optional<std::string> email = std::nullopt) {
    ports::EndUserSighting s{kOrg,         "user:u1", "user", std::string("u1"), email, platform, release,
                             std::nullopt, f.Id(),    at};
    f.Write([&](Connection& tx) { return f.end_users->Touch(tx, {s}); });
  };
  touch("web", std::string("1.0"), 1000, std::string("u1@x.io"));
  touch("ios", std::nullopt, 2000);
  touch("web", std::string("1.1"), 1500);
  touch("react-native", std::nullopt, 3000);
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(auto u, f.end_users->Find(c, kOrg, "user:u1"));
                REQUIRE(u);
                CHECK(u->occurrence_count == 4);
                CHECK(u->platforms == std::vector<std::string>{"web", "ios", "react-native"});
                CHECK(u->first_seen == 1000);
                CHECK(u->last_seen == 3000);
                CHECK(u->last_release == std::optional<std::string>("1.1"));
                CHECK(u->email == std::optional<std::string>("u1@x.io"));  // kept when a report lacks it
                CHECK(u->end_user_id == std::optional<std::string>("u1"));
                SV_ASSIGN_OR_RETURN(auto absent, f.end_users->Find(c, "other", "user:u1"));
                CHECK_FALSE(absent);
                return Status::Ok();
              })
              .ok());
}

TEST_CASE("capture store: a batch of occurrences keeps awkward text exactly (array literals)") {
  Fixture f;
  ports::BugAfterReport bug = f.Add(f.Report("eeeeeeeeeeeeeeee", 1000));
  const std::vector<std::string> awkward = {"",
                                            "NULL",
                                            "say \"hi\"",
                                            "back\\slash\\",
                                            "{braces},commas,",
                                            "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80",
                                            "tab\tnew\nline",
                                            "'single' quotes; DROP TABLE bugs; --"};
  std::vector<ports::Occurrence> occs(awkward.size());
  std::vector<const ports::Occurrence*> ptrs;
  for (size_t i = 0; i < awkward.size(); ++i) {
    ports::Occurrence& o = occs[i];
    o.id = f.Id();
    o.bug_id = bug.id;
    o.project_id = kProject;
    o.org_id = kOrg;
    o.user_key = "user:" + awkward[i];
    o.user_kind = "user";
    o.reporter_email = awkward[i];
    o.url = i % 2 == 0 ? std::optional<std::string>(awkward[i]) : std::nullopt;
    o.platform = "web";
    o.metadata = boost::json::serialize(boost::json::object{{"v", awkward[i]}});
    o.events_json = boost::json::serialize(boost::json::array{boost::json::object{{"type", awkward[i]}}});
    o.occurred_at = 2000 + static_cast<int64_t>(i);
    o.created_at = o.occurred_at;
    ptrs.push_back(&o);
  }
  f.Write([&](Connection& tx) { return f.occurrences->Insert(tx, ptrs); });
  CHECK(f.Int("SELECT COUNT(*) FROM occurrences") == static_cast<int64_t>(awkward.size()));
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                for (size_t i = 0; i < awkward.size(); ++i) {
                  SV_ASSIGN_OR_RETURN(auto o, f.occurrences->Find(c, kOrg, occs[i].id));
                  REQUIRE(o);
                  CHECK(o->reporter_email == std::optional<std::string>(awkward[i]));
                  CHECK(o->user_key == "user:" + awkward[i]);
                  CHECK(o->url == occs[i].url);
                  CHECK(boost::json::parse(o->metadata).at("v").as_string() == awkward[i]);
                  SV_ASSIGN_OR_RETURN(auto events, f.occurrences->Events(c, kOrg, occs[i].id));
                  REQUIRE(events);
                  CHECK(boost::json::parse(*events).at(0).at("type").as_string() == awkward[i]);
                }
                return Status::Ok();
              })
              .ok());
}

TEST_CASE("capture store: a batch of sightings folds per end user") {
  Fixture f;
  auto sighting = [&](const std::string& key, const std::string& platform, std::optional<std::string> release,
                      int64_t at) {
    return ports::EndUserSighting{kOrg,         key,      "user",  std::nullopt,
                                  std::nullopt, platform, release, std::string("production"),
                                  f.Id(),       at};
  };
  f.Write([&](Connection& tx) {
    return f.end_users->Touch(tx, {sighting("user:a", "web", std::string("1.0"), 1000),
                                   sighting("user:b", "android", std::nullopt, 1000),
                                   sighting("user:a", "ios", std::string("1.1"), 1200),
                                   sighting("user:a", "web", std::nullopt, 1100)});
  });
  f.Write([&](Connection& tx) {
    return f.end_users->Touch(tx, {sighting("user:a", "flutter", std::nullopt, 900)});
  });
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(auto a, f.end_users->Find(c, kOrg, "user:a"));
                REQUIRE(a);
                CHECK(a->occurrence_count == 4);
                CHECK(a->platforms == std::vector<std::string>{"web", "ios", "flutter"});
                CHECK(a->first_seen == 900);
                CHECK(a->last_seen == 1200);
                CHECK(a->last_release == std::optional<std::string>("1.1"));
                CHECK(a->last_environment == std::optional<std::string>("production"));
                SV_ASSIGN_OR_RETURN(auto b, f.end_users->Find(c, kOrg, "user:b"));
                REQUIRE(b);
                CHECK(b->occurrence_count == 1);
                CHECK(b->platforms == std::vector<std::string>{"android"});
                CHECK_FALSE(b->last_release);
                return Status::Ok();
              })
              .ok());
}

TEST_CASE("capture store: the monthly bug counter checks and counts in one step") {
  Fixture f;
  auto count = [&](const std::string& month, int64_t limit) {
    bool counted = false;
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(counted, f.usage->TryCountNewBug(tx, kOrg, month, limit));
      return Status::Ok();
    });
    return counted;
  };
  CHECK(count("2026-01", 2));
  CHECK(count("2026-01", 2));
  CHECK_FALSE(count("2026-01", 2));
  CHECK_FALSE(count("2026-02", 0));
  CHECK(count("2026-02", -1));
  CHECK(count("2026-02", -1));
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(int64_t jan, f.usage->BugsInMonth(c, kOrg, "2026-01"));
                CHECK(jan == 2);
                SV_ASSIGN_OR_RETURN(int64_t feb, f.usage->BugsInMonth(c, kOrg, "2026-02"));
                CHECK(feb == 2);
                SV_ASSIGN_OR_RETURN(int64_t none, f.usage->BugsInMonth(c, kOrg, "2026-03"));
                CHECK(none == 0);
                SV_ASSIGN_OR_RETURN(std::string plan, f.usage->PlanOf(c, kOrg));
                CHECK(plan == "pro");
                SV_ASSIGN_OR_RETURN(std::string unknown, f.usage->PlanOf(c, "nope"));
                CHECK(unknown == "free");
                return Status::Ok();
              })
              .ok());
}

TEST_CASE("capture store: presence rows upsert per session, snapshots count the window") {
  Fixture f;
  auto ping = [&](const std::string& session, std::optional<std::string> user,
                  std::optional<std::string> path, int64_t at) {
    ports::PresencePing p;
    p.org_id = kOrg;
    p.project_id = kProject;
    p.session_id = session;
    p.user_id = user;
    p.path = path;
    p.at = at;
    f.Write([&](Connection& tx) { return f.presence->Upsert(tx, p); });
  };
  ping("s1", std::string("u1"), std::string("/a"), 1000);
  ping("s2", std::string("u1"), std::string("/a"), 1000);
  ping("s3", std::nullopt, std::string("/b"), 1000);
  ping("s4", std::nullopt, std::nullopt, 1000);
  ping("s5", std::nullopt, std::string("/old"), 10);
  ping("s1", std::nullopt, std::string("/c"), 2000);  // keeps its user
  CHECK(f.Int("SELECT COUNT(*) FROM presence") == 5);
  REQUIRE(f.db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(auto s, f.presence->Snapshot(c, kOrg, 500, 5));
                CHECK(s.active_sessions == 4);
                CHECK(s.active_users == 3);  // u1 (two sessions), s3, s4
                REQUIRE(s.pages.size() == 3);
                CHECK(s.pages[0].path == "/a");
                CHECK(s.pages[0].active_sessions == 1);
                CHECK(s.pages[1].path == "/b");
                CHECK(s.pages[2].path == "/c");
                SV_ASSIGN_OR_RETURN(auto top1, f.presence->Snapshot(c, kOrg, 500, 1));
                CHECK(top1.pages.size() == 1);
                return Status::Ok();
              })
              .ok());
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t n, f.presence->DeleteOlderThan(tx, 500, 100));
    CHECK(n == 1);
    return Status::Ok();
  });
  CHECK(f.Text("SELECT user_id FROM presence WHERE session_id = 's1'") == "u1");
}

}  // namespace service::store
