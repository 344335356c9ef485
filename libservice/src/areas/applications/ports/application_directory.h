// ApplicationDirectory (issue 30, seam D): what other areas (verification,
// symbols) may ask the application registry: an application, installation
// or build of a project, and the applications and runtimes a bug's
// occurrences were captured on (from the capture identities the
// applications area records at ingest: every accepted v1 report whose
// metadata.capture names an application and installation that exist in the
// report's project).
//
// Every read is scoped by organization and project: another organization's
// or project's id finds nothing (nullopt, an empty list). Reads take the
// caller's transaction (Read or Write). Failure: a database error only.
//
// Get it with `ApplicationsModule::directory()` (the module is passed by
// reference in area_list.cpp) or `platform.Shared<ports::ApplicationDirectory>()`.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct DirectoryApplication {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string name;
  std::string identifier;  // e.g. a bundle id or web origin, as registered
  int64_t created_at = 0;
};

struct DirectoryInstallation {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string application_id;
  std::string label;  // "" when none
  int64_t created_at = 0;
};

struct DirectoryBuild {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string application_id;
  std::string source_revision;
  std::string artifact_sha256;  // 64 lower-case hex
  int64_t created_at = 0;
};

// One distinct (application, runtime, platform, osFamily) a bug was
// observed on. `runtime` and `os_family` are metadata.capture's `runtime`
// and `osFamily` as sent ("" when the capture named none: the browser SDK
// usually names no runtime); `platform` is the occurrence's platform (web,
// ios, other, ...).
struct ObservedTarget {
  std::string application_id;
  std::string runtime;
  std::string platform;
  std::string os_family;
};

class ApplicationDirectory {
 public:
  ApplicationDirectory() = default;
  ApplicationDirectory(const ApplicationDirectory&) = delete;
  ApplicationDirectory& operator=(const ApplicationDirectory&) = delete;
  virtual ~ApplicationDirectory() = default;

  virtual Result<std::optional<DirectoryApplication>> FindApplication(Tx& tx, const std::string& org_id,
                                                                      const std::string& project_id,
                                                                      const std::string& application_id) = 0;
  // The installation when it belongs to `application_id` in the project.
  virtual Result<std::optional<DirectoryInstallation>> FindInstallation(
      Tx& tx, const std::string& org_id, const std::string& project_id, const std::string& application_id,
      const std::string& installation_id) = 0;
  virtual Result<std::optional<DirectoryBuild>> FindBuild(Tx& tx, const std::string& org_id,
                                                          const std::string& project_id,
                                                          const std::string& build_id) = 0;
  // The build of `application_id` with this artifact digest (lower-case
  // hex; the oldest when several builds share it).
  virtual Result<std::optional<DirectoryBuild>> FindBuildBySha256(Tx& tx, const std::string& org_id,
                                                                  const std::string& project_id,
                                                                  const std::string& application_id,
                                                                  const std::string& artifact_sha256) = 0;
  // The distinct targets the occurrences of `bug_ids` (bugs of `org_id`;
  // others are ignored) were captured on, ordered by application id,
  // runtime, platform, osFamily. At most 1,000 ids are read.
  virtual Result<std::vector<ObservedTarget>> ObservedTargets(Tx& tx, const std::string& org_id,
                                                              const std::vector<std::string>& bug_ids) = 0;
};

}  // namespace service::ports
