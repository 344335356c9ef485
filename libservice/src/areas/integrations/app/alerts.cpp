// Alert policy, preview and overview (Spec 2 "Alerts").
#include <boost/json.hpp>

#include "areas/capture/domain/vocabulary.h"
#include "areas/integrations/app/integrations.h"
#include "areas/integrations/app/internal.h"
#include "areas/triage/domain/notify.h"
#include "util/time.h"

namespace service::app::integrations {
namespace {

namespace json = boost::json;
namespace di = domain::integrations;

constexpr size_t kMaxPreviewConnections = 100;
constexpr int64_t kOverviewWindowMs = 24LL * 3600 * 1000;

json::array Strings(const std::vector<std::string>& v) {
  json::array a;
  for (const std::string& s : v) a.push_back(json::value(s));
  return a;
}

using Problems = std::vector<std::pair<std::string, std::string>>;

// An array of at most kMaxExcludeItems strings of 1..kMaxExcludeLength characters.
std::vector<std::string> StringList(const json::object& o, const char* key, const std::string& field,
                                    Problems* problems, bool (*allowed)(std::string_view) = nullptr) {
  std::vector<std::string> out;
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return out;
  if (!v->is_array() || v->get_array().size() > di::kMaxExcludeItems) {
    problems->emplace_back(field, "must be an array of at most 50 strings");
    return out;
  }
  for (const json::value& e : v->get_array()) {
    if (!e.is_string() || e.get_string().empty() || e.get_string().size() > di::kMaxExcludeLength) {
      problems->emplace_back(field, "entries must be strings of 1 to 200 characters");
      return {};
    }
    if (allowed != nullptr && !allowed(e.get_string())) {
      problems->emplace_back(field, "unknown value " + std::string(e.get_string()));
      return {};
    }
    out.emplace_back(e.get_string());
  }
  return out;
}

std::string Decision(const di::AlertPolicy& policy, const di::AlertSample& sample, int64_t now,
                     std::string* reason) {
  *reason = di::ExclusionReason(policy, sample);
  if (!reason->empty()) return "not_scheduled";
  if (policy.quiet_hours && di::QuietUntil(*policy.quiet_hours, now)) {
    if (sample.event == "new_bug" || sample.event == "regression" || sample.event == "recommended_bug") {
      *reason = "quiet_hours";
      return "deferred";
    }
    *reason = "quiet_hours_apply_to_capture_only";
    return "capture_path_only";
  }
  return "send";
}

}  // namespace

json::object PolicyJson(const std::string& project_id, const di::AlertPolicy& p,
                        std::optional<int64_t> updated_at) {
  json::value quiet = nullptr;
  if (p.quiet_hours) {
    quiet = json::object{{"start", di::FormatClockTime(p.quiet_hours->start_minute)},
                         {"end", di::FormatClockTime(p.quiet_hours->end_minute)},
                         {"timeZone", p.quiet_hours->time_zone}};
  }
  return json::object{
      {"projectId", project_id},
      {"severityFloor", p.severity_floor.empty() ? json::value(nullptr) : json::value(p.severity_floor)},
      {"excludes", json::object{{"events", Strings(p.exclude_events)},
                                {"titleContains", Strings(p.exclude_title_contains)},
                                {"urlContains", Strings(p.exclude_url_contains)},
                                {"environments", Strings(p.exclude_environments)}}},
      {"quietHours", quiet},
      {"updatedAt", updated_at ? json::value(util::FormatIso8601(*updated_at)) : json::value(nullptr)}};
}

Result<di::AlertPolicy> ParsePolicy(const json::object& body, Problems* problems) {
  di::AlertPolicy p;
  for (const auto& [key, unused] : body) {
    if (key != "projectId" && key != "severityFloor" && key != "excludes" && key != "quietHours" &&
        key != "updatedAt") {
      problems->emplace_back(std::string(key), "unknown field");
    }
  }
  if (const json::value* v = body.if_contains("severityFloor"); v != nullptr && !v->is_null()) {
    if (!v->is_string() || !domain::capture::IsSeverity(v->get_string())) {
      problems->emplace_back("severityFloor", "must be critical, high, medium, low or null");
    } else {
      p.severity_floor = std::string(v->get_string());
    }
  }
  if (const json::value* v = body.if_contains("excludes"); v != nullptr && !v->is_null()) {
    if (!v->is_object()) {
      problems->emplace_back("excludes", "must be an object");
    } else {
      const json::object& e = v->get_object();
      for (const auto& [key, unused] : e) {
        if (key != "events" && key != "titleContains" && key != "urlContains" && key != "environments")
          problems->emplace_back("excludes." + std::string(key), "unknown field");
      }
      p.exclude_events = StringList(e, "events", "excludes.events", problems, &di::IsExcludableEvent);
      p.exclude_title_contains = StringList(e, "titleContains", "excludes.titleContains", problems);
      p.exclude_url_contains = StringList(e, "urlContains", "excludes.urlContains", problems);
      p.exclude_environments = StringList(e, "environments", "excludes.environments", problems);
    }
  }
  if (const json::value* v = body.if_contains("quietHours"); v != nullptr && !v->is_null()) {
    const json::object* q = v->if_object();
    if (q == nullptr) {
      problems->emplace_back("quietHours", "must be an object or null");
    } else {
      di::QuietHours quiet;
      auto clock = [&](const char* key, int* out) {
        const json::value* t = q->if_contains(key);
        std::optional<int> m;
        if (t != nullptr && t->is_string()) m = di::ParseClockTime(t->get_string());
        if (!m) {
          problems->emplace_back(std::string("quietHours.") + key, "must be HH:MM (00:00 to 23:59)");
        } else {
          *out = *m;
        }
      };
      clock("start", &quiet.start_minute);
      clock("end", &quiet.end_minute);
      const json::value* tz = q->if_contains("timeZone");
      if (tz == nullptr || !tz->is_string() || !di::IsTimeZone(tz->get_string())) {
        problems->emplace_back("quietHours.timeZone",
                               "must be an IANA time zone such as Europe/Berlin or UTC");
      } else {
        quiet.time_zone = std::string(tz->get_string());
      }
      for (const auto& [key, unused] : *q) {
        if (key != "start" && key != "end" && key != "timeZone")
          problems->emplace_back("quietHours." + std::string(key), "unknown field");
      }
      p.quiet_hours = quiet;
    }
  }
  if (!problems->empty()) return InvalidArgument("Validation failed");
  return p;
}

Result<di::AlertPolicy> PolicyFor(const IntegrationsDeps& deps, ports::Tx& tx,
                                  const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::StoredAlertPolicy> stored,
                      deps.integrations->GetPolicy(tx, project_id));
  if (!stored) return di::AlertPolicy{};
  boost::system::error_code ec;
  json::value v = json::parse(stored->body, ec);
  if (ec || !v.is_object()) return Internal("stored alert policy is not a JSON object");
  Problems problems;
  Result<di::AlertPolicy> p = ParsePolicy(v.get_object(), &problems);
  if (!p.ok()) return Internal("stored alert policy does not parse");
  return p;
}

Result<PolicyView> GetPolicy(const IntegrationsDeps& deps, const ConsoleActor& actor,
                             const std::string& project_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  PolicyView view;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(internal::RequireProject(deps, tx, actor, project_id));
    SV_ASSIGN_OR_RETURN(view.policy, PolicyFor(deps, tx, project_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::StoredAlertPolicy> stored,
                        deps.integrations->GetPolicy(tx, project_id));
    if (stored) view.updated_at = stored->updated_at;
    return Status::Ok();
  }));
  return view;
}

Status PutPolicy(const IntegrationsDeps& deps, const ConsoleActor& actor, const std::string& project_id,
                 const di::AlertPolicy& policy) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageIntegrations));
  const int64_t now = deps.Now();
  json::object body = PolicyJson(project_id, policy, std::nullopt);
  body.erase("updatedAt");
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(internal::RequireProject(deps, tx, actor, project_id));
    return deps.integrations->PutPolicy(
        tx, ports::StoredAlertPolicy{project_id, actor.org_id, json::serialize(body), now, actor.user_id});
  });
}

Result<json::object> Preview(const IntegrationsDeps& deps, const ConsoleActor& actor,
                             const PreviewRequest& req) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  const int64_t now = deps.Now();
  json::object out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(internal::RequireProject(deps, tx, actor, req.project_id));
    SV_ASSIGN_OR_RETURN(di::AlertPolicy policy, PolicyFor(deps, tx, req.project_id));
    const di::AlertSample sample{req.event_type, req.severity, req.title, req.url, ""};
    std::string reason;
    const std::string gate = Decision(policy, sample, now, &reason);
    json::object project_gate{{"decision", gate},
                              {"reason", reason.empty() ? json::value(nullptr) : json::value(reason)}};
    if (policy.quiet_hours) {
      const std::optional<int64_t> until = di::QuietUntil(*policy.quiet_hours, now);
      project_gate["quietHours"] =
          json::object{{"active", until.has_value()},
                       {"until", until ? json::value(util::FormatIso8601(*until)) : json::value(nullptr)}};
    }
    out["projectGate"] = std::move(project_gate);

    // The caller's own email: preferences route it; the project gate may stop or hold it.
    SV_ASSIGN_OR_RETURN(std::optional<ports::NotificationPreferences> prefs,
                        deps.triage->FindPreferences(tx, actor.org_id, actor.user_id));
    const ports::NotificationPreferences p = prefs.value_or(ports::NotificationPreferences{});
    std::string disposition;
    if (gate == "not_scheduled") {
      disposition = "not_scheduled";
    } else if (p.email_level == "off") {
      disposition = "off";
    } else if (gate == "deferred") {
      disposition = "deferred";
    } else {
      disposition =
          domain::triage::RouteEmail(p.email_level, p.digest_freq) == domain::triage::EmailRoute::kNow
              ? "instant"
              : "digest";
    }
    out["email"] = json::object{
        {"disposition", disposition}, {"emailLevel", p.email_level}, {"digestFreq", p.digest_freq}};

    SV_ASSIGN_OR_RETURN(std::vector<ports::IntegrationRow> dests,
                        deps.integrations->ListForProject(tx, actor.org_id, req.project_id));
    // The sample as a new issue: a person's report, its facets from its title.
    const di::IssueFacts sample_facts{req.severity, "issue", "", req.event_type == "regression",
                                      domain::capture::IsUiUx(req.title, "", "issue", "", {})};
    json::array connections;
    for (const ports::IntegrationRow& d : dests) {
      if (connections.size() >= kMaxPreviewConnections) break;
      std::string decision, why;
      const bool subscribed = std::find(d.events.begin(), d.events.end(), req.event_type) != d.events.end();
      if (!d.is_active) {
        decision = "not_scheduled", why = "inactive";
      } else if (!subscribed) {
        decision = "not_scheduled", why = "not_subscribed";
      } else if (gate == "not_scheduled") {
        decision = gate, why = reason;
      } else if (const std::string filtered = di::DestinationFilterReason(
                     d.type, d.min_severity, d.delivery_feed, req.event_type, sample_facts);
                 !filtered.empty()) {
        decision = "not_scheduled", why = filtered;
      } else {
        decision = gate, why = reason;
      }
      connections.push_back(json::object{{"id", d.id},
                                         {"type", d.type},
                                         {"name", d.name ? json::value(*d.name) : json::value(nullptr)},
                                         {"decision", decision},
                                         {"reason", why.empty() ? json::value(nullptr) : json::value(why)}});
    }
    out["connections"] = std::move(connections);
    out["totalDestinations"] = static_cast<int64_t>(dests.size());
    return Status::Ok();
  }));
  return out;
}

Result<json::object> Overview(const IntegrationsDeps& deps, const ConsoleActor& actor) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  const int64_t now = deps.Now();
  json::object out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(ports::DeliveryCounts counts,
                        deps.integrations->CountsForOrg(tx, actor.org_id, now - kOverviewWindowMs));
    out["windowHours"] = 24;
    out["deliveries"] = json::object{{"pending", counts.pending},
                                     {"failed", counts.failed},
                                     {"success", counts.success},
                                     {"canceled", counts.canceled}};
    SV_ASSIGN_OR_RETURN(std::vector<ports::Project> projects, deps.projects->List(tx, actor.org_id));
    json::array rows;
    for (const ports::Project& p : projects) {
      SV_ASSIGN_OR_RETURN(std::vector<ports::IntegrationRow> dests,
                          deps.integrations->ListForProject(tx, actor.org_id, p.id));
      SV_ASSIGN_OR_RETURN(di::AlertPolicy policy, PolicyFor(deps, tx, p.id));
      int64_t active = 0;
      for (const auto& d : dests) active += d.is_active ? 1 : 0;
      std::optional<int64_t> quiet;
      if (policy.quiet_hours) quiet = di::QuietUntil(*policy.quiet_hours, now);
      json::object policy_json = PolicyJson(p.id, policy, std::nullopt);
      rows.push_back(json::object{
          {"projectId", p.id},
          {"name", p.name},
          {"activeIntegrations", active},
          {"integrations", static_cast<int64_t>(dests.size())},
          {"severityFloor", policy_json["severityFloor"]},
          {"quietHours", policy_json["quietHours"]},
          {"quietNow", quiet.has_value()},
          {"quietUntil", quiet ? json::value(util::FormatIso8601(*quiet)) : json::value(nullptr)}});
    }
    out["projects"] = std::move(rows);
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::integrations
