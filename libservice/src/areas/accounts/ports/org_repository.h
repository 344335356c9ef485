// OrgRepository and MembershipRepository: organizations and who belongs to
// them with which role (Spec 1 "User and membership", "Team").
//
// Every membership read and write names its organization: a member of
// another organization reads as absent. Methods taking `tx` run inside the
// caller's Database::Write (REQUIRES).
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status (kConflict for a taken slug or an existing membership).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct Organization {
  std::string id;
  std::string name;
  std::string slug;
  std::string plan = "free";
  int64_t created_at = 0;
};

class OrgRepository {
 public:
  OrgRepository() = default;
  OrgRepository(const OrgRepository&) = delete;
  OrgRepository& operator=(const OrgRepository&) = delete;
  virtual ~OrgRepository() = default;

  // A taken slug: kConflict.
  virtual Status Insert(Tx& tx, const Organization& org) = 0;
  virtual Result<std::optional<Organization>> Find(Tx& c, const std::string& id) = 0;
  virtual Result<bool> SlugTaken(Tx& c, const std::string& slug) = 0;
  // How many organizations exist in the whole service.
  virtual Result<int64_t> CountAll(Tx& c) = 0;
  // Sets the plan (the superadmin's PATCH /v1/admin/customers/:orgId is the
  // one way plans change). Returns false when no such organization exists.
  virtual Result<bool> SetPlan(Tx& tx, const std::string& id, const std::string& plan, int64_t now_ms) = 0;
  // Deletes the organization and everything that hangs off it through a
  // cascading foreign key (projects, keys, bugs and their rows,
  // memberships). Rows of other areas that carry org_id without one are
  // their deletion hooks' (app/deletion_hooks.h): run those first.
  virtual Status Delete(Tx& tx, const std::string& id) = 0;
};

struct Membership {
  std::string org_id;
  std::string user_id;
  std::string role;
  std::optional<std::string> invited_by;
  int64_t created_at = 0;
};

// One organization of a user, for login, /me and switch-org.
struct UserOrg {
  std::string org_id;
  std::string org_name;
  std::string org_slug;
  std::string plan;
  std::string role;
  int64_t joined_at = 0;
};

// One row of GET /v1/team.
struct TeamMember {
  std::string user_id;
  std::string email;
  std::string name;
  std::optional<std::string> avatar_url;
  std::string role;
  std::string status;  // the account's: pending, active, deactivated
  int64_t joined_at = 0;
  std::optional<int64_t> last_login_at;
  std::optional<int64_t> invitation_expires_at;  // newest open invitation
};

class MembershipRepository {
 public:
  MembershipRepository() = default;
  MembershipRepository(const MembershipRepository&) = delete;
  MembershipRepository& operator=(const MembershipRepository&) = delete;
  virtual ~MembershipRepository() = default;

  // An existing membership: kConflict.
  virtual Status Insert(Tx& tx, const Membership& m) = 0;
  virtual Result<std::optional<Membership>> Find(Tx& c, const std::string& org_id,
                                                 const std::string& user_id) = 0;
  // The membership, locked until the transaction ends (it is touched, which
  // on PostgreSQL takes the row lock; SQLite has one writer). Absent: nullopt.
  virtual Result<std::optional<Membership>> Lock(Tx& tx, const std::string& org_id,
                                                 const std::string& user_id, int64_t now_ms) = 0;
  // The user's organizations, oldest membership first.
  virtual Result<std::vector<UserOrg>> ListForUser(Tx& c, const std::string& user_id) = 0;
  // Members of the organization, oldest first.
  virtual Result<std::vector<TeamMember>> ListTeam(Tx& c, const std::string& org_id) = 0;
  virtual Result<int64_t> Count(Tx& c, const std::string& org_id) = 0;
  virtual Result<int64_t> CountWithRole(Tx& c, const std::string& org_id, const std::string& role) = 0;
  // Returns false when no such membership exists.
  virtual Result<bool> UpdateRole(Tx& tx, const std::string& org_id, const std::string& user_id,
                                  const std::string& role, int64_t now_ms) = 0;
  // Removes the membership and revokes the member's open invitations to
  // this organization. Other areas' rows of the member are their deletion
  // hooks'. Returns false when no such membership exists.
  virtual Result<bool> Remove(Tx& tx, const std::string& org_id, const std::string& user_id,
                              int64_t now_ms) = 0;
};

}  // namespace service::ports
