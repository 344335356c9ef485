// The Source Map v3 decoder in process (issue 31 item 2's figures):
//
//   bench_sourcemaps [--bytes N] [--rounds R]
//
// Builds a synthetic map the shape of a minified bundle's (one generated
// line; 5-field segments with small relative deltas, as bundlers write
// them; 40 sources, 4,000 names), with `mappings` of about N bytes
// (default 1 MiB) and no sourcesContent, and a second one where about half
// of the N bytes are sourcesContent (the usual share in a published map).
// Then prints, for each: the parse time (median of R rounds), MB/s,
// segments and the parsed map's memory; the lookup time per position
// (SourceMap::Find, random positions); and the time per frame of
// ResolveFrame (lookup, enclosing function scan, 5 context lines each way)
// and of ResolveStack over 10-frame stacks. Times are the thread's CPU time.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "areas/sourcemaps/domain/resolve.h"
#include "areas/sourcemaps/domain/source_map.h"

namespace sm = service::domain::sourcemaps;

namespace {

// The thread's CPU time, not the wall clock: the figures hold on a busy
// machine (CI, other builds) as long as the caches are not shared too much.
struct Clock {
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
};

double Seconds(double a, double b) { return b - a; }

void Vlq(std::string& out, int64_t v) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  uint64_t x = v < 0 ? (static_cast<uint64_t>(-v) << 1) | 1 : static_cast<uint64_t>(v) << 1;
  do {
    unsigned d = x & 31;
    x >>= 5;
    if (x != 0) d |= 32;
    out += kDigits[d];
  } while (x != 0);
}

struct Built {
  std::string json;
  uint32_t generated_columns = 0;
};

// A map with `mapping_bytes` of mappings and `content_bytes` of
// sourcesContent spread over the sources.
Built Build(size_t mapping_bytes, size_t content_bytes) {
  constexpr int kSources = 40, kNames = 4000;
  std::mt19937 rng(42);
  std::string mappings;
  mappings.reserve(mapping_bytes + 64);
  int64_t col = 0, src = 0, line = 0, ocol = 0, name = 0;
  std::vector<int64_t> lines_per_source(kSources, 0);
  while (mappings.size() < mapping_bytes) {
    if (!mappings.empty()) mappings += ',';
    const int64_t dcol = 1 + static_cast<int64_t>(rng() % 12);
    Vlq(mappings, dcol);
    col += dcol;
    int64_t nsrc = src;
    if (rng() % 200 == 0) nsrc = static_cast<int64_t>(rng() % kSources);
    Vlq(mappings, nsrc - src);
    src = nsrc;
    int64_t nline = std::max<int64_t>(0, line + static_cast<int64_t>(rng() % 5) - 1);
    if (nsrc != src) nline = 0;
    Vlq(mappings, nline - line);
    line = nline;
    lines_per_source[static_cast<size_t>(src)] =
        std::max(lines_per_source[static_cast<size_t>(src)], line + 1);
    const int64_t nocol = static_cast<int64_t>(rng() % 60);
    Vlq(mappings, nocol - ocol);
    ocol = nocol;
    if (rng() % 3 == 0) {
      const int64_t nname = static_cast<int64_t>(rng() % kNames);
      Vlq(mappings, nname - name);
      name = nname;
    }
  }
  std::string json = "{\"version\":3,\"file\":\"bundle.min.js\",\"sources\":[";
  for (int i = 0; i < kSources; ++i)
    json += (i ? ",\"" : "\"") + std::string("src/module") + std::to_string(i) + ".js\"";
  json += "],\"names\":[";
  for (int i = 0; i < kNames; ++i)
    json += (i ? ",\"" : "\"") + std::string("identifier") + std::to_string(i) + "\"";
  json += "]";
  if (content_bytes > 0) {
    json += ",\"sourcesContent\":[";
    const size_t per = content_bytes / kSources;
    for (int i = 0; i < kSources; ++i) {
      std::string c;
      c += "function module" + std::to_string(i) + "(a) {\\n";
      while (c.size() < per) c += "  if (a.value > 0) { total += a.value * 2; }\\n";
      c += "}\\n";
      json += (i ? ",\"" : "\"") + c + "\"";
    }
    json += "]";
  }
  json += ",\"mappings\":\"" + mappings + "\"}";
  return {std::move(json), static_cast<uint32_t>(col)};
}

void Run(const char* label, const Built& b, int rounds) {
  std::vector<double> times;
  std::shared_ptr<const sm::SourceMap> map;
  for (int r = 0; r < rounds; ++r) {
    std::string reason, detail;
    map.reset();  // the previous round's map is freed outside the timing
    const auto t0 = Clock::now();
    map = sm::SourceMap::Parse(b.json, &reason, &detail);
    times.push_back(Seconds(t0, Clock::now()));
    if (!map) {
      std::fprintf(stderr, "parse failed: %s %s\n", reason.c_str(), detail.c_str());
      std::exit(1);
    }
  }
  std::sort(times.begin(), times.end());
  const double parse = times[times.size() / 2];
  std::printf("%s: %.2f MB JSON, %zu segments, %zu sources, %zu names\n", label, b.json.size() / 1e6,
              map->segment_count(), map->source_count(), map->name_count());
  std::printf("  parse: %.2f ms median of %d (%.0f MB/s), parsed map %.2f MB\n", parse * 1e3, rounds,
              b.json.size() / 1e6 / parse, map->memory_bytes() / 1e6);

  std::mt19937 rng(7);
  constexpr int kLookups = 2'000'000;
  std::vector<uint32_t> cols(4096);
  for (auto& c : cols) c = rng() % (b.generated_columns + 1);
  uint64_t sink = 0;
  auto t0 = Clock::now();
  for (int i = 0; i < kLookups; ++i) {
    const sm::Lookup l = map->Find(0, cols[static_cast<size_t>(i) & 4095]);
    sink += l.segment.original_line;
  }
  std::printf("  Find: %.0f ns per position\n", Seconds(t0, Clock::now()) * 1e9 / kLookups);

  constexpr int kFrames = 200'000;
  t0 = Clock::now();
  for (int i = 0; i < kFrames; ++i) {
    const sm::Frame f{"https://cdn.example.com/bundle.min.js", "", 1, cols[static_cast<size_t>(i) & 4095] + 1,
                      "a"};
    const sm::ResolvedFrame r = sm::ResolveFrame(f, *map);
    sink += r.context_line.size() + r.function.size();
  }
  std::printf("  ResolveFrame: %.2f us per frame\n", Seconds(t0, Clock::now()) * 1e6 / kFrames);

  constexpr int kStacks = 20'000;
  std::vector<sm::Frame> stack(10);
  t0 = Clock::now();
  for (int i = 0; i < kStacks; ++i) {
    for (size_t k = 0; k < stack.size(); ++k)
      stack[k] = {"https://cdn.example.com/bundle.min.js", "", 1, cols[(i * 10 + k) & 4095] + 1, "a"};
    const auto out = sm::ResolveStack(stack, [&](const sm::Frame&) { return sm::MapFor{map.get(), ""}; });
    sink += out.size();
  }
  std::printf("  ResolveStack: %.2f us per 10-frame stack\n", Seconds(t0, Clock::now()) * 1e6 / kStacks);
  if (sink == 42) std::printf(" ");
}

}  // namespace

int main(int argc, char** argv) {
  size_t bytes = 1u << 20;
  int rounds = 9;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--bytes") == 0) bytes = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);
  }
  Run("mappings only", Build(bytes, 0), rounds);
  Run("half sourcesContent", Build(bytes / 2, bytes / 2), rounds);
  return 0;
}
