// The OpenAI-compatible chat-completions provider behind ports::AiProvider
// (OpenAI, Azure-style gateways, vLLM, llama.cpp server, Ollama's /v1, ...).
#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "areas/ai/ports/ai_provider.h"
#include "ports/outbound_http.h"

namespace service::ports {
namespace {

namespace json = boost::json;

constexpr std::string_view kSuffix = "/chat/completions";

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A provider's 400 that names the response_format parameter: it does not
// support JSON mode.
bool RejectsJsonMode(const HttpResponse& r) {
  return (r.status == 400 || r.status == 422) && r.body.find("response_format") != std::string::npos;
}

// A non-negative integer usage field, else 0.
int64_t TokenCount(const json::object& usage, std::string_view name) {
  const json::value* v = usage.if_contains(name);
  if (!v) return 0;
  if (v->is_int64()) return std::max<int64_t>(0, v->get_int64());
  if (v->is_uint64()) return static_cast<int64_t>(std::min<uint64_t>(v->get_uint64(), INT64_MAX));
  return 0;
}

class OpenAiCompatibleProvider final : public AiProvider {
 public:
  OpenAiCompatibleProvider(const AiProviderSettings& settings, OutboundHttp& http)
      : endpoint_(ChatCompletionsUrl(settings.url)),
        key_(settings.key),
        model_(settings.model.empty() ? std::string(kDefaultAiModel) : settings.model),
        http_(http) {}

  Result<ChatReply> Complete(const ChatRequest& request) override {
    const bool json_mode = request.json_object && json_mode_supported_.load(std::memory_order_relaxed);
    SV_ASSIGN_OR_RETURN(HttpResponse r, Post(request, json_mode));
    if (json_mode && RejectsJsonMode(r)) {
      json_mode_supported_.store(false, std::memory_order_relaxed);
      SV_ASSIGN_OR_RETURN(r, Post(request, false));
    }
    return ParseReply(r);
  }

  std::string_view name() const override { return "openai-compatible"; }
  const std::string& model() const override { return model_; }

 private:
  Result<HttpResponse> Post(const ChatRequest& request, bool json_mode) {
    json::array messages;
    for (const ChatMessage& m : request.messages) {
      messages.push_back(json::object{{"role", m.role}, {"content", m.content}});
    }
    json::object body{
        {"model", model_}, {"messages", std::move(messages)}, {"temperature", request.temperature}};
    if (json_mode) body["response_format"] = json::object{{"type", "json_object"}};
    if (request.max_tokens > 0) body["max_tokens"] = request.max_tokens;

    std::vector<std::pair<std::string, std::string>> headers = {{"Content-Type", "application/json"},
                                                                {"Accept", "application/json"}};
    if (!key_.empty()) headers.emplace_back("Authorization", "Bearer " + key_);
    Result<HttpResponse> r =
        http_.Post(endpoint_, json::serialize(body), std::move(headers), request.timeout_ms);
    if (!r.ok()) {
      // The transport's message names the host at most; keep its class.
      const Status& s = r.status();
      return Status(s.code(), "AI provider request failed: " + s.message(), s.error_code());
    }
    return r;
  }

  Result<ChatReply> ParseReply(const HttpResponse& r) const {
    // The body of an error reply is never repeated: providers echo parts of
    // the key in authentication errors.
    if (r.status == 429) return Status(Code::kUnavailable, "AI provider is rate limiting (HTTP 429)");
    if (r.status < 200 || r.status > 299) {
      return Status(Code::kBadGateway, "AI provider answered HTTP " + std::to_string(r.status));
    }
    boost::system::error_code ec;
    json::value v = json::parse(r.body, ec);
    if (ec || !v.is_object()) return Status(Code::kBadGateway, "AI provider reply is not JSON");
    const json::object& o = v.as_object();
    const json::value* choices = o.if_contains("choices");
    if (!choices || !choices->is_array() || choices->as_array().empty() ||
        !choices->as_array()[0].is_object()) {
      return Status(Code::kBadGateway, "AI provider reply has no choices");
    }
    const json::value* message = choices->as_array()[0].as_object().if_contains("message");
    const json::value* content =
        message && message->is_object() ? message->as_object().if_contains("content") : nullptr;
    if (!content || !content->is_string())
      return Status(Code::kBadGateway, "AI provider reply has no content");
    ChatReply reply;
    reply.content = std::string(content->as_string());
    const json::value* model = o.if_contains("model");
    reply.model =
        model && model->is_string() && !model->as_string().empty() ? std::string(model->as_string()) : model_;
    if (const json::value* usage = o.if_contains("usage"); usage && usage->is_object()) {
      reply.input_tokens = TokenCount(usage->as_object(), "prompt_tokens");
      reply.output_tokens = TokenCount(usage->as_object(), "completion_tokens");
    }
    return reply;
  }

  const std::string endpoint_;
  const std::string key_;  // never logged or echoed
  const std::string model_;
  OutboundHttp& http_;
  std::atomic<bool> json_mode_supported_{true};
};

}  // namespace

std::string ChatCompletionsUrl(std::string_view configured_url) {
  std::string_view url = configured_url;
  std::string_view tail;  // "?query" and/or "#fragment", kept at the end
  const size_t cut = url.find_first_of("?#");
  if (cut != std::string_view::npos) {
    tail = url.substr(cut);
    url = url.substr(0, cut);
  }
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  std::string out(url);
  if (!EndsWith(url, kSuffix)) out += kSuffix;
  out += tail;
  return out;
}

std::unique_ptr<AiProvider> NewOpenAiCompatibleProvider(const AiProviderSettings& settings,
                                                        OutboundHttp& http) {
  return std::make_unique<OpenAiCompatibleProvider>(settings, http);
}

}  // namespace service::ports
