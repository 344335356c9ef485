// BugSearchRepository: the two legs of GET /v1/bugs/search as stored data.
//
// The trigram leg ranks bugs by the storage engine's trigram index: SQLite's
// FTS5 table bugs_fts (tokenizer trigram, bm25 order over the query's
// trigrams), PostgreSQL's pg_trgm (word_similarity over the GIN index
// bugs_search_trgm; without the extension, a scan counting the query's
// trigrams). The vector leg reads the stored embeddings
// (domain/triage/embedding.h) for an in-memory index.
//
// Every method names the caller's organization; rows of another
// organization never appear. Methods run inside the caller's
// Transactions::Read (REQUIRES). Thread-safety: safe from any thread.
// Failure: driver errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "areas/bugs/ports/bug_read_repository.h"
#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

// A bug as the search sees it.
struct SearchCandidate {
  std::string bug_id;
  std::string project_id;
  std::string group_key;
  std::string title;
  std::string description;
  std::string signature;  // "" when unsigned
};

// A bug's stored embedding (hex, domain::capture::EncodeEmbedding), or its
// text when it was stored before embeddings existed (then `embedding` is
// empty and the caller computes it).
struct StoredEmbedding {
  SearchCandidate bug;
  std::string embedding;
  int64_t embedded_at = 0;
};

class BugSearchRepository {
 public:
  BugSearchRepository() = default;
  BugSearchRepository(const BugSearchRepository&) = delete;
  BugSearchRepository& operator=(const BugSearchRepository&) = delete;
  virtual ~BugSearchRepository() = default;

  // At most `limit` bugs matching `filter` that may hold `min_shared` of
  // the query's `trigrams` (distinct, lower-case; `query` is the whole
  // lower-cased query), best first by the engine's ranking: bugs holding
  // all of them first, then the rest. The caller re-scores them.
  virtual Result<std::vector<SearchCandidate>> TrigramCandidates(Tx& c, const BugFilter& filter,
                                                                 const std::string& query,
                                                                 const std::vector<std::string>& trigrams,
                                                                 size_t min_shared, int64_t limit) = 0;
  // The ids of the bugs `filter` selects (with filter.bug_ids set: which of
  // those pass the other filters).
  virtual Result<std::vector<std::string>> Select(Tx& c, const BugFilter& filter) = 0;
  // The unmerged bugs of `org_id` whose embedding was written at or after
  // `since_ms` (0: all of them).
  virtual Result<std::vector<StoredEmbedding>> EmbeddingsSince(Tx& c, const std::string& org_id,
                                                               int64_t since_ms) = 0;
};

}  // namespace service::ports
