// Mailer: hands one finished message to a mail provider. The library builds
// one from Options::mail_url (an SMTP relay, or a folder of .eml files); an
// embedder may supply their own through Options::mailer (their mail API, a
// queue, a test double). The library keeps every message in its outbox and
// calls Send from its mail worker, retrying transient failures with backoff.
//
// Failure is classified so the mail worker knows whether to try again:
//   - transient (IsPermanentMailFailure false): connection refused or timed
//     out, TLS trouble, an SMTP 4xx reply, an authentication refusal (an
//     operator can fix the configuration), a full disk. Retried later.
//   - permanent (IsPermanentMailFailure true): the provider refused the
//     sender, the recipient or the message for good. Not retried.
//   - outcome unknown (IsMailOutcomeUnknown true): the whole message was
//     handed over (for SMTP: after the final "." of DATA) but the provider's
//     answer never arrived (the connection was lost or timed out). The
//     provider may or may not have accepted it. Alert email batches record
//     it as `outcome_unknown` and never resend it on their own; the generic
//     mail outbox (verification, invitations, ...) treats it as transient.
//     A mailer that cannot tell this case apart may report it as transient:
//     existing embedder mailers keep working unchanged.
// Error messages must never contain the provider's credentials.
//
// Thread-safety: Send may be called from several threads at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service {

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

// The error_code carried by a send whose outcome is unknown (see above).
inline constexpr const char* kMailOutcomeUnknown = "MAIL_OUTCOME_UNKNOWN";

inline Status OutcomeUnknownMailFailure(std::string message) {
  return Status(Code::kUnavailable, std::move(message), kMailOutcomeUnknown);
}
inline bool IsMailOutcomeUnknown(const Status& s) { return !s.ok() && s.error_code() == kMailOutcomeUnknown; }

class Mailer {
 public:
  Mailer() = default;
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;
  virtual ~Mailer() = default;

  // Delivers `mail` to the provider. OK: the provider accepted it.
  // Failure: see the classification above.
  virtual Status Send(const OutgoingMail& mail) = 0;

  // A short name for health checks and logs: "smtp", "smtps", "file", ...
  virtual std::string_view provider() const = 0;
};

}  // namespace service
