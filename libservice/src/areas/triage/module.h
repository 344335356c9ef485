// The triage area (Spec 1 "Bugs: write", notifications, team activity and
// usage): the rows people attach to bugs (comments, watchers, status
// history, assignments, notifications and their preferences), the bug
// writes (PATCH, bulk, merge, delete), the AI analysis routes, and what an
// organization's, a member's or an account's deletion must remove or clear
// of them. Workers: email digests, alert email batches (digests.h) and
// their retention sweep, chat posts.
#pragma once

#include <memory>

#include "areas/ai/module.h"
#include "areas/bugs/module.h"
#include "areas/triage/app/triage.h"
#include "areas/triage/ports/bug_write_repository.h"
#include "areas/triage/ports/digest_repository.h"
#include "areas/triage/ports/triage_repository.h"
#include "modules/module.h"

namespace service::modules {

class TriageModule final : public Module {
 public:
  TriageModule(BugsModule& bugs, AiModule& ai) : bugs_module_(bugs), ai_(ai) {}
  std::string_view name() const override { return "triage"; }
  // SERVICE_DIGEST_PERIODS.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // Where triage events go inside their transaction (outbound deliveries).
  const app::triage::TriageDeps& deps() const { return deps_; }
  // The alert policy's answer for members' alert emails (TriageDeps::alert_gate),
  // given by the integrations area, which owns the policy, when it opens
  // (before any worker starts).
  void SetAlertGate(decltype(app::triage::TriageDeps::alert_gate) gate) {
    deps_.alert_gate = std::move(gate);
  }

 private:
  BugsModule& bugs_module_;
  AiModule& ai_;
  std::unique_ptr<ports::TriageRepository> triage_;
  std::unique_ptr<ports::DigestRepository> digests_;
  std::unique_ptr<ports::BugWriteRepository> bugs_;
  app::triage::TriageDeps deps_;
};

}  // namespace service::modules
