// The large organization the read benchmarks measure (bench_reads,
// bench_mcp): a reproducible generator that bulk-loads bugs, occurrences,
// participants and end users straight into the tables (sending a million
// HTTP reports would measure ingest, not reads), and in-process calls
// through Service::Handle. Header-only, for tests/bench/* clients linked
// with the library's internals.
//
// The generator (seed s, splitmix64):
//   bugs: project uniform over the given projects; first_seen uniform over
//     the 90 days before now, last_seen = first_seen + up to 3 days (capped
//     at now); severity critical 5%, high 20%, medium 50%, low 25%; status
//     new 60%, known 10%, working 10%, resolved 15%, silenced 5%; signal
//     class issue 80%, watch 15%, diagnostic 5%; one bug in 5 shares a
//     signature with up to 4 others of its project (groups); titles from
//     fixed word lists; assigned to the given user 10%.
//   occurrences: per bug a geometric-ish count with mean OCCURRENCES/BUGS
//     (at least 1), spread between first_seen and last_seen; userKey from a
//     pool of 20,000 end users, session from a pool of 50,000; platform web
//     70%, ios 15%, android 15%; optionally three stored events each (an
//     error with a stack, a breadcrumb, a network call: about 400 bytes);
//     the bug's counters, participants (bug_participants) and end_users
//     rows agree with them.
#pragma once

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "areas/capture/domain/embedding.h"
#include "areas/capture/domain/vocabulary.h"
#include "service/service.h"
#include "store/database.h"

namespace bench {

inline constexpr int64_t kDay = 86'400'000;
using HeaderList = std::vector<std::pair<std::string, std::string>>;

// splitmix64: the same sequence on every machine for one seed.
struct Rng {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int64_t Below(int64_t n) { return static_cast<int64_t>(Next() % static_cast<uint64_t>(n)); }
  double Unit() { return static_cast<double>(Next() >> 11) / 9007199254740992.0; }
};

// One of `weighted` (weights summing to 1) by a uniform draw.
template <typename T>
const T& Pick(Rng& r, const std::vector<std::pair<double, T>>& weighted) {
  double u = r.Unit();
  for (const auto& [w, v] : weighted) {
    if (u < w) return v;
    u -= w;
  }
  return weighted.back().second;
}

// A fixed UUID-shaped id: `kind` 1 for bugs, 2 for occurrences.
inline std::string Uuid(uint64_t kind, uint64_t n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "01900000-%04llx-7000-8000-%012llx", static_cast<unsigned long long>(kind),
                static_cast<unsigned long long>(n));
  return buf;
}

inline std::string Hex16(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Accumulates rows of one table and flushes them as multi-row INSERTs.
class BulkInsert {
 public:
  // `parent` (the referenced table) is flushed before each flush of this one.
  BulkInsert(service::store::Database& db, std::string table, std::vector<std::string> columns,
             BulkInsert* parent = nullptr)
      : db_(db), table_(std::move(table)), columns_(std::move(columns)), parent_(parent) {}
  void Add(std::vector<service::store::Value> row) {
    for (auto& v : row) params_.push_back(std::move(v));
    if (++rows_ * columns_.size() >= kMaxParams) Flush();
  }
  void Flush() {
    if (rows_ == 0) return;
    if (parent_ != nullptr) parent_->Flush();
    std::string sql = "INSERT INTO " + table_ + " (";
    for (size_t i = 0; i < columns_.size(); ++i) sql += (i ? ", " : "") + columns_[i];
    sql += ") VALUES ";
    std::string one = "(";
    for (size_t i = 0; i < columns_.size(); ++i) one += i ? ", ?" : "?";
    one += ")";
    for (size_t r = 0; r < rows_; ++r) sql += (r ? ", " : "") + one;
    const service::Status st =
        db_.Write([&](service::store::Connection& c) { return c.Exec(sql, params_).status(); });
    if (!st.ok()) {
      std::fprintf(stderr, "insert into %s: %s\n", table_.c_str(), st.ToString().c_str());
      std::exit(1);
    }
    params_.clear();
    rows_ = 0;
  }

 private:
  // libpq rejects a parameter description over 30,000 bytes (4 per
  // parameter): statements stay under 7,000 parameters.
  static constexpr size_t kMaxParams = 7000;
  service::store::Database& db_;
  std::string table_;
  std::vector<std::string> columns_;
  BulkInsert* parent_;
  std::vector<service::store::Value> params_;
  size_t rows_ = 0;
};

// One request through Service::Handle; a streamed body is drained into
// `body`.
inline service::api::Response Call(service::Service& s, const std::string& method,
                                   const std::string& path_query, const std::string& body,
                                   const HeaderList& h) {
  service::api::Request req;
  req.method = method;
  const size_t q = path_query.find('?');
  req.path = path_query.substr(0, q);
  if (q != std::string::npos) req.query = path_query.substr(q + 1);
  req.body = body;
  req.remote_addr = "127.0.0.1";
  if (!body.empty()) req.headers.Add("Content-Type", "application/json");
  for (const auto& [k, v] : h) req.headers.Add(k, v);
  service::api::Response res = s.Handle(req);
  if (res.stream) {
    service::api::DrainStream(*res.stream, [&res](std::string_view chunk) {
      res.body.append(chunk);
      return true;
    });
  }
  return res;
}

// VmHWM of /proc/self/status (peak resident set, resettable), in KiB.
inline long HighWaterKb() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  long kb = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) kb = std::atol(line + 6);
  }
  std::fclose(f);
  return kb;
}

// The words of the generated titles and descriptions (searches use them).
inline const std::vector<std::string> kSeedWords = {
    "checkout", "cart",    "payment",   "login",  "profile", "search", "upload", "invoice", "settings",
    "button",   "timeout", "crash",     "failed", "render",  "image",  "modal",  "token",   "session",
    "network",  "null",    "undefined", "layout", "scroll",  "export", "report", "filter",  "order"};

struct SeedSpec {
  std::string database_url;  // for vacuumdb and CHECKPOINT on PostgreSQL
  std::string org_id;
  std::string user_id;  // the assignee of one bug in ten
  std::vector<std::string> projects;
  int64_t bugs = 0;
  int64_t occurrences = 0;
  uint64_t seed = 42;
  int64_t now_ms = 0;
  // Three stored events per occurrence (event_count 3) instead of none
  // (event_count 20, as the list reads only show the count).
  bool with_events = false;
};

struct SeedResult {
  int64_t occurrences = 0;
  size_t end_users = 0;
  double seconds = 0;
};

// The bugs' ids, in generation order: Uuid(1, 0..bugs-1).
inline std::vector<std::string> SeededBugIds(int64_t bugs) {
  std::vector<std::string> ids;
  ids.reserve(static_cast<size_t>(bugs));
  for (int64_t b = 0; b < bugs; ++b) ids.push_back(Uuid(1, static_cast<uint64_t>(b)));
  return ids;
}

// Loads the generator's rows, then ANALYZE (PostgreSQL: vacuumdb --analyze,
// as autovacuum would have, and a CHECKPOINT so that writing the load's
// pages is not measured). Exits the process on a failed insert.
inline SeedResult SeedBugs(service::store::Database& db, const SeedSpec& spec) {
  using service::store::Value;
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const std::vector<std::string> bug_ids = SeededBugIds(spec.bugs);
  const int64_t project_count = static_cast<int64_t>(spec.projects.size());
  Rng rng{spec.seed};
  const std::vector<std::pair<double, std::string>> kSeverities = {
      {0.05, "critical"}, {0.20, "high"}, {0.50, "medium"}, {0.25, "low"}};
  const std::vector<std::pair<double, std::string>> kStatuses = {
      {0.60, "new"}, {0.10, "known"}, {0.10, "working"}, {0.15, "resolved"}, {0.05, "silenced"}};
  const std::vector<std::pair<double, std::string>> kClasses = {
      {0.80, "issue"}, {0.15, "watch"}, {0.05, "diagnostic"}};
  const std::vector<std::pair<double, std::string>> kPlatforms = {
      {0.70, "web"}, {0.15, "ios"}, {0.15, "android"}};
  BulkInsert bug_rows(db, "bugs",
                      {"id",
                       "org_id",
                       "project_id",
                       "key_env",
                       "fingerprint",
                       "signature_hash",
                       "signature",
                       "group_key",
                       "embedding",
                       "embedded_at",
                       "title",
                       "description",
                       "url",
                       "severity",
                       "status",
                       "platform",
                       "platforms",
                       "report_count",
                       "occurrence_count",
                       "reporter_count",
                       "affected_user_count",
                       "affected_session_count",
                       "signal_class",
                       "signal_family",
                       "assigned_to",
                       "first_seen",
                       "last_seen",
                       "created_at",
                       "updated_at",
                       "resolved_at"});
  std::vector<std::string> occ_columns = {"id",          "bug_id",   "project_id",  "org_id",  "session_id",
                                          "end_user_id", "user_key", "user_kind",   "url",     "browser",
                                          "os",          "platform", "event_count", "metadata"};
  if (spec.with_events) occ_columns.push_back("events");
  occ_columns.push_back("occurred_at");
  occ_columns.push_back("created_at");
  BulkInsert occ_rows(db, "occurrences", occ_columns, &bug_rows);
  BulkInsert part_rows(db, "bug_participants",
                       {"bug_id", "kind", "key", "first_seen", "last_seen", "report_count"}, &bug_rows);
  struct EndUserAgg {
    int64_t first = INT64_MAX, last = 0, count = 0;
    std::string last_occ;
  };
  std::map<int64_t, EndUserAgg> end_users;
  const double mean = static_cast<double>(spec.occurrences) / static_cast<double>(spec.bugs);
  int64_t occ_id = 0;
  int64_t group_left = 0, group_no = 0;
  for (int64_t b = 0; b < spec.bugs; ++b) {
    const std::string& id = bug_ids[static_cast<size_t>(b)];
    const std::string& project = spec.projects[static_cast<size_t>(rng.Below(project_count))];
    const int64_t first = spec.now_ms - rng.Below(90 * kDay);
    const int64_t last = std::min(spec.now_ms, first + rng.Below(3 * kDay));
    const std::string severity = Pick(rng, kSeverities);
    const std::string status = Pick(rng, kStatuses);
    std::string title;
    for (int w = 0; w < 4; ++w) title += (w ? " " : "") + kSeedWords[static_cast<size_t>(rng.Below(27))];
    if (group_left == 0 && rng.Below(5) == 0) {
      group_left = 1 + rng.Below(4);
      ++group_no;
    }
    const std::string sig =
        group_left > 0 ? "TypeError:group " + std::to_string(group_no) : "TypeError:" + title + " " + id;
    if (group_left > 0) --group_left;
    const std::string sig_hash = Hex16(std::hash<std::string>{}(sig));
    const std::string description = "Something about " + kSeedWords[static_cast<size_t>(rng.Below(27))];
    // Occurrences: at least one, mean `mean`, long tail.
    const int64_t n = std::max<int64_t>(1, static_cast<int64_t>(-mean * std::log(1.0 - rng.Unit() * 0.999)));
    std::set<int64_t> users, sessions;
    std::vector<std::vector<Value>> pending;
    const std::string platform = Pick(rng, kPlatforms);
    for (int64_t k = 0; k < n; ++k) {
      const int64_t at = first + (last > first ? rng.Below(last - first + 1) : 0);
      const int64_t u = rng.Below(20'000);
      const int64_t sess = rng.Below(50'000);
      users.insert(u);
      sessions.insert(sess);
      const std::string oid = Uuid(2, static_cast<uint64_t>(occ_id++));
      std::vector<Value> row = {oid,
                                id,
                                project,
                                spec.org_id,
                                "s-" + std::to_string(sess),
                                "u-" + std::to_string(u),
                                "user:u-" + std::to_string(u),
                                std::string("user"),
                                std::string("https://app.example.com/orders/1"),
                                std::string("Chrome"),
                                std::string("macOS"),
                                platform,
                                int64_t{spec.with_events ? 3 : 20},
                                std::string("{}")};
      if (spec.with_events) {
        row.emplace_back(boost::json::serialize(boost::json::array{
            boost::json::object{{"type", "breadcrumb"},
                                {"timestamp", at - 2000},
                                {"data", boost::json::object{{"message", "clicked " + title}}}},
            boost::json::object{
                {"type", "network"},
                {"timestamp", at - 500},
                {"data", boost::json::object{{"url", "https://api.example.com/orders"}, {"status", 500}}}},
            boost::json::object{
                {"type", "error"},
                {"timestamp", at},
                {"data", boost::json::object{{"name", "TypeError"},
                                             {"message", title + " is undefined"},
                                             {"stack", "TypeError: " + title +
                                                           " is undefined\n    at submit (app.js:120:7)\n"
                                                           "    at onClick (app.js:88:3)"}}}}}));
      }
      row.emplace_back(at);
      row.emplace_back(at);
      pending.push_back(std::move(row));
      EndUserAgg& e = end_users[u];
      e.first = std::min(e.first, at);
      if (at >= e.last) {
        e.last = at;
        e.last_occ = oid;
      }
      e.count++;
    }
    bug_rows.Add({id,
                  spec.org_id,
                  project,
                  std::string("live"),
                  Hex16(rng.Next()),
                  sig_hash,
                  sig,
                  sig_hash,
                  service::domain::capture::EncodeEmbedding(service::domain::capture::Embed(
                      service::domain::capture::SearchText(title, description, sig))),
                  first,
                  title,
                  description,
                  std::string("https://app.example.com/orders/1"),
                  severity,
                  status,
                  platform,
                  service::domain::capture::PlatformBit(platform),
                  n,
                  n,
                  int64_t{0},
                  static_cast<int64_t>(users.size()),
                  static_cast<int64_t>(sessions.size()),
                  Pick(rng, kClasses),
                  std::string("uncaught_error"),
                  rng.Below(10) == 0 ? Value(spec.user_id) : Value(),
                  first,
                  last,
                  first,
                  last,
                  status == "resolved" ? Value(last) : Value()});
    for (auto& row : pending) occ_rows.Add(std::move(row));
    for (int64_t u : users) {
      part_rows.Add({id, std::string("user"), "user:u-" + std::to_string(u), first, last, int64_t{1}});
    }
    for (int64_t sess : sessions) {
      part_rows.Add(
          {id, std::string("session"), "s-" + std::to_string(sess), int64_t{0}, int64_t{0}, int64_t{0}});
    }
  }
  bug_rows.Flush();
  occ_rows.Flush();
  part_rows.Flush();
  BulkInsert user_rows(db, "end_users",
                       {"org_id", "user_key", "kind", "end_user_id", "first_seen", "last_seen",
                        "occurrence_count", "platforms", "last_occurrence_id"});
  for (const auto& [u, e] : end_users) {
    user_rows.Add({spec.org_id, "user:u-" + std::to_string(u), std::string("user"), "u-" + std::to_string(u),
                   e.first, e.last, e.count, std::string("[\"web\"]"), e.last_occ});
  }
  user_rows.Flush();
  (void)db.Write([](service::store::Connection& c) { return c.Exec("ANALYZE").status(); });
  if (spec.database_url.rfind("postgres", 0) == 0) {
    // The bulk load rewrote the counters kept on write (migration 0010) once
    // per row; a server's autovacuum keeps up with that churn, a bulk load
    // outruns it. VACUUM cannot run in a transaction: vacuumdb does it.
    const std::string cmd = "vacuumdb --quiet --analyze --dbname '" + spec.database_url + "'";
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "vacuumdb failed; figures include bloat\n");
    // Writes the bulk load's dirty pages now rather than in a checkpoint
    // during the measurements (a running server spreads such writes over
    // its steady state). Needs a superuser or pg_checkpoint.
    const std::string checkpoint =
        "psql --quiet --no-psqlrc --dbname '" + spec.database_url + "' -c CHECKPOINT";
    if (std::system(checkpoint.c_str()) != 0)
      std::fprintf(stderr, "CHECKPOINT failed; figures may include it\n");
  }
  return SeedResult{occ_id, end_users.size(), std::chrono::duration<double>(Clock::now() - t0).count()};
}

}  // namespace bench
