// ProjectRepository and CaptureKeyRepository: projects of an organization and
// their capture keys.
//
// Every read and write is scoped by organization id: a project or key of
// another organization reads as absent. Methods taking `tx` run inside the
// caller's Database::Write (REQUIRES), so they compose with other writes in
// one transaction (registration creates org, user, project and key at once).
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct Project {
  std::string id;
  std::string org_id;
  std::string name;
  std::string slug;
  std::string platform;
  int64_t created_at = 0;
  int64_t bug_count = 0;      // filled by List
  int64_t new_bug_count = 0;  // filled by List
  // Shadow grouping v3 evidence at ingest (domain/triage/grouping_v3.h);
  // default false, not settable through the API.
  bool grouping_v3_shadow = false;
  // Positive, unique in the service, stable: the DSN's project segment
  // (Sentry SDKs). Assigned by Insert.
  int64_t project_number = 0;
};

class ProjectRepository {
 public:
  ProjectRepository() = default;
  ProjectRepository(const ProjectRepository&) = delete;
  ProjectRepository& operator=(const ProjectRepository&) = delete;
  virtual ~ProjectRepository() = default;

  // Inserts a project. A slug already used in the organization: kConflict.
  // Assigns project.project_number (the next number of the service).
  virtual Status Insert(Tx& tx, Project& project) = 0;
  // Projects of `org_id` with bug_count and new_bug_count (live namespace),
  // oldest first.
  virtual Result<std::vector<Project>> List(Tx& c, const std::string& org_id) = 0;
  virtual Result<std::optional<Project>> Find(Tx& c, const std::string& org_id,
                                              const std::string& project_id) = 0;
  virtual Result<int64_t> Count(Tx& c, const std::string& org_id) = 0;
  // True when `slug` is taken in `org_id`.
  virtual Result<bool> SlugTaken(Tx& c, const std::string& org_id, const std::string& slug) = 0;
  // Switches the project's shadow grouping (grouping v3 evidence and
  // duplicate candidates; no route offers it). False when `org_id` has no
  // such project.
  virtual Result<bool> SetShadowGrouping(Tx& tx, const std::string& org_id, const std::string& project_id,
                                         bool enabled) = 0;
};

struct CaptureKey {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string env;  // "live" or "test"
  std::string prefix;
  std::string key_hash;
  std::string label;
  std::optional<int64_t> expires_at;
  std::optional<int64_t> last_used;
  std::optional<int64_t> revoked_at;
  std::string created_by;
  int64_t created_at = 0;
};

// A key as the ingest authenticator needs it: the key with its
// organization's plan and its project's name (one read on a cache miss).
struct IngestKeyRecord {
  CaptureKey key;
  std::string plan;
  std::string project_name;
  bool grouping_v3_shadow = false;  // the project's
  int64_t project_number = 0;       // the project's
};

class CaptureKeyRepository {
 public:
  CaptureKeyRepository() = default;
  CaptureKeyRepository(const CaptureKeyRepository&) = delete;
  CaptureKeyRepository& operator=(const CaptureKeyRepository&) = delete;
  virtual ~CaptureKeyRepository() = default;

  virtual Status Insert(Tx& tx, const CaptureKey& key) = 0;
  // The key with this hash, revoked or not (the caller decides).
  virtual Result<std::optional<CaptureKey>> FindByHash(Tx& c, const std::string& key_hash) = 0;
  // The key with this hash (revoked or not) with its plan and project name.
  virtual Result<std::optional<IngestKeyRecord>> FindForIngest(Tx& c, const std::string& key_hash) = 0;
  // The key by id within the organization and project, revoked or not.
  virtual Result<std::optional<CaptureKey>> Find(Tx& c, const std::string& org_id,
                                                 const std::string& project_id,
                                                 const std::string& key_id) = 0;
  // Keys of a project in the organization, newest first, revoked ones excluded.
  virtual Result<std::vector<CaptureKey>> ListActive(Tx& c, const std::string& org_id,
                                                     const std::string& project_id) = 0;
  // Soft delete. Returns false when no active key matched.
  virtual Result<bool> Revoke(Tx& tx, const std::string& org_id, const std::string& project_id,
                              const std::string& key_id, int64_t now_ms) = 0;
  // Records last use for many keys at once (batched, not per request).
  // Clears `user_id` as the creator of keys (before the account is deleted).
  virtual Status ForgetCreator(Tx& tx, const std::string& user_id) = 0;
  virtual Status TouchLastUsed(Tx& tx, const std::vector<std::pair<std::string, int64_t>>& uses) = 0;
};

}  // namespace service::ports
