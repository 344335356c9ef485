// Integration rules that need no I/O (Spec 2 "Integration", "Delivery",
// "Authentication" items 4-7, "Events", "Delivery rules"): the types and
// events, their defaults, the config each type needs, what reads may show
// of secrets and URLs, the two signature headers, the two retry schedules,
// which answers are worth retrying, and the readable chat bodies.
//
// Pure; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::integrations {

// webhook, agent, chat_a, chat_b, chat_c, chat_d, code_host, bridge.
bool IsIntegrationType(std::string_view type);
// webhook and agent: signed JSON posts with deliveryFeed, minSeverity and a bearer.
bool IsSignedType(std::string_view type);
// chat_a .. chat_d.
bool IsChatType(std::string_view type);
// new_bug, regression, status_change, comment, assigned, recommended_bug,
// agent_notify, agent_update, test.
bool IsOutboundEvent(std::string_view event);
// The events a new integration of `type` subscribes to when none are given:
// new_bug, regression, status_change, plus agent_notify (agent, webhook) and
// agent_update (chat types, bridge, webhook).
std::vector<std::string> DefaultEvents(std::string_view type);

// The preset of a routine trigger (config.preset).
inline constexpr std::string_view kRoutinePreset = "code_agent_routine";

// The config keys of Spec 2 ("Config keys"); "" when absent.
struct Config {
  std::string url;         // webhook, agent, chat types
  std::string secret;      // the signing secret as given (webhook, agent, bridge)
  std::string token;       // code_host
  std::string repo;        // code_host: owner/name
  std::string bridge_url;  // bridge
  std::string address;     // bridge
  std::string preset;      // "" or kRoutinePreset (webhook, agent)
};

struct ConfigProblem {
  std::string field;  // "config.url"
  std::string message;
};

// What a destination of `type` must name, and the form of each value:
//   webhook, agent     config.url (http(s); https in production); a preset
//                      only kRoutinePreset, whose url must equal
//                      `routine_fire_url` exactly (scheme, host, path, query)
//   chat_a .. chat_d   config.url
//   code_host          config.repo as owner/name, config.token
//   bridge             config.bridgeUrl, config.address
// URLs: at most 2048 characters, no credentials, no fragment, no spaces.
std::vector<ConfigProblem> CheckConfig(std::string_view type, const Config& config, bool production,
                                       std::string_view routine_fire_url);
// "owner/name": each part 1-100 of [A-Za-z0-9._-], not "." or "..".
bool IsRepoName(std::string_view repo);
// The URL a destination of `type` posts to (config.url, config.bridgeUrl,
// or "" for code_host, whose URL is the code host's API).
std::string DestinationUrl(std::string_view type, const Config& config);

// What reads show of a URL: scheme and host only ("https://hooks.example.com/…").
std::string RedactUrl(std::string_view url);
// The last four characters of a secret ("" when shorter than 8: nothing is shown).
std::string Last4(std::string_view secret);
// The masked form of a signing secret: "whsec_****" + last four.
std::string MaskSecret(std::string_view secret);

// Spec 2 "Authentication" 4: "t=<t>,v1=<hex>[,v1=<hex previous>]" with
// HMAC-SHA256 over "<t>.<body>"; `previous` empty: one value.
std::string SignatureHeader(int64_t unix_seconds, std::string_view body, std::string_view current,
                            std::string_view previous);
// The older header: "sha256=<hex>" over the body only.
std::string LegacySignature(std::string_view body, std::string_view secret);
// How long a rotated-out secret still signs: 24 h.
inline constexpr int64_t kRotationOverlapMs = 24LL * 3600 * 1000;

// Where a delivery came from, which decides its schedule (Delivery rules 1-3).
enum class Schedule {
  kCapture,  // webhook and agent from ingest: sends at 0, +10 s, +1 min, +5 min, +30 min, +2 h
  kShort,    // chat, code host, bridge, and direct sends: one send plus 4 retries from 10 s, doubling
};
std::string_view ScheduleName(Schedule s);  // "capture" or "short"
std::optional<Schedule> ParseSchedule(std::string_view name);
// How many sends a schedule makes in all (6 or 5).
int MaxSends(Schedule s);
// The wait after the `sends`-th failed send before the next, or nullopt when
// that was the last.
std::optional<int64_t> RetryDelayMs(Schedule s, int sends);
// An HTTP answer worth another try: 408, 425, 429 and 5xx. Any other
// non-2xx stops the delivery at once.
bool IsRetryableStatus(int status);
inline bool IsSuccessStatus(int status) { return status >= 200 && status < 300; }
// The receiver's deadline: 10 s.
inline constexpr int64_t kReceiverTimeoutMs = 10'000;
// A manual retry's outbound budget (sends in all, per delivery).
inline constexpr int kManualRetryBudget = 5;

// The outbound payload's constants.
inline constexpr std::string_view kPayloadVersion = "2026-10-08";
inline constexpr std::string_view kPayloadSource = "service";

// A string member of a payload ("" when absent or not a string).
std::string PayloadText(const boost::json::object& payload, std::string_view key);

// Whether a webhook or agent destination takes a new issue or regression
// (deliveryFeed and minSeverity apply to those two events only): "" when it
// does, else "below_min_severity" or "delivery_feed". `urgent_critical` and
// `ui_ux` are the facets of domain/triage/vocabulary.h. Other types and
// events: always "".
struct IssueFacts {
  std::string severity;
  std::string signal_class;
  std::string signal_family;
  bool is_regression = false;
  bool ui_ux = false;
};
std::string DestinationFilterReason(std::string_view type, const std::optional<std::string>& min_severity,
                                    std::string_view delivery_feed, std::string_view event,
                                    const IssueFacts& facts);

// The one-line summary of a payload ("[high] New bug: Checkout fails (3 reports)").
std::string SummaryLine(const boost::json::object& payload);
// The body a chat destination receives (no signature), by type:
//   chat_a  Slack-compatible   {text, blocks[section mrkdwn, context]}
//   chat_b  Discord-compatible {content, embeds[{title, url, description, color}]}
//   chat_c  Teams-compatible   {@type MessageCard, @context, summary, themeColor, title, text,
//                               potentialAction[OpenUri]}
//   chat_d  plain              {text}
// The bridge's body: {address, text, event, bugId, consoleUrl}.
std::string ChatBody(std::string_view type, const boost::json::object& payload);
std::string BridgeBody(std::string_view address, const boost::json::object& payload);
// The routine preset's body: {text: summary lines, a blank line, then the signed JSON}.
std::string RoutineBody(const boost::json::object& payload, std::string_view json_text);
// A code-host issue for a payload: title and Markdown body.
struct IssueText {
  std::string title;
  std::string body;
};
IssueText CodeHostIssue(const boost::json::object& payload);

}  // namespace service::domain::integrations
