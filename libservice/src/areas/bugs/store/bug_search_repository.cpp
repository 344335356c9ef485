// SQL behind ports::BugSearchRepository. The trigram leg is the one place
// where the backends differ by engine feature (FTS5 against pg_trgm); both
// filter with the grouped list's WHERE clause (store/bug_sql.h) before the
// limit. The embedding load reads bugs(org_id, embedded_at).
#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "areas/bugs/ports/bug_search_repository.h"
#include "areas/bugs/store/bug_sql.h"
#include "areas/bugs/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

// The lower-cased text pg_trgm's index bugs_search_trgm covers, stored in
// the row (migration 0015).
constexpr const char* kTrgmText = "b.search_text";
constexpr const char* kCandidateColumns =
    "b.id, b.project_id, b.group_key, b.title, b.description, COALESCE(b.signature, '')";

// Row i of a query whose first six columns are kCandidateColumns.
ports::SearchCandidate CandidateAt(const Rows& r, size_t i) {
  return {r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Str(i, 4), r.Str(i, 5)};
}

// An FTS5 query over the trigrams, each a quoted phrase, joined by `op`.
std::string Fts5Join(const std::vector<std::string>& trigrams, const char* op) {
  std::string q;
  for (const std::string& t : trigrams) {
    if (!q.empty()) q += op;
    q.push_back('"');
    for (char ch : t) {
      if (ch == '"') q.push_back('"');
      q.push_back(ch);
    }
    q.push_back('"');
  }
  return q;
}

// The words of a lower-cased query (runs of characters between spaces),
// distinct, at most 8.
std::vector<std::string> Words(const std::string& query) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < query.size() && out.size() < 8) {
    while (i < query.size() && (query[i] == ' ' || query[i] == '\t')) ++i;
    size_t j = i;
    while (j < query.size() && query[j] != ' ' && query[j] != '\t') ++j;
    if (j > i) {
      std::string w = query.substr(i, j - i);
      if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
    }
    i = j;
  }
  return out;
}

// "<text> LIKE ? <op> <text> LIKE ? ...": `text` holding each of `terms`
// (op " AND ") or one of them (" OR "); appends the patterns to `params`.
std::string LikeEach(const std::string& text, const std::vector<std::string>& terms, const char* op,
                     std::vector<Value>& params) {
  std::string sql;
  for (const std::string& t : terms) {
    if (!sql.empty()) sql += op;
    sql += text + " LIKE ? ESCAPE '\\'";
    params.emplace_back(LikeContains(t));
  }
  return sql;
}

// "(CASE WHEN <text> LIKE ? THEN 1 ELSE 0 END + ...)": how many of `terms`
// `text` holds; appends the patterns to `params`.
std::string CountHeld(const std::string& text, const std::vector<std::string>& terms,
                      std::vector<Value>& params) {
  std::string sql;
  for (const std::string& t : terms) {
    sql += sql.empty() ? "(" : " + ";
    sql += "CASE WHEN " + text + " LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END";
    params.emplace_back(LikeContains(t));
  }
  return sql + ")";
}

// Fuzzy candidates read per query (re-scored by the caller).
constexpr int64_t kFuzzyRows = 1000;

class SqlBugSearchRepository final : public ports::BugSearchRepository {
 public:
  explicit SqlBugSearchRepository(SearchTuning tuning) : tuning_(tuning) {}

  Result<std::vector<ports::SearchCandidate>> TrigramCandidates(ports::Tx& c_tx,
                                                                const ports::BugFilter& filter,
                                                                const std::string& query,
                                                                const std::vector<std::string>& trigrams,
                                                                size_t min_shared, int64_t limit) override {
    Connection& c = Sql(c_tx);
    std::vector<ports::SearchCandidate> out;
    if (trigrams.empty()) return out;
    if (c.dialect() == Dialect::kSqlite) return Fts5Candidates(c, filter, trigrams, min_shared, limit);
    std::set<std::string> seen;
    // Appends the rows of a kCandidateColumns query not seen before.
    const auto collect = [&](const Rows& r) {
      for (size_t i = 0; i < r.size(); ++i) {
        if (!seen.insert(r.Str(i, 0)).second) continue;
        out.push_back(CandidateAt(r, i));
      }
    };
    const auto run = [&](const std::string& condition, std::vector<Value> extra, const std::string& order,
                         int64_t n) -> Status {
      std::vector<Value> params;
      std::string sql = std::string("SELECT ") + kCandidateColumns + " FROM bugs b" + Where(filter, params) +
                        " AND " + condition + " ORDER BY " + order + " LIMIT ?";
      for (Value& v : extra) params.push_back(std::move(v));
      params.emplace_back(n);
      SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
      collect(r);
      return Status::Ok();
    };
    SV_ASSIGN_OR_RETURN(const bool trgm, HasPgTrgm(c));
    if (trgm) {
      // 1. The bugs holding every word of the query in any order (the index
      //    intersects the words' trigrams, as FTS5's all-trigrams leg does on
      //    SQLite), those holding the whole query as written first, each
      //    part newest first: one pass over the rows holding every word.
      const std::vector<std::string> words = Words(query);
      std::vector<Value> extra;
      const std::string all =
          LikeEach(kTrgmText, words.empty() ? std::vector<std::string>{query} : words, " AND ", extra);
      std::string order = "b.last_seen DESC, b.id";
      if (words.size() > 1) {
        order = std::string("CASE WHEN ") + kTrgmText + " LIKE ? ESCAPE '\\' THEN 0 ELSE 1 END, " + order;
        extra.emplace_back(LikeContains(query));
      }
      SV_RETURN_IF_ERROR(run("(" + all + ")", std::move(extra), order, limit));
      if (static_cast<int64_t>(out.size()) >= limit) return out;
      // 2. Only when a word occurs nowhere (a misspelling). One round trip
      //    asks which words and which of the query's trigrams occur at all
      //    (an index probe each): a bug can share no more trigrams than
      //    those, and the absent ones are the rarest there are.
      std::vector<std::string> terms = words;
      terms.insert(terms.end(), trigrams.begin(), trigrams.end());
      std::vector<Value> probe_params;
      std::string probe = "SELECT ";
      for (size_t i = 0; i < terms.size(); ++i) {
        probe += i ? ", " : "";
        probe += "(SELECT COUNT(*) FROM (SELECT 1 FROM bugs b" + Where(filter, probe_params) + " AND " +
                 kTrgmText + " LIKE ? ESCAPE '\\' LIMIT 1) p)";
        probe_params.emplace_back(LikeContains(terms[i]));
      }
      SV_ASSIGN_OR_RETURN(Rows found, c.Query(probe, probe_params));
      bool all_found = !words.empty();
      for (size_t i = 0; i < words.size(); ++i) all_found = all_found && found.Int(0, i) > 0;
      if (all_found) return out;
      // The query's trigrams that occur somewhere (by index) and those that
      // occur nowhere.
      std::vector<size_t> present;
      std::vector<std::string> absent;
      for (size_t i = 0; i < trigrams.size(); ++i) {
        if (found.Int(0, words.size() + i) > 0) {
          present.push_back(i);
        } else {
          absent.push_back(trigrams[i]);
        }
      }
      const size_t need = std::max<size_t>(min_shared, 1);
      if (present.size() < need) return out;
      //    a. One walk over the newest SearchTuning::fuzzy_walk bugs the
      //       filter selects (backwards along bugs(org_id, last_seen, id),
      //       no sort) keeps those sharing at least min_shared of the
      //       query's trigrams (the caller's own rule; LIKE on the stored
      //       text, no similarity computed) and counts, over the whole walk,
      //       the bugs holding each trigram. The first row of the walk
      //       always comes back so that the counts do. A misspelling of a
      //       common word ends here.
      std::vector<int64_t> sample(trigrams.size(), 0);
      {
        std::vector<Value> params;
        std::string flags, shared, totals, counts;
        for (size_t i = 0; i < trigrams.size(); ++i) {
          const std::string f = "f" + std::to_string(i);
          flags += ", CASE WHEN " + std::string(kTrgmText) + " LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END AS " + f;
          params.emplace_back(LikeContains(trigrams[i]));
          shared += (i ? " + " : "") + f;
          totals += ", SUM(" + f + ") OVER () AS c" + std::to_string(i);
          counts += ", c" + std::to_string(i);
        }
        const std::string walk =
            "SELECT b.id, b.project_id, b.group_key, b.title, b.description, "
            "COALESCE(b.signature, '') AS sig, b.last_seen" +
            flags + " FROM bugs b" + Where(filter, params) + " ORDER BY b.last_seen DESC, b.id DESC LIMIT ?";
        params.emplace_back(tuning_.fuzzy_walk);
        params.emplace_back(static_cast<int64_t>(need));
        params.emplace_back(limit + 1);
        SV_ASSIGN_OR_RETURN(
            Rows r, c.Query("SELECT id, project_id, group_key, title, description, sig, shared" + counts +
                                " FROM (SELECT w.*, " + shared + " AS shared, ROW_NUMBER() OVER () AS rn" +
                                totals + " FROM (" + walk +
                                ") w) x WHERE shared >= ? OR rn = 1 "
                                "ORDER BY last_seen DESC, id DESC LIMIT ?",
                            params));
        for (size_t i = 0; i < trigrams.size() && r.size() > 0; ++i) sample[i] = r.Int(0, 7 + i);
        for (size_t i = 0; i < r.size() && static_cast<int64_t>(out.size()) < limit; ++i) {
          if (r.Int(i, 6) < static_cast<int64_t>(need) || !seen.insert(r.Str(i, 0)).second) continue;
          out.push_back(CandidateAt(r, i));
        }
      }
      if (static_cast<int64_t>(out.size()) >= limit) return out;
      //    b. Short of `limit`: the same rule over every bug, from the
      //       index: a bug sharing min_shared of the n trigrams holds one
      //       of any n - min_shared + 1 of them (pigeonhole), so the index
      //       is asked for the rows holding one of those, newest first: the
      //       absent ones, then the present ones rarest first as counted by
      //       the walk (pg_trgm keeps no document counts, as FTS5 does on
      //       SQLite; the sample tells a trigram in a hundredth of the bugs
      //       from one in a sixth, which decides how many rows the index
      //       hands over). When those trigrams are common (held by more
      //       than one bug in SearchTuning::fuzzy_dense_divisor of the
      //       walk: the index would hand over thousands of rows to
      //       recheck), the walk's bugs are the candidates: the newest
      //       holders of a common word's misspelling (the vector leg still
      //       looks at every bug).
      //       pg_trgm's `<%` word similarity (about 17,000 rows, 300 ms,
      //       for a misspelling of a word in a sixth of 100,000 bugs) is
      //       never asked.
      std::stable_sort(present.begin(), present.end(),
                       [&](size_t a, size_t b) { return sample[a] < sample[b]; });
      std::vector<std::string> subset = absent;  // they add nothing to the OR: only the present rest costs
      int64_t dense = 0;
      for (size_t i : present) {
        if (subset.size() == trigrams.size() - need + 1) break;
        subset.push_back(trigrams[i]);
        dense += sample[i];
      }
      if (dense * tuning_.fuzzy_dense_divisor > tuning_.fuzzy_walk) return out;
      std::vector<Value> fuzzy;
      const std::string any = LikeEach(kTrgmText, subset, " OR ", fuzzy);
      const std::string shared = CountHeld(kTrgmText, trigrams, fuzzy);
      fuzzy.emplace_back(static_cast<int64_t>(need));
      SV_RETURN_IF_ERROR(run("(" + any + ") AND " + shared + " >= ?", std::move(fuzzy),
                             "b.last_seen DESC, b.id", limit + static_cast<int64_t>(seen.size())));
      return out;
    }
    // No pg_trgm: count the query's trigrams in each bug (a scan); the
    // ORDER BY placeholders follow the WHERE ones.
    std::vector<Value> extra;
    const std::string any = LikeEach(kTrgmText, trigrams, " OR ", extra);
    const std::string order = CountHeld(kTrgmText, trigrams, extra) + " DESC, b.id";
    SV_RETURN_IF_ERROR(run("(" + any + ")", std::move(extra), order, limit));
    return out;
  }

  Result<std::vector<std::string>> Select(ports::Tx& c_tx, const ports::BugFilter& filter) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT b.id FROM bugs b" + Where(filter, params), params));
    std::vector<std::string> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back(r.Str(i, 0));
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
  // SQLite: the newest `limit` bugs holding every trigram (FTS5 walks its
  // rowids backwards and stops), then, while short of `limit`, the newest
  // kFuzzyRows bugs holding one of the rarest n - min_shared + 1 trigrams:
  // a bug sharing min_shared of the n must hold one of any
  // n - min_shared + 1 (pigeonhole), so asking for the rarest loses none
  // and keeps the posting lists short (document counts from
  // bugs_fts_vocab). The caller re-scores and keeps the best.
  static Result<std::vector<ports::SearchCandidate>> Fts5Candidates(Connection& c,
                                                                    const ports::BugFilter& filter,
                                                                    const std::vector<std::string>& trigrams,
                                                                    size_t min_shared, int64_t limit) {
    std::vector<ports::SearchCandidate> out;
    std::set<std::string> seen;
    int64_t cap = limit;
    const auto run = [&](const std::string& match, int64_t n) -> Status {
      std::vector<Value> params;
      const std::string sql = std::string("SELECT ") + kCandidateColumns +
                              " FROM bugs_fts JOIN bugs b ON b.rowid = bugs_fts.rowid" +
                              Where(filter, params) +
                              " AND bugs_fts MATCH ? ORDER BY bugs_fts.rowid DESC LIMIT ?";
      params.emplace_back(match);
      params.emplace_back(n);
      SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
      for (size_t i = 0; i < r.size() && static_cast<int64_t>(out.size()) < cap; ++i) {
        if (!seen.insert(r.Str(i, 0)).second) continue;
        out.push_back(CandidateAt(r, i));
      }
      return Status::Ok();
    };
    SV_RETURN_IF_ERROR(run(Fts5Join(trigrams, " AND "), limit));
    if (static_cast<int64_t>(out.size()) >= limit || min_shared >= trigrams.size()) return out;
    std::vector<Value> terms(trigrams.begin(), trigrams.end());
    SV_ASSIGN_OR_RETURN(Rows df, c.Query("SELECT term, doc FROM bugs_fts_vocab WHERE term IN (" +
                                             Placeholders(trigrams.size()) + ")",
                                         terms));
    cap = static_cast<int64_t>(out.size()) + kFuzzyRows;
    std::map<std::string, int64_t> docs;
    for (size_t i = 0; i < df.size(); ++i) docs[df.Str(i, 0)] = df.Int(i, 1);
    std::vector<std::string> rarest = trigrams;
    std::stable_sort(rarest.begin(), rarest.end(),
                     [&](const std::string& a, const std::string& b) { return docs[a] < docs[b]; });
    rarest.resize(trigrams.size() - std::max<size_t>(min_shared, 1) + 1);
    SV_RETURN_IF_ERROR(run(Fts5Join(rarest, " OR "), kFuzzyRows + static_cast<int64_t>(seen.size())));
    return out;
  }

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

  const SearchTuning tuning_;
  std::atomic<int> pg_trgm_{-1};
};

}  // namespace

std::unique_ptr<ports::BugSearchRepository> NewSqlBugSearchRepository(SearchTuning tuning) {
  return std::make_unique<SqlBugSearchRepository>(tuning);
}

}  // namespace service::store
