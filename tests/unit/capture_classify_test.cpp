// Signal classification over a corpus of realistic reports.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "areas/capture/domain/classify.h"

using service::domain::capture::Classify;
using service::domain::capture::ClassifyInput;
using service::domain::capture::Event;

namespace {

Event Ev(std::string type, const char* data_json = "null") {
  return Event{std::move(type), 1700000000000, boost::json::parse(data_json)};
}

struct Case {
  const char* name;
  std::vector<Event> events;
  const char* title;
  const char* kind;  // auto-report kind; "" = submitted by a user
  const char* signal_class;
  const char* family;
  const char* confidence;
};

std::vector<Case> Corpus() {
  return {
      // Users.
      {"plain user report", {}, "The save button does nothing", "", "issue", "user_report", "high"},
      {"user report with captured noise",
       {Ev("console.log", R"j({"message":"render"})j"), Ev("error", R"j({"message":"x"})j")},
       "Prices show NaN",
       "",
       "issue",
       "user_report",
       "high"},
      {"user report with breadcrumbs only",
       {Ev("click"), Ev("navigation")},
       "Page is blank",
       "",
       "issue",
       "user_report",
       "high"},
      // SDK self-tests.
      {"self-test kind",
       {Ev("error", R"j({"message":"test"})j")},
       "SDK check",
       "self_test",
       "diagnostic",
       "self_test",
       "high"},
      {"self-test title", {}, "[self-test] capture pipeline", "auto", "diagnostic", "self_test", "high"},
      {"self-test title on a user report",
       {},
       "Self-test: widget installed",
       "",
       "diagnostic",
       "self_test",
       "high"},
      // Crashes and errors.
      {"native crash",
       {Ev("crash", R"j({"signal":"SIGSEGV"})j")},
       "EXC_BAD_ACCESS",
       "auto",
       "issue",
       "crash",
       "high"},
      {"android ANR",
       {Ev("anr", R"j({"durationMs":5000})j")},
       "App not responding",
       "auto",
       "issue",
       "crash",
       "high"},
      {"flutter fatal",
       {Ev("FlutterError.fatal", R"j({"message":"boom"})j")},
       "boom",
       "auto",
       "issue",
       "crash",
       "high"},
      {"window.onerror",
       {Ev("navigation"), Ev("error", R"j({"message":"Uncaught TypeError: x"})j")},
       "TypeError: x",
       "auto",
       "issue",
       "uncaught_error",
       "high"},
      {"java exception",
       {Ev("exception", R"j({"type":"java.lang.NullPointerException"})j")},
       "NPE",
       "auto",
       "issue",
       "uncaught_error",
       "high"},
      {"error with 500 status",
       {Ev("error", R"j({"message":"API failed","status":500})j")},
       "API failed",
       "auto",
       "issue",
       "uncaught_error",
       "high"},
      {"crash beats error", {Ev("error"), Ev("native_crash")}, "x", "auto", "issue", "crash", "high"},
      {"unhandled rejection",
       {Ev("unhandledrejection", R"j({"reason":"timeout"})j")},
       "Unhandled rejection",
       "auto",
       "issue",
       "unhandled_rejection",
       "high"},
      {"kind names the error", {}, "Something happened", "uncaught_error", "issue", "uncaught_error", "high"},
      // Network.
      {"fetch 503",
       {Ev("fetch", R"j({"url":"/api/cart","status":503,"duration":120})j")},
       "GET /api/cart 503",
       "auto",
       "issue",
       "http_5xx",
       "high"},
      {"xhr 500 as string",
       {Ev("xhr", R"j({"status":"500"})j")},
       "x",
       "network",
       "issue",
       "http_5xx",
       "high"},
      {"response object",
       {Ev("network", R"j({"response":{"status":502}})j")},
       "x",
       "auto",
       "issue",
       "http_5xx",
       "high"},
      {"kind http_5xx", {}, "x", "http_5xx", "issue", "http_5xx", "high"},
      {"network failure",
       {Ev("network", R"j({"status":0,"error":"Failed to fetch"})j")},
       "Failed to fetch",
       "auto",
       "watch",
       "network_failure",
       "medium"},
      {"network_error type",
       {Ev("network_error", R"j({"url":"/api"})j")},
       "x",
       "auto",
       "watch",
       "network_failure",
       "medium"},
      {"slow request by duration",
       {Ev("fetch", R"j({"status":200,"duration":4200})j")},
       "x",
       "auto",
       "watch",
       "slow_request",
       "medium"},
      {"slow kind", {}, "GET /api/search", "slow_request", "watch", "slow_request", "medium"},
      {"slow and 404",
       {Ev("fetch", R"j({"status":404,"duration":9000})j")},
       "x",
       "auto",
       "watch",
       "slow_request",
       "medium"},
      {"404", {Ev("fetch", R"j({"status":404,"duration":80})j")}, "x", "auto", "watch", "http_4xx", "medium"},
      {"429 statusCode", {Ev("http", R"j({"statusCode":429})j")}, "x", "auto", "watch", "http_4xx", "medium"},
      // Deprecations and console.
      {"deprecation report",
       {Ev("deprecation", R"j({"id":"UnloadHandler"})j")},
       "x",
       "auto",
       "watch",
       "deprecation",
       "high"},
      {"console warn deprecation",
       {Ev("console.warn", R"j({"message":"[Deprecation] Synchronous XMLHttpRequest is deprecated"})j")},
       "x",
       "auto",
       "watch",
       "deprecation",
       "high"},
      {"chrome intervention", {Ev("intervention")}, "x", "auto", "watch", "deprecation", "high"},
      {"console error",
       {Ev("console", R"j({"level":"error","message":"Failed to load"})j")},
       "x",
       "auto",
       "watch",
       "console_error",
       "medium"},
      {"console.error type",
       {Ev("console.error", R"j({"message":"oops"})j")},
       "x",
       "auto",
       "watch",
       "console_error",
       "medium"},
      {"console warn",
       {Ev("console.warn", R"j({"message":"slow-ish"})j")},
       "x",
       "auto",
       "watch",
       "console_warning",
       "low"},
      // Diagnostics.
      {"console info only",
       {Ev("console.log", R"j({"message":"a"})j"), Ev("console", R"j({"level":"debug"})j"), Ev("info")},
       "x",
       "auto",
       "diagnostic",
       "console",
       "high"},
      {"console kind", {}, "x", "console", "diagnostic", "console", "high"},
      {"breadcrumbs only",
       {Ev("navigation", R"j({"to":"/cart"})j"), Ev("ui.click"),
        Ev("fetch", R"j({"status":200,"duration":90})j"), Ev("console.log")},
       "Session trail",
       "auto",
       "diagnostic",
       "breadcrumb",
       "medium"},
      // Title-only evidence.
      {"title crash", {}, "Fatal: app terminated", "auto", "issue", "crash", "low"},
      {"title error", {}, "ReferenceError: foo is not defined", "auto", "issue", "uncaught_error", "low"},
      {"title 5xx", {}, "HTTP 502 from /api/pay", "auto", "issue", "http_5xx", "low"},
      {"title bad gateway", {}, "Bad Gateway on checkout", "auto", "issue", "http_5xx", "low"},
      {"title deprecation", {}, "Deprecated API used", "auto", "watch", "deprecation", "low"},
      {"title slow", {}, "Slow page load", "auto", "watch", "slow_request", "low"},
      // Handled errors: the event says so (Sentry's mechanism.handled, or
      // data.handled in a native report), or the kind does.
      {"sentry capture_exception (handled)",
       {Ev("navigation"),
        Ev("error", R"j({"name":"ZeroDivisionError","mechanism":{"type":"generic","handled":true}})j")},
       "ZeroDivisionError: division by zero",
       "sentry",
       "issue",
       "handled_error",
       "high"},
      {"sentry unhandled exception",
       {Ev("error", R"j({"name":"KeyError","mechanism":{"type":"excepthook","handled":false}})j")},
       "KeyError: 'id'",
       "sentry",
       "issue",
       "uncaught_error",
       "high"},
      {"native handled error event",
       {Ev("error", R"j({"message":"Decoding failed","handled":true})j")},
       "Decoding failed",
       "error",
       "issue",
       "handled_error",
       "high"},
      {"handled beside an unhandled error",
       {Ev("error", R"j({"handled":true})j"), Ev("exception", R"j({"handled":false})j")},
       "Two errors",
       "auto",
       "issue",
       "uncaught_error",
       "high"},
      {"handled kind", {}, "Retry failed", "handled_error", "issue", "handled_error", "high"},
      {"caught exception kind", {}, "x", "caught-exception", "issue", "handled_error", "high"},
      {"handled error with a 5xx response",
       {Ev("fetch", R"j({"status":503})j"), Ev("error", R"j({"handled":true})j")},
       "Payment failed",
       "auto",
       "issue",
       "http_5xx",
       "high"},
      // Captured messages (capture_message): a message, not an error.
      {"sentry capture_message",
       {Ev("message", R"j({"message":"Cache warmed","level":"info"})j")},
       "Cache warmed",
       "sentry",
       "watch",
       "message",
       "high"},
      {"sentry capture_message with breadcrumbs",
       {Ev("navigation"), Ev("message", R"j({"message":"Quota near","level":"warning"})j")},
       "Quota near",
       "sentry",
       "watch",
       "message",
       "high"},
      // Nothing recognisable.
      {"unknown custom",
       {Ev("checkout_started"), Ev("weird")},
       "Checkout telemetry",
       "auto",
       "watch",
       "unclassified",
       "low"},
      {"empty auto", {}, "Heartbeat", "auto", "watch", "unclassified", "low"},
  };
}

}  // namespace

TEST_CASE("Classify: corpus of realistic reports") {
  const std::vector<Case> corpus = Corpus();
  CHECK(corpus.size() >= 30);
  for (const Case& c : corpus) {
    CAPTURE(std::string(c.name));
    const auto r = Classify(ClassifyInput{c.events, c.title, c.kind});
    CHECK(r.signal_class == c.signal_class);
    CHECK(r.signal_family == c.family);
    CHECK(r.classifier_confidence == c.confidence);
    CHECK_FALSE(r.signal_reason.empty());
  }
}

TEST_CASE("Classify: every family has its own reason and classes stay within the enum") {
  std::set<std::string> reasons_per_family;
  for (const Case& c : Corpus()) {
    const auto r = Classify(ClassifyInput{c.events, c.title, c.kind});
    CHECK((r.signal_class == "issue" || r.signal_class == "watch" || r.signal_class == "diagnostic"));
    CHECK((r.classifier_confidence == "high" || r.classifier_confidence == "medium" ||
           r.classifier_confidence == "low"));
    CHECK(r.signal_reason.back() == '.');
    reasons_per_family.insert(r.signal_family + "|" + r.signal_reason);
  }
  // Several families appear in the corpus, each with a sentence.
  CHECK(reasons_per_family.size() >= 15);
}

TEST_CASE("Classify: a diagnostic becomes an issue once an error arrives") {
  std::vector<Event> events = {Ev("console.log"), Ev("navigation")};
  CHECK(Classify({events, "trail", "auto"}).signal_class == "diagnostic");
  events.push_back(Ev("error", R"j({"message":"boom"})j"));
  CHECK(Classify({events, "trail", "auto"}).signal_class == "issue");
}
