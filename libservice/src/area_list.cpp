// The one list of areas (AssembleModules). Adding an area: its module here,
// one line.
#include "area_list.h"

#include "areas/accounts/module.h"
#include "areas/admin/module.h"
#include "areas/agent_tokens/module.h"
#include "areas/agent_work/module.h"
#include "areas/ai/module.h"
#include "areas/applications/module.h"
#include "areas/bugs/module.h"
#include "areas/capture/module.h"
#include "areas/demo/module.h"
#include "areas/evidence/module.h"
#include "areas/handoff/module.h"
#include "areas/health/module.h"
#include "areas/integrations/module.h"
#include "areas/mail/module.h"
#include "areas/mcp/module.h"
#include "areas/metrics/module.h"
#include "areas/openapi/module.h"
#include "areas/operations/module.h"
#include "areas/portfolio/module.h"
#include "areas/projects/module.h"
#include "areas/recommendations/module.h"
#include "areas/sentry/module.h"
#include "areas/sourcemaps/module.h"
#include "areas/stream/module.h"
#include "areas/support/module.h"
#include "areas/symbols/module.h"
#include "areas/tickets/module.h"
#include "areas/triage/module.h"
#include "areas/verification/module.h"

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
  Add<MetricsModule>(m);  // GET /metrics; the process, pool and outbox figures
  OperationsModule* operations = Add<OperationsModule>(m);
  AccountsModule* accounts = Add<AccountsModule>(m);
  Add<SupportModule>(m, *accounts);
  ProjectsModule* projects = Add<ProjectsModule>(m, *accounts);
  AgentTokensModule* agent_tokens = Add<AgentTokensModule>(m, *accounts, *operations);
  CaptureModule* capture = Add<CaptureModule>(m, *projects);
  SentryModule* sentry = Add<SentryModule>(m, *capture);
  ApplicationsModule* applications = Add<ApplicationsModule>(m, *capture);
  (void)applications;  // the verification and symbols areas take it
  EvidenceModule* evidence = Add<EvidenceModule>(m, *accounts, *capture);
  AiModule* ai = Add<AiModule>(m, *capture);  // scrubs what the provider is sent
  BugsModule* bugs = Add<BugsModule>(m, *capture);
  AgentWorkModule* agent_work = Add<AgentWorkModule>(m, *bugs);
  Add<VerificationModule>(m, *bugs, *agent_work, *evidence);
  Add<SymbolsModule>(m, *applications);
  Add<SourcemapsModule>(m, *sentry);  // hands its frame resolver to sentry
  TriageModule* triage = Add<TriageModule>(m, *bugs, *ai);
  TicketsModule* tickets = Add<TicketsModule>(m, *bugs, *triage);
  tickets->SetAgentTokenCheck(agent_tokens->TicketAgentCheck());  // X-Agent-Token (development)
  Add<PortfolioModule>(m, *bugs);
  IntegrationsModule* integrations = Add<IntegrationsModule>(m, *bugs, *triage);
  HandoffModule* handoff = Add<HandoffModule>(m, *bugs, *integrations);
  Add<RecommendationsModule>(m, *bugs, *integrations);  // recommended_bug
  Add<StreamModule>(m, *accounts);
  Add<DemoModule>(m, *accounts, *capture);
  Add<AdminModule>(m, *accounts);
  // Last: its tools use every area's use cases.
  Add<McpModule>(m, *bugs, *operations, *agent_work, *handoff, *evidence);
  // After every route: GET /v1/openapi.json describes the route table.
  Add<OpenApiModule>(m);
  return m;
}

}  // namespace service::modules

namespace service {

const std::vector<SettingInfo>& Settings() {
  // The one list of settings: --help, flag parsing, ApplySetting and the
  // README's configuration table (checked by a unit test) all come from it:
  // the platform's rows, then each area's, from modules that are never
  // opened.
  static const std::vector<SettingInfo> kSettings = [] {
    std::vector<SettingInfo> rows = modules::PlatformSettings();
    const modules::Modules areas = modules::AssembleModules();
    for (const auto& area : areas.all) area->AddSettings(rows);
    return rows;
  }();
  return kSettings;
}

}  // namespace service
