// bench_agents: fenced claims under load (issue 29 "Performance"). N agents
// (threads, one keep-alive connection each) claim, renew and complete work
// over a few issues of one project on a running service-server, after a
// GET /v1/health phase with as many connections on the same server in the
// same run (the baseline).
//
//   bench_agents --port PORT --token sv_pat_... --project ID --issues ID,ID,...
//                [--agents 50] [--seconds 30] [--ttl 60]
//
// Each agent loops: pick an issue at random, POST /v1/agent-work/claims; on
// 201 renew it once (POST /claims/renew), then complete it (POST
// /claims/complete with a receipt id); on 409 CLAIM_HELD try another issue
// at once. Figures: granted claims/s, renewals/s, completions/s, refused
// claims/s, beside health requests/s.
//
// Safety, checked on every answer under one lock (the checker sees each
// grant before its holder asks to end it):
//   - never two live holders of one issue: a grant while the table says
//     another agent holds the issue and that agent's lease cannot have
//     expired yet (its expiry estimated from when it sent the command that
//     set it, which is never later than the server's) is a violation;
//   - every granted generation and fencing token is larger than the last
//     granted for its issue.
// An agent stops counting itself a holder before it sends complete. Any
// violation, or any answer that is not 201/200/409, fails the run (exit 1)
// with the details on standard error.
//
// Prints one line of key=value pairs: health_rps, claims_per_s,
// renewals_per_s, completes_per_s, held_per_s, errors, violations, and the
// p50/p99 of a successful claim in ms.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

struct Args {
  int port = 8080;
  std::string token;
  std::string project;
  std::vector<std::string> issues;
  int agents = 50;
  double seconds = 30;
  int ttl = 60;
};

[[noreturn]] void Usage(const char* why) {
  std::fprintf(stderr,
               "bench_agents: %s\nusage: bench_agents --port PORT --token TOKEN --project ID --issues ID,ID "
               "[--agents 50] [--seconds 30] [--ttl 60]\n",
               why);
  std::exit(2);
}

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) Usage("missing value");
    const std::string v = argv[++i];
    if (k == "--port") {
      a.port = std::atoi(v.c_str());
    } else if (k == "--token") {
      a.token = v;
    } else if (k == "--project") {
      a.project = v;
    } else if (k == "--issues") {
      size_t start = 0;
      while (start <= v.size()) {
        const size_t comma = v.find(',', start);
        const std::string id =
            v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!id.empty()) a.issues.push_back(id);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (k == "--agents") {
      a.agents = std::atoi(v.c_str());
    } else if (k == "--seconds") {
      a.seconds = std::atof(v.c_str());
    } else if (k == "--ttl") {
      a.ttl = std::atoi(v.c_str());
    } else {
      Usage(("unknown flag " + k).c_str());
    }
  }
  if (a.token.empty() || a.project.empty() || a.issues.empty() || a.agents < 1 || a.seconds <= 0) {
    Usage("--token, --project and --issues are required");
  }
  return a;
}

// A random version-4 UUID for each command.
std::string Uuid(std::mt19937_64& rng) {
  const uint64_t hi = rng(), lo = rng();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xfff),
                static_cast<unsigned>(0x8000 | (lo >> 48 & 0x3fff)),
                static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return buf;
}

json::value ParseBody(const std::string& s) {
  boost::system::error_code ec;
  json::value v = json::parse(s, ec);
  return ec ? json::value() : v;
}

std::string Str(const json::value& v, const char* key) {
  const json::value* x = v.is_object() ? v.as_object().if_contains(key) : nullptr;
  return x != nullptr && x->is_string() ? std::string(x->as_string()) : std::string();
}

// The safety checker: one row per issue.
class Checker {
 public:
  // A claim of `issue` was granted to `agent` (sent at `sent`).
  void Granted(const std::string& issue, int agent, int64_t generation, int64_t fence, Clock::time_point sent,
               int ttl) {
    std::lock_guard<std::mutex> lock(mu_);
    Row& r = rows_[issue];
    const Clock::time_point now = Clock::now();
    if (r.holder >= 0 && now < r.expires) {
      Violation("issue " + issue + ": agent " + std::to_string(agent) + " granted while agent " +
                std::to_string(r.holder) + " still holds it");
    }
    if (generation <= r.generation || fence <= r.fence) {
      Violation("issue " + issue + ": generation " + std::to_string(generation) + " / fencing token " +
                std::to_string(fence) + " not above " + std::to_string(r.generation) + " / " +
                std::to_string(r.fence));
    }
    r.holder = agent;
    r.expires = sent + std::chrono::seconds(ttl);
    r.generation = std::max(r.generation, generation);
    r.fence = std::max(r.fence, fence);
  }
  void Renewed(const std::string& issue, int agent, Clock::time_point sent, int ttl) {
    std::lock_guard<std::mutex> lock(mu_);
    Row& r = rows_[issue];
    if (r.holder == agent) r.expires = sent + std::chrono::seconds(ttl);
  }
  // `agent` stops holding `issue` (before it sends complete or release).
  void Ending(const std::string& issue, int agent) {
    std::lock_guard<std::mutex> lock(mu_);
    Row& r = rows_[issue];
    if (r.holder == agent) r.holder = -1;
  }
  int violations() const { return violations_.load(); }

 private:
  struct Row {
    int holder = -1;
    Clock::time_point expires{};
    int64_t generation = 0;
    int64_t fence = 0;
  };
  void Violation(const std::string& what) {
    if (violations_++ < 20) std::fprintf(stderr, "SAFETY VIOLATION: %s\n", what.c_str());
  }
  std::mutex mu_;
  std::map<std::string, Row> rows_;
  std::atomic<int> violations_{0};
};

struct Counts {
  std::atomic<int64_t> claims{0}, renewals{0}, completes{0}, held{0}, errors{0};
};

double HealthPhase(const Args& a) {
  std::atomic<int64_t> ok{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < a.agents; ++i) {
    threads.emplace_back([&] {
      httplib::Client c("127.0.0.1", a.port);
      c.set_keep_alive(true);
      while (!stop.load(std::memory_order_relaxed)) {
        auto r = c.Get("/v1/health");
        if (r && r->status == 200) ++ok;
      }
    });
  }
  const auto start = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(a.seconds));
  stop = true;
  for (auto& t : threads) t.join();
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(ok.load()) / secs;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = Parse(argc, argv);
  const double health_rps = HealthPhase(a);

  Checker checker;
  Counts counts;
  std::atomic<bool> stop{false};
  std::mutex lat_mu;
  std::vector<double> claim_ms;
  const httplib::Headers auth{{"Authorization", "Bearer " + a.token}};
  std::vector<std::thread> threads;
  for (int agent = 0; agent < a.agents; ++agent) {
    threads.emplace_back([&, agent] {
      std::mt19937_64 rng(static_cast<uint64_t>(agent) * 0x9e3779b97f4a7c15ULL + 12345);
      httplib::Client c("127.0.0.1", a.port);
      c.set_keep_alive(true);
      std::vector<double> mine;
      auto post = [&](const char* path, const json::object& body) {
        return c.Post(path, auth, json::serialize(body), "application/json");
      };
      auto error = [&](const char* what, const httplib::Result& r) {
        if (counts.errors++ < 20) {
          std::fprintf(stderr, "agent %d: %s answered %d %s\n", agent, what, r ? r->status : -1,
                       r ? r->body.c_str() : httplib::to_string(r.error()).c_str());
        }
      };
      while (!stop.load(std::memory_order_relaxed)) {
        const std::string& issue = a.issues[rng() % a.issues.size()];
        const auto sent = Clock::now();
        auto r = post("/v1/agent-work/claims", json::object{{"commandId", Uuid(rng)},
                                                            {"projectId", a.project},
                                                            {"issueId", issue},
                                                            {"ttlSeconds", a.ttl}});
        if (r && r->status == 409) {
          ++counts.held;
          continue;
        }
        if (!r || r->status != 201) {
          error("claim", r);
          continue;
        }
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
        const json::value claim = ParseBody(r->body).at("claim");
        const std::string claim_issue = Str(claim, "issueId");
        checker.Granted(claim_issue, agent, std::stoll(Str(claim, "generation")),
                        std::stoll(Str(claim, "fencingToken")), sent, a.ttl);
        ++counts.claims;
        json::object lease{{"projectId", a.project},
                           {"issueId", claim_issue},
                           {"claimId", Str(claim, "claimId")},
                           {"generation", Str(claim, "generation")},
                           {"fencingToken", Str(claim, "fencingToken")}};

        json::object renew = lease;
        renew["commandId"] = Uuid(rng);
        const auto renew_sent = Clock::now();
        auto rr = post("/v1/agent-work/claims/renew", renew);
        if (rr && rr->status == 200) {
          checker.Renewed(claim_issue, agent, renew_sent, a.ttl);
          ++counts.renewals;
        } else {
          error("renew", rr);
        }

        checker.Ending(claim_issue, agent);
        json::object complete = lease;
        complete["commandId"] = Uuid(rng);
        complete["receiptId"] = "bench-receipt";
        auto rc = post("/v1/agent-work/claims/complete", complete);
        if (rc && rc->status == 200) {
          ++counts.completes;
        } else {
          error("complete", rc);
        }
      }
      std::lock_guard<std::mutex> lock(lat_mu);
      claim_ms.insert(claim_ms.end(), mine.begin(), mine.end());
    });
  }
  const auto start = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(a.seconds));
  stop = true;
  for (auto& t : threads) t.join();
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();

  std::sort(claim_ms.begin(), claim_ms.end());
  auto pct = [&](double p) {
    if (claim_ms.empty()) return 0.0;
    return claim_ms[std::min(claim_ms.size() - 1,
                             static_cast<size_t>(p * static_cast<double>(claim_ms.size())))];
  };
  std::printf(
      "health_rps=%.0f claims_per_s=%.1f renewals_per_s=%.1f completes_per_s=%.1f held_per_s=%.1f "
      "claim_p50_ms=%.2f claim_p99_ms=%.2f claims=%lld errors=%lld violations=%d agents=%d issues=%zu "
      "seconds=%.1f\n",
      health_rps, static_cast<double>(counts.claims.load()) / secs,
      static_cast<double>(counts.renewals.load()) / secs, static_cast<double>(counts.completes.load()) / secs,
      static_cast<double>(counts.held.load()) / secs, pct(0.5), pct(0.99),
      static_cast<long long>(counts.claims.load()), static_cast<long long>(counts.errors.load()),
      checker.violations(), a.agents, a.issues.size(), secs);
  std::fflush(stdout);
  if (checker.violations() > 0) {
    std::fprintf(stderr, "FAILED: %d safety violations\n", checker.violations());
    return 1;
  }
  if (counts.errors.load() > 0) {
    std::fprintf(stderr, "FAILED: %lld unexpected answers\n", static_cast<long long>(counts.errors.load()));
    return 1;
  }
  if (counts.claims.load() == 0) {
    std::fprintf(stderr, "FAILED: no claim was granted\n");
    return 1;
  }
  return 0;
}
