#include "areas/ai/module.h"

#include <algorithm>
#include <span>

#include "areas/ai/api/routes.h"
#include "areas/ai/store/repositories.h"
#include "areas/capture/app/scrubbing.h"
#include "util/strings.h"

namespace service::modules {
namespace {

Status ApplyAiUrl(Options& options, std::string_view value) {
  const std::string var = "SERVICE_AI_URL";
  const std::string trimmed = util::Trim(value);
  if (!trimmed.empty()) {
    const std::string problem = CheckHttpUrl(trimmed, /*allow_path=*/true);
    if (!problem.empty()) {
      return InvalidArgument(var + " " + problem +
                             "; expected the http(s) URL of an OpenAI-compatible endpoint, got " +
                             QuoteSettingValue(trimmed));
    }
  }
  options.ai.url = trimmed;
  return Status::Ok();
}

Status ApplyAiKey(Options& options, std::string_view value) {
  const std::string var = "SERVICE_AI_KEY";
  const std::string trimmed = util::Trim(value);
  if (HasSpaceOrControl(trimmed)) return InvalidArgument(var + " must not contain spaces");
  options.ai.key = trimmed;  // never echoed
  return Status::Ok();
}

Status ApplyAiModel(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  options.ai.model = trimmed;
  return Status::Ok();
}

}  // namespace

void AiModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back({"SERVICE_AI_URL", "", "", "OpenAI-compatible chat-completions endpoint (http(s) URL)",
                  "unset: AI routes answer 503", ApplyAiUrl});
  rows.push_back({"SERVICE_AI_KEY", "", "", "API key for SERVICE_AI_URL", "unset", ApplyAiKey});
  rows.push_back({"SERVICE_AI_MODEL", "", "", "model name sent to SERVICE_AI_URL", "unset", ApplyAiModel});
}

Status AiModule::Open(Platform& p) {
  if (!p.options.ai.url.empty()) {
    const ports::AiProviderSettings settings{p.options.ai.url, p.options.ai.key, p.options.ai.model};
    wire_ = ports::NewOpenAiCompatibleProvider(settings, *p.http);
    usage_ = store::NewSqlAiUsageRepository();
    provider_ = app::ai::NewUsageRecordingProvider(
        *wire_,
        app::ai::UsageRecordingDeps{p.tx.get(), usage_.get(), p.ids.get(), p.clock.get(), p.log.get()});
  }
  deps_.ai = provider_.get();
  deps_.scrub = [&capture = capture_](app::ai::SummaryInput& in) {
    app::ai::SummaryContext& c = in.context;
    return app::capture::ScrubSummaryRequest(
        capture.deps(), in.project_id, in.title,
        {&in.url, &c.environment, &c.release, &c.user_agent, &c.user_id},
        std::span(in.events.data(), std::min(in.events.size(), app::ai::kMaxSummaryEvents)));
  };
  return Status::Ok();
}

void AiModule::RegisterRoutes(api::Pipeline& pipeline) { api::RegisterAiRoutes(pipeline, deps_); }

}  // namespace service::modules
