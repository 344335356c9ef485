// The verification area (issue 30 item 4; Spec 2 "Runner and device
// enrollment", the verification rows of "Agent work"; README
// "Verification"): runner and device enrollment, challenges bound to live
// leases, signed receipts (RFC 8785 canonical JSON, Ed25519), their
// applicability, and promotion of a bug to verified fixed (completing the
// claim through the agent-work area). It reads applications, builds and a
// bug's observed targets through the applications area's directory
// (platform.Shared<ports::ApplicationDirectory>), bugs through the bugs
// area (and hands the bugs area its verified-fixed read for the single-bug
// read), asks the evidence area whether a receipt's artifacts are still
// ready, and learns of merges from triage's `deleted` events.
// Deletion: every row goes with its organization or project (foreign keys).
#pragma once

#include <memory>

#include "areas/agent_work/module.h"
#include "areas/bugs/module.h"
#include "areas/evidence/module.h"
#include "areas/verification/app/verification.h"
#include "areas/verification/ports/verification_repository.h"
#include "modules/module.h"

namespace service::modules {

class VerificationModule final : public Module {
 public:
  VerificationModule(BugsModule& bugs, AgentWorkModule& agent_work, EvidenceModule& evidence)
      : bugs_(bugs), agent_work_(agent_work), evidence_(evidence) {}
  std::string_view name() const override { return "verification"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  const app::verification::VerificationDeps& deps() const { return deps_; }

 private:
  BugsModule& bugs_;
  AgentWorkModule& agent_work_;
  EvidenceModule& evidence_;
  std::unique_ptr<ports::VerificationRepository> repo_;
  app::verification::VerificationDeps deps_;
};

}  // namespace service::modules
