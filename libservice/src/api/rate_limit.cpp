#include "api/rate_limit.h"

#include <functional>

namespace service::api {

bool RateLimiter::Allow(RateClass cls, std::string_view client, int64_t now_ms, int64_t* retry_after_s) {
  if (!limits_.enabled || cls == RateClass::kNone) return true;
  int64_t limit = limits_.general;
  char tag = 'g';
  if (cls == RateClass::kIngest) {
    limit = limits_.ingest;
    tag = 'i';
  } else if (cls == RateClass::kAuth) {
    limit = limits_.auth;
    tag = 'a';
  }
  std::string key;
  key.reserve(client.size() + 2);
  key += tag;
  key += ':';
  key += client;
  Shard& shard = shards_[std::hash<std::string>{}(key) % shards_.size()];
  util::MutexLock lock(&shard.mu);
  // Forget expired windows now and then so the map stays small.
  if (now_ms - shard.last_sweep_ms > limits_.window_ms) {
    std::erase_if(shard.windows,
                  [&](const auto& kv) { return now_ms - kv.second.start_ms >= limits_.window_ms; });
    shard.last_sweep_ms = now_ms;
  }
  Window& w = shard.windows[key];
  if (now_ms - w.start_ms >= limits_.window_ms || now_ms < w.start_ms) {
    w.start_ms = now_ms;
    w.count = 0;
  }
  if (w.count >= limit) {
    const int64_t remaining_ms = w.start_ms + limits_.window_ms - now_ms;
    *retry_after_s = remaining_ms <= 0 ? 1 : (remaining_ms + 999) / 1000;
    return false;
  }
  ++w.count;
  return true;
}

}  // namespace service::api
