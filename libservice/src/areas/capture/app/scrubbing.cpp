#include "areas/capture/app/scrubbing.h"

#include <boost/json.hpp>

#include "areas/capture/domain/text.h"

namespace service::app::capture {
namespace {

namespace dc = domain::capture;

ScrubbingSettings FromRow(const ports::ScrubbingSettingsRow& row) {
  ScrubbingSettings s;
  s.extra_keys = row.extra_keys;
  s.scrub_messages = row.scrub_messages;
  s.store_ip = row.store_ip;
  s.updated_at = row.updated_at;
  s.updated_by = row.updated_by;
  return s;
}

const dc::ScrubOptions& DefaultOptions() {
  static const dc::ScrubOptions options;
  return options;
}

Status RequireProject(const CaptureDeps& deps, ports::Tx& tx, const std::string& org_id,
                      const std::string& project_id) {
  SV_ASSIGN_OR_RETURN(std::optional<ports::Project> p, deps.projects->Find(tx, org_id, project_id));
  if (!p) return NotFound("Project not found");
  return Status::Ok();
}

Result<ScrubbingView> Read(const CaptureDeps& deps, ports::Tx& tx, const std::string& org_id,
                           const std::string& project_id) {
  ScrubbingView v;
  v.project_id = project_id;
  SV_ASSIGN_OR_RETURN(std::optional<ports::ScrubbingSettingsRow> row,
                      deps.scrubbing_settings->Get(tx, org_id, project_id));
  if (row) v.settings = FromRow(*row);
  SV_ASSIGN_OR_RETURN(std::vector<ports::ScrubCountRow> counts,
                      deps.scrubbing_settings->Counts(tx, org_id, project_id));
  for (const ports::ScrubCountRow& c : counts) {
    for (int i = 0; i < dc::kScrubRuleCount; ++i) {
      if (dc::ScrubRuleName(static_cast<dc::ScrubRule>(i)) == c.rule) v.counts.by_rule[i] += c.count;
    }
    if (c.last_at > v.last_scrubbed_at) v.last_scrubbed_at = c.last_at;
  }
  return v;
}

// 1-64 printable ASCII characters after trimming spaces, at most kMaxExtraKeys.
Result<std::vector<std::string>> CleanExtraKeys(const std::vector<std::string>& keys) {
  if (keys.size() > dc::kMaxExtraKeys) {
    return InvalidArgument("extraKeys: at most " + std::to_string(dc::kMaxExtraKeys) + " keys");
  }
  std::vector<std::string> out;
  for (const std::string& raw : keys) {
    size_t b = 0, e = raw.size();
    while (b < e && raw[b] == ' ') ++b;
    while (e > b && raw[e - 1] == ' ') --e;
    const std::string k = raw.substr(b, e - b);
    bool printable = !k.empty() && k.size() <= dc::kMaxExtraKeyChars;
    for (char c : k) printable = printable && c >= 0x20 && c < 0x7f;
    if (!printable || dc::NormalizeScrubKey(k).empty()) {
      return InvalidArgument("extraKeys: each key is 1-64 printable ASCII characters");
    }
    bool seen = false;
    for (const std::string& o : out) seen = seen || o == k;
    if (!seen) out.push_back(k);
  }
  return out;
}

void Scrub(std::optional<std::string>& s, const dc::ScrubOptions& o, dc::ScrubCounts& counts) {
  if (s) dc::ScrubString(*s, o, counts);
}

}  // namespace

dc::ScrubOptions OptionsOf(const ScrubbingSettings& settings) {
  dc::ScrubOptions o;
  o.scrub_messages = settings.scrub_messages;
  o.store_ip = settings.store_ip;
  for (const std::string& k : settings.extra_keys) {
    std::string n = dc::NormalizeScrubKey(k);
    if (!n.empty()) o.extra_keys.push_back(std::move(n));
  }
  return o;
}

Result<std::shared_ptr<const dc::ScrubOptions>> ScrubbingCache::OptionsFor(const std::string& project_id) {
  const int64_t now = deps_.Now();
  uint64_t generation = 0;
  {
    util::ReaderLock lock(&mu_);
    auto it = entries_.find(project_id);
    if (it != entries_.end() && now - it->second.read_at < kScrubSettingsTtlMs) return it->second.options;
    generation = generation_;
  }
  std::optional<ports::ScrubbingSettingsRow> row;
  SV_RETURN_IF_ERROR(deps_.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(row, deps_.scrubbing_settings->GetForProject(tx, project_id));
    return Status::Ok();
  }));
  auto options =
      std::make_shared<const dc::ScrubOptions>(row ? OptionsOf(FromRow(*row)) : dc::ScrubOptions());
  util::WriterLock lock(&mu_);
  if (generation == generation_) entries_[project_id] = Entry{options, now};
  return std::shared_ptr<const dc::ScrubOptions>(options);
}

void ScrubbingCache::Set(const std::string& project_id, const ScrubbingSettings& settings) {
  auto options = std::make_shared<const dc::ScrubOptions>(OptionsOf(settings));
  util::WriterLock lock(&mu_);
  ++generation_;
  entries_[project_id] = Entry{std::move(options), deps_.Now()};
}

void ScrubbingCache::Note(const std::string& project_id, const dc::ScrubCounts& counts) {
  if (counts.Total() == 0) return;
  util::MutexLock lock(&counts_mu_);
  pending_[project_id].Merge(counts);
}

dc::ScrubCounts ScrubbingCache::Pending(const std::string& project_id) {
  util::MutexLock lock(&counts_mu_);
  auto it = pending_.find(project_id);
  return it == pending_.end() ? dc::ScrubCounts() : it->second;
}

Status ScrubbingCache::Flush() {
  std::unordered_map<std::string, dc::ScrubCounts> batch;
  {
    util::MutexLock lock(&counts_mu_);
    batch.swap(pending_);
  }
  if (batch.empty()) return Status::Ok();
  const int64_t now = deps_.Now();
  Status st = deps_.db->Write([&](ports::Tx& tx) -> Status {
    for (const auto& [project_id, counts] : batch) {
      for (int i = 0; i < dc::kScrubRuleCount; ++i) {
        if (counts.by_rule[i] == 0) continue;
        SV_RETURN_IF_ERROR(deps_.scrubbing_settings->AddCount(
            tx, project_id, std::string(dc::ScrubRuleName(static_cast<dc::ScrubRule>(i))), counts.by_rule[i],
            now));
      }
    }
    return Status::Ok();
  });
  if (!st.ok()) {
    util::MutexLock lock(&counts_mu_);
    for (const auto& [project_id, counts] : batch) pending_[project_id].Merge(counts);
  }
  return st;
}

Status ScrubReport(const CaptureDeps& deps, const ReportSource& source, ReportInput& in, bool* store_ip) {
  std::shared_ptr<const dc::ScrubOptions> held;
  const dc::ScrubOptions* o = &DefaultOptions();
  if (deps.scrubbing != nullptr) {
    SV_ASSIGN_OR_RETURN(held, deps.scrubbing->OptionsFor(source.project_id));
    o = held.get();
  }
  dc::ScrubCounts counts;
  if (o->scrub_messages) {
    dc::ScrubString(in.title, *o, counts);
    dc::ScrubString(in.description, *o, counts);
  }
  dc::ScrubString(in.url, *o, counts);
  Scrub(in.user_agent, *o, counts);
  Scrub(in.ai_summary_json, *o, counts);
  for (std::string& part : in.fingerprint_parts) dc::ScrubString(part, *o, counts);
  for (dc::Event& e : in.events) dc::ScrubJson(e.data, *o, counts);
  dc::ScrubJson(in.metadata, *o, counts);
  *store_ip = o->store_ip;
  if (!o->store_ip && !source.client_ip.empty()) counts.Add(dc::ScrubRule::kIp);
  if (deps.scrubbing != nullptr) deps.scrubbing->Note(source.project_id, counts);
  return Status::Ok();
}

Status ScrubSummaryRequest(const CaptureDeps& deps, const std::string& project_id, std::string& message,
                           const std::vector<std::string*>& strings, std::span<boost::json::object> events) {
  std::shared_ptr<const dc::ScrubOptions> held;
  const dc::ScrubOptions* o = &DefaultOptions();
  if (deps.scrubbing != nullptr) {
    SV_ASSIGN_OR_RETURN(held, deps.scrubbing->OptionsFor(project_id));
    o = held.get();
  }
  dc::ScrubCounts ignored;
  if (o->scrub_messages) dc::ScrubString(message, *o, ignored);
  for (std::string* s : strings) dc::ScrubString(*s, *o, ignored);
  for (boost::json::object& e : events) {
    boost::json::value v(std::move(e));
    dc::ScrubJson(v, *o, ignored);
    e = std::move(v.as_object());
  }
  return Status::Ok();
}

Status ScrubPresence(const CaptureDeps& deps, const std::string& project_id, PresenceInput& in) {
  std::shared_ptr<const dc::ScrubOptions> held;
  const dc::ScrubOptions* o = &DefaultOptions();
  if (deps.scrubbing != nullptr) {
    SV_ASSIGN_OR_RETURN(held, deps.scrubbing->OptionsFor(project_id));
    o = held.get();
  }
  dc::ScrubCounts counts;
  Scrub(in.url, *o, counts);
  Scrub(in.path, *o, counts);
  Scrub(in.title, *o, counts);
  Scrub(in.referrer, *o, counts);
  Scrub(in.interaction_json, *o, counts);
  Scrub(in.metadata_json, *o, counts);
  if (deps.scrubbing != nullptr) deps.scrubbing->Note(project_id, counts);
  return Status::Ok();
}

Result<ScrubbingView> GetScrubbing(const CaptureDeps& deps, const ConsoleActor& actor,
                                   const std::string& project_id) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kViewProjects));
  ScrubbingView v;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor.org_id, project_id));
    SV_ASSIGN_OR_RETURN(v, Read(deps, tx, actor.org_id, project_id));
    return Status::Ok();
  }));
  if (deps.scrubbing != nullptr) v.counts.Merge(deps.scrubbing->Pending(project_id));
  return v;
}

Result<ScrubbingView> PutScrubbing(const CaptureDeps& deps, const ConsoleActor& actor,
                                   const std::string& project_id, const ScrubbingPatch& patch) {
  SV_RETURN_IF_ERROR(RequireCapability(actor, domain::Capability::kManageProjects));
  std::optional<std::vector<std::string>> keys;
  if (patch.extra_keys) {
    SV_ASSIGN_OR_RETURN(keys, CleanExtraKeys(*patch.extra_keys));
  }
  ScrubbingView v;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(RequireProject(deps, tx, actor.org_id, project_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::ScrubbingSettingsRow> row,
                        deps.scrubbing_settings->Get(tx, actor.org_id, project_id));
    ports::ScrubbingSettingsRow next = row.value_or(ports::ScrubbingSettingsRow{});
    next.project_id = project_id;
    next.org_id = actor.org_id;
    if (keys) next.extra_keys = *keys;
    if (patch.scrub_messages) next.scrub_messages = *patch.scrub_messages;
    if (patch.store_ip) next.store_ip = *patch.store_ip;
    next.updated_at = deps.Now();
    next.updated_by = actor.user_id;
    SV_RETURN_IF_ERROR(deps.scrubbing_settings->Put(tx, next));
    SV_ASSIGN_OR_RETURN(v, Read(deps, tx, actor.org_id, project_id));
    return Status::Ok();
  }));
  if (deps.scrubbing != nullptr) {
    deps.scrubbing->Set(project_id, v.settings);
    v.counts.Merge(deps.scrubbing->Pending(project_id));
  }
  return v;
}

void RegisterScrubbingTasks(const CaptureDeps& deps, Workers& workers) {
  ScrubbingCache* cache = deps.scrubbing;
  workers.Add("capture-scrub-counts", kScrubCountsFlushIntervalMs, [cache] { return cache->Flush(); });
}

}  // namespace service::app::capture
