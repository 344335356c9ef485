// Service: the embeddable issue capture and triage service.
//
// Open a Service on a database URL, hand it HTTP requests (service/http.h),
// and write back its responses. Background work (mail, deliveries, presence
// expiry, batched bookkeeping) runs on threads started by StartWorkers, so an
// embedder gets it too.
//
//   auto svc = service::Service::Open(options);      // applies migrations
//   if (!svc.ok()) ...;
//   (*svc)->StartWorkers();
//   service::api::Response res = (*svc)->Handle(request);
//   (*svc)->Shutdown();                              // flushes queued work
//
// Thread-safety: Handle may be called from many threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "service/http.h"
#include "service/options.h"
#include "service/status.h"

namespace service {

// Library version, e.g. "0.1.0".
const char* Version();

namespace modules {
struct Platform;
struct Modules;
}  // namespace modules
namespace api {
class Pipeline;
}  // namespace api
class Service;
namespace internal {
modules::Platform& PlatformOf(Service& s);
modules::Modules& ModulesOf(Service& s);
api::Pipeline& PipelineOf(Service& s);
}  // namespace internal

// What `--demo` created (see Service::SeedDemo).
struct DemoCredentials {
  bool created = false;  // false: the database was not empty
  std::string email;
  std::string password;
  std::string org_name;
  std::string api_key;
  int reports = 0;
  int bugs = 0;
  std::string dsn;  // the key as a Sentry SDK's DSN
};

class Service {
 public:
  // Opens the database, applies pending migrations, loads or creates the
  // signing secret and registers every route. On a SQLite file, first claims
  // it for the Service's life (one process, and one Service, per file: the
  // workers assume they are alone): kConflict naming the file, its lock file
  // "<file>.lock" and the holder's pid when another process or another
  // Service of this process has it open. PostgreSQL takes no claim (several
  // processes on one database are supported).
  static Result<std::unique_ptr<Service>> Open(Options options);
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;
  ~Service();  // calls Shutdown()

  // Answers one request. Never throws.
  api::Response Handle(const api::Request& request);

  // How the route `method` `path` (the path without the query, as received)
  // takes its body: its limit and whether the shell spools it to a file
  // (api::BodyPolicy). Routes without a policy, and paths no route matches:
  // api::kMaxBodyBytes, in memory. Shells ask once a request's headers are
  // in, before reading its body.
  api::BodyPolicy BodyPolicyFor(std::string_view method, std::string_view path) const;

  // Starts the background workers. Idempotent.
  Status StartWorkers();
  // Stops workers after flushing queued work to the database. Idempotent.
  void Shutdown();

  // On an empty database, creates a demo organization with a verified admin
  // and a few hundred sample reports sent through the capture pipeline.
  // Does nothing (created == false) when any organization exists.
  Result<DemoCredentials> SeedDemo();

  const Options& options() const;

  // The service's metrics in the Prometheus text exposition format (0.0.4;
  // content type "text/plain; version=0.0.4; charset=utf-8"): what GET
  // /metrics answers (with SERVICE_METRICS_TOKEN), for an embedder that
  // serves them its own way. Safe from any thread.
  std::string MetricsText() const;
  // Adds a gauge the embedder measures (e.g. its transport's open
  // connections): `read` is called at every scrape, from any thread, while
  // the service lives. `name` must follow the Prometheus naming rules and be
  // unused. Call before serving.
  void AddMetricsGauge(std::string name, std::string help, std::function<double()> read);

 private:
  explicit Service(Options options);
  // The library's own tests reach the inside through service_internal.h.
  friend modules::Platform& internal::PlatformOf(Service& s);
  friend modules::Modules& internal::ModulesOf(Service& s);
  friend api::Pipeline& internal::PipelineOf(Service& s);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Applies pending migrations to `database_url` and returns. On a SQLite file
// it claims the file as Service::Open does (kConflict while a server runs).
Status Migrate(const std::string& database_url);

// What Backup or Restore did.
struct DatabaseCopy {
  std::string database;           // the database file
  std::string file;               // the backup file
  int64_t pages = 0;              // pages of the copy
  int64_t bytes = 0;              // pages * page size
  int steps = 0;                  // backup steps (Backup only)
  int64_t migration_version = 0;  // the copy's newest migration
  std::string migration_name;
  int64_t migrations_known = 0;  // the newest version this binary knows
};

// Copies the SQLite database `database_url` into the new file `to_path`
// while a server may be writing to it (SQLite's online backup API, one
// snapshot, `pages_per_step` pages per step), then checks the copy (PRAGMA
// integrity_check, its migration version equal to the snapshot's and known
// to this binary) before it takes its name. Needs no claim: it reads as any
// reader does. kInvalidArgument for PostgreSQL (use pg_dump), an in-memory
// database, a missing database or an existing `to_path`.
Result<DatabaseCopy> Backup(const std::string& database_url, const std::string& to_path,
                            int pages_per_step = 256);

// Puts the backup `from_path` in place of the SQLite database `database_url`
// (created when missing): claims the file (kConflict while a server holds
// it), checks the backup (integrity, a migration version this binary
// knows: an older one is migrated at the next start), copies it in one
// transaction. kInvalidArgument for PostgreSQL.
Result<DatabaseCopy> Restore(const std::string& from_path, const std::string& database_url);

}  // namespace service
