// Service: builds the shared ports once (modules/platform.h) and assembles
// the area modules from one list (modules/modules.cpp).
#include "service/service.h"

#include <mutex>
#include <optional>
#include <string_view>

#include "api/console.h"
#include "api/pipeline.h"
#include "app/retention.h"
#include "area_list.h"
#include "areas/accounts/store/repositories.h"
#include "areas/demo/module.h"
#include "areas/operations/store/repositories.h"
#include "areas/projects/store/repositories.h"
#include "ports/mailer.h"
#include "service_internal.h"
#include "store/migrations.h"
#include "store/repositories.h"
#include "store/sqlite/sqlite_files.h"
#include "util/crypto.h"
#include "util/mutex.h"

namespace service {

const char* Version() { return "0.1.0"; }

struct Service::Impl {
  explicit Impl(Options options) : platform(std::move(options)) {}

  // The claim on a SQLite file; first, so it is released last.
  std::unique_ptr<store::SqliteFileOwner> owner;
  modules::Platform platform;
  modules::Modules modules;
  std::unique_ptr<api::Console> console;  // the web console's files (SERVICE_CONSOLE)
  std::unique_ptr<api::Pipeline> pipeline;
  util::Mutex lifecycle_mu;
  bool shut_down SV_GUARDED_BY(lifecycle_mu) = false;
};

Service::Service(Options options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Service::~Service() { Shutdown(); }

namespace {

// The shared ports every module may use.
Status BuildPlatform(modules::Platform& p) {
  const Options& o = p.options;
  p.clock = o.clock ? o.clock : SystemClock();
  p.log = o.logger ? o.logger : NewJsonLinesLogger();
  p.workers.SetLogger(p.log.get());
  p.ids = ports::NewSystemIds(p.clock);

  store::DatabaseOptions db_options;
  db_options.pool_size = o.db_pool_size;
  SV_ASSIGN_OR_RETURN(p.db, store::OpenDatabase(o.database_url, db_options));
  SV_RETURN_IF_ERROR(store::ApplyMigrations(*p.db));
  p.tx = store::NewTransactions(*p.db);

  p.bus = store::NewEventBus(o.database_url, util::HexEncode(p.ids->RandomBytes(8)), p.log.get());
  ports::OutboundHttpOptions http_options;
  http_options.allow_private_destinations = o.allow_private_destinations;
  p.http = ports::NewCurlOutboundHttp(http_options);
  if (o.mailer) {
    p.mailer = o.mailer;
  } else if (!o.mail_url.empty()) {
    ports::MailerOptions mail_options;
    mail_options.url = o.mail_url;
    mail_options.public_url = o.EffectivePublicUrl();
    SV_ASSIGN_OR_RETURN(std::unique_ptr<Mailer> mailer, ports::NewMailer(mail_options));
    p.mailer = std::move(mailer);
  }

  p.settings = store::NewSqlSettingsRepository();
  p.outbox = store::NewSqlOutboxRepository();
  // Outbox work done or failed for good is deleted after
  // retention.outbox_ms (SERVICE_RETENTION outbox; README "Retention").
  modules::Platform* platform = &p;
  p.workers.Add("outbox-retention", app::kRetentionSweepIntervalMs, [platform] {
    const int64_t before = platform->Now() - platform->options.retention.outbox_ms;
    return app::SweepInBatches(*platform->tx, kRetentionBatchRows,
                               [&](ports::Tx& tx, int64_t limit) {
                                 return platform->outbox->DeleteFinished(tx, before, limit);
                               })
        .status();
  });

  if (!o.jwt_secret.empty()) {
    p.jwt_secret = o.jwt_secret;
  } else {
    // Generated once and kept in the database so every process and restart
    // signs with the same secret.
    SV_ASSIGN_OR_RETURN(
        p.jwt_secret,
        p.settings->GetOrInsert(*p.tx, "jwt_secret", util::HexEncode(p.ids->RandomBytes(32)), p.Now()));
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Service>> Service::Open(Options options) {
  std::unique_ptr<Service> svc(new Service(std::move(options)));
  Impl& impl = *svc->impl_;
  modules::Platform& p = impl.platform;
  if (const auto file = store::SqliteFilePath(p.options.database_url)) {
    SV_ASSIGN_OR_RETURN(impl.owner, store::ClaimSqliteFile(*file));
  }
  SV_RETURN_IF_ERROR(BuildPlatform(p));

  impl.modules = modules::AssembleModules();
  for (const auto& m : impl.modules.all) m->Provide(p);
  for (const auto& m : impl.modules.all) {
    Status st = m->Open(p);
    if (!st.ok()) return Status(st.code(), std::string(m->name()) + ": " + st.message());
  }

  api::PipelineDeps pipeline;
  pipeline.clock = p.clock.get();
  pipeline.ids = p.ids.get();
  pipeline.log = p.log.get();
  pipeline.cors = p.options.cors;
  pipeline.trust_proxy = p.options.trust_proxy;
  pipeline.rate_limits = p.options.rate_limits;
  pipeline.metrics = &p.metrics;
#if SERVICE_HAS_CONSOLE
  impl.console = std::make_unique<api::Console>(api::EmbeddedConsoleAssets());
  pipeline.console = impl.console.get();
#endif
  impl.pipeline = std::make_unique<api::Pipeline>(std::move(pipeline));
  for (const auto& m : impl.modules.all) m->RegisterRoutes(*impl.pipeline);
  return svc;
}

api::Response Service::Handle(const api::Request& request) { return impl_->pipeline->Handle(request); }

api::BodyPolicy Service::BodyPolicyFor(std::string_view method, std::string_view path) const {
  return impl_->pipeline->router().BodyPolicyFor(method, path);
}

Status Service::StartWorkers() {
  util::MutexLock lock(&impl_->lifecycle_mu);
  if (impl_->shut_down) return Status(Code::kUnavailable, "service is shut down");
  impl_->platform.workers.Start();
  return Status::Ok();
}

void Service::Shutdown() {
  util::MutexLock lock(&impl_->lifecycle_mu);
  if (impl_->shut_down) return;
  impl_->shut_down = true;
  impl_->platform.workers.Stop();  // runs every task once more: flushes queued work
  if (impl_->platform.db) impl_->platform.db->Close();
}

Result<DemoCredentials> Service::SeedDemo() {
  SV_ASSIGN_OR_RETURN(app::demo::DemoResult r, impl_->modules.Get<modules::DemoModule>().Seed());
  return DemoCredentials{r.created, r.email, r.password, r.org_name, r.api_key, r.reports, r.bugs, r.dsn};
}

const Options& Service::options() const { return impl_->platform.options; }

std::string Service::MetricsText() const { return impl_->platform.metrics.RenderText(); }

void Service::AddMetricsGauge(std::string name, std::string help, std::function<double()> read) {
  impl_->platform.metrics.AddCollector([name = std::move(name), help = std::move(help),
                                        read = std::move(read)](std::vector<util::metrics::Family>& out) {
    util::metrics::Family f{name, help, util::metrics::Type::kGauge, {}};
    f.samples.push_back({{}, read()});
    out.push_back(std::move(f));
  });
}

Status Migrate(const std::string& database_url) {
  std::unique_ptr<store::SqliteFileOwner> owner;
  if (const auto file = store::SqliteFilePath(database_url)) {
    SV_ASSIGN_OR_RETURN(owner, store::ClaimSqliteFile(*file));
  }
  SV_ASSIGN_OR_RETURN(auto db, store::OpenDatabase(database_url));
  Status s = store::ApplyMigrations(*db);
  db->Close();
  return s;
}

namespace {

// The SQLite file of `url` for Backup and Restore, or why there is none.
Result<std::string> CopyableFile(const std::string& url, std::string_view command) {
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) {
    return InvalidArgument(command == "backup"
                               ? "backup copies SQLite files; for PostgreSQL use pg_dump (e.g. pg_dump "
                                 "--format=custom --file=FILE URL)"
                               : "restore copies SQLite files; for PostgreSQL restore a pg_dump archive with "
                                 "pg_restore (e.g. pg_restore --clean --dbname=URL FILE)");
  }
  std::optional<std::string> file = store::SqliteFilePath(url);
  if (!file) {
    return InvalidArgument(std::string(command) + " needs a SQLite file: --database sqlite:PATH (not " +
                           (url.rfind("sqlite:", 0) == 0 ? "an in-memory database" : "this URL") + ")");
  }
  return *file;
}

DatabaseCopy Describe(const store::SqliteCopyReport& r, std::string database, std::string file) {
  DatabaseCopy copy;
  copy.database = std::move(database);
  copy.file = std::move(file);
  copy.pages = r.pages;
  copy.bytes = r.pages * r.page_size;
  copy.steps = r.steps;
  copy.migration_version = r.migration_version;
  copy.migration_name = r.migration_name;
  copy.migrations_known = static_cast<int64_t>(store::AllMigrations().size());
  return copy;
}

}  // namespace

Result<DatabaseCopy> Backup(const std::string& database_url, const std::string& to_path, int pages_per_step) {
  SV_ASSIGN_OR_RETURN(std::string file, CopyableFile(database_url, "backup"));
  SV_ASSIGN_OR_RETURN(store::SqliteCopyReport r, store::BackupSqlite(file, to_path, pages_per_step));
  DatabaseCopy copy = Describe(r, file, to_path);
  if (copy.migration_version > copy.migrations_known) {
    // Copied and intact, but a newer binary's: say so rather than fail.
    copy.migration_name += " (newer than this binary)";
  }
  return copy;
}

Result<DatabaseCopy> Restore(const std::string& from_path, const std::string& database_url) {
  SV_ASSIGN_OR_RETURN(std::string file, CopyableFile(database_url, "restore"));
  SV_ASSIGN_OR_RETURN(std::unique_ptr<store::SqliteFileOwner> owner, store::ClaimSqliteFile(file));
  SV_ASSIGN_OR_RETURN(store::SqliteCopyReport checked, store::CheckSqliteFile(from_path));
  const auto known = static_cast<int64_t>(store::AllMigrations().size());
  if (checked.migration_version > known) {
    return InvalidArgument(from_path + " holds migration version " +
                           std::to_string(checked.migration_version) + ", newer than this binary's " +
                           std::to_string(known) + ": restore it with the service-server that made it");
  }
  SV_ASSIGN_OR_RETURN(store::SqliteCopyReport r, store::RestoreSqlite(from_path, file));
  return Describe(r, file, from_path);
}

namespace internal {

modules::Platform& PlatformOf(Service& s) { return s.impl_->platform; }
modules::Modules& ModulesOf(Service& s) { return s.impl_->modules; }
api::Pipeline& PipelineOf(Service& s) { return *s.impl_->pipeline; }

}  // namespace internal

}  // namespace service
