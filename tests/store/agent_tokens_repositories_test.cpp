// Contract tests of areas/agent_tokens/ports/agent_token_repository.h on both
// backends: tokens found only in their organization, kConflict on a taken id
// or hash, grants stored and replaced, Update only at the expected revision
// and never on a revoked token, Revoke once, FindForAuth with the creator's
// status and current role (none once they left), TouchLastUsed never
// lowering, CountLive, DeleteForMember, and the cascades (organization,
// creator, project).
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/agent_tokens/ports/agent_token_repository.h"
#include "areas/agent_tokens/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kProject2 = "00000000-0000-7000-8000-000000000003";
constexpr const char* kCreator = "00000000-0000-7000-8000-0000000000aa";
constexpr const char* kOtherUser = "00000000-0000-7000-8000-0000000000bb";

using domain::agent_tokens::Grant;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::AgentTokenRepository> repo = NewSqlAgentTokenRepository();

  Fixture() : StoreFixture({kProject, kProject2}) {
    AddOtherOrganization();
    Write([&](Connection& tx) -> Status {
      for (const char* user : {kCreator, kOtherUser}) {
        SV_RETURN_IF_ERROR(
            tx.Exec("INSERT INTO users (id, email, status, created_at, updated_at) VALUES (?, ?, "
                    "'active', 1, 1)",
                    {user, std::string(user) + "@example.com"})
                .status());
      }
      SV_RETURN_IF_ERROR(
          tx.Exec("INSERT INTO memberships (org_id, user_id, role, created_at, updated_at) VALUES "
                  "(?, ?, 'manager', 1, 1)",
                  {kOrg, kCreator})
              .status());
      return tx
          .Exec(
              "INSERT INTO memberships (org_id, user_id, role, created_at, updated_at) VALUES (?, ?, "
              "'admin', 1, 1)",
              {kOtherOrg, kOtherUser})
          .status();
    });
  }

  ports::AgentToken Token(const std::string& org, int64_t at, std::vector<Grant> grants = {},
                          const std::string& creator = kCreator) {
    ports::AgentToken t;
    t.id = Id();
    t.org_id = org;
    t.created_by = creator;
    t.name = "agent " + t.id.substr(t.id.size() - 3);
    t.prefix = "sv_pat_" + t.id.substr(t.id.size() - 8);
    t.token_hash = "hash-" + t.id;
    t.scopes = {"read_bugs", "claim_issue"};
    t.expires_at = at + 1000;
    t.access_revision = "rev-" + t.id;
    t.created_at = at;
    t.grants = std::move(grants);
    return t;
  }

  ports::AgentToken Insert(ports::AgentToken t) {
    Write([&](Connection& tx) { return repo->Insert(tx, t); });
    return t;
  }

  std::optional<ports::AgentToken> Find(const std::string& org, const std::string& id) {
    std::optional<ports::AgentToken> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->Find(c, org, id));
      return Status::Ok();
    });
    return out;
  }

  std::optional<ports::AgentTokenAuth> ForAuth(const std::string& hash) {
    std::optional<ports::AgentTokenAuth> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->FindForAuth(c, hash));
      return Status::Ok();
    });
    return out;
  }
};

bool SameGrants(const std::vector<Grant>& a, const std::vector<Grant>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].project_id != b[i].project_id || a[i].expires_at != b[i].expires_at) return false;
  }
  return true;
}

TEST_CASE("agent token repository: insert, find in its organization only, list newest first with grants") {
  Fixture f;
  ports::AgentToken a = f.Insert(f.Token(kOrg, 100, {Grant{kProject, std::nullopt}, Grant{kProject2, 150}}));
  ports::AgentToken b = f.Insert(f.Token(kOrg, 200));
  ports::AgentToken other =
      f.Insert(f.Token(kOtherOrg, 300, {Grant{testing::kStoreOtherProject, std::nullopt}}, kOtherUser));

  std::optional<ports::AgentToken> found = f.Find(kOrg, a.id);
  REQUIRE(found);
  CHECK(found->name == a.name);
  CHECK(found->prefix == a.prefix);
  CHECK(found->token_hash == a.token_hash);
  CHECK(found->scopes == a.scopes);
  CHECK(found->expires_at == a.expires_at);
  CHECK(found->access_revision == a.access_revision);
  CHECK(found->created_by == kCreator);
  CHECK_FALSE(found->revoked_at);
  CHECK_FALSE(found->last_used_at);
  CHECK(SameGrants(found->grants, a.grants));
  CHECK_FALSE(f.Find(kOtherOrg, a.id));
  CHECK_FALSE(f.Find(kOrg, other.id));

  std::vector<ports::AgentToken> list;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(list, f.repo->List(c, kOrg));
    return Status::Ok();
  });
  REQUIRE(list.size() == 2);
  CHECK(list[0].id == b.id);
  CHECK(list[1].id == a.id);
  CHECK(list[0].grants.empty());
  CHECK(SameGrants(list[1].grants, a.grants));

  // A taken id or hash: kConflict.
  ports::AgentToken dup_id = f.Token(kOrg, 400);
  dup_id.id = a.id;
  ports::AgentToken dup_hash = f.Token(kOrg, 400);
  dup_hash.token_hash = a.token_hash;
  for (const ports::AgentToken* t : {&dup_id, &dup_hash}) {
    Status st = f.db->Write([&](Connection& tx) { return f.repo->Insert(tx, *t); });
    CHECK(st.code() == Code::kConflict);
  }
}

TEST_CASE("agent token repository: update at the expected revision replaces grants, revoke once") {
  Fixture f;
  ports::AgentToken t = f.Insert(f.Token(kOrg, 100, {Grant{kProject, std::nullopt}}));
  ports::AgentToken edit = t;
  edit.name = "renamed";
  edit.scopes = {"subscribe"};
  edit.expires_at = 5000;
  edit.access_revision = "rev-2";
  edit.grants = {Grant{kProject2, 4000}};
  bool updated = false;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(updated, f.repo->Update(tx, edit, "stale"));
    return Status::Ok();
  });
  CHECK_FALSE(updated);
  CHECK(f.Find(kOrg, t.id)->name == t.name);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(updated, f.repo->Update(tx, edit, t.access_revision));
    return Status::Ok();
  });
  CHECK(updated);
  std::optional<ports::AgentToken> after = f.Find(kOrg, t.id);
  REQUIRE(after);
  CHECK(after->name == "renamed");
  CHECK(after->scopes == std::vector<std::string>{"subscribe"});
  CHECK(after->expires_at == 5000);
  CHECK(after->access_revision == "rev-2");
  CHECK(SameGrants(after->grants, edit.grants));
  // Another organization's id: nothing.
  ports::AgentToken foreign = edit;
  foreign.org_id = kOtherOrg;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(updated, f.repo->Update(tx, foreign, "rev-2"));
    return Status::Ok();
  });
  CHECK_FALSE(updated);

  bool revoked = false;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(revoked, f.repo->Revoke(tx, kOtherOrg, t.id, 700, "rev-x"));
    return Status::Ok();
  });
  CHECK_FALSE(revoked);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(revoked, f.repo->Revoke(tx, kOrg, t.id, 700, "rev-3"));
    return Status::Ok();
  });
  CHECK(revoked);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(revoked, f.repo->Revoke(tx, kOrg, t.id, 800, "rev-4"));
    return Status::Ok();
  });
  CHECK_FALSE(revoked);
  after = f.Find(kOrg, t.id);
  CHECK(after->revoked_at == 700);
  CHECK(after->access_revision == "rev-3");
  // A revoked token is never updated.
  edit.access_revision = "rev-5";
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(updated, f.repo->Update(tx, edit, "rev-3"));
    return Status::Ok();
  });
  CHECK_FALSE(updated);
}

TEST_CASE("agent token repository: FindForAuth, TouchLastUsed, CountLive, DeleteForMember and cascades") {
  Fixture f;
  ports::AgentToken t = f.Insert(f.Token(kOrg, 100, {Grant{kProject, 900}}));
  std::optional<ports::AgentTokenAuth> auth = f.ForAuth(t.token_hash);
  REQUIRE(auth);
  CHECK(auth->token.id == t.id);
  CHECK(auth->creator_email == std::string(kCreator) + "@example.com");
  CHECK(auth->creator_status == "active");
  CHECK(auth->creator_role == std::optional<std::string>("manager"));
  CHECK(SameGrants(auth->token.grants, t.grants));
  CHECK_FALSE(f.ForAuth("hash-unknown"));

  // Never lowered; unknown ids skipped.
  f.Write([&](Connection& tx) {
    return f.repo->TouchLastUsed(tx, {{t.id, 500}, {"00000000-0000-7000-8000-0000000000ff", 600}});
  });
  CHECK(f.Find(kOrg, t.id)->last_used_at == 500);
  f.Write([&](Connection& tx) { return f.repo->TouchLastUsed(tx, {{t.id, 400}}); });
  CHECK(f.Find(kOrg, t.id)->last_used_at == 500);

  // Live: neither revoked nor expired.
  f.Insert(f.Token(kOrg, 2000));  // expires at 3000
  ports::AgentToken revoked = f.Insert(f.Token(kOrg, 2000));
  f.Write([&](Connection& tx) { return f.repo->Revoke(tx, kOrg, revoked.id, 2100, "r").status(); });
  int64_t live = 0;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(live, f.repo->CountLive(c, kOrg, 1050));
    return Status::Ok();
  });
  CHECK(live == 2);  // t (expires at 1100) and the one expiring at 3000; not the revoked one
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(live, f.repo->CountLive(c, kOrg, 1100));
    return Status::Ok();
  });
  CHECK(live == 1);

  // The creator leaves: no role; DeleteForMember takes their tokens of that organization only.
  f.Write([&](Connection& tx) {
    return tx.Exec("DELETE FROM memberships WHERE org_id = ? AND user_id = ?", {kOrg, kCreator}).status();
  });
  auth = f.ForAuth(t.token_hash);
  REQUIRE(auth);
  CHECK_FALSE(auth->creator_role);
  ports::AgentToken others = f.Insert(f.Token(kOtherOrg, 100, {}, kOtherUser));
  f.Write([&](Connection& tx) { return f.repo->DeleteForMember(tx, kOrg, kCreator); });
  CHECK_FALSE(f.Find(kOrg, t.id));
  CHECK(f.Int("SELECT COUNT(*) FROM agent_token_grants WHERE token_id = ?", {t.id}) == 0);
  CHECK(f.Find(kOtherOrg, others.id));

  // Cascades: project (grants), creator (tokens), organization (tokens).
  ports::AgentToken g =
      f.Insert(f.Token(kOtherOrg, 100, {Grant{testing::kStoreOtherProject, std::nullopt}}, kOtherUser));
  f.Write([&](Connection& tx) {
    return tx.Exec("DELETE FROM projects WHERE id = ?", {std::string(testing::kStoreOtherProject)}).status();
  });
  CHECK(f.Find(kOtherOrg, g.id)->grants.empty());
  f.Write([&](Connection& tx) {
    return tx.Exec("DELETE FROM users WHERE id = ?", {std::string(kOtherUser)}).status();
  });
  CHECK_FALSE(f.Find(kOtherOrg, g.id));
  f.Insert(f.Token(kOrg, 100, {Grant{kProject, std::nullopt}}));
  f.Write([&](Connection& tx) {
    return tx.Exec("DELETE FROM organizations WHERE id = ?", {std::string(kOrg)}).status();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM agent_tokens WHERE org_id = ?", {std::string(kOrg)}) == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM agent_token_grants") == 0);
}

}  // namespace
}  // namespace service::store
