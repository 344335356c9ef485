// Mail: every account message the service sends (verification, password
// reset, invitations, waitlist, data export) goes through the outbox; alert
// emails are batches of their own (areas/triage/app/digests.h) sent through
// mailer(). A use case enqueues the message inside its own write
// transaction; the mail worker (registered by MailOutbox::RegisterWorker)
// delivers it through the configured provider (SERVICE_MAIL_URL: smtp://,
// smtps://, file:DIR) with retries and exponential backoff.
//
// Thread-safety: functions are safe from any thread.
#pragma once

#include <string>

#include <functional>

#include "app/workers.h"
#include "ports/ids.h"
#include "ports/outbox_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/mailer.h"
#include "service/status.h"

namespace service::app::mail {

struct MailMessage {
  std::string to;       // one address
  std::string subject;  // one line
  std::string text;     // plain-text body; links built from Options::EffectivePublicUrl()
};

// What the mail area needs. `mailer` is null when no provider is configured.
struct MailDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::OutboxRepository* outbox = nullptr;
  Mailer* mailer = nullptr;

  int64_t Now() const { return clock->NowMillis(); }
};

class MailOutbox {
 public:
  explicit MailOutbox(MailDeps deps) : deps_(deps) {}
  MailOutbox(const MailOutbox&) = delete;
  MailOutbox& operator=(const MailOutbox&) = delete;

  // True when a mail provider is configured.
  bool configured() const { return deps_.mailer != nullptr; }
  // The configured provider, or null. Alert email batches (areas/triage)
  // send through it directly: their states need each answer as it comes.
  Mailer* mailer() const { return deps_.mailer; }

  // Queues `message` in the outbox inside `tx` (REQUIRES: within a write
  // transaction). Without a provider: kUnavailable "Email delivery is not
  // configured", nothing written. `to` must be one valid address (else
  // kInvalidArgument); line breaks and other control characters in
  // `subject` become spaces (no header injection).
  Status Enqueue(ports::Tx& tx, const MailMessage& message) const;

  // Delivers the due mail once, on the caller's thread: claims due items
  // (batches of 20 under a 60 s lease) until none are left or `keep_going`
  // turns false, sends each, marks it done, retries it later (5 s *
  // 2^(attempts-1), at most 1 h) after a transient failure, or fails it for
  // good after a permanent one (SMTP 5xx). Returns a database failure;
  // delivery failures are recorded on the items. Without a provider:
  // kUnavailable. Tests call this instead of waiting on timers.
  Status RunOnce(const std::function<bool()>& keep_going = [] { return true; }) const;

  // Registers the sender on `workers` (every 200 ms); nothing without a
  // provider. On shutdown the last run sends nothing (the outbox is durable).
  void RegisterWorker(Workers& workers) const;

 private:
  MailDeps deps_;
};

}  // namespace service::app::mail
