// Account states, login decisions, session checks and waitlist transitions.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "areas/accounts/domain/account.h"

namespace sd = service::domain::accounts;
using sd::AccountStatus;
using sd::WaitlistStatus;
using service::Code;

namespace {

sd::AccountView Active() {
  sd::AccountView a;
  a.email = "alice@example.com";
  a.status = AccountStatus::kActive;
  a.has_password = true;
  a.email_verified = true;
  a.session_revision = 4;
  return a;
}

}  // namespace

TEST_CASE("account: status names") {
  for (AccountStatus s : {AccountStatus::kPending, AccountStatus::kActive, AccountStatus::kDeactivated}) {
    CHECK(sd::ParseAccountStatus(sd::AccountStatusName(s)) == s);
  }
  CHECK_FALSE(sd::ParseAccountStatus("Active").has_value());
}

TEST_CASE("account: login decisions") {
  SUBCASE("active, verified, right password") { CHECK(sd::CheckLogin(Active(), true).ok()); }
  SUBCASE("wrong password") {
    const service::Status s = sd::CheckLogin(Active(), false);
    CHECK(s.code() == Code::kUnauthenticated);
    CHECK(s.message() == "Invalid credentials");
    CHECK(s.message() == sd::InvalidCredentials().message());
  }
  SUBCASE("invited user without a password") {
    sd::AccountView a = Active();
    a.has_password = false;
    a.status = AccountStatus::kPending;
    const service::Status s = sd::CheckLogin(a, false);
    CHECK(s.code() == Code::kPermissionDenied);
    CHECK(s.error_code() == "INVITE_PENDING");
  }
  SUBCASE("unverified email is revealed only with the right password") {
    sd::AccountView a = Active();
    a.email_verified = false;
    const service::Status s = sd::CheckLogin(a, true);
    CHECK(s.code() == Code::kPermissionDenied);
    CHECK(s.error_code() == "EMAIL_UNVERIFIED");
    CHECK(s.payload_json() == R"({"maskedEmail":"a***e@example.com"})");
    CHECK(sd::CheckLogin(a, false).code() == Code::kUnauthenticated);
  }
  SUBCASE("deactivated accounts look like wrong credentials") {
    sd::AccountView a = Active();
    a.status = AccountStatus::kDeactivated;
    CHECK(sd::CheckLogin(a, true).code() == Code::kUnauthenticated);
    a.has_password = false;
    CHECK(sd::CheckLogin(a, false).code() == Code::kUnauthenticated);
  }
}

TEST_CASE("account: session check compares revision and status") {
  sd::TokenClaims c = sd::MakeAccessClaims("u", "o", 4, 1'800'000'000'000);
  CHECK(sd::CheckSession(c, Active()).ok());
  c.rev = 3;  // issued before a password change
  CHECK(sd::CheckSession(c, Active()).code() == Code::kUnauthenticated);
  c.rev = 5;
  CHECK(sd::CheckSession(c, Active()).code() == Code::kUnauthenticated);
  c.rev = 4;
  sd::AccountView a = Active();
  a.status = AccountStatus::kDeactivated;
  CHECK(sd::CheckSession(c, a).code() == Code::kUnauthenticated);
  a.status = AccountStatus::kPending;
  CHECK(sd::CheckSession(c, a).code() == Code::kUnauthenticated);
}

TEST_CASE("account: which changes retire sessions") {
  CHECK(sd::RetiresSessions(sd::AccountChange::kStatus));
  CHECK(sd::RetiresSessions(sd::AccountChange::kEmail));
  CHECK(sd::RetiresSessions(sd::AccountChange::kPassword));
  CHECK_FALSE(sd::RetiresSessions(sd::AccountChange::kProfile));
  CHECK(sd::NextSessionRevision(0) == 1);
  CHECK(sd::NextSessionRevision(41) == 42);
  // A token from before the change no longer passes.
  sd::AccountView a = Active();
  const sd::TokenClaims before = sd::MakeAccessClaims("u", "", a.session_revision, 0);
  a.session_revision = sd::NextSessionRevision(a.session_revision);
  CHECK_FALSE(sd::CheckSession(before, a).ok());
}

TEST_CASE("account: password reset and invitations by status") {
  CHECK(sd::CanResetPassword(AccountStatus::kActive));
  CHECK_FALSE(sd::CanResetPassword(AccountStatus::kPending));
  CHECK_FALSE(sd::CanResetPassword(AccountStatus::kDeactivated));
  CHECK(*sd::DecideInvitationAcceptance(AccountStatus::kPending) == sd::InvitationAcceptance::kActivate);
  CHECK(*sd::DecideInvitationAcceptance(AccountStatus::kActive) == sd::InvitationAcceptance::kJoinOnly);
  auto d = sd::DecideInvitationAcceptance(AccountStatus::kDeactivated);
  REQUIRE_FALSE(d.ok());
  CHECK(d.status().error_code() == "INVITATION_INVALID");
}

TEST_CASE("waitlist: joining") {
  auto fresh = sd::DecideWaitlistJoin(std::nullopt);
  REQUIRE(fresh.ok());
  CHECK(fresh->next == WaitlistStatus::kPending);
  CHECK(fresh->accepted);
  CHECK(fresh->send_receipt);

  auto again = sd::DecideWaitlistJoin(WaitlistStatus::kPending);
  CHECK(again->next == WaitlistStatus::kPending);
  CHECK(again->accepted);
  CHECK_FALSE(again->send_receipt);

  auto rejected = sd::DecideWaitlistJoin(WaitlistStatus::kRejected);
  CHECK(rejected->next == WaitlistStatus::kPending);
  CHECK(rejected->accepted);

  auto approved = sd::DecideWaitlistJoin(WaitlistStatus::kApproved);
  CHECK(approved->next == WaitlistStatus::kApproved);
  CHECK_FALSE(approved->accepted);

  auto done = sd::DecideWaitlistJoin(WaitlistStatus::kCompleted);
  REQUIRE_FALSE(done.ok());
  CHECK(done.status().code() == Code::kConflict);
}

TEST_CASE("waitlist: superadmin actions") {
  CHECK(*sd::DecideWaitlistApprove(WaitlistStatus::kPending) == WaitlistStatus::kApproved);
  CHECK(*sd::DecideWaitlistApprove(WaitlistStatus::kApproved) == WaitlistStatus::kApproved);
  CHECK(sd::DecideWaitlistApprove(WaitlistStatus::kCompleted).status().code() == Code::kInvalidArgument);
  for (WaitlistStatus s : {WaitlistStatus::kPending, WaitlistStatus::kApproved, WaitlistStatus::kRejected,
                           WaitlistStatus::kCompleted}) {
    CHECK(sd::DecideWaitlistReject(s) == WaitlistStatus::kRejected);
    CHECK(sd::ParseWaitlistStatus(sd::WaitlistStatusName(s)) == s);
    CHECK(sd::CheckWaitlistResend(s).ok() == (s == WaitlistStatus::kApproved));
  }
}
