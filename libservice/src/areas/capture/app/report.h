// The inputs of the capture use cases, already validated by the API layer
// (api/capture_validation.h): a report as submitted, a presence ping, and
// where a report came from (key, organization, project, client address).
//
// Plain values; thread-safety as for any value.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "areas/capture/domain/capture_identity.h"
#include "areas/capture/domain/event.h"

namespace service::app::capture {

// One report (Spec 1 "POST /v1/ingest" body) after validation: lengths,
// types, enums and UTF-8 are checked; optional strings are nullopt when
// absent, null or empty.
struct ReportInput {
  std::string title;
  std::string description;
  std::string severity = "medium";
  std::string url;
  std::optional<std::string> user_agent;
  std::optional<std::string> viewport;
  // Events in submission order; a missing timestamp is the receipt time.
  std::vector<domain::capture::Event> events;
  std::optional<std::string> reporter_email;
  std::optional<std::string> reporter_id;
  std::optional<std::string> session_id;
  std::optional<std::string> user_id;
  std::optional<std::string> release;
  std::optional<std::string> environment;
  std::optional<std::string> platform;  // one of the spec's platforms
  std::optional<std::string> device;
  std::optional<std::string> os_version;
  boost::json::value metadata;  // an object, or null when absent
  // A client-side summary (object) kept on the bug when it has none.
  std::optional<std::string> ai_summary_json;
  // The error event's frames carry originals the server resolved through
  // source maps (data.frames[i].mapped, set by the Sentry area): grouped
  // by them (domain::capture::MappedStackKey) when any was resolved.
  bool source_mapped = false;
  // A client's own fingerprint parts (Sentry SDKs): domain::capture::CustomFingerprint.
  std::vector<std::string> fingerprint_parts;
  // A client's id of this delivery (Sentry's event_id): a report whose id
  // was stored before in the project is refused with kConflict
  // DUPLICATE_DELIVERY and stores nothing (checked in the write
  // transaction, so a retry after a lost answer is never stored twice).
  std::optional<std::string> delivery_id;
  // metadata.capture and metadata.evidence of a v1 report, read by the
  // parser only when present (domain/capture_identity.h); they reach the
  // accepted-capture hooks (app/accepted_capture.h).
  std::optional<domain::capture::CaptureIdentity> capture_identity;
  std::vector<std::string> evidence_ids;
};

// A presence ping (Spec 1 "POST /v1/ingest/presence") after validation.
struct PresenceInput {
  std::string session_id;
  std::optional<std::string> user_id;
  std::optional<std::string> reporter_id;
  std::optional<std::string> url;
  std::optional<std::string> path;
  std::optional<std::string> title;
  std::optional<std::string> referrer;
  std::optional<std::string> event_type;
  std::optional<std::string> visibility_state;
  std::optional<std::string> interaction_json;
  std::optional<std::string> metadata_json;
};

// Where a report comes from.
struct ReportSource {
  std::string org_id;
  std::string project_id;
  std::string project_name;
  std::string key_env = "live";  // the namespace: "live" or "test"
  std::string plan = "free";     // the organization's plan (limits)
  std::string client_ip;         // hashed before storage, never stored
  // A console-submitted report (POST /v1/bugs/manual): error type `manual`
  // whatever its events say.
  bool console_manual = false;
  // The project records shadow grouping evidence (grouping_v3_shadow_enabled).
  bool grouping_v3_shadow = false;
  std::string user_agent_header;  // the request's User-Agent, used when the body has none
};

}  // namespace service::app::capture
