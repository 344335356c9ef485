// Signal classification of a report (Spec 1 "Ingestion": every report is
// classified issue, watch or diagnostic by a heuristic over event types,
// auto-report kind, titles and network status; diagnostics are hidden from
// list views by default). Pure; safe from any thread.
//
// How it works: each event is put in one category by its type (and, for
// console events, its level; for any event, a numeric data.status and a
// duration). The auto-report kind and the title add the same kinds of facts.
// An error event that says it was handled outweighs a kind naming errors in
// general ("error", "exception") unless another event was not handled.
// Then one ordered rule table (kRules in classify.cpp, the only place the
// policy lives) is read top to bottom and the first rule whose condition
// holds gives the class, family, reason and confidence:
//
//   condition                                   class       family               confidence
//   self-test kind or "[self-test]" title       diagnostic  self_test            high
//   manual (user-submitted) report              issue       user_report          high
//   crash / fatal / panic / ANR event or kind   issue       crash                high
//   uncaught error or exception event or kind   issue       uncaught_error       high
//   unhandled promise rejection                 issue       unhandled_rejection  high
//   a response with status 500-599              issue       http_5xx             high
//   an error the app caught and reported: the
//     error event says handled (data.handled or
//     data.mechanism.handled true, as Sentry
//     SDKs' capture_exception sends), or the
//     kind is handled/caught(_error/_exception) issue       handled_error        high
//   a network event that failed (status 0,
//     data.error, or an error/fail/abort/
//     timeout type)                             watch       network_failure      medium
//   a request of 3,000 ms or more, "slow" kind  watch       slow_request         medium
//   a response with status 400-499              watch       http_4xx             medium
//   a deprecation / intervention report         watch       deprecation          high
//   console.error output                        watch       console_error        medium
//   console.warn output                         watch       console_warning      low
//   a captured message (event type "message",
//     a Sentry SDK's capture_message)           watch       message              high
//   only console info/debug/log output          diagnostic  console              high
//   only breadcrumbs (navigation, clicks,
//     successful requests, console info)        diagnostic  breadcrumb           medium
//   title names a crash                         issue       crash                low
//   title names an error or exception           issue       uncaught_error       low
//   title names a 5xx response                  issue       http_5xx             low
//   title mentions deprecation                  watch       deprecation          low
//   title mentions slowness                     watch       slow_request         low
//   anything else                               watch       unclassified         low
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "areas/capture/domain/event.h"

namespace service::domain::capture {

inline constexpr std::string_view kSignalIssue = "issue";
inline constexpr std::string_view kSignalWatch = "watch";
inline constexpr std::string_view kSignalDiagnostic = "diagnostic";

// Requests at least this slow are slow_request signals.
inline constexpr int64_t kSlowRequestMs = 3000;

struct ClassifyInput {
  std::span<const Event> events;
  std::string_view title;
  // AutoReportKind(metadata): empty for a user-submitted (manual) report.
  std::string_view auto_report_kind;
};

struct Classification {
  std::string signal_class;           // issue, watch or diagnostic
  std::string signal_family;          // e.g. uncaught_error, http_5xx, console
  std::string signal_reason;          // one short sentence for people
  std::string classifier_confidence;  // high, medium or low
};

Classification Classify(const ClassifyInput& input);

}  // namespace service::domain::capture
