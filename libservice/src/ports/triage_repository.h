// TriageRepository: the rows people attach to bugs (comments, watchers,
// status history, assignments, notifications and notification
// preferences), as far as deletion needs them today. The triage issues
// extend this area with its reads and writes.
//
// Every method runs inside the caller's write transaction (REQUIRES).
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

class TriageRepository {
 public:
  TriageRepository() = default;
  TriageRepository(const TriageRepository&) = delete;
  TriageRepository& operator=(const TriageRepository&) = delete;
  virtual ~TriageRepository() = default;

  // The organization's notifications and notification preferences (its
  // bugs, and with them their comments, watchers and history, cascade).
  virtual Status DeleteOrganizationRows(Tx& tx, const std::string& org_id) = 0;
  // A member leaving `org_id`: their preferences and watches there go, and
  // bugs there assigned to them become unassigned.
  virtual Status DeleteMemberRows(Tx& tx, const std::string& org_id, const std::string& user_id) = 0;
  // An account being deleted: its comments, notifications, preferences and
  // watches go; assignments, history entries and notifications it caused
  // keep their rows without naming it.
  virtual Status DeleteAccountRows(Tx& tx, const std::string& user_id) = 0;
};

}  // namespace service::ports
