// The applications area (issue 30 items 2 and 3; Spec 2 "Application
// registry", "Applications"; contract "Capture identity"): applications,
// installations and builds of a project, each installation's first-capture
// receipt, and the managed identity of every accepted capture of a
// registered installation (the capture area's accepted-capture hook, inside
// the ingest transaction). It shares the ApplicationDirectory (seam D) with
// the areas above it. Its rows go with their organization and project
// (foreign keys): no deletion hooks.
#pragma once

#include <memory>
#include <vector>

#include "areas/applications/app/applications.h"
#include "areas/applications/ports/application_directory.h"
#include "areas/applications/ports/receipt_repository.h"
#include "areas/applications/ports/registry_repository.h"
#include "areas/capture/module.h"
#include "modules/module.h"

namespace service::modules {

class ApplicationsModule final : public Module {
 public:
  explicit ApplicationsModule(CaptureModule& capture) : capture_(capture) {}
  std::string_view name() const override { return "applications"; }
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  void Provide(Platform& platform) override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // The directory other areas ask (also platform.Shared<ports::ApplicationDirectory>()).
  // Valid after Provide.
  ports::ApplicationDirectory& directory() { return *directory_; }
  const app::applications::ApplicationsDeps& deps() const { return deps_; }

 private:
  CaptureModule& capture_;
  std::unique_ptr<ports::RegistryRepository> registry_;
  std::unique_ptr<ports::ReceiptRepository> receipts_;
  ports::ApplicationDirectory* directory_ = nullptr;  // owned by the platform (Share)
  app::applications::ApplicationsDeps deps_;
};

}  // namespace service::modules
