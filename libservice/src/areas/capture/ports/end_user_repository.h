// EndUserRepository: the people behind reports, per organization, keyed by
// the canonical userKey (Spec 1 "End user").
//
// Touch runs inside the caller's Database::Write (REQUIRES). Reads are
// scoped by organization.
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

struct EndUser {
  std::string org_id;
  std::string user_key;
  std::string kind;  // user, email or anonymous
  std::optional<std::string> end_user_id;
  std::optional<std::string> email;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  int64_t occurrence_count = 0;
  std::vector<std::string> platforms;  // in order of first appearance
  std::optional<std::string> last_release;
  std::optional<std::string> last_environment;
  std::optional<std::string> last_occurrence_id;
};

// One occurrence seen from its end user's side.
struct EndUserSighting {
  std::string org_id;
  std::string user_key;
  std::string kind;
  std::optional<std::string> end_user_id;
  std::optional<std::string> email;
  std::string platform;  // one of the spec's platform values
  std::optional<std::string> release;
  std::optional<std::string> environment;
  std::string occurrence_id;
  int64_t seen_at = 0;
};

class EndUserRepository {
 public:
  EndUserRepository() = default;
  EndUserRepository(const EndUserRepository&) = delete;
  EndUserRepository& operator=(const EndUserRepository&) = delete;
  virtual ~EndUserRepository() = default;
  // Deletes the organization's rows (before the organization is deleted).
  virtual Status DeleteOrganization(Tx& tx, const std::string& org_id) = 0;

  // Creates or updates the end user of each sighting: occurrence count +1,
  // last seen, the platform added to its platforms, the latest release,
  // environment and occurrence (the last sighting's); a known id or email is
  // never erased by a sighting without one. Sightings of one end user are
  // folded into one upsert (PostgreSQL: the batch is one statement).
  virtual Status Touch(Tx& tx, const std::vector<EndUserSighting>& sightings) = 0;
  virtual Result<std::optional<EndUser>> Find(Tx& c, const std::string& org_id,
                                              const std::string& user_key) = 0;
};

}  // namespace service::ports
