// Contract tests of the account repositories on both backends, through
// their interfaces (ports/user_repository.h, org_repository.h,
// session_repository.h, email_token_repository.h, invitation_repository.h,
// waitlist_repository.h): what each header promises of return values,
// kConflict on duplicates, absent rows, single use of tokens, ordering and
// organization scoping.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/email_token_repository.h"
#include "areas/accounts/ports/invitation_repository.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/session_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/accounts/ports/waitlist_repository.h"
#include "areas/accounts/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::UserRepository> users = NewSqlUserRepository();
  std::unique_ptr<ports::OrgRepository> orgs = NewSqlOrgRepository();
  std::unique_ptr<ports::MembershipRepository> members = NewSqlMembershipRepository();
  std::unique_ptr<ports::SessionRepository> sessions = NewSqlSessionRepository();
  std::unique_ptr<ports::EmailTokenRepository> email_tokens = NewSqlEmailTokenRepository();
  std::unique_ptr<ports::InvitationRepository> invitations = NewSqlInvitationRepository();
  std::unique_ptr<ports::WaitlistRepository> waitlist = NewSqlWaitlistRepository();

  Fixture() : StoreFixture({}) {
    Write([&](Connection& tx) {
      return orgs->Insert(tx, ports::Organization{kOtherOrg, "Other", "other", "free", 5});
    });
  }

  // Runs `fn` on a read snapshot; fails the test unless it succeeds.

  // A pending account with `email`.
  std::string User(const std::string& email, int64_t at = 10) {
    ports::User u;
    u.id = Id();
    u.email = email;
    u.name = "Name of " + email;
    u.status = "pending";
    u.created_at = at;
    u.updated_at = at;
    Write([&](Connection& tx) { return users->Insert(tx, u); });
    return u.id;
  }

  void Member(const std::string& org, const std::string& user, const std::string& role, int64_t at) {
    Write([&](Connection& tx) {
      return members->Insert(tx, ports::Membership{org, user, role, std::nullopt, at});
    });
  }
};

}  // namespace

TEST_CASE(
    "account store: users are found by id and email, a taken email is kConflict, passwords, sign-ins and "
    "deletion") {
  Fixture f;
  {  // users are found by id and normalised email, a taken email is kConflict
    ports::User u;
    u.id = f.Id();
    u.email = "ada@example.com";
    u.name = "Ada";
    u.avatar_url = "https://example.com/a.png";
    u.password_hash = "hash-1";
    u.email_verified = true;
    u.status = "active";
    u.session_revision = 3;
    u.created_at = 100;
    u.updated_at = 200;
    f.Write([&](Connection& tx) { return f.users->Insert(tx, u); });

    ports::User taken = u;
    taken.id = f.Id();
    CHECK(f.db->Write([&](Connection& tx) { return f.users->Insert(tx, taken); }).code() == Code::kConflict);

    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto by_id, f.users->FindById(c, u.id));
      REQUIRE(by_id);
      CHECK(by_id->email == "ada@example.com");
      CHECK(by_id->name == "Ada");
      CHECK(by_id->avatar_url == u.avatar_url);
      CHECK(by_id->password_hash == u.password_hash);
      CHECK(by_id->email_verified);
      CHECK(by_id->status == "active");
      CHECK(by_id->session_revision == 3);
      CHECK_FALSE(by_id->last_org_id);
      CHECK_FALSE(by_id->last_login_at);
      CHECK_FALSE(by_id->first_session_id);
      CHECK(by_id->created_at == 100);
      CHECK(by_id->updated_at == 200);
      SV_ASSIGN_OR_RETURN(auto by_email, f.users->FindByEmail(c, "ada@example.com"));
      REQUIRE(by_email);
      CHECK(by_email->id == u.id);
      SV_ASSIGN_OR_RETURN(auto missing_id, f.users->FindById(c, f.Id()));
      CHECK_FALSE(missing_id);
      SV_ASSIGN_OR_RETURN(auto missing_email, f.users->FindByEmail(c, "nobody@example.com"));
      CHECK_FALSE(missing_email);
      return Status::Ok();
    });
  }
  {  // a password activates the account and retires earlier tokens
    const std::string id = f.User("grace@example.com");
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(bool set, f.users->SetPassword(tx, id, "hash-a", false, 50));
      CHECK(set);
      SV_ASSIGN_OR_RETURN(bool missing, f.users->SetPassword(tx, f.Id(), "hash-b", true, 50));
      CHECK_FALSE(missing);
      return Status::Ok();
    });
    ports::User after_first;
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(c, id));
      REQUIRE(u);
      after_first = *u;
      return Status::Ok();
    });
    CHECK(after_first.status == "active");
    CHECK(after_first.password_hash == std::optional<std::string>("hash-a"));
    CHECK_FALSE(after_first.email_verified);
    CHECK(after_first.session_revision > 0);
    CHECK(after_first.updated_at == 50);

    f.Write([&](Connection& tx) { return f.users->SetPassword(tx, id, "hash-c", true, 60).status(); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(c, id));
      REQUIRE(u);
      CHECK(u->email_verified);
      CHECK(u->password_hash == std::optional<std::string>("hash-c"));
      CHECK(u->session_revision > after_first.session_revision);
      return Status::Ok();
    });

    // MarkEmailVerified on its own; profile-like writes leave the revision.
    const std::string other = f.User("linus@example.com");
    f.Write([&](Connection& tx) { return f.users->MarkEmailVerified(tx, other, 70); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(c, other));
      REQUIRE(u);
      CHECK(u->email_verified);
      CHECK(u->status == "pending");
      CHECK(u->session_revision == 0);
      return Status::Ok();
    });
  }
  {  // sign-ins shift the last login, keep the first session and the last organization
    const std::string id = f.User("ken@example.com");
    f.Write([&](Connection& tx) { return f.users->RecordLogin(tx, id, kOrg, "sid-1", 1000); });
    f.Write([&](Connection& tx) { return f.users->RecordLogin(tx, id, kOtherOrg, "sid-2", 2000); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(c, id));
      REQUIRE(u);
      CHECK(u->last_login_at == std::optional<int64_t>(2000));
      CHECK(u->previous_login_at == std::optional<int64_t>(1000));
      CHECK(u->first_session_id == std::optional<std::string>("sid-1"));
      CHECK(u->last_org_id == std::optional<std::string>(kOtherOrg));
      return Status::Ok();
    });

    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(f.users->SetLastOrg(tx, id, kOrg, 3000));
      return f.users->SetLastWhatsNew(tx, id, 3500);
    });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(c, id));
      REQUIRE(u);
      CHECK(u->last_org_id == std::optional<std::string>(kOrg));
      CHECK(u->last_whats_new_at == std::optional<int64_t>(3500));
      CHECK(u->session_revision == 0);  // neither is a status, email or password change
      return Status::Ok();
    });

    // ForgetLastOrg clears only the organization it names.
    f.Write([&](Connection& tx) { return f.users->ForgetLastOrg(tx, kOtherOrg); });
    CHECK(f.Text("SELECT last_org_id FROM users WHERE id = ?", {id}) == kOrg);
    f.Write([&](Connection& tx) { return f.users->ForgetLastOrg(tx, kOrg); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(c, id));
      REQUIRE(u);
      CHECK_FALSE(u->last_org_id);
      return Status::Ok();
    });
  }
  {  // deleting a user takes its memberships, sessions, emailed tokens and invitations
    const std::string id = f.User("gone@example.com");
    const std::string stays = f.User("stays@example.com");
    f.Member(kOrg, id, "member", 10);
    f.Member(kOrg, stays, "owner", 5);
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(
          f.sessions->Insert(tx, ports::RefreshToken{f.Id(), id, kOrg, "rt-gone", 0, 9000, 1}));
      SV_RETURN_IF_ERROR(f.email_tokens->Insert(
          tx, ports::EmailToken{f.Id(), id, std::string(ports::kVerifyEmailToken), "et-gone", 9000, 1}));
      ports::Invitation inv;
      inv.id = f.Id();
      inv.org_id = kOrg;
      inv.user_id = id;
      inv.email = "gone@example.com";
      inv.role = "member";
      inv.token_hash = "inv-gone";
      inv.expires_at = 9000;
      inv.created_at = 1;
      return f.invitations->Insert(tx, inv);
    });
    f.Write([&](Connection& tx) { return f.users->Delete(tx, id); });
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(tx, id));
      CHECK_FALSE(u);
      SV_ASSIGN_OR_RETURN(auto m, f.members->Find(tx, kOrg, id));
      CHECK_FALSE(m);
      SV_ASSIGN_OR_RETURN(auto rt, f.sessions->Consume(tx, "rt-gone", 100));
      CHECK_FALSE(rt);
      SV_ASSIGN_OR_RETURN(auto et, f.email_tokens->Consume(tx, ports::kVerifyEmailToken, "et-gone", 100));
      CHECK_FALSE(et);
      SV_ASSIGN_OR_RETURN(auto inv, f.invitations->FindOpen(tx, "inv-gone", 100));
      CHECK_FALSE(inv);
      SV_ASSIGN_OR_RETURN(int64_t left, f.members->Count(tx, kOrg));
      CHECK(left == 1);
      return Status::Ok();
    });
  }
}

TEST_CASE("account store: organizations, a taken slug is kConflict, deletion cascades") {
  Fixture f;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto org, f.orgs->Find(c, kOtherOrg));
    REQUIRE(org);
    CHECK(org->name == "Other");
    CHECK(org->slug == "other");
    CHECK(org->plan == "free");
    CHECK(org->created_at == 5);
    SV_ASSIGN_OR_RETURN(auto missing, f.orgs->Find(c, f.Id()));
    CHECK_FALSE(missing);
    SV_ASSIGN_OR_RETURN(bool taken, f.orgs->SlugTaken(c, "other"));
    CHECK(taken);
    SV_ASSIGN_OR_RETURN(bool free_slug, f.orgs->SlugTaken(c, "nobody"));
    CHECK_FALSE(free_slug);
    SV_ASSIGN_OR_RETURN(int64_t n, f.orgs->CountAll(c));
    CHECK(n == 2);
    return Status::Ok();
  });
  CHECK(f.db->Write([&](Connection& tx) {
              return f.orgs->Insert(tx, ports::Organization{f.Id(), "Again", "other", "free", 6});
            })
            .code() == Code::kConflict);

  const std::string user = f.User("member@example.com");
  f.Member(kOtherOrg, user, "owner", 7);
  f.Write([&](Connection& tx) -> Status {
    return tx
        .Exec("INSERT INTO projects (id, org_id, name, slug, created_at) VALUES (?, ?, 'P', 'p', 1)",
              {f.Id(), kOtherOrg})
        .status();
  });
  f.Write([&](Connection& tx) { return f.orgs->Delete(tx, kOtherOrg); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto org, f.orgs->Find(c, kOtherOrg));
    CHECK_FALSE(org);
    SV_ASSIGN_OR_RETURN(int64_t n, f.orgs->CountAll(c));
    CHECK(n == 1);
    SV_ASSIGN_OR_RETURN(int64_t members, f.members->Count(c, kOtherOrg));
    CHECK(members == 0);
    SV_ASSIGN_OR_RETURN(auto u, f.users->FindById(c, user));
    CHECK(u);  // the account itself stays
    return Status::Ok();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM projects WHERE org_id = ?", {kOtherOrg}) == 0);
}

TEST_CASE("account store: memberships are scoped by organization and listed oldest first") {
  Fixture f;
  const std::string ada = f.User("ada@example.com");
  const std::string bob = f.User("bob@example.com");
  f.Member(kOrg, bob, "member", 20);
  f.Member(kOrg, ada, "owner", 10);
  f.Member(kOtherOrg, ada, "member", 5);
  CHECK(f.db->Write([&](Connection& tx) {
              return f.members->Insert(tx, ports::Membership{kOrg, ada, "member", std::nullopt, 30});
            })
            .code() == Code::kConflict);
  // An open invitation of bob's shows on the team row (the newest one).
  f.Write([&](Connection& tx) -> Status {
    for (int64_t expires : {4000, 8000}) {
      ports::Invitation inv;
      inv.id = f.Id();
      inv.org_id = kOrg;
      inv.user_id = bob;
      inv.email = "bob@example.com";
      inv.role = "member";
      inv.token_hash = "inv-" + std::to_string(expires);
      inv.invited_by = ada;
      inv.expires_at = expires;
      inv.created_at = 20;
      SV_RETURN_IF_ERROR(f.invitations->Insert(tx, inv));
    }
    return Status::Ok();
  });

  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto m, f.members->Find(c, kOrg, ada));
    REQUIRE(m);
    CHECK(m->role == "owner");
    CHECK(m->created_at == 10);
    SV_ASSIGN_OR_RETURN(auto absent, f.members->Find(c, kOtherOrg, bob));
    CHECK_FALSE(absent);

    SV_ASSIGN_OR_RETURN(auto orgs, f.members->ListForUser(c, ada));
    REQUIRE(orgs.size() == 2);
    CHECK(orgs[0].org_id == kOtherOrg);  // oldest membership first
    CHECK(orgs[0].org_name == "Other");
    CHECK(orgs[0].org_slug == "other");
    CHECK(orgs[0].plan == "free");
    CHECK(orgs[0].role == "member");
    CHECK(orgs[0].joined_at == 5);
    CHECK(orgs[1].org_id == kOrg);
    CHECK(orgs[1].role == "owner");

    SV_ASSIGN_OR_RETURN(auto team, f.members->ListTeam(c, kOrg));
    REQUIRE(team.size() == 2);
    CHECK(team[0].user_id == ada);
    CHECK(team[0].email == "ada@example.com");
    CHECK(team[0].status == "pending");
    CHECK_FALSE(team[0].invitation_expires_at);
    CHECK(team[1].user_id == bob);
    CHECK(team[1].joined_at == 20);
    CHECK(team[1].invitation_expires_at == std::optional<int64_t>(8000));
    SV_ASSIGN_OR_RETURN(auto other_team, f.members->ListTeam(c, kOtherOrg));
    REQUIRE(other_team.size() == 1);
    CHECK(other_team[0].user_id == ada);

    SV_ASSIGN_OR_RETURN(int64_t n, f.members->Count(c, kOrg));
    CHECK(n == 2);
    SV_ASSIGN_OR_RETURN(int64_t owners, f.members->CountWithRole(c, kOrg, "owner"));
    CHECK(owners == 1);
    SV_ASSIGN_OR_RETURN(int64_t other_owners, f.members->CountWithRole(c, kOtherOrg, "owner"));
    CHECK(other_owners == 0);
    return Status::Ok();
  });

  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto locked, f.members->Lock(tx, kOrg, bob, 50));
    REQUIRE(locked);
    CHECK(locked->role == "member");
    SV_ASSIGN_OR_RETURN(auto not_there, f.members->Lock(tx, kOtherOrg, bob, 50));
    CHECK_FALSE(not_there);

    SV_ASSIGN_OR_RETURN(bool changed, f.members->UpdateRole(tx, kOrg, bob, "admin", 60));
    CHECK(changed);
    SV_ASSIGN_OR_RETURN(bool other, f.members->UpdateRole(tx, kOtherOrg, bob, "admin", 60));
    CHECK_FALSE(other);
    SV_ASSIGN_OR_RETURN(auto m, f.members->Find(tx, kOrg, bob));
    REQUIRE(m);
    CHECK(m->role == "admin");

    SV_ASSIGN_OR_RETURN(bool removed, f.members->Remove(tx, kOrg, bob, 70));
    CHECK(removed);
    SV_ASSIGN_OR_RETURN(bool again, f.members->Remove(tx, kOrg, bob, 70));
    CHECK_FALSE(again);
    // Removal revoked bob's open invitations to the organization.
    SV_ASSIGN_OR_RETURN(auto inv, f.invitations->FindOpen(tx, "inv-8000", 100));
    CHECK_FALSE(inv);
    return Status::Ok();
  });
}

TEST_CASE("account store: refresh and emailed tokens are consumed once, for their kind, before they expire") {
  Fixture f;
  {  // a refresh token is consumed once, and never when expired or revoked
    const std::string user = f.User("t@example.com");
    const std::string other = f.User("u@example.com");
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(f.sessions->Insert(tx, ports::RefreshToken{f.Id(), user, kOrg, "good", 4, 5000, 1}));
      SV_RETURN_IF_ERROR(f.sessions->Insert(tx, ports::RefreshToken{f.Id(), user, "", "no-org", 4, 5000, 1}));
      SV_RETURN_IF_ERROR(
          f.sessions->Insert(tx, ports::RefreshToken{f.Id(), user, kOrg, "expired", 4, 900, 1}));
      SV_RETURN_IF_ERROR(
          f.sessions->Insert(tx, ports::RefreshToken{f.Id(), user, kOrg, "revoked", 4, 5000, 1}));
      return f.sessions->Insert(tx, ports::RefreshToken{f.Id(), other, kOrg, "others", 4, 5000, 1});
    });

    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto good, f.sessions->Consume(tx, "good", 1000));
      REQUIRE(good);
      CHECK(good->user_id == user);
      CHECK(good->org_id == kOrg);
      CHECK(good->token_hash == "good");
      CHECK(good->revision == 4);
      CHECK(good->expires_at == 5000);
      CHECK(good->created_at == 1);
      SV_ASSIGN_OR_RETURN(auto no_org, f.sessions->Consume(tx, "no-org", 1000));
      REQUIRE(no_org);
      CHECK(no_org->org_id.empty());
      return Status::Ok();
    });
    // RevokeAll reaches only the user's outstanding tokens.
    f.Write([&](Connection& tx) { return f.sessions->RevokeAll(tx, user, 1100); });

    struct Case {
      const char* hash;
      bool consumed;
    };
    for (const Case& k : {Case{"good", false}, Case{"no-org", false}, Case{"expired", false},
                          Case{"revoked", false}, Case{"unknown", false}, Case{"others", true}}) {
      CAPTURE(k.hash);
      f.Write([&](Connection& tx) -> Status {
        SV_ASSIGN_OR_RETURN(auto t, f.sessions->Consume(tx, k.hash, 1200));
        CHECK(t.has_value() == k.consumed);
        return Status::Ok();
      });
    }
  }
  {  // an emailed token works once, for its kind, before it expires
    const std::string user = f.User("m@example.com");
    const std::string verify(ports::kVerifyEmailToken);
    const std::string reset(ports::kPasswordResetToken);
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(f.email_tokens->Insert(tx, ports::EmailToken{f.Id(), user, verify, "v1", 5000, 1}));
      SV_RETURN_IF_ERROR(f.email_tokens->Insert(tx, ports::EmailToken{f.Id(), user, verify, "v2", 5000, 2}));
      SV_RETURN_IF_ERROR(
          f.email_tokens->Insert(tx, ports::EmailToken{f.Id(), user, verify, "v-old", 500, 1}));
      return f.email_tokens->Insert(tx, ports::EmailToken{f.Id(), user, reset, "r1", 5000, 3});
    });

    struct Case {
      std::string_view kind;
      const char* hash;
      bool works;
    };
    // In order: each consumption is seen by the next rows.
    for (const Case& k :
         {Case{ports::kPasswordResetToken, "v1", false},  // the wrong kind
          Case{ports::kVerifyEmailToken, "v1", true}, Case{ports::kVerifyEmailToken, "v1", false},
          Case{ports::kVerifyEmailToken, "v-old", false}, Case{ports::kVerifyEmailToken, "nope", false}}) {
      CAPTURE(k.hash);
      CAPTURE(k.kind);
      f.Write([&](Connection& tx) -> Status {
        SV_ASSIGN_OR_RETURN(auto got, f.email_tokens->Consume(tx, k.kind, k.hash, 1000));
        CHECK(got.has_value() == k.works);
        if (got) CHECK(*got == user);
        return Status::Ok();
      });
    }

    // ConsumeAll of one kind leaves the other kinds.
    f.Write([&](Connection& tx) { return f.email_tokens->ConsumeAll(tx, user, verify, 1100); });
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto v2, f.email_tokens->Consume(tx, verify, "v2", 1200));
      CHECK_FALSE(v2);
      SV_ASSIGN_OR_RETURN(auto r1, f.email_tokens->Consume(tx, reset, "r1", 1200));
      CHECK(r1 == std::optional<std::string>(user));
      return Status::Ok();
    });
  }
}

TEST_CASE("account store: invitations and waitlist approvals are consumed once, before they expire") {
  Fixture f;
  {  // an invitation is open until accepted by its email, revoked or expired
    const std::string user = f.User("inv@example.com");
    const std::string inviter = f.User("boss@example.com");
    auto invite = [&](const std::string& org, const std::string& hash, int64_t expires) {
      ports::Invitation inv;
      inv.id = f.Id();
      inv.org_id = org;
      inv.user_id = user;
      inv.email = "inv@example.com";
      inv.role = "admin";
      inv.token_hash = hash;
      inv.invited_by = inviter;
      inv.expires_at = expires;
      inv.created_at = 10;
      f.Write([&](Connection& tx) { return f.invitations->Insert(tx, inv); });
      return inv.id;
    };
    const std::string open = invite(kOrg, "open", 5000);
    invite(kOrg, "expired", 900);
    invite(kOrg, "revoked", 5000);
    invite(kOtherOrg, "elsewhere", 5000);

    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto found, f.invitations->FindOpen(c, "open", 1000));
      REQUIRE(found);
      CHECK(found->id == open);
      CHECK(found->org_id == kOrg);
      CHECK(found->org_name == "Org");
      CHECK(found->user_id == user);
      CHECK(found->role == "admin");
      CHECK(found->invited_by == std::optional<std::string>(inviter));
      CHECK(found->expires_at == 5000);
      SV_ASSIGN_OR_RETURN(auto expired, f.invitations->FindOpen(c, "expired", 1000));
      CHECK_FALSE(expired);
      SV_ASSIGN_OR_RETURN(auto unknown, f.invitations->FindOpen(c, "unknown", 1000));
      CHECK_FALSE(unknown);
      return Status::Ok();
    });

    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto wrong_email, f.invitations->Accept(tx, "open", "someone@example.com", 1000));
      CHECK_FALSE(wrong_email);
      SV_ASSIGN_OR_RETURN(auto accepted, f.invitations->Accept(tx, "open", "inv@example.com", 1000));
      REQUIRE(accepted);
      CHECK(accepted->id == open);
      CHECK(accepted->org_name == "Org");
      SV_ASSIGN_OR_RETURN(auto twice, f.invitations->Accept(tx, "open", "inv@example.com", 1001));
      CHECK_FALSE(twice);
      SV_ASSIGN_OR_RETURN(auto gone, f.invitations->FindOpen(tx, "open", 1001));
      CHECK_FALSE(gone);
      SV_ASSIGN_OR_RETURN(auto expired, f.invitations->Accept(tx, "expired", "inv@example.com", 1000));
      CHECK_FALSE(expired);

      // RevokeOpen revokes the user's invitations to that organization only.
      SV_RETURN_IF_ERROR(f.invitations->RevokeOpen(tx, kOrg, user, 1100));
      SV_ASSIGN_OR_RETURN(auto revoked, f.invitations->FindOpen(tx, "revoked", 1200));
      CHECK_FALSE(revoked);
      SV_ASSIGN_OR_RETURN(auto elsewhere, f.invitations->FindOpen(tx, "elsewhere", 1200));
      REQUIRE(elsewhere);
      CHECK(elsewhere->org_name == "Other");
      return Status::Ok();
    });
  }
  {  // a waitlist entry is approved with a token that completes it once
    ports::WaitlistEntry e;
    e.id = f.Id();
    e.email = "wait@example.com";
    e.name = "Wai";
    e.org_name = "Waiting Co";
    e.use_case = "bugs";
    e.status = "pending";
    e.created_at = 10;
    e.updated_at = 10;
    f.Write([&](Connection& tx) { return f.waitlist->Insert(tx, e); });
    ports::WaitlistEntry dup = e;
    dup.id = f.Id();
    CHECK(f.db->Write([&](Connection& tx) { return f.waitlist->Insert(tx, dup); }).code() == Code::kConflict);

    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto by_email, f.waitlist->FindByEmail(c, "wait@example.com"));
      REQUIRE(by_email);
      CHECK(by_email->id == e.id);
      CHECK(by_email->use_case == std::optional<std::string>("bugs"));
      CHECK(by_email->status == "pending");
      CHECK_FALSE(by_email->approval_token_hash);
      SV_ASSIGN_OR_RETURN(auto by_id, f.waitlist->FindById(c, e.id));
      REQUIRE(by_id);
      CHECK(by_id->email == "wait@example.com");
      SV_ASSIGN_OR_RETURN(auto missing, f.waitlist->FindByEmail(c, "no@example.com"));
      CHECK_FALSE(missing);
      SV_ASSIGN_OR_RETURN(auto missing_id, f.waitlist->FindById(c, f.Id()));
      CHECK_FALSE(missing_id);
      return Status::Ok();
    });

    ports::WaitlistEntry rejoin = e;
    rejoin.name = "Wai Two";
    rejoin.org_name = "Waiting Two";
    rejoin.use_case.reset();
    rejoin.status = "pending";
    f.Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(f.waitlist->UpdateDetails(tx, rejoin, 20));
      return f.waitlist->SetStatus(tx, e.id, "approved", std::string("tok"), int64_t{5000}, 30);
    });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto got, f.waitlist->FindById(c, e.id));
      REQUIRE(got);
      CHECK(got->name == "Wai Two");
      CHECK(got->org_name == "Waiting Two");
      CHECK_FALSE(got->use_case);
      CHECK(got->status == "approved");
      CHECK(got->approval_token_hash == std::optional<std::string>("tok"));
      CHECK(got->approval_expires_at == std::optional<int64_t>(5000));
      CHECK(got->updated_at == 30);
      SV_ASSIGN_OR_RETURN(auto by_token, f.waitlist->FindByApprovalToken(c, "tok", 1000));
      REQUIRE(by_token);
      CHECK(by_token->id == e.id);
      SV_ASSIGN_OR_RETURN(auto late, f.waitlist->FindByApprovalToken(c, "tok", 6000));
      CHECK_FALSE(late);
      SV_ASSIGN_OR_RETURN(auto wrong, f.waitlist->FindByApprovalToken(c, "other", 1000));
      CHECK_FALSE(wrong);
      return Status::Ok();
    });

    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto late, f.waitlist->Complete(tx, "tok", 6000));
      CHECK_FALSE(late);
      SV_ASSIGN_OR_RETURN(auto done, f.waitlist->Complete(tx, "tok", 1000));
      REQUIRE(done);
      CHECK(done->id == e.id);
      CHECK(done->status == "completed");
      CHECK_FALSE(done->approval_token_hash);
      CHECK_FALSE(done->approval_expires_at);
      SV_ASSIGN_OR_RETURN(auto twice, f.waitlist->Complete(tx, "tok", 1000));
      CHECK_FALSE(twice);
      return Status::Ok();
    });

    // Clearing the token: both absent.
    f.Write([&](Connection& tx) {
      return f.waitlist->SetStatus(tx, e.id, "rejected", std::nullopt, std::nullopt, 40);
    });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto got, f.waitlist->FindById(c, e.id));
      REQUIRE(got);
      CHECK(got->status == "rejected");
      CHECK_FALSE(got->approval_token_hash);
      return Status::Ok();
    });

    f.Write([&](Connection& tx) { return f.waitlist->DeleteByEmail(tx, "wait@example.com"); });
    f.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(auto gone, f.waitlist->FindByEmail(c, "wait@example.com"));
      CHECK_FALSE(gone);
      return Status::Ok();
    });
  }
}

}  // namespace service::store
