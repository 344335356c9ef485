// The trigram leg of search (ports::BugSearchRepository::TrigramCandidates)
// on both backends, with PostgreSQL's fuzzy walk shrunk to 4 bugs so that
// its three paths show with a handful of rows: every word found, a
// misspelling found among the newest bugs, and one found beyond them by
// its rare trigrams; a misspelling of a word most bugs hold stops after
// the walk on PostgreSQL.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "areas/bugs/store/repositories.h"
#include "areas/capture/domain/embedding.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::CaptureBugRepository> bugs = NewSqlCaptureBugRepository();
  std::unique_ptr<ports::BugSearchRepository> search =
      NewSqlBugSearchRepository(SearchTuning{.fuzzy_walk = 4, .fuzzy_dense_divisor = 2});
  int64_t at = 1'700'000'000'000;

  Fixture() : StoreFixture({kProject}) {}

  // A bug titled `title`, seen after every earlier one.
  std::string Bug(const std::string& title) {
    ports::BugReportWrite w;
    w.org_id = kOrg;
    w.project_id = kProject;
    w.key_env = "live";
    w.fingerprint = "fp-" + title;
    w.new_bug_id = Id();
    w.occurrence_id = Id();
    w.title = title;
    w.severity = "medium";
    w.platform = "web";
    w.signal_class = "issue";
    w.seen_at = at += 1000;
    Write([&](Connection& tx) -> Status { return bugs->Create(tx, w).status(); });
    return w.new_bug_id;
  }

  bool Postgres() {
    bool pg = false;
    REQUIRE(db->Read([&](Connection& c) -> Status {
                pg = c.dialect() == Dialect::kPostgres;
                return Status::Ok();
              }).ok());
    return pg;
  }

  // The ids of the candidates for `query` (lower-case) that the caller
  // keeps, those sharing 60% of the query's trigrams, in the order given.
  std::vector<std::string> Ranked(const std::string& query, int64_t limit) {
    const std::set<std::string> kept = Find(query, limit);
    std::vector<std::string> out;
    for (const std::string& id : order_) {
      if (kept.count(id)) out.push_back(id);
    }
    return out;
  }
  std::vector<std::string> order_;  // the candidates of the last Find, in order

  std::set<std::string> Find(const std::string& query, int64_t limit = 10) {
    const std::vector<std::string> trigrams = domain::capture::DistinctTrigrams(query);
    const size_t min_shared =
        static_cast<size_t>(std::ceil(0.6 * static_cast<double>(trigrams.size()) - 1e-9));
    ports::BugFilter filter;
    filter.org_id = kOrg;
    std::set<std::string> ids;
    REQUIRE(db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(auto found,
                                    search->TrigramCandidates(c, filter, query, trigrams, min_shared, limit));
                // The caller's re-scoring: candidates are a superset.
                order_.clear();
                for (const auto& f : found) order_.push_back(f.bug_id);
                for (const auto& f : found) {
                  const std::string text = domain::capture::SearchText(f.title, f.description, f.signature);
                  if (domain::capture::TrigramScore(query, text) >= domain::capture::kMinTrigramScore)
                    ids.insert(f.bug_id);
                }
                return Status::Ok();
              }).ok());
    return ids;
  }
};

}  // namespace

TEST_CASE("search candidates: every word, a misspelling among the newest, a rare one beyond them") {
  Fixture f;
  const std::string old_rare = f.Bug("Zanzibar gateway refuses the card");
  std::vector<std::string> newest;
  for (int i = 0; i < 6; ++i) newest.push_back(f.Bug("Checkout button failed " + std::to_string(i)));

  // Every word, in any order.
  CHECK(f.Find("failed checkout") == std::set<std::string>(newest.begin(), newest.end()));
  CHECK(f.Find("gateway zanzibar") == std::set<std::string>{old_rare});
  // A misspelling of a word the newest bugs hold: found among them.
  const std::set<std::string> misspelt = f.Find("buttn failed");
  CHECK(misspelt.size() >= 1);
  for (const auto& id : misspelt) CHECK(std::find(newest.begin(), newest.end(), id) != newest.end());
  // A misspelling of a word only an older bug holds, beyond the walk of 4:
  // found through its rare trigrams.
  CHECK(f.Find("zanzbar") == std::set<std::string>{old_rare});
  // Nothing shares enough of a query's trigrams: nothing.
  CHECK(f.Find("qwxzv").empty());
}

TEST_CASE("search candidates: a misspelling of a word most bugs hold stops after the walk on PostgreSQL") {
  Fixture f;
  const std::string oldest = f.Bug("Checkout stalls");
  for (int i = 0; i < 5; ++i) f.Bug("Checkout failed " + std::to_string(i));
  const std::set<std::string> found = f.Find("checout");
  if (f.Postgres()) {
    // The walk's 4 newest holders; the index is not asked for older ones
    // because every trigram it would ask for is held by most of the walk.
    CHECK(found.size() == 4);
    CHECK(found.count(oldest) == 0);
  } else {
    CHECK(found.size() == 6);  // FTS5 keeps document counts: every holder
    CHECK(found.count(oldest) == 1);
  }
}

TEST_CASE("search candidates: the whole query's holders first, then the newest holding every word") {
  Fixture f;
  const std::string phrase = f.Bug("Failed checkout on mobile");  // the oldest
  std::vector<std::string> expected = {phrase};
  for (int i = 0; i < 30; ++i)
    expected.insert(expected.begin() + 1, f.Bug("Checkout button " + std::to_string(i) + " failed"));
  const bool postgres = f.Postgres();
  // SQLite's FTS5 leg hands over more candidates than asked (the caller
  // re-scores them); their order is the same.
  for (int64_t limit : {2, 5, 40}) {
    CAPTURE(limit);
    std::vector<std::string> got = f.Ranked("failed checkout", limit);
    const size_t n = std::min<size_t>(static_cast<size_t>(limit), expected.size());
    if (postgres) CHECK(got.size() == n);
    REQUIRE(got.size() >= n);
    got.resize(n);
    CHECK(got ==
          std::vector<std::string>(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(n)));
  }
}

}  // namespace service::store
