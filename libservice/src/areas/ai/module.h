// The AI area: POST /v1/ingest/ai-summary (and its /v1/bugs alias) through
// the OpenAI-compatible provider, when one is configured.
#pragma once

#include <memory>

#include "areas/ai/app/ai.h"
#include "modules/module.h"

namespace service::modules {

class AiModule final : public Module {
 public:
  std::string_view name() const override { return "ai"; }
  // SERVICE_AI_URL, SERVICE_AI_KEY, SERVICE_AI_MODEL.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;
  // The configured provider, or null (valid after Open).
  ports::AiProvider* provider() const { return provider_.get(); }

 private:
  std::unique_ptr<ports::AiProvider> provider_;  // null: unconfigured
  app::ai::AiDeps deps_;
};

}  // namespace service::modules
