// What the alert email tests share (tests/api/digests_test.cpp,
// alerts_email_test.cpp, notifications_test.cpp): a service whose mail goes
// to a local SMTP relay, and the triage area's mail workers run once on the
// test's thread.
#pragma once

#include <functional>

#include "areas/triage/app/triage.h"
#include "service/options.h"
#include "support/api_harness.h"
#include "support/smtp_server.h"

namespace service::testing {

// Options: SERVICE_MAIL_URL at `relay` (3 s timeouts), links to https://bugs.example.com.
std::function<void(Options&)> WithSmtpRelay(const SmtpServer& relay);

// The running service's triage dependencies (its workers' steps take them).
const app::triage::TriageDeps& TriageOf(TestService& t);

// One run of the digest-batches worker: every due batch is sent (REQUIREs success).
void SendAlertBatches(TestService& t);

// One run of the notification-digests worker: every due digest is queued as a batch.
void QueueDueDigests(TestService& t);

}  // namespace service::testing
