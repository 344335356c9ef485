// The one list of areas. Adding an area: its module here, one line.
#include "modules/modules.h"

#include "areas/accounts/module.h"
#include "areas/ai/module.h"
#include "areas/bugs/module.h"
#include "areas/capture/module.h"
#include "areas/demo/module.h"
#include "areas/health/module.h"
#include "areas/integrations/module.h"
#include "areas/mail/module.h"
#include "areas/operations/module.h"
#include "areas/projects/module.h"
#include "areas/sentry/module.h"
#include "areas/stream/module.h"
#include "areas/triage/module.h"

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
  Add<MailModule>(m);
  Add<HealthModule>(m);
  Add<OperationsModule>(m);
  AccountsModule* accounts = Add<AccountsModule>(m);
  CaptureModule* capture = Add<CaptureModule>(m);
  Add<ProjectsModule>(m, *capture);
  Add<SentryModule>(m, *capture);
  AiModule* ai = Add<AiModule>(m);
  BugsModule* bugs = Add<BugsModule>(m, *capture);
  TriageModule* triage = Add<TriageModule>(m, *bugs, *ai);
  Add<IntegrationsModule>(m, *bugs, *triage);
  Add<StreamModule>(m, *accounts);
  Add<DemoModule>(m, *accounts, *capture);
  return m;
}

}  // namespace service::modules
