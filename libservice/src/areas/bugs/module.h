// The triage-reads area (Spec 1 "Bugs: read"): lists, groups, search and
// one bug with its parts, over the bugs the capture area writes.
#pragma once

#include <memory>

#include "areas/agent_tokens/app/agent_tokens.h"
#include "areas/bugs/app/bugs.h"
#include "areas/bugs/app/search.h"
#include "areas/bugs/ports/bug_insight_repository.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/bugs/ports/bug_search_repository.h"
#include "areas/capture/module.h"
#include "modules/module.h"

namespace service::modules {

class BugsModule final : public Module {
 public:
  explicit BugsModule(CaptureModule& capture) : capture_(capture) {}
  std::string_view name() const override { return "bugs"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;
  // The triage reads' dependencies (valid after Open).
  const app::bugs::BugsDeps& deps() const { return deps_; }
  // The verification area hands over its verified-fixed read (before the
  // service handles requests).
  void SetVerifiedFixRead(app::bugs::VerifiedFixRead read) { deps_.verified_fix = std::move(read); }

 private:
  CaptureModule& capture_;
  std::unique_ptr<ports::BugReadRepository> bugs_;
  std::unique_ptr<ports::BugInsightRepository> insights_;
  std::unique_ptr<ports::BugSearchRepository> search_;
  std::unique_ptr<app::bugs::SearchIndex> search_index_;
  app::bugs::BugsDeps deps_;
  const app::agent_tokens::AgentTokensDeps* agent_tokens_ = nullptr;  // the metered event read
};

}  // namespace service::modules
