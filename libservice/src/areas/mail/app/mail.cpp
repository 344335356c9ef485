// Mail through the outbox: enqueue inside the caller's transaction, deliver
// from a worker with retries.
#include "areas/mail/app/mail.h"

#include <boost/json.hpp>
#include <functional>
#include <memory>

#include "ports/mailer.h"
#include "util/strings.h"

namespace service::app::mail {
namespace {

constexpr const char* kKind = "mail";
constexpr int64_t kIntervalMs = 200;
constexpr int64_t kLeaseMs = 60'000;
constexpr int kBatch = 20;
constexpr int kMaxBatchesPerRun = 50;
constexpr int64_t kFirstBackoffMs = 5'000;
constexpr int64_t kMaxBackoffMs = 3'600'000;

// CR, LF and other controls would end the Subject header: make them spaces.
std::string OneLine(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) c = ' ';
  }
  return out;
}

Status FailForGood(const MailDeps& deps, const ports::OutboxItem& item, const std::string& error) {
  return deps.outbox->MarkFailed(*deps.db, item, error, deps.Now());
}

Status Deliver(const MailDeps& deps, Mailer& mailer, const ports::OutboxItem& item) {
  ports::OutgoingMail mail;
  mail.id = item.id;
  boost::system::error_code ec;
  const boost::json::value payload = boost::json::parse(item.payload, ec);
  const boost::json::object* obj = ec ? nullptr : payload.if_object();
  auto field = [&](const char* name) -> const boost::json::string* {
    const boost::json::value* v = obj ? obj->if_contains(name) : nullptr;
    return v ? v->if_string() : nullptr;
  };
  const auto *to = field("to"), *subject = field("subject"), *text = field("text");
  if (!to || !subject || !text) return FailForGood(deps, item, "malformed mail payload");
  mail.to = std::string(*to);
  mail.subject = std::string(*subject);
  mail.text = std::string(*text);
  mail.date_ms = deps.Now();

  const Status sent = mailer.Send(mail);
  if (sent.ok()) return deps.outbox->MarkDone(*deps.db, item.id, deps.Now());
  if (ports::IsPermanentMailFailure(sent)) return FailForGood(deps, item, sent.message());
  const int64_t now = deps.Now();
  return deps.outbox->MarkRetry(*deps.db, item, sent.message(), now,
                                now + RetryBackoffMs(item.attempts, kFirstBackoffMs, kMaxBackoffMs));
}

// Claims and delivers due mail until none is left or `keep_going` says stop.
Status Drain(const MailDeps& deps, Mailer& mailer, const std::function<bool()>& keep_going) {
  for (int round = 0; round < kMaxBatchesPerRun; ++round) {
    if (!keep_going()) return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::vector<ports::OutboxItem> items,
                        deps.outbox->Claim(*deps.db, kKind, deps.Now(), kLeaseMs, kBatch));
    for (const ports::OutboxItem& item : items) {
      // On shutdown, stop between messages; the leased rest is retried when
      // its lease ends (here or by another process).
      if (!keep_going()) return Status::Ok();
      SV_RETURN_IF_ERROR(Deliver(deps, mailer, item));
    }
    if (static_cast<int>(items.size()) < kBatch) break;
  }
  return Status::Ok();
}

}  // namespace

Status MailOutbox::Enqueue(ports::Tx& tx, const MailMessage& message) const {
  if (!configured()) return Status::Public(Code::kUnavailable, "Email delivery is not configured");
  if (!util::IsValidEmail(message.to))
    return InvalidArgument("the mail recipient is not a valid email address");
  const boost::json::object payload{
      {"to", message.to}, {"subject", util::Trim(OneLine(message.subject))}, {"text", message.text}};
  return deps_.outbox->Enqueue(tx, deps_.ids->NewId(), kKind, boost::json::serialize(payload), deps_.Now());
}

void MailOutbox::RegisterWorker(Workers& workers) const {
  if (!configured()) return;
  Workers* w = &workers;
  workers.Add(kKind, kIntervalMs, [this, w] { return RunOnce([w] { return w->running(); }); });
}

Status MailOutbox::RunOnce(const std::function<bool()>& keep_going) const {
  if (!configured()) return Status::Public(Code::kUnavailable, "Email delivery is not configured");
  return Drain(deps_, *deps_.mailer, keep_going);
}

}  // namespace service::app::mail
