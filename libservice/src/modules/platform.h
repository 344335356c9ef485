// Platform: what Service::Open builds once and every area module may use:
// the database and its transactions, clock, ids, event bus, outbound HTTP,
// mailer, logger, background workers, deletion hooks, transactional events,
// the platform's repositories (settings, outbox), and what several areas
// share: each shared object is provided by the area that owns it
// (Module::Provide: accounts' users, organizations and memberships,
// projects' projects and keys, operations' usage counters, mail's outbox)
// and found by its type (Shared<T>), so the platform names no area. Modules copy what their use cases
// need into the area's own dependencies struct; no use case receives the
// Platform itself.
//
// Thread-safety: built and filled while the service is being assembled;
// read-only afterwards (each member documents its own thread-safety).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>

#include "app/deletion_hooks.h"
#include "app/transactional_events.h"
#include "app/workers.h"
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
#include "util/metrics.h"

namespace service::modules {

struct Platform {
  explicit Platform(Options o) : options(std::move(o)) {}

  Options options;
  // What GET /metrics shows: areas register their metrics and collectors
  // while they open (util/metrics.h).
  util::metrics::Registry metrics;
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

  // The platform's repositories (stateless).
  std::unique_ptr<ports::SettingsRepository> settings;
  std::unique_ptr<ports::OutboxRepository> outbox;

  // Shares `object` with every area under its type T (one per type; a
  // second replaces the first). Called by the owning area's Provide.
  template <typename T>
  T* Share(std::unique_ptr<T> object) {
    T* raw = object.get();
    shared_[std::type_index(typeid(T))] = std::shared_ptr<void>(std::move(object));
    return raw;
  }
  // The object of type T an area shared. None is a composition defect (an
  // area missing from the list, or used before it provides): it aborts.
  template <typename T>
  T* Shared() const {
    auto it = shared_.find(std::type_index(typeid(T)));
    if (it == shared_.end()) {
      std::fprintf(stderr, "platform: no area shares %s\n", typeid(T).name());
      std::abort();
    }
    return static_cast<T*>(it->second.get());
  }

  std::string jwt_secret;  // loaded or generated at open; never logged
  std::string service_name = "service";

  int64_t Now() const { return clock->NowMillis(); }

 private:
  std::map<std::type_index, std::shared_ptr<void>> shared_;
};

}  // namespace service::modules
