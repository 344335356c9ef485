#include "areas/projects/app/projects.h"

#include "areas/projects/domain/dsn.h"

#include "areas/operations/domain/plans.h"
#include "areas/projects/domain/capture_key.h"
#include "domain/roles.h"

namespace service::app::projects {
namespace {

// Slugs tried with a numeric suffix before a random one is used.
constexpr int kSlugAttempts = 50;

Status Require(const ConsoleActor& actor, domain::Capability capability) {
  const std::optional<domain::Role> role = domain::ParseRole(actor.role);
  if (!role || !domain::Can(*role, capability)) return PermissionDenied("Insufficient permissions");
  return Status::Ok();
}

Status ProjectNotFound() { return NotFound("Project not found"); }

// The project, or 404, inside an open transaction or read.
Status RequireProject(const ProjectsDeps& deps, ports::Tx& c, const ConsoleActor& actor,
                      const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(c, actor.org_id, project_id));
  if (!p) return ProjectNotFound();
  return Status::Ok();
}

}  // namespace

std::string Slugify(std::string_view name) {
  std::string out;
  for (unsigned char c : name) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      out.push_back(static_cast<char>(c));
    } else if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if (!out.empty() && out.back() != '-') {
      out.push_back('-');
    }
    if (out.size() >= 60) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? std::string("project") : out;
}

Result<std::vector<ports::Project>> ListProjects(const ProjectsDeps& deps, const ConsoleActor& actor) {
  SV_RETURN_IF_ERROR(Require(actor, domain::Capability::kViewProjects));
  std::vector<ports::Project> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.projects->List(c, actor.org_id));
    return Status::Ok();
  }));
  return out;
}

Result<ports::Project> CreateProject(const ProjectsDeps& deps, const ConsoleActor& actor,
                                     const NewProject& in) {
  SV_RETURN_IF_ERROR(Require(actor, domain::Capability::kCreateProjects));
  if (in.org_id != actor.org_id) return PermissionDenied("Organization mismatch");
  ports::Project p;
  p.id = deps.ids->NewId();
  p.org_id = actor.org_id;
  p.name = in.name;
  p.platform = in.platform;
  p.created_at = deps.Now();
  const std::string base = Slugify(in.name);
  const std::string fallback_suffix = deps.ids->RandomAlnum(6);
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::string plan, deps.usage->PlanOf(tx, actor.org_id));
    const domain::operations::PlanLimits limits = domain::operations::LimitsFor(plan, deps.plan_limits);
    SV_ASSIGN_OR_RETURN(int64_t count, deps.projects->Count(tx, actor.org_id));
    if (!domain::operations::WithinLimit(limits.projects, count)) {
      return Status(Code::kPaymentRequired, "Plan limit reached", "",
                    domain::operations::PlanLimitPayload(limits.projects, count, plan, deps.public_url));
    }
    p.slug.clear();
    for (int i = 1; i <= kSlugAttempts && p.slug.empty(); ++i) {
      std::string candidate = i == 1 ? base : base + "-" + std::to_string(i);
      SV_ASSIGN_OR_RETURN(bool taken, deps.projects->SlugTaken(tx, actor.org_id, candidate));
      if (!taken) p.slug = std::move(candidate);
    }
    if (p.slug.empty()) {
      std::string lower = fallback_suffix;
      for (char& ch : lower) {
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      }
      p.slug = base + "-" + lower;
    }
    return deps.projects->Insert(tx, p);
  }));
  return p;
}

namespace {

// A new key's record and its full text (hashed in the record).
CreatedKey NewKeyRecord(const ProjectsDeps& deps, const std::string& org_id, const std::string& project_id,
                        const NewKey& in, const std::string& creator_id, int64_t now) {
  CreatedKey out;
  const std::string random = deps.ids->RandomAlnum(domain::projects::kCaptureKeyRandomLength);
  out.full_key = domain::projects::FormatCaptureKey(in.env, random);
  ports::CaptureKey& k = out.record;
  k.id = deps.ids->NewId();
  k.org_id = org_id;
  k.project_id = project_id;
  k.env = in.env;
  k.prefix = random.substr(0, domain::projects::kCaptureKeyPrefixLength);
  k.key_hash = domain::projects::HashCaptureKey(out.full_key);
  k.label = in.label;
  k.expires_at = in.expires_at;
  k.created_by = creator_id;
  k.created_at = now;
  return out;
}

}  // namespace

Result<DefaultProject> CreateDefaultProject(const ProjectsDeps& deps, ports::Tx& tx,
                                            const std::string& org_id, const std::string& creator_id,
                                            int64_t now) {
  DefaultProject out;
  ports::Project& project = out.project;
  project.id = deps.ids->NewId();
  project.org_id = org_id;
  project.name = "Default";
  project.slug = "default";
  project.platform = "web";
  project.created_at = now;
  SV_RETURN_IF_ERROR(deps.projects->Insert(tx, project));
  NewKey live;
  live.label = "Default";
  out.key = NewKeyRecord(deps, org_id, project.id, live, creator_id, now);
  SV_RETURN_IF_ERROR(deps.capture_keys->Insert(tx, out.key.record));
  out.key.dsn = domain::projects::BuildDsn(deps.public_url, out.key.full_key, project.project_number);
  return out;
}

Result<CreatedKey> CreateKey(const ProjectsDeps& deps, const ConsoleActor& actor,
                             const std::string& project_id, const NewKey& in) {
  SV_RETURN_IF_ERROR(Require(actor, domain::Capability::kManageKeys));
  const int64_t now = deps.Now();
  if (in.expires_at && *in.expires_at <= now) return InvalidArgument("expiresAt must be in the future");
  CreatedKey out = NewKeyRecord(deps, actor.org_id, project_id, in, actor.user_id, now);
  const ports::CaptureKey& k = out.record;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(tx, actor.org_id, project_id));
    if (!p) return ProjectNotFound();
    out.dsn = domain::projects::BuildDsn(deps.public_url, out.full_key, p->project_number);
    return deps.capture_keys->Insert(tx, k);
  }));
  return out;
}

Result<std::vector<ports::CaptureKey>> ListKeys(const ProjectsDeps& deps, const ConsoleActor& actor,
                                                const std::string& project_id) {
  SV_RETURN_IF_ERROR(Require(actor, domain::Capability::kViewProjects));
  std::vector<ports::CaptureKey> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, c, actor, project_id));
    SV_ASSIGN_OR_RETURN(out, deps.capture_keys->ListActive(c, actor.org_id, project_id));
    return Status::Ok();
  }));
  return out;
}

Status RevokeKey(const ProjectsDeps& deps, const ConsoleActor& actor, const std::string& project_id,
                 const std::string& key_id) {
  SV_RETURN_IF_ERROR(Require(actor, domain::Capability::kManageKeys));
  const int64_t now = deps.Now();
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor, project_id));
    SV_ASSIGN_OR_RETURN(bool revoked, deps.capture_keys->Revoke(tx, actor.org_id, project_id, key_id, now));
    if (!revoked) return NotFound("Key not found");
    return Status::Ok();
  }));
  if (deps.keys_changed) deps.keys_changed();
  return Status::Ok();
}

}  // namespace service::app::projects
