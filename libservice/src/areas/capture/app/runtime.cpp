#include "areas/capture/app/runtime.h"

#include <vector>

#include "app/retention.h"
#include "areas/capture/app/deps.h"
#include "areas/capture/app/presence.h"
#include "areas/capture/app/retention.h"
#include "areas/capture/domain/end_user.h"
#include "areas/projects/domain/capture_key.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace service::app::capture {
namespace {

// Bounds the key cache; past it the cache starts afresh.
constexpr size_t kMaxCachedKeys = 10'000;
constexpr int64_t kPresenceSweepIntervalMs = 60'000;
// Batches in flight: SQLite's writer thread merges them into one transaction.
constexpr size_t kMaxBatch = 64;

Status InvalidKey() { return Unauthenticated("Missing or invalid API key"); }

}  // namespace

Runtime::Runtime(const CaptureDeps& deps, std::string ip_hash_secret)
    : deps_(deps),
      ip_hash_secret_(std::move(ip_hash_secret)),
      committer_(
          *deps.db,
          [this](ports::Tx& tx, const std::vector<PreparedReport*>& batch) {
            return WriteReports(deps_, tx, batch);
          },
          deps.batch_writers, kMaxBatch) {}

Result<VerifiedKey> Runtime::VerifyKey(std::string_view presented) {
  if (!domain::projects::ParseCaptureKey(presented)) return InvalidKey();
  const std::string hash = domain::projects::HashCaptureKey(presented);
  const int64_t now = deps_.Now();

  std::optional<VerifiedKey> found;
  uint64_t generation = 0;
  {
    util::ReaderLock lock(&keys_mu_);
    generation = keys_generation_;
    auto it = keys_.find(hash);
    if (it != keys_.end() && now - it->second.verified_at < kKeyCacheTtlMs && now >= it->second.verified_at) {
      found = it->second.key;
    }
  }
  if (!found) {
    std::optional<ports::IngestKeyRecord> record;
    Status st = deps_.db->Read([&](ports::Tx& c) -> Status {
      SV_ASSIGN_OR_RETURN(record, deps_.capture_keys->FindForIngest(c, hash));
      return Status::Ok();
    });
    if (!st.ok()) return Status::Public(Code::kUnavailable, "Capture key lookup is temporarily unavailable");
    // The lookup is by hash; the comparison below is constant-time anyway.
    if (!record || record->key.revoked_at || !util::ConstantTimeEquals(record->key.key_hash, hash)) {
      util::WriterLock lock(&keys_mu_);
      keys_.erase(hash);
      return InvalidKey();
    }
    VerifiedKey k;
    k.key_id = record->key.id;
    k.org_id = record->key.org_id;
    k.project_id = record->key.project_id;
    k.project_name = record->project_name;
    k.env = record->key.env;
    k.plan = record->plan;
    k.grouping_v3_shadow = record->grouping_v3_shadow;
    k.project_number = record->project_number;
    k.expires_at = record->key.expires_at;
    {
      util::WriterLock lock(&keys_mu_);
      if (generation == keys_generation_) {
        if (keys_.size() >= kMaxCachedKeys) keys_.clear();
        keys_[hash] = CachedKey{k, now};
      }
    }
    found = std::move(k);
  }
  if (found->expires_at && *found->expires_at <= now) return InvalidKey();
  return std::move(*found);
}

void Runtime::ForgetKeys() {
  util::WriterLock lock(&keys_mu_);
  ++keys_generation_;
  keys_.clear();
}

void Runtime::NoteKeyUse(const std::string& key_id, int64_t now_ms) {
  util::MutexLock lock(&uses_mu_);
  auto [it, inserted] = noted_uses_.try_emplace(key_id, now_ms);
  if (!inserted) {
    if (now_ms - it->second < kLastUsedResolutionMs && now_ms >= it->second) return;
    it->second = now_ms;
  }
  int64_t& pending = pending_uses_[key_id];
  if (pending < now_ms) pending = now_ms;
}

Status Runtime::FlushKeyUses() {
  std::vector<std::pair<std::string, int64_t>> batch;
  {
    util::MutexLock lock(&uses_mu_);
    if (pending_uses_.empty()) return Status::Ok();
    batch.assign(pending_uses_.begin(), pending_uses_.end());
    pending_uses_.clear();
    if (noted_uses_.size() > kMaxCachedKeys) noted_uses_.clear();
  }
  Status st =
      deps_.db->Write([&](ports::Tx& tx) -> Status { return deps_.capture_keys->TouchLastUsed(tx, batch); });
  if (!st.ok()) {
    util::MutexLock lock(&uses_mu_);
    for (const auto& [id, at] : batch) {
      int64_t& pending = pending_uses_[id];
      if (pending < at) pending = at;
    }
  }
  return st;
}

std::string Runtime::HashClientIp(std::string_view client_ip) const {
  if (client_ip.empty()) return {};
  {
    util::MutexLock lock(&ip_hash_mu_);
    auto it = ip_hashes_.find(client_ip);
    if (it != ip_hashes_.end()) return it->second;
  }
  std::string hash = domain::capture::HashClientAddress(ip_hash_secret_, client_ip);
  util::MutexLock lock(&ip_hash_mu_);
  if (ip_hashes_.size() >= kIpHashCacheEntries) ip_hashes_.clear();
  ip_hashes_.emplace(std::string(client_ip), hash);
  return hash;
}

bool Runtime::ClaimPresencePublish(const std::string& org_id, int64_t now_ms) {
  util::MutexLock lock(&presence_mu_);
  auto [it, inserted] = presence_published_.try_emplace(org_id, now_ms);
  if (inserted || now_ms - it->second >= kPresencePublishIntervalMs || now_ms < it->second) {
    it->second = now_ms;
    presence_dirty_.erase(org_id);
    return true;
  }
  presence_dirty_.insert(org_id);
  return false;
}

std::vector<std::string> Runtime::TakeDuePresence(int64_t now_ms) {
  util::MutexLock lock(&presence_mu_);
  std::vector<std::string> due(presence_dirty_.begin(), presence_dirty_.end());
  presence_dirty_.clear();
  for (const auto& org : due) presence_published_[org] = now_ms;
  if (presence_published_.size() > kMaxCachedKeys) presence_published_.clear();
  return due;
}

Result<std::string> LoadIpHashSecret(const CaptureDeps& deps) {
  return deps.settings->GetOrInsert(*deps.db, "ip_hash_secret", util::HexEncode(deps.ids->RandomBytes(32)),
                                    deps.Now());
}

void RegisterTasks(const CaptureDeps& deps, Workers& workers) {
  const CaptureDeps* d = &deps;
  workers.Add("capture-key-last-used", kLastUsedFlushIntervalMs, [d] { return d->capture->FlushKeyUses(); });
  workers.Add("capture-presence", kPresencePublishIntervalMs, [d] {
    Status first;
    for (const std::string& org : d->capture->TakeDuePresence(d->Now())) {
      Status st = PublishPresenceSnapshot(*d, org);
      if (!st.ok() && first.ok()) first = st;
    }
    return first;
  });
  workers.Add("capture-occurrence-retention", kRetentionSweepIntervalMs,
              [d] { return SweepOccurrences(*d).status(); });
  workers.Add("capture-presence-expiry", kPresenceSweepIntervalMs, [d] {
    // Presence rows are kept a while past the window (retention.presence_ms), then removed.
    const int64_t before = d->Now() - d->retention.presence_ms;
    return SweepInBatches(
               *d->db, kRetentionBatchRows,
               [&](ports::Tx& tx, int64_t limit) { return d->presence->DeleteOlderThan(tx, before, limit); })
        .status();
  });
}

}  // namespace service::app::capture
