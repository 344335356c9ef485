// Parsing and validation of the server contract's configuration (see
// service/options.h and shared/server-contract.md): the platform's settings
// rows, the parsers every row shares, and the table gathered from them and
// from the areas' rows (each area's module declares its own). Every failure
// is kInvalidArgument with a message that names the variable and the
// expected form, so that an operator can fix the value from the message
// alone.
#include "service/options.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "setting_rows.h"
#include "util/strings.h"

namespace service {
namespace {

constexpr std::string_view kPlanNames[] = {"free", "pro", "team", "enterprise"};
constexpr std::string_view kPlanLimitNames[] = {"projects",     "members",      "bugs_per_month",
                                                "integrations", "agent_tokens", "retention_days"};

template <size_t N>
bool OneOf(std::string_view value, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), value) != std::end(set);
}

template <size_t N>
std::string JoinNames(const std::string_view (&set)[N]) {
  std::string out;
  for (std::string_view s : set) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

std::string Quote(std::string_view value) { return modules::QuoteSettingValue(value); }

bool IsSpaceOrControl(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u <= 0x20 || u == 0x7f;
}

using modules::CheckHttpUrl;
using modules::HasSpaceOrControl;

// Host name, IPv4 address or bracketed IPv6 address; the brackets are not
// part of `host`.
bool IsValidHostName(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  for (char c : host) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '.' && c != '-' && c != '_') return false;
  }
  return host.front() != '.' && host.front() != '-';
}

bool IsValidIpv6Literal(std::string_view host) {
  if (host.empty() || host.size() > 45) return false;
  bool colon = false;
  for (char c : host) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ':') {
      colon = true;
    } else if (!std::isxdigit(u) && c != '.') {
      return false;
    }
  }
  return colon;
}

std::optional<int> ParsePort(std::string_view text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  const auto v = util::ParseInt(text);
  if (!v || *v > 65535) return std::nullopt;
  return static_cast<int>(*v);
}

// Splits "host[:port]" (host possibly a bracketed IPv6 literal). Returns
// false when malformed; `port` stays empty when absent.
bool SplitHostPort(std::string_view authority, std::string_view* host, std::string_view* port, bool* ipv6) {
  *ipv6 = false;
  *port = {};
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return false;
    *host = authority.substr(1, close - 1);
    *ipv6 = true;
    std::string_view rest = authority.substr(close + 1);
    if (rest.empty()) return IsValidIpv6Literal(*host);
    if (rest.front() != ':') return false;
    *port = rest.substr(1);
    return IsValidIpv6Literal(*host) && ParsePort(*port).has_value();
  }
  const size_t colon = authority.rfind(':');
  if (colon == std::string_view::npos) {
    *host = authority;
  } else {
    *host = authority.substr(0, colon);
    *port = authority.substr(colon + 1);
    if (!ParsePort(*port)) return false;
  }
  return IsValidHostName(*host);
}

// Strict non-negative integer (digits only).
std::optional<int64_t> ParseCount(std::string_view text) {
  if (text.empty() || text.size() > 15) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  return util::ParseInt(text);
}

Status Prefixed(std::string_view variable, const Status& status) {
  if (status.ok()) return status;
  return InvalidArgument(std::string(variable) + ": " + status.message());
}

}  // namespace

namespace modules {

std::string QuoteSettingValue(std::string_view value) {
  constexpr size_t kMax = 60;
  std::string out = "\"";
  out += value.substr(0, kMax);
  if (value.size() > kMax) out += "...";
  out += "\"";
  return out;
}

bool HasSpaceOrControl(std::string_view text) {
  return std::any_of(text.begin(), text.end(), IsSpaceOrControl);
}

std::string CheckHttpUrl(std::string_view url, bool allow_path) {
  std::string_view rest;
  if (util::StartsWith(util::ToLower(url.substr(0, 8)), "https://")) {
    rest = url.substr(8);
  } else if (util::StartsWith(util::ToLower(url.substr(0, 7)), "http://")) {
    rest = url.substr(7);
  } else {
    return "must start with http:// or https://";
  }
  if (HasSpaceOrControl(url)) return "must not contain spaces";
  if (rest.find_first_of("?#") != std::string_view::npos) return "must not contain a query or fragment";
  const size_t slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos && !allow_path && rest.substr(slash) != "/")
    return "must not have a path";
  if (authority.find('@') != std::string_view::npos) return "must not contain user information";
  std::string_view host, port;
  bool ipv6 = false;
  if (authority.empty() || !SplitHostPort(authority, &host, &port, &ipv6)) return "needs a valid host[:port]";
  return "";
}

}  // namespace modules

Result<bool> ParseSettingBool(std::string_view variable, std::string_view value) {
  const std::string v = util::ToLower(util::Trim(value));
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  return InvalidArgument(std::string(variable) + " must be 1 or 0, got " + Quote(value));
}

std::string Options::EffectivePublicUrl() const {
  std::string url = public_url.empty() ? "http://" + listen : public_url;
  while (url.size() > 1 && url.back() == '/') url.pop_back();
  return url;
}

Result<RateLimits> ParseRateLimits(std::string_view text) {
  const std::string trimmed = util::Trim(text);
  RateLimits limits;
  if (util::EqualsIgnoreCase(trimmed, "off")) {
    limits.enabled = false;
    return limits;
  }
  if (trimmed.empty()) {
    return InvalidArgument(
        "expected general=N,ingest=N,auth=N (any subset, N > 0) or off, got an empty value");
  }
  std::set<std::string> seen;
  for (const std::string& raw : util::Split(trimmed, ',')) {
    const std::string item = util::Trim(raw);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string name = util::ToLower(util::Trim(std::string_view(item).substr(0, eq)));
    if (eq == std::string::npos || (name != "general" && name != "ingest" && name != "auth")) {
      return InvalidArgument("expected general=N,ingest=N,auth=N (any subset, N > 0) or off, got " +
                             Quote(item));
    }
    const std::string value = util::Trim(std::string_view(item).substr(eq + 1));
    const auto n = ParseCount(value);
    if (!n || *n <= 0) {
      return InvalidArgument("limit " + name + " must be a positive integer (requests per 60 s), got " +
                             Quote(value));
    }
    if (!seen.insert(name).second) return InvalidArgument("limit " + name + " is given twice");
    if (name == "general") limits.general = *n;
    if (name == "ingest") limits.ingest = *n;
    if (name == "auth") limits.auth = *n;
  }
  if (seen.empty()) {
    return InvalidArgument("expected general=N,ingest=N,auth=N (any subset, N > 0) or off, got " +
                           Quote(text));
  }
  return limits;
}

namespace {

struct RetentionName {
  std::string_view name;
  int64_t RetentionPeriods::*field;
  int64_t min_ms;
  std::string_view min_text;
};

constexpr int64_t kMinuteMs = 60'000;
constexpr int64_t kHourMs = 60 * kMinuteMs;
constexpr int64_t kDayMs = 24 * kHourMs;

const RetentionName kRetentionNames[] = {
    {"deliveries", &RetentionPeriods::deliveries_ms, kDayMs, "1d"},
    {"dead_letters", &RetentionPeriods::dead_letters_ms, kDayMs, "1d"},
    {"outbox", &RetentionPeriods::outbox_ms, kDayMs, "1d"},
    {"sentry_event_ids", &RetentionPeriods::sentry_event_ids_ms, kDayMs, "1d"},
    {"agent_commands", &RetentionPeriods::agent_commands_ms, kHourMs, "1h"},
    {"presence", &RetentionPeriods::presence_ms, 5 * kMinuteMs, "5m"},
    {"evidence", &RetentionPeriods::evidence_ms, kDayMs, "1d"},
    {"expired_evidence", &RetentionPeriods::expired_evidence_ms, kDayMs, "1d"},
    {"digest_batches", &RetentionPeriods::digest_batches_ms, kDayMs, "1d"},
};

std::string RetentionForm() {
  std::string names;
  for (const RetentionName& n : kRetentionNames) names += (names.empty() ? "" : ", ") + std::string(n.name);
  return "expected NAME=DURATION[,NAME=DURATION...] (names: " + names +
         "; DURATION a whole number with m, h or d)";
}

}  // namespace

Result<RetentionPeriods> ParseRetention(std::string_view text) {
  RetentionPeriods out;
  std::set<std::string> seen;
  for (const std::string& raw : util::Split(text, ',')) {
    const std::string item = util::Trim(raw);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string name = util::ToLower(util::Trim(std::string_view(item).substr(0, eq)));
    const RetentionName* known = nullptr;
    for (const RetentionName& n : kRetentionNames) {
      if (n.name == name) known = &n;
    }
    if (eq == std::string::npos || known == nullptr) {
      return InvalidArgument(RetentionForm() + ", got " + Quote(item));
    }
    const std::string value = util::ToLower(util::Trim(std::string_view(item).substr(eq + 1)));
    const char unit = value.empty() ? '\0' : value.back();
    const int64_t unit_ms = unit == 'm' ? kMinuteMs : unit == 'h' ? kHourMs : unit == 'd' ? kDayMs : 0;
    const std::optional<int64_t> n =
        unit_ms == 0 ? std::nullopt : ParseCount(std::string_view(value).substr(0, value.size() - 1));
    const std::string bounds = std::string(known->min_text) + " to 3650d";
    if (!n || *n > 3650 * kDayMs / unit_ms || *n * unit_ms < known->min_ms) {
      return InvalidArgument(name + " must be a duration from " + bounds +
                             " (a whole number with m, h or d), got " + Quote(value));
    }
    if (!seen.insert(name).second) return InvalidArgument(name + " is given twice");
    out.*(known->field) = *n * unit_ms;
  }
  if (seen.empty()) return InvalidArgument(RetentionForm() + ", got " + Quote(text));
  return out;
}

// Grammar: PLAN ':' NAME '=' N (',' NAME '=' N)* with plans separated by ';'
// or by a further "PLAN:" item, e.g.
//   free:projects=3,members=5;pro:projects=20
//   free:projects=3,members=5,pro:projects=20
// A plan may appear more than once; later values win.
Result<PlanLimitOverrides> ParsePlanLimits(std::string_view text) {
  static const std::string kForm =
      "expected PLAN:LIMIT=N[,LIMIT=N...] with plans separated by ';' (plans: " + JoinNames(kPlanNames) +
      "; limits: " + JoinNames(kPlanLimitNames) + "; N >= 0)";
  PlanLimitOverrides out;
  std::string plan;
  for (const std::string& group : util::Split(text, ';')) {
    // A ';' always ends the current plan: "free:projects=3;members=5" is ambiguous.
    plan.clear();
    for (const std::string& raw : util::Split(group, ',')) {
      std::string item = util::Trim(raw);
      if (item.empty()) continue;
      const size_t colon = item.find(':');
      if (colon != std::string::npos) {
        plan = util::ToLower(util::Trim(std::string_view(item).substr(0, colon)));
        if (!OneOf(plan, kPlanNames)) {
          return InvalidArgument("unknown plan " + Quote(plan) + "; " + kForm);
        }
        item = util::Trim(std::string_view(item).substr(colon + 1));
      }
      if (plan.empty()) return InvalidArgument("a limit needs its plan first: " + Quote(item) + "; " + kForm);
      const size_t eq = item.find('=');
      if (eq == std::string::npos) return InvalidArgument(kForm + ", got " + Quote(item));
      const std::string name = util::ToLower(util::Trim(std::string_view(item).substr(0, eq)));
      if (!OneOf(name, kPlanLimitNames)) {
        return InvalidArgument("unknown limit " + Quote(name) + " for plan " + plan + "; " + kForm);
      }
      const std::string value = util::Trim(std::string_view(item).substr(eq + 1));
      const auto n = ParseCount(value);
      if (!n) {
        return InvalidArgument("limit " + plan + ":" + name + " must be a non-negative integer, got " +
                               Quote(value));
      }
      if (name == "retention_days" && *n < 1) {
        return InvalidArgument("limit " + plan + ":retention_days must be at least 1 (days), got " +
                               Quote(value));
      }
      out[plan][name] = *n;
    }
  }
  if (out.empty()) return InvalidArgument(kForm + ", got " + Quote(text));
  return out;
}

Result<CorsPolicy> ParseCorsOrigins(std::string_view text) {
  CorsPolicy policy;
  const std::string trimmed = util::Trim(text);
  if (trimmed == "*") {
    policy.any_origin = true;
    return policy;
  }
  for (const std::string& raw : util::Split(trimmed, ',')) {
    std::string origin = util::Trim(raw);
    if (origin.empty()) continue;
    if (origin == "*") return InvalidArgument("\"*\" cannot be combined with other origins");
    if (origin.size() > 1 && origin.back() == '/') origin.pop_back();  // "https://a.example/" is tolerated
    const std::string problem = CheckHttpUrl(origin, /*allow_path=*/false);
    if (!problem.empty()) {
      return InvalidArgument("origin " + Quote(origin) + " " + problem +
                             "; expected * or a comma-separated list of scheme://host[:port]");
    }
    // Scheme and host compare case-insensitively; browsers send them lower-cased.
    origin = util::ToLower(origin);
    if (std::find(policy.origins.begin(), policy.origins.end(), origin) == policy.origins.end()) {
      policy.origins.push_back(std::move(origin));
    }
  }
  if (policy.origins.empty()) {
    return InvalidArgument("expected * or a comma-separated list of scheme://host[:port], got " +
                           Quote(text));
  }
  return policy;
}

Status ParseListen(std::string_view text, std::string* host, int* port) {
  const std::string form =
      "expected HOST:PORT (e.g. 127.0.0.1:8080 or [::1]:8080, port 0-65535), got " + Quote(text);
  std::string_view h, p;
  bool ipv6 = false;
  if (text.empty() || HasSpaceOrControl(text) || !SplitHostPort(text, &h, &p, &ipv6) || p.empty()) {
    return InvalidArgument(form);
  }
  const auto parsed = ParsePort(p);
  if (!parsed) return InvalidArgument(form);
  if (host) *host = std::string(h);
  if (port) *port = *parsed;
  return Status::Ok();
}

Status ValidateDatabaseUrl(std::string_view text) {
  const std::string form = "expected sqlite:PATH, sqlite::memory: or postgresql://..., got " + Quote(text);
  if (text == "sqlite::memory:") return Status::Ok();
  if (util::StartsWith(text, "sqlite:")) {
    const std::string_view path = text.substr(7);
    if (path.empty() || util::Trim(path).empty()) return InvalidArgument(form);
    if (path.find('\0') != std::string_view::npos) return InvalidArgument(form);
    return Status::Ok();
  }
  if (util::StartsWith(text, "postgresql://") || util::StartsWith(text, "postgres://")) {
    if (HasSpaceOrControl(text)) return InvalidArgument("a PostgreSQL URL must not contain spaces");
    return Status::Ok();
  }
  return InvalidArgument(form);
}

// One function per setting; an empty value restores the default, like an
// unset variable.
namespace {

Status ApplyListen(Options& options, std::string_view value) {
  const std::string var = "SERVICE_LISTEN";
  const std::string trimmed = util::Trim(value);
  if (trimmed.empty()) {
    options.listen = Options().listen;
    return Status::Ok();
  }
  SV_RETURN_IF_ERROR(Prefixed(var, ParseListen(trimmed, nullptr, nullptr)));
  options.listen = trimmed;
  return Status::Ok();
}

Status ApplyDatabaseUrl(Options& options, std::string_view value) {
  const std::string var = "SERVICE_DATABASE_URL";
  const std::string trimmed = util::Trim(value);
  if (trimmed.empty()) {
    options.database_url = Options().database_url;
    return Status::Ok();
  }
  SV_RETURN_IF_ERROR(Prefixed(var, ValidateDatabaseUrl(trimmed)));
  options.database_url = trimmed;
  return Status::Ok();
}

Status ApplyEnv(Options& options, std::string_view value) {
  const std::string var = "SERVICE_ENV";
  const std::string trimmed = util::Trim(value);
  const std::string env = util::ToLower(trimmed);
  if (env == "production") {
    options.production = true;
  } else if (env == "development" || env.empty()) {
    options.production = false;
  } else {
    return InvalidArgument(var + " must be production or development, got " + Quote(value));
  }
  return Status::Ok();
}

Status ApplyPublicUrl(Options& options, std::string_view value) {
  const std::string var = "SERVICE_PUBLIC_URL";
  const std::string trimmed = util::Trim(value);
  if (!trimmed.empty()) {
    const std::string problem = CheckHttpUrl(trimmed, /*allow_path=*/true);
    if (!problem.empty()) {
      return InvalidArgument(var + " " + problem +
                             "; expected an http(s) URL such as https://bugs.example.com, got " +
                             Quote(trimmed));
    }
  }
  options.public_url = trimmed;
  return Status::Ok();
}

Status ApplyTrustProxy(Options& options, std::string_view value) {
  const std::string var = "SERVICE_TRUST_PROXY";
  const std::string trimmed = util::Trim(value);
  bool flag = false;
  if (!trimmed.empty()) {
    SV_ASSIGN_OR_RETURN(flag, ParseSettingBool(var, value));
  }
  options.trust_proxy = flag;
  return Status::Ok();
}

Status ApplyAllowPrivateDestinations(Options& options, std::string_view value) {
  const std::string var = "SERVICE_ALLOW_PRIVATE_DESTINATIONS";
  const std::string trimmed = util::Trim(value);
  bool flag = false;
  if (!trimmed.empty()) {
    SV_ASSIGN_OR_RETURN(flag, ParseSettingBool(var, value));
  }
  options.allow_private_destinations = flag;
  return Status::Ok();
}

Status ApplyRateLimits(Options& options, std::string_view value) {
  const std::string var = "SERVICE_RATE_LIMITS";
  const std::string trimmed = util::Trim(value);
  if (trimmed.empty()) {
    options.rate_limits = RateLimits();
    return Status::Ok();
  }
  auto limits = ParseRateLimits(trimmed);
  if (!limits.ok()) return Prefixed(var, limits.status());
  options.rate_limits = *limits;
  return Status::Ok();
}

Status ApplyRetention(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (trimmed.empty()) {
    options.retention = RetentionPeriods();
    return Status::Ok();
  }
  auto periods = ParseRetention(trimmed);
  if (!periods.ok()) return Prefixed("SERVICE_RETENTION", periods.status());
  options.retention = *periods;
  return Status::Ok();
}

Status ApplyCorsOrigins(Options& options, std::string_view value) {
  const std::string var = "SERVICE_CORS_ORIGINS";
  const std::string trimmed = util::Trim(value);
  if (trimmed.empty()) {
    options.cors = CorsPolicy();
    return Status::Ok();
  }
  auto cors = ParseCorsOrigins(trimmed);
  if (!cors.ok()) return Prefixed(var, cors.status());
  options.cors = std::move(*cors);
  return Status::Ok();
}

Status ApplyEvidenceDir(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  options.evidence_dir = trimmed;
  return Status::Ok();
}

// 1500 -> "1.5", 600000 -> "600".
std::string FormatSeconds(int64_t ms) {
  std::string out = std::to_string(ms / 1000);
  if (ms % 1000 != 0) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  return out;
}

// The platform's own rows; the areas' rows follow them (Settings(), in
// area_list.cpp).
std::vector<SettingInfo> PlatformRows() {
  return {
      {"SERVICE_LISTEN", "--listen", "HOST:PORT",
       "address and port to listen on (HOST:PORT, [IPv6]:PORT; port 0 picks a free one)", "127.0.0.1:8080",
       ApplyListen},
      {"SERVICE_DATABASE_URL", "--database", "URL",
       "sqlite:PATH (file and folder created), sqlite::memory:, or postgresql://... / postgres://...",
       "sqlite:data/service.db", ApplyDatabaseUrl},
      {"SERVICE_ENV", "", "",
       "production or development (development: forgot-password also returns the token)", "development",
       ApplyEnv},
      {"SERVICE_PUBLIC_URL", "", "", "base http(s) URL used in links (console, invitations, webhooks)",
       "http:// + the listen address", ApplyPublicUrl},
      {"SERVICE_TRUST_PROXY", "", "", "1: the client address is the first X-Forwarded-For entry", "0",
       ApplyTrustProxy},
      {"SERVICE_RATE_LIMITS", "", "",
       "general=N,ingest=N,auth=N (any subset; requests per 60 s per client address), or off",
       "general=200,ingest=100,auth=10", ApplyRateLimits},
      {"SERVICE_CORS_ORIGINS", "", "", "* or a comma-separated list of origins (scheme://host[:port])",
       "unset: same-origin only", ApplyCorsOrigins},
      {"SERVICE_ALLOW_PRIVATE_DESTINATIONS", "", "",
       "1: outbound webhooks may target loopback and private addresses", "0", ApplyAllowPrivateDestinations},
      {"SERVICE_EVIDENCE_DIR", "", "", "folder for evidence files", "unset: evidence unconfigured",
       ApplyEvidenceDir},
      {"SERVICE_RETENTION", "", "",
       "retention periods NAME=DURATION[,...] (names deliveries, dead_letters, outbox, sentry_event_ids, "
       "agent_commands, presence, evidence, expired_evidence, digest_batches; DURATION N with m, h or d); "
       "unnamed ones keep their defaults",
       "deliveries=30d,dead_letters=90d,outbox=7d,sentry_event_ids=30d,agent_commands=24h,presence=10m,"
       "evidence=30d,expired_evidence=30d,digest_batches=90d",
       ApplyRetention},
  };
}

}  // namespace

std::vector<SettingInfo> modules::PlatformSettings() { return PlatformRows(); }

Result<int64_t> ParseSettingCount(std::string_view variable, std::string_view value, int64_t min,
                                  int64_t max) {
  const std::string trimmed = util::Trim(value);
  int64_t n = 0;
  bool ok = !trimmed.empty() && trimmed.size() <= 12;
  for (char c : trimmed) {
    if (c < '0' || c > '9') ok = false;
    if (ok) n = n * 10 + (c - '0');
  }
  if (!ok || n < min || n > max) {
    return InvalidArgument(std::string(variable) + " must be a whole number from " + std::to_string(min) +
                           " to " + std::to_string(max));
  }
  return n;
}

Result<int64_t> ParseSettingSeconds(std::string_view variable, std::string_view value, int64_t min_ms,
                                    int64_t max_ms) {
  const std::string trimmed = util::Trim(value);
  int64_t whole = 0, frac_ms = 0, frac_digits = 0;
  bool ok = !trimmed.empty() && trimmed.size() <= 12, dot = false, digits = false;
  for (char c : trimmed) {
    if (c == '.' && !dot) {
      dot = true;
    } else if (c >= '0' && c <= '9') {
      digits = true;
      if (!dot) {
        whole = whole * 10 + (c - '0');
      } else if (frac_digits < 3) {
        frac_ms = frac_ms * 10 + (c - '0');
        ++frac_digits;
      }
    } else {
      ok = false;
    }
  }
  while (frac_digits > 0 && frac_digits < 3) {
    frac_ms *= 10;
    ++frac_digits;
  }
  const int64_t ms = whole * 1000 + frac_ms;
  if (!ok || !digits || ms < min_ms || ms > max_ms) {
    return InvalidArgument(std::string(variable) + " must be a number of seconds from " +
                           FormatSeconds(min_ms) + " to " + FormatSeconds(max_ms));
  }
  return ms;
}

const std::vector<std::string_view>& ConfigVariableNames() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const SettingInfo& s : Settings()) names.push_back(s.variable);
    return names;
  }();
  return kNames;
}

Status ApplySetting(Options& options, std::string_view variable, std::string_view value) {
  for (const SettingInfo& setting : Settings()) {
    if (setting.variable == variable) return setting.apply(options, value);
  }
  return InvalidArgument("unknown configuration variable " + Quote(variable));
}

}  // namespace service
