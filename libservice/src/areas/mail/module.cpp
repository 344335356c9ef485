#include "areas/mail/module.h"

namespace service::modules {

Status MailModule::Open(Platform& p) {
  app::MailDeps deps;
  deps.db = p.tx.get();
  deps.clock = p.clock.get();
  deps.ids = p.ids.get();
  deps.outbox = p.outbox.get();
  deps.mailer = p.mailer.get();
  p.mail = std::make_unique<app::MailOutbox>(deps);
  p.mail->RegisterWorker(p.workers);
  return Status::Ok();
}

}  // namespace service::modules
