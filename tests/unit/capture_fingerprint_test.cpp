// Error types, fingerprint messages and fingerprints across real reports.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "areas/capture/domain/event.h"
#include "areas/capture/domain/fingerprint.h"

using service::domain::capture::AutoReportKind;
using service::domain::capture::ErrorType;
using service::domain::capture::Event;
using service::domain::capture::FingerprintMessage;
using service::domain::capture::FingerprintReport;
using service::domain::capture::IsErrorEventType;

namespace {

Event Ev(std::string type, const char* data_json = "null") {
  return Event{std::move(type), 1700000000000, boost::json::parse(data_json)};
}

std::string Fp(const std::vector<Event>& events, bool manual, const char* title, const char* url) {
  return FingerprintReport(events, manual, title, url).short_hex;
}

}  // namespace

TEST_CASE("error event types") {
  for (const char* t :
       {"error", "Error", "exception", "unhandledrejection", "uncaught", "crash", "fatal", "panic",
        "console.error", "network_error", "TypeError", "unhandled_rejection", "js_exception"}) {
    CAPTURE(std::string(t));
    CHECK(IsErrorEventType(t));
  }
  for (const char* t : {"console", "console.log", "click", "navigation", "network", "fetch", "warn", ""}) {
    CAPTURE(std::string(t));
    CHECK_FALSE(IsErrorEventType(t));
  }
}

TEST_CASE("ErrorType reads the class of the first error event") {
  const std::vector<Event> by_name = {Ev("click"),
                                      Ev("error", R"j({"name":"TypeError","message":"x is undefined"})j"),
                                      Ev("error", R"j({"name":"RangeError"})j")};
  CHECK(ErrorType(by_name, false) == "TypeError");
  CHECK(ErrorType(by_name, true) == "manual");

  CHECK(ErrorType(std::vector<Event>{Ev("exception", R"j({"type":"java.lang.IllegalStateException"})j")},
                  false) == "java.lang.IllegalStateException");
  CHECK(ErrorType(
            std::vector<Event>{Ev("error", R"j({"message":"Uncaught ReferenceError: foo is not defined"})j")},
            false) == "ReferenceError");
  CHECK(ErrorType(std::vector<Event>{Ev("error", R"j("KeyError: 'user_id'")j")}, false) == "KeyError");
  CHECK(ErrorType(
            std::vector<Event>{Ev("crash", R"j({"message":"panic: runtime error: index out of range"})j")},
            false) == "panic");
  CHECK(ErrorType(std::vector<Event>{Ev("unhandledrejection",
                                        R"j({"reason":{"name":"AbortError","message":"x"}})j")},
                  false) == "AbortError");
  CHECK(ErrorType(std::vector<Event>{Ev("error", R"j({"error":{"name":"ChunkLoadError"}})j")}, false) ==
        "ChunkLoadError");
  CHECK(ErrorType(
            std::vector<Event>{Ev("error", R"j({"stack":"SyntaxError: Unexpected token '<'\n    at x"})j")},
            false) == "SyntaxError");
  // No class anywhere: the event type.
  CHECK(ErrorType(std::vector<Event>{Ev("unhandledrejection", R"j({"reason":"timeout"})j")}, false) ==
        "unhandledrejection");
  CHECK(ErrorType(std::vector<Event>{Ev("error", R"j({"message":"Something broke: badly"})j")}, false) ==
        "error");
  // No error event in an automatic report.
  CHECK(ErrorType(std::vector<Event>{Ev("network", R"j({"status":503})j")}, false) == "auto");
  CHECK(ErrorType(std::vector<Event>{}, false) == "auto");
  CHECK(ErrorType(std::vector<Event>{}, true) == "manual");
}

TEST_CASE("FingerprintMessage takes the first error message, else the title") {
  const std::vector<Event> events = {Ev("console", R"j({"message":"booting"})j"),
                                     Ev("error", R"j({"message":"Uncaught TypeError: x is undefined"})j")};
  CHECK(FingerprintMessage(events, false, "Title") == "x is undefined");
  CHECK(FingerprintMessage(events, true, "Checkout button does nothing") == "Checkout button does nothing");
  CHECK(FingerprintMessage(std::vector<Event>{Ev("error", R"j({"name":"TypeError"})j")}, false, "Title") ==
        "Title");
  CHECK(FingerprintMessage(std::vector<Event>{}, false, "Slow request") == "Slow request");
}

TEST_CASE("the fingerprint is SHA-256 of errorType:normalizedMessage:urlPattern") {
  const std::vector<Event> events = {
      Ev("error", R"j({"name":"TypeError","message":"Order 12345 missing"})j")};
  const auto fp = FingerprintReport(events, false, "t", "https://app.example.com/orders/12345?x=1");
  CHECK(fp.canonical == "TypeError:Order <num> missing:https://app.example.com/orders/<id>");
  // printf 'TypeError:Order <num> missing:https://app.example.com/orders/<id>' | sha256sum
  CHECK(fp.sha256_hex == "f9a346a8718df5d8eedc36c796087ec42eefaec1a87dbcdc95b833df8b4286b4");
  CHECK(fp.short_hex == fp.sha256_hex.substr(0, 16));
  CHECK(fp.short_hex.size() == 16);
}

TEST_CASE("reports that differ only in volatile parts share a fingerprint") {
  struct Variant {
    std::vector<Event> events;
    const char* url;
  };
  const std::vector<std::vector<Variant>> groups = {
      // Chrome and Firefox wording of one uncaught error, different ids.
      {{{Ev("error",
            R"j({"message":"Uncaught TypeError: Cannot read properties of undefined (reading 'total')"})j")},
        "https://shop.example.com/orders/1001"},
       {{Ev("error",
            R"j({"name":"TypeError","message":"Cannot read properties of undefined (reading 'total')"})j")},
        "https://shop.example.com/orders/98765?ref=mail#top"}},
      // Android exception with different object hashes and timestamps.
      {{{Ev("exception",
            R"j({"message":"java.lang.IllegalStateException: Fragment ProfileFragment{a1b2c3d4} not attached at 2024-01-15T10:23:45Z"})j")},
        "app://profile"},
       {{Ev("exception",
            R"j({"message":"java.lang.IllegalStateException: Fragment ProfileFragment{9f8e7d6c} not attached at 2024-02-01T00:00:00.000Z"})j")},
        "app://profile"}},
      // Server errors with different peers and ports.
      {{{Ev("error",
            R"j({"name":"OperationalError","message":"connection to server at \"10.0.3.17\", port 5432 failed"})j")},
        "https://api.example.com/v1/users/7"},
       {{Ev("error",
            R"j({"name":"OperationalError","message":"connection to server at \"10.0.3.99\", port 6432 failed"})j")},
        "https://api.example.com/v1/users/123456"}},
      // Go panic with a different goroutine address.
      {{{Ev("panic",
            R"j("panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1f2c]")j")},
        "/jobs/17"},
       {{Ev("panic",
            R"j("panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4b77e0]")j")},
        "/jobs/18"}},
  };
  for (const auto& group : groups) {
    const std::string first = Fp(group[0].events, false, "title", group[0].url);
    for (const Variant& v : group) {
      CAPTURE(FingerprintReport(v.events, false, "another title", v.url).canonical);
      CAPTURE(FingerprintReport(group[0].events, false, "title", group[0].url).canonical);
      CHECK(Fp(v.events, false, "another title", v.url) == first);
    }
  }
}

TEST_CASE("genuinely different reports get different fingerprints") {
  std::set<std::string> seen;
  const std::vector<std::pair<std::vector<Event>, const char*>> reports = {
      {{Ev("error", R"j({"name":"TypeError","message":"x is undefined"})j")},
       "https://a.example.com/orders/1"},
      {{Ev("error", R"j({"name":"ReferenceError","message":"x is undefined"})j")},
       "https://a.example.com/orders/1"},
      {{Ev("error", R"j({"name":"TypeError","message":"y is undefined"})j")},
       "https://a.example.com/orders/1"},
      {{Ev("error", R"j({"name":"TypeError","message":"x is undefined"})j")},
       "https://a.example.com/users/1"},
      {{Ev("error", R"j({"name":"TypeError","message":"x is undefined"})j")},
       "https://b.example.com/orders/1"},
      {{Ev("network", R"j({"status":503})j")}, "https://a.example.com/orders/1"},
  };
  for (const auto& [events, url] : reports) {
    CHECK(seen.insert(Fp(events, false, "x is undefined", url)).second);
  }
  // Manual reports group by title and page, not by background errors.
  const std::vector<Event> noise = {Ev("error", R"j({"message":"analytics.js failed"})j")};
  CHECK(seen.insert(Fp(noise, true, "Checkout button does nothing", "https://a.example.com/cart")).second);
  CHECK(seen.insert(Fp(noise, true, "Prices show NaN", "https://a.example.com/cart")).second);
  CHECK(Fp(noise, true, "Prices show NaN", "https://a.example.com/cart") ==
        Fp({}, true, "Prices  show NaN ", "https://a.example.com/cart?step=2"));
}

TEST_CASE("AutoReportKind reads the documented metadata markers") {
  auto kind = [](const char* json) { return AutoReportKind(boost::json::parse(json)); };
  CHECK(kind("{}").empty());
  CHECK(kind("null").empty());
  CHECK(kind(R"j({"autoReport":false,"kind":"uncaught_error"})j").empty());
  CHECK(kind(R"j({"autoReport":true})j") == "auto");
  CHECK(kind(R"j({"autoReport":true,"kind":"Slow-Request"})j") == "slow_request");
  CHECK(kind(R"j({"autoReport":"unhandled rejection"})j") == "unhandled_rejection");
  CHECK(kind(R"j({"autoReport":"manual"})j").empty());
  CHECK(kind(R"j({"kind":"http.5xx"})j") == "http_5xx");
  CHECK(kind(R"j({"kind":"feedback"})j").empty());
  CHECK(kind(R"j({"selfTest":true,"autoReport":false})j") == "self_test");
  CHECK(kind(R"j({"source":"self-test"})j") == "self_test");
  CHECK(kind(R"j({"source":"widget"})j").empty());
}

TEST_CASE("FingerprintsAsManual: an error event decides unless the report is a person's") {
  using service::domain::capture::FingerprintsAsManual;
  const std::vector<Event> with_error = {Ev("click"), Ev("error", R"j({"name":"TypeError","message":"x"})j")};
  const std::vector<Event> without_error = {Ev("click"), Ev("console", R"j({"level":"info"})j")};
  struct Row {
    const std::vector<Event>* events;
    bool console_manual;
    bool marked;
    bool manual;
  };
  const Row rows[] = {
      {&with_error, false, false, false},    // an error event: its type, even without an auto marker
      {&with_error, false, true, true},      // marked as a user report by the client
      {&with_error, true, false, true},      // POST /v1/bugs/manual
      {&without_error, false, false, true},  // no error event at all
      {&without_error, false, true, true},
  };
  for (const Row& r : rows) {
    CHECK(FingerprintsAsManual(*r.events, r.console_manual, r.marked) == r.manual);
  }
}

TEST_CASE("IsMarkedUserReport reads explicit user-report markers only") {
  using service::domain::capture::IsMarkedUserReport;
  struct Row {
    const char* metadata;
    bool marked;
  };
  const Row rows[] = {
      {R"j({})j", false},
      {R"j(null)j", false},
      {R"j({"autoReport":false})j", true},
      {R"j({"autoReport":true})j", false},
      {R"j({"autoReport":"manual"})j", true},
      {R"j({"autoReport":"User Feedback"})j", true},
      {R"j({"autoReport":"error"})j", false},
      {R"j({"kind":"widget"})j", true},
      {R"j({"trigger":"feedback"})j", true},
      {R"j({"autoReportKind":"crash"})j", false},
      {R"j({"source":"console"})j", false},
  };
  for (const Row& r : rows) {
    CAPTURE(std::string(r.metadata));
    CHECK(IsMarkedUserReport(boost::json::parse(r.metadata)) == r.marked);
  }
}

TEST_CASE(
    "TypeError and RangeError with one message on one page are two fingerprints, feedback stays apart") {
  using service::domain::capture::FingerprintsAsManual;
  const char* url = "https://app.example.com/cart";
  const std::vector<Event> type_error = {Ev("error", R"j({"name":"TypeError","message":"x is bad"})j")};
  const std::vector<Event> range_error = {Ev("error", R"j({"name":"RangeError","message":"x is bad"})j")};
  // No auto-report marker in metadata: the error events still decide.
  const bool m1 = FingerprintsAsManual(type_error, false, false);
  const bool m2 = FingerprintsAsManual(range_error, false, false);
  CHECK(Fp(type_error, m1, "Error on cart", url) != Fp(range_error, m2, "Error on cart", url));
  // A person's feedback titled like the error, with the same error captured.
  const bool feedback = FingerprintsAsManual(type_error, false, true);
  CHECK(Fp(type_error, feedback, "TypeError: x is bad", url) !=
        Fp(type_error, m1, "TypeError: x is bad", url));
}

TEST_CASE("signatures: the error type and normalized message without the page") {
  const std::vector<Event> e = {
      Ev("error", R"j({"name":"TypeError","message":"Cannot read id of user 42"})j")};
  const auto on_cart = FingerprintReport(e, false, "t", "https://app.example.com/cart");
  const auto on_home = FingerprintReport(e, false, "t", "https://app.example.com/home");
  CHECK(on_cart.short_hex != on_home.short_hex);  // two bugs...
  CHECK(on_cart.signature == on_home.signature);  // ...one group
  CHECK(on_cart.signature_hash == on_home.signature_hash);
  CHECK(on_cart.signature.starts_with("TypeError:"));
  CHECK(on_cart.signature_hash.size() == 16);
  const std::vector<Event> other = {
      Ev("error", R"j({"name":"RangeError","message":"Cannot read id of user 42"})j")};
  CHECK(FingerprintReport(other, false, "t", "https://app.example.com/cart").signature_hash !=
        on_cart.signature_hash);
  // A manual report has no signature: it is a group of its own.
  const auto manual = FingerprintReport(e, true, "Checkout is broken", "https://app.example.com/cart");
  CHECK(manual.signature.empty());
  CHECK(manual.signature_hash.empty());
}

TEST_CASE("MappedStackKey: the resolved frames, innermost first, without line numbers") {
  using service::domain::capture::ComputeStackFingerprint;
  using service::domain::capture::MappedStackKey;
  const auto frames = [](const char* json) {
    return std::vector<Event>{
        Ev("console", R"({"message":"x"})"),
        Ev("error",
           (std::string(R"({"name":"TypeError","message":"r is not a function","frames":)") + json + "}")
               .c_str())};
  };
  struct Row {
    const char* name;
    const char* frames;
    const char* key;
  };
  const Row rows[] = {
      {"no frames", "[]", ""},
      {"nothing resolved", R"j([{"function":"r","sourcemap":{"reason":"map_not_found"}},{"function":"c"}])j",
       ""},
      {"one resolved",
       R"j([{"function":"computeTotal","filename":"../src/cart.js","lineno":6,"colno":13,"context_line":"    if (item.price < 0)   throw new Error('x');","minified":{"function":"r","lineno":1,"colno":58}}])j",
       "stack:computeTotal (../src/cart.js) if (item.price < 0) throw new Error('x');"},
      {"innermost first, unresolved and in_app false skipped",
       R"j([{"function":"checkout","filename":"../src/main.js","lineno":9,"context_line":"checkout(cart)","minified":{}},
           {"in_app":false,"function":"wrap","filename":"node_modules/lib.js","minified":{}},
           {"function":"n","filename":"vendor.js","sourcemap":{"reason":"no_mapping"}},
           {"function":"computeTotal","filename":"../src/cart.js","lineno":6,"minified":{}}])j",
       "stack:computeTotal (../src/cart.js) <- checkout (../src/main.js) checkout(cart)"},
      {"at most five frames",
       R"j([{"filename":"f.js","function":"f0","minified":{}},{"filename":"f.js","function":"f1","minified":{}},
           {"filename":"f.js","function":"f2","minified":{}},{"filename":"f.js","function":"f3","minified":{}},
           {"filename":"f.js","function":"f4","minified":{}},{"filename":"f.js","function":"f5","minified":{}}])j",
       "stack:f5 (f.js) <- f4 (f.js) <- f3 (f.js) <- f2 (f.js) <- f1 (f.js)"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CHECK(MappedStackKey(frames(row.frames)) == row.key);
  }
  // A line number differs (an edit above the function): the same key.
  CHECK(MappedStackKey(frames(
            R"j([{"filename":"a.js","lineno":6,"function":"f","context_line":"g()","minified":{}}])j")) ==
        MappedStackKey(frames(
            R"j([{"filename":"a.js","lineno":60,"function":"f","context_line":"g()","minified":{}}])j")));
  // No error event: no key.
  CHECK(MappedStackKey(std::vector<Event>{Ev("console", R"({"frames":[{"filename":"a.js","minified":{}}]})")})
            .empty());

  const auto fp = ComputeStackFingerprint("TypeError", "stack:f (a.js) g()", "https://shop.example/cart/42");
  CHECK(fp.canonical == "TypeError:stack:f (a.js) g():https://shop.example/cart/<id>");
  CHECK(fp.signature == "TypeError:stack:f (a.js) g()");
  CHECK(fp.signature_hash.size() == 16);
  CHECK(fp.short_hex !=
        ComputeStackFingerprint("TypeError", "stack:h (a.js) g()", "https://shop.example/cart/42").short_hex);
}
