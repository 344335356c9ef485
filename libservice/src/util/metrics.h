// Metrics: counters, gauges and fixed-bucket histograms, and their rendering
// in the Prometheus text exposition format (version 0.0.4).
//
// The hot paths (every request, every report) touch only relaxed atomics: a
// Counter is one fetch_add, a Histogram::Observe a bucket search over a few
// bounds, one fetch_add and one atomic add of the sum; neither locks nor
// allocates. Metrics are created once (at open) through the Registry, which
// hands out stable pointers, and read at scrape time (Registry::Collect).
// What is cheaper to compute when scraped (a count query, a queue's length,
// the process's memory) is a Collector: a function called at every scrape
// that appends its families.
//
//   Registry r;
//   Counter* ok = r.GetCounter("service_reports_accepted_total", "Reports stored.",
//                              {{"outcome", "new_bug"}});
//   ok->Inc();
//   std::string text = r.RenderText();
//
// Names and labels follow the Prometheus conventions: units in the name
// (_seconds, _bytes), counters end in _total, label values from a bounded
// set (never an id or a raw path).
//
// Thread-safety: Counter, Gauge and Histogram are safe from any thread.
// Registry's methods are safe from any thread; a Collector may run on any
// thread and concurrently with itself. Render is a pure function.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace service::util::metrics {

using Labels = std::vector<std::pair<std::string, std::string>>;

enum class Type { kCounter, kGauge, kHistogram };

// One sample of a family: the value of a counter or gauge, or a histogram's
// buckets (upper bounds, ascending, +Inf implied; cumulative counts, one per
// bound plus one for +Inf), sum and count.
struct Sample {
  Labels labels;
  double value = 0;
  std::vector<double> bounds;
  std::vector<uint64_t> cumulative;
  double sum = 0;
  uint64_t count = 0;
};

// A metric family: one name, its help text and type, and its samples.
struct Family {
  std::string name;
  std::string help;
  Type type = Type::kGauge;
  std::vector<Sample> samples;
};

// The text exposition (0.0.4) of `families`, in order: "# HELP" (backslash
// and newline escaped) and "# TYPE" lines, then each sample; a histogram as
// name_bucket{...,le="..."} lines ending with le="+Inf", name_sum and
// name_count. Label values escape backslash, double quote and newline.
// Families that share a name must have been merged (Registry::Collect does).
std::string Render(const std::vector<Family>& families);

// A number as the exposition writes it: integers without a fraction,
// "+Inf", "-Inf", "NaN", otherwise the shortest text that reads back the same.
std::string FormatValue(double v);

// The content type of the text exposition.
inline constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

class Counter {
 public:
  void Inc(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

class Gauge {
 public:
  void Add(int64_t n) { value_.fetch_add(n, std::memory_order_relaxed); }
  void Set(int64_t v) { value_.store(v, std::memory_order_relaxed); }
  int64_t Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// Latency buckets in seconds: 1 ms to 10 s.
const std::vector<double>& LatencyBuckets();

class Histogram {
 public:
  // `bounds`: finite upper bounds, ascending (the +Inf bucket is implied).
  explicit Histogram(std::vector<double> bounds);
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  void Observe(double v) {
    size_t i = 0;
    while (i < bounds_.size() && v > bounds_[i]) ++i;
    counts_[i].fetch_add(1, std::memory_order_relaxed);
    sum_.fetch_add(v, std::memory_order_relaxed);
  }
  // The histogram as a sample (cumulative buckets; count = the +Inf bucket).
  Sample Snapshot(Labels labels) const;
  uint64_t Count() const;

 private:
  const std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;  // bounds_.size() + 1, not cumulative
  std::atomic<double> sum_{0};
};

class Registry {
 public:
  // Appends families computed at scrape time.
  using Collector = std::function<void(std::vector<Family>& out)>;

  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // The metric `name` with `labels`, created on first use (later calls with
  // the same name and labels return the same one; the first call's help
  // counts). The pointer lives as long as the registry. REQUIRES: a name is
  // used with one type only.
  Counter* GetCounter(std::string_view name, std::string_view help, Labels labels = {});
  Gauge* GetGauge(std::string_view name, std::string_view help, Labels labels = {});
  Histogram* GetHistogram(std::string_view name, std::string_view help, const std::vector<double>& bounds,
                          Labels labels = {});
  void AddCollector(Collector collector);

  // Every family: the registered metrics in the order of their first
  // registration, then the collectors' (a collector's family whose name is
  // taken is merged into it).
  std::vector<Family> Collect() const;
  std::string RenderText() const { return Render(Collect()); }

 private:
  struct Entry {
    std::string name;
    std::string help;
    Type type;
    std::vector<std::pair<Labels, std::unique_ptr<Counter>>> counters;
    std::vector<std::pair<Labels, std::unique_ptr<Gauge>>> gauges;
    std::vector<std::pair<Labels, std::unique_ptr<Histogram>>> histograms;
  };
  Entry& EntryFor(std::string_view name, std::string_view help, Type type) SV_REQUIRES(mu_);

  mutable Mutex mu_;
  std::vector<std::unique_ptr<Entry>> entries_ SV_GUARDED_BY(mu_);
  std::vector<Collector> collectors_ SV_GUARDED_BY(mu_);
};

// Appends `family` to `out`, or its samples to the family of the same name
// already there.
void MergeFamily(std::vector<Family>& out, Family family);

// The process's own figures from /proc/self (Linux; elsewhere nothing):
// process_cpu_seconds_total, process_resident_memory_bytes,
// process_virtual_memory_bytes, process_start_time_seconds,
// process_open_fds, process_max_fds.
void CollectProcess(std::vector<Family>& out);

}  // namespace service::util::metrics
