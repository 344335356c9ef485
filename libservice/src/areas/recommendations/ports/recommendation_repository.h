// RecommendationRepository: the recommendations area's rows
// (recommended_emissions) and the one read it needs of the integrations
// area's table: which projects have a destination for recommended_bug.
//
// Methods run inside the caller's transaction (Reads in Read or Write,
// writes in Write). Failures: kInternal/kUnavailable from the database.
// Thread-safety: implementations are stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct SubscribedProject {
  std::string org_id;
  std::string project_id;
};

struct Emission {
  std::string project_id;
  std::string bug_id;
  std::string org_id;
  int64_t emitted_at = 0;
  int64_t emissions = 0;   // how many times it was emitted
  int64_t deliveries = 0;  // deliveries queued by the latest emission
};

class RecommendationRepository {
 public:
  RecommendationRepository() = default;
  RecommendationRepository(const RecommendationRepository&) = delete;
  RecommendationRepository& operator=(const RecommendationRepository&) = delete;
  virtual ~RecommendationRepository() = default;

  // The projects holding an active integration whose event list names
  // `event`, in project id order (one scan of the integrations table).
  virtual Result<std::vector<SubscribedProject>> SubscribedProjects(Tx& tx, const std::string& event) = 0;
  virtual Result<std::optional<Emission>> Find(Tx& tx, const std::string& project_id,
                                               const std::string& bug_id) = 0;
  // Inserts the first emission of (project, bug); false when a row exists
  // (another run took it: nothing may be emitted).
  virtual Result<bool> ClaimFirst(Tx& tx, const Emission& e) = 0;
  // Moves a row's emission from `previous_emitted_at` to `now_ms` (one more
  // emission); false when the row moved meanwhile (another run took it).
  virtual Result<bool> ClaimAgain(Tx& tx, const std::string& project_id, const std::string& bug_id,
                                  int64_t previous_emitted_at, int64_t now_ms) = 0;
  // Records how many deliveries the emission queued.
  virtual Status SetDeliveries(Tx& tx, const std::string& project_id, const std::string& bug_id,
                               int64_t deliveries) = 0;
  // The project's emissions, newest first (at most `limit`).
  virtual Result<std::vector<Emission>> List(Tx& tx, const std::string& project_id, int64_t limit) = 0;
};

}  // namespace service::ports
