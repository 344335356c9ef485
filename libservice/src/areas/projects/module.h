// The projects area: projects and capture keys (/v1/projects/*). It makes
// a new organization's default project for the accounts area's signup.
#pragma once

#include <functional>
#include <utility>

#include "areas/accounts/module.h"
#include "areas/projects/app/projects.h"
#include "modules/module.h"

namespace service::modules {

class ProjectsModule final : public Module {
 public:
  explicit ProjectsModule(AccountsModule& accounts) : accounts_(accounts) {}
  std::string_view name() const override { return "projects"; }
  // projects, capture_keys.
  void Provide(Platform& platform) override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  // Called after a key was created or revoked in this process (the capture
  // area drops its cache of verified keys). Set while the modules open.
  void OnKeysChanged(std::function<void()> changed) { deps_.keys_changed = std::move(changed); }

 private:
  AccountsModule& accounts_;
  app::projects::ProjectsDeps deps_;
};

}  // namespace service::modules
