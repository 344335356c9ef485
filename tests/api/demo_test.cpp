// `service-server --demo`: a populated product from an empty database, read
// back through the console's own API routes: groups of several bugs,
// duplicate candidates, a regression, a resolved and an assigned bug,
// several end users and releases.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/api_harness.h"
#include "util/time.h"

using service::testing::HeaderList;
using service::testing::QueryInt;
using service::testing::TestResponse;
using service::testing::TestService;

namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// Every occurrence of every bug the organization of `auth` holds, read page
// by page through GET /v1/bugs and GET /v1/bugs/:id/occurrences.
std::vector<json::value> AllOccurrences(TestService& t, const HeaderList& auth) {
  TestResponse bugs = t.Get("/v1/bugs?signalClass=all&limit=200", auth);
  REQUIRE_MESSAGE(bugs.status == 200, bugs.body);
  REQUIRE(bugs.json.at("total").as_int64() <= 200);
  std::vector<json::value> out;
  for (const auto& b : bugs.json.at("bugs").as_array()) {
    for (int64_t offset = 0;; offset += 200) {
      TestResponse page =
          t.Get("/v1/bugs/" + Str(b, "id") + "/occurrences?limit=200&offset=" + std::to_string(offset), auth);
      REQUIRE_MESSAGE(page.status == 200, page.body);
      const json::array& rows = page.json.at("occurrences").as_array();
      out.insert(out.end(), rows.begin(), rows.end());
      if (rows.size() < 200) break;
    }
  }
  return out;
}

int64_t OccurredAt(const json::value& occurrence) {
  std::optional<int64_t> ms = service::util::ParseIso8601(Str(occurrence, "occurred_at"));
  REQUIRE(ms);
  return *ms;
}

}  // namespace

TEST_CASE("demo seeding creates a loggable organization whose reports form groups, once") {
  TestService t;
  auto demo = t.service().SeedDemo();
  REQUIRE_MESSAGE(demo.ok(), demo.status().ToString());
  CHECK(demo->created);
  CHECK(demo->reports >= 250);
  CHECK(demo->bugs >= 20);
  CHECK(demo->api_key.rfind("sv_live_", 0) == 0);

  // The printed credentials work.
  auto login = t.Post("/v1/auth/login", {{"email", demo->email}, {"password", demo->password}});
  REQUIRE(login.status == 200);
  const HeaderList auth = {{"Authorization", "Bearer " + Str(login.json, "accessToken")},
                           {"X-Service-Org", Str(login.json.at("org"), "id")}};

  // Every report went through the pipeline: one occurrence each.
  const std::vector<json::value> occurrences = AllOccurrences(t, auth);
  CHECK(static_cast<int64_t>(occurrences.size()) == demo->reports);
  CHECK(t.Get("/v1/bugs?signalClass=all&limit=1", auth).json.at("total").as_int64() == demo->bugs);
  std::set<std::string> platforms;
  int64_t oldest = INT64_MAX;
  int64_t newest = INT64_MIN;
  for (const auto& o : occurrences) {
    platforms.insert(Str(o, "platform"));
    oldest = std::min(oldest, OccurredAt(o));
    newest = std::max(newest, OccurredAt(o));
  }
  CHECK(platforms.size() >= 5);
  // Spread over two weeks, the newest minutes old.
  const int64_t now = t.clock().NowMillis();
  CHECK(oldest < now - 13 * 86'400'000LL);
  CHECK(newest <= now);
  CHECK(newest > now - 3'600'000);

  // Groups of several bugs: one error on several pages.
  TestResponse groups = t.Get("/v1/bugs/groups?sort=count&limit=200", auth);
  REQUIRE(groups.status == 200);
  int several = 0;
  int64_t largest = 0;
  std::string largest_key, largest_project;
  int64_t candidate_groups = 0;
  for (const auto& g : groups.json.at("groups").as_array()) {
    const int64_t n = g.at("instanceCount").as_int64();
    if (n >= 2) ++several;
    if (n > largest) {
      largest = n;
      largest_key = Str(g, "groupKey");
      largest_project = Str(g, "projectId");
    }
    if (g.at("duplicateCandidateCount").as_int64() > 0) ++candidate_groups;
  }
  CHECK(several >= 6);
  CHECK(largest >= 4);
  CHECK(groups.json.at("total").as_int64() < demo->bugs);
  CHECK(candidate_groups >= 2);  // both sides of the proposal
  TestResponse members =
      t.Get("/v1/bugs/groups/" + largest_key + "/instances?projectId=" + largest_project, auth);
  REQUIRE(members.status == 200);
  CHECK(static_cast<int64_t>(members.json.at("bugs").as_array().size()) == largest);
  std::set<std::string> urls;
  for (const auto& b : members.json.at("bugs").as_array()) urls.insert(Str(b, "url"));
  CHECK(static_cast<int64_t>(urls.size()) == largest);  // one bug per page

  // A regression, a resolved bug, an assigned one.
  TestResponse all = t.Get("/v1/bugs?limit=200&includeDiagnostics=true", auth);
  REQUIRE(all.status == 200);
  CHECK(all.json.at("total").as_int64() == demo->bugs);
  std::string regression;
  std::set<std::string> releases;
  for (const auto& b : all.json.at("bugs").as_array()) {
    if (b.at("is_regression").as_bool()) regression = Str(b, "id");
    releases.insert(Str(b, "latest_release"));
  }
  REQUIRE_FALSE(regression.empty());
  CHECK(releases.size() >= 3);
  TestResponse history = t.Get("/v1/bugs/" + regression + "/history", auth);
  REQUIRE(history.status == 200);
  CHECK(history.body.find("Fixed in 3.2.0") != std::string::npos);
  TestResponse resolved = t.Get("/v1/bugs?status=resolved", auth);
  CHECK(resolved.json.at("total").as_int64() >= 1);
  TestResponse mine = t.Get("/v1/bugs?assignee=me", auth);
  REQUIRE(mine.json.at("total").as_int64() == 1);
  CHECK(Str(mine.json.at("bugs").at(0), "status") == "working");

  // Duplicate candidates: Safari's wording of Chrome's crash, same frame.
  std::string safari;
  for (const auto& b : all.json.at("bugs").as_array()) {
    if (Str(b, "title").find("undefined is not an object") != std::string::npos) safari = Str(b, "id");
  }
  REQUIRE_FALSE(safari.empty());
  TestResponse detail = t.Get("/v1/bugs/" + safari, auth);
  REQUIRE(detail.status == 200);
  const json::array& candidates = detail.json.at("duplicateCandidates").as_array();
  REQUIRE_FALSE(candidates.empty());
  CHECK(Str(candidates[0], "reason") == "same_v3_identity");
  CHECK(Str(candidates[0], "otherTitle").find("Cannot read properties of undefined") != std::string::npos);
  CHECK(Str(detail.json.at("groupingV3"), "reason") == "v3_native_symbol_site");

  // Several end users, found by the application's own id.
  TestResponse users = t.Get("/v1/end-users?q=cust&limit=100", auth);
  REQUIRE(users.status == 200);
  CHECK(users.json.at("users").as_array().size() >= 20);

  // A second start on the same database adds nothing.
  auto again = t.service().SeedDemo();
  REQUIRE(again.ok());
  CHECK_FALSE(again->created);
  // internal state: no route lists every organization of the database.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM organizations") == 1);
  CHECK(static_cast<int64_t>(AllOccurrences(t, auth).size()) == demo->reports);
}
