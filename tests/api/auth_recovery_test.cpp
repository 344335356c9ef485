// Password recovery and email verification (Spec 1 "Auth"): forgot and reset
// password (token retirement), send, resend and verify email, with mail
// through a real SMTP exchange and through the file provider.
#include <doctest/doctest.h>

#include <algorithm>

#include "areas/mail/app/mail.h"
#include "service_internal.h"
#include "support/accounts.h"
#include "support/api_harness.h"
#include "support/smtp_server.h"

namespace {

namespace json = boost::json;
using service::testing::Account;
using service::testing::Bearer;
using service::testing::kTestPassword;
using service::testing::NewAccountsService;
using service::testing::RegisterAccount;
using service::testing::TestService;
using service::testing::TokenAfter;

const std::string kNewPassword = "a brand new password";

int64_t OutboxCount(TestService& t) {
  int64_t n = 0;
  REQUIRE(service::internal::PlatformOf(t.service())
              .db
              ->Read([&](service::store::Connection& c) -> service::Status {
                SV_ASSIGN_OR_RETURN(auto r, c.Query("SELECT COUNT(*) FROM outbox"));
                n = r.Int(0, 0);
                return service::Status::Ok();
              })
              .ok());
  return n;
}

TEST_CASE("forgot-password never tells whether an email exists, the token shows outside production only") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "forgot@example.com");
  auto known = t->Post("/v1/auth/forgot-password", json::object{{"email", a.email}});
  REQUIRE(known.status == 200);
  CHECK(known.json.at("success") == true);
  CHECK(known.json.at("token").as_string().size() == 64);
  auto unknown = t->Post("/v1/auth/forgot-password", json::object{{"email", "ghost@example.com"}});
  REQUIRE(unknown.status == 200);
  CHECK(unknown.json.at("success") == true);
  CHECK(unknown.json.at("message") == known.json.at("message"));
  CHECK_FALSE(unknown.json.as_object().contains("token"));

  auto missing = t->Post("/v1/auth/forgot-password", json::object{});
  CHECK(missing.status == 400);
  CHECK(missing.json.at("error") == "Email is required");
  CHECK(t->Post("/v1/auth/forgot-password", json::object{{"email", ""}}).json.at("error") ==
        "Email is required");
  CHECK(t->Post("/v1/auth/forgot-password", json::object{{"email", "bad"}}).status == 400);

  auto prod = NewAccountsService([](service::Options& o) { o.production = true; });
  RegisterAccount(*prod, "prod@example.com");
  auto r = prod->Post("/v1/auth/forgot-password", json::object{{"email", "prod@example.com"}});
  CHECK(r.status == 200);
  CHECK_FALSE(r.json.as_object().contains("token"));
}

TEST_CASE("reset-password retires every earlier access and refresh token and is single use") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "reset@example.com");
  auto login = t->Post("/v1/auth/login", json::object{{"email", a.email}, {"password", kTestPassword}});
  REQUIRE(login.status == 200);
  const std::string access2(login.json.at("accessToken").as_string());
  const std::string refresh2(login.json.at("refreshToken").as_string());

  auto forgot = t->Post("/v1/auth/forgot-password", json::object{{"email", a.email}});
  const std::string token(forgot.json.at("token").as_string());
  // The token belongs to this email only.
  RegisterAccount(*t, "other@example.com");
  CHECK(t->Post("/v1/auth/reset-password",
                json::object{{"token", token}, {"email", "other@example.com"}, {"newPassword", kNewPassword}})
            .status == 400);

  auto bad = t->Post("/v1/auth/reset-password",
                     json::object{{"token", token}, {"email", a.email}, {"newPassword", "short"}});
  REQUIRE(bad.status == 400);
  CHECK(bad.json.at("error") == "Validation failed");
  CHECK(bad.json.at("details").at(0).at("field") == "newPassword");

  auto ok = t->Post("/v1/auth/reset-password",
                    json::object{{"token", token}, {"email", a.email}, {"newPassword", kNewPassword}});
  REQUIRE_MESSAGE(ok.status == 200, ok.body);
  CHECK(ok.json.at("success") == true);
  CHECK(ok.json.at("message").is_string());

  // Every earlier token is retired.
  for (const std::string& access : {a.access_token, access2})
    CHECK(t->Get("/v1/auth/me", Bearer(access)).status == 401);
  for (const std::string& refresh : {a.refresh_token, refresh2}) {
    CHECK(t->Post("/v1/auth/refresh", json::object{{"refreshToken", refresh}}).status == 401);
  }
  // The old password is gone, the new one works.
  CHECK(t->Post("/v1/auth/login", json::object{{"email", a.email}, {"password", kTestPassword}}).status ==
        401);
  auto relogin = t->Post("/v1/auth/login", json::object{{"email", a.email}, {"password", kNewPassword}});
  REQUIRE(relogin.status == 200);
  CHECK(t->Get("/v1/auth/me", Bearer(std::string(relogin.json.at("accessToken").as_string()))).status == 200);

  // Consumed: a second use fails.
  auto again =
      t->Post("/v1/auth/reset-password",
              json::object{{"token", token}, {"email", a.email}, {"newPassword", "yet another password"}});
  CHECK(again.status == 400);
  CHECK(again.json.at("error") == "Invalid or expired reset token");
  for (const std::string& garbage : {std::string("x"), std::string(64, 'f'), std::string(64, 'G')}) {
    CHECK(t->Post("/v1/auth/reset-password",
                  json::object{{"token", garbage}, {"email", a.email}, {"newPassword", kNewPassword}})
              .status == 400);
  }
}

TEST_CASE("reset tokens expire after an hour, a newer one replaces the older, pending accounts get none") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "expire@example.com");
  auto first = t->Post("/v1/auth/forgot-password", json::object{{"email", a.email}});
  auto second = t->Post("/v1/auth/forgot-password", json::object{{"email", a.email}});
  const std::string t1(first.json.at("token").as_string()), t2(second.json.at("token").as_string());
  CHECK(t->Post("/v1/auth/reset-password",
                json::object{{"token", t1}, {"email", a.email}, {"newPassword", kNewPassword}})
            .status == 400);
  // An invited (pending) account cannot activate itself by a reset.
  auto inv = t->Post("/v1/team/invite", json::object{{"email", "pending@example.com"}, {"orgId", a.org_id}},
                     service::testing::BearerOrg(a.access_token, a.org_id));
  REQUIRE(inv.status == 201);
  t->clock().Advance(60 * 60 * 1000);
  CHECK(t->Post("/v1/auth/reset-password",
                json::object{{"token", t2}, {"email", a.email}, {"newPassword", kNewPassword}})
            .status == 400);
  auto pending = t->Post("/v1/auth/forgot-password", json::object{{"email", "pending@example.com"}});
  CHECK(pending.status == 200);
  CHECK_FALSE(pending.json.as_object().contains("token"));
}

TEST_CASE("password reset through a real SMTP exchange: the mailed link carries the token" *
          doctest::skip(!SERVICE_HAS_CURL)) {
  service::testing::SmtpServer smtp;
  auto t = NewAccountsService([&](service::Options& o) {
    o.mail_url = "smtp://user:pass@" + smtp.address() + "?timeout_ms=5000";
    o.public_url = "https://bugs.example.com";
    o.require_email_verification = false;
  });
  const Account a = RegisterAccount(*t, "smtp@example.com");
  REQUIRE(t->Post("/v1/auth/forgot-password", json::object{{"email", a.email}}).status == 200);
  REQUIRE(
      service::internal::PlatformOf(t->service()).Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  const auto messages = smtp.messages();
  REQUIRE(messages.size() == 2);  // verification at signup, then the reset
  // Delivery order is the worker's business: find the reset by its subject.
  const auto it = std::find_if(messages.begin(), messages.end(), [](const auto& m) {
    return m.data.find("Subject: Reset your password") != std::string::npos;
  });
  REQUIRE(it != messages.end());
  const auto& reset = *it;
  CHECK(reset.rcpt_to == std::vector<std::string>{"smtp@example.com"});
  CHECK(reset.data.find("Subject: Reset your password") != std::string::npos);
  CHECK(reset.data.find("https://bugs.example.com/reset-password#token=") != std::string::npos);
  const std::string token = TokenAfter(reset.data, "#token=");
  REQUIRE(token.size() == 64);
  auto ok = t->Post("/v1/auth/reset-password",
                    json::object{{"token", token}, {"email", a.email}, {"newPassword", kNewPassword}});
  CHECK(ok.status == 200);
  CHECK(t->Post("/v1/auth/login", json::object{{"email", a.email}, {"password", kNewPassword}}).status ==
        200);
}

TEST_CASE("email verification: send, resend and verify through the mailed link") {
  const std::string dir = service::testing::FreshTempDir("acc-verify");
  auto t = NewAccountsService([&](service::Options& o) {
    o.mail_url = "file:" + dir;
    o.public_url = "https://bugs.example.com";
  });
  const Account a = RegisterAccount(*t, "verify@example.com");
  // Verification is required with a mail provider: login waits for it.
  auto blocked = t->Post("/v1/auth/login", json::object{{"email", a.email}, {"password", kTestPassword}});
  REQUIRE(blocked.status == 403);
  CHECK(blocked.json.at("code") == "EMAIL_UNVERIFIED");

  t->clock().Advance(1);  // mails to one address sort by time
  auto sent = t->Post("/v1/auth/send-verification", json::object{}, Bearer(a.access_token));
  REQUIRE_MESSAGE(sent.status == 200, sent.body);
  CHECK(sent.json.at("success") == true);
  CHECK(sent.json.at("maskedEmail") == "v***y@example.com");
  t->clock().Advance(1);
  auto resent = t->Post("/v1/auth/resend-verification", json::object{{"email", a.email}});
  REQUIRE(resent.status == 200);
  CHECK(resent.json.at("maskedEmail") == "v***y@example.com");
  // The same answer for an unknown address, and nothing is queued for it.
  const int64_t queued = OutboxCount(*t);
  auto ghost = t->Post("/v1/auth/resend-verification", json::object{{"email", "ghost@example.com"}});
  CHECK(ghost.status == 200);
  CHECK(ghost.json.at("maskedEmail") == "g***t@example.com");
  CHECK(OutboxCount(*t) == queued);
  CHECK(t->Post("/v1/auth/resend-verification", json::object{{"email", "nope"}}).status == 400);

  REQUIRE(
      service::internal::PlatformOf(t->service()).Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  const auto mails = service::testing::ReadMailDir(dir);
  REQUIRE(mails.size() == 3);
  // Each new link replaces the previous ones: only the newest works.
  const std::string old_token = TokenAfter(mails[0], "/verify-email#token=");
  const std::string token = TokenAfter(mails[2], "/verify-email#token=");
  REQUIRE(token.size() == 64);
  CHECK(t->Post("/v1/auth/verify-email", json::object{{"token", old_token}}).status == 400);

  CHECK(t->Post("/v1/auth/verify-email", json::object{}).json.at("error") == "Token is required");
  auto wrong = t->Post("/v1/auth/verify-email", json::object{{"token", std::string(64, 'a')}});
  CHECK(wrong.status == 400);
  CHECK(wrong.json.at("error") == "Invalid or expired verification token");
  auto ok = t->Post("/v1/auth/verify-email", json::object{{"token", token}});
  REQUIRE(ok.status == 200);
  CHECK(ok.json.at("success") == true);
  CHECK(t->Post("/v1/auth/verify-email", json::object{{"token", token}}).status == 400);

  // Verification is no session change: the old token still works.
  auto me = t->Get("/v1/auth/me", Bearer(a.access_token));
  REQUIRE(me.status == 200);
  CHECK(me.json.at("email_verified") == true);
  CHECK(t->Post("/v1/auth/login", json::object{{"email", a.email}, {"password", kTestPassword}}).status ==
        200);
  auto already = t->Post("/v1/auth/send-verification", json::object{}, Bearer(a.access_token));
  REQUIRE(already.status == 200);
  CHECK_FALSE(already.json.as_object().contains("maskedEmail"));
}

TEST_CASE("verification without a mail provider: 503, and links expire after 24 hours") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "nomail@example.com");
  CHECK(t->Post("/v1/auth/send-verification", json::object{}, Bearer(a.access_token)).status == 503);
  CHECK(t->Post("/v1/auth/resend-verification", json::object{{"email", a.email}}).status == 503);
  CHECK(t->Post("/v1/auth/send-verification", json::object{}).status == 401);

  auto m = NewAccountsService(
      [](service::Options& o) { o.mail_url = "file:" + service::testing::FreshTempDir("acc-v2"); });
  const Account b = RegisterAccount(*m, "expiring@example.com");
  const std::string token = TokenAfter(service::testing::LastQueuedMailText(*m, b.email), "#token=");
  REQUIRE(token.size() == 64);
  m->clock().Advance(24 * 60 * 60 * 1000);
  CHECK(m->Post("/v1/auth/verify-email", json::object{{"token", token}}).status == 400);
}

}  // namespace
