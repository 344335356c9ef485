// bench_reads: triage reads on a large organization (issue 10 "Performance").
//
// 1. Opens a Service on --database, registers an account and creates 10
//    projects through the API.
// 2. Bulk-loads BUGS bugs and OCCURRENCES occurrences (defaults 100,000 and
//    1,000,000) with the generator below, reproducible by --seed: multi-row
//    INSERTs in transactions of 10,000 rows, then ANALYZE (PostgreSQL:
//    vacuumdb --analyze, as autovacuum would have, and a CHECKPOINT so
//    that writing the load's pages is not measured). Sending a million
//    HTTP reports would measure ingest, not reads.
// 3. Times each endpoint through Service::Handle (no sockets) with varied
//    parameters, sequentially, and prints p50/p99 beside GET /v1/health
//    measured in the same run; the export of 50,000 rows prints its time,
//    bytes and the growth of the process's peak RSS.
//
// The generator (seed s, splitmix64):
//   bugs: project uniform over 10; first_seen uniform over the 90 days
//     before now, last_seen = first_seen + up to 3 days (capped at now);
//     severity critical 5%, high 20%, medium 50%, low 25%; status new 60%,
//     known 10%, working 10%, resolved 15%, silenced 5%; signal class issue
//     80%, watch 15%, diagnostic 5%; one bug in 5 shares a signature with up
//     to 4 others of its project (groups); titles from fixed word lists;
//     assigned to the admin 10%.
//   occurrences: per bug a geometric-ish count with mean OCCURRENCES/BUGS
//     (at least 1), spread between first_seen and last_seen; userKey from a
//     pool of 20,000 end users, session from a pool of 50,000; platform web
//     70%, ios 15%, android 15%; the bug's counters, participants
//     (bug_participants) and end_users rows agree with them.
//
//   bench_reads --database URL [--bugs N] [--occurrences N] [--seed S] [--requests N]
#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "areas/capture/domain/embedding.h"
#include "areas/capture/domain/vocabulary.h"
#include "service/service.h"
#include "service_internal.h"
#include "store/database.h"

namespace {

using Clock = std::chrono::steady_clock;
using service::store::Value;

constexpr int64_t kDay = 86'400'000;

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

template <typename T>
const T& Pick(Rng& r, const std::vector<std::pair<double, T>>& weighted) {
  double u = r.Unit();
  for (const auto& [w, v] : weighted) {
    if (u < w) return v;
    u -= w;
  }
  return weighted.back().second;
}

std::string Uuid(uint64_t kind, uint64_t n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "01900000-%04llx-7000-8000-%012llx", static_cast<unsigned long long>(kind),
                static_cast<unsigned long long>(n));
  return buf;
}

std::string Hex16(uint64_t v) {
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
  void Add(std::vector<Value> row) {
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
  std::vector<Value> params_;
  size_t rows_ = 0;
};

service::api::Response Call(service::Service& s, const std::string& method, const std::string& path_query,
                            const std::string& body,
                            const std::vector<std::pair<std::string, std::string>>& h) {
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

// VmHWM of /proc/self/status (peak resident set, resettable).
long HighWaterKb() {
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

struct Timing {
  double p50_ms = 0, p99_ms = 0;
  int failures = 0;
};

template <typename MakePath>
Timing Measure(service::Service& s, const std::vector<std::pair<std::string, std::string>>& headers, int n,
               MakePath make_path) {
  std::vector<double> ms;
  Timing t;
  for (int i = 0; i < n; ++i) {
    const std::string path = make_path(i);
    const auto t0 = Clock::now();
    const service::api::Response r = Call(s, "GET", path, "", headers);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (r.status != 200) {
      if (t.failures++ == 0) std::fprintf(stderr, "%s -> %d %s\n", path.c_str(), r.status, r.body.c_str());
    }
  }
  std::sort(ms.begin(), ms.end());
  t.p50_ms = ms[ms.size() / 2];
  t.p99_ms = ms[std::min(ms.size() - 1, (ms.size() * 99) / 100)];
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string database;
  int64_t bugs = 100'000, occurrences = 1'000'000;
  uint64_t seed = 42;
  int requests = 200;
  bool reuse = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--reuse") {
      reuse = true;
      continue;
    }
    if (i + 1 >= argc) break;
    if (arg == "--database") database = argv[i + 1];
    if (arg == "--bugs") bugs = std::atoll(argv[i + 1]);
    if (arg == "--occurrences") occurrences = std::atoll(argv[i + 1]);
    if (arg == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (arg == "--requests") requests = std::atoi(argv[i + 1]);
    ++i;
  }
  if (database.empty()) {
    std::fprintf(stderr,
                 "usage: bench_reads --database URL [--bugs N] [--occurrences N] [--seed S] "
                 "[--requests N] [--reuse]\n");
    return 2;
  }
  service::Options options;
  options.database_url = database;
  options.rate_limits.enabled = false;
  options.jwt_secret = "reads-benchmark-secret-0123456789abcdef";
  options.plan_limits["free"]["projects"] = 100;
  auto opened = service::Service::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "open: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  service::Service& s = **opened;
  // --reuse measures a database seeded by an earlier run (same --bugs and
  // --seed): it signs in instead of registering and skips the generator.
  service::api::Response reg =
      reuse
          ? Call(s, "POST", "/v1/auth/login",
                 R"({"email":"bench@example.com","password":"benchmark-password"})", {})
          : Call(
                s, "POST", "/v1/auth/register",
                R"({"email":"bench@example.com","password":"benchmark-password","name":"Bench","orgName":"Bench"})",
                {});
  if (reg.status != (reuse ? 200 : 201)) {
    std::fprintf(stderr, "register: %d %s\n", reg.status, reg.body.c_str());
    return 1;
  }
  const boost::json::value account = boost::json::parse(reg.body);
  const std::string token(account.at("accessToken").as_string());
  const std::string org(account.at("org").at("id").as_string());
  const std::string user(account.at("user").at("id").as_string());
  const std::vector<std::pair<std::string, std::string>> headers = {{"Authorization", "Bearer " + token},
                                                                    {"X-Service-Org", org}};
  std::vector<std::string> projects;
  if (reuse) {
    const service::api::Response r = Call(s, "GET", "/v1/projects", "", headers);
    const boost::json::value list = boost::json::parse(r.body);
    for (const auto& p : list.at("projects").as_array()) projects.emplace_back(p.at("id").as_string());
  }
  for (int p = 0; p < 10 && !reuse; ++p) {
    service::api::Response r = Call(
        s, "POST", "/v1/projects",
        boost::json::serialize(boost::json::object{{"name", "Project " + std::to_string(p)}, {"orgId", org}}),
        headers);
    if (r.status != 201) {
      std::fprintf(stderr, "project: %d %s\n", r.status, r.body.c_str());
      return 1;
    }
    projects.emplace_back(boost::json::parse(r.body).at("id").as_string());
  }

  static const std::vector<std::string> kWords = {
      "checkout", "cart",    "payment",   "login",  "profile", "search", "upload", "invoice", "settings",
      "button",   "timeout", "crash",     "failed", "render",  "image",  "modal",  "token",   "session",
      "network",  "null",    "undefined", "layout", "scroll",  "export", "report", "filter",  "order"};
  std::vector<std::string> bug_ids;
  bug_ids.reserve(static_cast<size_t>(bugs));
  for (int64_t b = 0; b < bugs; ++b) bug_ids.push_back(Uuid(1, static_cast<uint64_t>(b)));
  // --- generator ---
  service::store::Database& db = *service::internal::PlatformOf(s).db;
  const int64_t now = service::internal::PlatformOf(s).Now();
  const auto seed0 = Clock::now();
  if (!reuse) {
    Rng rng{seed};
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
    BulkInsert occ_rows(
        db, "occurrences",
        {"id", "bug_id", "project_id", "org_id", "session_id", "end_user_id", "user_key", "user_kind", "url",
         "browser", "os", "platform", "event_count", "metadata", "occurred_at", "created_at"},
        &bug_rows);
    BulkInsert part_rows(db, "bug_participants",
                         {"bug_id", "kind", "key", "first_seen", "last_seen", "report_count"}, &bug_rows);
    struct EndUserAgg {
      int64_t first = INT64_MAX, last = 0, count = 0;
      std::string last_occ;
    };
    std::map<int64_t, EndUserAgg> end_users;
    const double mean = static_cast<double>(occurrences) / static_cast<double>(bugs);
    int64_t occ_id = 0;
    std::string signature;
    int64_t group_left = 0, group_no = 0;
    for (int64_t b = 0; b < bugs; ++b) {
      const std::string& id = bug_ids[static_cast<size_t>(b)];
      const std::string& project = projects[static_cast<size_t>(rng.Below(10))];
      const int64_t first = now - rng.Below(90 * kDay);
      const int64_t last = std::min(now, first + rng.Below(3 * kDay));
      const std::string severity = Pick(rng, kSeverities);
      const std::string status = Pick(rng, kStatuses);
      std::string title;
      for (int w = 0; w < 4; ++w) title += (w ? " " : "") + kWords[static_cast<size_t>(rng.Below(27))];
      if (group_left == 0 && rng.Below(5) == 0) {
        group_left = 1 + rng.Below(4);
        ++group_no;
      }
      const std::string sig =
          group_left > 0 ? "TypeError:group " + std::to_string(group_no) : "TypeError:" + title + " " + id;
      if (group_left > 0) --group_left;
      const std::string sig_hash = Hex16(std::hash<std::string>{}(sig));
      const std::string description = "Something about " + kWords[static_cast<size_t>(rng.Below(27))];
      // Occurrences: at least one, mean `mean`, long tail.
      const int64_t n =
          std::max<int64_t>(1, static_cast<int64_t>(-mean * std::log(1.0 - rng.Unit() * 0.999)));
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
        pending.push_back(
            std::vector<Value>{oid, id, project, org, "s-" + std::to_string(sess), "u-" + std::to_string(u),
                               "user:u-" + std::to_string(u), std::string("user"),
                               std::string("https://app.example.com/orders/1"), std::string("Chrome"),
                               std::string("macOS"), platform, int64_t{20}, std::string("{}"), at, at});
        EndUserAgg& e = end_users[u];
        e.first = std::min(e.first, at);
        if (at >= e.last) {
          e.last = at;
          e.last_occ = oid;
        }
        e.count++;
      }
      bug_rows.Add({id,
                    org,
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
                    rng.Below(10) == 0 ? Value(user) : Value(),
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
      user_rows.Add({org, "user:u-" + std::to_string(u), std::string("user"), "u-" + std::to_string(u),
                     e.first, e.last, e.count, std::string("[\"web\"]"), e.last_occ});
    }
    user_rows.Flush();
    (void)db.Write([](service::store::Connection& c) { return c.Exec("ANALYZE").status(); });
    if (database.rfind("postgres", 0) == 0) {
      // The bulk load rewrote the counters kept on write (migration 0010) once
      // per row; a server's autovacuum keeps up with that churn, a bulk load
      // outruns it. VACUUM cannot run in a transaction: vacuumdb does it.
      const std::string cmd = "vacuumdb --quiet --analyze --dbname '" + database + "'";
      if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "vacuumdb failed; figures include bloat\n");
      // Writes the bulk load's dirty pages now rather than in a checkpoint
      // during the measurements (a running server spreads such writes over
      // its steady state). Needs a superuser or pg_checkpoint.
      const std::string checkpoint = "psql --quiet --no-psqlrc --dbname '" + database + "' -c CHECKPOINT";
      if (std::system(checkpoint.c_str()) != 0)
        std::fprintf(stderr, "CHECKPOINT failed; figures may include it\n");
    }
    std::printf("seeded %lld bugs, %lld occurrences, %zu end users in %.1f s\n", static_cast<long long>(bugs),
                static_cast<long long>(occ_id), end_users.size(),
                std::chrono::duration<double>(Clock::now() - seed0).count());
  }

  // --- measurements ---
  Rng pick{seed + 1};
  auto report = [](const char* name, const Timing& t, const Timing& health) {
    std::printf("%-34s p50 %8.2f ms  p99 %8.2f ms  (health p50 %.3f p99 %.3f)%s\n", name, t.p50_ms, t.p99_ms,
                health.p50_ms, health.p99_ms, t.failures ? "  FAILURES" : "");
  };
  const Timing health = Measure(s, headers, requests, [](int) { return std::string("/v1/health"); });
  std::printf("%-34s p50 %8.3f ms  p99 %8.3f ms\n", "GET /v1/health", health.p50_ms, health.p99_ms);
  report("GET /v1/bugs", Measure(s, headers, requests, [](int) { return std::string("/v1/bugs"); }), health);
  report("GET /v1/bugs?projectId&status",
         Measure(
             s, headers, requests,
             [&](int i) { return "/v1/bugs?status=new&projectId=" + projects[static_cast<size_t>(i % 10)]; }),
         health);
  report("GET /v1/bugs?offset=1000",
         Measure(s, headers, requests, [](int) { return std::string("/v1/bugs?offset=1000"); }), health);
  report("GET /v1/bugs/groups",
         Measure(s, headers, requests, [](int) { return std::string("/v1/bugs/groups"); }), health);
  report("GET /v1/bugs/groups?sort=count",
         Measure(s, headers, requests, [](int) { return std::string("/v1/bugs/groups?sort=count"); }),
         health);
  report("GET /v1/bugs/stats",
         Measure(s, headers, requests / 4, [](int) { return std::string("/v1/bugs/stats"); }), health);
  report("GET /v1/bugs/:id",
         Measure(s, headers, requests,
                 [&](int) { return "/v1/bugs/" + bug_ids[static_cast<size_t>(pick.Below(bugs))]; }),
         health);
  // Search: the first query loads the organization's embeddings into
  // memory (timed alone), then two-word queries and misspellings.
  {
    const auto t0 = Clock::now();
    const service::api::Response r = Call(s, "GET", "/v1/bugs/search?q=checkout%20timeout", "", headers);
    std::printf("%-34s %8.2f ms  (status %d)\n", "GET /v1/bugs/search (index load)",
                std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), r.status);
  }
  report("GET /v1/bugs/search?q=two words",
         Measure(s, headers, requests,
                 [&](int) {
                   return "/v1/bugs/search?q=" + kWords[static_cast<size_t>(pick.Below(27))] + "%20" +
                          kWords[static_cast<size_t>(pick.Below(27))];
                 }),
         health);
  report("GET /v1/bugs/search?q=misspelt",
         Measure(s, headers, requests,
                 [&](int) {
                   std::string w = kWords[static_cast<size_t>(pick.Below(27))];
                   w.erase(w.size() / 2, 1);
                   return "/v1/bugs/search?q=" + w;
                 }),
         health);
  report("GET /v1/bugs/live", Measure(s, headers, requests, [](int) { return std::string("/v1/bugs/live"); }),
         health);
  // Export: the stream is drained chunk by chunk and discarded, as the
  // transport does; the peak RSS is reset first (Linux clear_refs 5), so its
  // growth is the export's own.
  {
    FILE* f = std::fopen("/proc/self/clear_refs", "w");
    if (f != nullptr) {
      std::fputs("5", f);
      std::fclose(f);
    }
  }
  const long rss0 = HighWaterKb();
  const auto e0 = Clock::now();
  service::api::Request req;
  req.method = "GET";
  req.path = "/v1/bugs/export";
  req.query = "format=csv&limit=50000";
  req.remote_addr = "127.0.0.1";
  for (const auto& [k, v] : headers) req.headers.Add(k, v);
  service::api::Response exp = s.Handle(req);
  size_t bytes = 0, chunks = 0, largest = 0;
  if (exp.stream) {
    service::api::DrainStream(*exp.stream, [&](std::string_view chunk) {
      bytes += chunk.size();
      largest = std::max(largest, chunk.size());
      ++chunks;
      return true;
    });
  }
  const double export_s = std::chrono::duration<double>(Clock::now() - e0).count();
  std::printf("%-34s %.2f s, %zu bytes in %zu chunks (largest %zu), rows %s, peak RSS +%ld KB\n",
              "GET /v1/bugs/export 50,000 csv", export_s, bytes, chunks, largest,
              exp.headers.Get("X-Row-Count").c_str(), HighWaterKb() - rss0);
  s.Shutdown();
  return 0;
}
