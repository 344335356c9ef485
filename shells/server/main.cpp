// service-server: the bundled HTTP server (shared/server-contract.md).
//
//   service-server [--listen HOST:PORT] [--database URL]
//   service-server migrate [--database URL]
//   service-server backup [--database URL] --to FILE
//   service-server restore --from FILE [--database URL]
//   service-server --help | --version
//
// Configuration comes from the SERVICE_* variables, then the flags (a flag
// wins). Exit status: 0 success, 1 runtime failure (database, bind), 2 bad
// usage or configuration.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "event_transport.h"
#include "http_transport.h"
#include "service/logger.h"
#include "service/options.h"
#include "service/service.h"
#include "service_adapter.h"
#include "transport_settings.h"

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr auto kDrainTimeout = std::chrono::seconds(10);

// What the variables and flags configure: the library's Options and the
// shell's own transport settings.
struct Config {
  service::Options options;
  service::shell::TransportOptions transport;
};

// One setting: a row of the library's table (service::Settings()) or of the
// shell's (service::shell::TransportSettings()), applied to its part of Config.
struct Row {
  std::string_view variable;
  std::string_view flag;  // "" without a flag
  std::string_view value_hint;
  std::string_view meaning;
  std::string_view default_text;
  std::function<service::Status(Config&, std::string_view)> apply;
};

template <typename Target>
void AddRows(std::vector<Row>& out, const std::vector<service::SettingRow<Target>>& rows,
             Target Config::*target) {
  for (const service::SettingRow<Target>& s : rows) {
    out.push_back({s.variable, s.flag, s.value_hint, s.meaning, s.default_text,
                   [apply = s.apply, target](Config& c, std::string_view v) { return apply(c.*target, v); }});
  }
}

// The library's rows, then the shell's: the order of --help and of parsing.
const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = [] {
    std::vector<Row> out;
    AddRows(out, service::Settings(), &Config::options);
    AddRows(out, service::shell::TransportSettings(), &Config::transport);
    return out;
  }();
  return rows;
}

// A flag is a row that has one.
using Flag = Row;

void PrintHelp() {
  std::string text =
      "Usage:\n"
      "  service-server [--listen HOST:PORT] [--database URL] [--demo]\n"
      "  service-server migrate [--database URL]\n"
      "  service-server backup [--database URL] --to FILE\n"
      "  service-server restore --from FILE [--database URL]\n"
      "  service-server --help | --version\n"
      "\n"
      "Runs the issue capture and triage API. On start it applies pending database\n"
      "migrations, prints \"listening on http://HOST:PORT\" and logs one JSON line per\n"
      "request to standard error. SIGTERM or SIGINT: stop accepting, finish in-flight\n"
      "requests (at most 10 s), flush queued work, exit 0.\n"
      "`migrate` applies pending migrations and exits.\n"
      "`backup` copies a SQLite database into the new FILE while the server runs,\n"
      "checks the copy (PRAGMA integrity_check, migration version) and prints what it\n"
      "did; on PostgreSQL use pg_dump. `restore` puts a backup in place of the\n"
      "database of a stopped server.\n"
      "One process owns a SQLite file (lock file: the database path + \".lock\"): a\n"
      "second server, `migrate` or `restore` on a file a server holds exits with 1.\n"
      "\n"
      "Flags (a flag wins over its variable; --flag VALUE or --flag=VALUE):\n";
  for (const Row& setting : Rows()) {
    if (setting.flag.empty()) continue;
    std::string left = "  " + std::string(setting.flag) + " " + std::string(setting.value_hint);
    left.resize(std::max<size_t>(left.size() + 1, 23), ' ');
    text += left + "same as " + std::string(setting.variable) + " (default " +
            std::string(setting.default_text) + ")\n";
  }
  text +=
      "  --demo               on an empty database, first create a demo organization with\n"
      "                       a few hundred sample reports and print its login credentials\n"
      "                       (to standard error)\n"
      "  --help, -h           print this help and exit\n"
      "  --version            print the version and exit\n"
      "\n"
      "Environment variables (an empty value counts as unset):\n";
  for (const Row& setting : Rows()) {
    text += "  ";
    text += setting.variable;
    text += "\n      ";
    text += setting.meaning;
    text += "\n      default: ";
    text += setting.default_text;
    text += "\n";
  }
  text +=
      "\n"
      "Exit status: 0 success, 1 runtime failure, 2 bad usage or configuration.\n";
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

[[noreturn]] void UsageError(const std::string& message) {
  std::fprintf(stderr, "service-server: %s (see service-server --help)\n", message.c_str());
  std::exit(kExitUsage);
}

[[noreturn]] void Fail(service::Logger& log, const std::string& message) {
  log.Log(service::LogLevel::kError, message);
  std::fprintf(stderr, "service-server: %s\n", message.c_str());
  // Background threads may exist already: no static destructors under them.
  std::fflush(nullptr);
  std::_Exit(kExitFailure);
}

enum class Command { kServe, kMigrate, kBackup, kRestore, kHelp, kVersion };

struct Invocation {
  Command command = Command::kServe;
  std::vector<std::pair<const Flag*, std::string>> flags;  // in command-line order
  bool demo = false;
  std::string to;    // backup --to
  std::string from;  // restore --from
};

Invocation ParseArguments(int argc, char** argv) {
  Invocation inv;
  bool saw_command = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      inv.command = Command::kHelp;
      return inv;
    }
    if (arg == "--version") {
      inv.command = Command::kVersion;
      return inv;
    }
    if (arg == "--demo") {
      inv.demo = true;
      continue;
    }
    if (arg.substr(0, 2) == "--") {
      const size_t eq = arg.find('=');
      const std::string_view name = arg.substr(0, eq);
      // The backup file of `backup --to` and `restore --from`.
      if (name == "--to" || name == "--from") {
        std::string value;
        if (eq != std::string_view::npos) {
          value = std::string(arg.substr(eq + 1));
        } else if (i + 1 < argc) {
          value = argv[++i];
        }
        if (value.empty()) UsageError("flag " + std::string(name) + " needs a value FILE");
        (name == "--to" ? inv.to : inv.from) = std::move(value);
        continue;
      }
      const Flag* flag = nullptr;
      for (const Flag& f : Rows()) {
        if (!f.flag.empty() && f.flag == name) flag = &f;
      }
      if (!flag) UsageError("unknown flag '" + std::string(name) + "'");
      std::string value;
      if (eq != std::string_view::npos) {
        value = std::string(arg.substr(eq + 1));
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        UsageError("flag " + std::string(name) + " needs a value " + std::string(flag->value_hint));
      }
      inv.flags.emplace_back(flag, std::move(value));
      continue;
    }
    if ((arg == "migrate" || arg == "backup" || arg == "restore") && !saw_command) {
      saw_command = true;
      inv.command = arg == "migrate"  ? Command::kMigrate
                    : arg == "backup" ? Command::kBackup
                                      : Command::kRestore;
      continue;
    }
    if (!arg.empty() && arg[0] == '-') UsageError("unknown flag '" + std::string(arg) + "'");
    UsageError("unexpected argument '" + std::string(arg) + "'");
  }
  if (!inv.to.empty() && inv.command != Command::kBackup) UsageError("--to belongs to backup");
  if (!inv.from.empty() && inv.command != Command::kRestore) UsageError("--from belongs to restore");
  if (inv.command == Command::kBackup && inv.to.empty()) UsageError("backup needs --to FILE");
  if (inv.command == Command::kRestore && inv.from.empty()) UsageError("restore needs --from FILE");
  return inv;
}

// Variables first, then flags: a flag wins over its variable (whose value
// is then not even checked). `migrate`, `backup` and `restore` read only
// the database URL.
Config BuildConfig(const Invocation& inv) {
  Config config;
  const bool database_only =
      inv.command == Command::kMigrate || inv.command == Command::kBackup || inv.command == Command::kRestore;
  const char* command_name = inv.command == Command::kMigrate  ? "migrate"
                             : inv.command == Command::kBackup ? "backup"
                                                               : "restore";
  for (const Row& row : Rows()) {
    const std::string_view name = row.variable;
    if (database_only && name != "SERVICE_DATABASE_URL") continue;
    bool overridden = false;
    for (const auto& [flag, value] : inv.flags) {
      if (flag->variable == name) overridden = true;
    }
    if (overridden) continue;
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr || *value == '\0') continue;
    const service::Status s = row.apply(config, value);
    if (!s.ok()) UsageError(s.message());
  }
  for (const auto& [flag, value] : inv.flags) {
    if (database_only && flag->flag != "--database") {
      UsageError(std::string(command_name) + " accepts only --database" +
                 (inv.command == Command::kBackup    ? " and --to"
                  : inv.command == Command::kRestore ? " and --from"
                                                     : ""));
    }
    if (value.empty())
      UsageError("flag " + std::string(flag->flag) + " needs a value " + std::string(flag->value_hint));
    const service::Status s = flag->apply(config, value);
    if (!s.ok()) {
      std::string message = s.message();
      // Messages name the variable; name the flag the user typed instead.
      if (message.rfind(flag->variable, 0) == 0)
        message = std::string(flag->flag) + message.substr(flag->variable.size());
      UsageError(message);
    }
  }
  return config;
}

std::string BackendName(const std::string& database_url) {
  return database_url.rfind("sqlite:", 0) == 0 ? "sqlite" : "postgresql";
}

std::string FormatHostPort(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

// A status for the operator: a file another process owns is said in words.
std::string Explain(const service::Status& s) {
  return s.code() == service::Code::kConflict ? s.message() : s.ToString();
}

int RunMigrate(const service::Options& options) {
  const service::Status s = service::Migrate(options.database_url);
  if (!s.ok()) {
    service::NewJsonLinesLogger()->Log(service::LogLevel::kError, "migration failed",
                                       {{"error", s.ToString()}});
    std::fprintf(stderr, "service-server: migration failed: %s\n", Explain(s).c_str());
    return kExitFailure;
  }
  std::printf("migrations applied (%s)\n", BackendName(options.database_url).c_str());
  std::fflush(stdout);
  return 0;
}

// The same for backup and restore, whose refusals say what to do instead.
std::string ExplainCopy(const service::Status& s) {
  return s.code() == service::Code::kInvalidArgument ? s.message() : Explain(s);
}

// Exit status of a refused or failed backup/restore: 2 when the command
// cannot apply (PostgreSQL, no such file, an existing target), else 1.
int CopyExit(const service::Status& s) {
  return s.code() == service::Code::kInvalidArgument ? kExitUsage : kExitFailure;
}

int RunBackup(const service::Options& options, const std::string& to) {
  const auto start = std::chrono::steady_clock::now();
  const auto copy = service::Backup(options.database_url, to);
  if (!copy.ok()) {
    std::fprintf(stderr, "service-server: backup failed: %s\n", ExplainCopy(copy.status()).c_str());
    return CopyExit(copy.status());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "backup: copied %s to %s: %lld pages (%lld bytes) in %d steps, %.2f s\n"
      "backup: PRAGMA integrity_check: ok\n"
      "backup: migration version %lld (%s); this binary knows %lld\n",
      copy->database.c_str(), copy->file.c_str(), static_cast<long long>(copy->pages),
      static_cast<long long>(copy->bytes), copy->steps, seconds,
      static_cast<long long>(copy->migration_version), copy->migration_name.c_str(),
      static_cast<long long>(copy->migrations_known));
  std::fflush(stdout);
  return 0;
}

int RunRestore(const service::Options& options, const std::string& from) {
  const auto copy = service::Restore(from, options.database_url);
  if (!copy.ok()) {
    std::fprintf(stderr, "service-server: restore failed: %s\n", ExplainCopy(copy.status()).c_str());
    return CopyExit(copy.status());
  }
  std::printf(
      "restore: checked %s: PRAGMA integrity_check ok, migration version %lld (%s)\n"
      "restore: replaced the content of %s: %lld pages (%lld bytes)\n",
      copy->file.c_str(), static_cast<long long>(copy->migration_version), copy->migration_name.c_str(),
      copy->database.c_str(), static_cast<long long>(copy->pages), static_cast<long long>(copy->bytes));
  if (copy->migration_version < copy->migrations_known) {
    std::printf(
        "restore: the next start applies the migrations after version %lld (this binary knows %lld)\n",
        static_cast<long long>(copy->migration_version), static_cast<long long>(copy->migrations_known));
  }
  std::fflush(stdout);
  return 0;
}

// Waits for SIGINT/SIGTERM (blocked in every thread) or until `done`.
// Returns the signal number, or 0 when `done` became true or `until` passed.
int WaitForSignal(const sigset_t& signals, const std::atomic<bool>& done,
                  std::optional<std::chrono::steady_clock::time_point> until) {
  for (;;) {
    if (done.load()) return 0;
    if (until && std::chrono::steady_clock::now() >= *until) return 0;
    timespec slice{0, 100'000'000};  // 100 ms: notices `done` quickly
    const int sig = ::sigtimedwait(&signals, nullptr, &slice);
    if (sig > 0) return sig;
  }
}

// The two transports behind one face: the event loop (default) and the
// previous thread per connection (SERVICE_TRANSPORT=threads).
class Transport {
 public:
  Transport(const service::shell::TransportOptions& t, service::Logger& log) : log_(log) {
    if (t.event_loop) {
      events_ = std::make_unique<service::shell::EventServer>(
          t.events, [this](service::api::Request request) { return service_->Handle(request); },
          [this](const service::shell::AccessRecord& r) { LogRequest(r); },
          [this](const std::string& message, const std::string& detail) {
            log_.Log(service::LogLevel::kError, message, {{"error", detail}});
          });
      // Routes that take larger bodies, or spooled ones (uploads).
      events_->SetBodyPolicy([this](std::string_view method, std::string_view path) {
        return service_->BodyPolicyFor(method, path);
      });
    } else {
      threads_ = std::make_unique<service::shell::HttpServer>();
    }
  }

  bool Bind(const std::string& host, int port, int* bound_port, std::string* error) {
    return events_ ? events_->Bind(host, port, bound_port, error)
                   : threads_->Bind(host, port, bound_port, error);
  }
  void Mount(service::Service& svc) {
    service_ = &svc;
    if (threads_) service::shell::MountService(*threads_, svc, log_);
  }
  bool Serve() { return events_ ? events_->Serve() : threads_->Serve(); }
  // Connections open now; -1 on the threads transport (it does not count).
  double OpenConnections() const { return events_ ? static_cast<double>(events_->open_connections()) : -1; }
  void Stop() { events_ ? events_->Stop() : threads_->Stop(); }
  std::vector<service::LogField> Describe() const {
    if (events_) {
      const auto& s = events_->settings();
      return {{"transport", "events"},
              service::LogField::Number("workerThreads", static_cast<int64_t>(s.worker_threads)),
              service::LogField::Number("maxConnections", static_cast<int64_t>(s.max_connections))};
    }
    return {{"transport", "threads"},
            service::LogField::Number("threads", static_cast<int64_t>(threads_->settings().threads))};
  }

 private:
  // One JSON line per request: never the query, tokens or bodies.
  void LogRequest(const service::shell::AccessRecord& r) {
    log_.Log(service::LogLevel::kInfo, "request",
             {r.request_id.empty() ? service::LogField::Null("requestId")
                                   : service::LogField("requestId", r.request_id),
              {"method", r.method},
              r.route.empty() ? service::LogField::Null("route") : service::LogField("route", r.route),
              service::LogField::Number("status", static_cast<int64_t>(r.status)),
              service::LogField::Number("durationMs", r.duration_ms)});
  }

  service::Logger& log_;
  service::Service* service_ = nullptr;
  std::unique_ptr<service::shell::EventServer> events_;
  std::unique_ptr<service::shell::HttpServer> threads_;
};

// The metrics listener (SERVICE_METRICS_LISTEN): its own socket answering
// GET /metrics with Service::MetricsText, without a token; anything else 404.
class MetricsListener {
 public:
  MetricsListener(service::Service& svc, service::Logger& log) {
    service::shell::EventTransportSettings s;
    s.io_threads = 1;
    s.worker_threads = 2;
    s.max_connections = 64;
    s.max_connections_per_client = 16;
    server_ = std::make_unique<service::shell::EventServer>(
        s,
        [&svc](service::api::Request request) {
          service::api::Response res;
          if (request.method != "GET" || request.path != "/metrics") {
            res.status = 404;
            res.headers.Set("Content-Type", "text/plain; charset=utf-8");
            res.body = "not found: this listener serves GET /metrics only\n";
            return res;
          }
          res.headers.Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
          res.headers.Set("Cache-Control", "no-store");
          res.body = svc.MetricsText();
          return res;
        },
        [](const service::shell::AccessRecord&) {},  // scrapes are not logged
        [&log](const std::string& message, const std::string& detail) {
          log.Log(service::LogLevel::kError, "metrics listener: " + message, {{"error", detail}});
        });
  }
  ~MetricsListener() { Stop(); }

  // Binds `listen` (HOST:PORT) and serves on a thread of its own; the bound
  // address in `address`.
  bool Start(const std::string& listen, std::string* address, std::string* error) {
    std::string host;
    int port = 0;
    if (const service::Status s = service::ParseListen(listen, &host, &port); !s.ok()) {
      *error = s.message();
      return false;
    }
    int bound = 0;
    if (!server_->Bind(host, port, &bound, error)) return false;
    *address = FormatHostPort(host, bound);
    thread_ = std::thread([this] { server_->Serve(); });
    return true;
  }
  void Stop() {
    if (!thread_.joinable()) return;
    server_->Stop();
    thread_.join();
  }

 private:
  std::unique_ptr<service::shell::EventServer> server_;
  std::thread thread_;
};

int RunServer(Config config, const sigset_t& signals, bool demo) {
  service::Options& options = config.options;
  // One JSON-lines log for the shell's own lines, requests and the library.
  if (!options.logger) options.logger = service::NewJsonLinesLogger(2);
  service::Logger& log = *options.logger;
  const std::shared_ptr<service::Logger> log_owner = options.logger;  // outlives the service

  std::string host;
  int port = 0;
  if (const service::Status s = service::ParseListen(options.listen, &host, &port); !s.ok()) {
    UsageError(s.message());
  }

  // Bind first so that, with port 0, the public URL default knows the real port.
  Transport server(config.transport, log);
  int bound_port = 0;
  std::string bind_error;
  if (!server.Bind(host, port, &bound_port, &bind_error)) Fail(log, bind_error);
  const std::string address = FormatHostPort(host, bound_port);
  options.listen = address;

  auto opened = service::Service::Open(options);  // applies migrations
  if (!opened.ok()) Fail(log, "cannot open the service: " + Explain(opened.status()));
  std::unique_ptr<service::Service> svc = std::move(opened).value();
  if (demo) {
    auto demo = svc->SeedDemo();
    if (!demo.ok()) Fail(log, "cannot create the demo organization: " + demo.status().ToString());
    if (demo->created) {
      // Credentials go to standard error: standard output carries only the listening line.
      std::fprintf(stderr,
                   "demo: created organization \"%s\" with %d reports in %d bugs\n"
                   "demo: log in with email %s and password %s\n"
                   "demo: capture key %s\n"
                   "demo: Sentry SDK DSN %s\n",
                   demo->org_name.c_str(), demo->reports, demo->bugs, demo->email.c_str(),
                   demo->password.c_str(), demo->api_key.c_str(), demo->dsn.c_str());
    } else {
      std::fprintf(stderr, "demo: the database is not empty; nothing created\n");
    }
    std::fflush(stderr);
  }
  if (const service::Status s = svc->StartWorkers(); !s.ok()) {
    Fail(log, "cannot start background workers: " + s.ToString());
  }
  server.Mount(*svc);
  if (server.OpenConnections() >= 0) {
    svc->AddMetricsGauge("service_http_open_connections",
                         "HTTP connections open now on the service's address.",
                         [&server] { return server.OpenConnections(); });
  }
  std::unique_ptr<MetricsListener> metrics;
  std::string metrics_address;
  if (!config.transport.metrics_listen.empty()) {
    metrics = std::make_unique<MetricsListener>(*svc, log);
    std::string error;
    if (!metrics->Start(config.transport.metrics_listen, &metrics_address, &error)) {
      Fail(log, "cannot listen for metrics on " + config.transport.metrics_listen + ": " + error);
    }
  }

  std::atomic<bool> listener_done{false};
  std::atomic<bool> listener_ok{true};
  std::thread listener([&] {
    listener_ok = server.Serve();
    listener_done = true;
  });

  std::vector<service::LogField> started = {
      {"listen", address}, {"database", BackendName(options.database_url)}, {"version", service::Version()}};
  for (auto& field : server.Describe()) started.push_back(std::move(field));
  if (metrics) started.push_back({"metricsListen", metrics_address});
  log.Log(service::LogLevel::kInfo, "started", started);
  std::printf("listening on http://%s\n", address.c_str());
  std::fflush(stdout);

  const int sig = WaitForSignal(signals, listener_done, std::nullopt);
  if (sig == 0) {
    // The listening socket failed on its own.
    log.Log(service::LogLevel::kError, "the listening socket failed; shutting down");
  } else {
    log.Log(service::LogLevel::kInfo, "shutting down", {{"signal", sig == SIGTERM ? "SIGTERM" : "SIGINT"}});
  }
  server.Stop();
  if (metrics) metrics->Stop();
  const auto deadline = std::chrono::steady_clock::now() + kDrainTimeout;
  // A second signal cuts the wait short.
  const int again = WaitForSignal(signals, listener_done, deadline);
  const bool drained = listener_done.load();
  if (!drained) {
    log.Log(service::LogLevel::kWarning, again ? "second signal: not waiting for in-flight requests"
                                               : "in-flight requests did not finish within 10 s");
  }
  svc->Shutdown();  // flushes queued work to the database
  if (!drained) {
    // Worker threads still hold requests; they must not outlive the service.
    log.Log(service::LogLevel::kInfo, "stopped");
    std::fflush(nullptr);
    std::_Exit(sig == 0 ? kExitFailure : 0);
  }
  listener.join();
  svc.reset();
  log.Log(service::LogLevel::kInfo, "stopped");
  return sig == 0 ? kExitFailure : 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Block the shutdown signals in every thread (threads inherit the mask);
  // the main thread takes them with sigtimedwait, outside any handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  // A peer that disconnects mid-response must not kill the process.
  ::signal(SIGPIPE, SIG_IGN);

  const Invocation inv = ParseArguments(argc, argv);
  switch (inv.command) {
    case Command::kHelp:
      PrintHelp();
      return 0;
    case Command::kVersion:
      std::printf("service-server %s\n", service::Version());
      return 0;
    case Command::kMigrate:
      return RunMigrate(BuildConfig(inv).options);
    case Command::kBackup:
      return RunBackup(BuildConfig(inv).options, inv.to);
    case Command::kRestore:
      return RunRestore(BuildConfig(inv).options, inv.from);
    case Command::kServe:
      break;
  }
  return RunServer(BuildConfig(inv), signals, inv.demo);
}
