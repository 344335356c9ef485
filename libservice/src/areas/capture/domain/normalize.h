// Message and URL normalization for fingerprinting (Spec 1 "Ingestion").
//
// Pure functions over bytes: no I/O, no allocation beyond the returned
// string, no std::regex (this is the ingest hot path; both functions are one
// forward pass). Safe to call from any thread. Any input, including invalid
// UTF-8, is accepted; the output is always valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace service::domain::capture {

// Placeholders written by NormalizeMessage and UrlPattern.
inline constexpr std::string_view kHexPlaceholder = "<hex>";
inline constexpr std::string_view kTimestampPlaceholder = "<timestamp>";
inline constexpr std::string_view kUuidPlaceholder = "<uuid>";
inline constexpr std::string_view kIpPlaceholder = "<ip>";
inline constexpr std::string_view kPortPlaceholder = "<port>";
inline constexpr std::string_view kNumberPlaceholder = "<num>";
inline constexpr std::string_view kIdPlaceholder = "<id>";

// Replaces the volatile parts of an error message so that two messages that
// differ only in them compare equal. A token is only recognised where it
// starts a word (the previous output character is not an ASCII letter or
// digit), so `user12345` and `E11000` are kept. Rules, in the order tried:
//
//   <uuid>       8-4-4-4-12 hex digits, either case.
//   <timestamp>  ISO 8601 / RFC 3339 date or date-time (`2024-01-15`,
//                `2024-01-15T10:23:45.123+05:30`, `2024/01/15 10:23:45,123`),
//                RFC 2822 (`Mon, 15 Jan 2024 10:23:45 GMT`), JavaScript
//                Date#toString (`Mon Jan 15 2024 10:23:45 GMT+0100 (CET)`),
//                ctime and syslog (`Jan  5 10:23:45`), common log format
//                (`15/Jan/2024:10:23:45 +0000`) and a bare clock time with
//                seconds (`10:23:45`, `10:23:45.120Z`). A known zone name
//                (UTC, GMT, Z, PST, CET, ...) or numeric offset is included.
//   <ip>         dotted IPv4 (each part <= 255, not followed by `.digit`, so
//                four-part versions like 1.2.3.4.5 stay) and IPv6 (needs
//                `::` or eight groups and at least one decimal digit, so
//                `Foo::Bar` stays). An IPv4 tail (`::ffff:10.0.0.1`) is part
//                of the address.
//   <port>       `:N` (N <= 65535) right after <ip>, `[<ip>]`, `localhost`
//                or a dotted host name whose last label is letters and not a
//                source-file extension (`app.js:10` is a line number, not a
//                port); and `port N`, `port=N`, `port: N` after the word port.
//                Undotted names (`redis:6379`) are not taken as hosts; their
//                port falls under <num> when it has four or more digits.
//   <hex>        `0x` followed by hex digits (`0x7ffe3b2a`), and any whole
//                word of 8 or more hex digits mixing digits and letters
//                (`1b6d3586`, a commit or request id).
//   <num>        a whole number with 4 or more digits in its integer part or
//                in its fraction (`12345`, `1705314225123`, `1234.5`,
//                `0.30000000000000004`), letters may follow (`5000ms` ->
//                `<num>ms`). Numbers with two or more dots are versions and
//                are kept whole (`10.15.7`, `120.0.6099.109`).
//
// A token directly followed by a letter, a digit or '<' is not replaced
// (`12:30:45abc`), and '<' counts as a letter there: an earlier pass's
// placeholder stands where a word was, so decisions do not change between
// passes.
//
// Whitespace (ASCII, control characters, Unicode spaces such as NBSP) is
// collapsed to one space and trimmed. Invalid UTF-8 bytes become U+FFFD.
// The result is idempotent: NormalizeMessage(NormalizeMessage(m)) ==
// NormalizeMessage(m).
std::string NormalizeMessage(std::string_view message);

// The grouping key of a page or request URL.
//
// Keeps scheme, host (lower-cased, user info dropped, default ports :80 and
// :443 dropped) and path. The query string and the fragment are dropped,
// except hash-routing fragments (`#/users/5`, `#!/users/5`), which are kept
// and normalized like the path. Within each path segment, `;params` are
// dropped; a segment of digits becomes <id>, a UUID becomes <uuid>, and a
// segment of 16 or more hex digits (ObjectIds, hashes) becomes <id>. Empty
// segments and a trailing slash are dropped ("/" stays for a root). Bytes
// outside printable ASCII are percent-encoded and existing escapes are
// upper-cased, so the result is printable ASCII. `blob:` URLs are
// normalized inside; `data:` and `javascript:` URLs reduce to their scheme.
// A URL without a scheme is treated as a path. Empty input gives "".
// Idempotent.
std::string UrlPattern(std::string_view url);

}  // namespace service::domain::capture
