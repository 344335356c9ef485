#include "areas/applications/app/applications.h"

#include "util/strings.h"

namespace service::app::applications {
namespace {

namespace da = domain::applications;

Status ConflictCode(std::string message, std::string_view code) {
  return Status(Code::kConflict, std::move(message), std::string(code));
}

Status RequestIdConflict() {
  return ConflictCode("requestId was already used with a different body", da::kRequestIdConflict);
}

Status RequireProject(const ApplicationsDeps& deps, ports::Tx& tx, const std::string& org_id,
                      const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(tx, org_id, project_id));
  if (!p) return NotFound("Project not found");
  return Status::Ok();
}

Result<ports::ApplicationRow> RequireApplication(const ApplicationsDeps& deps, ports::Tx& tx,
                                                 const std::string& org_id, const std::string& project_id,
                                                 const std::string& application_id) {
  SV_RETURN_IF_ERROR(RequireProject(deps, tx, org_id, project_id));
  SV_ASSIGN_OR_RETURN(std::optional<ports::ApplicationRow> a,
                      deps.registry->FindApplication(tx, org_id, project_id, application_id));
  if (!a) return NotFound("Application not found");
  return std::move(*a);
}

bool Same(const ports::ApplicationRow& row, const da::ApplicationRequest& req) {
  return row.name == req.name && row.identifier == req.identifier;
}
bool Same(const ports::InstallationRow& row, const std::string& application_id,
          const da::InstallationRequest& req) {
  return row.application_id == application_id && row.has_label == req.label.has_value() &&
         row.label == req.label.value_or("");
}
bool Same(const ports::BuildRow& row, const std::string& application_id, const da::BuildRequest& req) {
  return row.application_id == application_id && row.source_revision == req.source_revision &&
         row.artifact_sha256 == req.artifact_sha256;
}

// The page of `rows` (limit + 1 read) and the cursor after its last row.
template <typename Row>
Page<Row> PageOf(std::vector<Row> rows, int64_t limit, da::ListKind kind, const std::string& parent_id) {
  Page<Row> page;
  if (static_cast<int64_t>(rows.size()) > limit) {
    rows.resize(static_cast<size_t>(limit));
    page.next_cursor = da::EncodeCursor(kind, parent_id, {rows.back().created_at, rows.back().id});
  }
  page.items = std::move(rows);
  return page;
}

Result<std::optional<ports::PageAfter>> After(da::ListKind kind, const std::string& parent_id,
                                              const std::optional<std::string>& cursor) {
  if (!cursor) return std::optional<ports::PageAfter>();
  SV_ASSIGN_OR_RETURN(da::CursorPosition pos, da::DecodeCursor(kind, parent_id, *cursor));
  return std::optional<ports::PageAfter>(ports::PageAfter{pos.created_at, pos.id});
}

Status CheckLimit(int64_t limit) {
  if (limit < 1 || limit > da::kMaxPageSize) {
    return Status(Code::kInvalidArgument, "limit must be a whole number from 1 to 50",
                  std::string(da::kValidationError));
  }
  return Status::Ok();
}

}  // namespace

Result<Created<ports::ApplicationRow>> CreateApplication(const ApplicationsDeps& deps,
                                                         const ConsoleActor& actor,
                                                         const std::string& project_id,
                                                         const da::ApplicationRequest& req) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  Created<ports::ApplicationRow> out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor.org_id, project_id));
    for (int attempt = 0; attempt < 2; ++attempt) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::ApplicationRow> earlier,
                          deps.registry->ApplicationByRequest(tx, actor.org_id, project_id, req.request_id));
      if (earlier) {
        if (!Same(*earlier, req)) return RequestIdConflict();
        out = {std::move(*earlier), false};
        return Status::Ok();
      }
      if (attempt > 0) break;
      ports::ApplicationRow row;
      row.id = deps.ids->NewId();
      row.org_id = actor.org_id;
      row.project_id = project_id;
      row.request_id = req.request_id;
      row.name = req.name;
      row.identifier = req.identifier;
      row.created_at = deps.Now();
      SV_ASSIGN_OR_RETURN(ports::InsertOutcome outcome,
                          deps.registry->InsertApplication(tx, row, actor.user_id));
      if (outcome == ports::InsertOutcome::kInserted) {
        out = {std::move(row), true};
        return Status::Ok();
      }
      if (outcome == ports::InsertOutcome::kUniqueTaken) {
        return ConflictCode("An application with this identifier exists in the project",
                            da::kIdentifierTaken);
      }
      // kRequestIdUsed: a concurrent request committed it; read it again.
    }
    return RequestIdConflict();
  }));
  return out;
}

Result<Created<ports::InstallationRow>> CreateInstallation(const ApplicationsDeps& deps,
                                                           const ConsoleActor& actor,
                                                           const std::string& project_id,
                                                           const std::string& application_id,
                                                           const da::InstallationRequest& req) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  Created<ports::InstallationRow> out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireApplication(deps, tx, actor.org_id, project_id, application_id).status());
    for (int attempt = 0; attempt < 2; ++attempt) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::InstallationRow> earlier,
                          deps.registry->InstallationByRequest(tx, actor.org_id, project_id, req.request_id));
      if (earlier) {
        if (!Same(*earlier, application_id, req)) return RequestIdConflict();
        out = {std::move(*earlier), false};
        return Status::Ok();
      }
      if (attempt > 0) break;
      ports::InstallationRow row;
      row.id = deps.ids->NewId();
      row.org_id = actor.org_id;
      row.project_id = project_id;
      row.application_id = application_id;
      row.request_id = req.request_id;
      row.has_label = req.label.has_value();
      row.label = req.label.value_or("");
      row.created_at = deps.Now();
      SV_ASSIGN_OR_RETURN(ports::InsertOutcome outcome,
                          deps.registry->InsertInstallation(tx, row, actor.user_id));
      if (outcome == ports::InsertOutcome::kInserted) {
        out = {std::move(row), true};
        return Status::Ok();
      }
    }
    return RequestIdConflict();
  }));
  return out;
}

Result<Created<ports::BuildRow>> CreateBuild(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                             const std::string& project_id, const std::string& application_id,
                                             const da::BuildRequest& req) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  Created<ports::BuildRow> out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireApplication(deps, tx, actor.org_id, project_id, application_id).status());
    for (int attempt = 0; attempt < 2; ++attempt) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::BuildRow> earlier,
                          deps.registry->BuildByRequest(tx, actor.org_id, project_id, req.request_id));
      if (earlier) {
        if (!Same(*earlier, application_id, req)) return RequestIdConflict();
        out = {std::move(*earlier), false};
        return Status::Ok();
      }
      if (attempt > 0) break;
      ports::BuildRow row;
      row.id = deps.ids->NewId();
      row.org_id = actor.org_id;
      row.project_id = project_id;
      row.application_id = application_id;
      row.request_id = req.request_id;
      row.source_revision = req.source_revision;
      row.artifact_sha256 = req.artifact_sha256;
      row.created_at = deps.Now();
      SV_ASSIGN_OR_RETURN(ports::InsertOutcome outcome, deps.registry->InsertBuild(tx, row, actor.user_id));
      if (outcome == ports::InsertOutcome::kInserted) {
        out = {std::move(row), true};
        return Status::Ok();
      }
      if (outcome == ports::InsertOutcome::kUniqueTaken) {
        return ConflictCode("A build with this artifactSha256 exists for the application", da::kBuildExists);
      }
    }
    return RequestIdConflict();
  }));
  return out;
}

Result<Page<ports::ApplicationRow>> ListApplications(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                                     const std::string& project_id,
                                                     const std::optional<std::string>& cursor,
                                                     int64_t limit) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  SV_RETURN_IF_ERROR(CheckLimit(limit));
  Page<ports::ApplicationRow> page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor.org_id, project_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::PageAfter> after,
                        After(da::ListKind::kApplications, project_id, cursor));
    SV_ASSIGN_OR_RETURN(std::vector<ports::ApplicationRow> rows,
                        deps.registry->ListApplications(tx, actor.org_id, project_id, after, limit + 1));
    page = PageOf(std::move(rows), limit, da::ListKind::kApplications, project_id);
    return Status::Ok();
  }));
  return page;
}

Result<Page<ports::InstallationRow>> ListInstallations(
    const ApplicationsDeps& deps, const ConsoleActor& actor, const std::string& project_id,
    const std::string& application_id, const std::optional<std::string>& cursor, int64_t limit) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  SV_RETURN_IF_ERROR(CheckLimit(limit));
  Page<ports::InstallationRow> page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireApplication(deps, tx, actor.org_id, project_id, application_id).status());
    SV_ASSIGN_OR_RETURN(std::optional<ports::PageAfter> after,
                        After(da::ListKind::kInstallations, application_id, cursor));
    SV_ASSIGN_OR_RETURN(
        std::vector<ports::InstallationRow> rows,
        deps.registry->ListInstallations(tx, actor.org_id, project_id, application_id, after, limit + 1));
    page = PageOf(std::move(rows), limit, da::ListKind::kInstallations, application_id);
    return Status::Ok();
  }));
  return page;
}

Result<Page<ports::BuildRow>> ListBuilds(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                         const std::string& project_id, const std::string& application_id,
                                         const std::optional<std::string>& cursor, int64_t limit) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  SV_RETURN_IF_ERROR(CheckLimit(limit));
  Page<ports::BuildRow> page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireApplication(deps, tx, actor.org_id, project_id, application_id).status());
    SV_ASSIGN_OR_RETURN(std::optional<ports::PageAfter> after,
                        After(da::ListKind::kBuilds, application_id, cursor));
    SV_ASSIGN_OR_RETURN(
        std::vector<ports::BuildRow> rows,
        deps.registry->ListBuilds(tx, actor.org_id, project_id, application_id, after, limit + 1));
    page = PageOf(std::move(rows), limit, da::ListKind::kBuilds, application_id);
    return Status::Ok();
  }));
  return page;
}

Result<CaptureStatus> GetCaptureStatus(const ApplicationsDeps& deps, const ConsoleActor& actor,
                                       const std::string& project_id, const std::string& application_id,
                                       const std::string& installation_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  CaptureStatus out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireApplication(deps, tx, actor.org_id, project_id, application_id).status());
    SV_ASSIGN_OR_RETURN(
        std::optional<ports::InstallationRow> inst,
        deps.registry->FindInstallation(tx, actor.org_id, project_id, application_id, installation_id));
    if (!inst) return NotFound("Installation not found");
    SV_ASSIGN_OR_RETURN(out.receipt, deps.receipts->FindReceipt(tx, actor.org_id, project_id, application_id,
                                                                installation_id));
    return Status::Ok();
  }));
  out.state = out.receipt ? da::kCaptureReceived : da::kWaiting;
  out.checked_at = deps.Now();
  return out;
}

Status DeleteApplication(const ApplicationsDeps& deps, const ConsoleActor& actor,
                         const std::string& project_id, const std::string& application_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor.org_id, project_id));
    SV_ASSIGN_OR_RETURN(bool deleted,
                        deps.registry->DeleteApplication(tx, actor.org_id, project_id, application_id));
    if (!deleted) return NotFound("Application not found");
    return Status::Ok();
  });
}

Status DeleteInstallation(const ApplicationsDeps& deps, const ConsoleActor& actor,
                          const std::string& project_id, const std::string& application_id,
                          const std::string& installation_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageApplications));
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireApplication(deps, tx, actor.org_id, project_id, application_id).status());
    SV_ASSIGN_OR_RETURN(bool deleted, deps.registry->DeleteInstallation(tx, actor.org_id, project_id,
                                                                        application_id, installation_id));
    if (!deleted) return NotFound("Installation not found");
    return Status::Ok();
  });
}

Status OnAcceptedCapture(const ApplicationsDeps& deps, ports::Tx& tx, const capture::AcceptedCapture& c) {
  if (!c.identity) return Status::Ok();
  const capture::CaptureIdentity& id = *c.identity;
  if (!util::IsUuid(id.application_id) || !util::IsUuid(id.installation_id)) return Status::Ok();
  SV_ASSIGN_OR_RETURN(
      std::optional<ports::InstallationRow> inst,
      deps.registry->FindInstallation(tx, c.org_id, c.project_id, id.application_id, id.installation_id));
  if (!inst) return Status::Ok();  // another project's, deleted, or never registered

  bool retry = false;
  std::string capture_id;
  if (da::IsUsableClientCaptureId(id.capture_id)) {
    SV_ASSIGN_OR_RETURN(bool first, deps.receipts->ClaimClientCaptureId(tx, inst->id, id.capture_id,
                                                                        c.occurrence_id, c.accepted_at_ms));
    retry = !first;
    capture_id = id.capture_id;
  } else {
    capture_id = deps.ids->NewId();
  }

  ports::CaptureIdentityRow row;
  row.occurrence_id = c.occurrence_id;
  row.capture_id = capture_id;
  row.org_id = c.org_id;
  row.project_id = c.project_id;
  row.application_id = inst->application_id;
  row.installation_id = inst->id;
  row.sdk_name = id.sdk_name;
  row.sdk_version = id.sdk_version;
  row.source = id.source;
  row.framework = id.framework;
  row.runtime = id.runtime;
  row.os_family = id.os_family;
  row.platform = c.platform;
  row.accepted_at = c.accepted_at_ms;
  SV_RETURN_IF_ERROR(deps.receipts->InsertIdentity(tx, row));

  if (inst->capture_received || retry || !c.newly_accepted) return Status::Ok();
  if (da::DecideReceipt(id, c.platform, deps.native_receipts) != da::ReceiptDecision::kQualifies) {
    return Status::Ok();
  }
  ports::ReceiptRow receipt;
  receipt.installation_id = inst->id;
  receipt.org_id = c.org_id;
  receipt.project_id = c.project_id;
  receipt.application_id = inst->application_id;
  receipt.capture_id = capture_id;
  receipt.occurrence_id = c.occurrence_id;
  receipt.bug_id = c.bug_id;
  receipt.accepted_at = c.accepted_at_ms;
  receipt.sdk_name = id.sdk_name;
  receipt.sdk_version = id.sdk_version;
  receipt.capture_source = id.source;
  receipt.platform = c.platform;
  receipt.os_family = id.os_family;
  receipt.framework = id.framework;
  receipt.runtime = id.runtime;
  return deps.receipts->InsertReceiptIfAbsent(tx, receipt).status();
}

}  // namespace service::app::applications
