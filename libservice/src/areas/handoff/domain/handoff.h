// Handoff rules that need no I/O (Spec 2 "Agent notification row", "Agent
// settings", "Agent handoff", "States and transitions", "Limits"): the
// limits, the prUrl rule, the live status of a row linked to a delivery,
// the agent state of a bug, auto-notify's severity threshold and the
// listen cursor.
//
// Pure; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace service::domain::handoff {

// Limits (Spec 2 "Limits").
inline constexpr int64_t kReuseWindowMs = 60'000;                // repeat notify-agent
inline constexpr int64_t kListenBacklogMs = 24LL * 3600 * 1000;  // MCP listen backlog
inline constexpr size_t kMaxPrUrlLength = 2048;
// Ours: an ack's optional note (characters), rows per listen answer,
// history entries in agent-status.
inline constexpr size_t kMaxNoteLength = 500;
inline constexpr int64_t kListenPageSize = 100;
inline constexpr int64_t kHistoryLimit = 50;

// Row statuses, channels and triggers (Spec 2 "Agent notification row").
inline constexpr std::string_view kQueued = "queued";
inline constexpr std::string_view kDelivered = "delivered";
inline constexpr std::string_view kFailed = "failed";
inline constexpr std::string_view kNoChannel = "no_channel";
inline constexpr std::string_view kChannelMcp = "mcp";
inline constexpr std::string_view kTriggerAuto = "auto";
inline constexpr std::string_view kTriggerManual = "manual";
// The one ack action Spec 2 shows.
inline constexpr std::string_view kActionWorking = "working";
// agent_update's agentAction for a new prUrl.
inline constexpr std::string_view kActionPrOpened = "pr_opened";

// "" when `url` may be stored as a bug's prUrl, else why not: an absolute
// https URL (scheme case-insensitive) with a host, no user or password, no
// spaces or control characters, at most 2048 characters.
std::string PrUrlProblem(std::string_view url);

// A row's status as answered: a row linked to a delivery takes the
// delivery's live outcome (pending, deferred -> queued; success ->
// delivered; failed, canceled -> failed); without one (`delivery_status`
// empty) the stored status stands.
std::string LiveStatus(std::string_view stored_status, std::string_view delivery_status);

// The agent state of a bug (Spec 2 "States and transitions"): pr_opened
// once a prUrl is stored, else working after a working ack, else from the
// latest notification batch: no_channel when it found no channel, notified
// otherwise; none when the bug was never notified.
enum class LatestBatch { kNone, kNoChannel, kNotified };
std::string AgentState(bool has_pr_url, bool acked_working, LatestBatch latest);

// Auto-notify's threshold: `severity` at or above `min_severity` (critical >
// high > medium > low; an unknown severity is below every threshold).
bool AtOrAbove(std::string_view severity, std::string_view min_severity);

// The listen cursor: the position (creation time, id) of the last row a
// listener saw, written as opaque text (base64url of "<ms>:<id>").
struct Cursor {
  int64_t created_at = 0;
  std::string id;
};
std::string EncodeCursor(const Cursor& c);
// nullopt: not a cursor this service wrote.
std::optional<Cursor> DecodeCursor(std::string_view text);

}  // namespace service::domain::handoff
