// Bug search (Spec 1 "GET /v1/bugs/search"): fused trigram and vector
// search over titles, descriptions and signatures, answered as groups keyed
// by projectId plus groupKey with the grouped list's hydration; filters,
// deliveryFeed, the 400s, the in-memory index's refresh and the
// organization scope.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// "<projectId>/<groupKey>" of each group of a response, in order.
std::vector<std::string> Keys(const TestResponse& r) {
  std::vector<std::string> out;
  for (const auto& g : r.json.at("groups").as_array())
    out.push_back(Str(g, "projectId") + "/" + Str(g, "groupKey"));
  return out;
}

struct Seeded {
  CaptureSetup s;
  std::string project2, key2;
  std::string checkout_a, checkout_b, login, avatar, checkout_other;
  std::string CHECKOUT, LOGIN, AVATAR, CHECKOUT2;  // "<projectId>/<groupKey>"
};

std::string GroupOf(TestService& t, const Member& m, const std::string& project, const std::string& bug) {
  return project + "/" + GroupKeyVia(t, m, project, bug);
}

// Project 1: "Checkout button does nothing" on two pages (one signature:
// one group of two bugs), "Login form rejects valid password" (critical)
// and "Avatar upload spinner never stops". Project 2: the checkout
// signature again (another group).
Seeded Seed(TestService& t) {
  Seeded x;
  x.s = NewCaptureSetup(t);
  x.project2 = CreateProjectVia(t, x.s.admin, "Second");
  x.key2 = CreateKeyVia(t, x.s.admin, x.project2);
  auto ingest = [&](const std::string& key, const json::object& body) {
    t.clock().Advance(1000);
    TestResponse r = Ingest(t, key, body);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return Str(r.json, "id");
  };
  x.checkout_a = ingest(x.s.key, Report("Checkout button does nothing", "checkout handler is undefined",
                                        {{"platform", "web"}, {"sessionId", "s-1"}}));
  x.checkout_b = ingest(
      x.s.key,
      Report("Checkout button does nothing on cart", "checkout handler is undefined",
             {{"platform", "android"}, {"url", "https://app.example.com/cart"}, {"sessionId", "s-2"}}));
  x.login = ingest(x.s.key, Report("Login form rejects valid password", "credentials check failed",
                                   {{"severity", "critical"}, {"platform", "ios"}}));
  x.avatar = ingest(
      x.s.key, Report("Avatar upload spinner never stops", "upload promise pending", {{"severity", "low"}}));
  x.checkout_other = ingest(x.key2, Report("Checkout button does nothing", "checkout handler is undefined"));
  x.CHECKOUT = GroupOf(t, x.s.admin, x.s.project_id, x.checkout_a);
  x.LOGIN = GroupOf(t, x.s.admin, x.s.project_id, x.login);
  x.AVATAR = GroupOf(t, x.s.admin, x.s.project_id, x.avatar);
  x.CHECKOUT2 = GroupOf(t, x.s.admin, x.project2, x.checkout_other);
  return x;
}

TestResponse Search(TestService& t, const Member& m, const std::string& query) {
  return t.Get("/v1/bugs/search?" + query, m.headers());
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST_CASE(
    "GET /v1/bugs/search: matching groups, one per project and signature, hydrated like the grouped list") {
  TestService t;
  Seeded x = Seed(t);
  TestResponse r = Search(t, x.s.admin, "q=checkout%20button");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(Str(r.json, "query") == "checkout button");
  CHECK(r.json.at("limit") == 20);
  const std::vector<std::string> keys = Keys(r);
  // The two checkout groups (same signature, two projects) lead, tied on
  // their fused score and ordered by "projectId:groupKey".
  REQUIRE(keys.size() >= 2);
  std::vector<std::string> expected{x.CHECKOUT, x.CHECKOUT2};
  std::sort(expected.begin(), expected.end());
  CHECK_MESSAGE(std::vector<std::string>(keys.begin(), keys.begin() + 2) == expected, r.body);
  CHECK_FALSE(Contains(keys, x.LOGIN));
  CHECK_FALSE(Contains(keys, x.AVATAR));
  CHECK(r.json.at("total") == static_cast<int64_t>(keys.size()));
  // First in both legs: 1/61 + 1/61.
  CHECK(r.json.at("groups").at(0).at("score").as_double() == doctest::Approx(2.0 / 61));

  // Hydration is the grouped list's: aggregates over every member.
  const json::value* group = nullptr;
  for (const auto& g : r.json.at("groups").as_array()) {
    if (Str(g, "projectId") == x.s.project_id) group = &g;
  }
  REQUIRE(group != nullptr);
  TestResponse listed = t.Get("/v1/bugs/groups?projectId=" + x.s.project_id, x.s.admin.headers());
  REQUIRE(listed.status == 200);
  const json::value* same = nullptr;
  for (const auto& g : listed.json.at("groups").as_array()) {
    if (Str(g, "groupKey") == Str(*group, "groupKey")) same = &g;
  }
  REQUIRE(same != nullptr);
  for (const char* field :
       {"sampleBugId", "sampleTitle", "signatureCanonical", "signalReason", "occurrenceCount", "sessionCount",
        "userCount", "platforms", "memberIds", "instanceCount"}) {
    CAPTURE(field);
    CHECK(group->at(field) == same->at(field));
  }
  CHECK(group->at("instanceCount") == 2);
  CHECK(group->at("sessionCount") == 2);
  CHECK(group->at("platforms") == json::array{"android", "web"});
  CHECK(Str(*group, "sampleBugId") == x.checkout_b);
}

TEST_CASE("GET /v1/bugs/search: descriptions, signatures, case and typos") {
  TestService t;
  Seeded x = Seed(t);
  // A word of the description only.
  CHECK(Keys(Search(t, x.s.admin, "q=credentials")) == std::vector<std::string>{x.LOGIN});
  // The signature ("<errorType>:<message>").
  CHECK(Keys(Search(t, x.s.admin, "q=promise%20pending")).front() == x.AVATAR);
  // Case-insensitive; a misspelling still finds the word by its trigrams.
  CHECK(Keys(Search(t, x.s.admin, "q=AVATAR")).front() == x.AVATAR);
  CHECK(Keys(Search(t, x.s.admin, "q=pasword")).front() == x.LOGIN);
  // Nothing related: no group.
  TestResponse none = Search(t, x.s.admin, "q=zzqqxx");
  REQUIRE(none.status == 200);
  CHECK(none.json.at("groups").as_array().empty());
  CHECK(none.json.at("total") == 0);
  // `search` is an alias of q.
  CHECK(Keys(Search(t, x.s.admin, "search=credentials")) == std::vector<std::string>{x.LOGIN});
}

TEST_CASE("GET /v1/bugs/search: projectId, deliveryFeed, signal classes and limit narrow the groups") {
  TestService t;
  Seeded x = Seed(t);
  CHECK(Keys(Search(t, x.s.admin, "q=checkout&projectId=" + x.project2)) ==
        std::vector<std::string>{x.CHECKOUT2});
  // urgent_critical: critical issues only.
  CHECK(Keys(Search(t, x.s.admin, "q=login%20form&deliveryFeed=urgent_critical")) ==
        std::vector<std::string>{x.LOGIN});
  CHECK_MESSAGE(Keys(Search(t, x.s.admin, "q=checkout&deliveryFeed=urgent_critical")).empty(),
                Search(t, x.s.admin, "q=checkout&deliveryFeed=urgent_critical").body);
  // A status filter applies to the matching bugs.
  SetBugStatus(t, x.s.admin.org_id, x.login, "resolved");
  CHECK(Keys(Search(t, x.s.admin, "q=login%20form&unresolved=true")).empty());
  CHECK(Keys(Search(t, x.s.admin, "q=login%20form&status=resolved")) == std::vector<std::string>{x.LOGIN});
  // Diagnostics are hidden unless asked for, as in the grouped list.
  // internal state: no route or port reclassifies a stored bug.
  ExecSql(t, "UPDATE bugs SET signal_class = 'diagnostic' WHERE id = ?", {x.avatar});
  CHECK_FALSE(Contains(Keys(Search(t, x.s.admin, "q=avatar%20upload")), x.AVATAR));
  CHECK(Contains(Keys(Search(t, x.s.admin, "q=avatar%20upload&includeDiagnostics=true")), x.AVATAR));
  CHECK(Contains(Keys(Search(t, x.s.admin, "q=avatar%20upload&signalClass=all")), x.AVATAR));
  // limit cuts the list, not the total.
  TestResponse one = Search(t, x.s.admin, "q=checkout%20button&limit=1");
  REQUIRE(one.status == 200);
  CHECK(one.json.at("groups").as_array().size() == 1);
  CHECK(one.json.at("total").as_int64() >= 2);
}

TEST_CASE("GET /v1/bugs/search: new bugs and bugs stored before embeddings are found") {
  TestService t;
  Seeded x = Seed(t);
  // A bug from before embeddings existed: no stored vector.
  // internal state: a row from before embeddings existed (no port writes one).
  ExecSql(t, "UPDATE bugs SET embedding = NULL, embedded_at = 0 WHERE id = ?", {x.avatar});
  CHECK(Keys(Search(t, x.s.admin, "q=avatar%20upload%20spinner")).front() == x.AVATAR);
  // Reported after the organization's index was loaded.
  t.clock().Advance(60'000);
  TestResponse r = Ingest(t, x.s.key, Report("Invoice totals are rounded wrongly", "rounding mismatch"));
  REQUIRE(r.status == 201);
  const std::string invoice = GroupOf(t, x.s.admin, x.s.project_id, Str(r.json, "id"));
  CHECK(Keys(Search(t, x.s.admin, "q=invoice%20totals")).front() == invoice);
  // After the rebuild interval a deleted bug leaves the index; merged ones
  // never show.
  // internal state: a merged bug whose row is still stored (BugWriteRepository::Merge and the merge route
  // delete the source row; no port sets merged_into alone).
  ExecSql(t, "UPDATE bugs SET merged_into = ? WHERE id = ?", {x.checkout_a, x.login});
  CHECK(Keys(Search(t, x.s.admin, "q=credentials")).empty());
  t.clock().Advance(11 * 60'000);
  CHECK(Keys(Search(t, x.s.admin, "q=credentials")).empty());
}

TEST_CASE("GET /v1/bugs/search: a bug is searched by what its text says now") {
  TestService t;
  Seeded x = Seed(t);
  // Title and description written after the first report (the search text
  // PostgreSQL keeps in the row, FTS5's row on SQLite, follow them).
  // internal state: no route or port rewrites a bug's title and description.
  ExecSql(t, "UPDATE bugs SET title = ?, description = ? WHERE id = ?",
          {std::string("Quarterly ledger reconciliation stalls"), std::string("the ledger export never ends"),
           x.avatar});
  CHECK(Keys(Search(t, x.s.admin, "q=ledger%20reconciliation")).front() == x.AVATAR);
  CHECK(Keys(Search(t, x.s.admin, "q=reconcilation")).front() == x.AVATAR);    // misspelt
  CHECK(Keys(Search(t, x.s.admin, "q=ledger%20export")).front() == x.AVATAR);  // the description
}

TEST_CASE("GET /v1/bugs/search: the query's length, repeats and other parameters are checked") {
  TestService t;
  Seeded x = Seed(t);
  for (const std::string& query :
       {std::string(""), std::string("q="), std::string("q=a"), std::string("q=%20%20a%20"),
        "q=" + std::string(201, 'a'), std::string("q=ab&q=cd"), std::string("q[]=ab"),
        std::string("q=ab&search=cd"), std::string("q=ab&limit=0"), std::string("q=ab&projectId=nope"),
        std::string("q=ab&deliveryFeed=loud"), std::string("q=ab&signalClass=x")}) {
    CAPTURE(query);
    TestResponse r = Search(t, x.s.admin, query);
    CHECK(r.status == 400);
  }
  CHECK(Search(t, x.s.admin, "q=" + std::string(200, 'a')).status == 200);
  CHECK(Search(t, x.s.admin, "q=ab").status == 200);
  // Without a token: 401.
  CHECK(t.Get("/v1/bugs/search?q=checkout").status == 401);
}

TEST_CASE("GET /v1/bugs/search: another organization finds nothing of this one") {
  TestService t;
  Seeded x = Seed(t);
  Member stranger = NewOrgWithMember(t);
  TestResponse r = Search(t, stranger, "q=checkout%20button");
  REQUIRE(r.status == 200);
  CHECK(r.json.at("groups").as_array().empty());
  CHECK(Search(t, stranger, "q=checkout&projectId=" + x.s.project_id).json.at("groups").as_array().empty());
}

}  // namespace service::testing
