// Integration management: list, create, update, delete, rotate, test, the
// delivery log and manual retries.
#include <boost/json.hpp>

#include "areas/capture/domain/vocabulary.h"
#include "areas/integrations/app/integrations.h"
#include "areas/integrations/app/internal.h"

namespace service::app::integrations {
namespace {

namespace json = boost::json;
namespace di = domain::integrations;

Status NotFoundIntegration() { return NotFound("Integration not found"); }

Status Invalid(std::vector<di::ConfigProblem> problems) {
  json::array details;
  for (const auto& p : problems) details.push_back(json::object{{"field", p.field}, {"message", p.message}});
  return Status(Code::kInvalidArgument, "Validation failed", "",
                json::serialize(json::object{{"details", std::move(details)}}));
}

// A generated signing secret: "whsec_" and 32 random letters and digits.
std::string NewSigningSecret(const IntegrationsDeps& deps) { return "whsec_" + deps.ids->RandomAlnum(32); }

// The destination guard at creation and update: refused addresses and
// malformed URLs are 400; a host that does not resolve now is accepted (it
// is checked again before every send).
Status CheckDestinationUrl(const IntegrationsDeps& deps, const std::string& field, const std::string& url) {
  if (url.empty()) return Status::Ok();
  Status s = deps.http->CheckDestination(url);
  if (s.ok() || s.code() == Code::kUnavailable) return Status::Ok();
  if (s.code() == Code::kPermissionDenied) {
    return Invalid({{field, "resolves to a private, loopback, link-local, multicast or reserved address"}});
  }
  return Invalid({{field, "is not a valid URL"}});
}

Status CheckEvents(const std::vector<std::string>& events) {
  std::vector<di::ConfigProblem> problems;
  if (events.size() > kMaxEvents) problems.push_back({"events", "at most 9 events"});
  for (const std::string& e : events) {
    if (!di::IsOutboundEvent(e)) problems.push_back({"events", "unknown event " + e});
  }
  if (!problems.empty()) return Invalid(std::move(problems));
  return Status::Ok();
}

std::vector<std::string> Unique(std::vector<std::string> v) {
  std::vector<std::string> out;
  for (std::string& s : v)
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  return out;
}

// Seals the config (without its secret) and derives the redacted view.
void StoreConfig(const IntegrationsDeps& deps, const di::Config& c, ports::IntegrationRow& row) {
  row.config_sealed = deps.secrets->Seal(internal::ConfigJson(c));
  row.config_view = json::serialize(internal::ConfigView(row.type, c, row.secret_mask));
}

void SetSecret(const IntegrationsDeps& deps, ports::IntegrationRow& row, const std::string& secret) {
  row.secret_sealed = secret.empty() ? "" : deps.secrets->Seal(secret);
  row.secret_mask = secret.empty() ? "" : di::MaskSecret(secret);
}

void SetBearer(const IntegrationsDeps& deps, ports::IntegrationRow& row, const std::string& bearer) {
  row.bearer_sealed = bearer.empty() ? "" : deps.secrets->Seal(bearer);
  row.bearer_last4 = bearer.empty() ? "" : di::Last4(bearer);
}

Result<ports::IntegrationRow> Load(const IntegrationsDeps& deps, ports::Tx& tx, const ConsoleActor& actor,
                                   const std::string& id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::IntegrationRow> row, deps.integrations->Get(tx, actor.org_id, id));
  if (!row) return NotFoundIntegration();
  return std::move(*row);
}

// Signed types and the bridge keep a secret; others refuse one.
bool TakesSecret(std::string_view type) { return di::IsSignedType(type) || type == "bridge"; }

}  // namespace

Result<std::vector<ports::IntegrationRow>> ListIntegrations(const IntegrationsDeps& deps,
                                                            const ConsoleActor& actor,
                                                            const std::string& project_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  std::vector<ports::IntegrationRow> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(internal::RequireProject(deps, tx, actor, project_id));
    SV_ASSIGN_OR_RETURN(out, deps.integrations->ListForProject(tx, actor.org_id, project_id));
    return Status::Ok();
  }));
  return out;
}

Result<ports::IntegrationRow> GetIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                             const std::string& id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  ports::IntegrationRow row;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(row, Load(deps, tx, actor, id));
    return Status::Ok();
  }));
  return row;
}

Result<CreatedIntegration> CreateIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                             const NewIntegration& in) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageIntegrations));
  std::vector<di::ConfigProblem> problems;
  if (!di::IsIntegrationType(in.type)) {
    problems.push_back(
        {"type", "must be webhook, agent, chat_a, chat_b, chat_c, chat_d, code_host or bridge"});
    return Invalid(std::move(problems));
  }
  const bool signed_type = di::IsSignedType(in.type);
  if (!signed_type && (in.delivery_feed || in.min_severity || in.bearer_token)) {
    problems.push_back({"type", "deliveryFeed, minSeverity and bearerToken apply to webhook and agent only"});
  }
  if (!TakesSecret(in.type) && !in.config.secret.empty()) {
    problems.push_back({"config.secret", "applies to webhook, agent and bridge only"});
  }
  for (auto& p : di::CheckConfig(in.type, in.config, deps.production, deps.routine_fire_url))
    problems.push_back(std::move(p));
  if (in.delivery_feed && !domain::capture::IsDeliveryFeed(*in.delivery_feed))
    problems.push_back({"deliveryFeed", "must be all, urgent_critical or ui_ux"});
  if (in.min_severity && !domain::capture::IsSeverity(*in.min_severity))
    problems.push_back({"minSeverity", "must be critical, high, medium or low"});
  if (!problems.empty()) return Invalid(std::move(problems));
  std::vector<std::string> events = Unique(in.events.value_or(di::DefaultEvents(in.type)));
  SV_RETURN_IF_ERROR(CheckEvents(events));
  const std::string url = di::DestinationUrl(in.type, in.config);
  SV_RETURN_IF_ERROR(CheckDestinationUrl(deps, in.type == "bridge" ? "config.bridgeUrl" : "config.url", url));

  CreatedIntegration out;
  ports::IntegrationRow& row = out.row;
  row.id = deps.ids->NewId();
  row.org_id = actor.org_id;
  row.project_id = in.project_id;
  row.type = in.type;
  row.name = in.name;
  row.events = std::move(events);
  row.is_active = true;
  row.delivery_feed = in.delivery_feed.value_or("all");
  row.min_severity = in.min_severity;
  row.created_at = row.updated_at = deps.Now();
  std::string secret = in.config.secret;
  if (signed_type && secret.empty()) secret = NewSigningSecret(deps);
  SetSecret(deps, row, secret);
  if (signed_type) out.signing_secret = secret;
  SetBearer(deps, row, in.bearer_token.value_or(""));
  di::Config stored = in.config;
  stored.secret.clear();
  StoreConfig(deps, stored, row);

  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(internal::RequireProject(deps, tx, actor, in.project_id));
    SV_ASSIGN_OR_RETURN(std::string plan, deps.usage->PlanOf(tx, actor.org_id));
    const domain::operations::PlanLimits limits = domain::operations::LimitsFor(plan, deps.plan_limits);
    SV_ASSIGN_OR_RETURN(int64_t count, deps.usage->IntegrationCount(tx, actor.org_id));
    if (!domain::operations::WithinLimit(limits.integrations, count)) {
      return Status(Code::kPaymentRequired, "Plan limit reached", "",
                    domain::operations::PlanLimitPayload(limits.integrations, count, plan, deps.public_url));
    }
    return deps.integrations->Insert(tx, row);
  }));
  return out;
}

Result<ports::IntegrationRow> UpdateIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                                const std::string& id, const IntegrationPatch& patch) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageIntegrations));
  if (patch.empty()) return InvalidArgument("No fields to update");
  ports::IntegrationRow row;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(row, Load(deps, tx, actor, id));
    return Status::Ok();
  }));
  const bool signed_type = di::IsSignedType(row.type);
  std::vector<di::ConfigProblem> problems;
  if (!signed_type && (patch.delivery_feed || patch.min_severity || patch.bearer_token)) {
    problems.push_back({"type", "deliveryFeed, minSeverity and bearerToken apply to webhook and agent only"});
  }
  if (patch.delivery_feed && !domain::capture::IsDeliveryFeed(*patch.delivery_feed))
    problems.push_back({"deliveryFeed", "must be all, urgent_critical or ui_ux"});
  if (patch.min_severity && *patch.min_severity && !domain::capture::IsSeverity(**patch.min_severity))
    problems.push_back({"minSeverity", "must be critical, high, medium or low"});

  SV_ASSIGN_OR_RETURN(di::Config config, internal::OpenConfig(deps, row));
  std::string new_secret;
  bool rotate = false;
  if (patch.config) {
    auto named = [&](std::string_view key) {
      return std::find(patch.config_keys.begin(), patch.config_keys.end(), key) != patch.config_keys.end();
    };
    if (named("url")) config.url = patch.config->url;
    if (named("token") && patch.config->token != kKeepSecret) config.token = patch.config->token;
    if (named("repo")) config.repo = patch.config->repo;
    if (named("bridgeUrl")) config.bridge_url = patch.config->bridge_url;
    if (named("address")) config.address = patch.config->address;
    if (named("preset")) config.preset = patch.config->preset;
    if (named("secret") && patch.config->secret != kKeepSecret) {
      if (!TakesSecret(row.type)) {
        problems.push_back({"config.secret", "applies to webhook, agent and bridge only"});
      } else {
        new_secret = patch.config->secret;
        rotate = true;
      }
    }
    di::Config check = config;
    check.secret = new_secret;
    for (auto& p : di::CheckConfig(row.type, check, deps.production, deps.routine_fire_url))
      problems.push_back(std::move(p));
  }
  if (!problems.empty()) return Invalid(std::move(problems));
  if (patch.events) SV_RETURN_IF_ERROR(CheckEvents(*patch.events));
  if (patch.config) {
    SV_RETURN_IF_ERROR(CheckDestinationUrl(deps, row.type == "bridge" ? "config.bridgeUrl" : "config.url",
                                           di::DestinationUrl(row.type, config)));
  }

  const int64_t now = deps.Now();
  if (patch.name) row.name = *patch.name;
  if (patch.events) row.events = Unique(*patch.events);
  if (patch.is_active) row.is_active = *patch.is_active;
  if (patch.delivery_feed) row.delivery_feed = *patch.delivery_feed;
  if (patch.min_severity) row.min_severity = *patch.min_severity;
  if (patch.bearer_token) SetBearer(deps, row, *patch.bearer_token);
  if (rotate) {
    if (!new_secret.empty() && !row.secret_sealed.empty()) {
      row.previous_secret_sealed = row.secret_sealed;
      row.previous_secret_until = now + di::kRotationOverlapMs;
    } else if (new_secret.empty()) {
      if (signed_type) return Invalid({{"config.secret", "a webhook or agent keeps a signing secret"}});
      row.previous_secret_sealed.clear();
      row.previous_secret_until = 0;
    }
    SetSecret(deps, row, new_secret);
  }
  config.secret.clear();
  StoreConfig(deps, config, row);
  row.updated_at = now;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::IntegrationRow current, Load(deps, tx, actor, id));
    (void)current;
    if (!row.is_active) {
      SV_RETURN_IF_ERROR(deps.integrations->CancelPending(tx, row.id, "integration deactivated", now));
    }
    return deps.integrations->Update(tx, row);
  }));
  return row;
}

Status DeleteIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor, const std::string& id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageIntegrations));
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool deleted, deps.integrations->Delete(tx, actor.org_id, id));
    if (!deleted) return NotFoundIntegration();
    return Status::Ok();
  });
}

Result<CreatedIntegration> RotateSecret(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                        const std::string& id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageIntegrations));
  CreatedIntegration out;
  const std::string secret = NewSigningSecret(deps);
  const int64_t now = deps.Now();
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(out.row, Load(deps, tx, actor, id));
    if (!TakesSecret(out.row.type)) return InvalidArgument("This integration type is not signed");
    if (!out.row.secret_sealed.empty()) {
      out.row.previous_secret_sealed = out.row.secret_sealed;
      out.row.previous_secret_until = now + di::kRotationOverlapMs;
    }
    SetSecret(deps, out.row, secret);
    // The config view shows the masked secret; re-derive it.
    SV_ASSIGN_OR_RETURN(di::Config config, internal::OpenConfig(deps, out.row));
    StoreConfig(deps, config, out.row);
    out.row.updated_at = now;
    return deps.integrations->Update(tx, out.row);
  }));
  out.signing_secret = secret;
  return out;
}

Status TestIntegration(const IntegrationsDeps& deps, const ConsoleActor& actor, const std::string& id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageIntegrations));
  ports::DeliveryRow d;
  const int64_t now = deps.Now();
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::IntegrationRow row, Load(deps, tx, actor, id));
    d.id = deps.ids->NewId();
    d.org_id = row.org_id;
    d.project_id = row.project_id;
    d.integration_id = row.id;
    d.event_id = deps.ids->NewId();
    d.event_type = "test";
    d.schedule = std::string(di::ScheduleName(di::Schedule::kShort));
    d.status = "pending";
    d.attempts = 1;  // this send
    d.payload = json::serialize(internal::TestPayload(deps, row, now));
    d.created_at = now;
    d.next_attempt_at = now;
    d.lease_until = now + internal::kSendLeaseMs;  // held by this request while it sends
    SV_RETURN_IF_ERROR(deps.integrations->InsertEvent(tx, d.event_id, d.org_id, d.payload, now));
    return deps.integrations->InsertDelivery(tx, d).status();
  }));
  const ports::DeliveryOutcome outcome = SendDelivery(deps, d);
  SV_RETURN_IF_ERROR(deps.integrations->Complete(*deps.db, {outcome}, deps.Now()));
  if (outcome.status != "success") return Status::Public(Code::kBadGateway, "Webhook delivery failed");
  return Status::Ok();
}

Result<DeliveryPage> ListDeliveries(const IntegrationsDeps& deps, const ConsoleActor& actor,
                                    const std::string& integration_id, const std::string& status,
                                    int64_t limit, int64_t offset) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  DeliveryPage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::IntegrationRow row, Load(deps, tx, actor, integration_id));
    SV_ASSIGN_OR_RETURN(page.rows, deps.integrations->ListDeliveries(tx, row.id, status, limit, offset));
    SV_ASSIGN_OR_RETURN(page.total, deps.integrations->CountDeliveries(tx, row.id, status));
    return Status::Ok();
  }));
  return page;
}

bool CanRetry(const ports::DeliveryRow& d, const ports::IntegrationRow& integration) {
  return d.status == "failed" && d.manual_sends < di::kManualRetryBudget && integration.is_active;
}

Status RetryDelivery(const IntegrationsDeps& deps, const ConsoleActor& actor,
                     const std::string& integration_id, const std::string& delivery_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageIntegrations));
  const int64_t now = deps.Now();
  ports::DeliveryRow d;
  // Checks first: a held or excluded delivery spends nothing of its budget.
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::IntegrationRow row, Load(deps, tx, actor, integration_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::DeliveryRow> found,
                        deps.integrations->GetDelivery(tx, row.id, delivery_id));
    if (!found || !CanRetry(*found, row)) return NotFound("Retryable delivery not found");
    d = std::move(*found);
    SV_RETURN_IF_ERROR(internal::RecheckRules(deps, tx, row, d, now));
    SV_ASSIGN_OR_RETURN(bool taken,
                        deps.integrations->TakeForManualRetry(tx, d.id, now, internal::kSendLeaseMs));
    if (!taken) return NotFound("Retryable delivery not found");
    return Status::Ok();
  }));
  d.attempts += 1;
  d.manual_sends += 1;
  ports::DeliveryOutcome outcome = SendDelivery(deps, d);
  // A manual retry is one send: a failure is final again (no schedule).
  if (outcome.status == "deferred") {
    outcome.status = "failed";
    outcome.dead_letter = true;
  }
  SV_RETURN_IF_ERROR(deps.integrations->Complete(*deps.db, {outcome}, deps.Now()));
  if (outcome.status != "success") return Status::Public(Code::kBadGateway, "Retry failed");
  return Status::Ok();
}

}  // namespace service::app::integrations
