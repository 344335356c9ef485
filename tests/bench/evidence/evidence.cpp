// bench_evidence: concurrent evidence uploads on a running service-server
// (issue 30 "Performance": 20 concurrent 10 MiB uploads, MB/s beside a plain
// file copy of the same bytes on this machine, and the server's RSS; target:
// RSS grows by less than 20 MiB). run.sh starts the server and makes the
// agent token.
//
//   bench_evidence --port PORT --token sv_pat_... --project ID --server-pid PID
//                  --evidence-dir DIR --work-dir DIR [--uploads 20] [--rounds 3]
//                  [--bytes 10485760]
//
// ROUNDS times (the figures are the medians over the rounds):
// 1. Makes UPLOADS replays (JSON arrays of small objects, distinct in every
//    round) of BYTES bytes each (default 10 MiB, the largest admitted size:
//    kind replay, application/json) and their SHA-256, and writes them to
//    files in WORK_DIR/src (for the baseline; not timed).
// 2. Reserves one artifact per replay (POST /v1/evidence/projects/:projectId/
//    artifacts, the agent token: create_bug and a grant), one after another.
// 3. After sync(): UPLOADS threads, one connection each, released together,
//    PUT their replay to .../content (Content-Length, sent in 256 KiB
//    pieces). Timed from the release to the last answer: MiB/s = UPLOADS x
//    BYTES / 2^20 / seconds. Also the server's CPU time and its file read
//    and write system calls over the uploads (/proc/PID/stat; /proc/PID/io
//    syscr and syscw: socket I/O goes through recvmsg/sendmsg and is not
//    counted).
// 4. Checks every answer: 200, state ready, the reserved byteCount and
//    sha256; then reads each artifact's metadata (GET .../artifacts/:id, the
//    token's get_repro_context), downloads its content (GET .../content) and
//    hashes the bytes received.
// 5. The baseline, on the filesystem of the evidence folder (WORK_DIR is
//    beside it), after sync(): UPLOADS threads released together each copy
//    their source file to a new file in WORK_DIR/dst in 64 KiB pieces (read,
//    write), fsync it and close it: MiB/s the same way. The server's path is
//    socket -> spool file -> read back, hashed -> temporary file, fsync ->
//    rename, fsync of the folder -> a database write: the bytes are written
//    twice.
// The server's RSS: VmRSS just before the first round's uploads (the
// "before"; its peak is reset then: 5 to /proc/PID/clear_refs makes VmHWM
// VmRSS), sampled every 2 ms until the last round ended; peak = max(sampled,
// VmHWM at the end). At the end EVIDENCE_DIR/blobs must hold one file of
// BYTES bytes per upload and EVIDENCE_DIR/tmp nothing (no spool or
// temporary file left).
//
// Any upload not answered 200, or a check that fails, exits 1 naming it.
// Prints one line of key=value pairs: upload_mibps, copy_mibps, ratio (the
// median of each round's upload/copy), rounds, rss_before_kb, rss_peak_kb,
// rss_after_kb, rss_growth_mib (peak - before), first_round_growth_mib (the
// peak at the end of the first round's uploads - before: one batch on a
// fresh server), hwm_reset (1 when the peak was reset), rss (PASS or FAIL:
// rss_growth_mib < 20), verified (uploads checked), server_cpu_s
// (median per round), server_read_calls, server_write_calls (mean per
// round).
#include <fcntl.h>
#include <httplib.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>
#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

constexpr double kTargetGrowthMib = 20.0;

struct Args {
  int port = 0;
  std::string token;
  std::string project;
  int server_pid = 0;
  std::string evidence_dir;
  std::string work_dir;
  int uploads = 20;
  int rounds = 3;
  size_t bytes = 10 * 1024 * 1024;
};

[[noreturn]] void Usage(const std::string& why) {
  std::fprintf(stderr,
               "bench_evidence: %s\nusage: bench_evidence --port PORT --token TOKEN --project ID "
               "--server-pid PID --evidence-dir DIR --work-dir DIR [--uploads 20] [--rounds 3] "
               "[--bytes 10485760]\n",
               why.c_str());
  std::exit(2);
}

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "bench_evidence: FAILED: %s\n", why.c_str());
  std::exit(1);
}

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) Usage("missing value of " + k);
    const std::string v = argv[++i];
    if (k == "--port") {
      a.port = std::atoi(v.c_str());
    } else if (k == "--token") {
      a.token = v;
    } else if (k == "--project") {
      a.project = v;
    } else if (k == "--server-pid") {
      a.server_pid = std::atoi(v.c_str());
    } else if (k == "--evidence-dir") {
      a.evidence_dir = v;
    } else if (k == "--work-dir") {
      a.work_dir = v;
    } else if (k == "--uploads") {
      a.uploads = std::atoi(v.c_str());
    } else if (k == "--rounds") {
      a.rounds = std::atoi(v.c_str());
    } else if (k == "--bytes") {
      a.bytes = static_cast<size_t>(std::atoll(v.c_str()));
    } else {
      Usage("unknown flag " + k);
    }
  }
  if (a.port <= 0 || a.token.empty() || a.project.empty() || a.server_pid <= 0 || a.evidence_dir.empty() ||
      a.work_dir.empty() || a.uploads < 1 || a.rounds < 1 || a.bytes < 64) {
    Usage("--port, --token, --project, --server-pid, --evidence-dir and --work-dir are required");
  }
  return a;
}

std::string Sha256Hex(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1) Fail("SHA-256");
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

// A replay of exactly `bytes` bytes, distinct for each `n`: a JSON array of
// small events, padded with spaces.
std::string Replay(int n, size_t bytes) {
  std::string r = "[";
  r.reserve(bytes);
  const std::string tail = ",\"e\":\"move\",\"n\":" + std::to_string(n) + "},";
  while (r.size() + 64 < bytes) {
    r += "{\"t\":";
    r += std::to_string(r.size());
    r += tail;
  }
  r.back() = ']';
  r.resize(bytes, ' ');
  return r;
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

int64_t Int(const json::value& v, const char* key) {
  const json::value* x = v.is_object() ? v.as_object().if_contains(key) : nullptr;
  if (x == nullptr) return -1;
  if (x->is_int64()) return x->as_int64();
  if (x->is_uint64()) return static_cast<int64_t>(x->as_uint64());
  return -1;
}

// The number after "FIELD:" in a /proc file, or -1.
long ProcNumber(const std::string& file, const char* field) {
  std::ifstream in(file);
  const std::string prefix = std::string(field) + ":";
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return std::strtol(line.c_str() + prefix.size(), nullptr, 10);
  }
  return -1;
}

// A field of /proc/PID/status in kB ("VmRSS", "VmHWM"), or -1.
long StatusKb(int pid, const char* field) {
  return ProcNumber("/proc/" + std::to_string(pid) + "/status", field);
}

// The process's CPU time (user + system) in seconds, or -1.
double CpuSeconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  // Fields after the command: state is field 3, utime 14, stime 15.
  std::istringstream rest(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i >= 14) ticks += std::atof(field.c_str());
  }
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// A counter of /proc/PID/io ("syscr", "syscw"), or -1.
long IoCount(int pid, const char* field) { return ProcNumber("/proc/" + std::to_string(pid) + "/io", field); }

// Resets the process's VmHWM to its current VmRSS (proc(5): clear_refs 5).
bool ResetPeak(int pid) {
  std::ofstream out("/proc/" + std::to_string(pid) + "/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  ::closedir(d);
  return out;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) Fail("cannot write " + path);
}

// Copies `from` to a new file `to` in 64 KiB pieces, then fsync and close.
bool CopyWithFsync(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return false;
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0) {
    ::close(in);
    return false;
  }
  std::vector<char> buf(64 * 1024);
  bool ok = true;
  while (ok) {
    const ssize_t n = ::read(in, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = n == 0;
      break;
    }
    for (ssize_t at = 0; at < n;) {
      const ssize_t w = ::write(out, buf.data() + at, static_cast<size_t>(n - at));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        ok = false;
        break;
      }
      at += w;
    }
  }
  ok = ok && ::fsync(out) == 0;
  ok = ::close(out) == 0 && ok;
  ::close(in);
  return ok;
}

// Runs `one(i)` for i in [0, n) on n threads released together; the seconds
// from the release until the last one returned.
template <typename One>
double Together(int n, One one) {
  std::mutex mu;
  std::condition_variable cv;
  int ready = 0;
  bool go = false;
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      {
        std::unique_lock<std::mutex> lock(mu);
        ++ready;
        cv.notify_all();
        cv.wait(lock, [&] { return go; });
      }
      one(i);
    });
  }
  Clock::time_point start;
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return ready == n; });
    go = true;
    start = Clock::now();
  }
  cv.notify_all();
  for (auto& t : threads) t.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One round's figures.
struct Round {
  double upload_s = 0, copy_s = 0, server_cpu_s = 0;
  long server_reads = 0, server_writes = 0;
  long peak_kb = 0;  // the server's peak RSS so far, at the end of the uploads
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = Parse(argc, argv);
  const double mib = static_cast<double>(a.bytes) * a.uploads / (1024.0 * 1024.0);
  const httplib::Headers auth = {{"Authorization", "Bearer " + a.token}};
  const std::string base = "/v1/evidence/projects/" + a.project + "/artifacts";
  const std::string src = a.work_dir + "/src";
  const std::string dst = a.work_dir + "/dst";
  ::mkdir(src.c_str(), 0700);
  ::mkdir(dst.c_str(), 0700);

  long rss_before = -1;
  bool hwm_reset = false;
  std::atomic<bool> sampling{false};
  std::atomic<long> sampled_peak{0};
  std::thread sampler;
  std::vector<Round> rounds;
  for (int round = 0; round < a.rounds; ++round) {
    // 1. This round's replays (distinct from every other round's).
    std::vector<std::string> replays;
    std::vector<std::string> digests;
    for (int i = 0; i < a.uploads; ++i) {
      replays.push_back(Replay(round * a.uploads + i, a.bytes));
      digests.push_back(Sha256Hex(replays.back()));
      WriteFile(src + "/" + std::to_string(i), replays.back());
    }

    // 2. The reservations.
    std::vector<std::string> ids;
    {
      httplib::Client cli("127.0.0.1", a.port);
      for (int i = 0; i < a.uploads; ++i) {
        const std::string body = json::serialize(json::object{{"kind", "replay"},
                                                              {"contentType", "application/json"},
                                                              {"byteCount", a.bytes},
                                                              {"sha256", digests[i]}});
        auto r = cli.Post(base, auth, body, "application/json");
        if (!r) Fail("reserve " + std::to_string(i) + ": " + httplib::to_string(r.error()));
        if (r->status != 201)
          Fail("reserve " + std::to_string(i) + " -> " + std::to_string(r->status) + " " + r->body);
        const json::value art = ParseBody(r->body).at("artifact");
        if (Str(art, "state") != "reserved") Fail("reserve " + std::to_string(i) + ": " + r->body);
        ids.push_back(Str(art, "id"));
      }
    }

    // 3. The uploads, with the server's RSS sampled (from before the first
    // round to after the last).
    ::sync();
    if (round == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      rss_before = StatusKb(a.server_pid, "VmRSS");
      if (rss_before <= 0) Fail("cannot read /proc/" + std::to_string(a.server_pid) + "/status");
      hwm_reset = ResetPeak(a.server_pid);
      sampled_peak = rss_before;
      sampling = true;
      sampler = std::thread([&] {
        while (sampling.load()) {
          const long kb = StatusKb(a.server_pid, "VmRSS");
          if (kb > sampled_peak.load()) sampled_peak = kb;
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
      });
    }
    Round fig;
    const double cpu_before = CpuSeconds(a.server_pid);
    const long reads_before = IoCount(a.server_pid, "syscr");
    const long writes_before = IoCount(a.server_pid, "syscw");
    std::vector<int> status(static_cast<size_t>(a.uploads), 0);
    std::vector<std::string> answers(static_cast<size_t>(a.uploads));
    fig.upload_s = Together(a.uploads, [&](int i) {
      httplib::Client cli("127.0.0.1", a.port);
      cli.set_read_timeout(300, 0);
      cli.set_write_timeout(300, 0);
      const std::string& bytes = replays[static_cast<size_t>(i)];
      auto r = cli.Put(
          base + "/" + ids[static_cast<size_t>(i)] + "/content", auth, bytes.size(),
          [&bytes](size_t offset, size_t length, httplib::DataSink& sink) {
            return sink.write(bytes.data() + offset, std::min<size_t>(length, 256 * 1024));
          },
          "application/json");
      if (!r) {
        answers[static_cast<size_t>(i)] = httplib::to_string(r.error());
        return;
      }
      status[static_cast<size_t>(i)] = r->status;
      answers[static_cast<size_t>(i)] = r->body;
    });
    fig.peak_kb = std::max(sampled_peak.load(), hwm_reset ? StatusKb(a.server_pid, "VmHWM") : -1L);
    fig.server_cpu_s = CpuSeconds(a.server_pid) - cpu_before;
    fig.server_reads = IoCount(a.server_pid, "syscr") - reads_before;
    fig.server_writes = IoCount(a.server_pid, "syscw") - writes_before;

    // 4. Every upload accepted, the stored bytes the sent ones.
    for (int i = 0; i < a.uploads; ++i) {
      const size_t k = static_cast<size_t>(i);
      if (status[k] != 200) {
        Fail("upload " + std::to_string(i) + " refused: " + std::to_string(status[k]) + " " +
             answers[k].substr(0, 300));
      }
      const json::value art = ParseBody(answers[k]).at("artifact");
      if (Str(art, "state") != "ready" || Str(art, "sha256") != digests[k] ||
          Int(art, "byteCount") != static_cast<int64_t>(a.bytes)) {
        Fail("upload " + std::to_string(i) + " answered " + answers[k].substr(0, 300));
      }
    }
    {
      httplib::Client cli("127.0.0.1", a.port);
      cli.set_read_timeout(120, 0);
      for (int i = 0; i < a.uploads; ++i) {
        const size_t k = static_cast<size_t>(i);
        auto meta = cli.Get(base + "/" + ids[k], auth);
        if (!meta || meta->status != 200) {
          Fail("metadata " + std::to_string(i) + ": " +
               (meta ? meta->body : httplib::to_string(meta.error())));
        }
        const json::value art = ParseBody(meta->body).at("artifact");
        if (Str(art, "state") != "ready" || Str(art, "sha256") != digests[k] ||
            Int(art, "byteCount") != static_cast<int64_t>(a.bytes)) {
          Fail("metadata " + std::to_string(i) + ": " + meta->body);
        }
        auto content = cli.Get(base + "/" + ids[k] + "/content", auth);
        if (!content || content->status != 200) {
          Fail("download " + std::to_string(i) + ": " +
               (content ? content->body.substr(0, 300) : httplib::to_string(content.error())));
        }
        if (content->body.size() != a.bytes || Sha256Hex(content->body) != digests[k]) {
          Fail("download " + std::to_string(i) + ": " + std::to_string(content->body.size()) +
               " bytes, not the uploaded ones");
        }
      }
    }

    // 5. The baseline: the same bytes copied file to file with fsync.
    ::sync();
    std::atomic<int> copy_failures{0};
    fig.copy_s = Together(a.uploads, [&](int i) {
      if (!CopyWithFsync(src + "/" + std::to_string(i), dst + "/" + std::to_string(i))) ++copy_failures;
    });
    if (copy_failures > 0) Fail("the baseline copy failed");
    for (int i = 0; i < a.uploads; ++i) {
      ::unlink((src + "/" + std::to_string(i)).c_str());
      ::unlink((dst + "/" + std::to_string(i)).c_str());
    }
    std::fprintf(stderr,
                 "  round %d: %d x %.1f MiB uploads %.2f s, %.1f MiB/s; plain copy with fsync %.2f s, %.1f "
                 "MiB/s; server %.2f s CPU, %ld file reads, %ld file writes, peak RSS so far +%.1f MiB\n",
                 round + 1, a.uploads, static_cast<double>(a.bytes) / 1048576.0, fig.upload_s,
                 mib / fig.upload_s, fig.copy_s, mib / fig.copy_s, fig.server_cpu_s, fig.server_reads,
                 fig.server_writes, static_cast<double>(fig.peak_kb - rss_before) / 1024.0);
    rounds.push_back(fig);
  }
  sampling = false;
  sampler.join();
  const long hwm = hwm_reset ? StatusKb(a.server_pid, "VmHWM") : -1;
  const long rss_after = StatusKb(a.server_pid, "VmRSS");
  const long rss_peak = std::max(sampled_peak.load(), hwm);
  const double growth_mib = static_cast<double>(rss_peak - rss_before) / 1024.0;

  // Every blob stored once, no spool or temporary file left.
  size_t blobs = 0;
  for (const std::string& sub : Entries(a.evidence_dir + "/blobs")) {
    for (const std::string& name : Entries(a.evidence_dir + "/blobs/" + sub)) {
      struct stat st {};
      const std::string path = a.evidence_dir + "/blobs/" + sub + "/" + name;
      if (::stat(path.c_str(), &st) != 0 || static_cast<size_t>(st.st_size) != a.bytes) {
        Fail("blob " + path + " is not " + std::to_string(a.bytes) + " bytes");
      }
      ++blobs;
    }
  }
  const size_t uploaded = static_cast<size_t>(a.uploads) * static_cast<size_t>(a.rounds);
  if (blobs != uploaded) {
    Fail(std::to_string(blobs) + " blobs stored for " + std::to_string(uploaded) + " uploads");
  }
  const std::vector<std::string> left = Entries(a.evidence_dir + "/tmp");
  if (!left.empty()) Fail(std::to_string(left.size()) + " files left in the spool folder, e.g. " + left[0]);

  std::vector<double> up, copy, ratio, cpu;
  long reads = 0, writes = 0;
  for (const Round& r : rounds) {
    up.push_back(mib / r.upload_s);
    copy.push_back(mib / r.copy_s);
    ratio.push_back(r.copy_s / r.upload_s);
    cpu.push_back(r.server_cpu_s);
    reads += r.server_reads;
    writes += r.server_writes;
  }
  std::fprintf(stderr,
               "  server RSS before %ld kB, peak %ld kB (sampled %ld, VmHWM %ld), after %ld kB: +%.1f MiB\n",
               rss_before, rss_peak, sampled_peak.load(), hwm, rss_after, growth_mib);
  // Medians over the rounds; the ratio is the median of each round's own.
  std::printf(
      "upload_mibps=%.1f copy_mibps=%.1f ratio=%.2f rounds=%d rss_before_kb=%ld rss_peak_kb=%ld "
      "rss_after_kb=%ld rss_growth_mib=%.1f first_round_growth_mib=%.1f hwm_reset=%d rss=%s verified=%zu "
      "server_cpu_s=%.2f "
      "server_read_calls=%ld server_write_calls=%ld\n",
      Median(up), Median(copy), Median(ratio), a.rounds, rss_before, rss_peak, rss_after, growth_mib,
      static_cast<double>(rounds.front().peak_kb - rss_before) / 1024.0, hwm_reset ? 1 : 0,
      growth_mib < kTargetGrowthMib ? "PASS" : "FAIL", uploaded, Median(cpu), reads / a.rounds,
      writes / a.rounds);
  return 0;
}
