// Service: opens the database, wires the ports and the API pipeline.
#include "service/service.h"

#include <mutex>

#include "api/pipeline.h"
#include "app/capture/runtime.h"
#include "app/core.h"
#include "app/demo/demo.h"
#include "app/mail/mail.h"
#include "store/migrations.h"
#include "util/crypto.h"

namespace service {

const char* Version() { return "0.1.0"; }

struct Service::Impl {
  app::Core core;
  std::unique_ptr<api::Pipeline> pipeline;
  std::mutex lifecycle_mu;
  bool shut_down = false;
};

Service::Service() : impl_(std::make_unique<Impl>()) {}

Service::~Service() { Shutdown(); }

Result<std::unique_ptr<Service>> Service::Open(Options options) {
  std::unique_ptr<Service> svc(new Service());
  app::Core& core = svc->impl_->core;
  core.options = std::move(options);
  core.clock = core.options.clock ? core.options.clock : SystemClock();
  core.ids = ports::NewSystemIds(core.clock);

  store::DatabaseOptions db_options;
  db_options.pool_size = core.options.db_pool_size;
  SV_ASSIGN_OR_RETURN(core.db, store::OpenDatabase(core.options.database_url, db_options));
  SV_RETURN_IF_ERROR(store::ApplyMigrations(*core.db));

  core.settings = ports::NewSqlSettingsRepository();
  core.outbox = ports::NewSqlOutboxRepository();
  core.projects = ports::NewSqlProjectRepository();
  core.capture_keys = ports::NewSqlCaptureKeyRepository();
  core.users = ports::NewSqlUserRepository();
  core.orgs = ports::NewSqlOrgRepository();
  core.memberships = ports::NewSqlMembershipRepository();
  core.sessions = ports::NewSqlSessionRepository();
  core.email_tokens = ports::NewSqlEmailTokenRepository();
  core.invitations = ports::NewSqlInvitationRepository();
  core.waitlist = ports::NewSqlWaitlistRepository();
  core.account_data = ports::NewSqlAccountDataRepository();
  core.bus = ports::NewInProcessEventBus();
  {
    ports::OutboundHttpOptions http_options;
    http_options.allow_private_destinations = core.options.allow_private_destinations;
    core.http = ports::NewCurlOutboundHttp(http_options);
    if (!core.options.ai.url.empty())
      core.ai = ports::NewOpenAiCompatibleProvider(core.options.ai, *core.http);
  }
  SV_RETURN_IF_ERROR(app::RegisterMailWorker(core));
  SV_RETURN_IF_ERROR(app::capture::Install(core));

  if (!core.options.jwt_secret.empty()) {
    core.jwt_secret = core.options.jwt_secret;
  } else {
    // Generated once and kept in the database so every process and restart
    // signs with the same secret.
    SV_ASSIGN_OR_RETURN(core.jwt_secret,
                        core.settings->GetOrInsert(*core.db, "jwt_secret",
                                                   util::HexEncode(core.ids->RandomBytes(32)), core.Now()));
  }

  svc->impl_->pipeline = std::make_unique<api::Pipeline>(core);
  api::RegisterAllRoutes(*svc->impl_->pipeline, core);
  return svc;
}

api::Response Service::Handle(const api::Request& request) { return impl_->pipeline->Handle(request); }

Status Service::StartWorkers() {
  std::lock_guard<std::mutex> lock(impl_->lifecycle_mu);
  if (impl_->shut_down) return Status(Code::kUnavailable, "service is shut down");
  impl_->core.workers.Start();
  return Status::Ok();
}

void Service::Shutdown() {
  std::lock_guard<std::mutex> lock(impl_->lifecycle_mu);
  if (impl_->shut_down) return;
  impl_->shut_down = true;
  impl_->core.workers.Stop();  // runs every task once more: flushes queued work
  if (impl_->core.db) impl_->core.db->Close();
}

Result<DemoCredentials> Service::SeedDemo() {
  SV_ASSIGN_OR_RETURN(app::DemoResult r, app::SeedDemo(impl_->core));
  return DemoCredentials{r.created, r.email, r.password, r.org_name, r.api_key, r.reports, r.bugs};
}

const Options& Service::options() const { return impl_->core.options; }
app::Core& Service::core() { return impl_->core; }

Status Migrate(const std::string& database_url) {
  SV_ASSIGN_OR_RETURN(auto db, store::OpenDatabase(database_url));
  Status s = store::ApplyMigrations(*db);
  db->Close();
  return s;
}

}  // namespace service
