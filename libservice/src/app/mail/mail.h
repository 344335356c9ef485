// Mail: every message the service sends goes through the outbox. A use case
// enqueues the message inside its own write transaction; the mail worker
// (registered on Core::workers by RegisterMailWorker) delivers it through the
// configured provider (SERVICE_MAIL_URL: smtp://, smtps://, file:DIR) with
// retries and exponential backoff.
//
// Thread-safety: functions are safe from any thread.
#pragma once

#include <string>

#include "app/core.h"
#include "service/status.h"
#include "store/database.h"

namespace service::app {

struct MailMessage {
  std::string to;       // one address
  std::string subject;  // one line
  std::string text;     // plain-text body; links built from Options::EffectivePublicUrl()
};

// True when a mail provider is configured.
bool MailConfigured(const Core& core);

// Queues `message` in the outbox inside `tx` (REQUIRES: within Database::Write).
// Without a provider: kUnavailable "Email delivery is not configured", nothing written.
// `to` must be one valid address (else kInvalidArgument); line breaks and other
// control characters in `subject` become spaces (no header injection).
Status EnqueueMail(Core& core, store::Connection& tx, const MailMessage& message);

// Validates the mail URL and registers the sender on core.workers. Called once
// by Service::Open; does nothing when no provider is configured.
Status RegisterMailWorker(Core& core);

// Delivers the due mail once, on the caller's thread: claims due items (batches
// of 20 under a 60 s lease) until none are left, sends each, marks it done,
// retries it later (5 s * 2^(attempts-1), at most 1 h, from core.Now()) after a
// transient failure, or fails it for good after a permanent one (SMTP 5xx).
// Returns a database failure; delivery failures are recorded on the items.
// Without a provider: kUnavailable. Tests call this instead of waiting on timers.
Status RunMailOnce(Core& core);

}  // namespace service::app
