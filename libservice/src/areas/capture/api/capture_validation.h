// Parsing and validation of the capture request bodies (Spec 1 "POST
// /v1/ingest" field table, presence body, POST /v1/bugs/manual,
// POST /v1/projects/:id/test-event).
//
// Failures are Status values the pipeline turns into the spec's bodies:
//   malformed JSON            400 {error: "Invalid JSON in request body"}
//   anything else wrong       400 {error: "Validation failed", details: [{field, message}]}
// The second covers wrong types, lengths (in characters), enums, invalid
// emails, more than 1,000 events, non-object metadata, invalid UTF-8
// anywhere in the body (the field is named) and nesting deeper than
// kMaxJsonDepth. Nothing here touches storage, so a refused report stores
// nothing.
//
// Pure functions; safe from any thread.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <string_view>

#include "api/validate.h"
#include "areas/capture/app/report.h"
#include "service/status.h"

namespace service::api {

inline constexpr int kMaxJsonDepth = 64;
inline constexpr size_t kMaxIngestEvents = 1000;

// The body as JSON, with the two capture-specific refusals above (depth and
// invalid UTF-8 answer "Validation failed" with details).
Result<boost::json::value> ParseCaptureJson(std::string_view body, boost::json::storage_ptr sp = {});

// POST /v1/ingest. Events without a timestamp get `now_ms`.
// `sp`: where the parsed values live (ingest passes a per-request arena,
// which must outlive the returned input); the default heap otherwise.
Result<app::capture::ReportInput> ParseIngestBody(std::string_view body, int64_t now_ms,
                                                  boost::json::storage_ptr sp = {});

// POST /v1/ingest/presence.
Result<app::capture::PresenceInput> ParsePresenceBody(std::string_view body);

// A "Validation failed" status carrying `details`.
Status ValidationStatus(const boost::json::array& details);

}  // namespace service::api
