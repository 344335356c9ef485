#include "areas/integrations/domain/integration.h"

#include <algorithm>
#include <array>

#include "areas/capture/domain/vocabulary.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace service::domain::integrations {
namespace {

namespace json = boost::json;

constexpr std::array<std::string_view, 8> kTypes = {"webhook", "agent",  "chat_a",    "chat_b",
                                                    "chat_c",  "chat_d", "code_host", "bridge"};
constexpr std::array<std::string_view, 9> kEvents = {"new_bug",      "regression",   "status_change",
                                                     "comment",      "assigned",     "recommended_bug",
                                                     "agent_notify", "agent_update", "test"};
constexpr size_t kMaxUrlLength = 2048;

template <size_t N>
bool OneOf(const std::array<std::string_view, N>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// "" when `url` is an acceptable destination URL, else the problem.
std::string UrlProblem(std::string_view url, bool production) {
  if (url.empty()) return "is required";
  if (url.size() > kMaxUrlLength) return "must be at most 2048 characters";
  const std::string lower = util::ToLower(url.substr(0, 8));
  std::string_view rest;
  if (lower.starts_with("https://")) {
    rest = url.substr(8);
  } else if (lower.starts_with("http://")) {
    if (production) return "must use https";
    rest = url.substr(7);
  } else {
    return "must be an http or https URL";
  }
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return "must not contain spaces";
  }
  if (url.find('#') != std::string_view::npos) return "must not contain a fragment";
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?"));
  if (authority.empty()) return "needs a host";
  if (authority.find('@') != std::string_view::npos) return "must not contain credentials";
  return "";
}

bool RepoPart(std::string_view p) {
  if (p.empty() || p.size() > 100 || p == "." || p == "..") return false;
  for (char c : p) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string EventLabel(std::string_view event) {
  if (event == "new_bug") return "New bug";
  if (event == "regression") return "Regression";
  if (event == "status_change") return "Status changed";
  if (event == "comment") return "New comment";
  if (event == "assigned") return "Assigned";
  if (event == "recommended_bug") return "Recommended";
  if (event == "agent_notify") return "Agent handoff";
  if (event == "agent_update") return "Agent update";
  if (event == "test") return "Test delivery";
  return std::string(event);
}

// Colour of a severity (chat embeds): critical red .. low grey.
int SeverityColour(std::string_view severity) {
  if (severity == "critical") return 0xD32F2F;
  if (severity == "high") return 0xF57C00;
  if (severity == "medium") return 0xFBC02D;
  return 0x9E9E9E;
}

// The detail lines under the summary: status change, comment, url, console.
std::vector<std::string> DetailLines(const json::object& p) {
  std::vector<std::string> lines;
  const std::string event = PayloadText(p, "event");
  if (event == "status_change")
    lines.push_back("Status: " + PayloadText(p, "oldStatus") + " -> " + PayloadText(p, "status"));
  if (event == "comment" && !PayloadText(p, "comment").empty())
    lines.push_back("Comment: " + util::Utf8Shorten(PayloadText(p, "comment"), 300));
  if (event == "assigned" && !PayloadText(p, "assignedTo").empty())
    lines.push_back("Assigned to " + PayloadText(p, "assignedTo"));
  if (event == "agent_update" && !PayloadText(p, "prUrl").empty())
    lines.push_back("Pull request: " + PayloadText(p, "prUrl"));
  if (!PayloadText(p, "url").empty()) lines.push_back("Page: " + PayloadText(p, "url"));
  if (!PayloadText(p, "environment").empty() || !PayloadText(p, "release").empty()) {
    std::string l =
        "Environment: " + (PayloadText(p, "environment").empty() ? "-" : PayloadText(p, "environment"));
    if (!PayloadText(p, "release").empty()) l += ", release " + PayloadText(p, "release");
    lines.push_back(l);
  }
  return lines;
}

}  // namespace

std::string PayloadText(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::string DestinationFilterReason(std::string_view type, const std::optional<std::string>& min_severity,
                                    std::string_view delivery_feed, std::string_view event,
                                    const IssueFacts& f) {
  if (!IsSignedType(type) || (event != "new_bug" && event != "regression")) return "";
  if (min_severity &&
      domain::capture::SeverityRank(f.severity) < domain::capture::SeverityRank(*min_severity)) {
    return "below_min_severity";
  }
  const bool regression = f.is_regression || event == "regression";
  if (delivery_feed == "urgent_critical" &&
      !domain::capture::IsUrgentCritical(f.severity, f.signal_class, f.signal_family, regression)) {
    return "delivery_feed";
  }
  if (delivery_feed == "ui_ux" && !f.ui_ux) return "delivery_feed";
  return "";
}

bool IsIntegrationType(std::string_view type) { return OneOf(kTypes, type); }
bool IsSignedType(std::string_view type) { return type == "webhook" || type == "agent"; }
bool IsChatType(std::string_view type) {
  return type == "chat_a" || type == "chat_b" || type == "chat_c" || type == "chat_d";
}
bool IsOutboundEvent(std::string_view event) { return OneOf(kEvents, event); }

std::vector<std::string> DefaultEvents(std::string_view type) {
  std::vector<std::string> e = {"new_bug", "regression", "status_change"};
  if (type == "agent" || type == "webhook") e.push_back("agent_notify");
  if (IsChatType(type) || type == "bridge" || type == "webhook") e.push_back("agent_update");
  return e;
}

bool IsRepoName(std::string_view repo) {
  const size_t slash = repo.find('/');
  if (slash == std::string_view::npos) return false;
  return RepoPart(repo.substr(0, slash)) && RepoPart(repo.substr(slash + 1));
}

std::vector<ConfigProblem> CheckConfig(std::string_view type, const Config& c, bool production,
                                       std::string_view routine_fire_url) {
  std::vector<ConfigProblem> out;
  auto url = [&](std::string_view field, std::string_view value) {
    const std::string problem = UrlProblem(value, production);
    if (!problem.empty()) out.push_back({std::string(field), std::string(problem)});
  };
  if (IsSignedType(type) || IsChatType(type)) {
    url("config.url", c.url);
    if (!c.preset.empty()) {
      if (!IsSignedType(type) || c.preset != kRoutinePreset) {
        out.push_back({"config.preset", "must be code_agent_routine (webhook and agent only)"});
      } else if (routine_fire_url.empty()) {
        out.push_back({"config.preset", "the routine provider is not configured on this server"});
      } else if (c.url != routine_fire_url) {
        out.push_back({"config.url", "the routine preset accepts only the provider's fire URL"});
      }
    }
  } else if (type == "code_host") {
    if (!IsRepoName(c.repo)) out.push_back({"config.repo", "must be owner/name"});
    if (c.token.empty()) out.push_back({"config.token", "is required"});
    if (c.token.size() > 1000) out.push_back({"config.token", "must be at most 1000 characters"});
  } else if (type == "bridge") {
    url("config.bridgeUrl", c.bridge_url);
    if (c.address.empty() || c.address.size() > 320)
      out.push_back({"config.address", "is required (at most 320 characters)"});
  }
  if (c.secret.size() > 256) out.push_back({"config.secret", "must be at most 256 characters"});
  return out;
}

std::string DestinationUrl(std::string_view type, const Config& c) {
  if (type == "bridge") return c.bridge_url;
  if (type == "code_host") return {};
  return c.url;
}

std::string RedactUrl(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return "";
  const std::string_view rest = url.substr(scheme + 3);
  const size_t end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  const size_t at = authority.rfind('@');
  if (at != std::string_view::npos) authority = authority.substr(at + 1);
  std::string out = std::string(url.substr(0, scheme + 3)) + std::string(authority);
  if (end != std::string_view::npos && rest.substr(end) != "/") out += "/\xE2\x80\xA6";  // "/…"
  return out;
}

std::string Last4(std::string_view secret) {
  if (secret.size() < 8) return "";
  return std::string(secret.substr(secret.size() - 4));
}

std::string MaskSecret(std::string_view secret) {
  const std::string last = Last4(secret);
  return (secret.starts_with("whsec_") ? "whsec_" : "") + std::string("****") + last;
}

std::string SignatureHeader(int64_t unix_seconds, std::string_view body, std::string_view current,
                            std::string_view previous) {
  const std::string t = std::to_string(unix_seconds);
  std::string signed_text;
  signed_text.reserve(t.size() + 1 + body.size());
  signed_text.append(t).append(".").append(body);
  std::string out = "t=" + t + ",v1=" + util::HexEncode(util::HmacSha256(current, signed_text));
  if (!previous.empty()) out += ",v1=" + util::HexEncode(util::HmacSha256(previous, signed_text));
  return out;
}

std::string LegacySignature(std::string_view body, std::string_view secret) {
  return "sha256=" + util::HexEncode(util::HmacSha256(secret, body));
}

std::string_view ScheduleName(Schedule s) { return s == Schedule::kCapture ? "capture" : "short"; }

std::optional<Schedule> ParseSchedule(std::string_view name) {
  if (name == "capture") return Schedule::kCapture;
  if (name == "short") return Schedule::kShort;
  return std::nullopt;
}

int MaxSends(Schedule s) { return s == Schedule::kCapture ? 6 : 5; }

std::optional<int64_t> RetryDelayMs(Schedule s, int sends) {
  static constexpr std::array<int64_t, 5> kCapture = {10'000, 60'000, 300'000, 1'800'000, 7'200'000};
  if (sends < 1 || sends >= MaxSends(s)) return std::nullopt;
  if (s == Schedule::kCapture) return kCapture[static_cast<size_t>(sends - 1)];
  return int64_t{10'000} << (sends - 1);  // 10 s, 20 s, 40 s, 80 s
}

bool IsRetryableStatus(int status) {
  return status == 408 || status == 425 || status == 429 || (status >= 500 && status <= 599);
}

std::string SummaryLine(const json::object& p) {
  std::string line;
  const std::string severity = PayloadText(p, "severity");
  if (!severity.empty()) line += "[" + severity + "] ";
  line += EventLabel(PayloadText(p, "event")) + ": " + util::Utf8Shorten(PayloadText(p, "title"), 200);
  const json::value* count = p.if_contains("reportCount");
  if (count != nullptr && count->is_int64() && count->get_int64() > 0) {
    line += " (" + std::to_string(count->get_int64()) + (count->get_int64() == 1 ? " report)" : " reports)");
  }
  return line;
}

std::string ChatBody(std::string_view type, const json::object& p) {
  const std::string summary = SummaryLine(p);
  const std::vector<std::string> details = DetailLines(p);
  const std::string console = PayloadText(p, "consoleUrl");
  std::string text = summary;
  for (const std::string& l : details) text += "\n" + l;
  if (!console.empty()) text += "\n" + console;
  if (type == "chat_a") {
    std::string md = "*" + summary + "*";
    for (const std::string& l : details) md += "\n" + l;
    if (!console.empty()) md += "\n<" + console + "|Open in console>";
    return json::serialize(json::object{
        {"text", text},
        {"blocks", json::array{json::object{{"type", "section"},
                                            {"text", json::object{{"type", "mrkdwn"}, {"text", md}}}}}}});
  }
  if (type == "chat_b") {
    std::string description;
    for (const std::string& l : details) description += (description.empty() ? "" : "\n") + l;
    json::object embed{{"title", util::Utf8Shorten(summary, 256)},
                       {"description", util::Utf8Shorten(description, 4000)},
                       {"color", SeverityColour(PayloadText(p, "severity"))}};
    if (!console.empty()) embed["url"] = console;
    return json::serialize(
        json::object{{"content", util::Utf8Shorten(text, 2000)}, {"embeds", json::array{std::move(embed)}}});
  }
  if (type == "chat_c") {
    std::string body;
    for (const std::string& l : details) body += (body.empty() ? "" : "\n\n") + l;
    char colour[8];
    std::snprintf(colour, sizeof colour, "%06X", SeverityColour(PayloadText(p, "severity")));
    json::object card{{"@type", "MessageCard"}, {"@context", "https://schema.org/extensions"},
                      {"summary", summary},     {"themeColor", colour},
                      {"title", summary},       {"text", body.empty() ? summary : body}};
    if (!console.empty()) {
      card["potentialAction"] = json::array{
          json::object{{"@type", "OpenUri"},
                       {"name", "Open in console"},
                       {"targets", json::array{json::object{{"os", "default"}, {"uri", console}}}}}};
    }
    return json::serialize(card);
  }
  return json::serialize(json::object{{"text", text}});
}

std::string BridgeBody(std::string_view address, const json::object& p) {
  std::string text = SummaryLine(p);
  for (const std::string& l : DetailLines(p)) text += "\n" + l;
  return json::serialize(json::object{{"address", address},
                                      {"text", text},
                                      {"event", PayloadText(p, "event")},
                                      {"bugId", PayloadText(p, "bugId")},
                                      {"consoleUrl", PayloadText(p, "consoleUrl")}});
}

std::string RoutineBody(const json::object& p, std::string_view json_text) {
  std::string text = SummaryLine(p);
  for (const std::string& l : DetailLines(p)) text += "\n" + l;
  if (!PayloadText(p, "consoleUrl").empty()) text += "\n" + PayloadText(p, "consoleUrl");
  text += "\n\n";
  text.append(json_text);
  return json::serialize(json::object{{"text", text}});
}

IssueText CodeHostIssue(const json::object& p) {
  IssueText t;
  t.title =
      util::Utf8Shorten(PayloadText(p, "title").empty() ? "Untitled bug" : PayloadText(p, "title"), 250);
  std::string body = "**" + SummaryLine(p) + "**\n\n";
  if (!PayloadText(p, "description").empty())
    body += util::Utf8Shorten(PayloadText(p, "description"), 4000) + "\n\n";
  for (const std::string& l : DetailLines(p)) body += "- " + l + "\n";
  body += "- Severity: " + PayloadText(p, "severity") + "\n";
  if (!PayloadText(p, "bugId").empty()) body += "- Bug id: `" + PayloadText(p, "bugId") + "`\n";
  if (!PayloadText(p, "consoleUrl").empty())
    body += "\n[Open in console](" + PayloadText(p, "consoleUrl") + ")\n";
  t.body = std::move(body);
  return t;
}

}  // namespace service::domain::integrations
