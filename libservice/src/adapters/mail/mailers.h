// The mail providers behind ports::Mailer (built by ports::NewMailer).
//
// SMTP (libcurl): smtp:// upgrades with STARTTLS when the relay offers it and
// stays plain otherwise (local relays, tests); smtps:// is implicit TLS with
// certificate verification. One connection per message.
// File: one RFC 5322 .eml file per message in a folder (created if missing),
// written under a hidden temporary name, synced, then renamed to
// "<id>.eml", so a reader never sees half a file and a retry of the same
// message replaces rather than duplicates it.
//
// Thread-safety: Send is safe from several threads at once.
#pragma once

#include <memory>

#include "adapters/mail/mail_url.h"
#include "ports/mailer.h"

namespace service::adapters::mail {

std::unique_ptr<ports::Mailer> NewSmtpMailer(MailUrl url, Mailbox from, std::string domain,
                                             int64_t timeout_ms);
std::unique_ptr<ports::Mailer> NewFileMailer(MailUrl url, Mailbox from, std::string domain);

}  // namespace service::adapters::mail
