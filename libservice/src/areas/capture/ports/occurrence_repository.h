// OccurrenceRepository: one row per received report, with its submitted
// events kept as one JSON array per occurrence (few rows per report on the
// ingest path; reads get the events back in submission order).
//
// Insert runs inside the caller's Database::Write (REQUIRES). Reads are
// scoped by organization: another organization's occurrence reads as absent.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct Occurrence {
  std::string id;
  std::string bug_id;
  std::string project_id;
  std::string org_id;
  std::optional<std::string> reporter_email;
  std::optional<std::string> reporter_id;
  std::optional<std::string> ip_hash;  // keyed hash of the client address, never the address
  std::optional<std::string> session_id;
  std::optional<std::string> end_user_id;  // the application's user id
  std::string user_key;                    // canonical end-user key
  std::string user_kind;                   // user, email or anonymous
  std::optional<std::string> release_version;
  std::optional<std::string> environment;
  std::optional<std::string> url;
  std::optional<std::string> user_agent;
  std::optional<std::string> viewport;
  std::optional<std::string> browser;
  std::optional<std::string> os;
  std::string platform;
  int64_t event_count = 0;
  std::string metadata = "{}";  // JSON object text
  int64_t occurred_at = 0;
  int64_t created_at = 0;
  // The submitted events, a JSON array of {type, timestamp, data} in
  // submission order ("" for none). Written by Insert; reads leave it empty
  // (see Events).
  std::string events_json;
};

class OccurrenceRepository {
 public:
  OccurrenceRepository() = default;
  OccurrenceRepository(const OccurrenceRepository&) = delete;
  OccurrenceRepository& operator=(const OccurrenceRepository&) = delete;
  virtual ~OccurrenceRepository() = default;

  // Inserts the occurrences with their events (one statement on PostgreSQL,
  // one per occurrence on SQLite).
  virtual Status Insert(Tx& tx, const std::vector<const Occurrence*>& occurrences) = 0;

  virtual Result<std::optional<Occurrence>> Find(Tx& c, const std::string& org_id,
                                                 const std::string& occurrence_id) = 0;
  // The occurrence's events as stored (a JSON array), "[]" when it had none,
  // nullopt when the occurrence is absent.
  virtual Result<std::optional<std::string>> Events(Tx& c, const std::string& org_id,
                                                    const std::string& occurrence_id) = 0;
  // The bug's occurrences, newest first (occurred_at desc, id desc);
  // `user_key` narrows them to one end user. Events are not read.
  virtual Result<std::vector<Occurrence>> ListForBug(Tx& c, const std::string& org_id,
                                                     const std::string& bug_id,
                                                     const std::optional<std::string>& user_key,
                                                     int64_t limit, int64_t offset) = 0;
  virtual Result<int64_t> CountForBug(Tx& c, const std::string& org_id, const std::string& bug_id,
                                      const std::optional<std::string>& user_key) = 0;

  // ---- retention (README "Retention"; the capture-occurrence-retention worker) ----
  // Organizations with their plan (organizations.plan), in id order after
  // `after_org_id` ("" : from the first), at most `limit`.
  struct OrganizationPlan {
    std::string org_id;
    std::string plan;
  };
  virtual Result<std::vector<OrganizationPlan>> OrganizationPlans(Tx& c, const std::string& after_org_id,
                                                                  int64_t limit) = 0;
  // Deletes up to `limit` occurrences of `org_id` that occurred before
  // `before_ms`, with their events (the row's events column; legacy occurrence_events rows
  // cascade) and what else cascades with them (capture identities, attached
  // evidence); the occurrence_days trigger follows;
  // returns how many. Bugs and their participants are not touched.
  virtual Result<int64_t> DeleteOlderThan(Tx& tx, const std::string& org_id, int64_t before_ms,
                                          int64_t limit) = 0;
};

}  // namespace service::ports
