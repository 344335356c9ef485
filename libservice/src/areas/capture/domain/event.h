// Submitted events and report metadata as the capture domain reads them
// (Spec 1 "Submitted event (ingest)", Occurrence.metadata). Plain values;
// the functions are pure and safe from any thread.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::capture {

// One submitted event. `data` is the event's `data` member as parsed (null
// when absent); moving it out of the parsed request body costs nothing when
// both use the default memory resource, so the ingest path copies no text.
struct Event {
  std::string type;
  int64_t timestamp_ms = 0;  // Unix milliseconds; the receipt time by default
  boost::json::value data;
};

// The auto-report kind of a report, from its occurrence metadata, or empty
// for a user-submitted (manual) report. Read, in this order:
//   selfTest / sdkSelfTest: true                  -> "self_test"
//   autoReport: "<kind>"                          -> <kind>
//   autoReport: true                              -> the first non-manual
//       string of autoReportKind, kind, trigger, reason; else "auto"
//   autoReport: false                             -> manual
//   no autoReport: autoReportKind, kind or trigger -> that kind
//   source: "self_test" (or self-test, selftest)  -> "self_test"
// Kinds are lower-cased, '-', '.', ' ' and '/' become '_', other characters
// are dropped, at most 64 characters. The values manual, user, user_report,
// user_feedback, feedback and widget mean a manual report.
std::string AutoReportKind(const boost::json::value& metadata);

// Whether the client marked the report as submitted by a person (a feedback
// widget, "report a bug"): autoReport false, or autoReport, autoReportKind,
// kind or trigger naming a manual kind (the list above) while autoReport is
// not true. A report merely without an auto-report marker is not marked.
bool IsMarkedUserReport(const boost::json::value& metadata);

// The events of one occurrence as ingest stores them: a JSON array of
// {type, timestamp, data}. A missing or non-integer timestamp reads as
// `occurred_at_ms`; entries that are not objects are skipped; text that is
// not an array reads as no events (a read never fails on one stored row).
// At most `max` events.
std::vector<Event> StoredEvents(std::string_view events_json, int64_t occurred_at_ms, size_t max = SIZE_MAX);

// The member `key` of `v` when `v` is an object that has it, else null.
const boost::json::value* JsonField(const boost::json::value& v, std::string_view key);
// The string member `key` of `v`, or empty when absent or not a string.
std::string_view JsonString(const boost::json::value& v, std::string_view key);

}  // namespace service::domain::capture
