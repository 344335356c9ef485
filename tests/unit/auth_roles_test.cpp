// Roles and the capability table: every role x capability, spelled out
// independently of the table in roles.cpp.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "domain/roles.h"

namespace sd = service::domain;
using sd::Capability;
using sd::Role;

TEST_CASE("roles: parse and format") {
  for (Role r : sd::kAllRoles) CHECK(sd::ParseRole(sd::RoleName(r)) == r);
  CHECK(sd::ParseRole("admin") == Role::kAdmin);
  CHECK(sd::ParseRole("viewer") == Role::kViewer);
  CHECK(sd::ParseRole("tester") == Role::kTester);
  CHECK_FALSE(sd::ParseRole("Admin").has_value());
  CHECK_FALSE(sd::ParseRole("owner").has_value());
  CHECK_FALSE(sd::ParseRole("").has_value());
  CHECK_FALSE(sd::ParseRole(" admin").has_value());
}

TEST_CASE("roles: every role x capability") {
  // Columns: admin, manager, member, tester, viewer.
  struct Row {
    Capability capability;
    bool allowed[5];
  };
  // clang-format off
  const std::vector<Row> expected = {
      {Capability::kViewBugs,           {true,  true,  true,  true,  true}},
      {Capability::kUpdateBugs,         {true,  true,  true,  true,  false}},
      {Capability::kComment,            {true,  true,  true,  true,  false}},
      {Capability::kAnalyzeBugs,        {true,  true,  true,  true,  false}},
      {Capability::kDeleteBugs,         {true,  true,  false, false, false}},
      {Capability::kMergeBugs,          {true,  true,  false, false, false}},
      {Capability::kNotifyAgent,        {true,  true,  true,  false, false}},
      {Capability::kViewProjects,       {true,  true,  true,  true,  true}},
      {Capability::kCreateProjects,     {true,  true,  true,  false, false}},
      {Capability::kManageProjects,     {true,  true,  false, false, false}},
      {Capability::kManageKeys,         {true,  true,  true,  false, false}},
      {Capability::kViewTeam,           {true,  true,  true,  true,  true}},
      {Capability::kInviteMembers,      {true,  true,  false, false, false}},
      {Capability::kManageTeam,         {true,  true,  false, false, false}},
      {Capability::kManageAgentTokens,  {true,  true,  false, false, false}},
      {Capability::kManageApplications, {true,  true,  false, false, false}},
      {Capability::kManageIntegrations, {true,  false, false, false, false}},
      {Capability::kManageSettings,     {true,  false, false, false, false}},
      {Capability::kViewBilling,        {true,  false, false, false, false}},
      {Capability::kManageBilling,      {true,  false, false, false, false}},
  };
  // clang-format on
  REQUIRE(expected.size() == static_cast<size_t>(sd::kCapabilityCount));
  for (const Row& row : expected) {
    for (int i = 0; i < 5; ++i) {
      const Role role = sd::kAllRoles[i];
      CAPTURE(sd::RoleName(role));
      CAPTURE(sd::CapabilityName(row.capability));
      CHECK(sd::Can(role, row.capability) == row.allowed[i]);
    }
  }
}

TEST_CASE("roles: shape of the table") {
  for (int c = 0; c < sd::kCapabilityCount; ++c) {
    const auto cap = static_cast<Capability>(c);
    CAPTURE(sd::CapabilityName(cap));
    CHECK(sd::Can(Role::kAdmin, cap));  // admin: full access
    // Anything a viewer may do, everyone may do.
    if (sd::Can(Role::kViewer, cap)) {
      for (Role r : sd::kAllRoles) CHECK(sd::Can(r, cap));
    }
    CHECK(sd::CapabilityName(cap) != "unknown");
  }
  CHECK_FALSE(sd::Can(Role::kAdmin, Capability::kCount));
  CHECK(sd::CapabilityName(Capability::kCount) == "unknown");
}

TEST_CASE("roles: role changes") {
  using service::Code;
  // Admins change anyone's role, including granting admin.
  CHECK(sd::CheckRoleChange(Role::kAdmin, false, Role::kMember, Role::kAdmin).ok());
  CHECK(sd::CheckRoleChange(Role::kAdmin, false, Role::kAdmin, Role::kViewer).ok());
  // Managers change non-admins among non-admin roles.
  CHECK(sd::CheckRoleChange(Role::kManager, false, Role::kMember, Role::kViewer).ok());
  CHECK(sd::CheckRoleChange(Role::kManager, false, Role::kViewer, Role::kManager).ok());
  CHECK(sd::CheckRoleChange(Role::kManager, false, Role::kMember, Role::kAdmin).code() ==
        Code::kPermissionDenied);
  CHECK(sd::CheckRoleChange(Role::kManager, false, Role::kAdmin, Role::kMember).code() ==
        Code::kPermissionDenied);
  CHECK(sd::CheckRoleChange(Role::kManager, true, Role::kManager, Role::kAdmin).code() ==
        Code::kPermissionDenied);
  // Nobody downgrades themselves to viewer.
  const service::Status self = sd::CheckRoleChange(Role::kAdmin, true, Role::kAdmin, Role::kViewer);
  CHECK(self.code() == Code::kInvalidArgument);
  CHECK(self.message() == "Cannot downgrade yourself to viewer");
  CHECK(sd::CheckRoleChange(Role::kManager, true, Role::kManager, Role::kViewer).code() ==
        Code::kInvalidArgument);
  CHECK(sd::CheckRoleChange(Role::kAdmin, true, Role::kAdmin, Role::kMember).ok());
  // Members, testers and viewers change no roles.
  for (Role r : {Role::kMember, Role::kTester, Role::kViewer}) {
    CHECK(sd::CheckRoleChange(r, false, Role::kViewer, Role::kMember).code() == Code::kPermissionDenied);
  }
}

TEST_CASE("roles: removals and invitations") {
  using service::Code;
  CHECK(sd::CheckMemberRemoval(Role::kAdmin, false, Role::kAdmin).ok());
  CHECK(sd::CheckMemberRemoval(Role::kManager, false, Role::kMember).ok());
  CHECK(sd::CheckMemberRemoval(Role::kManager, false, Role::kAdmin).code() == Code::kPermissionDenied);
  CHECK(sd::CheckMemberRemoval(Role::kMember, false, Role::kViewer).code() == Code::kPermissionDenied);
  const service::Status self = sd::CheckMemberRemoval(Role::kAdmin, true, Role::kAdmin);
  CHECK(self.code() == Code::kInvalidArgument);
  CHECK(self.message() == "Cannot remove yourself");

  CHECK(sd::CheckInvite(Role::kAdmin, Role::kAdmin).ok());
  CHECK(sd::CheckInvite(Role::kManager, Role::kMember).ok());
  CHECK(sd::CheckInvite(Role::kManager, Role::kAdmin).code() == Code::kPermissionDenied);
  for (Role r : {Role::kMember, Role::kTester, Role::kViewer}) {
    CHECK(sd::CheckInvite(r, Role::kViewer).code() == Code::kPermissionDenied);
  }
}
