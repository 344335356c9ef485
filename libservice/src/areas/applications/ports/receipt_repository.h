// ReceiptRepository: what the applications area records of accepted
// captures (contract "Capture identity"): the managed identity of each
// accepted capture of a registered installation (per occurrence), the
// client capture ids seen per installation (retries), and each
// installation's first-capture receipt (Spec 2 "Applications").
//
// Scoping: writes carry the organization and project of the capture; the
// receipt read is scoped by organization, project, application and
// installation (another's ids read as absent).
//
// Thread-safety: stateless; safe from any thread. Failure: a database error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// One accepted capture of a registered installation.
struct CaptureIdentityRow {
  std::string occurrence_id;
  std::string capture_id;  // the client's captureId when usable, else a new id
  std::string org_id;
  std::string project_id;
  std::string application_id;
  std::string installation_id;
  std::string sdk_name;
  std::string sdk_version;
  std::string source;
  std::string framework;
  std::string runtime;
  std::string os_family;
  std::string platform;  // the occurrence's
  int64_t accepted_at = 0;
};

struct ReceiptRow {
  std::string installation_id;
  std::string org_id;
  std::string project_id;
  std::string application_id;
  std::string capture_id;
  std::string occurrence_id;
  std::string bug_id;
  int64_t accepted_at = 0;
  std::string sdk_name;
  std::string sdk_version;
  std::string capture_source;
  std::string platform;
  std::string os_family;
  std::string framework;
  std::string runtime;
};

// A receipt as read, with what is left of its capture.
struct ReceiptView {
  ReceiptRow receipt;
  // The occurrence still exists (with its bug): its current bug id, else
  // nullopt (the bug or occurrence was deleted).
  std::optional<std::string> live_bug_id;
};

class ReceiptRepository {
 public:
  ReceiptRepository() = default;
  ReceiptRepository(const ReceiptRepository&) = delete;
  ReceiptRepository& operator=(const ReceiptRepository&) = delete;
  virtual ~ReceiptRepository() = default;

  // Records `client_capture_id` for the installation; false when it was
  // recorded before (a retry of that capture). Atomic: of two concurrent
  // callers exactly one gets true. REQUIRES a Write.
  virtual Result<bool> ClaimClientCaptureId(Tx& tx, const std::string& installation_id,
                                            const std::string& client_capture_id,
                                            const std::string& occurrence_id, int64_t now_ms) = 0;
  // REQUIRES a Write; the occurrence, application and installation exist.
  virtual Status InsertIdentity(Tx& tx, const CaptureIdentityRow& row) = 0;
  // Inserts the installation's receipt unless it has one: true when this
  // call created it. The first wins, atomically (concurrent writers and
  // processes included). REQUIRES a Write.
  virtual Result<bool> InsertReceiptIfAbsent(Tx& tx, const ReceiptRow& row) = 0;
  virtual Result<std::optional<ReceiptView>> FindReceipt(Tx& tx, const std::string& org_id,
                                                         const std::string& project_id,
                                                         const std::string& application_id,
                                                         const std::string& installation_id) = 0;
};

}  // namespace service::ports
