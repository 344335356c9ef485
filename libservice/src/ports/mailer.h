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
// Error messages never contain the provider's credentials.
//
// Thread-safety: Send may be called from several threads at once; each call
// uses its own connection.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::ports {

struct OutgoingMail {
  std::string id;       // unique and stable across retries: Message-ID and file name
  std::string to;       // one bare address, e.g. "ada@example.com"
  std::string subject;  // one line of UTF-8
  std::string text;     // plain-text UTF-8 body (any line endings)
  int64_t date_ms = 0;  // Date header, Unix milliseconds
};

// The error_code carried by a permanent mail failure.
inline constexpr const char* kMailPermanentFailure = "MAIL_PERMANENT";

inline Status TransientMailFailure(std::string message) {
  return Status(Code::kUnavailable, std::move(message));
}
inline Status PermanentMailFailure(std::string message) {
  return Status(Code::kBadGateway, std::move(message), kMailPermanentFailure);
}
inline bool IsPermanentMailFailure(const Status& s) {
  return !s.ok() && s.error_code() == kMailPermanentFailure;
}

class Mailer {
 public:
  Mailer() = default;
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;
  virtual ~Mailer() = default;

  // Delivers `mail` to the provider. OK: the provider accepted it (the relay
  // answered 250 to the message, or the file is complete under its final
  // name). Failure: see the classification above.
  virtual Status Send(const OutgoingMail& mail) = 0;

  // "smtp", "smtps" or "file".
  virtual std::string_view provider() const = 0;
};

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
