#include "areas/bugs/app/search.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <set>
#include <utility>

#include "areas/capture/domain/text.h"

namespace service::app::bugs {
namespace {

using GroupId = std::pair<std::string, std::string>;  // (project_id, group_key)

std::string Trimmed(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && static_cast<unsigned char>(s[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(s[e - 1]) <= ' ') --e;
  return s.substr(b, e - b);
}

// Groups in the order of their best member in `bugs` (best first), each
// with its competition rank: groups whose best members score alike share
// a rank. Groups `shown` leaves out are skipped.
template <typename T, typename KeyFn, typename ScoreFn, typename ShownFn>
std::vector<domain::capture::RankedKey> RankGroups(const std::vector<T>& bugs, KeyFn key, ScoreFn score,
                                                   ShownFn shown) {
  std::vector<domain::capture::RankedKey> out;
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

// The vector leg's inner loop, once per bug of the organization: built a
// second time for AVX2 where the compiler can, picked when the process
// starts by what the CPU offers (the baseline build is plain x86-64).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
int32_t
Dot(const int8_t* a, const int8_t* b) {
  int32_t sum = 0;
  for (size_t i = 0; i < domain::capture::kEmbeddingDims; ++i) sum += static_cast<int32_t>(a[i]) * b[i];
  return sum;
}

// Trigrams a bug must share to reach kMinTrigramScore.
size_t MinShared(size_t n) {
  return static_cast<size_t>(std::ceil(domain::capture::kMinTrigramScore * static_cast<double>(n) - 1e-9));
}

std::string GroupName(const std::string& project_id, const std::string& group_key) {
  return project_id + ":" + group_key;
}

// The vector leg: the nearest bugs of the organization's index, narrowed
// to those the filters select.
Result<std::vector<SearchIndex::Hit>> VectorLeg(const BugsDeps& deps, const ports::BugFilter& filter,
                                                const std::string& query) {
  SV_ASSIGN_OR_RETURN(
      std::vector<SearchIndex::Hit> nearest,
      deps.search_index->Nearest(deps, filter.org_id, filter.project_id, domain::capture::Embed(query),
                                 static_cast<size_t>(kSearchLegBugs)));
  std::vector<SearchIndex::Hit> out;
  if (nearest.empty()) return out;
  ports::BugFilter narrowed = filter;
  for (const auto& h : nearest) narrowed.bug_ids.push_back(h.bug_id);
  std::vector<std::string> kept;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(kept, deps.search->Select(c, narrowed));
    return Status::Ok();
  }));
  const std::set<std::string> pass(kept.begin(), kept.end());
  for (auto& h : nearest) {
    if (pass.count(h.bug_id)) out.push_back(std::move(h));
  }
  return out;
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
    if (!row.embedding.empty()) v = domain::capture::DecodeEmbedding(row.embedding);
    if (!v)
      v = domain::capture::Embed(
          domain::capture::SearchText(row.bug.title, row.bug.description, row.bug.signature));
    Entry e;
    e.bug_id = std::move(row.bug.bug_id);
    e.project_id = std::move(row.bug.project_id);
    e.group_key = std::move(row.bug.group_key);
    std::copy_n(v->begin(), e.v.size(), e.v.begin());
    e.norm = std::sqrt(static_cast<double>(Dot(e.v.data(), e.v.data())));
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
  // domain::capture::Cosine with the entries' norms kept: one integer dot product
  // per bug (the compiler vectorizes it).
  struct Scored {
    double cos;
    const std::string* bug_id;
    size_t i;
  };
  std::vector<Scored> scored;
  std::array<int8_t, domain::capture::kEmbeddingDims> q{};
  if (query.size() != q.size()) return std::vector<Hit>();
  std::copy_n(query.begin(), q.size(), q.begin());
  const double qnorm = std::sqrt(static_cast<double>(Dot(q.data(), q.data())));
  if (qnorm == 0) return std::vector<Hit>();
  for (size_t i = 0; i < index->entries.size(); ++i) {
    const Entry& e = index->entries[i];
    if (e.norm == 0 || (project_id && e.project_id != *project_id)) continue;
    const double cos = static_cast<double>(Dot(q.data(), e.v.data())) / (qnorm * e.norm);
    if (cos >= domain::capture::kMinCosine) scored.push_back({cos, &e.bug_id, i});
  }
  // Ties break on the bug id; the comparator sees it through a pointer
  // taken under the lock (the analysis does not follow a lambda).
  const auto better = [](const Scored& a, const Scored& b) {
    if (a.cos != b.cos) return a.cos > b.cos;
    return *a.bug_id < *b.bug_id;
  };
  const size_t n = std::min(limit, scored.size());
  std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(n), scored.end(), better);
  std::vector<Hit> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const Entry& e = index->entries[scored[i].i];
    out.push_back({e.bug_id, e.project_id, e.group_key, scored[i].cos});
  }
  return out;
}

Result<SearchResult> SearchGroups(const BugsDeps& deps, const ports::BugFilter& filter,
                                  const std::string& raw, int64_t limit) {
  const std::string query = Trimmed(raw);
  const std::string lower = domain::text::LowerAsciiCopy(query);

  // Vector leg, computed on another thread while the database answers the
  // trigram leg (the scan over the organization's embeddings is the
  // search's main use of this process's CPU). The future is declared after
  // everything it reads, so an early return waits for it first.
  std::future<Result<std::vector<SearchIndex::Hit>>> vector_leg =
      std::async(std::launch::async, [&deps, &filter, &query] { return VectorLeg(deps, filter, query); });

  // Trigram leg: the engine's candidates, re-scored here.
  std::vector<ports::SearchCandidate> candidates;
  const std::vector<std::string> trigrams = domain::capture::DistinctTrigrams(lower);
  if (!trigrams.empty()) {
    SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
      SV_ASSIGN_OR_RETURN(
          candidates, deps.search->TrigramCandidates(c, filter, lower, trigrams, MinShared(trigrams.size()),
                                                     kSearchLegBugs));
      return Status::Ok();
    }));
  }
  struct Scored {
    const ports::SearchCandidate* bug;
    double score;
  };
  std::vector<Scored> trigram_hits;
  for (const auto& cand : candidates) {
    const double s = domain::capture::TrigramShare(
        trigrams, domain::capture::SearchText(cand.title, cand.description, cand.signature));
    if (s >= domain::capture::kMinTrigramScore) trigram_hits.push_back({&cand, s});
  }
  std::stable_sort(trigram_hits.begin(), trigram_hits.end(), [](const Scored& a, const Scored& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.bug->bug_id < b.bug->bug_id;
  });

  SV_ASSIGN_OR_RETURN(const std::vector<SearchIndex::Hit> vector_hits, vector_leg.get());

  // Fusion over every candidate group; only the shown page is hydrated.
  const auto all = [](const std::string&) { return true; };
  const std::vector<domain::capture::RankedKey> trigram_ranking = RankGroups(
      trigram_hits, [](const Scored& h) { return GroupName(h.bug->project_id, h.bug->group_key); },
      [](const Scored& h) { return h.score; }, all);
  const std::vector<domain::capture::RankedKey> vector_ranking = RankGroups(
      vector_hits, [](const SearchIndex::Hit& h) { return GroupName(h.project_id, h.group_key); },
      [](const SearchIndex::Hit& h) { return h.cosine; }, all);
  const std::map<std::string, double> fused = domain::capture::FuseRanks({trigram_ranking, vector_ranking});
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [key, score] : fused) order.emplace_back(score, key);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    return a.second < b.second;
  });
  SearchResult out;
  out.total = static_cast<int64_t>(order.size());
  if (static_cast<int64_t>(order.size()) > limit) order.resize(static_cast<size_t>(limit));
  if (order.empty()) return out;

  // The page's groups from their candidate members (which passed the
  // filters), aggregated over every member.
  std::set<std::string> page_keys;
  for (const auto& o : order) page_keys.insert(o.second);
  ports::BugFilter hydrate = filter;
  std::set<std::string> ids;
  for (const Scored& h : trigram_hits) {
    if (page_keys.count(GroupName(h.bug->project_id, h.bug->group_key))) ids.insert(h.bug->bug_id);
  }
  for (const SearchIndex::Hit& h : vector_hits) {
    if (page_keys.count(GroupName(h.project_id, h.group_key))) ids.insert(h.bug_id);
  }
  hydrate.bug_ids.assign(ids.begin(), ids.end());
  ports::GroupPage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(page, deps.bugs->Groups(c, hydrate, ports::GroupSort::kLastSeen, true,
                                                static_cast<int64_t>(page_keys.size()), 0));
    return Status::Ok();
  }));
  std::map<std::string, ports::GroupRecord*> shown;
  for (ports::GroupRecord& g : page.groups) shown[GroupName(g.project_id, g.group_key)] = &g;
  for (const auto& [score, key] : order) {
    auto it = shown.find(key);
    if (it != shown.end()) out.groups.push_back({std::move(*it->second), score});  // else deleted meanwhile
  }
  return out;
}

}  // namespace service::app::bugs
