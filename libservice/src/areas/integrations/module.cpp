#include "areas/integrations/module.h"

#include "app/retention.h"
#include "areas/integrations/api/routes.h"
#include "areas/integrations/store/repositories.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace service::modules {

namespace integrations = app::integrations;

namespace {

Status ApplySecretsKey(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (!trimmed.empty()) {
    std::string key;
    const bool hex = trimmed.size() == 64 && util::HexDecode(trimmed, &key);
    if (!hex) {
      key.clear();
      if (!util::Base64UrlDecode(trimmed, &key) || key.size() != 32) {
        return InvalidArgument("SERVICE_SECRETS_KEY must be 32 bytes written as 64 hex characters or base64");
      }
    }
  }
  options.secrets_key = trimmed;
  return Status::Ok();
}

Status ApplyRoutineFireUrl(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (!trimmed.empty() && !util::StartsWith(util::ToLower(trimmed), "https://")) {
    return InvalidArgument("SERVICE_ROUTINE_FIRE_URL must be an https URL, got " +
                           QuoteSettingValue(trimmed));
  }
  options.routine_fire_url = trimmed;
  return Status::Ok();
}

Status ApplyCodeHostApiUrl(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (!trimmed.empty()) {
    const std::string problem = CheckHttpUrl(trimmed, /*allow_path=*/true);
    if (!problem.empty()) {
      return InvalidArgument("SERVICE_CODE_HOST_API_URL " + problem + ", got " + QuoteSettingValue(trimmed));
    }
  }
  options.code_host_api_url = trimmed.empty() ? "https://api.github.com" : trimmed;
  return Status::Ok();
}

}  // namespace

void IntegrationsModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back(
      {"SERVICE_SECRETS_KEY", "", "",
       "AES-256-GCM key sealing integration secrets, bearer tokens and destination URLs at rest (64 hex "
       "characters or base64 of 32 bytes)",
       "unset: a key generated once and kept in the database", ApplySecretsKey});
  rows.push_back({"SERVICE_ROUTINE_FIRE_URL", "", "",
                  "the one https URL integrations with the code_agent_routine preset may post to",
                  "unset: preset refused", ApplyRoutineFireUrl});
  rows.push_back({"SERVICE_CODE_HOST_API_URL", "", "",
                  "GitHub-compatible REST API that code_host integrations open issues on",
                  "https://api.github.com", ApplyCodeHostApiUrl});
}

IntegrationsModule::~IntegrationsModule() {
  if (engine_) engine_->Stop();
  if (bus_ != nullptr && subscription_ != 0) bus_->Unsubscribe(subscription_);
}

Status IntegrationsModule::Open(Platform& p) {
  integrations_ = store::NewSqlIntegrationRepository();
  std::string key_text = p.options.secrets_key;
  if (key_text.empty()) {
    SV_ASSIGN_OR_RETURN(key_text, p.settings->GetOrInsert(*p.tx, "integration_secrets_key",
                                                          util::HexEncode(p.ids->RandomBytes(32)), p.Now()));
  }
  SV_ASSIGN_OR_RETURN(std::string key, integrations::ParseSecretsKey(key_text));
  secrets_ = std::make_unique<integrations::SecretBox>(std::move(key), p.ids.get());

  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.log = p.log.get();
  deps_.http = p.http.get();
  deps_.integrations = integrations_.get();
  deps_.bugs = bugs_.deps().bugs;
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.usage = p.Shared<ports::UsageRepository>();
  deps_.triage = triage_.deps().triage;
  deps_.member_alerts = &triage_.deps();
  triage_.SetAlertGate([this](ports::Tx& tx, const std::string& org_id, const std::string& bug_id,
                              const std::string& event_type) {
    return app::integrations::MemberAlertGate(deps_, tx, org_id, bug_id, event_type);
  });
  deps_.secrets = secrets_.get();
  deps_.plan_limits = p.options.plan_limits;
  deps_.public_url = p.options.EffectivePublicUrl();
  deps_.production = p.options.production;
  deps_.routine_fire_url = p.options.routine_fire_url;
  deps_.code_host_api_url = p.options.code_host_api_url;
  deps_.retention = p.options.retention;
  constexpr const char* kOutcomes = "service_deliveries_total";
  constexpr const char* kOutcomesHelp =
      "Webhook, chat and code-host delivery attempts recorded by the delivery engine, by outcome (success, "
      "deferred: tried again later, failed: for good, canceled).";
  deps_.delivery_counters.success = p.metrics.GetCounter(kOutcomes, kOutcomesHelp, {{"outcome", "success"}});
  deps_.delivery_counters.deferred =
      p.metrics.GetCounter(kOutcomes, kOutcomesHelp, {{"outcome", "deferred"}});
  deps_.delivery_counters.failed = p.metrics.GetCounter(kOutcomes, kOutcomesHelp, {{"outcome", "failed"}});
  deps_.delivery_counters.canceled =
      p.metrics.GetCounter(kOutcomes, kOutcomesHelp, {{"outcome", "canceled"}});
  {
    ports::IntegrationRepository* repo = integrations_.get();
    ports::Transactions* db = p.tx.get();
    Clock* clock = p.clock.get();
    p.metrics.AddCollector([repo, db, clock](std::vector<util::metrics::Family>& out) {
      ports::IntegrationRepository::Backlog b;
      const int64_t now = clock->NowMillis();
      if (!db->Read([&](ports::Tx& tx) -> Status {
               SV_ASSIGN_OR_RETURN(b, repo->CountBacklog(tx, now));
               return Status::Ok();
             }).ok()) {
        return;  // the database is down: no figures rather than wrong ones
      }
      util::metrics::Family f{"service_deliveries_backlog",
                              "Deliveries waiting to be sent, by state: pending, deferred (quiet hours or a "
                              "later try), overdue (pending and due for more than a minute).",
                              util::metrics::Type::kGauge,
                              {}};
      f.samples.push_back({{{"state", "pending"}}, static_cast<double>(b.pending)});
      f.samples.push_back({{{"state", "deferred"}}, static_cast<double>(b.deferred)});
      f.samples.push_back({{{"state", "overdue"}}, static_cast<double>(b.overdue)});
      out.push_back(std::move(f));
    });
  }

  // Deliveries are written in the transaction of the event that causes them;
  // the schedule (quiet hours, signing) depends on which area wrote it.
  const integrations::IntegrationsDeps* deps = &deps_;
  p.events.Subscribe([deps](ports::Tx& tx, const ports::Event& e, std::string_view area) {
    return integrations::EnqueueDeliveries(
        *deps, tx, e,
        area == app::kCaptureEvents ? integrations::EventPath::kCapture : integrations::EventPath::kTriage);
  });

  engine_ = std::make_unique<integrations::DeliveryEngine>(deps_, integrations::DeliveryEngineOptions{});
  integrations::DeliveryEngine* engine = engine_.get();
  // Events are published after their commit: the engine looks at once
  // (events of other processes arrive through PostgreSQL's bus too).
  bus_ = p.bus.get();
  subscription_ = bus_->Subscribe([engine](const ports::Event& e) {
    if (integrations::WakesDeliveryEngine(e.type)) engine->Nudge();
  });
  p.workers.AddService([engine] { engine->Start(); }, [engine] { engine->Stop(); });
  const app::integrations::IntegrationsDeps* retention_deps = &deps_;
  p.workers.Add("integration-retention", app::kRetentionSweepIntervalMs,
                [retention_deps] { return app::integrations::SweepRetention(*retention_deps).status(); });

  ports::IntegrationRepository* repo = integrations_.get();
  p.deletion.OnOrganizationDeleted(
      [repo](ports::Tx& tx, const std::string& org_id) { return repo->DeleteOrganizationRows(tx, org_id); });
  return Status::Ok();
}

void IntegrationsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterIntegrationRoutes(pipeline, deps_);
}

}  // namespace service::modules
