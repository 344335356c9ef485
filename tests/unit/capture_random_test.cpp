// Random and malformed input through the capture scanners: no crash, and the
// output keeps its promises (valid UTF-8, trimmed, idempotent, printable URLs).
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "areas/capture/domain/classify.h"
#include "areas/capture/domain/event.h"
#include "areas/capture/domain/fingerprint.h"
#include "areas/capture/domain/normalize.h"
#include "areas/capture/domain/user_agent.h"
#include "util/strings.h"

using namespace service::domain;
using namespace service::domain::capture;

namespace {

// Fragments that steer random strings into the scanners' interesting paths.
const std::vector<std::string> kPieces = {
    "0x",
    "0X",
    ":",
    "::",
    ".",
    "-",
    "/",
    " ",
    "\t",
    "\n",
    "\xc2\xa0",
    "\xe2\x80\xa8",
    "\xff",
    "\xc3",
    "\xe2\x82",
    "\xf0\x9f\x98\x80",
    "\xed\xa0\x80",
    "port",
    "Port ",
    "=",
    "T",
    "Z",
    "+",
    "GMT",
    "UTC",
    "(",
    ")",
    "[",
    "]",
    "Jan",
    "Mon",
    "May",
    ",",
    "2024",
    "12",
    "59",
    "255",
    "256",
    "65535",
    "65536",
    "99999999",
    "1.2.3.4",
    "fe80",
    "ffff",
    "abcdef",
    "deadbeef12",
    "localhost",
    "example.com",
    "app.js",
    "<ip>",
    "<num>",
    "%",
    "%2f",
    "?",
    "#",
    "#/",
    "#!/",
    "@",
    ";",
    "http://",
    "https://",
    "blob:",
    "data:",
    "550e8400-e29b-41d4-a716-446655440000",
    "Mozilla/5.0",
    "iPhone",
    "Android",
    "Chrome/",
    "Version/",
    "; wv)",
    "Edg/",
    "okhttp",
    "Dart/",
    "\x00",
    "\x7f",
    "AM",
    "10:23:45",
    "2024-01-15",
};

std::string RandomString(std::mt19937_64& rng) {
  std::string s;
  const int parts = static_cast<int>(rng() % 24);
  for (int p = 0; p < parts; ++p) {
    switch (rng() % 3) {
      case 0:
        s += kPieces[rng() % kPieces.size()];
        break;
      case 1:
        s += static_cast<char>(rng() % 256);
        break;
      default:
        s += static_cast<char>('0' + rng() % 10);
        break;
    }
  }
  return s;
}

bool HasNoControl(const std::string& s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("random input: NormalizeMessage output is valid, trimmed and idempotent") {
  std::mt19937_64 rng(20240115);
  for (int i = 0; i < 20000; ++i) {
    const std::string in = RandomString(rng);
    const std::string out = NormalizeMessage(in);
    if (!service::util::IsValidUtf8(out) || !HasNoControl(out) || out.find("  ") != std::string::npos ||
        (!out.empty() && (out.front() == ' ' || out.back() == ' ')) || NormalizeMessage(out) != out) {
      CAPTURE(in);
      CAPTURE(out);
      CAPTURE(NormalizeMessage(out));
      FAIL("NormalizeMessage broke a promise");
    }
  }
}

TEST_CASE("random input: UrlPattern output is printable ASCII and idempotent") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const std::string in = RandomString(rng);
    const std::string out = UrlPattern(in);
    bool printable = true;
    for (unsigned char c : out) printable = printable && c > 0x20 && c < 0x7f;
    if (!printable || out.find('?') != std::string::npos || UrlPattern(out) != out) {
      CAPTURE(in);
      CAPTURE(out);
      CAPTURE(UrlPattern(out));
      FAIL("UrlPattern broke a promise");
    }
  }
}

TEST_CASE("random input: user agents, fingerprints and classification never fail") {
  std::mt19937_64 rng(99);
  const std::vector<std::string> platforms = {"web",     "ios",    "android", "react-native",
                                              "flutter", "server", "other"};
  for (int i = 0; i < 5000; ++i) {
    const std::string ua = RandomString(rng);
    const std::string platform = InferPlatform(ua);
    CHECK(std::find(platforms.begin(), platforms.end(), platform) != platforms.end());
    const UserAgentInfo info = ParseUserAgent(ua);
    CHECK(service::util::IsValidUtf8(info.browser_version));
    CHECK(service::util::IsValidUtf8(info.os_version));

    boost::json::object data;
    data["message"] = RandomString(rng);
    data["name"] = RandomString(rng);
    data["status"] = static_cast<int64_t>(rng() % 700);
    std::vector<Event> events = {Event{RandomString(rng), 0, boost::json::value(data)},
                                 Event{"error", 0, boost::json::value(RandomString(rng))}};
    const std::string title = RandomString(rng);
    const Fingerprint fp = FingerprintReport(events, rng() % 2 == 0, title, RandomString(rng));
    CHECK(fp.short_hex.size() == 16);
    CHECK(service::util::IsValidUtf8(fp.error_type));
    CHECK(fp.error_type.size() <= kMaxErrorTypeBytes);
    const std::string kind = AutoReportKind(boost::json::object{{"autoReport", RandomString(rng)}});
    const Classification c = Classify(ClassifyInput{events, title, kind});
    CHECK((c.signal_class == "issue" || c.signal_class == "watch" || c.signal_class == "diagnostic"));
  }
}
