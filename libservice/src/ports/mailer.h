// Mailer: hands one finished message to the configured mail provider (an SMTP
// relay, or a folder of .eml files). The adapter owns the wire format (RFC 5322
// headers, encodings, CRLF); callers pass plain fields.
//
// Failure is classified so the mail worker knows whether to try again:
//   - transient (IsPermanentMailFailure false): connection refused or timed
//     out, TLS trouble, an SMTP 4xx reply, an authentication refusal (an
//     operator can fix the configuration), a full disk. Retry with backoff.
//   - permanent (IsPermanentMailFailure true): the relay answered 5xx to the
//     sender, the recipient or the message, or the message itself is invalid.
//     Retrying cannot help.
//   - outcome unknown (IsMailOutcomeUnknown true): the message was handed
//     over whole (after DATA's final dot) and no answer came back; see
//     service/mailer.h.
// Error messages never contain the provider's credentials.
//
// Thread-safety: Send may be called from several threads at once; each call
// uses its own connection.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "service/mailer.h"
#include "service/status.h"

namespace service::ports {

// The interface is public (service/mailer.h): embedders may supply their own.
using service::IsMailOutcomeUnknown;
using service::IsPermanentMailFailure;
using service::kMailOutcomeUnknown;
using service::kMailPermanentFailure;
using service::Mailer;
using service::OutcomeUnknownMailFailure;
using service::OutgoingMail;
using service::PermanentMailFailure;
using service::TransientMailFailure;

struct MailerOptions {
  // SERVICE_MAIL_URL: smtp://[user:pass@]host[:port][?from=...&timeout_ms=N],
  // smtps://..., or file:DIR[?from=...]. User and password are percent-decoded.
  std::string url;
  // The service's public URL; its host names the default sender
  // ("Service <no-reply@HOST>") and the Message-ID domain.
  std::string public_url;
  // Whole-exchange limit for one SMTP message. Default: 10 s; the URL's
  // timeout_ms parameter overrides it.
  int64_t timeout_ms = 10'000;
};

// Parses `options.url` and builds the provider. A malformed URL: kInvalidArgument
// whose message never repeats the URL (it may hold a password).
Result<std::unique_ptr<Mailer>> NewMailer(const MailerOptions& options);

}  // namespace service::ports
