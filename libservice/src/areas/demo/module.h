// The demo: `service-server --demo` seeds an empty database with a demo
// organization and sample reports sent through the capture pipeline.
#pragma once

#include <memory>

#include "areas/accounts/module.h"
#include "areas/capture/module.h"
#include "areas/demo/app/demo.h"
#include "areas/triage/ports/bug_write_repository.h"
#include "modules/module.h"
#include "service/clock.h"

namespace service::modules {

class DemoModule final : public Module {
 public:
  DemoModule(AccountsModule& accounts, CaptureModule& capture) : accounts_(accounts), capture_(capture) {}
  std::string_view name() const override { return "demo"; }
  Status Open(Platform& platform) override;

  Result<app::demo::DemoResult> Seed() { return app::demo::SeedDemo(deps_); }

 private:
  AccountsModule& accounts_;
  CaptureModule& capture_;
  std::unique_ptr<ports::BugWriteRepository> bug_writes_;
  // The time the demo's reports arrive at (set before each; seeding runs on
  // one thread before the service serves requests).
  std::shared_ptr<ManualClock> report_clock_;
  app::demo::DemoDeps deps_;
};

}  // namespace service::modules
