#include "areas/sourcemaps/app/resolver.h"

#include <boost/json.hpp>

namespace service::app::sourcemaps {
namespace {

namespace json = boost::json;
namespace dsm = domain::sourcemaps;

constexpr std::string_view kSourceMapType = "source_map";
constexpr std::string_view kMinifiedType = "minified_source";

std::string_view Str(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

// The path of the map a minified file names: its `sourcemap` header
// relative to the file's own path (absolute when it is a URL or a path),
// else the file's path + ".map".
std::string MapPathFor(const ports::SourcemapFileRow& minified) {
  const std::string& ref = minified.sourcemap;
  if (ref.empty()) return minified.url_path + ".map";
  if (ref.find("://") != std::string::npos || ref.front() == '/' || ref.starts_with("~/"))
    return dsm::NormalizeUrlPath(ref);
  const size_t slash = minified.url_path.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : minified.url_path.substr(0, slash + 1);
  std::string_view rel = ref;
  while (rel.starts_with("./")) rel.remove_prefix(2);
  return dir + std::string(rel);
}

}  // namespace

FrameResolver::FrameResolver(const SourcemapsDeps* deps, Logger* log, CacheOptions options)
    : deps_(deps), log_(log), options_(options) {}

FrameResolver::Stats FrameResolver::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void FrameResolver::Forget(const std::string& project_id) {
  std::lock_guard<std::mutex> lock(mu_);
  has_uploads_.erase(project_id);
  const std::string prefix = project_id + "\x1f";
  for (auto it = lookups_.begin(); it != lookups_.end();) {
    if (it->second.map_key.empty() && it->first.starts_with(prefix)) {
      it = lookups_.erase(it);
    } else {
      ++it;
    }
  }
}

bool FrameResolver::HasUploads(const std::string& org_id, const std::string& project_id, int64_t now) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = has_uploads_.find(project_id);
    if (it != has_uploads_.end() && it->second.second > now) return it->second.first;
  }
  int64_t n = 0;
  const Status st = deps_->db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(n, deps_->repo->CountBundles(tx, org_id, project_id));
    return Status::Ok();
  });
  if (!st.ok()) {
    if (log_ != nullptr)
      log_->Log(LogLevel::kError, "source map lookup failed",
                {{"project_id", project_id}, {"error", st.message()}});
    return false;
  }
  const bool has = n > 0;
  std::lock_guard<std::mutex> lock(mu_);
  if (has_uploads_.size() >= options_.max_lookups) has_uploads_.clear();
  // An upload is seen at once by this process (Forget); another process's
  // within missing_ttl_ms.
  has_uploads_[project_id] = {has, now + (has ? options_.found_ttl_ms : options_.missing_ttl_ms)};
  return has;
}

FrameResolver::Found FrameResolver::Lookup(
    const std::string& project_id, const std::string& key,
    const std::function<Result<std::optional<ports::SourcemapFileRow>>(ports::Tx&)>& find, int64_t now) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = lookups_.find(key);
    if (it != lookups_.end() && it->second.expires_at > now) return it->second;
  }
  Found found;
  std::optional<ports::SourcemapFileRow> row;
  const Status st = deps_->db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(row, find(tx));
    return Status::Ok();
  });
  if (!st.ok()) {
    if (log_ != nullptr)
      log_->Log(LogLevel::kError, "source map lookup failed",
                {{"project_id", project_id}, {"error", st.message()}});
    found.reason = std::string(kReasonMapUnavailable);
    return found;  // not remembered
  }
  if (row.has_value()) {
    found.file = std::move(*row);
    found.map_key = found.file.storage_key + "\x1f" + found.file.path;
    found.expires_at = now + options_.found_ttl_ms;
  } else {
    found.reason = std::string(dsm::kReasonMapNotFound);
    found.expires_at = now + options_.missing_ttl_ms;
  }
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.lookups;
  if (lookups_.size() >= options_.max_lookups) lookups_.clear();
  lookups_[key] = found;
  return found;
}

dsm::MapFor FrameResolver::MapOf(const Found& found, std::shared_ptr<const dsm::SourceMap>* hold) {
  dsm::MapFor out;
  if (found.map_key.empty()) {
    out.reason = found.reason;
    return out;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = maps_.find(found.map_key);
    if (it != maps_.end()) {
      ++stats_.map_hits;
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      *hold = it->second.map;
      out.map = hold->get();
      return out;
    }
  }
  // Read and parsed outside the lock (two threads may parse one map at once;
  // the second keeps the first's).
  Result<std::string> bytes = ReadFile(*deps_, found.file);
  if (!bytes.ok()) {
    if (log_ != nullptr)
      log_->Log(LogLevel::kError, "source map read failed",
                {{"bundle_id", found.file.bundle_id},
                 {"path", found.file.path},
                 {"error", bytes.status().message()}});
    out.reason = std::string(kReasonMapUnavailable);
    return out;
  }
  std::string reason, detail;
  std::shared_ptr<const dsm::SourceMap> map = dsm::SourceMap::Parse(*bytes, &reason, &detail);
  if (map == nullptr) {
    out.reason = reason;
    // Remembered as the lookup's answer: the same broken file is not read
    // again until the lookup expires.
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [k, f] : lookups_) {
      if (f.map_key == found.map_key) {
        f.map_key.clear();
        f.reason = reason;
      }
    }
    return out;
  }
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.maps_parsed;
  auto it = maps_.find(found.map_key);
  if (it != maps_.end()) {
    *hold = it->second.map;
  } else {
    *hold = map;
    if (map->memory_bytes() <= options_.max_map_bytes) {
      while (!lru_.empty() && stats_.map_bytes + map->memory_bytes() > options_.max_map_bytes) {
        auto old = maps_.find(lru_.back());
        stats_.map_bytes -= old->second.map->memory_bytes();
        maps_.erase(old);
        lru_.pop_back();
      }
      lru_.push_front(found.map_key);
      maps_[found.map_key] = CachedMap{map, lru_.begin()};
      stats_.map_bytes += map->memory_bytes();
    }
  }
  stats_.maps_cached = maps_.size();
  out.map = hold->get();
  return out;
}

int FrameResolver::Resolve(const std::string& org_id, const std::string& project_id,
                           const json::object& event, json::array& frames) {
  if (frames.empty()) return 0;
  const int64_t now = deps_->Now();
  if (!HasUploads(org_id, project_id, now)) return 0;

  const std::vector<dsm::DebugImage> images = dsm::SourceMapImages(event);
  const std::string release(Str(event, "release"));
  const std::string dist(Str(event, "dist"));

  std::vector<dsm::Frame> in;
  in.reserve(frames.size());
  for (const json::value& f : frames)
    in.push_back(f.is_object() ? dsm::FrameFromJson(f.get_object()) : dsm::Frame{});

  std::vector<std::shared_ptr<const dsm::SourceMap>> held;  // alive until the frames are resolved
  held.reserve(frames.size());
  std::vector<std::string_view> resolved_with(in.size());
  const auto find = [&](const dsm::Frame& frame) -> dsm::MapFor {
    const size_t index = static_cast<size_t>(&frame - in.data());
    std::string_view how = "debug_id";
    const std::string url(dsm::FrameUrl(frame));
    const std::string debug_id = dsm::DebugIdForFrame(images, url);
    Found found;
    if (!debug_id.empty()) {
      found = Lookup(
          project_id,
          project_id +
              "\x1f"
              "d\x1f" +
              debug_id,
          [&](ports::Tx& tx) -> Result<std::optional<ports::SourcemapFileRow>> {
            SV_ASSIGN_OR_RETURN(std::vector<ports::SourcemapFileRow> rows,
                                deps_->repo->FindByDebugId(tx, org_id, project_id, debug_id));
            for (auto& r : rows) {
              if (r.file_type == kSourceMapType) return std::optional(std::move(r));
            }
            return std::optional<ports::SourcemapFileRow>();
          },
          now);
    }
    // A debug id whose map is broken is not looked for again by release.
    if (found.map_key.empty() && (found.reason.empty() || found.reason == dsm::kReasonMapNotFound) &&
        !release.empty() && !url.empty()) {
      const std::string path = dsm::NormalizeUrlPath(url);
      how = "release";
      found = Lookup(
          project_id,
          project_id +
              "\x1f"
              "u\x1f" +
              release + "\x1f" + dist + "\x1f" + url,
          [&](ports::Tx& tx) -> Result<std::optional<ports::SourcemapFileRow>> {
            SV_ASSIGN_OR_RETURN(std::vector<ports::SourcemapFileRow> rows,
                                deps_->repo->FindByUrl(tx, org_id, project_id, release, dist, path));
            const ports::SourcemapFileRow* minified = nullptr;
            for (const auto& r : rows) {
              if (r.file_type == kMinifiedType && dsm::ArtifactMatchesUrl(r.url, url)) {
                minified = &r;
                break;
              }
            }
            if (minified == nullptr) return std::optional<ports::SourcemapFileRow>();
            SV_ASSIGN_OR_RETURN(
                std::vector<ports::SourcemapFileRow> maps,
                deps_->repo->FindByUrl(tx, org_id, project_id, release, dist, MapPathFor(*minified)));
            std::optional<ports::SourcemapFileRow> pick;
            for (auto& r : maps) {
              if (r.file_type != kSourceMapType) continue;
              if (r.bundle_id == minified->bundle_id) return std::optional(std::move(r));
              if (!pick) pick = std::move(r);
            }
            return pick;
          },
          now);
    }
    if (found.map_key.empty() && found.reason.empty()) found.reason = std::string(dsm::kReasonMapNotFound);
    std::shared_ptr<const dsm::SourceMap> hold;
    dsm::MapFor m = MapOf(found, &hold);
    if (hold) held.push_back(std::move(hold));
    if (index < resolved_with.size()) resolved_with[index] = how;
    return m;
  };
  const std::vector<dsm::ResolvedFrame> out = dsm::ResolveStack(in, find);

  int resolved = 0;
  for (size_t i = 0; i < frames.size() && i < out.size(); ++i) {
    json::object* f = frames[i].if_object();
    if (f == nullptr) continue;
    dsm::ApplyToFrame(out[i], resolved_with[i], *f);
    if (out[i].resolved) ++resolved;
  }
  return resolved;
}

}  // namespace service::app::sourcemaps
