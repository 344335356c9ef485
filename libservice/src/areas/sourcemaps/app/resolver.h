// Resolution of minified frames at ingest (issue 31 item 2): the Sentry
// area's FrameResolver, handed over by the sourcemaps module.
//
// Finding a frame's map:
//   1. by debug id: the event's `sourcemap` images (debug_meta.images) give
//      the frame's file a debug id (domain::sourcemaps::DebugIdForFrame);
//      the project's newest uploaded `source_map` file with that debug id;
//   2. else by release: the event's release and dist, and the frame URL's
//      path (NormalizeUrlPath): the project's newest `minified_source` file
//      of that release and dist whose name matches the URL
//      (ArtifactMatchesUrl), then its map: the file its `sourcemap` header
//      names (relative to the minified file's path, or absolute), else the
//      minified file's path + ".map", in the same release and dist (the
//      same bundle first);
//   3. else the frame stays as sent with reason map_not_found.
// A project without any upload is not looked at: its frames get no
// `mapped` at all.
//
// Caches (one per process; another process's upload is seen when an entry
// expires):
//   - maps parsed from their files, shared between threads, kept within
//     CacheOptions::max_map_bytes by their memory_bytes() (least recently
//     used first out); a map over the whole budget is used and not kept;
//   - each lookup's answer (which file, or why none) for
//     found_ttl_ms / missing_ttl_ms;
//   - whether a project has any upload, for missing_ttl_ms.
// A read or parse failure is never an ingest failure: the frame keeps the
// reason (map_malformed, map_unsupported, map_too_large from the decoder;
// map_unavailable for storage errors, logged).
//
// Thread-safety: Resolve is safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "areas/sentry/app/sentry.h"
#include "areas/sourcemaps/app/sourcemaps.h"
#include "areas/sourcemaps/domain/resolve.h"
#include "service/logger.h"

namespace service::app::sourcemaps {

inline constexpr std::string_view kReasonMapUnavailable = "map_unavailable";

struct CacheOptions {
  size_t max_map_bytes = 64u << 20;
  int64_t found_ttl_ms = 300'000;
  int64_t missing_ttl_ms = 10'000;
  size_t max_lookups = 20'000;  // lookup answers kept (all dropped when full)
};

class FrameResolver final : public sentry::FrameResolver {
 public:
  FrameResolver(const SourcemapsDeps* deps, Logger* log, CacheOptions options = {});

  int Resolve(const std::string& org_id, const std::string& project_id, const boost::json::object& event,
              boost::json::array& frames) override;

  // A bundle was stored for the project: its lookups that found nothing
  // are forgotten (this process sees an upload at once).
  void Forget(const std::string& project_id);

  struct Stats {
    int64_t maps_parsed = 0;
    int64_t map_hits = 0;
    int64_t lookups = 0;  // database lookups
    size_t map_bytes = 0;
    size_t maps_cached = 0;
  };
  Stats stats() const;

 private:
  struct Found {
    std::string map_key;  // "" when none: see reason
    ports::SourcemapFileRow file;
    std::string reason;
    int64_t expires_at = 0;
  };
  struct CachedMap {
    std::shared_ptr<const domain::sourcemaps::SourceMap> map;
    std::list<std::string>::iterator lru;
  };

  bool HasUploads(const std::string& org_id, const std::string& project_id, int64_t now);
  Found Lookup(const std::string& project_id, const std::string& key,
               const std::function<Result<std::optional<ports::SourcemapFileRow>>(ports::Tx&)>& find,
               int64_t now);
  domain::sourcemaps::MapFor MapOf(const Found& found,
                                   std::shared_ptr<const domain::sourcemaps::SourceMap>* hold);

  const SourcemapsDeps* deps_;
  Logger* log_;
  CacheOptions options_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::pair<bool, int64_t>> has_uploads_;  // project -> (has, expires)
  std::unordered_map<std::string, Found> lookups_;
  std::unordered_map<std::string, CachedMap> maps_;
  std::list<std::string> lru_;  // most recently used first
  Stats stats_;
};

}  // namespace service::app::sourcemaps
