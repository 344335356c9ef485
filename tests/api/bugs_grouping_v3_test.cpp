// Shadow grouping evidence (Spec 1 "Group": groupingV3, duplicate
// candidates): off by default; with the project's switch on, a new bug
// carries the evidence of its first occurrence and open bugs of the project
// sharing its identity in another group become duplicate candidates, shown
// on both bugs and counted on their groups. Evidence never changes routing.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>

#include "areas/projects/ports/project_repository.h"
#include "service_internal.h"
#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

json::object WithOperation(const std::string& title, const std::string& message, const std::string& op) {
  json::object r = Report(title, message);
  r["events"].as_array()[0].as_object()["data"].as_object()["operation"] = op;
  return r;
}

const json::value* GroupOf(const TestResponse& groups, const std::string& bug) {
  for (const auto& g : groups.json.at("groups").as_array()) {
    for (const auto& m : g.at("memberIds").as_array()) {
      if (m.as_string() == bug) return &g;
    }
  }
  return nullptr;
}

// Turns shadow grouping on for `project_id` through the projects repository (no route offers it).
void EnableShadowGrouping(TestService& t, const std::string& org_id, const std::string& project_id) {
  modules::Platform& core = internal::PlatformOf(t.service());
  bool found = false;
  REQUIRE(core.tx
              ->Write([&](ports::Tx& tx) -> Status {
                SV_ASSIGN_OR_RETURN(found,
                                    core.Shared<service::ports::ProjectRepository>()->SetShadowGrouping(
                                        tx, org_id, project_id, true));
                return Status::Ok();
              })
              .ok());
  REQUIRE(found);
}

}  // namespace

TEST_CASE("groupingV3 and duplicate candidates: none while the project's shadow grouping is off") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse a = Ingest(t, s.key, WithOperation("Orders fail", "a failed", "GET /api/orders/:id"));
  TestResponse b = Ingest(t, s.key, WithOperation("Orders broken", "b failed", "GET /api/orders/:id"));
  REQUIRE(a.status == 201);
  REQUIRE(b.status == 201);
  TestResponse detail = t.Get("/v1/bugs/" + Str(b.json, "id"), s.admin.headers());
  REQUIRE(detail.status == 200);
  CHECK(detail.json.at("groupingV3").is_null());
  CHECK(detail.json.at("duplicateCandidates").as_array().empty());
  // internal state: one row per proposal, shown on both of its bugs: only the table counts proposals.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM duplicate_candidates", {}) == 0);
}

TEST_CASE("groupingV3 and duplicate candidates: evidence of the first occurrence, proposals both ways") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EnableShadowGrouping(t, s.admin.org_id, s.project_id);

  TestResponse a = Ingest(t, s.key, WithOperation("Orders fail", "a failed", "GET /api/orders/:id"));
  REQUIRE_MESSAGE(a.status == 201, a.body);
  const std::string bug_a = Str(a.json, "id");
  TestResponse detail_a = t.Get("/v1/bugs/" + bug_a, s.admin.headers());
  REQUIRE(detail_a.status == 200);
  const json::value& v3 = detail_a.json.at("groupingV3");
  REQUIRE(v3.is_object());
  CHECK(v3.at("version") == 3);
  CHECK(Str(v3, "occurrenceId") == Str(a.json, "occurrenceId"));
  CHECK(Str(v3, "reason") == "v3_exact_operation");
  CHECK(v3.at("routable") == true);
  CHECK(v3.at("isolated") == false);
  CHECK(Str(v3, "confidence") == "high");
  CHECK(v3.as_object().size() == 7);  // no hash, no canonical bytes
  CHECK(detail_a.json.at("duplicateCandidates").as_array().empty());

  // Another message (another signature, so another group) on the same operation.
  t.clock().Advance(1000);
  TestResponse b = Ingest(t, s.key, WithOperation("Orders broken", "b failed", "GET /api/orders/:id"));
  REQUIRE(b.status == 201);
  const std::string bug_b = Str(b.json, "id");
  CHECK(bug_b != bug_a);  // evidence only: routing is the fingerprint's
  TestResponse detail_b = t.Get("/v1/bugs/" + bug_b, s.admin.headers());
  REQUIRE(detail_b.status == 200);
  const json::array& candidates = detail_b.json.at("duplicateCandidates").as_array();
  REQUIRE(candidates.size() == 1);
  CHECK(Str(candidates[0], "otherIssueId") == bug_a);
  CHECK(Str(candidates[0], "otherTitle") == "Orders fail");
  CHECK(candidates[0].at("score") == 95);
  CHECK(Str(candidates[0], "reason") == "same_v3_identity");
  CHECK(Str(candidates[0], "confidence") == "high");
  CHECK(Str(candidates[0], "algorithmVersion") == "dup-v1");
  CHECK(Str(candidates[0], "state") == "open");
  // The older bug shows the proposal too.
  TestResponse detail_a2 = t.Get("/v1/bugs/" + bug_a, s.admin.headers());
  const json::array& back = detail_a2.json.at("duplicateCandidates").as_array();
  REQUIRE(back.size() == 1);
  CHECK(Str(back[0], "otherIssueId") == bug_b);

  // Both groups count the open proposal reaching the other.
  TestResponse groups = t.Get("/v1/bugs/groups", s.admin.headers());
  REQUIRE(groups.status == 200);
  REQUIRE(GroupOf(groups, bug_a) != nullptr);
  REQUIRE(GroupOf(groups, bug_b) != nullptr);
  CHECK(GroupOf(groups, bug_a)->at("duplicateCandidateCount") == 1);
  CHECK(GroupOf(groups, bug_b)->at("duplicateCandidateCount") == 1);
  CHECK(GroupOf(groups, bug_b)->at("groupingV3").at("reason") == "v3_exact_operation");

  // A repeat of b joins b (no new proposal); an operation naming one record
  // is isolated and proposes nothing by identity.
  t.clock().Advance(1000);
  TestResponse again = Ingest(t, s.key, WithOperation("Orders broken", "b failed", "GET /api/orders/:id"));
  CHECK(Str(again.json, "id") == bug_b);
  TestResponse c = Ingest(t, s.key, WithOperation("Order 42 gone", "c failed", "GET /api/orders/42"));
  REQUIRE(c.status == 201);
  TestResponse detail_c = t.Get("/v1/bugs/" + Str(c.json, "id"), s.admin.headers());
  CHECK(Str(detail_c.json.at("groupingV3"), "reason") == "v3_isolated_ambiguous_operation");
  CHECK(detail_c.json.at("groupingV3").at("routable") == false);
  CHECK(Str(detail_c.json.at("groupingV3"), "confidence") == "none");
  CHECK(detail_c.json.at("duplicateCandidates").as_array().empty());
  // internal state: as above.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM duplicate_candidates", {}) == 1);
}

TEST_CASE("duplicate candidates: near-identical text in another group, other projects are never compared") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string p2 = CreateProjectVia(t, s.admin, "Second");
  const std::string k2 = CreateKeyVia(t, s.admin, p2);
  EnableShadowGrouping(t, s.admin.org_id, s.project_id);
  EnableShadowGrouping(t, s.admin.org_id, p2);
  // The same title and description; the messages differ, so do the groups.
  const json::object text{
      {"description",
       "Pressing the checkout button on the cart page shows no spinner, sends no request and "
       "leaves the order unpaid while the console reports the click handler"}};
  TestResponse a = Ingest(t, s.key, Report("Checkout button does nothing", "handler missing", text));
  TestResponse other = Ingest(t, k2, Report("Checkout button does nothing", "handler missing", text));
  TestResponse b = Ingest(t, s.key, Report("Checkout button does nothing", "handler absent", text));
  REQUIRE(a.status == 201);
  REQUIRE(other.status == 201);
  REQUIRE(b.status == 201);
  TestResponse detail = t.Get("/v1/bugs/" + Str(b.json, "id"), s.admin.headers());
  const json::array& candidates = detail.json.at("duplicateCandidates").as_array();
  REQUIRE(candidates.size() == 1);
  CHECK(Str(candidates[0], "otherIssueId") == Str(a.json, "id"));
  CHECK(Str(candidates[0], "reason") == "similar_text");
  CHECK(candidates[0].at("score").as_int64() >= 90);
  // Another organization reads none of it.
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get("/v1/bugs/" + Str(b.json, "id"), stranger.headers()).status == 404);
}

}  // namespace service::testing
