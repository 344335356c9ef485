// Scrubbing in the request (issue 31 item 3; README "Scrubbing"): every
// report is scrubbed by Ingest (ingest.cpp) before anything of it is
// computed or stored, with its project's settings; presence pings are
// scrubbed by RecordPresence. The rules are domain/scrub.h.
//
// Settings cache (ScrubbingCache): a project's settings are read once and
// kept for kScrubSettingsTtlMs, so ingest does not read the database per
// report. A change through this process (PutScrubbing) replaces the cached
// entry at once; a change made by another process on the same database is
// seen here within kScrubSettingsTtlMs (the bound).
//
// Counts: what was scrubbed is added in memory per (project, rule) and
// written in one transaction every kScrubCountsFlushIntervalMs by the
// "capture-scrub-counts" worker (and at shutdown); GetScrubbing adds this
// process's unwritten counts to the stored ones. A crash loses at most the
// last interval's counts (never a report, never a value).
//
// Thread-safety: every function and method is safe from any thread.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/actor.h"
#include "app/workers.h"
#include "areas/capture/app/deps.h"
#include "areas/capture/app/report.h"
#include "areas/capture/domain/scrub.h"
#include "service/status.h"
#include "util/mutex.h"

namespace service::app::capture {

inline constexpr int64_t kScrubSettingsTtlMs = 5'000;
inline constexpr int64_t kScrubCountsFlushIntervalMs = 5'000;

struct ScrubbingSettings {
  std::vector<std::string> extra_keys;  // as given
  bool scrub_messages = true;
  bool store_ip = true;
  int64_t updated_at = 0;  // 0: never changed (the defaults)
  std::string updated_by;
};

struct ScrubbingView {
  std::string project_id;
  ScrubbingSettings settings;
  domain::capture::ScrubCounts counts;  // stored plus this process's unwritten
  int64_t last_scrubbed_at = 0;         // the latest stored counter's; 0 when none
};

// A PUT body: absent members keep their value.
struct ScrubbingPatch {
  std::optional<std::vector<std::string>> extra_keys;
  std::optional<bool> scrub_messages;
  std::optional<bool> store_ip;
};

class ScrubbingCache {
 public:
  // REQUIRES: deps.db, clock and scrubbing_settings set; `deps` outlives this.
  explicit ScrubbingCache(const CaptureDeps& deps) : deps_(deps) {}
  ScrubbingCache(const ScrubbingCache&) = delete;
  ScrubbingCache& operator=(const ScrubbingCache&) = delete;

  // The project's rules (cached; kUnavailable when the database cannot be read).
  Result<std::shared_ptr<const domain::capture::ScrubOptions>> OptionsFor(const std::string& project_id);
  // Replaces the cached entry (after a change through this process).
  void Set(const std::string& project_id, const ScrubbingSettings& settings);

  // Adds a report's counts (cheap; no I/O).
  void Note(const std::string& project_id, const domain::capture::ScrubCounts& counts);
  // This process's unwritten counts of a project.
  domain::capture::ScrubCounts Pending(const std::string& project_id);
  // Writes the unwritten counts in one transaction; kept for the next
  // flush on failure.
  Status Flush();

 private:
  struct Entry {
    std::shared_ptr<const domain::capture::ScrubOptions> options;
    int64_t read_at = 0;
  };

  const CaptureDeps& deps_;
  util::SharedMutex mu_;
  std::unordered_map<std::string, Entry> entries_ SV_GUARDED_BY(mu_);
  uint64_t generation_ SV_GUARDED_BY(mu_) = 0;  // bumped by Set: an older read is not cached

  util::Mutex counts_mu_;
  std::unordered_map<std::string, domain::capture::ScrubCounts> pending_ SV_GUARDED_BY(counts_mu_);
};

// The rules of stored settings (extra keys normalized, empty ones dropped).
domain::capture::ScrubOptions OptionsOf(const ScrubbingSettings& settings);

// Scrubs a report in place with its project's settings (defaults when
// deps.scrubbing is null) and notes the counts. `*store_ip` tells whether
// the client address may be kept (as its keyed hash). Fails only when the
// settings cannot be read.
Status ScrubReport(const CaptureDeps& deps, const ReportSource& source, ReportInput& in, bool* store_ip);
// Scrubs what POST /v1/ingest/ai-summary sends to the AI provider, in
// place, with the project's settings, as a report's would be: `message`
// (the title) only when the project scrubs messages, `strings` (URL and
// context) and the `events` objects always. Nothing of it is stored, so
// nothing is counted.
Status ScrubSummaryRequest(const CaptureDeps& deps, const std::string& project_id, std::string& message,
                           const std::vector<std::string*>& strings, std::span<boost::json::object> events);
// Scrubs a presence ping's strings in place (url, path, title, referrer,
// interaction and metadata JSON text).
Status ScrubPresence(const CaptureDeps& deps, const std::string& project_id, PresenceInput& in);

// GET /v1/projects/:id/scrubbing (view_projects) and PUT (manage_projects).
// kNotFound "Project not found" for a project of another organization;
// kInvalidArgument for extra keys that are not 1-64 printable characters
// (after trimming) or more than kMaxExtraKeys of them.
Result<ScrubbingView> GetScrubbing(const CaptureDeps& deps, const ConsoleActor& actor,
                                   const std::string& project_id);
Result<ScrubbingView> PutScrubbing(const CaptureDeps& deps, const ConsoleActor& actor,
                                   const std::string& project_id, const ScrubbingPatch& patch);

// Registers the "capture-scrub-counts" worker. REQUIRES: deps.scrubbing set.
void RegisterScrubbingTasks(const CaptureDeps& deps, Workers& workers);

}  // namespace service::app::capture
