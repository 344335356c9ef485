// The accepted-capture hook (issue 30, seam C): what areas above capture
// learn, inside the ingest transaction, about an accepted v1 report that
// names a managed identity (`metadata.capture`) or evidence
// (`metadata.evidence`). The applications area writes first-capture
// receipts and the per-occurrence capture identity from it; the evidence
// area attaches the named artifacts to the occurrence.
//
// When hooks run: only for reports of POST /v1/ingest (and its alias POST
// /v1/bugs) that were accepted (stored as an occurrence) and carry either
// key; never for Sentry envelopes, console reports, test events, refused
// reports (plan limit, a delivery seen before: those store nothing), and
// never on the ingest path of a report without those keys (no cost there).
// They run in WriteReports after the report's occurrence row is written,
// in registration order (the modules' order in area_list.cpp).
//
// A hook returns non-OK only for a failure of the database: it rolls the
// whole batch back (the reports are retried or answered 5xx, as for the
// outbox). Anything wrong with the capture itself (an unknown installation,
// an artifact of another project) is the hook's to ignore. A batch may be
// written more than once (a lost race retries it in a new transaction), so
// a hook must write only inside `tx`.
//
// Thread-safety: hooks are registered while the modules open, before any
// request; they are then called from the capture writer's threads
// concurrently and must be safe for that.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "areas/capture/domain/capture_identity.h"
#include "ports/transaction.h"
#include "service/status.h"

namespace service::app::capture {

// metadata.capture (contract "Capture identity"), all strings as sent.
using CaptureIdentity = domain::capture::CaptureIdentity;

struct AcceptedCapture {
  std::string org_id, project_id, bug_id, occurrence_id;
  std::string key_env;         // the capture key's namespace: "live" or "test"
  std::string platform;        // the occurrence's platform (the report's, else inferred from its user agent)
  std::string level;           // the report's severity (critical, high, medium, low)
  int64_t accepted_at_ms = 0;  // the server clock, never the client's
  // Capture stores every accepted v1 report as a new occurrence (v1 ingest
  // has no delivery id; a Sentry delivery seen before is refused and never
  // reaches a hook), so this is true; a replay of a capture the client
  // names again (`metadata.capture.captureId`) is recognised by the
  // applications area, which records the capture ids it has seen.
  bool newly_accepted = true;
  std::optional<CaptureIdentity> identity;  // only when metadata.capture was an object
  std::vector<std::string> evidence_ids;    // metadata.evidence (strings), may be empty
};

using AcceptedCaptureHook = std::function<Status(ports::Tx&, const AcceptedCapture&)>;

}  // namespace service::app::capture
