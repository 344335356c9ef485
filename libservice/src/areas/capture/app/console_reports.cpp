#include "areas/capture/app/console_reports.h"

#include <boost/json.hpp>

#include "areas/capture/app/deps.h"
#include "domain/roles.h"

namespace service::app::capture {
namespace {

Status Require(const ConsoleActor& actor, domain::Capability capability) {
  const std::optional<domain::Role> role = domain::ParseRole(actor.role);
  if (!role || !domain::Can(*role, capability)) return PermissionDenied("Insufficient permissions");
  return Status::Ok();
}

// The live-namespace source of a console report in one of the actor's projects.
Result<ReportSource> ConsoleSource(const CaptureDeps& deps, const ConsoleActor& actor,
                                   const std::string& project_id, const std::string& client_ip) {
  ReportSource src;
  Status st = deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(c, actor.org_id, project_id));
    if (!p) return NotFound("Project not found");
    src.project_name = p->name;
    src.grouping_v3_shadow = p->grouping_v3_shadow;
    SV_ASSIGN_OR_RETURN(src.plan, deps.usage->PlanOf(c, actor.org_id));
    return Status::Ok();
  });
  SV_RETURN_IF_ERROR(st);
  src.org_id = actor.org_id;
  src.project_id = project_id;
  src.key_env = "live";
  src.client_ip = client_ip;
  return src;
}

std::optional<std::string> NonEmpty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

std::string PlatformDisplayName(std::string_view platform) {
  if (platform == "web") return "Web";
  if (platform == "ios") return "iOS";
  if (platform == "android") return "Android";
  if (platform == "react-native") return "React Native";
  if (platform == "flutter") return "Flutter";
  if (platform == "server") return "Server";
  return "Other";
}

Result<IngestResult> SubmitManualReport(const CaptureDeps& deps, const ConsoleActor& actor,
                                        const ManualReport& in, const std::string& client_ip) {
  SV_RETURN_IF_ERROR(Require(actor, domain::Capability::kUpdateBugs));
  SV_ASSIGN_OR_RETURN(ReportSource src, ConsoleSource(deps, actor, in.project_id, client_ip));
  src.console_manual = true;
  ReportInput r;
  r.title = in.title;
  r.description = in.description;
  r.severity = in.severity;
  r.url = in.url;
  r.environment = in.environment;
  r.reporter_email = NonEmpty(actor.email);
  r.reporter_id = NonEmpty(actor.user_id);
  r.platform = "other";
  r.metadata = boost::json::object{{"source", "console"}, {"submittedBy", actor.user_id}};
  return Ingest(deps, src, std::move(r));
}

Result<IngestResult> SubmitTestEvent(const CaptureDeps& deps, const ConsoleActor& actor,
                                     const std::string& project_id, const std::string& platform,
                                     const std::string& client_ip) {
  SV_RETURN_IF_ERROR(Require(actor, domain::Capability::kManageKeys));
  SV_ASSIGN_OR_RETURN(ReportSource src, ConsoleSource(deps, actor, project_id, client_ip));
  const std::string name = PlatformDisplayName(platform);
  const int64_t now = deps.Now();
  ReportInput r;
  r.title = "Setup check: test error from the " + name + " SDK";
  r.description = "A test event sent from the console to check that reports from the " + name +
                  " SDK reach this project. It is safe to resolve or delete.";
  r.severity = "low";
  r.platform = platform;
  r.user_id = NonEmpty(actor.user_id);
  r.reporter_email = NonEmpty(actor.email);
  r.environment = "test-event";
  domain::capture::Event ev;
  ev.type = "error";
  ev.timestamp_ms = now;
  ev.data = boost::json::object{{"name", "SetupCheckError"},
                                {"message", "Test error from the " + name + " SDK setup check"}};
  r.events.push_back(std::move(ev));
  r.metadata =
      boost::json::object{{"testEvent", true}, {"autoReport", "setup_check"}, {"source", "test-event"}};
  return Ingest(deps, src, std::move(r));
}

}  // namespace service::app::capture
