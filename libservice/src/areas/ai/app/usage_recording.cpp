#include "areas/ai/app/usage_recording.h"

#include <string>

namespace service::app::ai {
namespace {

class UsageRecordingProvider final : public ports::AiProvider {
 public:
  UsageRecordingProvider(ports::AiProvider& inner, const UsageRecordingDeps& deps)
      : inner_(inner), deps_(deps) {}

  Result<ports::ChatReply> Complete(const ports::ChatRequest& request) override {
    Result<ports::ChatReply> reply = inner_.Complete(request);
    ports::AiUsageRecord r;
    r.id = deps_.ids->NewId();
    if (!request.org_id.empty()) r.org_id = request.org_id;
    r.feature = request.feature.empty() ? std::string(kUnattributedFeature) : request.feature;
    r.provider = std::string(inner_.name());
    r.model = inner_.model();
    r.succeeded = reply.ok();
    if (reply.ok()) {
      if (!reply->model.empty()) r.model = reply->model.substr(0, 200);
      r.input_tokens = reply->input_tokens;
      r.output_tokens = reply->output_tokens;
    }
    r.created_at = deps_.clock->NowMillis();
    Status s = deps_.db->Write([&](ports::Tx& tx) { return deps_.usage->Insert(tx, r); });
    if (!s.ok() && deps_.log) deps_.log->Log(LogLevel::kWarning, "ai usage record failed: " + s.message());
    return reply;
  }

  std::string_view name() const override { return inner_.name(); }
  const std::string& model() const override { return inner_.model(); }

 private:
  ports::AiProvider& inner_;
  const UsageRecordingDeps deps_;
};

}  // namespace

std::unique_ptr<ports::AiProvider> NewUsageRecordingProvider(ports::AiProvider& inner,
                                                             const UsageRecordingDeps& deps) {
  return std::make_unique<UsageRecordingProvider>(inner, deps);
}

}  // namespace service::app::ai
