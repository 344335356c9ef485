// Projects and capture keys (Spec 1 "Projects and capture keys", "Capture
// keys" under Authentication; issue 4 items 1-2).
//
// Role checks use domain/auth/roles.h: listing needs kViewProjects, creating
// a project kCreateProjects, creating and revoking keys kManageKeys. Every
// read and write is scoped to the actor's organization: another
// organization's project reads as 404 "Project not found".
//
// Capture keys: "sv_live_" / "sv_test_" + 32 characters from the CSPRNG
// (Ids::RandomAlnum); the full key is returned once by CreateKey and stored
// only as its SHA-256; it is identified by its 8-character prefix. A project
// may have several active keys; revoking is a soft delete that takes effect
// at once in this process (the verified-key cache is cleared) and within
// capture::kKeyCacheTtlMs in others.
//
// Thread-safety: safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <functional>
#include "app/actor.h"

#include "areas/operations/ports/usage_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/options.h"
#include "service/status.h"

namespace service::app::projects {

// What the projects area needs.
struct ProjectsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::ProjectRepository* projects = nullptr;
  ports::CaptureKeyRepository* capture_keys = nullptr;
  ports::UsageRepository* usage = nullptr;  // the organization's plan
  // Called after a key was created or revoked in this process (the capture
  // area drops its cache of verified keys). May be empty.
  std::function<void()> keys_changed;
  std::string public_url;  // upgrade links in plan-limit errors
  PlanLimitOverrides plan_limits;

  int64_t Now() const { return clock->NowMillis(); }
};

// GET /v1/projects: the organization's projects with bug_count and
// new_bug_count (live namespace), oldest first.
Result<std::vector<ports::Project>> ListProjects(const ProjectsDeps& deps, const ConsoleActor& actor);

// POST /v1/projects. `org_id` is the body's orgId: 403 "Organization
// mismatch" unless it is the actor's. 402 plan-limit envelope at the plan's
// project limit. The slug comes from the name, made unique in the
// organization with a numeric suffix.
struct NewProject {
  std::string name;
  std::string org_id;
  std::string platform = "web";
};
Result<ports::Project> CreateProject(const ProjectsDeps& deps, const ConsoleActor& actor,
                                     const NewProject& in);

// "My App!" -> "my-app"; empty names give "project".
std::string Slugify(std::string_view name);

// POST /v1/projects/:id/keys.
struct NewKey {
  std::string env = "live";  // live or test
  std::string label;
  std::optional<int64_t> expires_at;  // must lie in the future
};
struct CreatedKey {
  ports::CaptureKey record;
  std::string full_key;  // shown once
  std::string dsn;       // the key as a Sentry SDK's DSN, shown once
};
Result<CreatedKey> CreateKey(const ProjectsDeps& deps, const ConsoleActor& actor,
                             const std::string& project_id, const NewKey& in);

// The project a new organization starts with ("Default", web) and its
// first live key, created by `creator_id`, inside the caller's transaction
// (signup's: the accounts area calls it through AccountsDeps).
struct DefaultProject {
  ports::Project project;
  CreatedKey key;
};
Result<DefaultProject> CreateDefaultProject(const ProjectsDeps& deps, ports::Tx& tx,
                                            const std::string& org_id, const std::string& creator_id,
                                            int64_t now);

// GET /v1/projects/:id/keys: active keys, newest first.
Result<std::vector<ports::CaptureKey>> ListKeys(const ProjectsDeps& deps, const ConsoleActor& actor,
                                                const std::string& project_id);

// DELETE /v1/projects/:id/keys/:keyId. 404 "Key not found" when no active
// key of the project has that id.
Status RevokeKey(const ProjectsDeps& deps, const ConsoleActor& actor, const std::string& project_id,
                 const std::string& key_id);

}  // namespace service::app::projects
