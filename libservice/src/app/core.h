// Core: the wiring of one Service instance, shared by every use case and
// route. Owns the database, the ports and the repositories.
//
// Thread-safety: members are set once in Service::Open and then only read;
// each member documents its own thread-safety.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "app/workers.h"
#include "domain/auth/password.h"
#include "ports/account_data_repository.h"
#include "ports/ai_provider.h"
#include "ports/capture_bug_repository.h"
#include "ports/email_token_repository.h"
#include "ports/end_user_repository.h"
#include "ports/event_bus.h"
#include "ports/ids.h"
#include "ports/invitation_repository.h"
#include "ports/occurrence_repository.h"
#include "ports/org_repository.h"
#include "ports/outbound_http.h"
#include "ports/outbox_repository.h"
#include "ports/presence_repository.h"
#include "ports/project_repository.h"
#include "ports/session_repository.h"
#include "ports/settings_repository.h"
#include "ports/usage_repository.h"
#include "ports/user_repository.h"
#include "ports/waitlist_repository.h"
#include "service/clock.h"
#include "service/options.h"
#include "store/database.h"

namespace service::app {

namespace capture {
class Runtime;
}

// Called inside the ingest write transaction for every capture outcome
// (event types new_bug, duplicate, regression) with the event that is
// published on `bus` after the commit. This is where the integrations area
// enqueues webhook deliveries (OutboxRepository::Enqueue on `tx`), so a
// committed report never loses its webhook and a rolled-back one never sends
// it. A failure rolls the report back. Unset (the default): nothing is
// enqueued. REQUIRES: set before the service handles requests.
using CaptureOutboxHook = std::function<Status(store::Connection& tx, const ports::Event& event)>;

struct Core {
  Options options;
  std::shared_ptr<Clock> clock;
  std::unique_ptr<ports::Ids> ids;
  std::unique_ptr<store::Database> db;
  // Repositories (stateless SQL implementations over `db`).
  std::unique_ptr<ports::SettingsRepository> settings;
  std::unique_ptr<ports::OutboxRepository> outbox;
  std::unique_ptr<ports::ProjectRepository> projects;
  std::unique_ptr<ports::CaptureKeyRepository> capture_keys;
  // Accounts, organizations and sessions (app/auth, app/team).
  std::unique_ptr<ports::UserRepository> users;
  std::unique_ptr<ports::OrgRepository> orgs;
  std::unique_ptr<ports::MembershipRepository> memberships;
  std::unique_ptr<ports::SessionRepository> sessions;
  std::unique_ptr<ports::EmailTokenRepository> email_tokens;
  std::unique_ptr<ports::InvitationRepository> invitations;
  std::unique_ptr<ports::WaitlistRepository> waitlist;
  std::unique_ptr<ports::AccountDataRepository> account_data;

  // Capture: the ingest write (app/capture), set by capture::Install.
  std::unique_ptr<ports::CaptureBugRepository> capture_bugs;
  std::unique_ptr<ports::OccurrenceRepository> occurrences;
  std::unique_ptr<ports::EndUserRepository> end_users;
  std::unique_ptr<ports::PresenceRepository> presence;
  std::unique_ptr<ports::UsageRepository> usage;
  // Key cache, batched last_used, ip-hash secret (app/capture/runtime.h).
  std::shared_ptr<capture::Runtime> capture;
  CaptureOutboxHook capture_outbox_hook;

  std::unique_ptr<ports::EventBus> bus;
  // Outbound HTTP client (AI provider, webhooks); honours
  // options.allow_private_destinations. Always set.
  std::unique_ptr<ports::OutboundHttp> http;
  // The AI provider over `http`; null when options.ai.url is empty.
  std::unique_ptr<ports::AiProvider> ai;

  std::string jwt_secret;  // loaded or generated at open; never logged
  // scrypt cost for new password hashes (and the login timing decoy).
  // Default: domain::ScryptParams{} (N = 2^15). Tests lower it after Open.
  domain::ScryptParams password_params;
  std::string service_name = "service";
  // Background jobs; areas register their tasks at open.
  Workers workers;

  int64_t Now() const { return clock->NowMillis(); }
};

}  // namespace service::app
