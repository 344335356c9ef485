// GET /v1/bugs/search (Spec 1 "Bugs: read"; issue 10): fused trigram and
// vector search over bug titles, descriptions and signatures, answered as
// groups.
//
// 1. Trigram leg: up to kSearchLegBugs bugs from the storage engine's
//    trigram index (ports/bug_search_repository.h), re-scored in the
//    library by domain::capture::TrigramScore so both backends rank alike;
//    bugs under kMinTrigramScore (60% of the query's trigrams) drop out.
// 2. Vector leg: the query's embedding (domain/triage/embedding.h) against
//    every bug of the organization held in SearchIndex; the best
//    kSearchLegBugs at or above kMinCosine.
// 3. Each leg ranks groups (projectId + groupKey) by their best member
//    (equal scores share a rank);
//    reciprocal-rank fusion (k = 60) adds the legs; ties go to
//    "projectId:groupKey" ascending.
// 4. The groups are hydrated with the grouped list's semantics (aggregates
//    over every member) under the request's filters (projectId, status,
//    severity, signal class, deliveryFeed...); a group none of whose
//    candidates passes them is not shown.
//
// Thread-safety: SearchIndex is internally synchronized; searches of one
// organization share its index.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "areas/bugs/app/bugs.h"
#include "areas/bugs/ports/bug_search_repository.h"
#include "areas/capture/domain/embedding.h"
#include "service/status.h"
#include "util/mutex.h"

namespace service::app::bugs {

inline constexpr int64_t kSearchLegBugs = 200;
inline constexpr int64_t kSearchDefaultLimit = 20;
inline constexpr int64_t kSearchMaxLimit = 100;
inline constexpr size_t kSearchMinQuery = 2;
inline constexpr size_t kSearchMaxQuery = 200;

// The embeddings of each organization's bugs, kept in memory for the
// vector leg: loaded on an organization's first search, then refreshed on
// each search with the rows embedded since the newest one seen (less
// kRefreshOverlapMs, for writes that committed late), and rebuilt whole
// after kRebuildAfterMs (dropping deleted and merged bugs). About 200 bytes
// per bug: 20 MB for an organization of 100,000 bugs.
class SearchIndex {
 public:
  static constexpr int64_t kRefreshOverlapMs = 5'000;
  static constexpr int64_t kRebuildAfterMs = 10 * 60'000;

  struct Hit {
    std::string bug_id;
    std::string project_id;
    std::string group_key;
    double cosine = 0;
  };

  SearchIndex() = default;
  SearchIndex(const SearchIndex&) = delete;
  SearchIndex& operator=(const SearchIndex&) = delete;

  // The best `limit` bugs of `org_id` (of `project_id` when given) with a
  // cosine of at least domain::capture::kMinCosine to `query`, best first
  // (ties: bug id ascending). Refreshes the organization's entries first.
  Result<std::vector<Hit>> Nearest(const BugsDeps& deps, const std::string& org_id,
                                   const std::optional<std::string>& project_id,
                                   const std::vector<int8_t>& query, size_t limit);

 private:
  struct Entry {
    std::string bug_id;
    std::string project_id;
    std::string group_key;
    std::array<int8_t, domain::capture::kEmbeddingDims> v{};
    double norm = 0;  // |v|
  };
  struct OrgIndex {
    util::Mutex mu;
    std::vector<Entry> entries SV_GUARDED_BY(mu);
    std::unordered_map<std::string, size_t> by_id SV_GUARDED_BY(mu);
    int64_t watermark SV_GUARDED_BY(mu) = -1;  // newest embedded_at loaded; -1: never loaded
    int64_t built_at SV_GUARDED_BY(mu) = 0;
  };
  Status Refresh(const BugsDeps& deps, const std::string& org_id, OrgIndex& index) SV_REQUIRES(index.mu);

  util::Mutex mu_;
  std::map<std::string, std::shared_ptr<OrgIndex>> orgs_ SV_GUARDED_BY(mu_);
};

struct SearchGroup {
  ports::GroupRecord group;
  double score = 0;  // fused
};
struct SearchResult {
  std::vector<SearchGroup> groups;
  int64_t total = 0;  // groups found before the limit
};
// `query` is trimmed, kSearchMinQuery..kSearchMaxQuery characters (the API
// checks); `filter` carries the organization and the grouped list's filters.
Result<SearchResult> SearchGroups(const BugsDeps& deps, const ports::BugFilter& filter,
                                  const std::string& query, int64_t limit);

}  // namespace service::app::bugs
