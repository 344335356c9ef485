// Console-submitted reports (Spec 1 "POST /v1/bugs/manual" and "POST
// /v1/projects/:id/test-event"). Both build an ordinary report and run it
// through capture::Ingest, so they get the same fingerprint, deduplication,
// counts, plan limit and bus events as a report sent with a capture key;
// they land in the live namespace of a project of the caller's organization.
//
// Thread-safety: safe from any thread.
#pragma once

#include <optional>
#include <string>

#include "app/actor.h"
#include "areas/capture/app/deps.h"
#include "areas/capture/app/ingest.h"
#include "service/status.h"

namespace service::app::capture {

// POST /v1/bugs/manual (needs kUpdateBugs: a viewer is refused). The report
// is manual (error type `manual`, fingerprinted by title and URL); the
// caller is its reporter and its end user (by email). 404 "Project not
// found" for a project outside the organization.
struct ManualReport {
  std::string project_id;
  std::string title;
  std::string description;
  std::string severity = "medium";
  std::string url;
  std::optional<std::string> environment;
};
Result<IngestResult> SubmitManualReport(const CaptureDeps& deps, const ConsoleActor& actor,
                                        const ManualReport& in, const std::string& client_ip);

// POST /v1/projects/:id/test-event (needs kManageKeys, like creating keys).
// One error report titled "Setup check: test error from the <Platform>
// SDK", with the caller as the affected end user (userId = the caller's
// user id). Repeated test events for one platform group into one bug.
Result<IngestResult> SubmitTestEvent(const CaptureDeps& deps, const ConsoleActor& actor,
                                     const std::string& project_id, const std::string& platform,
                                     const std::string& client_ip);

// "Web", "iOS", "Android", "React Native", "Flutter", "Server".
std::string PlatformDisplayName(std::string_view platform);

}  // namespace service::app::capture
