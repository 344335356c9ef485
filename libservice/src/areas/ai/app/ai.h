// AI summary use case (Spec 1 "POST /v1/ingest/ai-summary"): asks the
// configured AI provider to summarize a captured report (title, severity,
// description) before the SDK submits it. Nothing is persisted.
//
// Only the first kMaxSummaryEvents events are considered; each event's text is
// shortened and the prompt is bounded, so a 10 MB body never becomes a
// 10 MB prompt. The context's userId is accepted but never sent to the
// provider (it identifies a person and does not help a summary). Title, URL,
// context and events are scrubbed with the project's settings first, as a
// report's would be (README "Scrubbing"): the provider is an outside party.
//
// Thread-safety: SummarizeReport is safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "areas/ai/ports/ai_provider.h"
#include "service/status.h"

namespace service::app::ai {

struct SummaryInput;

// What the AI area needs: the provider, null when none is configured.
struct AiDeps {
  ports::AiProvider* ai = nullptr;
  // Scrubs a request in place (its strings and first kMaxSummaryEvents
  // events) with its project's settings before anything of it reaches the
  // provider (the capture area's rules; null: sent as
  // given, only in tests of the prompt).
  std::function<Status(SummaryInput&)> scrub;
};

inline constexpr size_t kMaxSummaryEvents = 500;
inline constexpr size_t kMaxSummaryTitle = 500;           // code points
inline constexpr size_t kMaxSummaryDescription = 10'000;  // code points

struct SummaryContext {
  std::string environment;
  std::string release;
  std::string user_agent;
  std::string user_id;
};

struct SummaryInput {
  std::vector<boost::json::object> events;  // in capture order
  std::string title;
  std::string url;
  SummaryContext context;
  std::string org_id;      // the capture key's organization (the usage record)
  std::string project_id;  // the capture key's project (its scrubbing settings)
};

struct ReportSummary {
  std::string title;
  std::string severity;  // critical, high, medium or low
  std::string description;
  bool truncated = false;  // more than kMaxSummaryEvents events were sent
  std::string provider;    // e.g. "openai-compatible"
  std::string model;
};

// Failures: kUnavailable "AI service not configured" when no provider is set;
// kBadGateway "AI provider request failed" (a generic message: details stay
// out of responses) when the provider is unreachable, errs or replies with
// something that is not a summary.
// `in` is scrubbed in place (deps.scrub: its first kMaxSummaryEvents
// events, the only ones the provider sees) before the prompt is built.
Result<ReportSummary> SummarizeReport(const AiDeps& deps, SummaryInput& in);

// The two chat messages (system, user) for `in`. Exposed for tests.
std::vector<ports::ChatMessage> BuildSummaryPrompt(const SummaryInput& in);

// Reads the provider's reply: a JSON object (optionally inside a Markdown
// code fence or surrounded by text) with title, severity, description.
// Severity outside critical/high/medium/low becomes medium; the title is made
// one line and cut to kMaxSummaryTitle (an empty title falls back to
// `fallback_title`, then to "Bug report"); the description is cut to
// kMaxSummaryDescription. No JSON object: kBadGateway. Exposed for tests.
Result<ReportSummary> ParseSummaryReply(std::string_view content, std::string_view fallback_title);

}  // namespace service::app::ai
