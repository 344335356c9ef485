#include "areas/integrations/app/internal.h"

#include "util/time.h"

namespace service::app::integrations::internal {
namespace {

namespace json = boost::json;
namespace di = domain::integrations;

}  // namespace

Status RequireProject(const IntegrationsDeps& deps, ports::Tx& tx, const ConsoleActor& actor,
                      const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(tx, actor.org_id, project_id));
  if (!p) return NotFound("Project not found");
  return Status::Ok();
}

std::string LinkBase(const IntegrationsDeps& deps) {
  std::string base = deps.public_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

std::string ConfigJson(const di::Config& c) {
  json::object o;
  auto put = [&o](const char* key, const std::string& v) {
    if (!v.empty()) o[key] = v;
  };
  put("url", c.url);
  put("token", c.token);
  put("repo", c.repo);
  put("bridgeUrl", c.bridge_url);
  put("address", c.address);
  put("preset", c.preset);
  return json::serialize(o);
}

json::object ConfigView(const std::string& type, const di::Config& c, const std::string& secret_mask) {
  json::object o;
  if (!c.url.empty()) o["url"] = di::RedactUrl(c.url);
  if (!c.bridge_url.empty()) o["bridgeUrl"] = di::RedactUrl(c.bridge_url);
  if (!c.repo.empty()) o["repo"] = c.repo;
  if (!c.address.empty()) o["address"] = c.address;
  if (!c.preset.empty()) o["preset"] = c.preset;
  if (type == "code_host")
    o["token"] = json::object{{"present", !c.token.empty()}, {"last4", di::Last4(c.token)}};
  if (!secret_mask.empty()) o["secret"] = secret_mask;
  return o;
}

Result<di::Config> OpenConfig(const IntegrationsDeps& deps, const ports::IntegrationRow& row) {
  SV_ASSIGN_OR_RETURN(std::string text, deps.secrets->Open(row.config_sealed));
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return Internal("stored integration config is not a JSON object");
  const json::object& o = v.get_object();
  di::Config c;
  c.url = di::PayloadText(o, "url");
  c.token = di::PayloadText(o, "token");
  c.repo = di::PayloadText(o, "repo");
  c.bridge_url = di::PayloadText(o, "bridgeUrl");
  c.address = di::PayloadText(o, "address");
  c.preset = di::PayloadText(o, "preset");
  return c;
}

json::object TestPayload(const IntegrationsDeps& deps, const ports::IntegrationRow& row, int64_t now_ms) {
  return json::object{
      {"event", "test"},
      {"source", di::kPayloadSource},
      {"version", di::kPayloadVersion},
      {"title", "Test delivery"},
      {"severity", "low"},
      {"reportCount", 0},
      {"release", nullptr},
      {"bugId", nullptr},
      {"consoleUrl", LinkBase(deps) + "/settings/integrations"},
      {"evidence",
       json::object{{"mcp", nullptr}, {"events", nullptr}, {"occurrences", nullptr}, {"users", nullptr}}},
      {"projectId", row.project_id},
      {"integrationId", row.id},
      {"timestamp", util::FormatIso8601(now_ms)}};
}

bool TakesEvent(const ports::IntegrationRow& dest, std::string_view event_type) {
  if (event_type == "test") return true;
  if (dest.type == "code_host" && event_type == "agent_notify") return true;
  return std::find(dest.events.begin(), dest.events.end(), event_type) != dest.events.end();
}

Status RecheckRules(const IntegrationsDeps& deps, ports::Tx& tx, const ports::IntegrationRow& row,
                    const ports::DeliveryRow& d, int64_t now_ms) {
  if (!TakesEvent(row, d.event_type)) {
    return Status(Code::kConflict,
                  "Delivery excluded by current rules: the integration is no longer "
                  "subscribed to " +
                      d.event_type);
  }
  boost::system::error_code ec;
  json::value v = json::parse(d.payload, ec);
  if (ec || !v.is_object()) return Internal("stored delivery payload is not a JSON object");
  const json::object& p = v.get_object();
  SV_ASSIGN_OR_RETURN(di::AlertPolicy policy, PolicyFor(deps, tx, row.project_id));
  const std::string reason = di::ExclusionReason(
      policy, di::AlertSample{d.event_type, di::PayloadText(p, "severity"), di::PayloadText(p, "title"),
                              di::PayloadText(p, "url"), di::PayloadText(p, "environment")});
  if (!reason.empty()) {
    return Status(Code::kConflict, "Delivery excluded by current rules (" + reason + ")");
  }
  if (d.schedule == di::ScheduleName(di::Schedule::kCapture) && policy.quiet_hours &&
      !di::IsPolicyExempt(d.event_type) && di::QuietUntil(*policy.quiet_hours, now_ms)) {
    return Status(Code::kConflict, "Delivery held by quiet hours");
  }
  return Status::Ok();
}

}  // namespace service::app::integrations::internal
