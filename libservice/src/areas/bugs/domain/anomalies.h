// Anomaly heuristics over one occurrence's events (Spec 1 "GET
// /v1/bugs/:id/anomalies"). Pure; safe from any thread.
//
// Events are read in time order (a stable sort by timestamp). A detector
// finds bursts: at least `min` matching events within `window`, extended
// while the next match follows the previous one within the window; each
// burst is one anomaly. Thresholds:
//
//   type                  matching events                              min  window  severity
//   error_cascade         error, exception, unhandledrejection,         3    5 s     high (medium below 5)
//                         unhandled_rejection, crash
//   failed_request_storm  network/fetch/xhr/http/request with status   5    10 s    medium; high from 10;
//                         >= 400, status 0 or data.failed/error           critical from 20
//   timeout_cascade       a request with status 408/504 or             3    30 s    high
//                         data.timeout, or any event whose message
//                         or error says "timeout" / "timed out"
//   rage_click            click, tap, ui.click, rage_click on one       3    1 s     medium (high from 6)
//                         target (selector, target, text, id)
//   auth_refresh_loop     requests whose URL path names refresh,        3    30 s    high
//                         token, oauth or /auth
//   request_loop          one method + URL path (query ignored)         10   10 s    medium (high from 30)
//   console_error_flood   console events at level error                 10   10 s    medium (high from 50)
//   compound_failure      two or more of the types above whose time     -    -       critical
//                         ranges overlap
//
// Output order: start time, then type. Evidence: at most 10 lines
// "+<ms from the first event> <type> <detail>".
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "areas/capture/domain/event.h"

namespace service::domain::bugs {

struct Anomaly {
  std::string type;
  std::string severity;  // low, medium, high, critical
  std::string description;
  std::vector<std::string> evidence;
  int64_t start_ms = 0;
  int64_t end_ms = 0;
};

inline constexpr size_t kMaxEvidence = 10;

std::vector<Anomaly> DetectAnomalies(std::span<const domain::capture::Event> events);

}  // namespace service::domain::bugs
