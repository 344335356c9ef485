// The write of a batch of ingested reports: one transaction, a few
// statements for the whole batch (see ports/capture_bug_repository.h):
//
//   bugs        the batch's fingerprints folded per bug and looked up;
//               for known bugs the participants (user, session, reporter
//               email) are recorded first, then ONE UPDATE ... RETURNING per
//               batch adds every report and every new participant to each
//               bug (a resolved bug is reopened by a second statement); a
//               fingerprint that is new goes report by report: INSERT ... ON
//               CONFLICT DO NOTHING RETURNING, then the monthly bug counter
//               (check and increment in one statement); refused, the insert
//               is undone; its participants follow
//   occurrences one INSERT for the batch (events: a JSON array in the row)
//   end users   one upsert for the batch
//   history     a row per report that reopened a resolved bug
//   outbox      CaptureDeps::events per report (transactional subscribers)
//   hooks       CaptureDeps::accepted_capture_hooks, for accepted reports
//               naming a capture identity or evidence (accepted_capture.h)
//
// On PostgreSQL "one statement" is literal (unnest()ed arrays); on SQLite,
// where statements cost no round trip, the repositories loop over
// single-row statements.
//
// Thread-safety: WriteReports runs inside one Database::Write; the reports
// belong to that call until it returns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "areas/capture/app/accepted_capture.h"
#include "areas/capture/app/deps.h"
#include "areas/capture/app/report.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "ports/event_bus.h"
#include "ports/transaction.h"
#include "service/status.h"

namespace service::app::capture {

// One report, with everything computed before the write.
struct PreparedReport {
  const ReportSource* source = nullptr;
  ports::BugReportWrite bug_write;
  ports::Occurrence occurrence;  // bug_id set by the write
  ports::EndUserSighting sighting;
  std::optional<std::string> reporter_email_key;  // lower-cased
  std::string month;                              // "YYYY-MM": the plan-limit month
  int64_t bugs_per_month = -1;                    // the plan's limit (negative: none)
  std::optional<std::string> delivery_id;         // ReportInput::delivery_id
  // ReportInput::capture_identity and evidence_ids: a report with either
  // goes to CaptureDeps::accepted_capture_hooks once accepted.
  std::optional<CaptureIdentity> capture_identity;
  std::vector<std::string> evidence_ids;

  // Results, reset by every write attempt.
  Status outcome;             // OK, or why it was refused (nothing stored then)
  ports::BugAfterReport bug;  // the bug it was added to
  ports::Event event;         // filled in the transaction only when the outbox hook needs it
};

// Writes `batch` (see above). Each report's outcome lands in the report;
// the return value is non-OK only for a failure of the database (or the
// outbox hook), which must roll the whole transaction back.
Status WriteReports(const CaptureDeps& deps, ports::Tx& tx, const std::vector<PreparedReport*>& batch);

// The stream event of a written report (Spec 1 "Events").
ports::Event OutcomeEvent(const PreparedReport& r);

}  // namespace service::app::capture
