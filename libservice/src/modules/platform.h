// Platform: what Service::Open builds once and every area module may use:
// the database and its transactions, clock, ids, event bus, outbound HTTP,
// mailer, logger, background workers, deletion hooks, and the repositories
// of the few aggregates that several areas read or write (settings, outbox,
// accounts, projects and keys, usage). Modules copy what their use cases
// need into the area's own dependencies struct; no use case receives the
// Platform itself.
//
// Thread-safety: built and filled while the service is being assembled;
// read-only afterwards (each member documents its own thread-safety).
#pragma once

#include <memory>
#include <string>

#include "app/deletion_hooks.h"
#include "app/transactional_events.h"
#include "app/workers.h"
#include "areas/accounts/domain/password.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/mail/app/mail.h"
#include "areas/operations/ports/usage_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/event_bus.h"
#include "ports/ids.h"
#include "ports/outbound_http.h"
#include "ports/outbox_repository.h"
#include "ports/settings_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/mailer.h"
#include "service/options.h"
#include "store/database.h"

namespace service::modules {

struct Platform {
  explicit Platform(Options o) : options(std::move(o)) {}

  Options options;
  std::shared_ptr<Clock> clock;
  std::shared_ptr<Logger> log;
  std::unique_ptr<ports::Ids> ids;
  std::unique_ptr<store::Database> db;
  std::unique_ptr<store::DatabaseTransactions> tx;  // the application's view of db
  std::unique_ptr<ports::EventBus> bus;
  // Honours options.allow_private_destinations.
  std::unique_ptr<ports::OutboundHttp> http;
  std::shared_ptr<Mailer> mailer;  // null: no mail provider
  app::Workers workers;
  app::DeletionHooks deletion;
  app::TransactionalEvents events;  // subscribers called inside the writer's transaction

  // Shared repositories (stateless).
  std::unique_ptr<ports::SettingsRepository> settings;
  std::unique_ptr<ports::OutboxRepository> outbox;
  std::unique_ptr<ports::UserRepository> users;
  std::unique_ptr<ports::OrgRepository> orgs;
  std::unique_ptr<ports::MembershipRepository> memberships;
  std::unique_ptr<ports::ProjectRepository> projects;
  std::unique_ptr<ports::CaptureKeyRepository> capture_keys;
  std::unique_ptr<ports::UsageRepository> usage;

  // The outbox of mail, used by every area that sends mail.
  std::unique_ptr<app::MailOutbox> mail;

  std::string jwt_secret;  // loaded or generated at open; never logged
  // scrypt cost for new password hashes (and the login timing decoy).
  // Default: domain::ScryptParams{} (N = 2^15). Tests lower it after Open.
  domain::ScryptParams password_params;
  std::string service_name = "service";

  int64_t Now() const { return clock->NowMillis(); }
};

}  // namespace service::modules
