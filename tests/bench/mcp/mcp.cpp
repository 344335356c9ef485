// bench_mcp: the MCP server's get_bug on a large organization (issue 29
// "Performance": tools/call of "get a bug" p99 at 100k bugs, target <= 20 ms
// on SQLite), beside GET /v1/bugs/:id in the same run.
//
// 1. Opens a Service on --database, registers an account, creates 10
//    projects, moves the organization to pro (agent access, no metered
//    charge) and creates an agent token with read_bugs and a grant for
//    every project, all through the API (the plan through SQL: no operator
//    is needed for a benchmark).
// 2. Bulk-loads BUGS bugs and OCCURRENCES occurrences (defaults 100,000 and
//    300,000) with the generator of tests/bench/reads/reads.cpp (same
//    distributions, reproducible by --seed; see there), each occurrence
//    carrying three events (an error with a stack, a breadcrumb, a network
//    call: about 400 bytes), then ANALYZE (PostgreSQL: vacuumdb --analyze).
// 3. Sends, sequentially through Service::Handle (no sockets), REQUESTS
//    calls of each and prints p50/p99 beside GET /v1/health:
//      GET /v1/bugs/:id                       (a member's JWT)
//      GET /v1/bugs/:id, /events?limit=20, /occurrences?limit=10,
//          /users?limit=20                    (the four reads get_bug joins)
//      POST /v1/mcp tools/call get_bug        (the agent token; its defaults:
//                                              20 events, 10 occurrences,
//                                              20 end users)
//      POST /v1/mcp tools/call get_bug eventLimit 1
//      POST /v1/mcp tools/call list_bugs      (one project, 50 bugs)
//    each on a random bug of the 100,000.
//
//   bench_mcp --database URL [--bugs N] [--occurrences N] [--seed S] [--requests N]
#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "areas/capture/domain/embedding.h"
#include "areas/capture/domain/vocabulary.h"
#include "service/service.h"
#include "service_internal.h"
#include "store/database.h"
#include "util/time.h"

namespace {

using Clock = std::chrono::steady_clock;
using service::store::Value;
using Headers = std::vector<std::pair<std::string, std::string>>;

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

// Accumulates rows of one table and flushes them as multi-row INSERTs
// (as tests/bench/reads/reads.cpp).
class BulkInsert {
 public:
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
  static constexpr size_t kMaxParams = 7000;  // libpq's parameter description limit
  service::store::Database& db_;
  std::string table_;
  std::vector<std::string> columns_;
  BulkInsert* parent_;
  std::vector<Value> params_;
  size_t rows_ = 0;
};

service::api::Response Call(service::Service& s, const std::string& method, const std::string& path_query,
                            const std::string& body, const Headers& h) {
  service::api::Request req;
  req.method = method;
  const size_t q = path_query.find('?');
  req.path = path_query.substr(0, q);
  if (q != std::string::npos) req.query = path_query.substr(q + 1);
  req.body = body;
  req.remote_addr = "127.0.0.1";
  if (!body.empty()) req.headers.Add("Content-Type", "application/json");
  for (const auto& [k, v] : h) req.headers.Add(k, v);
  return s.Handle(req);
}

struct Timing {
  double p50_ms = 0, p99_ms = 0;
  int failures = 0;
};

// `one(i)` sends the i-th sample's request(s) and returns false on a failure.
template <typename One>
Timing Measure(int n, One one) {
  std::vector<double> ms;
  Timing t;
  for (int i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    const bool ok = one(i);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (!ok) ++t.failures;
  }
  std::sort(ms.begin(), ms.end());
  t.p50_ms = ms[ms.size() / 2];
  t.p99_ms = ms[std::min(ms.size() - 1, (ms.size() * 99) / 100)];
  return t;
}

bool Expect(const service::api::Response& r, int status, const std::string& what) {
  if (r.status == status) return true;
  static int shown = 0;
  if (shown++ < 3)
    std::fprintf(stderr, "%s -> %d %s\n", what.c_str(), r.status, r.body.substr(0, 300).c_str());
  return false;
}

// A tools/call answer that is a result without isError.
bool ToolOk(const service::api::Response& r, const std::string& what) {
  if (!Expect(r, 200, what)) return false;
  if (r.body.find("\"isError\":false") != std::string::npos) return true;
  static int shown = 0;
  if (shown++ < 3) std::fprintf(stderr, "%s -> %s\n", what.c_str(), r.body.substr(0, 300).c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::string database;
  int64_t bugs = 100'000, occurrences = 300'000;
  uint64_t seed = 42;
  int requests = 500;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--database") database = argv[i + 1];
    if (arg == "--bugs") bugs = std::atoll(argv[i + 1]);
    if (arg == "--occurrences") occurrences = std::atoll(argv[i + 1]);
    if (arg == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (arg == "--requests") requests = std::atoi(argv[i + 1]);
  }
  if (database.empty() || bugs < 1 || requests < 1) {
    std::fprintf(stderr,
                 "usage: bench_mcp --database URL [--bugs N] [--occurrences N] [--seed S] [--requests N]\n");
    return 2;
  }
  service::Options options;
  options.database_url = database;
  options.rate_limits.enabled = false;
  options.jwt_secret = "mcp-benchmark-secret-0123456789abcdef-xyz";
  auto opened = service::Service::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "open: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  service::Service& s = **opened;
  service::store::Database& db = *service::internal::PlatformOf(s).db;
  const int64_t now = service::internal::PlatformOf(s).Now();

  service::api::Response reg = Call(
      s, "POST", "/v1/auth/register",
      R"({"email":"bench-mcp@example.com","password":"benchmark-password","name":"Bench","orgName":"Bench"})",
      {});
  if (reg.status != 201) {
    std::fprintf(stderr, "register: %d %s\n", reg.status, reg.body.c_str());
    return 1;
  }
  const boost::json::value account = boost::json::parse(reg.body);
  const std::string org(account.at("org").at("id").as_string());
  const std::string user(account.at("user").at("id").as_string());
  const Headers human = {{"Authorization", "Bearer " + std::string(account.at("accessToken").as_string())},
                         {"X-Service-Org", org}};
  // Pro: agent access without the metered charge, and room for 10 projects.
  if (!db.Write([&](service::store::Connection& c) {
           return c.Exec("UPDATE organizations SET plan = 'pro' WHERE id = ?", {org}).status();
         }).ok()) {
    std::fprintf(stderr, "plan: failed\n");
    return 1;
  }
  std::vector<std::string> projects;
  for (int p = 0; p < 10; ++p) {
    service::api::Response r = Call(
        s, "POST", "/v1/projects",
        boost::json::serialize(boost::json::object{{"name", "Project " + std::to_string(p)}, {"orgId", org}}),
        human);
    if (r.status != 201) {
      std::fprintf(stderr, "project: %d %s\n", r.status, r.body.c_str());
      return 1;
    }
    projects.emplace_back(boost::json::parse(r.body).at("id").as_string());
  }
  boost::json::array grants;
  for (const auto& p : projects) grants.push_back(boost::json::object{{"projectId", p}});
  service::api::Response pat = Call(
      s, "POST", "/v1/org/agent-pats",
      boost::json::serialize(boost::json::object{{"name", "bench"},
                                                 {"scopes", boost::json::array{"read_bugs"}},
                                                 {"expiresAt", service::util::FormatIso8601(now + 30 * kDay)},
                                                 {"projectGrants", std::move(grants)}}),
      human);
  if (pat.status != 201) {
    std::fprintf(stderr, "agent token: %d %s\n", pat.status, pat.body.c_str());
    return 1;
  }
  const Headers agent = {
      {"Authorization", "Bearer " + std::string(boost::json::parse(pat.body).at("token").as_string())},
      {"Accept", "application/json, text/event-stream"}};

  // --- generator (tests/bench/reads/reads.cpp's, with events) ---
  std::vector<std::string> bug_ids;
  bug_ids.reserve(static_cast<size_t>(bugs));
  for (int64_t b = 0; b < bugs; ++b) bug_ids.push_back(Uuid(1, static_cast<uint64_t>(b)));
  static const std::vector<std::string> kWords = {
      "checkout", "cart",    "payment",   "login",  "profile", "search", "upload", "invoice", "settings",
      "button",   "timeout", "crash",     "failed", "render",  "image",  "modal",  "token",   "session",
      "network",  "null",    "undefined", "layout", "scroll",  "export", "report", "filter",  "order"};
  const auto seed0 = Clock::now();
  {
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
         "browser", "os", "platform", "event_count", "metadata", "events", "occurred_at", "created_at"},
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
        const std::string events = boost::json::serialize(boost::json::array{
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
                                                           "    at onClick (app.js:88:3)"}}}}});
        pending.push_back(std::vector<Value>{
            oid, id, project, org, "s-" + std::to_string(sess), "u-" + std::to_string(u),
            "user:u-" + std::to_string(u), std::string("user"),
            std::string("https://app.example.com/orders/1"), std::string("Chrome"), std::string("macOS"),
            platform, int64_t{3}, std::string("{}"), events, at, at});
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
      const std::string cmd = "vacuumdb --quiet --analyze --dbname '" + database + "'";
      if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "vacuumdb failed; figures include bloat\n");
      const std::string checkpoint = "psql --quiet --no-psqlrc --dbname '" + database + "' -c CHECKPOINT";
      if (std::system(checkpoint.c_str()) != 0) std::fprintf(stderr, "CHECKPOINT failed\n");
    }
    std::printf("seeded %lld bugs, %lld occurrences (3 events each), %zu end users in %.1f s\n",
                static_cast<long long>(bugs), static_cast<long long>(occ_id), end_users.size(),
                std::chrono::duration<double>(Clock::now() - seed0).count());
  }

  // --- measurements ---
  Rng pick{seed + 1};
  auto random_bug = [&] { return bug_ids[static_cast<size_t>(pick.Below(bugs))]; };
  auto report = [](const char* name, const Timing& t, const Timing& health) {
    std::printf("%-46s p50 %8.2f ms  p99 %8.2f ms  (health p50 %.3f p99 %.3f)%s\n", name, t.p50_ms, t.p99_ms,
                health.p50_ms, health.p99_ms, t.failures ? "  FAILURES" : "");
  };
  auto mcp_call = [&](const std::string& tool, const boost::json::object& args, int id) {
    return boost::json::serialize(
        boost::json::object{{"jsonrpc", "2.0"},
                            {"id", id},
                            {"method", "tools/call"},
                            {"params", boost::json::object{{"name", tool}, {"arguments", args}}}});
  };
  // Warm-up: the caches of both paths (statements, pages) before timing.
  for (int i = 0; i < 50; ++i) {
    (void)Call(s, "GET", "/v1/bugs/" + random_bug(), "", human);
    (void)Call(s, "POST", "/v1/mcp", mcp_call("get_bug", {{"bugId", random_bug()}}, i), agent);
  }
  const Timing health =
      Measure(requests, [&](int) { return Expect(Call(s, "GET", "/v1/health", "", {}), 200, "health"); });
  std::printf("%-46s p50 %8.3f ms  p99 %8.3f ms\n", "GET /v1/health", health.p50_ms, health.p99_ms);
  report("GET /v1/bugs/:id",
         Measure(requests,
                 [&](int) {
                   const std::string id = random_bug();
                   return Expect(Call(s, "GET", "/v1/bugs/" + id, "", human), 200, "GET /v1/bugs/" + id);
                 }),
         health);
  report("GET /v1/bugs/:id + events, occurrences, users",
         Measure(requests,
                 [&](int) {
                   const std::string base = "/v1/bugs/" + random_bug();
                   return Expect(Call(s, "GET", base, "", human), 200, base) &&
                          Expect(Call(s, "GET", base + "/events?limit=20", "", human), 200,
                                 base + "/events") &&
                          Expect(Call(s, "GET", base + "/occurrences?limit=10", "", human), 200,
                                 base + "/occurrences") &&
                          Expect(Call(s, "GET", base + "/users?limit=20", "", human), 200, base + "/users");
                 }),
         health);
  report("MCP tools/call get_bug",
         Measure(requests,
                 [&](int i) {
                   return ToolOk(
                       Call(s, "POST", "/v1/mcp", mcp_call("get_bug", {{"bugId", random_bug()}}, i), agent),
                       "get_bug");
                 }),
         health);
  report("MCP tools/call get_bug eventLimit 1",
         Measure(requests,
                 [&](int i) {
                   return ToolOk(
                       Call(s, "POST", "/v1/mcp",
                            mcp_call("get_bug", {{"bugId", random_bug()}, {"eventLimit", 1}}, i), agent),
                       "get_bug eventLimit 1");
                 }),
         health);
  report("MCP tools/call list_bugs (one project)",
         Measure(requests,
                 [&](int i) {
                   return ToolOk(
                       Call(s, "POST", "/v1/mcp",
                            mcp_call("list_bugs", {{"projectId", projects[static_cast<size_t>(i % 10)]}}, i),
                            agent),
                       "list_bugs");
                 }),
         health);
  s.Shutdown();
  return 0;
}
