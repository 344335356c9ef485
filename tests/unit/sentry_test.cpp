// Sentry compatibility rules without I/O (issue 13): the DSN, envelope
// parsing, the event mapping, SDK fingerprints, and bounded decompression.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>

#include "areas/capture/domain/fingerprint.h"
#include "areas/projects/domain/dsn.h"
#include "areas/sentry/domain/envelope.h"
#include "areas/sentry/domain/event.h"
#include "support/compress.h"
#include "util/decompress.h"

namespace sentry = service::domain::sentry;
namespace json = boost::json;
using service::Code;
using service::testing::Brotli;
using service::testing::Deflate;

TEST_CASE("the DSN is built from the public URL, the key and the project number") {
  struct Row {
    const char* url;
    const char* dsn;
  };
  const Row rows[] = {
      {"https://bugs.example.com", "https://sv_live_abc@bugs.example.com/42"},
      {"https://bugs.example.com/", "https://sv_live_abc@bugs.example.com/42"},
      {"http://127.0.0.1:8080", "http://sv_live_abc@127.0.0.1:8080/42"},
      {"https://example.com/tracker", "https://sv_live_abc@example.com/tracker/42"},
      {"https://user:pw@example.com", "https://sv_live_abc@example.com/42"},
      {"localhost:3000", "http://sv_live_abc@localhost:3000/42"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.url);
    CHECK(service::domain::projects::BuildDsn(r.url, "sv_live_abc", 42) == r.dsn);
  }
}

TEST_CASE("envelopes: header, items with and without length, skipped blank lines, errors") {
  const std::string body =
      "{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\",\"dsn\":\"https://k@h/1\"}\n"
      "{\"type\":\"attachment\",\"length\":10}\n"
      "0123\n56789\n"
      "{\"type\":\"event\"}\n"
      "{\"message\":\"hi\"}\n"
      "\n"
      "{\"type\":\"session\",\"length\":2}\n"
      "{}";
  auto env = sentry::ParseEnvelope(body);
  REQUIRE(env.ok());
  CHECK(env->header.at("event_id") == "9ec79c33ec9942ab8353589fcb2e04dc");
  REQUIRE(env->items.size() == 3);
  CHECK(env->items[0].type == "attachment");
  CHECK(env->items[0].payload == "0123\n56789");  // a length may span newlines
  CHECK(env->items[1].type == "event");
  CHECK(env->items[1].payload == "{\"message\":\"hi\"}");
  CHECK(env->items[2].payload == "{}");
  CHECK(sentry::ParseEnvelope("{}").ok());
  CHECK(sentry::ParseEnvelope("not json\n").status().code() == Code::kInvalidArgument);
  CHECK(sentry::ParseEnvelope("{}\n{\"type\":\"event\",\"length\":99}\n{}").status().code() ==
        Code::kInvalidArgument);
  CHECK(sentry::ParseEnvelope("{}\n{\"length\":2}\n{}").status().code() == Code::kInvalidArgument);
  CHECK(sentry::ParseEnvelope("{}\n[1]\n{}").status().code() == Code::kInvalidArgument);
}

TEST_CASE("an exception event maps to the outermost exception, breadcrumbs, user and metadata") {
  const json::object e = json::parse(R"({
    "event_id": "9EC79C33-EC99-42AB-8353-589FCB2E04DC",
    "timestamp": 1768471200.5,
    "platform": "javascript",
    "level": "fatal",
    "release": "web@1.2.3",
    "environment": "production",
    "sdk": {"name": "sentry.javascript.browser", "version": "8.0.0"},
    "request": {"url": "https://app.example.com/cart?x=1", "headers": {"User-Agent": "Mozilla/5.0 Firefox/120.0"}},
    "user": {"id": "u-7", "email": "ann@example.com", "ip_address": "{{auto}}"},
    "tags": {"feature": "cart"},
    "fingerprint": ["{{ default }}", "cart"],
    "breadcrumbs": {"values": [
      {"timestamp": 1768471199.0, "category": "ui.click", "message": "button#pay"},
      {"timestamp": 1768471199.5, "category": "fetch", "data": {"url": "/api/cart", "method": "GET", "status_code": 500}},
      {"timestamp": "2026-01-15T09:59:59.800Z", "category": "console", "level": "error", "message": "boom"}
    ]},
    "exception": {"values": [
      {"type": "NetworkError", "value": "cart request failed"},
      {"type": "TypeError", "value": "cart is undefined",
       "stacktrace": {"frames": [
         {"function": "main", "filename": "app.js", "lineno": 1, "colno": 2},
         {"function": "render", "abs_path": "https://app.example.com/cart.js", "lineno": 10, "colno": 5, "in_app": true}
       ]},
       "mechanism": {"type": "onerror", "handled": false}}
    ]}
  })")
                             .as_object();
  const sentry::MappedEvent m = sentry::MapEvent(e, 1);
  CHECK(m.event_id == "9ec79c33ec9942ab8353589fcb2e04dc");
  CHECK(m.title == "TypeError: cart is undefined");
  CHECK(m.description.find("Caused by: NetworkError: cart request failed") != std::string::npos);
  CHECK(m.severity == "critical");
  CHECK(m.platform == "web");
  CHECK(m.url == "https://app.example.com/cart?x=1");
  CHECK(m.user_agent == "Mozilla/5.0 Firefox/120.0");
  CHECK(m.user_id == "u-7");
  CHECK(m.user_email == "ann@example.com");
  CHECK_FALSE(m.ip_address.has_value());  // {{auto}}: the request's address
  CHECK(m.release == "web@1.2.3");
  CHECK(m.environment == "production");
  CHECK(m.fingerprint == std::vector<std::string>{"{{ default }}", "cart"});
  REQUIRE(m.events.size() == 4);
  CHECK(m.events[0].type == "click");
  CHECK(m.events[0].timestamp_ms == 1768471199000);
  CHECK(m.events[1].type == "network");
  CHECK(m.events[1].data.at("status") == 500);
  CHECK(m.events[2].type == "console");
  CHECK(m.events[2].timestamp_ms == 1768471199800);
  CHECK(m.events[3].type == "error");
  CHECK(m.events[3].timestamp_ms == 1768471200500);
  CHECK(m.events[3].data.at("name") == "TypeError");
  CHECK(m.events[3].data.at("message") == "cart is undefined");
  const std::string stack(m.events[3].data.at("stack").as_string());
  CHECK(stack.find("TypeError: cart is undefined\n    at render (https://app.example.com/cart.js:10:5)\n    "
                   "at main") == 0);
  CHECK(m.events[3].data.at("frames").as_array().size() == 2);
  CHECK(m.events[3].data.at("chain").as_array().size() == 1);
  const json::object& meta = m.metadata.at("sentry").as_object();
  CHECK(meta.at("sdk").at("name") == "sentry.javascript.browser");
  CHECK(meta.at("tags").at("feature") == "cart");
}

TEST_CASE("a message event, levels, platforms and timestamps") {
  const sentry::MappedEvent m = sentry::MapEvent(
      json::parse(R"({"logentry": {"formatted": "Payment declined\nretry later"}, "level": "warning",
                      "platform": "python", "user": {"ip_address": "203.0.113.9"}})")
          .as_object(),
      1768471200000);
  CHECK(m.is_message);
  CHECK(m.title == "Payment declined retry later");
  CHECK(m.severity == "medium");
  CHECK(m.platform == "server");
  CHECK(m.ip_address == "203.0.113.9");
  REQUIRE(m.events.size() == 1);
  CHECK(m.events[0].type == "message");
  CHECK(m.events[0].timestamp_ms == 1768471200000);
  CHECK(sentry::MapEvent(json::object{}, 0).title == "<unlabeled event>");

  struct Level {
    const char* level;
    const char* severity;
  };
  for (const Level& l : {Level{"fatal", "critical"}, Level{"error", "high"}, Level{"warning", "medium"},
                         Level{"info", "low"}, Level{"debug", "low"}, Level{"", "high"}}) {
    CHECK(sentry::SeverityFor(l.level) == l.severity);
  }
  struct Platform {
    const char* platform;
    const char* sdk;
    const char* os;
    const char* out;
  };
  for (const Platform& p :
       {Platform{"javascript", "sentry.javascript.browser", "", "web"},
        Platform{"node", "sentry.javascript.node", "Linux", "server"},
        Platform{"javascript", "sentry.javascript.node", "", "server"},
        Platform{"javascript", "sentry.javascript.react-native", "iOS", "react-native"},
        Platform{"cocoa", "sentry.cocoa", "iOS", "ios"},
        Platform{"java", "sentry.java.android", "Android", "android"},
        Platform{"java", "sentry.java", "Linux", "server"},
        Platform{"dart", "sentry.dart.flutter", "Android", "flutter"},
        Platform{"go", "sentry.go", "", "server"}, Platform{"python", "sentry.python", "", "server"},
        Platform{"csharp", "sentry.dotnet", "", "server"}, Platform{"other", "", "", "other"}}) {
    CAPTURE(p.platform);
    CAPTURE(p.sdk);
    CHECK(sentry::PlatformFor(p.platform, p.sdk, p.os) == p.out);
  }
  CHECK(sentry::TimestampMs(json::value(1.5)) == 1500);
  CHECK(sentry::TimestampMs(json::value("2026-01-15T10:00:00Z")) == 1768471200000);
  CHECK_FALSE(sentry::TimestampMs(json::value("yesterday")).has_value());
  CHECK(sentry::NormalizeEventId("not-an-id").empty());
}

TEST_CASE("an SDK fingerprint replaces the native one, {{ default }} stands for it") {
  using service::domain::capture::ComputeFingerprint;
  using service::domain::capture::CustomFingerprint;
  const auto native_a = ComputeFingerprint("TypeError", "x is undefined", "https://a.example.com/one");
  const auto native_b = ComputeFingerprint("TypeError", "x is undefined", "https://a.example.com/two");
  const std::vector<std::string> custom = {"checkout-flow"};
  // The same custom parts group on every page.
  CHECK(CustomFingerprint(custom, native_a).short_hex == CustomFingerprint(custom, native_b).short_hex);
  CHECK(CustomFingerprint(custom, native_a).short_hex != native_a.short_hex);
  const std::vector<std::string> with_default = {"{{ default }}", "cart"};
  CHECK(CustomFingerprint(with_default, native_a).short_hex !=
        CustomFingerprint(with_default, native_b).short_hex);
  CHECK(CustomFingerprint(with_default, native_a).canonical.find(native_a.canonical) != std::string::npos);
  CHECK(CustomFingerprint(custom, native_a).signature_hash.size() == 16);
}

TEST_CASE("decompression: gzip, zlib and raw deflate, brotli, bounded, bogus encodings ignored") {
  using service::util::Decompress;
  using service::util::Encoding;
  using service::util::ParseContentEncoding;
  const std::string text = std::string(100'000, 'a') + "end";
  CHECK(Decompress(Deflate(text, 15 + 16), Encoding::kGzip, 1 << 20).value() == text);
  CHECK(Decompress(Deflate(text, 15), Encoding::kDeflate, 1 << 20).value() == text);
  CHECK(Decompress(Deflate(text, -15), Encoding::kDeflate, 1 << 20).value() == text);
  CHECK(Decompress(Brotli(text), Encoding::kBrotli, 1 << 20).value() == text);
  CHECK(Decompress(text, Encoding::kIdentity, 1 << 20).value() == text);
  // A bomb: 50 MB of zeros in a few KB stops at the cap.
  const std::string bomb = Deflate(std::string(50 << 20, '\0'), 15 + 16);
  CHECK(bomb.size() < 100'000);
  CHECK(Decompress(bomb, Encoding::kGzip, 1 << 20).status().code() == Code::kPayloadTooLarge);
  CHECK(Decompress(Brotli(std::string(5 << 20, '\0')), Encoding::kBrotli, 1 << 20).status().code() ==
        Code::kPayloadTooLarge);
  CHECK(Decompress("not gzip", Encoding::kGzip, 1 << 20).status().code() == Code::kInvalidArgument);
  CHECK(Decompress(Deflate(text, 15 + 16).substr(0, 20), Encoding::kGzip, 1 << 20).status().code() ==
        Code::kInvalidArgument);
  CHECK(Decompress("junk", Encoding::kBrotli, 1 << 20).status().code() == Code::kInvalidArgument);
  CHECK(ParseContentEncoding(" GZIP ") == Encoding::kGzip);
  CHECK(ParseContentEncoding("x-gzip") == Encoding::kGzip);
  CHECK(ParseContentEncoding("deflate") == Encoding::kDeflate);
  CHECK(ParseContentEncoding("br") == Encoding::kBrotli);
  CHECK(ParseContentEncoding("") == Encoding::kIdentity);
  CHECK(ParseContentEncoding("bogus") == Encoding::kIdentity);
  CHECK(ParseContentEncoding("identity") == Encoding::kIdentity);
}
