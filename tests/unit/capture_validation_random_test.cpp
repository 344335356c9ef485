// Random and malformed bodies through the ingest and presence validators
// (issue 4 "Bad input"): every input either parses or is refused with the
// spec's 400 texts — never an exception, never another code — and accepted
// reports keep the table's limits.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "areas/capture/api/capture_validation.h"
#include "util/strings.h"

namespace service::api {
namespace {

namespace json = boost::json;

// Fragments that steer random bodies into the validators' branches.
const std::vector<std::string> kPieces = {
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1e309",
    "1.5",
    "\"title\"",
    "\"events\"",
    "\"type\"",
    "\"timestamp\"",
    "\"data\"",
    "\"metadata\"",
    "\"reporterEmail\"",
    "\"a@b.co\"",
    "\"severity\"",
    "\"high\"",
    "\"platform\"",
    "\"ios\"",
    "\"viewport\"",
    "\"1x1\"",
    "\"sessionId\"",
    "\xff",
    "\xc3\x28",
    "\xe2\x82",
    "\xf0\x9f\x98\x80",
    " ",
    "\n",
    "\"x\"",
    "\"userId\"",
};

std::string RandomBody(std::mt19937_64& rng) {
  std::string s;
  const int parts = static_cast<int>(rng() % 40);
  for (int p = 0; p < parts; ++p) {
    if (rng() % 4 == 0) {
      s += static_cast<char>(rng() % 256);
    } else {
      s += kPieces[rng() % kPieces.size()];
    }
  }
  return s;
}

// A valid report, then one random change to one member.
std::string MutatedReport(std::mt19937_64& rng) {
  json::object o{{"title", "t"},
                 {"events", json::array{json::object{{"type", "error"}, {"timestamp", 1}, {"data", "m"}}}},
                 {"metadata", json::object{{"k", 1}}},
                 {"reporterEmail", "a@b.co"},
                 {"viewport", "10x10"}};
  static const std::vector<std::string> kFields = {"title",    "events", "metadata", "reporterEmail",
                                                   "viewport", "userId", "release",  "platform",
                                                   "severity", "url"};
  static const std::vector<json::value> kValues = {nullptr,
                                                   1,
                                                   -1.5,
                                                   true,
                                                   "",
                                                   "x",
                                                   json::array{},
                                                   json::object{},
                                                   json::string(std::string(3000, 'z')),
                                                   json::array{json::object{{"type", 1}}},
                                                   json::array{1, 2, 3},
                                                   "ios",
                                                   "critical",
                                                   "1x2"};
  o[kFields[rng() % kFields.size()]] = kValues[rng() % kValues.size()];
  return json::serialize(o);
}

void CheckOutcome(const std::string& body) {
  Result<app::capture::ReportInput> r = ParseIngestBody(body, 1000);
  if (r.ok()) {
    CHECK(util::Utf8Length(r->title) >= 1);
    CHECK(util::Utf8Length(r->title) <= 500);
    CHECK(util::IsValidUtf8(r->title));
    CHECK(r->events.size() <= kMaxIngestEvents);
    CHECK((r->metadata.is_null() || r->metadata.is_object()));
    if (r->reporter_email) CHECK(util::IsValidEmail(*r->reporter_email));
  } else {
    CHECK(r.status().code() == Code::kInvalidArgument);
    const std::string& m = r.status().message();
    CHECK((m == "Validation failed" || m == "Invalid JSON in request body"));
    if (m == "Validation failed") {
      json::value payload = json::parse(r.status().payload_json());
      CHECK(payload.at("details").as_array().size() >= 1);
    }
  }
  Result<app::capture::PresenceInput> p = ParsePresenceBody(body);
  if (!p.ok()) CHECK(p.status().code() == Code::kInvalidArgument);
}

}  // namespace

TEST_CASE("ingest validator: random bytes and fragments never escape as anything but a 400") {
  std::mt19937_64 rng(20260115);
  for (int i = 0; i < 20000; ++i) {
    const std::string body = RandomBody(rng);
    CAPTURE(body);
    CheckOutcome(body);
  }
}

TEST_CASE("ingest validator: mutated valid reports are accepted or refused cleanly") {
  std::mt19937_64 rng(42);
  int accepted = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::string body = MutatedReport(rng);
    CAPTURE(body);
    CheckOutcome(body);
    if (ParseIngestBody(body, 1000).ok()) ++accepted;
  }
  // The mutations hit both sides.
  CHECK(accepted > 100);
  CHECK(accepted < 4900);
}

TEST_CASE("ingest validator: deep nesting and invalid UTF-8 name the place") {
  std::string deep = "{\"title\":\"t\",\"metadata\":";
  for (int i = 0; i < 70; ++i) deep += "[";
  auto r = ParseIngestBody(deep, 0);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() == "Validation failed");
  CHECK(r.status().payload_json().find("nest") != std::string::npos);

  auto bad = ParseIngestBody("{\"title\":\"t\",\"metadata\":{\"k\\u00e9\":{\"v\":\"\xc3\x28\"}}}", 0);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().payload_json().find("metadata.k\xc3\xa9.v") != std::string::npos);

  auto ok = ParseIngestBody(
      "{\"title\":\"t\",\"events\":[{\"type\":\"x\",\"data\":{\"s\":\"\xf0\x9f\x98\x80\"}}]}", 0);
  REQUIRE(ok.ok());
  CHECK(ok->events.at(0).timestamp_ms == 0);
}

}  // namespace service::api
