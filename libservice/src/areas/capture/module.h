// The capture area: ingest, presence, console reports (manual reports and
// test events), with its in-memory runtime (key cache, batched last_used,
// group commit of reports), scrubbing (its settings cache and counters)
// and its worker tasks.
#pragma once

#include <memory>
#include <vector>

#include "areas/capture/app/deps.h"
#include "areas/capture/app/runtime.h"
#include "areas/capture/app/scrubbing.h"
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
  // Adds a hook called inside the ingest transaction for every accepted v1
  // report naming metadata.capture or metadata.evidence
  // (app/accepted_capture.h). Call from a module's Open, before requests.
  void AddAcceptedCaptureHook(app::capture::AcceptedCaptureHook hook) {
    accepted_capture_hooks_.push_back(std::move(hook));
  }

 private:
  ProjectsModule& projects_;
  std::unique_ptr<ports::CaptureBugRepository> bugs_;
  std::unique_ptr<ports::OccurrenceRepository> occurrences_;
  std::unique_ptr<ports::EndUserRepository> end_users_;
  std::unique_ptr<ports::PresenceRepository> presence_;
  std::unique_ptr<ports::DuplicateCandidateRepository> duplicates_;
  std::unique_ptr<ports::ScrubbingRepository> scrubbing_settings_;
  std::unique_ptr<app::capture::Runtime> runtime_;
  std::unique_ptr<app::capture::ScrubbingCache> scrubbing_;
  std::vector<app::capture::AcceptedCaptureHook> accepted_capture_hooks_;
  app::capture::CaptureDeps deps_;
};

}  // namespace service::modules
