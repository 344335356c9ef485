// PresenceRepository: live sessions of end users (Spec 1 "POST
// /v1/ingest/presence", "GET /v1/bugs/presence"). One row per (project,
// session), refreshed by each presence ping; a session is active while its
// last ping lies within the presence window (75 seconds).
//
// Upsert and DeleteOlderThan run inside the caller's Database::Write
// (REQUIRES). Thread-safety: stateless; safe from any thread. Failure:
// driver errors as Status.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct PresencePing {
  std::string org_id;
  std::string project_id;
  std::string session_id;
  std::optional<std::string> user_id;
  std::optional<std::string> reporter_id;
  std::optional<std::string> url;
  std::optional<std::string> path;
  std::optional<std::string> title;
  std::optional<std::string> referrer;
  std::optional<std::string> event_type;
  std::optional<std::string> visibility_state;
  std::optional<std::string> interaction_json;  // JSON object text
  std::optional<std::string> metadata_json;     // JSON object text
  int64_t at = 0;
};

struct PresencePage {
  std::string path;
  int64_t active_sessions = 0;
};

struct PresenceSnapshot {
  int64_t active_sessions = 0;
  // Distinct people: the session's userId, else its reporterId, else the
  // session itself (an anonymous session is one person).
  int64_t active_users = 0;
  std::vector<PresencePage> pages;  // most active first, then path ascending
};

class PresenceRepository {
 public:
  PresenceRepository() = default;
  PresenceRepository(const PresenceRepository&) = delete;
  PresenceRepository& operator=(const PresenceRepository&) = delete;
  virtual ~PresenceRepository() = default;
  // Deletes the organization's rows (before the organization is deleted).
  virtual Status DeleteOrganization(Tx& tx, const std::string& org_id) = 0;

  // Creates or refreshes the session's row with the ping's values.
  virtual Status Upsert(Tx& tx, const PresencePing& ping) = 0;
  // Sessions of the organization seen at or after `since_ms`, with the
  // `top_pages` busiest paths (sessions without a path are not pages).
  virtual Result<PresenceSnapshot> Snapshot(Tx& c, const std::string& org_id, int64_t since_ms,
                                            int64_t top_pages) = 0;
  // Removes up to `limit` rows last seen before `before_ms` (any
  // organization; the oldest first); returns how many.
  virtual Result<int64_t> DeleteOlderThan(Tx& tx, int64_t before_ms, int64_t limit) = 0;
};

}  // namespace service::ports
