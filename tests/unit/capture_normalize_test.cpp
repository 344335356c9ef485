// Message normalization: volatile parts become placeholders, the rest stays.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/capture/domain/normalize.h"

using service::domain::capture::NormalizeMessage;

namespace {

struct Case {
  const char* input;
  const char* expected;
};

// Each row is a real-world message shape and what grouping should see.
const Case kCases[] = {
    // Browser JavaScript (Chrome, Firefox, Safari).
    {"Uncaught TypeError: Cannot read properties of undefined (reading 'id')",
     "Uncaught TypeError: Cannot read properties of undefined (reading 'id')"},
    {"TypeError: can't access property \"name\", user is undefined",
     "TypeError: can't access property \"name\", user is undefined"},
    {"TypeError: undefined is not an object (evaluating 'user.name')",
     "TypeError: undefined is not an object (evaluating 'user.name')"},
    {"ChunkLoadError: Loading chunk 8123 failed. (missing: "
     "https://cdn.example.com/static/js/8123.4f1d2c3b.chunk.js)",
     "ChunkLoadError: Loading chunk <num> failed. (missing: "
     "https://cdn.example.com/static/js/<num>.<hex>.chunk.js)"},
    {"Failed to fetch order 1048576 at 2024-03-05T17:22:09.481Z",
     "Failed to fetch order <num> at <timestamp>"},
    {"Error: Request failed with status code 502", "Error: Request failed with status code 502"},
    {"NetworkError when attempting to fetch resource.", "NetworkError when attempting to fetch resource."},
    {"SecurityError: Blocked a frame with origin \"https://app.example.com\" from accessing a cross-origin "
     "frame.",
     "SecurityError: Blocked a frame with origin \"https://app.example.com\" from accessing a cross-origin "
     "frame."},
    {"ResizeObserver loop completed with undelivered notifications.",
     "ResizeObserver loop completed with undelivered notifications."},
    {"Script error.", "Script error."},
    // iOS / Swift / Objective-C.
    {"Fatal error: Unexpectedly found nil while unwrapping an Optional value: file MyApp/ProfileView.swift, "
     "line 42",
     "Fatal error: Unexpectedly found nil while unwrapping an Optional value: file MyApp/ProfileView.swift, "
     "line 42"},
    {"*** -[__NSArrayM objectAtIndex:]: index 12 beyond bounds [0 .. 3] for <NSArray: 0x600000c8c000>",
     "*** -[__NSArrayM objectAtIndex:]: index 12 beyond bounds [0 .. 3] for <NSArray: <hex>>"},
    {"EXC_BAD_ACCESS (SIGSEGV) KERN_INVALID_ADDRESS at 0x0000000000000010",
     "EXC_BAD_ACCESS (SIGSEGV) KERN_INVALID_ADDRESS at <hex>"},
    // Android / Java / Kotlin.
    {"java.lang.NullPointerException: Attempt to invoke virtual method 'int java.lang.String.length()' on a "
     "null "
     "object reference",
     "java.lang.NullPointerException: Attempt to invoke virtual method 'int java.lang.String.length()' on a "
     "null "
     "object reference"},
    {"java.lang.IllegalStateException: Fragment ProfileFragment{a1b2c3d4} "
     "(7f3e9c1a-2b4d-4e6f-8a0b-1c2d3e4f5a6b) "
     "not attached to a context.",
     "java.lang.IllegalStateException: Fragment ProfileFragment{<hex>} (<uuid>) not attached to a context."},
    {"kotlin.UninitializedPropertyAccessException: lateinit property adapter has not been initialized",
     "kotlin.UninitializedPropertyAccessException: lateinit property adapter has not been initialized"},
    {"android.view.WindowManager$BadTokenException: Unable to add window -- token "
     "android.os.BinderProxy@4f2a9c1 "
     "is not valid",
     "android.view.WindowManager$BadTokenException: Unable to add window -- token "
     "android.os.BinderProxy@4f2a9c1 "
     "is not valid"},
    {"com.example.Order@1b6d3586 rejected", "com.example.Order@<hex> rejected"},
    // Server stacks: Python, Go, Node, Java.
    {"psycopg2.OperationalError: connection to server at \"10.0.3.17\", port 5432 failed: Connection refused",
     "psycopg2.OperationalError: connection to server at \"<ip>\", port <port> failed: Connection refused"},
    {"KeyError: 'user_98231'", "KeyError: 'user_<num>'"},
    {"dial tcp 10.0.0.12:6379: connect: connection refused",
     "dial tcp <ip>:<port>: connect: connection refused"},
    {"panic: runtime error: index out of range [5] with length 3",
     "panic: runtime error: index out of range [5] with length 3"},
    {"Error: connect ECONNREFUSED 127.0.0.1:5432", "Error: connect ECONNREFUSED <ip>:<port>"},
    {"Error: listen EADDRINUSE: address already in use :::3000",
     "Error: listen EADDRINUSE: address already in use <ip>:<port>"},
    {"listen tcp [::1]:8080: bind: address already in use",
     "listen tcp [<ip>]:<port>: bind: address already in use"},
    {"org.postgresql.util.PSQLException: Connection to localhost:5432 refused.",
     "org.postgresql.util.PSQLException: Connection to localhost:<port> refused."},
    {"java.net.SocketTimeoutException: connect timed out after 30000ms to api.internal.example.com:443",
     "java.net.SocketTimeoutException: connect timed out after <num>ms to api.internal.example.com:<port>"},
    // Postgres.
    {"ERROR:  duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key "
     "(email)=(a@example.com) already exists.",
     "ERROR: duplicate key value violates unique constraint \"users_email_key\" DETAIL: Key "
     "(email)=(a@example.com) "
     "already exists."},
    {"could not connect to server: Connection refused\n\tIs the server running on host "
     "\"db.prod.example.net\" "
     "(192.168.10.4) and accepting\n\tTCP/IP connections on port 5432?",
     "could not connect to server: Connection refused Is the server running on host \"db.prod.example.net\" "
     "(<ip>) "
     "and accepting TCP/IP connections on port <port>?"},
    {"FATAL:  terminating connection due to idle-in-transaction timeout (pid 48213)",
     "FATAL: terminating connection due to idle-in-transaction timeout (pid <num>)"},
    // Timestamps in many spellings.
    {"job failed at 2024-01-15 10:23:45,123", "job failed at <timestamp>"},
    {"job failed at 2024/01/15 10:23:45", "job failed at <timestamp>"},
    {"expires Mon, 15 Jan 2024 10:23:45 GMT", "expires <timestamp>"},
    {"date was Mon Jan 15 2024 10:23:45 GMT+0100 (Central European Standard Time).", "date was <timestamp>."},
    {"[15/Jan/2024:10:23:45 +0000] GET /", "[<timestamp>] GET /"},
    {"Jan  5 10:23:45 web-1 sshd[2211]: error", "<timestamp> web-1 sshd[<num>]: error"},
    {"at 10:23:45.120Z the cache missed", "at <timestamp> the cache missed"},
    {"valid until 2024-12-31", "valid until <timestamp>"},
    {"started 2024-01-15T10:23:45+05:30 ended 2024-01-15T10:24:01-08:00",
     "started <timestamp> ended <timestamp>"},
    // Addresses.
    {"from fe80::1ff:fe23:4567:890a", "from <ip>"},
    {"peer ::ffff:192.0.2.128 reset", "peer <ip> reset"},
    {"upstream 2001:db8:85a3::8a2e:370:7334 timed out", "upstream <ip> timed out"},
    // Hex, numbers and what stays.
    {"segfault at 0x7ffe3b2a ip 0x00007f", "segfault at <hex> ip <hex>"},
    {"commit 9fceb02d0ae598e95dc970b74767f19372d61af8 missing", "commit <hex> missing"},
    {"took 1234.56 ms, ratio 0.30000000000000004", "took <num> ms, ratio <num>"},
    {"user12345 and E11000 and v2 stay", "user12345 and E11000 and v2 stay"},
    {"retry 3 of 5 after 250ms", "retry 3 of 5 after 250ms"},
    {"Chrome 120.0.6099.109 and iOS 17.2.1", "Chrome 120.0.6099.109 and iOS 17.2.1"},
    {"std::vector::at out of range in Cache::Add", "std::vector::at out of range in Cache::Add"},
    {"at render (app.js:10:15) and main.go:123", "at render (app.js:10:15) and main.go:123"},
    // Whitespace.
    {"  a \t\r\n b  ", "a b"},
    {"", ""},
    {"   ", ""},
    {"no\xc2\xa0"
     "break",
     "no break"},
};

}  // namespace

TEST_CASE("NormalizeMessage replaces volatile parts in real-world messages") {
  for (const Case& c : kCases) {
    const std::string input = c.input;
    CAPTURE(input);
    CHECK(NormalizeMessage(c.input) == c.expected);
  }
}

TEST_CASE("NormalizeMessage is idempotent on the real-world messages") {
  for (const Case& c : kCases) {
    const std::string input = c.input;
    CAPTURE(input);
    const std::string once = NormalizeMessage(c.input);
    CHECK(NormalizeMessage(once) == once);
  }
}

TEST_CASE("messages that differ only in volatile parts normalize the same") {
  const std::vector<std::vector<std::string>> groups = {
      {"Order 10234 not found (request 550e8400-e29b-41d4-a716-446655440000)",
       "Order 99871 not found (request 6ba7b810-9dad-11d1-80b4-00c04fd430c8)",
       "Order   4521   not found (request 6BA7B811-9DAD-11D1-80B4-00C04FD430C8)"},
      {"connection to server at \"10.0.3.17\", port 5432 failed: timeout expired",
       "connection to server at \"10.0.3.18\", port 6432 failed: timeout expired",
       "connection to server at \"2001:db8::17\", port 5432 failed: timeout expired"},
      {"Segmentation fault at 0x7ffe3b2a in worker", "Segmentation fault at 0x10 in worker",
       "Segmentation fault at 0XDEADBEEF in worker"},
      {"cache refresh failed at 2024-01-15T10:23:45Z", "cache refresh failed at 2023-12-01 08:00:00.001",
       "cache refresh failed at Tue, 02 Jan 2024 00:00:01 +0000"},
      {"dial tcp 10.0.0.12:6379: i/o timeout", "dial tcp 172.17.0.3:6380: i/o timeout"},
      {"Loading chunk 8123 failed.", "Loading chunk 17 failed.\n"},
  };
  // The last group is not expected to merge: 17 is a small number and stays.
  for (size_t g = 0; g + 1 < groups.size(); ++g) {
    const std::string first = NormalizeMessage(groups[g][0]);
    for (const std::string& m : groups[g]) {
      CAPTURE(m);
      CHECK(NormalizeMessage(m) == first);
    }
  }
  CHECK(NormalizeMessage(groups.back()[0]) != NormalizeMessage(groups.back()[1]));
}

TEST_CASE("genuinely different errors stay different after normalization") {
  const std::vector<std::string> distinct = {
      "TypeError: Cannot read properties of undefined (reading 'id')",
      "TypeError: Cannot read properties of undefined (reading 'name')",
      "TypeError: Cannot read properties of null (reading 'id')",
      "ReferenceError: process is not defined",
      "java.lang.NullPointerException",
      "java.lang.IllegalArgumentException",
      "connection to server at \"<ip>\", port 5432 failed: Connection refused",
      "connection to server at \"<ip>\", port 5432 failed: timeout expired",
      "index out of range [5] with length 3",
      "index out of range [6] with length 3",
      "HTTP 502 from upstream",
      "HTTP 503 from upstream",
  };
  for (size_t i = 0; i < distinct.size(); ++i) {
    for (size_t j = i + 1; j < distinct.size(); ++j) {
      CAPTURE(distinct[i]);
      CAPTURE(distinct[j]);
      CHECK(NormalizeMessage(distinct[i]) != NormalizeMessage(distinct[j]));
    }
  }
}

TEST_CASE("port numbers are recognised only after hosts or the word port") {
  CHECK(NormalizeMessage("http://example.com:8080/x") == "http://example.com:<port>/x");
  CHECK(NormalizeMessage("Port: 22 closed") == "Port: <port> closed");
  CHECK(NormalizeMessage("port=80") == "port=<port>");
  CHECK(NormalizeMessage("port 99999 is invalid") == "port <num> is invalid");
  CHECK(NormalizeMessage("ratio 16:9") == "ratio 16:9");
  CHECK(NormalizeMessage("status:500") == "status:500");
  CHECK(NormalizeMessage("redis:6379") == "redis:<num>");
  CHECK(NormalizeMessage("Foo.swift:42") == "Foo.swift:42");
}

TEST_CASE("invalid UTF-8 becomes U+FFFD and valid UTF-8 is kept") {
  CHECK(NormalizeMessage("caf\xc3\xa9 \xff ok") == "caf\xc3\xa9 \xef\xbf\xbd ok");
  CHECK(NormalizeMessage("\xe2\x82") == "\xef\xbf\xbd\xef\xbf\xbd");
  CHECK(NormalizeMessage("Ошибка 50000") == "Ошибка <num>");
}
