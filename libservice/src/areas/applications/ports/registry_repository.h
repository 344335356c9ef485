// RegistryRepository: applications, installations and builds of a project
// (Spec 2 "Application registry").
//
// Every read and write is scoped by organization and project (and by
// application for installations and builds): another organization's,
// project's or application's id reads as absent. Rows are returned as the
// directory's records (application_directory.h). Lists are ordered by
// creation time then id, ascending, and read `limit` rows after `after`.
//
// Thread-safety: stateless; safe from any thread. Failure: a database error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "areas/applications/ports/application_directory.h"
#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// The directory's records plus request_id: the client's id of the creating
// request.
struct ApplicationRow : DirectoryApplication {
  std::string request_id;
};
struct InstallationRow : DirectoryInstallation {
  std::string request_id;
  bool has_label = false;         // DirectoryInstallation::label is "" without one
  bool capture_received = false;  // a receipt exists (filled by every read)
};
struct BuildRow : DirectoryBuild {
  std::string request_id;
};

// Where a list page starts: after (created_at, id); nullopt: from the start.
struct PageAfter {
  int64_t created_at = 0;
  std::string id;
};

// What an insert ran into.
enum class InsertOutcome {
  kInserted,
  kRequestIdUsed,  // a row of the same project and table holds the request id
  kUniqueTaken,    // application identifier / build artifact already registered
};

class RegistryRepository {
 public:
  RegistryRepository() = default;
  RegistryRepository(const RegistryRepository&) = delete;
  RegistryRepository& operator=(const RegistryRepository&) = delete;
  virtual ~RegistryRepository() = default;

  // Inserts unless the request id or the unique field is taken (nothing
  // written then; a concurrent insert is waited for). REQUIRES a Write.
  virtual Result<InsertOutcome> InsertApplication(Tx& tx, const ApplicationRow& row,
                                                  const std::string& created_by) = 0;
  virtual Result<InsertOutcome> InsertInstallation(Tx& tx, const InstallationRow& row,
                                                   const std::string& created_by) = 0;
  virtual Result<InsertOutcome> InsertBuild(Tx& tx, const BuildRow& row, const std::string& created_by) = 0;

  // The row created under `request_id` in the project.
  virtual Result<std::optional<ApplicationRow>> ApplicationByRequest(Tx& tx, const std::string& org_id,
                                                                     const std::string& project_id,
                                                                     const std::string& request_id) = 0;
  virtual Result<std::optional<InstallationRow>> InstallationByRequest(Tx& tx, const std::string& org_id,
                                                                       const std::string& project_id,
                                                                       const std::string& request_id) = 0;
  virtual Result<std::optional<BuildRow>> BuildByRequest(Tx& tx, const std::string& org_id,
                                                         const std::string& project_id,
                                                         const std::string& request_id) = 0;

  virtual Result<std::optional<ApplicationRow>> FindApplication(Tx& tx, const std::string& org_id,
                                                                const std::string& project_id,
                                                                const std::string& application_id) = 0;
  virtual Result<std::optional<InstallationRow>> FindInstallation(Tx& tx, const std::string& org_id,
                                                                  const std::string& project_id,
                                                                  const std::string& application_id,
                                                                  const std::string& installation_id) = 0;

  virtual Result<std::vector<ApplicationRow>> ListApplications(Tx& tx, const std::string& org_id,
                                                               const std::string& project_id,
                                                               const std::optional<PageAfter>& after,
                                                               int64_t limit) = 0;
  virtual Result<std::vector<InstallationRow>> ListInstallations(Tx& tx, const std::string& org_id,
                                                                 const std::string& project_id,
                                                                 const std::string& application_id,
                                                                 const std::optional<PageAfter>& after,
                                                                 int64_t limit) = 0;
  virtual Result<std::vector<BuildRow>> ListBuilds(Tx& tx, const std::string& org_id,
                                                   const std::string& project_id,
                                                   const std::string& application_id,
                                                   const std::optional<PageAfter>& after, int64_t limit) = 0;

  // Deletes the row (and everything that goes with it: foreign keys).
  // False when there was none in that scope. REQUIRES a Write.
  virtual Result<bool> DeleteApplication(Tx& tx, const std::string& org_id, const std::string& project_id,
                                         const std::string& application_id) = 0;
  virtual Result<bool> DeleteInstallation(Tx& tx, const std::string& org_id, const std::string& project_id,
                                          const std::string& application_id,
                                          const std::string& installation_id) = 0;
};

}  // namespace service::ports
