// The application registry's use cases (Spec 2 "Applications"; contract
// "Capture identity"): creating applications, installations and builds with
// fixed-requestId retries, their cursor pages, an installation's capture
// status, deleting an installation or application (ours), and what the
// area does with each accepted capture (OnAcceptedCapture, the capture
// area's hook).
//
// Creation answers `created` true for a new row (201) and false for the
// row an earlier request with the same requestId and the same body made
// (200); the same requestId with another body is 409 REQUEST_ID_CONFLICT.
// Every use case checks the actor's role (manage_applications: admins and
// managers) and that the project, application and installation belong to
// the actor's organization (404 otherwise).
//
// Thread-safety: safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/actor.h"
#include "areas/applications/domain/applications.h"
#include "areas/applications/ports/receipt_repository.h"
#include "areas/applications/ports/registry_repository.h"
#include "areas/capture/app/accepted_capture.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/status.h"

namespace service::app::applications {

struct ApplicationsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  Logger* log = nullptr;
  ports::ProjectRepository* projects = nullptr;
  ports::RegistryRepository* registry = nullptr;
  ports::ReceiptRepository* receipts = nullptr;
  // SERVICE_NATIVE_CAPTURE_RECEIPTS: native (Swift) captures may create
  // receipts. Reads of existing receipts never depend on it.
  bool native_receipts = false;

  int64_t Now() const { return clock->NowMillis(); }
};

template <typename Row>
struct Created {
  Row row;
  bool created = false;  // false: the row of an earlier identical request
};

template <typename Row>
struct Page {
  std::vector<Row> items;
  std::optional<std::string> next_cursor;  // nullopt on the last page
};

// An installation's capture status (Spec 2): checked_at is the server's
// time of this read; receipt set once a first qualifying capture was
// accepted.
struct CaptureStatus {
  std::string_view state;  // domain::applications::kWaiting or kCaptureReceived
  int64_t checked_at = 0;
  std::optional<ports::ReceiptView> receipt;
};

Result<Created<ports::ApplicationRow>> CreateApplication(const ApplicationsDeps& deps,
                                                         const ConsoleActor& actor,
                                                         const std::string& project_id,
                                                         const domain::applications::ApplicationRequest& req);
Result<Created<ports::InstallationRow>> CreateInstallation(
    const ApplicationsDeps& deps, const ConsoleActor& actor, const std::string& project_id,
    const std::string& application_id, const domain::applications::InstallationRequest& req);
Result<Created<ports::BuildRow>> CreateBuild(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                             const std::string& project_id, const std::string& application_id,
                                             const domain::applications::BuildRequest& req);

// `cursor`: a previous page's next_cursor (see domain::DecodeCursor for
// its refusals); `limit` 1-50.
Result<Page<ports::ApplicationRow>> ListApplications(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                                     const std::string& project_id,
                                                     const std::optional<std::string>& cursor, int64_t limit);
Result<Page<ports::InstallationRow>> ListInstallations(
    const ApplicationsDeps& deps, const ConsoleActor& actor, const std::string& project_id,
    const std::string& application_id, const std::optional<std::string>& cursor, int64_t limit);
Result<Page<ports::BuildRow>> ListBuilds(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                         const std::string& project_id, const std::string& application_id,
                                         const std::optional<std::string>& cursor, int64_t limit);

Result<CaptureStatus> GetCaptureStatus(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                       const std::string& project_id, const std::string& application_id,
                                       const std::string& installation_id);

// Ours: deleting an installation takes its receipt and capture records;
// deleting an application takes its installations and builds too.
Status DeleteApplication(const ApplicationsDeps& deps, const ConsoleActor& actor,
                         const std::string& project_id, const std::string& application_id);
Status DeleteInstallation(const ApplicationsDeps& deps, const ConsoleActor& actor,
                          const std::string& project_id, const std::string& application_id,
                          const std::string& installation_id);

// The capture area's accepted-capture hook (inside the ingest
// transaction). A capture naming an application and installation of its
// project: its identity is recorded (the directory's observed targets) and,
// when it is newly accepted, not a retry of a capture id seen before, and
// its identity qualifies (domain::DecideReceipt), the installation's
// receipt is created unless one exists. Anything else is ignored. Non-OK
// only for a database failure.
Status OnAcceptedCapture(const ApplicationsDeps& deps, ports::Tx& tx, const capture::AcceptedCapture& c);

}  // namespace service::app::applications
