// The recommendations area: the producer of the outbound event
// recommended_bug (Spec 2 "Events"; README "Recommended bug events"). A
// worker task ("recommended-bug", every 60 s) emits the top recommended bug
// of each project that has an active integration subscribed to the event,
// once per bug (re-emitted after the bug was closed and came back to the
// top), through the integrations engine. It takes bugs (the recommended
// ranking, a bug's history) and integrations (destinations, deliveries).
// Its rows (recommended_emissions, migration 0035) go with their
// organization, project and bug (foreign keys): no deletion hooks. No
// routes.
#pragma once

#include <memory>

#include "areas/bugs/module.h"
#include "areas/integrations/module.h"
#include "areas/recommendations/app/recommendations.h"
#include "areas/recommendations/ports/recommendation_repository.h"
#include "modules/module.h"

namespace service::modules {

class RecommendationsModule final : public Module {
 public:
  RecommendationsModule(BugsModule& bugs, IntegrationsModule& integrations)
      : bugs_(bugs), integrations_(integrations) {}
  std::string_view name() const override { return "recommendations"; }
  Status Open(Platform& platform) override;

  // The worker's dependencies (valid after Open): tests run
  // app::recommendations::EmitRecommended with them.
  const app::recommendations::RecommendationsDeps& deps() const { return deps_; }

 private:
  BugsModule& bugs_;
  IntegrationsModule& integrations_;
  std::unique_ptr<ports::RecommendationRepository> emissions_;
  app::recommendations::RecommendationsDeps deps_;
};

}  // namespace service::modules
