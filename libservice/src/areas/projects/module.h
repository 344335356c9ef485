// The projects area: projects and capture keys (/v1/projects/*), and the
// test event, which it sends through the capture area.
#pragma once

#include "areas/capture/module.h"
#include "areas/projects/api/routes.h"
#include "areas/projects/app/projects.h"
#include "modules/module.h"

namespace service::modules {

class ProjectsModule final : public Module {
 public:
  explicit ProjectsModule(CaptureModule& capture) : capture_(capture) {}
  std::string_view name() const override { return "projects"; }
  // projects, capture_keys.
  void Provide(Platform& platform) override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

 private:
  CaptureModule& capture_;
  app::projects::ProjectsDeps deps_;
  api::ProjectRoutes routes_;
};

}  // namespace service::modules
