// Configuration parsing: every variable of the server contract, good and bad
// values, and the messages an operator sees.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "service/options.h"
#include "transport_settings.h"

namespace service {
namespace {

struct Case {
  const char* variable;
  const char* value;
  bool ok;
};

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The field of the event loop's settings that a transport row sets.
int64_t EventSetting(const shell::EventTransportSettings& s, std::string_view variable) {
  if (variable == "SERVICE_WORKER_THREADS") return static_cast<int64_t>(s.worker_threads);
  if (variable == "SERVICE_HEADER_TIMEOUT") return s.header_timeout_ms;
  if (variable == "SERVICE_MIN_BODY_RATE") return s.min_body_rate;
  if (variable == "SERVICE_KEEP_ALIVE_TIMEOUT") return s.keep_alive_timeout_ms;
  if (variable == "SERVICE_WRITE_TIMEOUT") return s.write_timeout_ms;
  if (variable == "SERVICE_MAX_HEADER_SIZE") return static_cast<int64_t>(s.max_header_bytes);
  if (variable == "SERVICE_MAX_CONNECTIONS") return static_cast<int64_t>(s.max_connections);
  if (variable == "SERVICE_MAX_CONNECTIONS_PER_CLIENT")
    return static_cast<int64_t>(s.max_connections_per_client);
  return -1;
}

}  // namespace

TEST_CASE("ConfigVariableNames lists the library's variables once: the platform's, then each area's") {
  const std::vector<std::string_view> expected = {
      // The platform (options.cpp).
      "SERVICE_LISTEN", "SERVICE_DATABASE_URL", "SERVICE_ENV", "SERVICE_PUBLIC_URL", "SERVICE_TRUST_PROXY",
      "SERVICE_RATE_LIMITS", "SERVICE_CORS_ORIGINS", "SERVICE_ALLOW_PRIVATE_DESTINATIONS",
      "SERVICE_EVIDENCE_DIR", "SERVICE_RETENTION",
      // The areas, in the order they open (each area's module.cpp).
      "SERVICE_MAIL_URL", "SERVICE_REQUIRE_EMAIL_VERIFICATION",  // mail
      "SERVICE_METRICS_TOKEN",                                   // metrics
      "SERVICE_SUPERADMIN_EMAILS", "SERVICE_PLAN_LIMITS",        // operations
      "SERVICE_BILLING_API_URL", "SERVICE_BILLING_SECRET_KEY",
      "SERVICE_BILLING_WEBHOOK_SECRET",                                                 // operations
      "SERVICE_JWT_SECRET",                                                             // accounts
      "SERVICE_NATIVE_CAPTURE_RECEIPTS",                                                // applications
      "SERVICE_AI_URL", "SERVICE_AI_KEY", "SERVICE_AI_MODEL",                           // ai
      "SERVICE_DIGEST_PERIODS",                                                         // triage
      "SERVICE_SECRETS_KEY", "SERVICE_ROUTINE_FIRE_URL", "SERVICE_CODE_HOST_API_URL"};  // integrations
  CHECK(ConfigVariableNames() == expected);
}

TEST_CASE("the shell's transport rows: its variables, in documentation order, none of them the library's") {
  const std::vector<std::string_view> expected = {
      "SERVICE_TRANSPORT",       "SERVICE_WORKER_THREADS",     "SERVICE_HEADER_TIMEOUT",
      "SERVICE_MIN_BODY_RATE",   "SERVICE_KEEP_ALIVE_TIMEOUT", "SERVICE_WRITE_TIMEOUT",
      "SERVICE_MAX_HEADER_SIZE", "SERVICE_MAX_CONNECTIONS",    "SERVICE_MAX_CONNECTIONS_PER_CLIENT",
      "SERVICE_METRICS_LISTEN"};
  std::vector<std::string_view> names;
  for (const shell::TransportSetting& s : shell::TransportSettings()) {
    names.push_back(s.variable);
    Options options;
    CHECK_MESSAGE(ApplySetting(options, s.variable, "").code() == Code::kInvalidArgument, s.variable);
  }
  CHECK(names == expected);
}

TEST_CASE("transport settings: values, defaults and refusals") {
  struct Case {
    const char* variable;
    const char* value;
    bool ok;
    int64_t expected;
  };
  const Case cases[] = {
      {"SERVICE_HEADER_TIMEOUT", "10", true, 10'000},
      {"SERVICE_HEADER_TIMEOUT", "0.5", true, 500},
      {"SERVICE_HEADER_TIMEOUT", " 2.25 ", true, 2'250},
      {"SERVICE_HEADER_TIMEOUT", "", true, 10'000},
      {"SERVICE_HEADER_TIMEOUT", "0", false, 0},
      {"SERVICE_HEADER_TIMEOUT", "1.2.3", false, 0},
      {"SERVICE_HEADER_TIMEOUT", "-1", false, 0},
      {"SERVICE_HEADER_TIMEOUT", "10s", false, 0},
      {"SERVICE_HEADER_TIMEOUT", ".", false, 0},
      {"SERVICE_KEEP_ALIVE_TIMEOUT", "75", true, 75'000},
      {"SERVICE_KEEP_ALIVE_TIMEOUT", "3601", false, 0},
      {"SERVICE_WRITE_TIMEOUT", "1", true, 1'000},
      {"SERVICE_MIN_BODY_RATE", "0", true, 0},
      {"SERVICE_MIN_BODY_RATE", "4096", true, 4096},
      {"SERVICE_MIN_BODY_RATE", "1e3", false, 0},
      {"SERVICE_WORKER_THREADS", "16", true, 16},
      {"SERVICE_WORKER_THREADS", "0", false, 0},
      {"SERVICE_WORKER_THREADS", "5000", false, 0},
      {"SERVICE_MAX_HEADER_SIZE", "2048", true, 2048},
      {"SERVICE_MAX_HEADER_SIZE", "100", false, 0},
      {"SERVICE_MAX_CONNECTIONS", "0", true, 0},
      {"SERVICE_MAX_CONNECTIONS", "", true, 10'000},
      {"SERVICE_MAX_CONNECTIONS_PER_CLIENT", "8", true, 8},
      {"SERVICE_MAX_CONNECTIONS_PER_CLIENT", "many", false, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.variable);
    CAPTURE(c.value);
    shell::TransportOptions options;
    const Status s = shell::ApplyTransportSetting(options, c.variable, c.value);
    CHECK(s.ok() == c.ok);
    if (c.ok) {
      CHECK(EventSetting(options.events, c.variable) == c.expected);
    } else {
      CHECK(Contains(s.message(), c.variable));
    }
  }
  // The messages the server printed before the rows moved to the shell.
  shell::TransportOptions options;
  CHECK(shell::ApplyTransportSetting(options, "SERVICE_WORKER_THREADS", "0").message() ==
        "SERVICE_WORKER_THREADS must be a whole number from 1 to 4096");
  CHECK(shell::ApplyTransportSetting(options, "SERVICE_HEADER_TIMEOUT", "0").message() ==
        "SERVICE_HEADER_TIMEOUT must be a number of seconds from 0.1 to 600");
  CHECK(options.event_loop);
  REQUIRE(shell::ApplyTransportSetting(options, "SERVICE_TRANSPORT", "threads").ok());
  CHECK_FALSE(options.event_loop);
  REQUIRE(shell::ApplyTransportSetting(options, "SERVICE_TRANSPORT", "").ok());
  CHECK(options.event_loop);
  CHECK(shell::ApplyTransportSetting(options, "SERVICE_TRANSPORT", "epoll").message() ==
        "SERVICE_TRANSPORT must be events or threads");
  CHECK_FALSE(shell::ApplyTransportSetting(options, "SERVICE_LISTEN", "127.0.0.1:1").ok());
}

TEST_CASE("ApplySetting accepts good values and rejects bad ones with the variable's name") {
  const std::string secret32(32, 's');
  const std::string secret31(31, 's');
  const std::vector<Case> cases = {
      {"SERVICE_LISTEN", "127.0.0.1:8080", true},
      {"SERVICE_LISTEN", "0.0.0.0:0", true},
      {"SERVICE_LISTEN", "[::1]:9000", true},
      {"SERVICE_LISTEN", "localhost:65535", true},
      {"SERVICE_LISTEN", "localhost", false},
      {"SERVICE_LISTEN", "127.0.0.1:65536", false},
      {"SERVICE_LISTEN", "127.0.0.1:-1", false},
      {"SERVICE_LISTEN", ":8080", false},
      {"SERVICE_LISTEN", "127.0.0.1:80a", false},
      {"SERVICE_LISTEN", "[::1:8080", false},
      {"SERVICE_DATABASE_URL", "sqlite:data/service.db", true},
      {"SERVICE_DATABASE_URL", "sqlite::memory:", true},
      {"SERVICE_DATABASE_URL", "postgresql://u:p@localhost:5432/db", true},
      {"SERVICE_DATABASE_URL", "postgres://localhost/db", true},
      {"SERVICE_DATABASE_URL", "sqlite:", false},
      {"SERVICE_DATABASE_URL", "mysql://localhost/db", false},
      {"SERVICE_DATABASE_URL", "data/service.db", false},
      {"SERVICE_ENV", "production", true},
      {"SERVICE_ENV", "development", true},
      {"SERVICE_ENV", "staging", false},
      {"SERVICE_JWT_SECRET", secret32.c_str(), true},
      {"SERVICE_JWT_SECRET", secret31.c_str(), false},
      {"SERVICE_SUPERADMIN_EMAILS", "a@example.com, B@Example.com", true},
      {"SERVICE_SUPERADMIN_EMAILS", "a@example.com,not-an-email", false},
      {"SERVICE_MAIL_URL", "smtp://user:pass@mail.example.com:587", true},
      {"SERVICE_MAIL_URL", "smtps://user:p@ss@mail.example.com:465", true},
      {"SERVICE_MAIL_URL", "smtp://relay.local:25", true},
      {"SERVICE_MAIL_URL", "file:/tmp/mail", true},
      {"SERVICE_MAIL_URL", "smtp://relay.example.com:25?from=ops%40example.com&timeout_ms=5000", true},
      {"SERVICE_MAIL_URL", "file:", false},
      {"SERVICE_MAIL_URL", "http://mail.example.com", false},
      {"SERVICE_MAIL_URL", "smtp://user:pass@:587", false},
      {"SERVICE_MAIL_URL", "smtp://user:pass@host:99999", false},
      {"SERVICE_REQUIRE_EMAIL_VERIFICATION", "1", true},
      {"SERVICE_REQUIRE_EMAIL_VERIFICATION", "0", true},
      {"SERVICE_REQUIRE_EMAIL_VERIFICATION", "maybe", false},
      {"SERVICE_PUBLIC_URL", "https://bugs.example.com", true},
      {"SERVICE_PUBLIC_URL", "http://localhost:8080/base/", true},
      {"SERVICE_PUBLIC_URL", "ftp://bugs.example.com", false},
      {"SERVICE_PUBLIC_URL", "https://", false},
      {"SERVICE_PUBLIC_URL", "https://bugs.example.com/?x=1", false},
      {"SERVICE_TRUST_PROXY", "1", true},
      {"SERVICE_TRUST_PROXY", "2", false},
      {"SERVICE_RATE_LIMITS", "off", true},
      {"SERVICE_RATE_LIMITS", "general=5", true},
      {"SERVICE_RATE_LIMITS", "nonsense", false},
      {"SERVICE_PLAN_LIMITS", "free:projects=3,members=5,bugs_per_month=1000", true},
      {"SERVICE_PLAN_LIMITS", "gold:projects=3", false},
      {"SERVICE_CORS_ORIGINS", "*", true},
      {"SERVICE_CORS_ORIGINS", "https://app.example.com,http://localhost:3000", true},
      {"SERVICE_CORS_ORIGINS", "https://app.example.com/path", false},
      {"SERVICE_CORS_ORIGINS", "app.example.com", false},
      {"SERVICE_AI_URL", "https://api.openai.com/v1", true},
      {"SERVICE_AI_URL", "api.openai.com", false},
      {"SERVICE_AI_KEY", "sk-123", true},
      {"SERVICE_AI_MODEL", "gpt-4o-mini", true},
      {"SERVICE_ALLOW_PRIVATE_DESTINATIONS", "0", true},
      {"SERVICE_ALLOW_PRIVATE_DESTINATIONS", "yes please", false},
      {"SERVICE_EVIDENCE_DIR", "/var/lib/service/evidence", true},
      {"SERVICE_NOT_A_VARIABLE", "1", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.variable);
    CAPTURE(c.value);
    Options options;
    const Status status = ApplySetting(options, c.variable, c.value);
    CHECK(status.ok() == c.ok);
    if (!c.ok) {
      CHECK(status.code() == Code::kInvalidArgument);
      CHECK(Contains(status.message(), c.variable));
    }
  }
}

TEST_CASE("every contract variable is known to ApplySetting, and an empty value restores its default") {
  for (std::string_view name : ConfigVariableNames()) {
    CAPTURE(name);
    Options options;
    const Status status = ApplySetting(options, name, "");
    CHECK(status.ok());
    CHECK(options.listen == Options().listen);
    CHECK(options.database_url == Options().database_url);
  }
}

TEST_CASE("ApplySetting stores the parsed values") {
  Options o;
  REQUIRE(ApplySetting(o, "SERVICE_LISTEN", "0.0.0.0:9090").ok());
  CHECK(o.listen == "0.0.0.0:9090");
  REQUIRE(ApplySetting(o, "SERVICE_DATABASE_URL", "sqlite::memory:").ok());
  CHECK(o.database_url == "sqlite::memory:");
  REQUIRE(ApplySetting(o, "SERVICE_ENV", "production").ok());
  CHECK(o.production);
  REQUIRE(ApplySetting(o, "SERVICE_ENV", "development").ok());
  CHECK_FALSE(o.production);
  REQUIRE(ApplySetting(o, "SERVICE_SUPERADMIN_EMAILS", " Root@Example.com ,ops@example.com,root@example.com,")
              .ok());
  CHECK(o.superadmin_emails == std::vector<std::string>{"root@example.com", "ops@example.com"});
  REQUIRE(ApplySetting(o, "SERVICE_TRUST_PROXY", "1").ok());
  CHECK(o.trust_proxy);
  REQUIRE(ApplySetting(o, "SERVICE_ALLOW_PRIVATE_DESTINATIONS", "1").ok());
  CHECK(o.allow_private_destinations);
  REQUIRE(ApplySetting(o, "SERVICE_AI_URL", "https://ai.example.com/v1").ok());
  REQUIRE(ApplySetting(o, "SERVICE_AI_KEY", "sk-abc").ok());
  REQUIRE(ApplySetting(o, "SERVICE_AI_MODEL", "m1").ok());
  CHECK(o.ai.url == "https://ai.example.com/v1");
  CHECK(o.ai.key == "sk-abc");
  CHECK(o.ai.model == "m1");
  REQUIRE(ApplySetting(o, "SERVICE_EVIDENCE_DIR", "/tmp/evidence").ok());
  CHECK(o.evidence_dir == "/tmp/evidence");
  REQUIRE(ApplySetting(o, "SERVICE_RATE_LIMITS", "off").ok());
  CHECK_FALSE(o.rate_limits.enabled);
  REQUIRE(ApplySetting(o, "SERVICE_CORS_ORIGINS", "*").ok());
  CHECK(o.cors.any_origin);
  REQUIRE(ApplySetting(o, "SERVICE_PLAN_LIMITS", "pro:members=50").ok());
  CHECK(o.plan_limits["pro"]["members"] == 50);
}

TEST_CASE("email verification defaults to on exactly when a mail provider is set") {
  Options o;
  CHECK_FALSE(o.EffectiveRequireEmailVerification());
  REQUIRE(ApplySetting(o, "SERVICE_MAIL_URL", "file:/tmp/mail").ok());
  CHECK(o.mail_url == "file:/tmp/mail");
  CHECK(o.EffectiveRequireEmailVerification());
  REQUIRE(ApplySetting(o, "SERVICE_REQUIRE_EMAIL_VERIFICATION", "0").ok());
  CHECK_FALSE(o.EffectiveRequireEmailVerification());
  REQUIRE(ApplySetting(o, "SERVICE_REQUIRE_EMAIL_VERIFICATION", "").ok());
  CHECK(o.EffectiveRequireEmailVerification());
}

TEST_CASE("the JWT secret message explains the minimum length and never echoes the secret") {
  Options o;
  const Status s = ApplySetting(o, "SERVICE_JWT_SECRET", "hunter2-but-longer");
  REQUIRE_FALSE(s.ok());
  CHECK(Contains(s.message(), "at least 32 characters"));
  CHECK_FALSE(Contains(s.message(), "hunter2"));
  CHECK(o.jwt_secret.empty());
}

TEST_CASE("a mail URL error never echoes the password") {
  Options o;
  const Status s = ApplySetting(o, "SERVICE_MAIL_URL", "smtpx://user:s3cret@host:25");
  REQUIRE_FALSE(s.ok());
  CHECK_FALSE(Contains(s.message(), "s3cret"));
  CHECK(Contains(s.message(), "smtp://"));
}

TEST_CASE("EffectivePublicUrl defaults to http:// plus the listen address and drops trailing slashes") {
  Options o;
  CHECK(o.EffectivePublicUrl() == "http://127.0.0.1:8080");
  o.listen = "0.0.0.0:9000";
  CHECK(o.EffectivePublicUrl() == "http://0.0.0.0:9000");
  o.public_url = "https://bugs.example.com/";
  CHECK(o.EffectivePublicUrl() == "https://bugs.example.com");
}

TEST_CASE("ParseRateLimits") {
  SUBCASE("off disables limiting, in any case") {
    auto r = ParseRateLimits("OFF");
    REQUIRE(r.ok());
    CHECK_FALSE(r->enabled);
  }
  SUBCASE("all three figures") {
    auto r = ParseRateLimits("general=200,ingest=100,auth=10");
    REQUIRE(r.ok());
    CHECK(r->enabled);
    CHECK(r->general == 200);
    CHECK(r->ingest == 100);
    CHECK(r->auth == 10);
    CHECK(r->window_ms == 60'000);
  }
  SUBCASE("a subset keeps the other defaults") {
    auto r = ParseRateLimits(" auth = 3 ");
    REQUIRE(r.ok());
    CHECK(r->auth == 3);
    CHECK(r->general == RateLimits().general);
    CHECK(r->ingest == RateLimits().ingest);
  }
  SUBCASE("bad values") {
    for (const char* bad : {"", "nonsense", "general=0", "general=-5", "general=abc", "general=1.5",
                            "burst=10", "general=5,general=6", "general", "=5"}) {
      CAPTURE(bad);
      auto r = ParseRateLimits(bad);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kInvalidArgument);
    }
  }
  SUBCASE("the message names the expected form") {
    auto r = ParseRateLimits("fast");
    REQUIRE_FALSE(r.ok());
    CHECK(Contains(r.status().message(), "general=N"));
    CHECK(Contains(r.status().message(), "off"));
  }
}

TEST_CASE("ParsePlanLimits") {
  SUBCASE("one plan") {
    auto r = ParsePlanLimits("free:projects=3,members=5,bugs_per_month=1000");
    REQUIRE(r.ok());
    CHECK(r->size() == 1);
    CHECK(r->at("free").at("projects") == 3);
    CHECK(r->at("free").at("members") == 5);
    CHECK(r->at("free").at("bugs_per_month") == 1000);
  }
  SUBCASE("plans separated by ';'") {
    auto r = ParsePlanLimits("free:projects=3; pro:projects=20,members=0");
    REQUIRE(r.ok());
    CHECK(r->at("free").at("projects") == 3);
    CHECK(r->at("pro").at("projects") == 20);
    CHECK(r->at("pro").at("members") == 0);
  }
  SUBCASE("plans introduced by repeating PLAN:") {
    auto r = ParsePlanLimits("free:projects=3,members=5,team:integrations=7,Enterprise:agent_tokens=9");
    REQUIRE(r.ok());
    CHECK(r->at("free").size() == 2);
    CHECK(r->at("team").at("integrations") == 7);
    CHECK(r->at("enterprise").at("agent_tokens") == 9);
  }
  SUBCASE("bad values") {
    for (const char* bad : {"", "projects=3", "gold:projects=3", "free:seats=3", "free:projects=-1",
                            "free:projects=x", "free:projects", "free:projects=3;members=5"}) {
      CAPTURE(bad);
      auto r = ParsePlanLimits(bad);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kInvalidArgument);
    }
  }
  SUBCASE("the message lists plan and limit names") {
    auto r = ParsePlanLimits("gold:projects=3");
    REQUIRE_FALSE(r.ok());
    CHECK(Contains(r.status().message(), "enterprise"));
    CHECK(Contains(r.status().message(), "bugs_per_month"));
  }
}

TEST_CASE("ParseCorsOrigins") {
  SUBCASE("any origin") {
    auto r = ParseCorsOrigins("*");
    REQUIRE(r.ok());
    CHECK(r->any_origin);
    CHECK(r->origins.empty());
  }
  SUBCASE("a list, normalised") {
    auto r = ParseCorsOrigins("https://App.Example.com, http://localhost:3000/,https://app.example.com");
    REQUIRE(r.ok());
    CHECK_FALSE(r->any_origin);
    CHECK(r->origins == std::vector<std::string>{"https://app.example.com", "http://localhost:3000"});
  }
  SUBCASE("bad values") {
    for (const char* bad : {"", ",", "*,https://a.example", "https://a.example/app", "a.example",
                            "ftp://a.example", "https://a.example:99999", "https://a.example?x=1"}) {
      CAPTURE(bad);
      auto r = ParseCorsOrigins(bad);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kInvalidArgument);
    }
  }
}

TEST_CASE("ParseListen splits host and port") {
  struct ListenCase {
    const char* text;
    const char* host;
    int port;
  };
  for (const ListenCase& c : std::vector<ListenCase>{{"127.0.0.1:8080", "127.0.0.1", 8080},
                                                     {"0.0.0.0:0", "0.0.0.0", 0},
                                                     {"localhost:1", "localhost", 1},
                                                     {"[::1]:9000", "::1", 9000},
                                                     {"[::]:80", "::", 80}}) {
    CAPTURE(c.text);
    std::string host;
    int port = -1;
    REQUIRE(ParseListen(c.text, &host, &port).ok());
    CHECK(host == c.host);
    CHECK(port == c.port);
  }
  for (const char* bad :
       {"", "8080", "host:", ":80", "host:port", "a b:80", "[::1]", "[xyz]:80", "host:123456"}) {
    CAPTURE(bad);
    const Status s = ParseListen(bad, nullptr, nullptr);
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(Contains(s.message(), "HOST:PORT"));
  }
}

TEST_CASE("ValidateDatabaseUrl and ValidateMailUrl name the accepted forms") {
  const Status db = ValidateDatabaseUrl("mongodb://x");
  CHECK(db.code() == Code::kInvalidArgument);
  CHECK(Contains(db.message(), "sqlite:PATH"));
  CHECK(Contains(db.message(), "postgresql://"));
  const Status mail = ValidateMailUrl("mailto:x@example.com");
  CHECK(mail.code() == Code::kInvalidArgument);
  CHECK(Contains(mail.message(), "file:DIR"));
}

TEST_CASE(
    "metrics settings: the token (16 characters at least, no spaces) and the metrics listener's address") {
  Options o;
  CHECK(ApplySetting(o, "SERVICE_METRICS_TOKEN", "  0123456789abcdef ").ok());
  CHECK(o.metrics_token == "0123456789abcdef");
  const Status short_token = ApplySetting(o, "SERVICE_METRICS_TOKEN", "short");
  CHECK(short_token.code() == Code::kInvalidArgument);
  CHECK(Contains(short_token.message(), "SERVICE_METRICS_TOKEN"));
  CHECK_FALSE(Contains(short_token.message(), "short"));  // a secret is never echoed
  CHECK_FALSE(ApplySetting(o, "SERVICE_METRICS_TOKEN", "0123456789 abcdef").ok());
  CHECK(ApplySetting(o, "SERVICE_METRICS_TOKEN", "").ok());
  CHECK(o.metrics_token.empty());

  shell::TransportOptions t;
  CHECK(shell::ApplyTransportSetting(t, "SERVICE_METRICS_LISTEN", "127.0.0.1:9464").ok());
  CHECK(t.metrics_listen == "127.0.0.1:9464");
  CHECK(shell::ApplyTransportSetting(t, "SERVICE_METRICS_LISTEN", "[::1]:0").ok());
  const Status bad = shell::ApplyTransportSetting(t, "SERVICE_METRICS_LISTEN", "nine");
  CHECK(bad.code() == Code::kInvalidArgument);
  CHECK(Contains(bad.message(), "SERVICE_METRICS_LISTEN"));
  CHECK(shell::ApplyTransportSetting(t, "SERVICE_METRICS_LISTEN", "").ok());
  CHECK(t.metrics_listen.empty());
}

}  // namespace service
