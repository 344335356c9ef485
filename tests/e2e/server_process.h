// Runs the real service-server binary for end-to-end tests: spawns it with
// a clean environment (no SERVICE_* variables but the ones given), collects
// its standard output and error, and waits for it with time limits.
//
// Thread-safety: one test thread per object; the output is collected by
// internal threads.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace service::e2e {

using std::chrono::milliseconds;

class ServerProcess {
 public:
  // Starts SERVICE_SERVER_BINARY with `args` and the test's environment
  // minus every SERVICE_* variable, plus `env` ("NAME=value").
  ServerProcess(const std::vector<std::string>& args, const std::vector<std::string>& env);
  // The same for another program (an absolute path or a script with its #! line).
  ServerProcess(const std::string& program, const std::vector<std::string>& args,
                const std::vector<std::string>& env);
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  // Kills the process if it still runs.
  ~ServerProcess();

  bool started() const { return pid_ > 0; }
  // The next complete line of standard output, without its newline, or
  // nothing when the process closed it or `timeout` passed.
  std::optional<std::string> ReadLine(milliseconds timeout);
  void Signal(int sig);
  // Exit status (128 + signal when killed by one), or nothing after `timeout`.
  std::optional<int> Wait(milliseconds timeout);
  // Everything written so far (after Wait: everything).
  std::string Stdout();
  std::string Stderr();
  // Standard error so far once it contains `needle` (it is collected by
  // another thread, so a line printed before the listening line may still
  // be on its way), or nothing after `timeout`.
  std::optional<std::string> WaitForStderr(const std::string& needle, milliseconds timeout);

 private:
  void Collect(int fd, bool is_stdout);

  int pid_ = -1;
  std::optional<int> status_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string out_;
  size_t out_read_ = 0;
  bool out_closed_ = false;
  std::string err_;
  std::thread out_thread_;
  std::thread err_thread_;
};

// Runs the binary to completion (killed after `timeout`).
struct RunResult {
  int exit_code = -1;  // -1: timed out
  std::string out;
  std::string err;
};
RunResult Run(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
              milliseconds timeout = milliseconds(20'000));

// A temporary folder, removed with its content.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A started server on 127.0.0.1 and a free port: waits for its listening
// line. The destructor stops it (SIGTERM, then SIGKILL).
//
// With SERVICE_TEST_PRISM set to the path of @stoplight/prism-cli's `prism`
// (scripts/openapi-check.sh prism), a Prism proxy with --errors is started in
// front of the server, reading the server's GET /v1/openapi.json, and port()
// is Prism's: every request and answer of the test is validated against the
// document, a violation answers an error instead of the server's answer.
// Prism's log is appended to SERVICE_TEST_PRISM_LOG (when set) once the
// server stops; server_port() is the server's own port.
class RunningServer {
 public:
  RunningServer(const std::string& database_url, const std::vector<std::string>& env = {},
                const std::vector<std::string>& extra_args = {});
  ~RunningServer();

  bool ok() const { return port_ > 0; }
  int port() const { return port_; }
  int server_port() const { return server_port_; }
  const std::string& listening_line() const { return line_; }
  ServerProcess& process() { return *process_; }
  // SIGTERM and the exit status (nothing if it did not exit in `timeout`).
  std::optional<int> Stop(milliseconds timeout = milliseconds(15'000));

 private:
  // Starts `prism` in front of server_port_; port_ becomes its port (0 when
  // it did not start).
  void StartPrism(const std::string& prism);
  void StopPrism();

  std::unique_ptr<ServerProcess> process_;
  std::unique_ptr<ServerProcess> prism_;
  std::string line_;
  int port_ = 0;
  int server_port_ = 0;
  bool stopped_ = false;
};

// A TCP relay to HOST:PORT that can be cut: a server using a database
// through it sees the database vanish, without stopping the database.
class TcpProxy {
 public:
  TcpProxy(const std::string& target_host, int target_port);
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;
  ~TcpProxy();

  // The local port to connect to (127.0.0.1); 0 when it could not listen.
  int port() const { return port_; }
  // Stops listening and closes every relayed connection. Idempotent.
  void Cut();

 private:
  void AcceptLoop();
  void Relay(int client, int upstream);

  std::string target_host_;
  int target_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> cut_{false};
  std::mutex mu_;
  std::vector<int> fds_;
  std::vector<std::thread> relays_;
  std::thread accept_thread_;
};

// Replaces the host:port of a libpq URI ("postgresql://user@host:port/db?...")
// with 127.0.0.1:`port`; stores the old ones. False when the URI has no port.
bool RedirectPostgresUrl(const std::string& url, int port, std::string* redirected, std::string* old_host,
                         int* old_port);

// The database URLs to run backend-dependent cases on: a fresh SQLite file
// always, and a fresh PostgreSQL schema when SERVICE_TEST_POSTGRES_URL is set.
struct Backend {
  std::string name;
  std::string url;
};
std::vector<Backend> Backends(const TempDir& dir);

}  // namespace service::e2e
