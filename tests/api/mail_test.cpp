// Mail that really leaves (Accounts, item 6): the outbox, the mail worker and
// the SMTP and file providers, against a real SMTP listener and a real folder.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include "areas/mail/app/mail.h"
#include "service_internal.h"
#include "support/api_harness.h"
#include "support/smtp_server.h"
#include "support/test_db.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace {

using service::Code;
using service::Status;
using service::app::mail::MailMessage;
using service::modules::Platform;
using service::testing::SmtpServer;
using service::testing::TestService;
namespace fs = std::filesystem;

// A password with characters that must be percent-encoded in the URL.
const std::string kUser = "mailer@bugs";
const std::string kPassword = "pa:ss@W0rd/Zq9%x";

std::string SmtpUrl(const SmtpServer& srv, const std::string& extra = "") {
  return "smtp://" + service::util::UrlEncode(kUser) + ":" + service::util::UrlEncode(kPassword) + "@" +
         srv.address() + "?timeout_ms=5000" + extra;
}

std::function<void(service::Options&)> WithMail(const std::string& url) {
  return [url](service::Options& o) {
    o.mail_url = url;
    o.public_url = "https://bugs.example.com";
  };
}

Status Enqueue(service::modules::Platform& core, const MailMessage& m) {
  return core.db->Write([&](service::store::Connection& tx) {
    return core.Shared<service::app::mail::MailOutbox>()->Enqueue(tx, m);
  });
}

struct OutboxRow {
  std::string status;
  int64_t attempts = 0;
  int64_t next_attempt_at = 0;
  std::string last_error;
  std::string payload;
};

std::vector<OutboxRow> MailRows(service::modules::Platform& core) {
  std::vector<OutboxRow> out;
  Status s = core.db->Read([&](service::store::Connection& c) -> Status {
    auto rows = c.Query(
        "SELECT status, attempts, next_attempt_at, last_error, payload FROM outbox WHERE kind = 'mail' "
        "ORDER BY created_at, id");
    if (!rows.ok()) return rows.status();
    for (size_t i = 0; i < rows->size(); ++i)
      out.push_back({rows->Str(i, 0), rows->Int(i, 1), rows->Int(i, 2), rows->Str(i, 3), rows->Str(i, 4)});
    return Status::Ok();
  });
  REQUIRE_MESSAGE(s.ok(), s.ToString());
  return out;
}

// A received message split into unfolded headers (lower-case names, in order)
// and body.
struct ParsedMail {
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string Get(const std::string& name) const {
    for (const auto& [k, v] : headers)
      if (k == name) return v;
    return "";
  }
  int Count(const std::string& name) const {
    int n = 0;
    for (const auto& h : headers) n += h.first == name;
    return n;
  }
};

bool OnlyCrlf(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) return false;
    if (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n')) return false;
  }
  return true;
}

ParsedMail Parse(const std::string& data) {
  ParsedMail m;
  const size_t split = data.find("\r\n\r\n");
  REQUIRE(split != std::string::npos);
  m.body = data.substr(split + 4);
  std::string head = data.substr(0, split + 2);
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < head.size();) {
    const size_t eol = head.find("\r\n", pos);
    std::string line = head.substr(pos, eol - pos);
    pos = eol + 2;
    if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) {
      REQUIRE(!lines.empty());
      lines.back() += line;  // unfolding removes only the CRLF
    } else {
      lines.push_back(line);
    }
  }
  for (const std::string& line : lines) {
    const size_t colon = line.find(':');
    REQUIRE(colon != std::string::npos);
    m.headers.emplace_back(service::util::ToLower(line.substr(0, colon)),
                           service::util::Trim(line.substr(colon + 1)));
  }
  return m;
}

// Decodes RFC 2047 "=?utf-8?B?...?=" words (white space between words is dropped).
std::string DecodeWords(const std::string& value) {
  std::string out, pending_space;
  size_t pos = 0;
  bool last_was_word = false;
  while (pos < value.size()) {
    if (value.compare(pos, 10, "=?utf-8?B?") == 0) {
      const size_t end = value.find("?=", pos + 10);
      REQUIRE(end != std::string::npos);
      std::string bytes;
      REQUIRE(service::util::Base64UrlDecode(value.substr(pos + 10, end - pos - 10), &bytes));
      if (!last_was_word) out += pending_space;
      pending_space.clear();
      out += bytes;
      pos = end + 2;
      last_was_word = true;
    } else if (value[pos] == ' ' || value[pos] == '\t') {
      pending_space += value[pos++];
    } else {
      out += pending_space;
      pending_space.clear();
      out += value[pos++];
      last_was_word = false;
    }
  }
  return out;
}

// A TCP port on 127.0.0.1 with nobody listening.
int ClosedPort() {
  SmtpServer probe;
  return probe.port();  // the listener closes when `probe` goes away
}

}  // namespace

TEST_CASE("mail: a queued message is delivered over SMTP with headers, body, CRLF framing and AUTH" *
          doctest::skip(!SERVICE_HAS_CURL)) {
  SmtpServer srv;
  std::string mechanism;
  SUBCASE("AUTH PLAIN") { mechanism = "PLAIN"; }
  SUBCASE("AUTH LOGIN") { mechanism = "LOGIN"; }
  srv.SetAuthMechanisms(mechanism);
  srv.RequireCredentials(kUser, kPassword);
  TestService t(WithMail(SmtpUrl(srv)));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  CHECK(core.Shared<service::app::mail::MailOutbox>()->configured());

  const std::string text =
      "Hello Ada,\n\nVerify your address: https://bugs.example.com/verify?token=AbC123_-x\n"
      ".\n.hidden line\n..two dots\n\nThanks\n";
  REQUIRE(Enqueue(core, {"ada@example.com", "Verify your email", text}).ok());
  REQUIRE(MailRows(core).size() == 1);
  CHECK(srv.messages().empty());  // queued, not sent inline

  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  const auto received = srv.messages();
  REQUIRE(received.size() == 1);
  const auto& got = received[0];
  CHECK(got.auth_mechanism == mechanism);
  CHECK(got.auth_user == kUser);
  CHECK(got.auth_password == kPassword);
  CHECK(got.helo == "bugs.example.com");
  CHECK(got.mail_from == "no-reply@bugs.example.com");
  REQUIRE(got.rcpt_to.size() == 1);
  CHECK(got.rcpt_to[0] == "ada@example.com");

  CHECK(OnlyCrlf(got.raw_data));
  CHECK(got.raw_data.find("\r\n..\r\n") != std::string::npos);  // dot-stuffed on the wire
  CHECK(got.raw_data.find("\r\n..hidden line\r\n") != std::string::npos);
  const ParsedMail m = Parse(got.data);
  CHECK(m.Get("from") == "Service <no-reply@bugs.example.com>");
  CHECK(m.Get("to") == "ada@example.com");
  CHECK(m.Get("subject") == "Verify your email");
  CHECK(m.Get("date") == "Thu, 15 Jan 2026 10:00:00 +0000");
  CHECK(m.Get("message-id").find("@bugs.example.com>") != std::string::npos);
  CHECK(m.Get("mime-version") == "1.0");
  CHECK(m.Get("content-type") == "text/plain; charset=utf-8");
  CHECK(m.Get("content-transfer-encoding") == "7bit");
  CHECK(m.body ==
        "Hello Ada,\r\n\r\nVerify your address: https://bugs.example.com/verify?token=AbC123_-x\r\n"
        ".\r\n.hidden line\r\n..two dots\r\n\r\nThanks\r\n");

  const auto rows = MailRows(core);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].status == "done");
  CHECK(rows[0].attempts == 1);
  // Nothing more to send.
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  CHECK(srv.mail_commands() == 1);
}

TEST_CASE("mail: SMTP 4xx replies are retried after an exponential backoff, then delivered" *
          doctest::skip(!SERVICE_HAS_CURL)) {
  SmtpServer srv;
  TestService t(WithMail(SmtpUrl(srv)));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  REQUIRE(Enqueue(core, {"bob@example.com", "Reset your password", "Token: T0K3N"}).ok());

  srv.FailNext(SmtpServer::Stage::kRcptTo, "451 4.3.0 mailbox busy, try later");
  srv.FailNext(SmtpServer::Stage::kData, "452 4.3.1 insufficient storage");
  const int64_t start = t.clock().NowMillis();
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  auto rows = MailRows(core);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].status == "pending");
  CHECK(rows[0].attempts == 1);
  CHECK(rows[0].next_attempt_at == start + 5'000);
  CHECK(rows[0].last_error.find("451") != std::string::npos);
  CHECK(srv.messages().empty());

  // Not due yet: no new attempt reaches the relay.
  t.clock().Advance(4'999);
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  CHECK(srv.mail_commands() == 1);

  // Second try: the relay refuses the data with a 4xx; the delay doubles.
  t.clock().Advance(1);
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  CHECK(srv.mail_commands() == 2);
  rows = MailRows(core);
  CHECK(rows[0].status == "pending");
  CHECK(rows[0].attempts == 2);
  CHECK(rows[0].next_attempt_at == start + 5'000 + 10'000);
  CHECK(rows[0].last_error.find("452") != std::string::npos);

  t.clock().Advance(9'999);
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  CHECK(srv.mail_commands() == 2);
  t.clock().Advance(1);
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  const auto received = srv.messages();
  REQUIRE(received.size() == 1);
  CHECK(Parse(received[0].data).Get("subject") == "Reset your password");
  rows = MailRows(core);
  CHECK(rows[0].status == "done");
  CHECK(rows[0].attempts == 3);
}

TEST_CASE("mail: a permanent SMTP 5xx fails the message without further attempts" *
          doctest::skip(!SERVICE_HAS_CURL)) {
  SmtpServer srv;
  TestService t(WithMail(SmtpUrl(srv)));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  REQUIRE(Enqueue(core, {"nobody@example.com", "Invitation", "Join us"}).ok());
  srv.FailNext(SmtpServer::Stage::kRcptTo, "550 5.1.1 no such user here");

  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  auto rows = MailRows(core);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].status == "failed");
  CHECK(rows[0].attempts == 1);
  CHECK(rows[0].last_error.find("550") != std::string::npos);

  t.clock().Advance(24 * 3'600'000);
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  CHECK(srv.mail_commands() == 1);
  CHECK(srv.messages().empty());
  auto counts = core.outbox->Counts(*core.tx, core.Now());
  REQUIRE(counts.ok());
  CHECK(counts->failed == 1);
  CHECK(counts->pending == 0);
}

TEST_CASE("mail: the SMTP password never reaches the outbox, even when delivery fails" *
          doctest::skip(!SERVICE_HAS_CURL)) {
  SmtpServer srv;
  std::string url;
  std::string expect_in_error;
  SUBCASE("the relay refuses the credentials") {
    srv.RequireCredentials(kUser, "another password");
    url = SmtpUrl(srv);
    expect_in_error = "535";
  }
  SUBCASE("nobody listens") {
    url = "smtp://" + service::util::UrlEncode(kUser) + ":" + service::util::UrlEncode(kPassword) +
          "@127.0.0.1:" + std::to_string(ClosedPort()) + "?timeout_ms=2000";
    expect_in_error = "127.0.0.1";
  }
  TestService t(WithMail(url));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  REQUIRE(Enqueue(core, {"carol@example.com", "Hi", "Body"}).ok());
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());

  const auto rows = MailRows(core);
  REQUIRE(rows.size() == 1);
  // Both are configuration problems an operator can fix: the mail waits.
  CHECK(rows[0].status == "pending");
  CHECK(rows[0].last_error.find(expect_in_error) != std::string::npos);
  for (const std::string& secret : {kPassword, service::util::UrlEncode(kPassword)}) {
    CHECK(rows[0].last_error.find(secret) == std::string::npos);
    CHECK(rows[0].payload.find(secret) == std::string::npos);
  }
  CHECK(srv.messages().empty());
}

TEST_CASE("mail: the file provider writes one parseable .eml file per message") {
  const fs::path root = fs::temp_directory_path() /
                        ("mail-test-" + service::testing::TestBackend() + "-" + std::to_string(::getpid()) +
                         "-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const fs::path dir = root / "nested" / "outbox";  // created on first use
  TestService t(WithMail("file:" + dir.string() + "?from=Bug%20Desk%20%3Cdesk%40example.org%3E"));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());

  const std::string subject = "Café ✓ — your résumé of open bugs this week, with a long tail to fold";
  const std::string link = "https://bugs.example.com/invite?token=Zz9_aB-12&org=acme";
  REQUIRE(Enqueue(core, {"dora@example.com", subject, "Follow " + link + "\nÀ bientôt\n"}).ok());
  REQUIRE(Enqueue(core, {"eve@example.com", "Second", "Plain\r\nLines\r\n"}).ok());
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 2);  // no temporary file left behind
  std::map<std::string, ParsedMail> by_to;
  for (const auto& f : files) {
    CHECK(f.extension() == ".eml");
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string data = ss.str();
    CHECK(OnlyCrlf(data));
    CHECK(data.find(kPassword) == std::string::npos);
    ParsedMail m = Parse(data);
    by_to[m.Get("to")] = m;
  }
  REQUIRE(by_to.count("dora@example.com") == 1);
  const ParsedMail& dora = by_to["dora@example.com"];
  CHECK(dora.Get("from") == "Bug Desk <desk@example.org>");
  CHECK(dora.Get("subject").rfind("=?utf-8?B?", 0) == 0);
  CHECK(DecodeWords(dora.Get("subject")) == subject);
  CHECK(dora.Get("content-type") == "text/plain; charset=utf-8");
  CHECK(dora.Get("content-transfer-encoding") == "8bit");
  CHECK(dora.Get("message-id").find("@example.org>") != std::string::npos);
  CHECK(!dora.Get("date").empty());
  CHECK(dora.body == "Follow " + link + "\r\nÀ bientôt\r\n");  // the link as written
  REQUIRE(by_to.count("eve@example.com") == 1);
  CHECK(by_to["eve@example.com"].body == "Plain\r\nLines\r\n");
  CHECK(by_to["eve@example.com"].Get("content-transfer-encoding") == "7bit");
  CHECK(by_to["eve@example.com"].Get("message-id") != dora.Get("message-id"));

  for (const auto& row : MailRows(core)) CHECK(row.status == "done");
  fs::remove_all(root);
}

TEST_CASE("mail: without a provider EnqueueMail answers unavailable and writes nothing") {
  TestService t;
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  CHECK_FALSE(core.Shared<service::app::mail::MailOutbox>()->configured());
  Status inner;
  Status s = core.db->Write([&](service::store::Connection& tx) {
    inner = core.Shared<service::app::mail::MailOutbox>()->Enqueue(tx, {"ada@example.com", "Hi", "Body"});
    return Status::Ok();  // commit whatever was written
  });
  REQUIRE(s.ok());
  CHECK(inner.code() == Code::kUnavailable);
  CHECK(inner.message() == "Email delivery is not configured");
  CHECK(MailRows(core).empty());
  CHECK(core.Shared<service::app::mail::MailOutbox>()->RunOnce().code() == Code::kUnavailable);
}

TEST_CASE("mail: a rolled back transaction sends no mail" * doctest::skip(!SERVICE_HAS_CURL)) {
  SmtpServer srv;
  TestService t(WithMail(SmtpUrl(srv)));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  Status s = core.db->Write([&](service::store::Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(
        core.Shared<service::app::mail::MailOutbox>()->Enqueue(tx, {"ada@example.com", "Welcome", "Body"}));
    return service::Conflict("the signup lost a race");
  });
  CHECK(s.code() == Code::kConflict);
  CHECK(MailRows(core).empty());
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  CHECK(srv.connections() == 0);
  CHECK(srv.messages().empty());
}

TEST_CASE("mail: header injection through the subject or the recipient is impossible" *
          doctest::skip(!SERVICE_HAS_CURL)) {
  SmtpServer srv;
  TestService t(WithMail(SmtpUrl(srv)));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());

  for (const std::string& to :
       {std::string("ada@example.com\r\nBcc: eve@evil.example"),
        std::string("ada@example.com, eve@evil.example"), std::string("not-an-address")}) {
    CAPTURE(to);
    CHECK(Enqueue(core, {to, "Hi", "Body"}).code() == Code::kInvalidArgument);
  }
  CHECK(MailRows(core).empty());

  REQUIRE(Enqueue(core, {"ada@example.com", "Hello\r\nBcc: eve@evil.example\nX-Evil: 1", "Body"}).ok());
  REQUIRE(core.Shared<service::app::mail::MailOutbox>()->RunOnce().ok());
  const auto received = srv.messages();
  REQUIRE(received.size() == 1);
  REQUIRE(received[0].rcpt_to.size() == 1);
  CHECK(received[0].rcpt_to[0] == "ada@example.com");
  const ParsedMail m = Parse(received[0].data);
  CHECK(m.Count("bcc") == 0);
  CHECK(m.Count("x-evil") == 0);
  CHECK(m.Count("subject") == 1);
  CHECK(m.Get("subject") == "Hello Bcc: eve@evil.example X-Evil: 1");
}

TEST_CASE("mail: a malformed mail URL stops Service::Open without echoing the password") {
  service::Options o;
  o.database_url = service::testing::FreshDatabaseUrl();
  o.db_pool_size = 2;
  o.mail_url = "smtp://user:Sup3rSecretPw@mail.example.com:99999";
  auto svc = service::Service::Open(o);
  REQUIRE_FALSE(svc.ok());
  CHECK(svc.status().code() == Code::kInvalidArgument);
  CHECK(svc.status().message().find("Sup3rSecretPw") == std::string::npos);
  CHECK(svc.status().message().find("SERVICE_MAIL_URL") != std::string::npos);
}

TEST_CASE("mail: the background worker delivers queued mail and shutdown is prompt" *
          doctest::skip(!SERVICE_HAS_CURL)) {
  SmtpServer srv;
  TestService t(WithMail(SmtpUrl(srv)));
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  REQUIRE(t.service().StartWorkers().ok());
  REQUIRE(Enqueue(core, {"ada@example.com", "From the worker", "Body"}).ok());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (srv.messages().empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(srv.messages().size() == 1);
  CHECK(Parse(srv.messages()[0].data).Get("subject") == "From the worker");

  const auto before = std::chrono::steady_clock::now();
  t.service().Shutdown();
  // The contract bounds shutdown at 10 s; a slow relay must not hold it up.
  CHECK(std::chrono::steady_clock::now() - before < std::chrono::seconds(10));
}
