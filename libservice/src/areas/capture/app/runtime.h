// Runtime: the in-memory state of the capture area of one Service.
//
//  - Verified capture keys are cached by hash for kKeyCacheTtlMs so ingest
//    does not read the database per request. A key revoked or created
//    through this process clears the cache at once; a key revoked by another
//    process (or directly in the database) stops working within the TTL.
//    Expiry (expiresAt) is checked on every request against the cached value.
//  - last_used is recorded in memory (at most once per second per key) and
//    written in one batch by the "capture-key-last-used" worker task, never
//    per request.
//  - The secret that keys client-address hashes (ip_hash), generated once
//    and kept in the database (settings `ip_hash_secret`), so anonymous end
//    users keep their key across restarts and processes.
//  - The GroupCommitter through which every report is written: on SQLite
//    several batches may wait for the single writer at once (it never idles
//    between them); on PostgreSQL one batch transaction at a time per
//    process (measured: more writers in one process serialize on the same
//    hot bug rows and cost more CPU per report, for no more throughput).
//    Batches of several processes create new bugs in key order and count
//    them afterwards (report_writer.cpp); a batch that loses a race (a bug
//    created meanwhile, a deadlock PostgreSQL broke) runs again.
//  - Client-address hashes are remembered for the most recent addresses
//    (kIpHashCacheEntries), so ingest computes one HMAC per new address.
//  - Presence snapshots are published at most once per second per
//    organization; a ping inside that second marks the organization and the
//    "capture-presence" worker publishes its snapshot later.
//
// Thread-safety: every method is safe to call from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "app/workers.h"
#include "areas/capture/app/deps.h"
#include "areas/capture/app/report_writer.h"
#include "ports/transaction.h"
#include "service/status.h"
#include "util/mutex.h"
#include "util/strings.h"

namespace service::app::capture {

// Report batches in flight per process (CaptureDeps::batch_writers).
inline constexpr int kSqliteBatchWriters = 4;
inline constexpr int kPostgresBatchWriters = 1;
inline constexpr int64_t kKeyCacheTtlMs = 5'000;
inline constexpr int64_t kLastUsedResolutionMs = 1'000;
inline constexpr int64_t kLastUsedFlushIntervalMs = 5'000;
inline constexpr int64_t kPresenceWindowMs = 75'000;
inline constexpr int64_t kPresencePublishIntervalMs = 1'000;
// Client addresses whose HMAC is remembered (the map is emptied when full).
inline constexpr size_t kIpHashCacheEntries = 4096;

// A capture key that authenticated, with what ingest needs to know.
struct VerifiedKey {
  std::string key_id;
  std::string org_id;
  std::string project_id;
  std::string project_name;
  std::string env;                  // "live" or "test"
  std::string plan;                 // the organization's plan
  bool grouping_v3_shadow = false;  // the project's switch
  int64_t project_number = 0;       // the project's DSN number
  std::optional<int64_t> expires_at;
};

class Runtime {
 public:
  // REQUIRES: deps.db, clock, capture_keys and the report repositories set;
  // `deps` outlives the runtime (later changes, such as the outbox hook, are seen).
  Runtime(const CaptureDeps& deps, std::string ip_hash_secret);
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // The key named by an X-Service-Key value. kUnauthenticated "Missing or
  // invalid API key" when it is malformed, unknown, revoked or expired;
  // kUnavailable when the database cannot be read.
  Result<VerifiedKey> VerifyKey(std::string_view presented);
  // Drops every cached key (after a create or revoke in this process).
  void ForgetKeys();

  // Remembers that `key_id` was used at `now_ms` (cheap; no I/O).
  void NoteKeyUse(const std::string& key_id, int64_t now_ms);
  // Writes the remembered uses in one transaction. On failure they are kept
  // for the next flush.
  Status FlushKeyUses();

  // Group commit of report writes: shared transactions.
  ports::TypedBatchCommitter<PreparedReport>& committer() { return committer_; }

  // HMAC-SHA-256 of `client_ip` under the ip-hash secret (hex); "" for "".
  std::string HashClientIp(std::string_view client_ip) const;

  // Presence publishing: true when the snapshot of `org_id` may be
  // published now (and records it); otherwise the organization is marked
  // and returned later by TakeDuePresence.
  bool ClaimPresencePublish(const std::string& org_id, int64_t now_ms);
  std::vector<std::string> TakeDuePresence(int64_t now_ms);

 private:
  struct CachedKey {
    VerifiedKey key;
    int64_t verified_at = 0;
  };

  const CaptureDeps& deps_;
  const std::string ip_hash_secret_;
  mutable util::Mutex ip_hash_mu_;
  mutable std::unordered_map<std::string, std::string, util::StringHash, std::equal_to<>> ip_hashes_
      SV_GUARDED_BY(ip_hash_mu_);
  ports::TypedBatchCommitter<PreparedReport> committer_;

  util::SharedMutex keys_mu_;
  std::unordered_map<std::string, CachedKey> keys_ SV_GUARDED_BY(keys_mu_);  // by key hash
  // Bumped by ForgetKeys: a lookup that started before it is not cached.
  uint64_t keys_generation_ SV_GUARDED_BY(keys_mu_) = 0;

  util::Mutex uses_mu_;
  // key id -> last use
  std::unordered_map<std::string, int64_t> pending_uses_ SV_GUARDED_BY(uses_mu_);
  // key id -> last noted (resolution filter)
  std::unordered_map<std::string, int64_t> noted_uses_ SV_GUARDED_BY(uses_mu_);

  util::Mutex presence_mu_;
  // org -> last publish
  std::unordered_map<std::string, int64_t> presence_published_ SV_GUARDED_BY(presence_mu_);
  std::unordered_set<std::string> presence_dirty_ SV_GUARDED_BY(presence_mu_);
};

// The secret that keys client-address hashes, loaded or created once
// (settings `ip_hash_secret`).
Result<std::string> LoadIpHashSecret(const CaptureDeps& deps);

// Registers the area's worker tasks on `workers`: batched last_used
// writes, deferred presence snapshots, presence expiry.
// REQUIRES: deps.capture set; `deps` outlives the workers.
void RegisterTasks(const CaptureDeps& deps, Workers& workers);

}  // namespace service::app::capture
