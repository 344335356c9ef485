// Report fingerprints (Spec 1 "Ingestion"): SHA-256 of
// `<errorType>:<normalizedMessage>:<urlPattern>`; reports with the same
// fingerprint are grouped into one bug. Bug signatures: the same without the
// URL pattern, so one error on several pages forms one group of several
// bugs (GET /v1/bugs/groups). Pure; safe from any thread.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "areas/capture/domain/event.h"

namespace service::domain::capture {

// Length of the fingerprint on the wire and in the database.
inline constexpr size_t kFingerprintLength = 16;
// Longest error type kept (bytes, cut on a character boundary).
inline constexpr size_t kMaxErrorTypeBytes = 100;

// Longest signature kept (bytes of "<errorType>:<normalizedMessage>").
inline constexpr size_t kMaxSignatureBytes = 1000;

// Whether an event of this `type` is an error event (ASCII case-insensitive):
// error, exception, unhandledrejection, uncaught, crash, fatal, panic, or any
// type containing "error", "exception", "rejection" or "crash" (so
// console.error, network_error and TypeError count too).
bool IsErrorEventType(std::string_view type);

// The error type of a report:
//   - "manual" when `is_manual` (a user-submitted report);
//   - else the class of the first error event: the first non-blank string
//     of data.name, data.type, then the same members of data.error,
//     data.exception and data.reason; else the class prefix of its message
//     (`TypeError: ...`, `Uncaught TypeError: ...`,
//     `java.lang.IllegalStateException: ...`, `panic: ...`; the prefix is a
//     dotted identifier whose last part ends in Error, Exception, Fault,
//     Failure, Panic, Warning or Rejection) or of the first line of
//     data.stack; else the event's type;
//   - "auto" for an automatic report without error events.
// Whitespace collapsed, invalid UTF-8 replaced, at most kMaxErrorTypeBytes.
std::string ErrorType(std::span<const Event> events, bool is_manual);

// The message an error event carries: data itself when it is a string, else
// the first non-blank string of message, value (then the same members of
// data.error, data.exception, data.reason), else data.reason when it is a
// string. Empty when none.
std::string_view ErrorEventMessage(const Event& event);

// The message that is fingerprinted:
//   - a manual report uses its title, so different complaints on one page
//     stay apart even when the same background error was captured;
//   - an automatic report uses the first error event's message with a
//     leading "Uncaught " / "Uncaught (in promise) " and a leading
//     "<errorType>:" removed (so `{name: "TypeError", message: "x"}` and
//     "Uncaught TypeError: x" agree), falling back to the title when the
//     event has no message or there is no error event.
// Not yet normalized.
std::string FingerprintMessage(std::span<const Event> events, bool is_manual, std::string_view title);

// Whether the fingerprint treats a report as user-submitted ("manual"): it
// was sent through the console (POST /v1/bugs/manual), the client marked it
// as a user report (IsMarkedUserReport), or it carries no error event. A
// report with an error event takes its error type from that event otherwise.
bool FingerprintsAsManual(std::span<const Event> events, bool console_manual, bool marked_user_report);

struct Fingerprint {
  std::string error_type;
  std::string normalized_message;  // NormalizeMessage(message)
  std::string url_pattern;         // UrlPattern(url)
  std::string canonical;           // "<error_type>:<normalized_message>:<url_pattern>", the hashed bytes
  std::string sha256_hex;          // 64 lower-case hex characters
  std::string short_hex;           // first kFingerprintLength characters: the wire fingerprint
  // The bug's signature: "<error_type>:<normalized_message>" (cut to
  // kMaxSignatureBytes on a character boundary) and the first 16 hex
  // characters of its SHA-256 (the groupKey). Both empty for a manual
  // report: a person's report is its own group (groupKey = the bug id).
  std::string signature;
  std::string signature_hash;
};

// Normalizes `message` and `url` and hashes them with `error_type`.
Fingerprint ComputeFingerprint(std::string_view error_type, std::string_view message, std::string_view url);

// Minified JavaScript whose frames the server resolved through uploaded
// source maps (issue 31; the Sentry area rewrites a resolved frame to its
// original function, filename, lineno and colno and keeps the values as
// sent in its `minified` object): the same code minified by two builds has
// different names in its messages ("r is not a function", "o is not a
// function") but the same original frames. The key: the first error
// event's data.frames that carry `minified` (resolved), not marked in_app
// false, innermost first, at most kMaxMappedFrames, each "<function>
// (<filename>) <context line>" (whitespace collapsed; the context line cut
// to kMaxContextBytes), after "stack:", joined by " <- ". Line and column
// numbers are left out so an edit elsewhere in the file keeps the group (as
// Sentry groups JavaScript). "" when no frame was resolved.
inline constexpr size_t kMaxMappedFrames = 5;
inline constexpr size_t kMaxContextBytes = 200;
std::string MappedStackKey(std::span<const Event> events);

// ComputeFingerprint with a MappedStackKey in place of the normalized
// message: canonical "<error_type>:<stack_key>:<url_pattern>", signature
// "<error_type>:<stack_key>".
Fingerprint ComputeStackFingerprint(std::string_view error_type, std::string_view stack_key,
                                    std::string_view url);

// The whole rule: ErrorType + FingerprintMessage + ComputeFingerprint.
Fingerprint FingerprintReport(std::span<const Event> events, bool is_manual, std::string_view title,
                              std::string_view url);

// A client's own fingerprint (a Sentry SDK's `fingerprint` array): the parts
// joined, each "{{ default }}" (spaces optional) replaced by `native`'s
// canonical text. The URL takes no part: the same parts group together on
// every page, and the signature (and groupKey) is the same text, so such
// reports form one group. `error_type` stays the native one.
Fingerprint CustomFingerprint(std::span<const std::string> parts, const Fingerprint& native);

}  // namespace service::domain::capture
