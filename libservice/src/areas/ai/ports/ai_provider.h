// AiProvider: one chat completion from a large-language-model service, used
// by the AI summary (and later analysis) use cases. The adapter owns the wire
// format and credentials; callers pass messages and get the reply text.
//
// Failures (never containing the provider's key or URL query):
//   kUnavailable  the provider could not be reached or timed out
//   kBadGateway   the provider answered with an error status or a reply that
//                 is not a chat completion
//   kPermissionDenied (error_code ports::kDestinationRefused) the configured
//                 URL points at a refused (private) destination
//
// Thread-safety: Complete may be called from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "service/status.h"

namespace service::ports {

class OutboundHttp;

// Where the provider is and how it signs in (the AI module fills it from
// Options::ai: SERVICE_AI_URL, SERVICE_AI_KEY, SERVICE_AI_MODEL).
struct AiProviderSettings {
  std::string url;    // OpenAI-compatible base or chat-completions URL
  std::string key;    // sent as a bearer token; empty: none
  std::string model;  // empty: kDefaultAiModel
};

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

struct ChatRequest {
  std::vector<ChatMessage> messages;
  double temperature = 0.2;
  // Ask for a JSON object reply (response_format json_object) where the
  // provider supports it; the caller must still validate the reply.
  bool json_object = false;
  // Upper bound on the reply's tokens. 0: the provider's default.
  int max_tokens = 0;
  // Default: 30 s.
  int64_t timeout_ms = 30'000;
  // Who asks, for the usage record of every call (ai_usage, GET
  // /v1/admin/ai-usage): the feature ("ai_summary", ...; empty:
  // "unattributed") and the organization (empty: none).
  std::string feature;
  std::string org_id;
};

struct ChatReply {
  std::string content;  // choices[0].message.content
  std::string model;    // the model that answered (the configured one if unreported)
  // The provider's usage fields (usage.prompt_tokens, completion_tokens);
  // 0 when it reported none.
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
};

class AiProvider {
 public:
  AiProvider() = default;
  AiProvider(const AiProvider&) = delete;
  AiProvider& operator=(const AiProvider&) = delete;
  virtual ~AiProvider() = default;

  virtual Result<ChatReply> Complete(const ChatRequest& request) = 0;
  // Provider kind reported to clients, e.g. "openai-compatible".
  virtual std::string_view name() const = 0;
  // The configured model name.
  virtual const std::string& model() const = 0;
};

// Model used when SERVICE_AI_MODEL is empty.
inline constexpr const char* kDefaultAiModel = "gpt-4o-mini";

// The chat-completions endpoint for SERVICE_AI_URL: a URL whose path already
// ends in "/chat/completions" is used as is; anything else is a base URL
// ("http://host:8000/v1", "https://api.openai.com/v1/") to which
// "/chat/completions" is appended (a query string is kept at the end).
std::string ChatCompletionsUrl(std::string_view configured_url);

// An OpenAI-compatible chat-completions provider (adapters/ai): POST
// {model, messages, temperature[, response_format: {type: json_object}]}
// with "Authorization: Bearer <key>" when a key is set. A provider that
// rejects response_format (HTTP 400 naming it) is asked again without it, and
// not asked with it again. REQUIRES: settings.url non-empty; `http` outlives
// the provider.
std::unique_ptr<AiProvider> NewOpenAiCompatibleProvider(const AiProviderSettings& settings,
                                                        OutboundHttp& http);

}  // namespace service::ports
