// Fixed-window request counters per (class, client address).
//
// Thread-safety: Allow is safe to call concurrently (sharded mutexes).
// Scale-out note: counters live in this process; several processes behind a
// load balancer each enforce the limit (documented in the README).
#pragma once

#include <array>
#include <cstdint>
#include <mutex>

#include <string>
#include <string_view>
#include <unordered_map>
#include "util/mutex.h"

#include "api/router.h"
#include "service/options.h"

namespace service::api {

class RateLimiter {
 public:
  explicit RateLimiter(const RateLimits& limits) : limits_(limits) {}

  // True when the request may proceed. Otherwise `*retry_after_s` holds the
  // whole seconds until the window resets (at least 1).
  bool Allow(RateClass cls, std::string_view client, int64_t now_ms, int64_t* retry_after_s);

 private:
  struct Window {
    int64_t start_ms = 0;
    int64_t count = 0;
  };
  struct Shard {
    util::Mutex mu;
    std::unordered_map<std::string, Window> windows SV_GUARDED_BY(mu);
    int64_t last_sweep_ms SV_GUARDED_BY(mu) = 0;
  };
  RateLimits limits_;
  std::array<Shard, 16> shards_;
};

}  // namespace service::api
