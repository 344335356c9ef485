// Options: everything that configures a Service, and the parsers that turn the
// server contract's flags and environment variables into it. The parsers
// live here (not in the shell) so embedders and tests get the same rules.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/clock.h"
#include "service/logger.h"
#include "service/mailer.h"
#include "service/status.h"

namespace service {

// Requests per window per client address. Default: the spec's figures.
struct RateLimits {
  bool enabled = true;
  int64_t general = 200;
  int64_t ingest = 100;
  int64_t auth = 10;
  int64_t window_ms = 60'000;
};

struct CorsPolicy {
  bool any_origin = false;           // "*"
  std::vector<std::string> origins;  // exact origins; empty and !any: same-origin only
};

struct AiSettings {
  std::string url;  // OpenAI-compatible base or chat-completions URL; empty: unconfigured
  std::string key;
  std::string model;
};

// SERVICE_RETENTION: how long rows that pile up are kept before the sweeps
// delete them (README "Retention"), in milliseconds. Each sweep deletes in
// statements of at most kRetentionBatchRows rows, one transaction each.
struct RetentionPeriods {
  // Integration deliveries finished (success, failed, canceled), counted
  // from their completion, and the event payloads no delivery names any more.
  int64_t deliveries_ms = 30LL * 86'400'000;
  // The dead-letter log of deliveries whose last try failed.
  int64_t dead_letters_ms = 90LL * 86'400'000;
  // Outbox work (mail, ...) done or failed for good, counted from its last change.
  int64_t outbox_ms = 7LL * 86'400'000;
  // Stored Sentry event ids (a retry of one within it is not stored twice).
  int64_t sentry_event_ids_ms = 30LL * 86'400'000;
  // The answers of agent-work commands kept for replays.
  int64_t agent_commands_ms = 86'400'000;
  // Live presence rows, counted from their last ping.
  int64_t presence_ms = 10LL * 60'000;
  // An uploaded evidence artifact's life, counted from its upload (then it
  // expires and its file is removed).
  int64_t evidence_ms = 30LL * 86'400'000;
  // Rows of evidence artifacts expired or deleted, counted from then (reads
  // answer their state until; 404 after).
  int64_t expired_evidence_ms = 30LL * 86'400'000;
  // Alert email batches in a final state (succeeded, permanent_failure,
  // cancelled, outcome_unknown) with their events and recipient decisions,
  // counted from their last change.
  int64_t digest_batches_ms = 90LL * 86'400'000;
};
// The largest number of rows one retention statement deletes.
inline constexpr int64_t kRetentionBatchRows = 1000;

// plan name -> limit name -> value, e.g. {"free": {"projects": 3}}.
using PlanLimitOverrides = std::map<std::string, std::map<std::string, int64_t>>;

struct Options {
  // Default: "sqlite:data/service.db".
  std::string database_url = "sqlite:data/service.db";
  // Default: "127.0.0.1:8080". Used by the shell, and for public_url's default.
  std::string listen = "127.0.0.1:8080";
  // "production" or "development". Default: development.
  bool production = false;
  // Empty: generated once and kept in the database.
  std::string jwt_secret;
  std::vector<std::string> superadmin_emails;  // lower-cased
  // smtp://, smtps://, file:DIR, or empty (no mail provider).
  std::string mail_url;
  // Default: true when a mail provider is set, else false.
  std::optional<bool> require_email_verification;
  // Default: "http://" + listen.
  std::string public_url;
  bool trust_proxy = false;
  RateLimits rate_limits;
  PlanLimitOverrides plan_limits;
  CorsPolicy cors;
  AiSettings ai;
  bool allow_private_destinations = false;
  // SERVICE_SECRETS_KEY: the AES-256-GCM key of integration secrets at rest
  // (64 hex characters or base64 of 32 bytes). Empty: a key generated once
  // and kept in the database's settings table.
  std::string secrets_key;
  // SERVICE_ROUTINE_FIRE_URL: the one URL the routine preset may post to.
  // Empty: the preset is refused.
  std::string routine_fire_url;
  // SERVICE_CODE_HOST_API_URL: the GitHub-compatible REST API of code_host
  // integrations. Default: https://api.github.com.
  std::string code_host_api_url = "https://api.github.com";
  std::string evidence_dir;
  // SERVICE_METRICS_TOKEN: GET /metrics (Prometheus text) answers a caller
  // presenting "Authorization: Bearer <token>". Empty: the route does not
  // exist (404). Kept in memory, never logged. (The bundled server can also
  // serve the metrics on a separate address: SERVICE_METRICS_LISTEN.)
  std::string metrics_token;
  // SERVICE_NATIVE_CAPTURE_RECEIPTS: native (Swift) captures may create
  // first-capture receipts. Default: false (reads of existing receipts stay).
  bool native_capture_receipts = false;
  // SERVICE_RETENTION: the periods of the retention sweeps.
  RetentionPeriods retention;
  // SERVICE_DIGEST_PERIODS: the length of each digest frequency (hourly,
  // daily); shorter ones for staging and tests.
  int64_t digest_hourly_ms = 3'600'000;
  int64_t digest_daily_ms = 86'400'000;
  // SERVICE_BILLING_API_URL: base of a Stripe-compatible payments API.
  std::string billing_api_url = "https://api.stripe.com";
  // SERVICE_BILLING_SECRET_KEY: the payments API's secret key. Empty: billing
  // is not configured (checkout, card setup and portal answer 501).
  std::string billing_secret_key;
  // SERVICE_BILLING_WEBHOOK_SECRET: verifies inbound payment events
  // (Stripe-Signature). Empty: inbound events are refused.
  std::string billing_webhook_secret;

  // Injected time source. Default (null): the system clock.
  std::shared_ptr<Clock> clock;
  // Database pool size (see store::DatabaseOptions). Default: 8.
  int db_pool_size = 8;
  // Where background failures and the causes of 5xx answers are reported.
  // Default (null): JSON lines on standard error (NewJsonLinesLogger).
  std::shared_ptr<Logger> logger;
  // The mail provider. Default (null): built from mail_url; with neither,
  // the service has no mail provider. When set, mail_url is ignored.
  std::shared_ptr<Mailer> mailer;

  std::string EffectivePublicUrl() const;
  // True when a mail provider is configured (mailer or mail_url).
  bool MailConfigured() const { return mailer != nullptr || !mail_url.empty(); }
  bool EffectiveRequireEmailVerification() const {
    return require_email_verification.value_or(MailConfigured());
  }
};

// One setting of the server contract: its environment variable, its flag
// (if any), what it means, its default as people read it, and the function
// that applies a value to a `Target` (an empty value restores the default; a
// bad value: kInvalidArgument naming the variable). The library's rows apply
// to Options; the bundled server's transport rows (shells/server) to its own
// settings.
template <typename Target>
struct SettingRow {
  std::string_view variable;    // "SERVICE_LISTEN"
  std::string_view flag;        // "--listen", or "" without a flag
  std::string_view value_hint;  // "HOST:PORT" (flags)
  std::string_view meaning;
  std::string_view default_text;
  Status (*apply)(Target& target, std::string_view value);
};
using SettingInfo = SettingRow<Options>;

// Every setting of the library, in documentation order: the platform's rows
// (listen, database, ...), then each area's rows in the order the areas open
// (each declared by its area's module). The one table behind option parsing,
// the shell's --help and the README's configuration table.
const std::vector<SettingInfo>& Settings();

// The environment variables of Settings(), in the same order.
const std::vector<std::string_view>& ConfigVariableNames();

// Applies one setting by its variable name (e.g. "SERVICE_RATE_LIMITS").
// A bad value: kInvalidArgument with a message naming the variable.
Status ApplySetting(Options& options, std::string_view variable, std::string_view value);

// Value parsers, exposed for tests and embedders.
Result<RateLimits> ParseRateLimits(std::string_view text);
Result<PlanLimitOverrides> ParsePlanLimits(std::string_view text);
// "NAME=DURATION[,NAME=DURATION...]", any subset of the RetentionPeriods
// names (deliveries, dead_letters, outbox, sentry_event_ids, agent_commands,
// presence, evidence, expired_evidence); DURATION a whole number with m, h or d (minutes,
// hours, days), from each name's least (presence 5m, agent_commands 1h, the
// others 1d) to 3650d. Unnamed periods keep their defaults.
Result<RetentionPeriods> ParseRetention(std::string_view text);
Result<CorsPolicy> ParseCorsOrigins(std::string_view text);
// "HOST:PORT" (IPv6 as "[::1]:8080"). Port 0..65535.
Status ParseListen(std::string_view text, std::string* host, int* port);
Status ValidateDatabaseUrl(std::string_view text);
// The forms of SERVICE_MAIL_URL (see the README's "Mail"); the message never
// repeats the URL.
Status ValidateMailUrl(std::string_view text);

// Parsers for the rows of a settings table, so that every row (the library's
// and an embedder's or shell's own) reads and refuses values alike. Each
// trims `value`; a bad value: kInvalidArgument naming `variable`.
// 1/0/true/false/yes/no/on/off: "VARIABLE must be 1 or 0, got ...".
Result<bool> ParseSettingBool(std::string_view variable, std::string_view value);
// A whole number in [min, max]: "VARIABLE must be a whole number from MIN to MAX".
Result<int64_t> ParseSettingCount(std::string_view variable, std::string_view value, int64_t min,
                                  int64_t max);
// Seconds, decimals allowed ("0.5"; beyond milliseconds ignored), returned in
// milliseconds within [min_ms, max_ms]: "VARIABLE must be a number of seconds
// from MIN to MAX".
Result<int64_t> ParseSettingSeconds(std::string_view variable, std::string_view value, int64_t min_ms,
                                    int64_t max_ms);

}  // namespace service
