// SQL behind ports::BugSearchRepository. The trigram leg is the one place
// where the backends differ by engine feature (FTS5 against pg_trgm); both
// filter with the grouped list's WHERE clause (store/bug_sql.h) before the
// limit. The embedding load reads bugs(org_id, embedded_at).
#include <atomic>
#include <string>
#include <vector>

#include "ports/bug_search_repository.h"
#include "store/bug_sql.h"
#include "store/database.h"
#include "store/repositories.h"

namespace service::store {
namespace {

// The text pg_trgm's index bugs_search_trgm covers (migration 0005): the
// expression must match it for the planner to use the index.
constexpr const char* kTrgmText =
    "lower(b.title || ' ' || b.description || ' ' || COALESCE(b.signature, ''))";
constexpr const char* kCandidateColumns =
    "b.id, b.project_id, b.group_key, b.title, b.description, COALESCE(b.signature, '')";

// An FTS5 query: any of the trigrams, each a quoted phrase.
std::string Fts5AnyOf(const std::vector<std::string>& trigrams) {
  std::string q;
  for (const std::string& t : trigrams) {
    if (!q.empty()) q += " OR ";
    q.push_back('"');
    for (char ch : t) {
      if (ch == '"') q.push_back('"');
      q.push_back(ch);
    }
    q.push_back('"');
  }
  return q;
}

class SqlBugSearchRepository final : public ports::BugSearchRepository {
 public:
  Result<std::vector<ports::SearchCandidate>> TrigramCandidates(ports::Tx& c_tx,
                                                                const ports::BugFilter& filter,
                                                                const std::string& query,
                                                                const std::vector<std::string>& trigrams,
                                                                int64_t limit) override {
    Connection& c = Sql(c_tx);
    std::vector<ports::SearchCandidate> out;
    if (trigrams.empty()) return out;
    std::vector<Value> params;
    std::string sql;
    if (c.dialect() == Dialect::kSqlite) {
      sql = std::string("SELECT ") + kCandidateColumns +
            " FROM bugs_fts JOIN bugs b ON b.rowid = bugs_fts.rowid" + Where(filter, params) +
            " AND bugs_fts MATCH ? ORDER BY bugs_fts.rank, b.id LIMIT ?";
      params.emplace_back(Fts5AnyOf(trigrams));
    } else {
      SV_ASSIGN_OR_RETURN(const bool trgm, HasPgTrgm(c));
      sql = std::string("SELECT ") + kCandidateColumns + " FROM bugs b" + Where(filter, params);
      if (trgm) {
        // `<%`: word_similarity above pg_trgm.word_similarity_threshold
        // (0.6 by default), answered from the GIN index.
        sql += std::string(" AND CAST(? AS text) <% ") + kTrgmText +
               " ORDER BY word_similarity(CAST(? AS text), " + kTrgmText + ") DESC, b.id LIMIT ?";
        params.emplace_back(query);
        params.emplace_back(query);
      } else {
        // No pg_trgm: count the query's trigrams in each bug (a scan).
        std::string any, count;
        for (const std::string& t : trigrams) {
          any += any.empty() ? "" : " OR ";
          any += std::string(kTrgmText) + " LIKE ? ESCAPE '\\'";
          params.emplace_back(LikeContains(t));
        }
        for (const std::string& t : trigrams) {
          count += count.empty() ? "" : " + ";
          count += std::string("CASE WHEN ") + kTrgmText + " LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END";
          params.emplace_back(LikeContains(t));
        }
        sql += " AND (" + any + ") ORDER BY (" + count + ") DESC, b.id LIMIT ?";
      }
    }
    params.emplace_back(limit);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Str(i, 4), r.Str(i, 5)});
    }
    return out;
  }

  Result<std::vector<ports::StoredEmbedding>> EmbeddingsSince(ports::Tx& c_tx, const std::string& org_id,
                                                              int64_t since_ms) override {
    Connection& c = Sql(c_tx);
    // The text only for bugs stored before embeddings (the caller embeds it).
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query("SELECT b.id, b.project_id, b.group_key, COALESCE(b.embedding, ''), b.embedded_at, "
                        "CASE WHEN b.embedding IS NULL THEN b.title ELSE '' END, "
                        "CASE WHEN b.embedding IS NULL THEN b.description ELSE '' END, "
                        "CASE WHEN b.embedding IS NULL THEN COALESCE(b.signature, '') ELSE '' END "
                        "FROM bugs b WHERE b.org_id = ? AND b.embedded_at >= ? AND b.merged_into IS NULL",
                        {org_id, since_ms}));
    std::vector<ports::StoredEmbedding> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      ports::StoredEmbedding e;
      e.bug.bug_id = r.Str(i, 0);
      e.bug.project_id = r.Str(i, 1);
      e.bug.group_key = r.Str(i, 2);
      e.embedding = r.Str(i, 3);
      e.embedded_at = r.Int(i, 4);
      e.bug.title = r.Str(i, 5);
      e.bug.description = r.Str(i, 6);
      e.bug.signature = r.Str(i, 7);
      out.push_back(std::move(e));
    }
    return out;
  }

 private:
  // Whether pg_trgm's functions are visible on the search path; asked once
  // (installing the extension takes a restart to be used).
  Result<bool> HasPgTrgm(Connection& c) {
    int known = pg_trgm_.load(std::memory_order_relaxed);
    if (known < 0) {
      SV_ASSIGN_OR_RETURN(
          Rows r, c.Query("SELECT CASE WHEN to_regprocedure('word_similarity(text,text)') IS NULL THEN 0 "
                          "ELSE 1 END",
                          {}));
      known = static_cast<int>(r.Int(0, 0));
      pg_trgm_.store(known, std::memory_order_relaxed);
    }
    return known == 1;
  }

  std::atomic<int> pg_trgm_{-1};
};

}  // namespace

std::unique_ptr<ports::BugSearchRepository> NewSqlBugSearchRepository() {
  return std::make_unique<SqlBugSearchRepository>();
}

}  // namespace service::store
