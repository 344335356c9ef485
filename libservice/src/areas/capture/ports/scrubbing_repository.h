// ScrubbingRepository: a project's scrubbing settings and the counts of
// what was scrubbed in its reports (issue 31 item 3; README "Scrubbing").
// No settings row: the defaults (no extra keys, messages scrubbed, IP
// addresses stored as their keyed hash). Counts: one row per (project,
// rule), only ever added to.
//
// Put and AddCounts run inside the caller's Database::Write (REQUIRES).
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct ScrubbingSettingsRow {
  std::string project_id;
  std::string org_id;
  std::vector<std::string> extra_keys;  // as given (normalized when applied); no '\n'
  bool scrub_messages = true;
  bool store_ip = true;
  int64_t updated_at = 0;
  std::string updated_by;
};

struct ScrubCountRow {
  std::string rule;  // domain::capture::ScrubRuleName
  int64_t count = 0;
  int64_t last_at = 0;  // when counts were last added
};

class ScrubbingRepository {
 public:
  virtual ~ScrubbingRepository() = default;
  // The project's row within `org_id`; nullopt when none (or another
  // organization's project).
  virtual Result<std::optional<ScrubbingSettingsRow>> Get(Tx& tx, const std::string& org_id,
                                                          const std::string& project_id) = 0;
  // The project's row by its id alone (ingest, which knows the project from
  // a verified key); nullopt when none.
  virtual Result<std::optional<ScrubbingSettingsRow>> GetForProject(Tx& tx,
                                                                    const std::string& project_id) = 0;
  // Inserts or replaces the project's row.
  virtual Status Put(Tx& tx, const ScrubbingSettingsRow& row) = 0;
  // Adds `count` to the project's counter of `rule` (created at need; a
  // project that no longer exists is skipped without error).
  virtual Status AddCount(Tx& tx, const std::string& project_id, const std::string& rule, int64_t count,
                          int64_t now_ms) = 0;
  // The project's counters within `org_id`, by rule ascending.
  virtual Result<std::vector<ScrubCountRow>> Counts(Tx& tx, const std::string& org_id,
                                                    const std::string& project_id) = 0;
};

}  // namespace service::ports
