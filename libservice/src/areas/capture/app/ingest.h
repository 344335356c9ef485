// The ingest use case (Spec 1 "Ingestion", issue 4 items 3-6, 8, 9, 11): one
// validated report becomes an occurrence under the bug with its fingerprint.
//
// Everything that can be computed without the database (fingerprint, signal
// classification, platform, browser and OS, end-user key, client-address
// hash, the events and metadata JSON) is computed before the write; the
// write itself is a handful of constant statements in one transaction:
//
//   bug        UPDATE ... RETURNING (existing fingerprint), else
//              INSERT ... ON CONFLICT DO NOTHING RETURNING and the monthly
//              bug counter (check and increment in one statement; refused,
//              the insert is undone in the same transaction)
//   occurrence one INSERT, its events a JSON array in the row
//   end user   one upsert
//   bug users  one upsert each for user, session and reporter email, and
//              one UPDATE of the bug's distinct counts when one was new
//   history    one INSERT when the report reopened a resolved bug
//   outbox     CaptureDeps::events (the platform's transactional subscribers)
//
// Concurrent reports share one transaction (capture::WriteBatcher: group
// commit at the application level). After the commit the outcome (new_bug, duplicate or regression) is
// published on CaptureDeps::bus. Reports of an existing bug are never refused by
// the monthly bug limit: it counts new bugs only.
//
// Thread-safety: safe from any thread.
#pragma once

#include <string>

#include "areas/capture/app/deps.h"
#include "areas/capture/app/report.h"
#include "service/status.h"

namespace service::app::capture {

struct IngestResult {
  std::string bug_id;
  std::string occurrence_id;
  std::string fingerprint;    // 16 hex characters
  bool deduplicated = false;  // the report joined an existing bug (a regression too)
  bool regression = false;    // the report reopened a resolved bug
  std::string event_type;     // new_bug, duplicate or regression
};

// kPaymentRequired with the plan-limit payload when the report would create
// a bug past the organization's monthly limit (nothing is stored then).
Result<IngestResult> Ingest(const CaptureDeps& deps, const ReportSource& source, ReportInput input);

}  // namespace service::app::capture
