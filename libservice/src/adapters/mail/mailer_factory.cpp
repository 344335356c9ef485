// ports::NewMailer: picks the provider named by the mail URL.
#include "adapters/mail/mail_url.h"
#include "adapters/mail/mailers.h"
#include "ports/mailer.h"
#include "util/strings.h"

namespace service::ports {

Result<std::unique_ptr<Mailer>> NewMailer(const MailerOptions& options) {
  using namespace adapters::mail;
  SV_ASSIGN_OR_RETURN(MailUrl url, ParseMailUrl(options.url));
  SV_ASSIGN_OR_RETURN(Mailbox from, SenderMailbox(url, options.public_url));
  // Message-IDs and EHLO name the sender's domain when it looks like a host name.
  std::string domain = from.address.substr(from.address.rfind('@') + 1);
  if (SenderDomain("x://" + domain) != util::ToLower(domain)) domain = SenderDomain(options.public_url);
  if (url.scheme == MailScheme::kFile)
    return NewFileMailer(std::move(url), std::move(from), std::move(domain));
#if SERVICE_HAS_CURL
  const int64_t timeout_ms = url.timeout_ms.value_or(options.timeout_ms);
  return NewSmtpMailer(std::move(url), std::move(from), std::move(domain), timeout_ms);
#else
  return InvalidArgument(
      "SERVICE_MAIL_URL: this build has no SMTP support (rebuild with libcurl4-openssl-dev installed and "
      "SERVICE_USE_CURL_IF_AVAILABLE=ON); use file:DIR or supply a Mailer through Options::mailer");
#endif
}

}  // namespace service::ports
