#include "app/bugs/search.h"

#include <algorithm>
#include <set>
#include <utility>

#include "domain/capture/text.h"

namespace service::app::bugs {
namespace {

namespace triage = domain::triage;
using GroupId = std::pair<std::string, std::string>;  // (project_id, group_key)

std::string Trimmed(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return s.substr(b, e - b);
}

// The distinct trigrams of the lower-cased query, in first-seen order.
std::vector<std::string> QueryTrigrams(const std::string& lower) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (size_t i = 0; i + 3 <= lower.size(); ++i) {
    std::string t = lower.substr(i, 3);
    if (seen.insert(t).second) out.push_back(std::move(t));
  }
  return out;
}

// Groups in the order of their best member in `bugs` (best first), each
// with its competition rank: groups whose best members score alike share
// a rank. Groups `shown` leaves out are skipped.
template <typename T, typename KeyFn, typename ScoreFn, typename ShownFn>
std::vector<triage::RankedKey> RankGroups(const std::vector<T>& bugs, KeyFn key, ScoreFn score,
                                          ShownFn shown) {
  std::vector<triage::RankedKey> out;
  std::set<std::string> seen;
  double last_score = 0;
  for (const T& b : bugs) {
    std::string k = key(b);
    if (!shown(k) || !seen.insert(k).second) continue;
    const double s = score(b);
    const int64_t rank =
        !out.empty() && s == last_score ? out.back().rank : static_cast<int64_t>(out.size()) + 1;
    last_score = s;
    out.push_back({std::move(k), rank});
  }
  return out;
}

std::string GroupName(const std::string& project_id, const std::string& group_key) {
  return project_id + ":" + group_key;
}

}  // namespace

Status SearchIndex::Refresh(const BugsDeps& deps, const std::string& org_id, OrgIndex& index) {
  const int64_t now = deps.Now();
  const bool rebuild = index.watermark < 0 || now - index.built_at >= kRebuildAfterMs || now < index.built_at;
  const int64_t since = rebuild ? 0 : std::max<int64_t>(0, index.watermark - kRefreshOverlapMs);
  std::vector<ports::StoredEmbedding> rows;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(rows, deps.search->EmbeddingsSince(c, org_id, since));
    return Status::Ok();
  }));
  if (rebuild) {
    index.entries.clear();
    index.by_id.clear();
    index.watermark = 0;
    index.built_at = now;
    index.entries.reserve(rows.size());
  }
  for (ports::StoredEmbedding& row : rows) {
    std::optional<std::vector<int8_t>> v;
    if (!row.embedding.empty()) v = triage::DecodeEmbedding(row.embedding);
    if (!v) v = triage::Embed(triage::SearchText(row.bug.title, row.bug.description, row.bug.signature));
    Entry e;
    e.bug_id = std::move(row.bug.bug_id);
    e.project_id = std::move(row.bug.project_id);
    e.group_key = std::move(row.bug.group_key);
    std::copy_n(v->begin(), e.v.size(), e.v.begin());
    index.watermark = std::max(index.watermark, row.embedded_at);
    auto [it, inserted] = index.by_id.emplace(e.bug_id, index.entries.size());
    if (inserted) {
      index.entries.push_back(std::move(e));
    } else {
      index.entries[it->second] = std::move(e);
    }
  }
  return Status::Ok();
}

Result<std::vector<SearchIndex::Hit>> SearchIndex::Nearest(const BugsDeps& deps, const std::string& org_id,
                                                           const std::optional<std::string>& project_id,
                                                           const std::vector<int8_t>& query, size_t limit) {
  std::shared_ptr<OrgIndex> index;
  {
    util::MutexLock lock(&mu_);
    std::shared_ptr<OrgIndex>& slot = orgs_[org_id];
    if (!slot) slot = std::make_shared<OrgIndex>();
    index = slot;
  }
  util::MutexLock lock(&index->mu);
  SV_RETURN_IF_ERROR(Refresh(deps, org_id, *index));
  std::vector<std::pair<double, size_t>> scored;
  for (size_t i = 0; i < index->entries.size(); ++i) {
    const Entry& e = index->entries[i];
    if (project_id && e.project_id != *project_id) continue;
    const double cos = triage::Cosine(query, e.v);
    if (cos >= triage::kMinCosine) scored.emplace_back(cos, i);
  }
  const auto better = [&](const std::pair<double, size_t>& a, const std::pair<double, size_t>& b) {
    if (a.first != b.first) return a.first > b.first;
    return index->entries[a.second].bug_id < index->entries[b.second].bug_id;
  };
  const size_t n = std::min(limit, scored.size());
  std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(n), scored.end(), better);
  std::vector<Hit> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const Entry& e = index->entries[scored[i].second];
    out.push_back({e.bug_id, e.project_id, e.group_key, scored[i].first});
  }
  return out;
}

Result<SearchResult> SearchGroups(const BugsDeps& deps, const ports::BugFilter& filter,
                                  const std::string& raw, int64_t limit) {
  const std::string query = Trimmed(raw);
  const std::string lower = domain::text::LowerAsciiCopy(query);

  // Trigram leg: the engine's candidates, re-scored here.
  std::vector<ports::SearchCandidate> candidates;
  const std::vector<std::string> trigrams = QueryTrigrams(lower);
  if (!trigrams.empty()) {
    SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
      SV_ASSIGN_OR_RETURN(candidates,
                          deps.search->TrigramCandidates(c, filter, lower, trigrams, kSearchLegBugs));
      return Status::Ok();
    }));
  }
  struct Scored {
    const ports::SearchCandidate* bug;
    double score;
  };
  std::vector<Scored> trigram_hits;
  for (const auto& cand : candidates) {
    const double s =
        triage::TrigramScore(lower, triage::SearchText(cand.title, cand.description, cand.signature));
    if (s >= triage::kMinTrigramScore) trigram_hits.push_back({&cand, s});
  }
  std::stable_sort(trigram_hits.begin(), trigram_hits.end(), [](const Scored& a, const Scored& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.bug->bug_id < b.bug->bug_id;
  });

  // Vector leg.
  SV_ASSIGN_OR_RETURN(std::vector<SearchIndex::Hit> vector_hits,
                      deps.search_index->Nearest(deps, filter.org_id, filter.project_id, triage::Embed(query),
                                                 static_cast<size_t>(kSearchLegBugs)));

  // Hydrate every candidate group under the request's filters.
  ports::BugFilter hydrate = filter;
  std::set<std::string> ids;
  for (const Scored& h : trigram_hits) ids.insert(h.bug->bug_id);
  for (const SearchIndex::Hit& h : vector_hits) ids.insert(h.bug_id);
  SearchResult out;
  if (ids.empty()) return out;
  hydrate.bug_ids.assign(ids.begin(), ids.end());
  ports::GroupPage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(page, deps.bugs->Groups(c, hydrate, ports::GroupSort::kLastSeen, true,
                                                static_cast<int64_t>(ids.size()), 0));
    return Status::Ok();
  }));
  // A group is shown when one of its candidate members passed the
  // filters; each leg ranks it by its best candidate member.
  std::map<std::string, ports::GroupRecord*> shown;
  for (ports::GroupRecord& g : page.groups) shown[GroupName(g.project_id, g.group_key)] = &g;
  const auto is_shown = [&](const std::string& k) { return shown.count(k) != 0; };
  const std::vector<triage::RankedKey> trigram_ranking = RankGroups(
      trigram_hits, [](const Scored& h) { return GroupName(h.bug->project_id, h.bug->group_key); },
      [](const Scored& h) { return h.score; }, is_shown);
  const std::vector<triage::RankedKey> vector_ranking = RankGroups(
      vector_hits, [](const SearchIndex::Hit& h) { return GroupName(h.project_id, h.group_key); },
      [](const SearchIndex::Hit& h) { return h.cosine; }, is_shown);
  const std::map<std::string, double> fused = triage::FuseRanks({trigram_ranking, vector_ranking});
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [key, score] : fused) order.emplace_back(score, key);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    return a.second < b.second;
  });
  out.total = static_cast<int64_t>(order.size());
  for (size_t i = 0; i < order.size() && static_cast<int64_t>(i) < limit; ++i) {
    out.groups.push_back({std::move(*shown.at(order[i].second)), order[i].first});
  }
  return out;
}

}  // namespace service::app::bugs
