// The capture area: ingest, presence, console reports (manual reports and
// test events), with its in-memory runtime (key cache, batched last_used,
// group commit of reports) and its worker tasks.
#pragma once

#include <memory>

#include "areas/capture/app/deps.h"
#include "areas/capture/app/runtime.h"
#include "areas/projects/module.h"
#include "modules/module.h"

namespace service::modules {

class CaptureModule final : public Module {
 public:
  explicit CaptureModule(ProjectsModule& projects) : projects_(projects) {}
  std::string_view name() const override { return "capture"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  const app::capture::CaptureDeps& deps() const { return deps_; }
  app::capture::Runtime& runtime() { return *runtime_; }

 private:
  ProjectsModule& projects_;
  std::unique_ptr<ports::CaptureBugRepository> bugs_;
  std::unique_ptr<ports::OccurrenceRepository> occurrences_;
  std::unique_ptr<ports::EndUserRepository> end_users_;
  std::unique_ptr<ports::PresenceRepository> presence_;
  std::unique_ptr<ports::DuplicateCandidateRepository> duplicates_;
  std::unique_ptr<app::capture::Runtime> runtime_;
  app::capture::CaptureDeps deps_;
};

}  // namespace service::modules
