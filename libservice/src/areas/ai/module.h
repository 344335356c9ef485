// The AI area: POST /v1/ingest/ai-summary (and its /v1/bugs alias) through
// the OpenAI-compatible provider, when one is configured; every provider
// call (its own and triage's) recorded in ai_usage.
#pragma once

#include <memory>

#include "areas/ai/app/ai.h"
#include "areas/ai/app/usage_recording.h"
#include "areas/ai/ports/ai_usage_repository.h"
#include "areas/capture/module.h"
#include "modules/module.h"

namespace service::modules {

class AiModule final : public Module {
 public:
  // `capture` scrubs what is sent to the provider with the project's settings.
  explicit AiModule(CaptureModule& capture) : capture_(capture) {}
  std::string_view name() const override { return "ai"; }
  // SERVICE_AI_URL, SERVICE_AI_KEY, SERVICE_AI_MODEL.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;
  // The configured provider, or null (valid after Open). Every call through
  // it is recorded in ai_usage (app/usage_recording.h).
  ports::AiProvider* provider() const { return provider_.get(); }

 private:
  CaptureModule& capture_;
  std::unique_ptr<ports::AiProvider> wire_;  // the OpenAI-compatible adapter; null: unconfigured
  std::unique_ptr<ports::AiUsageRepository> usage_;
  std::unique_ptr<ports::AiProvider> provider_;  // wire_ with its calls recorded
  app::ai::AiDeps deps_;
};

}  // namespace service::modules
