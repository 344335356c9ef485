// Integration rules without I/O (domain/integrations): schedules, retryable
// answers, config checks, redaction, signature headers, chat bodies, alert
// policy decisions and quiet hours across time zones; and sealing at rest.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/integrations/app/secret_box.h"
#include "areas/integrations/domain/alert_policy.h"
#include "areas/integrations/domain/integration.h"
#include "ports/ids.h"
#include "service/clock.h"
#include "support/hmac.h"
#include "util/crypto.h"

namespace service::domain::integrations {
namespace {

namespace json = boost::json;

TEST_CASE("retry schedules: capture 0, 10 s, 1 min, 5 min, 30 min, 2 h, short 10 s doubling, 5 sends") {
  struct Row {
    Schedule schedule;
    int sends;
    std::optional<int64_t> delay;
  };
  const std::vector<Row> rows = {
      {Schedule::kCapture, 1, 10'000},     {Schedule::kCapture, 2, 60'000},
      {Schedule::kCapture, 3, 300'000},    {Schedule::kCapture, 4, 1'800'000},
      {Schedule::kCapture, 5, 7'200'000},  {Schedule::kCapture, 6, std::nullopt},
      {Schedule::kShort, 1, 10'000},       {Schedule::kShort, 2, 20'000},
      {Schedule::kShort, 3, 40'000},       {Schedule::kShort, 4, 80'000},
      {Schedule::kShort, 5, std::nullopt}, {Schedule::kShort, 0, std::nullopt},
  };
  for (const Row& r : rows) {
    CAPTURE(ScheduleName(r.schedule));
    CAPTURE(r.sends);
    CHECK(RetryDelayMs(r.schedule, r.sends) == r.delay);
  }
  CHECK(MaxSends(Schedule::kCapture) == 6);
  CHECK(MaxSends(Schedule::kShort) == 5);
  CHECK(ParseSchedule("capture") == Schedule::kCapture);
  CHECK_FALSE(ParseSchedule("other").has_value());
}

TEST_CASE("retryable answers: 408, 425, 429 and 5xx, every other non-2xx stops") {
  for (int s : {408, 425, 429, 500, 502, 503, 504, 599}) CHECK(IsRetryableStatus(s));
  for (int s : {400, 401, 403, 404, 405, 409, 410, 413, 422, 301, 302, 600})
    CHECK_FALSE(IsRetryableStatus(s));
  CHECK(IsSuccessStatus(200));
  CHECK(IsSuccessStatus(204));
  CHECK_FALSE(IsSuccessStatus(300));
}

TEST_CASE("types, events and their defaults") {
  CHECK(DefaultEvents("webhook") ==
        std::vector<std::string>{"new_bug", "regression", "status_change", "agent_notify", "agent_update"});
  CHECK(DefaultEvents("agent") ==
        std::vector<std::string>{"new_bug", "regression", "status_change", "agent_notify"});
  CHECK(DefaultEvents("chat_c") ==
        std::vector<std::string>{"new_bug", "regression", "status_change", "agent_update"});
  CHECK(DefaultEvents("bridge") ==
        std::vector<std::string>{"new_bug", "regression", "status_change", "agent_update"});
  CHECK(DefaultEvents("code_host") == std::vector<std::string>{"new_bug", "regression", "status_change"});
  for (const char* t : {"webhook", "agent", "chat_a", "chat_b", "chat_c", "chat_d", "code_host", "bridge"})
    CHECK(IsIntegrationType(t));
  CHECK_FALSE(IsIntegrationType("chat_e"));
  CHECK(IsOutboundEvent("recommended_bug"));
  CHECK_FALSE(IsOutboundEvent("duplicate"));
}

TEST_CASE("config checks per type") {
  struct Row {
    std::string type;
    Config config;
    bool production;
    std::vector<std::string> fields;  // the fields with problems
  };
  const std::string fire = "https://routines.example.com/v1/fire/abc";
  const std::vector<Row> rows = {
      {"webhook", {.url = "https://h.example.com/x"}, true, {}},
      {"webhook", {.url = "http://h.example.com/x"}, false, {}},
      {"webhook", {.url = "http://h.example.com/x"}, true, {"config.url"}},
      {"webhook", {}, false, {"config.url"}},
      {"webhook", {.url = "https://u:p@h.example.com"}, false, {"config.url"}},
      {"webhook", {.url = "https://h.example.com/#frag"}, false, {"config.url"}},
      {"webhook", {.url = "https://h.example.com/a b"}, false, {"config.url"}},
      {"webhook", {.url = "https://"}, false, {"config.url"}},
      {"webhook", {.url = "https://h.example.com/" + std::string(2100, 'a')}, false, {"config.url"}},
      {"agent", {.url = fire, .preset = "code_agent_routine"}, true, {}},
      {"agent", {.url = fire + "?x=1", .preset = "code_agent_routine"}, true, {"config.url"}},
      {"agent",
       {.url = "https://other.example.com/v1/fire/abc", .preset = "code_agent_routine"},
       true,
       {"config.url"}},
      {"chat_a", {.url = fire, .preset = "code_agent_routine"}, true, {"config.preset"}},
      {"webhook", {.url = fire, .preset = "other"}, true, {"config.preset"}},
      {"code_host", {.token = "t", .repo = "acme/web"}, true, {}},
      {"code_host", {.token = "t", .repo = "acme"}, true, {"config.repo"}},
      {"code_host", {.token = "t", .repo = "acme/.."}, true, {"config.repo"}},
      {"code_host", {.token = "t", .repo = "ac me/web"}, true, {"config.repo"}},
      {"code_host", {.repo = "acme/web"}, true, {"config.token"}},
      {"bridge", {.bridge_url = "https://b.example.com", .address = "ops"}, true, {}},
      {"bridge", {.bridge_url = "https://b.example.com"}, true, {"config.address"}},
      {"bridge", {.address = "ops"}, true, {"config.bridgeUrl"}},
  };
  for (const Row& r : rows) {
    CAPTURE(r.type);
    CAPTURE(r.config.url);
    std::vector<std::string> fields;
    for (const ConfigProblem& p : CheckConfig(r.type, r.config, r.production, fire))
      fields.push_back(p.field);
    CHECK(fields == r.fields);
  }
  // Without a configured fire URL the preset is refused.
  CHECK(CheckConfig("agent", {.url = fire, .preset = "code_agent_routine"}, true, "").size() == 1);
}

TEST_CASE(
    "destination filters: minSeverity and deliveryFeed for new issues and regressions of webhook and agent") {
  struct Row {
    std::string type;
    std::optional<std::string> min_severity;
    std::string feed;
    std::string event;
    IssueFacts facts;
    std::string reason;
  };
  const IssueFacts low{"low", "issue", "", false, false};
  const IssueFacts critical{"critical", "issue", "", false, false};
  const IssueFacts high_crash{"high", "issue", "crash", false, false};
  const IssueFacts ui{"medium", "issue", "user_report", false, true};
  const std::vector<Row> rows = {
      {"webhook", "high", "all", "new_bug", low, "below_min_severity"},
      {"webhook", "high", "all", "new_bug", critical, ""},
      {"agent", "high", "all", "regression", low, "below_min_severity"},
      {"webhook", "high", "all", "status_change", low, ""},  // other events: project rules only
      {"chat_a", "high", "all", "new_bug", low, ""},         // not a webhook or agent
      {"webhook", std::nullopt, "urgent_critical", "new_bug", critical, ""},
      {"webhook", std::nullopt, "urgent_critical", "new_bug", high_crash, ""},
      {"webhook", std::nullopt, "urgent_critical", "new_bug", low, "delivery_feed"},
      {"webhook", std::nullopt, "urgent_critical", "new_bug", ui, "delivery_feed"},
      {"webhook", std::nullopt, "ui_ux", "new_bug", ui, ""},
      {"webhook", std::nullopt, "ui_ux", "new_bug", critical, "delivery_feed"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.type);
    CAPTURE(r.feed);
    CAPTURE(r.facts.severity);
    CHECK(DestinationFilterReason(r.type, r.min_severity, r.feed, r.event, r.facts) == r.reason);
  }
}

TEST_CASE("what reads show: URLs to scheme and host, secrets masked to the last four") {
  CHECK(RedactUrl("https://hooks.example.com/services/T0/B0/secret") ==
        "https://hooks.example.com/\xE2\x80\xA6");
  CHECK(RedactUrl("https://hooks.example.com") == "https://hooks.example.com");
  CHECK(RedactUrl("https://hooks.example.com/") == "https://hooks.example.com");
  CHECK(RedactUrl("https://u:p@hooks.example.com:8443/x?token=1") ==
        "https://hooks.example.com:8443/\xE2\x80\xA6");
  CHECK(RedactUrl("no-scheme") == "");
  CHECK(Last4("whsec_abcdefgh") == "efgh");
  CHECK(Last4("short") == "");
  CHECK(MaskSecret("whsec_abcdefgh") == "whsec_****efgh");
  CHECK(MaskSecret("own-secret-value") == "****alue");
}

using service::testing::OpensslHmacSha256Hex;
std::string OpensslHex(const std::string& key, const std::string& data) {
  return OpensslHmacSha256Hex(key, data);
}

TEST_CASE("signature headers: t and v1 over <t>.<body>, the previous secret second, the older header") {
  const std::string body = R"({"event":"test"})";
  CHECK(SignatureHeader(1700000000, body, "cur", "") ==
        "t=1700000000,v1=" + OpensslHex("cur", "1700000000." + body));
  CHECK(SignatureHeader(1700000000, body, "cur", "old") ==
        "t=1700000000,v1=" + OpensslHex("cur", "1700000000." + body) +
            ",v1=" + OpensslHex("old", "1700000000." + body));
  CHECK(LegacySignature(body, "cur") == "sha256=" + OpensslHex("cur", body));
  // RFC 4231 test case 2 through the same MAC.
  CHECK(LegacySignature("what do ya want for nothing?", "Jefe") ==
        "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("chat bodies per type and the routine wrapping") {
  const json::object p{{"event", "new_bug"},
                       {"title", "Checkout fails"},
                       {"severity", "high"},
                       {"reportCount", 3},
                       {"url", "https://shop.example.com/cart"},
                       {"consoleUrl", "https://c.example.com/bugs/1"}};
  CHECK(SummaryLine(p) == "[high] New bug: Checkout fails (3 reports)");
  const json::object a = json::parse(ChatBody("chat_a", p)).as_object();
  CHECK(a.at("text").as_string().starts_with("[high] New bug: Checkout fails"));
  CHECK(a.at("blocks").as_array()[0].at("text").at("type") == "mrkdwn");
  CHECK(json::parse(ChatBody("chat_b", p)).at("embeds").as_array()[0].at("color") == 0xF57C00);
  CHECK(json::parse(ChatBody("chat_c", p)).at("themeColor") == "F57C00");
  const json::object d = json::parse(ChatBody("chat_d", p)).as_object();
  CHECK(d.size() == 1);
  CHECK(d.at("text").as_string().find("Page: https://shop.example.com/cart") != json::string::npos);
  const json::object bridge = json::parse(BridgeBody("room:ops", p)).as_object();
  CHECK(bridge.at("address") == "room:ops");
  const std::string routine = json::parse(RoutineBody(p, json::serialize(p))).at("text").as_string().c_str();
  CHECK(routine.starts_with("[high] New bug: Checkout fails (3 reports)\n"));
  CHECK(routine.ends_with("\n\n" + json::serialize(p)));
  CHECK(CodeHostIssue(p).title == "Checkout fails");
}

TEST_CASE("alert policy decisions") {
  AlertPolicy policy;
  policy.severity_floor = "medium";
  policy.exclude_events = {"status_change"};
  policy.exclude_title_contains = {"ResizeObserver"};
  policy.exclude_url_contains = {"/health"};
  policy.exclude_environments = {"staging"};
  struct Row {
    AlertSample sample;
    std::string reason;
  };
  const std::vector<Row> rows = {
      {{"new_bug", "high", "Checkout", "https://x/cart", "prod"}, ""},
      {{"new_bug", "low", "Checkout", "", ""}, "below_severity_floor"},
      {{"regression", "medium", "Checkout", "", ""}, ""},
      {{"status_change", "critical", "Checkout", "", ""}, "excluded_event"},
      {{"new_bug", "high", "resizeobserver loop", "", ""}, "excluded_title"},
      {{"new_bug", "high", "Down", "https://x/HEALTH/live", ""}, "excluded_url"},
      {{"new_bug", "high", "Down", "", "staging"}, "excluded_environment"},
      {{"agent_notify", "low", "ResizeObserver", "", "staging"}, ""},
      {{"agent_update", "low", "", "", ""}, ""},
      {{"test", "low", "", "", ""}, ""},
  };
  for (const Row& r : rows) {
    CAPTURE(r.sample.event);
    CAPTURE(r.sample.title);
    CHECK(ExclusionReason(policy, r.sample) == r.reason);
  }
}

TEST_CASE("quiet hours: windows within a day, across midnight, in a zone with daylight saving") {
  // 2026-01-15T10:00:00Z and 2026-07-15T10:00:00Z.
  const int64_t jan = 1768471200000, jul = 1784109600000;
  const int64_t hour = 3'600'000;
  struct Row {
    std::string start, end, zone;
    int64_t now;
    std::optional<int64_t> until;
  };
  const std::vector<Row> rows = {
      {"09:00", "17:00", "UTC", jan, jan + 7 * hour},
      {"11:00", "17:00", "UTC", jan, std::nullopt},
      {"22:00", "07:00", "UTC", jan, std::nullopt},
      {"22:00", "11:00", "UTC", jan, jan + hour},                  // inside, after midnight
      {"09:30", "09:30", "UTC", jan, std::nullopt},                // start == end: none
      {"10:30", "12:00", "Europe/Berlin", jan, jan + hour},        // 11:00 CET, ends 12:00 CET = 11:00Z
      {"10:30", "12:00", "Europe/Berlin", jul, std::nullopt},      // 12:00 CEST: already over
      {"11:30", "13:00", "Europe/Berlin", jul, jul + hour},        // ends 13:00 CEST = 11:00Z
      {"04:00", "06:00", "America/New_York", jan, jan + hour},     // 05:00 EST, ends 06:00 EST = 11:00Z
      {"20:00", "06:00", "America/New_York", jan, jan + hour},     // across midnight, inside the morning part
      {"09:00", "17:00", "Nowhere/Unknown", jan, jan + 7 * hour},  // an unknown zone counts as UTC
  };
  for (const Row& r : rows) {
    CAPTURE(r.start);
    CAPTURE(r.end);
    CAPTURE(r.zone);
    const QuietHours q{*ParseClockTime(r.start), *ParseClockTime(r.end), r.zone};
    CHECK(QuietUntil(q, r.now) == r.until);
  }
  // 22:00-07:00 Berlin at 23:00 Berlin on Jan 15 (22:00Z): ends 07:00 Berlin Jan 16 = 06:00Z.
  CHECK(QuietUntil(QuietHours{22 * 60, 7 * 60, "Europe/Berlin"}, jan + 12 * hour) == jan + 20 * hour);
  CHECK(ParseClockTime("23:59") == 1439);
  CHECK_FALSE(ParseClockTime("24:00"));
  CHECK_FALSE(ParseClockTime("7:00"));
  CHECK(FormatClockTime(450) == "07:30");
  CHECK(IsTimeZone("Europe/Berlin"));
  CHECK(IsTimeZone("UTC"));
  CHECK_FALSE(IsTimeZone("Mars/Olympus"));
}

TEST_CASE("sealing at rest: AES-256-GCM round trip, random nonces, tampering and wrong keys refused") {
  auto ids = ports::NewSystemIds(SystemClock());
  const std::string key(32, 'k');
  app::integrations::SecretBox box(key, ids.get());
  const std::string a = box.Seal("whsec_secret"), b = box.Seal("whsec_secret");
  CHECK(a.starts_with("v1:"));
  CHECK(a != b);
  CHECK(a.find("whsec_secret") == std::string::npos);
  CHECK(*box.Open(a) == "whsec_secret");
  CHECK(*box.Open(box.Seal("")) == "");
  std::string tampered = a;
  tampered[10] = tampered[10] == 'A' ? 'B' : 'A';
  CHECK_FALSE(box.Open(tampered).ok());
  app::integrations::SecretBox other(std::string(32, 'x'), ids.get());
  CHECK_FALSE(other.Open(a).ok());
  CHECK_FALSE(box.Open("plain").ok());
  CHECK(app::integrations::ParseSecretsKey(std::string(64, 'a')).ok());
  CHECK(app::integrations::ParseSecretsKey(util::Base64Encode(std::string(32, 'z'))).ok());
  CHECK_FALSE(app::integrations::ParseSecretsKey("short").ok());
}

}  // namespace
}  // namespace service::domain::integrations
