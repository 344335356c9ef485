#include "areas/mail/module.h"

#include "adapters/mail/mail_url.h"
#include "areas/mail/app/mail.h"
#include "util/strings.h"

namespace service {

Status ValidateMailUrl(std::string_view text) {
  // One parser for validation and delivery, so what starts is what sends.
  // Its messages name the variable and never repeat the URL (passwords).
  return adapters::mail::ParseMailUrl(text).status();
}

}  // namespace service

namespace service::modules {
namespace {

Status ApplyMailUrl(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (!trimmed.empty()) SV_RETURN_IF_ERROR(ValidateMailUrl(trimmed));
  options.mail_url = trimmed;
  return Status::Ok();
}

Status ApplyRequireEmailVerification(Options& options, std::string_view value) {
  const std::string var = "SERVICE_REQUIRE_EMAIL_VERIFICATION";
  const std::string trimmed = util::Trim(value);
  if (trimmed.empty()) {
    options.require_email_verification.reset();
    return Status::Ok();
  }
  SV_ASSIGN_OR_RETURN(options.require_email_verification, ParseSettingBool(var, value));
  return Status::Ok();
}

}  // namespace

void MailModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back(
      {"SERVICE_MAIL_URL", "", "",
       "smtp://user:pass@host:port, smtps://user:pass@host:port, or file:DIR (one .eml file per message)",
       "unset: no mail provider", ApplyMailUrl});
  rows.push_back({"SERVICE_REQUIRE_EMAIL_VERIFICATION", "", "", "1 or 0: login refuses unverified accounts",
                  "1 when a mail provider is set, else 0", ApplyRequireEmailVerification});
}

Status MailModule::Open(Platform& p) {
  app::mail::MailDeps deps;
  deps.db = p.tx.get();
  deps.clock = p.clock.get();
  deps.ids = p.ids.get();
  deps.outbox = p.outbox.get();
  deps.mailer = p.mailer.get();
  app::mail::MailOutbox* mail = p.Share(std::make_unique<app::mail::MailOutbox>(deps));
  mail->RegisterWorker(p.workers);
  return Status::Ok();
}

}  // namespace service::modules
