#include "support/alert_mail.h"

#include <doctest/doctest.h>

#include <string>

#include "areas/triage/app/digests.h"
#include "areas/triage/module.h"
#include "service_internal.h"

namespace service::testing {

std::function<void(Options&)> WithSmtpRelay(const SmtpServer& relay) {
  const std::string url = "smtp://" + relay.address() + "?timeout_ms=3000";
  return [url](Options& o) {
    o.mail_url = url;
    o.public_url = "https://bugs.example.com";
  };
}

const app::triage::TriageDeps& TriageOf(TestService& t) {
  return internal::ModulesOf(t.service()).Get<service::modules::TriageModule>().deps();
}

void SendAlertBatches(TestService& t) {
  const Status s = app::triage::SendDueBatches(TriageOf(t));
  REQUIRE_MESSAGE(s.ok(), s.ToString());
}

void QueueDueDigests(TestService& t) {
  const Status s = app::triage::SendDueDigests(TriageOf(t));
  REQUIRE_MESSAGE(s.ok(), s.ToString());
}

}  // namespace service::testing
