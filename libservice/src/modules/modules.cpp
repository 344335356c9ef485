// The one list of areas. Adding an area: its module here, one line.
#include "modules/modules.h"

#include "modules/ai.h"
#include "modules/bugs.h"
#include "modules/health.h"
#include "modules/integrations.h"
#include "modules/projects.h"
#include "modules/sentry.h"
#include "modules/stream.h"
#include "modules/triage.h"

namespace service::modules {
namespace {

template <typename M, typename... Args>
M* Add(Modules& m, Args&&... args) {
  auto module = std::make_unique<M>(std::forward<Args>(args)...);
  M* raw = module.get();
  m.all.push_back(std::move(module));
  return raw;
}

}  // namespace

Modules AssembleModules() {
  Modules m;
  m.mail = Add<MailModule>(m);
  Add<HealthModule>(m);
  m.accounts = Add<AccountsModule>(m);
  m.capture = Add<CaptureModule>(m);
  Add<ProjectsModule>(m, *m.capture);
  Add<SentryModule>(m, *m.capture);
  AiModule* ai = Add<AiModule>(m);
  BugsModule* bugs = Add<BugsModule>(m, *m.capture);
  m.triage = Add<TriageModule>(m, *bugs, *ai);
  m.integrations = Add<IntegrationsModule>(m, *bugs, *m.triage);
  Add<StreamModule>(m, *m.accounts);
  m.demo = Add<DemoModule>(m, *m.accounts, *m.capture);
  return m;
}

}  // namespace service::modules
