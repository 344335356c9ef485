// Shadow grouping v3 (domain/triage/grouping_v3.h): each reason from
// crafted error events, its routable/isolated/confidence flags, identity
// equality across reports, the served JSON, and duplicate proposals.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/capture/domain/embedding.h"
#include "areas/capture/domain/grouping_v3.h"

namespace {

using service::domain::capture::Event;

std::vector<Event> ErrorWith(const char* data_json, const char* type = "error") {
  return {Event{"console", 1, boost::json::parse("\"hello\"")},
          Event{type, 2, boost::json::parse(data_json)}};
}

}  // namespace

TEST_CASE("grouping v3: each reason from the evidence of the first error event") {
  struct Row {
    const char* name;
    std::vector<Event> events;
    bool manual;
    const char* reason;
  };
  const std::vector<Row> rows = {
      {"manual report", ErrorWith(R"({"operation":"GET /api/orders/:id"})"), true,
       "insufficient_legacy_evidence"},
      {"no error event",
       {Event{"click", 1, boost::json::parse("{}")}},
       false,
       "insufficient_legacy_evidence"},
      {"operation", ErrorWith(R"({"message":"boom","operation":"GET /api/orders/:id"})"), false,
       "v3_exact_operation"},
      {"transaction in data.error", ErrorWith(R"({"error":{"transaction":"CheckoutMutation"}})"), false,
       "v3_exact_operation"},
      {"operation and site",
       ErrorWith(R"({"route":"POST /cart","frames":[{"function":"main","filename":"a.c"},
                    {"function":"pay","filename":"pay.c","in_app":true},{"function":"libc","filename":"x"}]})"),
       false, "v3_exact_operation_and_native_site"},
      {"operation with a numeric id", ErrorWith(R"({"operation":"GET /api/orders/12345"})"), false,
       "v3_isolated_ambiguous_operation"},
      {"operation with a uuid", ErrorWith(R"({"operation":"GET /u/0190d7e6-0000-7000-8000-000000000000"})"),
       false, "v3_isolated_ambiguous_operation"},
      {"bare method", ErrorWith(R"({"operation":"GET"})"), false, "v3_isolated_ambiguous_operation"},
      {"symbol site (sentry frames)",
       ErrorWith(R"({"exception":{"stacktrace":{"frames":[{"function":"f","module":"app.core"}]}}})"), false,
       "v3_native_symbol_site"},
      {"javascript stack",
       ErrorWith(R"({"message":"x","stack":"TypeError: x\n    at render (https://app/js/main.js:10:5)\n"})"),
       false, "v3_native_symbol_site"},
      {"image offset",
       ErrorWith(
           R"({"stacktrace":{"frames":[{"instruction_addr":"0x1a2b","package":"/usr/lib/libapp.so"}]}})"),
       false, "v3_native_image_offset"},
      {"frames without identity", ErrorWith(R"({"frames":[{"lineno":3}]})"), false,
       "v3_isolated_insufficient_evidence"},
      {"anonymous stack", ErrorWith(R"({"stack":"Error\n    at https://app/js/main.js:10:5"})"), false,
       "v3_isolated_insufficient_evidence"},
      {"message only", ErrorWith(R"({"message":"boom"})"), false, "v3_isolated_missing_identity"},
      {"string data", ErrorWith(R"("boom")"), false, "v3_isolated_missing_identity"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const service::domain::capture::GroupingV3Evidence e =
        service::domain::capture::EvaluateGroupingV3(row.events, row.manual, "TypeError");
    CHECK(e.reason == row.reason);
    const std::string r = row.reason;
    const bool routable = r.rfind("v3_exact", 0) == 0 || r.rfind("v3_native", 0) == 0;
    CHECK(e.routable == routable);
    CHECK(e.isolated == (r.rfind("v3_isolated", 0) == 0));
    CHECK(e.confidence == (routable ? "high" : "none"));
    CHECK(e.identity_hash.size() == (routable ? 64u : 0u));
  }
}

TEST_CASE("grouping v3: identities agree across builds and differ by operation or error type") {
  const auto id = [](const char* data, const char* type = "TypeError") {
    return service::domain::capture::EvaluateGroupingV3(ErrorWith(data), false, type).identity_hash;
  };
  // Line and column move with builds; the site stays.
  CHECK(id(R"j({"stack":"E\n    at render (https://app/js/main.js:10:5)"})j") ==
        id(R"j({"stack":"E\n    at render (https://app/js/main.js:99:1)"})j"));
  CHECK(id(R"({"operation":"GET /a"})") != id(R"({"operation":"GET /b"})"));
  CHECK(id(R"({"operation":"GET /a"})") != id(R"({"operation":"GET /a"})", "RangeError"));
}

TEST_CASE("grouping v3: the served object carries no hash") {
  const service::domain::capture::GroupingV3Evidence e = service::domain::capture::EvaluateGroupingV3(
      ErrorWith(R"({"operation":"GET /a"})"), false, "TypeError");
  const boost::json::value v = boost::json::parse(service::domain::capture::GroupingV3Json(e, "occ-1", 0));
  CHECK(v ==
        boost::json::parse(R"({"version":3,"occurrenceId":"occ-1","observedAt":"1970-01-01T00:00:00.000Z",
      "routable":true,"isolated":false,"reason":"v3_exact_operation","confidence":"high"})"));
  CHECK(service::domain::capture::GroupingV3Json(e, "occ-1", 0).find(e.identity_hash) == std::string::npos);
}

TEST_CASE("duplicate proposals: same identity, similar text, never within the own group") {
  const auto emb = [](const char* text) { return service::domain::capture::Embed(text); };
  const service::domain::capture::DuplicatePeer subject{"new", "g-new", "h1",
                                                        emb("Checkout button does nothing")};
  const std::vector<service::domain::capture::DuplicatePeer> peers = {
      {"same-identity", "g-a", "h1", emb("Completely different words here")},
      {"same-text", "g-b", "", emb("Checkout button does nothing")},
      {"same-group", "g-new", "h1", emb("Checkout button does nothing")},
      {"unrelated", "g-c", "h2", emb("Avatar upload spinner never stops")},
      {"no-embedding", "g-d", "", {}},
  };
  const auto out = service::domain::capture::ProposeDuplicates(subject, peers);
  REQUIRE(out.size() == 2);
  CHECK(out[0].other_bug_id == "same-text");  // cosine 1.0: score 100
  CHECK(out[0].score == 100);
  CHECK(out[0].reason == "similar_text");
  CHECK(out[0].confidence == "high");
  CHECK(out[1].other_bug_id == "same-identity");
  CHECK(out[1].score == 95);
  CHECK(out[1].reason == "same_v3_identity");
  CHECK(out[1].confidence == "high");
}
