// The mail URL parser and RFC 5322 composition (adapters/mail).
#include <doctest/doctest.h>

#include "adapters/mail/mail_url.h"
#include "adapters/mail/message.h"
#include "ports/mailer.h"
#include "util/crypto.h"
#include "util/strings.h"

using namespace service::adapters::mail;
using service::Code;

TEST_CASE("mail URL: smtp credentials are percent-decoded and kept out of error messages") {
  auto u = ParseMailUrl(
      "smtp://us%40er:p%40ss%3Aw%2Fd@mail.example.com:2525?from=Desk%20%3Cdesk%40example.org%3E");
  REQUIRE(u.ok());
  CHECK(u->scheme == MailScheme::kSmtp);
  CHECK(u->host == "mail.example.com");
  CHECK(u->port == 2525);
  CHECK(u->has_credentials);
  CHECK(u->user == "us@er");
  CHECK(u->password == "p@ss:w/d");
  CHECK(u->from == "Desk <desk@example.org>");

  auto raw_at = ParseMailUrl("smtps://user:pa@ss@[::1]:465/");
  REQUIRE(raw_at.ok());
  CHECK(raw_at->scheme == MailScheme::kSmtps);
  CHECK(raw_at->password == "pa@ss");
  CHECK(raw_at->host == "[::1]");
  CHECK(raw_at->port == 465);

  auto relay = ParseMailUrl("smtp://localhost");
  REQUIRE(relay.ok());
  CHECK_FALSE(relay->has_credentials);
  CHECK(relay->port == 0);

  for (const char* bad :
       {"smtp://user:TopSecret1@host:0", "smtp://user:TopSecret1@host:99999", "smtp://user:TopSecret1@",
        "smtp://user:TopSecret1@ho st", "imap://user:TopSecret1@host", "smtp://user:TopSecret1@host?bogus=1",
        "smtp://:TopSecret1@host", "smtp://user:TopSecret1@host?from=nobody",
        "smtp://user:TopSecret1@host/path"}) {
    CAPTURE(bad);
    auto r = ParseMailUrl(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kInvalidArgument);
    CHECK(r.status().message().find("TopSecret1") == std::string::npos);
  }
}

TEST_CASE("mail URL: file folders, with and without a from= parameter") {
  auto plain = ParseMailUrl("file:/var/mail/out");
  REQUIRE(plain.ok());
  CHECK(plain->scheme == MailScheme::kFile);
  CHECK(plain->dir == "/var/mail/out");
  CHECK(ParseMailUrl("file:///srv/mail")->dir == "/srv/mail");
  CHECK(ParseMailUrl("file:relative/dir?from=a%40b.example")->dir == "relative/dir");
  CHECK(ParseMailUrl("file:relative/dir?from=a%40b.example")->from == "a@b.example");
  CHECK(ParseMailUrl("file:odd?name")->dir == "odd?name");  // not parameters: part of the folder
  CHECK_FALSE(ParseMailUrl("file:").ok());
}

TEST_CASE("mail: the default sender names the public URL's host") {
  CHECK(SenderDomain("https://Bugs.Example.com:8443/base") == "bugs.example.com");
  CHECK(SenderDomain("http://127.0.0.1:8080") == "localhost");
  CHECK(SenderDomain("http://[::1]:8080") == "localhost");
  auto box = SenderMailbox(*ParseMailUrl("smtp://relay"), "https://bugs.example.com");
  REQUIRE(box.ok());
  CHECK(FormatMailbox(*box) == "Service <no-reply@bugs.example.com>");
  CHECK(FormatMailbox({"Ops, Inc.", "ops@example.com"}) == "\"Ops, Inc.\" <ops@example.com>");
  CHECK(FormatMailbox({"", "ops@example.com"}) == "ops@example.com");
  CHECK(FormatMailbox({"Zoë", "z@example.com"}) == "=?utf-8?B?Wm/Dqw==?= <z@example.com>");
}

TEST_CASE("mail: RFC 5322 dates") {
  CHECK(FormatRfc5322Date(0) == "Thu, 01 Jan 1970 00:00:00 +0000");
  CHECK(FormatRfc5322Date(1768471200000) == "Thu, 15 Jan 2026 10:00:00 +0000");
  CHECK(FormatRfc5322Date(951782400000 + 86399999) == "Tue, 29 Feb 2000 23:59:59 +0000");
}

TEST_CASE("mail: subjects are one header line, folded or RFC 2047 encoded") {
  CHECK(EncodeUnstructured("Verify your email", 7) == "Verify your email");
  CHECK(EncodeUnstructured("a\r\nBcc: x@y.z", 7) == "a Bcc: x@y.z");
  const std::string long_ascii(30, 'a');
  const std::string folded = EncodeUnstructured(long_ascii + " " + long_ascii + " " + long_ascii, 7);
  CHECK(folded == long_ascii + " " + long_ascii + "\r\n " + long_ascii);
  // Looks like an encoded word: encoded so readers do not decode it.
  CHECK(EncodeUnstructured("=?utf-8?B?QQ==?=", 7).rfind("=?utf-8?B?", 0) == 0);

  const std::string utf8 = "Überprüfung ✓ — ein ziemlich langer Betreff mit Umlauten äöü und mehr Text";
  const std::string enc = EncodeUnstructured(utf8, 7);
  std::string decoded;
  size_t pos = 0;
  while ((pos = enc.find("=?utf-8?B?", pos)) != std::string::npos) {
    const size_t end = enc.find("?=", pos + 10);
    std::string bytes;
    REQUIRE(service::util::Base64UrlDecode(enc.substr(pos + 10, end - pos - 10), &bytes));
    CHECK(service::util::IsValidUtf8(bytes));  // split at character boundaries
    decoded += bytes;
    pos = end + 2;
  }
  CHECK(decoded == utf8);
  for (size_t start = 0, eol; start < enc.size(); start = eol + 2) {
    eol = enc.find("\r\n", start);
    if (eol == std::string::npos) eol = enc.size();
    CHECK(eol - start <= 76);
  }
}

TEST_CASE("mail: composed messages") {
  service::ports::OutgoingMail mail{"0190a0b0-0000-7000-8000-000000000001", "ada@example.com", "Hi",
                                    "line one\nline two", 1768471200000};
  auto m = ComposeMessage(mail, {"Service", "no-reply@example.com"}, "example.com");
  REQUIRE(m.ok());
  CHECK(*m ==
        "From: Service <no-reply@example.com>\r\n"
        "To: ada@example.com\r\n"
        "Subject: Hi\r\n"
        "Date: Thu, 15 Jan 2026 10:00:00 +0000\r\n"
        "Message-ID: <0190a0b0-0000-7000-8000-000000000001@example.com>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "Content-Transfer-Encoding: 7bit\r\n"
        "\r\n"
        "line one\r\nline two\r\n");

  mail.text = std::string(1200, 'x') + "=\n";
  m = ComposeMessage(mail, {"", "no-reply@example.com"}, "example.com");
  REQUIRE(m.ok());
  CHECK(m->find("Content-Transfer-Encoding: quoted-printable\r\n") != std::string::npos);
  const std::string body = m->substr(m->find("\r\n\r\n") + 4);
  for (size_t start = 0, eol; (eol = body.find("\r\n", start)) != std::string::npos; start = eol + 2)
    CHECK(eol - start <= 76);
  CHECK(body.find("=3D\r\n") != std::string::npos);

  mail.to = "ada@example.com\r\nBcc: eve@example.com";
  auto bad = ComposeMessage(mail, {"", "no-reply@example.com"}, "example.com");
  REQUIRE_FALSE(bad.ok());
  CHECK(service::ports::IsPermanentMailFailure(bad.status()));
}

TEST_CASE("mail: quoted-printable keeps trailing white space visible") {
  CHECK(QuotedPrintable("a \r\nb\t\r\n") == "a=20\r\nb=09\r\n");
  CHECK(QuotedPrintable("é=") == "=C3=A9=3D");
}
