// Anomaly heuristics (domain/triage/anomalies.h) on crafted event
// sequences: each type found at its threshold and not just below it.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <functional>
#include <string>
#include <vector>

#include "areas/bugs/domain/anomalies.h"

using service::domain::capture::Event;

namespace {

Event Ev(const char* type, int64_t at, const char* data = "null") {
  return Event{type, at, boost::json::parse(data)};
}

std::vector<std::string> Types(const std::vector<service::domain::bugs::Anomaly>& found) {
  std::vector<std::string> out;
  for (const auto& a : found) out.push_back(a.type);
  return out;
}

// `n` events made by `make(i)`.
template <typename Make>
std::vector<Event> Many(int n, Make make) {
  std::vector<Event> out;
  for (int i = 0; i < n; ++i) out.push_back(make(i));
  return out;
}

}  // namespace

TEST_CASE("anomalies: none in an empty or quiet sequence") {
  CHECK(service::domain::bugs::DetectAnomalies({}).empty());
  const std::vector<Event> quiet = {Ev("navigation", 0), Ev("click", 5'000, R"({"selector":"#buy"})"),
                                    Ev("network", 6'000, R"({"url":"/api/cart","status":200})")};
  CHECK(service::domain::bugs::DetectAnomalies(quiet).empty());
}

TEST_CASE("anomalies: each heuristic at its threshold, not one event below") {
  struct Row {
    const char* type;
    std::function<std::vector<Event>(int)> make;  // the sequence with n matching events
    int threshold;
  };
  const std::vector<Row> rows = {
      {"error_cascade",
       [](int n) {
         return Many(n, [](int i) { return Ev("error", 1'000 * i, R"({"message":"x is undefined"})"); });
       },
       3},
      {"failed_request_storm",
       [](int n) {
         return Many(n, [](int i) { return Ev("fetch", 1'500 * i, R"({"url":"/api/a?i=1","status":502})"); });
       },
       5},
      {"timeout_cascade",
       [](int n) {
         return Many(n,
                     [](int i) { return Ev("console", 10'000 * i, R"({"message":"Request timed out"})"); });
       },
       3},
      {"rage_click",
       [](int n) { return Many(n, [](int i) { return Ev("click", 200 * i, R"({"selector":"#pay"})"); }); },
       3},
      {"auth_refresh_loop",
       [](int n) {
         return Many(n, [](int i) {
           return Ev("xhr", 8'000 * i, R"({"url":"https://x.io/oauth/token","status":200})");
         });
       },
       3},
      {"request_loop",
       [](int n) {
         return Many(n, [](int i) {
           return Ev("network", 900 * i, R"({"method":"get","url":"/api/poll","status":200})");
         });
       },
       10},
      {"console_error_flood",
       [](int n) {
         return Many(n, [](int i) { return Ev("console", 500 * i, R"({"level":"error","message":"e"})"); });
       },
       10},
  };
  for (const Row& r : rows) {
    CAPTURE(r.type);
    const std::vector<std::string> at = Types(service::domain::bugs::DetectAnomalies(r.make(r.threshold)));
    CHECK(std::count(at.begin(), at.end(), r.type) == 1);
    const std::vector<std::string> below =
        Types(service::domain::bugs::DetectAnomalies(r.make(r.threshold - 1)));
    CHECK(std::count(below.begin(), below.end(), r.type) == 0);
  }
}

TEST_CASE("anomalies: bursts need their window, clicks on different targets do not rage") {
  // Three errors 6 s apart: outside the 5 s window.
  CHECK(
      service::domain::bugs::DetectAnomalies(Many(3, [](int i) { return Ev("error", 6'000 * i); })).empty());
  const std::vector<Event> spread = {Ev("click", 0, R"({"selector":"#a"})"),
                                     Ev("click", 100, R"({"selector":"#b"})"),
                                     Ev("click", 200, R"({"selector":"#c"})")};
  CHECK(service::domain::bugs::DetectAnomalies(spread).empty());
  // Unsorted input is read in time order.
  const std::vector<Event> shuffled = {Ev("error", 2'000), Ev("error", 0), Ev("error", 1'000)};
  const auto found = service::domain::bugs::DetectAnomalies(shuffled);
  REQUIRE(found.size() == 1);
  CHECK(found[0].start_ms == 0);
  CHECK(found[0].end_ms == 2'000);
}

TEST_CASE("anomalies: a burst is one anomaly with severity, evidence and its time range") {
  const auto found = service::domain::bugs::DetectAnomalies(Many(12, [](int i) {
    return Ev("fetch", 100 * i, R"({"method":"POST","url":"https://a.io/api/pay?x=1","status":500})");
  }));
  // Twelve failed POSTs to one URL: a storm (high from 10) and a request loop.
  REQUIRE(Types(found).size() >= 2);
  const service::domain::bugs::Anomaly* storm = nullptr;
  for (const auto& a : found) {
    if (a.type == "failed_request_storm") storm = &a;
  }
  REQUIRE(storm != nullptr);
  CHECK(storm->severity == "high");
  CHECK(storm->start_ms == 0);
  CHECK(storm->end_ms == 1'100);
  CHECK(storm->evidence.size() == service::domain::bugs::kMaxEvidence);
  CHECK(storm->evidence[1] == "+100ms fetch POST /api/pay -> 500");
  CHECK(storm->description == "12 failed requests in a burst");
}

TEST_CASE("anomalies: overlapping heuristics of two types make a compound failure") {
  std::vector<Event> ev = Many(3, [](int i) { return Ev("error", 1'000 * i, R"({"message":"boom"})"); });
  for (int i = 0; i < 5; ++i) ev.push_back(Ev("fetch", 500 + 400 * i, R"({"url":"/api/x","status":503})"));
  const auto found = service::domain::bugs::DetectAnomalies(ev);
  const std::vector<std::string> types = Types(found);
  CHECK(std::count(types.begin(), types.end(), "compound_failure") == 1);
  for (const auto& a : found) {
    if (a.type != "compound_failure") continue;
    CHECK(a.severity == "critical");
    CHECK(a.evidence == std::vector<std::string>{"error_cascade", "failed_request_storm"});
    CHECK(a.start_ms == 0);
    CHECK(a.end_ms == 2'100);
  }
  // Ordered by start time, then type.
  for (size_t i = 1; i < found.size(); ++i) CHECK(found[i - 1].start_ms <= found[i].start_ms);
}
