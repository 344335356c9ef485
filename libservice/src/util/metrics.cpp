#include "util/metrics.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace service::util::metrics {

namespace {

void AppendEscaped(std::string& out, std::string_view text, bool quote) {
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (quote && c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
}

// name{a="x",b="y"} or name{a="x",le="0.5"}; nothing in braces: name.
void AppendSeries(std::string& out, std::string_view name, const Labels& labels,
                  const std::string* le = nullptr) {
  out += name;
  if (labels.empty() && le == nullptr) return;
  out += '{';
  bool first = true;
  for (const auto& [key, value] : labels) {
    if (!first) out += ',';
    first = false;
    out += key;
    out += "=\"";
    AppendEscaped(out, value, /*quote=*/true);
    out += '"';
  }
  if (le != nullptr) {
    if (!first) out += ',';
    out += "le=\"";
    out += *le;
    out += '"';
  }
  out += '}';
}

const char* TypeName(Type t) {
  switch (t) {
    case Type::kCounter:
      return "counter";
    case Type::kGauge:
      return "gauge";
    case Type::kHistogram:
      return "histogram";
  }
  return "untyped";
}

}  // namespace

std::string FormatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<int64_t>(v));
  }
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

std::string Render(const std::vector<Family>& families) {
  std::string out;
  for (const Family& f : families) {
    out += "# HELP ";
    out += f.name;
    out += ' ';
    AppendEscaped(out, f.help, /*quote=*/false);
    out += "\n# TYPE ";
    out += f.name;
    out += ' ';
    out += TypeName(f.type);
    out += '\n';
    for (const Sample& s : f.samples) {
      if (f.type != Type::kHistogram) {
        AppendSeries(out, f.name, s.labels);
        out += ' ';
        out += FormatValue(s.value);
        out += '\n';
        continue;
      }
      const std::string bucket = f.name + "_bucket";
      for (size_t i = 0; i <= s.bounds.size(); ++i) {
        const std::string le = i < s.bounds.size() ? FormatValue(s.bounds[i]) : "+Inf";
        AppendSeries(out, bucket, s.labels, &le);
        out += ' ';
        out += std::to_string(i < s.cumulative.size() ? s.cumulative[i] : s.count);
        out += '\n';
      }
      AppendSeries(out, f.name + "_sum", s.labels);
      out += ' ';
      out += FormatValue(s.sum);
      out += '\n';
      AppendSeries(out, f.name + "_count", s.labels);
      out += ' ';
      out += std::to_string(s.count);
      out += '\n';
    }
  }
  return out;
}

const std::vector<double>& LatencyBuckets() {
  static const std::vector<double> kBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                               0.25,  0.5,    1,     2.5,  5,     10};
  return kBuckets;
}

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(new std::atomic<uint64_t>[bounds_.size() + 1]) {
  for (size_t i = 0; i <= bounds_.size(); ++i) counts_[i].store(0, std::memory_order_relaxed);
}

Sample Histogram::Snapshot(Labels labels) const {
  Sample s;
  s.labels = std::move(labels);
  s.bounds = bounds_;
  s.cumulative.reserve(bounds_.size() + 1);
  uint64_t total = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    total += counts_[i].load(std::memory_order_relaxed);
    s.cumulative.push_back(total);
  }
  s.count = total;
  s.sum = sum_.load(std::memory_order_relaxed);
  return s;
}

uint64_t Histogram::Count() const {
  uint64_t total = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) total += counts_[i].load(std::memory_order_relaxed);
  return total;
}

Registry::Entry& Registry::EntryFor(std::string_view name, std::string_view help, Type type) {
  for (auto& e : entries_) {
    if (e->name == name) return *e;
  }
  auto e = std::make_unique<Entry>();
  e->name = std::string(name);
  e->help = std::string(help);
  e->type = type;
  entries_.push_back(std::move(e));
  return *entries_.back();
}

Counter* Registry::GetCounter(std::string_view name, std::string_view help, Labels labels) {
  MutexLock lock(&mu_);
  Entry& e = EntryFor(name, help, Type::kCounter);
  for (auto& [l, c] : e.counters) {
    if (l == labels) return c.get();
  }
  e.counters.emplace_back(std::move(labels), std::make_unique<Counter>());
  return e.counters.back().second.get();
}

Gauge* Registry::GetGauge(std::string_view name, std::string_view help, Labels labels) {
  MutexLock lock(&mu_);
  Entry& e = EntryFor(name, help, Type::kGauge);
  for (auto& [l, g] : e.gauges) {
    if (l == labels) return g.get();
  }
  e.gauges.emplace_back(std::move(labels), std::make_unique<Gauge>());
  return e.gauges.back().second.get();
}

Histogram* Registry::GetHistogram(std::string_view name, std::string_view help,
                                  const std::vector<double>& bounds, Labels labels) {
  MutexLock lock(&mu_);
  Entry& e = EntryFor(name, help, Type::kHistogram);
  for (auto& [l, h] : e.histograms) {
    if (l == labels) return h.get();
  }
  e.histograms.emplace_back(std::move(labels), std::make_unique<Histogram>(bounds));
  return e.histograms.back().second.get();
}

void Registry::AddCollector(Collector collector) {
  MutexLock lock(&mu_);
  collectors_.push_back(std::move(collector));
}

void MergeFamily(std::vector<Family>& out, Family family) {
  for (Family& f : out) {
    if (f.name != family.name) continue;
    for (Sample& s : family.samples) f.samples.push_back(std::move(s));
    return;
  }
  out.push_back(std::move(family));
}

std::vector<Family> Registry::Collect() const {
  std::vector<Family> out;
  std::vector<Collector> collectors;
  {
    MutexLock lock(&mu_);
    for (const auto& e : entries_) {
      Family f{e->name, e->help, e->type, {}};
      for (const auto& [l, c] : e->counters) f.samples.push_back({l, static_cast<double>(c->Value())});
      for (const auto& [l, g] : e->gauges) f.samples.push_back({l, static_cast<double>(g->Value())});
      for (const auto& [l, h] : e->histograms) f.samples.push_back(h->Snapshot(l));
      out.push_back(std::move(f));
    }
    collectors = collectors_;
  }
  // Outside the lock: a collector may take its own locks or query the database.
  for (const Collector& c : collectors) {
    std::vector<Family> more;
    c(more);
    for (Family& f : more) MergeFamily(out, std::move(f));
  }
  return out;
}

namespace {

Family Gauge1(std::string name, std::string help, double v, Type type = Type::kGauge) {
  Family f{std::move(name), std::move(help), type, {}};
  f.samples.push_back({{}, v});
  return f;
}

// The boot time in seconds since the epoch (/proc/stat "btime"), or -1.
double BootTime() {
  std::ifstream in("/proc/stat");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("btime ", 0) == 0) return std::strtod(line.c_str() + 6, nullptr);
  }
  return -1;
}

}  // namespace

void CollectProcess(std::vector<Family>& out) {
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return;
  // Fields after the command: 3 state, ..., 14 utime, 15 stime, 22
  // starttime, 23 vsize, 24 rss (pages); fields[0] is field 3.
  std::istringstream fields(stat.substr(paren + 2));
  std::vector<std::string> f;
  for (std::string w; fields >> w;) f.push_back(w);
  if (f.size() < 22) return;
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  const double cpu = (std::strtod(f[11].c_str(), nullptr) + std::strtod(f[12].c_str(), nullptr)) / ticks;
  out.push_back(Gauge1("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", cpu,
                       Type::kCounter));
  out.push_back(Gauge1("process_resident_memory_bytes", "Resident memory size in bytes.",
                       std::strtod(f[21].c_str(), nullptr) * page));
  out.push_back(Gauge1("process_virtual_memory_bytes", "Virtual memory size in bytes.",
                       std::strtod(f[20].c_str(), nullptr)));
  if (const double boot = BootTime(); boot >= 0) {
    out.push_back(Gauge1("process_start_time_seconds",
                         "Start time of the process since unix epoch in seconds.",
                         boot + std::strtod(f[19].c_str(), nullptr) / ticks));
  }
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    double open = 0;
    while (const dirent* e = ::readdir(dir)) {
      if (e->d_name[0] != '.') ++open;
    }
    ::closedir(dir);
    out.push_back(
        Gauge1("process_open_fds", "Number of open file descriptors.", open - 1));  // not the listing's
  }
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    out.push_back(Gauge1("process_max_fds", "Maximum number of open file descriptors.",
                         static_cast<double>(limit.rlim_cur)));
  }
}

}  // namespace service::util::metrics
