// CaptureBugRepository: the ingest side of the bug aggregate. Adds a batch of
// reports to the bugs with their fingerprints (or creates a bug), records the
// bugs' distinct participants (end users, sessions, reporter emails) and a
// status-history row when a report reopens a bug.
//
// Every method runs inside the caller's Database::Write (REQUIRES: `tx` is
// inside Write) so a batch's bugs, occurrences, end users and usage commit
// together. Methods take whole batches: on PostgreSQL each is one statement
// over arrays (unnest), whatever the batch size; on SQLite, where a
// statement costs no round trip, they loop over constant single-row
// statements (prepared once per connection). Answers come from RETURNING,
// never from a read before the write.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status; "no such bug" and "lost an insert race" are values, never errors,
// so a refused report never aborts a transaction it shares.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// What a report that creates a bug writes to it.
struct BugReportWrite {
  std::string org_id;
  std::string project_id;
  std::string key_env;                          // "live" or "test": separate namespaces
  std::string fingerprint;                      // 16 hex characters
  std::string signature;                        // "" for a manual report (domain::capture::Fingerprint)
  std::string signature_hash;                   // the groupKey; "" for a manual report (then the bug id)
  std::string embedding;                        // domain::capture::EncodeEmbedding of the search text
  std::optional<std::string> grouping_v3_json;  // shadow grouping evidence, when enabled
  std::string grouping_v3_key;                  // its routable identity hash; "" when none
  bool ui_ux = false;                           // domain::capture::IsUiUx
  std::string new_bug_id;                       // the id a created bug gets
  std::string occurrence_id;
  std::string title;
  std::string description;
  std::string url;
  std::string severity;
  std::string platform;
  int64_t platforms = 0;    // domain::capture::PlatformBit(platform)
  std::string release;      // "" when the report has none
  std::string environment;  // "" when the report has none
  std::string signal_class;
  std::string signal_family;
  std::string signal_reason;
  std::string classifier_confidence;
  std::optional<std::string> ai_summary_json;  // a client-side summary object
  int64_t seen_at = 0;                         // the report's receipt time
};

// The reports of one batch that share a bug key, added in one step.
struct BugKeyReports {
  std::string project_id;
  std::string key_env;
  std::string fingerprint;
  int64_t count = 0;                           // reports with this key in the batch
  int64_t seen_at = 0;                         // the latest receipt time among them
  std::string release;                         // the last non-empty release among them, or ""
  std::string environment;                     // the last non-empty environment among them, or ""
  std::optional<std::string> ai_summary_json;  // the first client summary among them
  std::string first_occurrence_id;             // the occurrence of the first of them
  // Participants of the bug first seen in this batch (RecordParticipants),
  // added to affected_user_count, affected_session_count, reporter_count.
  int64_t new_users = 0;
  int64_t new_sessions = 0;
  int64_t new_reporters = 0;
  int64_t platforms = 0;  // the union of their platform bits, added to bugs.platforms
};

// A bug after reports were added to it (or after it was created).
struct BugAfterReport {
  std::string id;
  bool created = false;     // Create made it
  bool regression = false;  // the (first) report reopened a resolved bug
  std::string status;
  std::string title;
  std::string severity;
  std::string url;
  int64_t report_count = 0;  // after every report of the step
  bool is_regression = false;
};

// Participants first seen by a batch, per bug.
struct NewParticipants {
  int64_t users = 0;
  int64_t sessions = 0;
  int64_t reporters = 0;
};
using NewParticipantsByBug = std::map<std::string, NewParticipants>;  // bug id -> counts

// One report's participants of its bug.
struct BugParticipants {
  std::string bug_id;
  std::string user_key;
  std::optional<std::string> session_id;
  std::optional<std::string> reporter_email;  // lower-cased
  int64_t seen_at = 0;
};

class CaptureBugRepository {
 public:
  CaptureBugRepository() = default;
  CaptureBugRepository(const CaptureBugRepository&) = delete;
  CaptureBugRepository& operator=(const CaptureBugRepository&) = delete;
  virtual ~CaptureBugRepository() = default;

  // Adds each key's reports to the bug with (project_id, key_env,
  // fingerprint): report and occurrence counts + count, last_seen, latest
  // release and environment (when given), the client summary when the bug
  // has none. A resolved bug reopens: status `new` (the spec leaves the
  // status after a reopen open; `new` puts the regression back in front of
  // triage), is_regression true, resolved_at cleared, and `regression` true
  // in the answer. One answer per key, in order; nullopt: no such bug.
  // REQUIRES: keys are distinct.
  virtual Result<std::vector<std::optional<BugAfterReport>>> AddReports(
      Tx& tx, const std::vector<BugKeyReports>& keys) = 0;

  // Creates the bug for one report with a new fingerprint: status `new`,
  // report and occurrence counts 1, participant counts 0 (AddParticipants
  // adds them). nullopt: a concurrent transaction created the same
  // fingerprint first (PostgreSQL: the insert waited for it to commit, so
  // AddReports now finds the bug).
  virtual Result<std::optional<BugAfterReport>> Create(Tx& tx, const BugReportWrite& w) = 0;

  // Undoes Create in the same transaction (the report was refused after
  // all, e.g. by the monthly bug limit). REQUIRES: nothing references the
  // bug yet.
  virtual Status RemoveCreated(Tx& tx, const std::string& bug_id) = 0;

  // The ids of the bugs with each key (nullopt: none), in order. Reads only.
  virtual Result<std::vector<std::optional<std::string>>> FindIds(Tx& tx,
                                                                  const std::vector<BugKeyReports>& keys) = 0;

  // Records each report's end user, session and reporter email among its
  // bug's distinct participants (bug_participants, kinds user, session and
  // reporter) and returns, per bug, how many of them were new. The bugs'
  // counters are raised by AddReports (new_* of each key) or
  // RaiseParticipantCounts, so that affected_user_count,
  // affected_session_count and reporter_count always equal the number of
  // distinct rows: the one expression behind every users-affected count.
  virtual Result<NewParticipantsByBug> RecordParticipants(Tx& tx,
                                                          const std::vector<BugParticipants>& reports) = 0;
  virtual Status RaiseParticipantCounts(Tx& tx, const NewParticipantsByBug& counts) = 0;
  // RecordParticipants, then RaiseParticipantCounts.
  Status AddParticipants(Tx& tx, const std::vector<BugParticipants>& reports) {
    SV_ASSIGN_OR_RETURN(NewParticipantsByBug counts, RecordParticipants(tx, reports));
    return RaiseParticipantCounts(tx, counts);
  }

  // Records a client's delivery id for `project_id`; false when it was
  // recorded before (the report is a retry of a stored one).
  virtual Result<bool> ClaimDelivery(Tx& tx, const std::string& project_id, const std::string& delivery_id,
                                     int64_t now_ms) = 0;
  // Forgets up to `limit` delivery ids recorded before `before_ms` (any
  // project; the oldest first); returns how many.
  virtual Result<int64_t> ForgetDeliveries(Tx& tx, int64_t before_ms, int64_t limit) = 0;

  // Appends a status-history row (changed_by empty: the system).
  virtual Status AddStatusHistory(Tx& tx, const std::string& id, const std::string& bug_id,
                                  const std::string& org_id, const std::string& old_status,
                                  const std::string& new_status, const std::string& note,
                                  const std::string& changed_by, int64_t at) = 0;
};

}  // namespace service::ports
