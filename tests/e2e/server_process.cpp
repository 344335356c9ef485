#include "server_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "support/test_db.h"

extern char** environ;

namespace service::e2e {
namespace {

int DecodeStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

ServerProcess::ServerProcess(const std::vector<std::string>& args, const std::vector<std::string>& env)
    : ServerProcess(SERVICE_SERVER_BINARY, args, env) {}

ServerProcess::ServerProcess(const std::string& program, const std::vector<std::string>& args,
                             const std::vector<std::string>& env) {
  std::vector<std::string> argv_storage;
  argv_storage.push_back(program);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<std::string> env_storage;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "SERVICE_", 8) == 0) continue;
    env_storage.emplace_back(*e);
  }
  env_storage.insert(env_storage.end(), env.begin(), env.end());

  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (std::string& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return;
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return;
  }
  // fork + exec rather than posix_spawn: the child asks to be killed when
  // the test process dies (a crashed or timed-out test leaves no server).
  // Between fork and exec only async-signal-safe calls.
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return;
  }
  pid_ = pid;
  out_thread_ = std::thread([this, fd = out_pipe[0]] { Collect(fd, true); });
  err_thread_ = std::thread([this, fd = err_pipe[0]] { Collect(fd, false); });
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0 && !status_) {
    ::kill(pid_, SIGKILL);
    (void)Wait(milliseconds(10'000));
  }
  if (out_thread_.joinable()) out_thread_.join();
  if (err_thread_.joinable()) err_thread_.join();
}

void ServerProcess::Collect(int fd, bool is_stdout) {
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard<std::mutex> lock(mu_);
    (is_stdout ? out_ : err_).append(buf, static_cast<size_t>(n));
    cv_.notify_all();
  }
  ::close(fd);
  std::lock_guard<std::mutex> lock(mu_);
  if (is_stdout) out_closed_ = true;
  cv_.notify_all();
}

std::optional<std::string> ServerProcess::ReadLine(milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  std::optional<std::string> line;
  cv_.wait_for(lock, timeout, [&] {
    const size_t nl = out_.find('\n', out_read_);
    if (nl != std::string::npos) {
      line = out_.substr(out_read_, nl - out_read_);
      out_read_ = nl + 1;
      return true;
    }
    return out_closed_;
  });
  return line;
}

void ServerProcess::Signal(int sig) {
  if (pid_ > 0 && !status_) ::kill(pid_, sig);
}

std::optional<int> ServerProcess::Wait(milliseconds timeout) {
  if (status_) return status_;
  if (pid_ <= 0) return std::nullopt;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      status_ = DecodeStatus(status);
      // The pipes close with the process; let the collectors finish.
      if (out_thread_.joinable()) out_thread_.join();
      if (err_thread_.joinable()) err_thread_.join();
      return status_;
    }
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(milliseconds(10));
  }
}

std::string ServerProcess::Stdout() {
  std::lock_guard<std::mutex> lock(mu_);
  return out_;
}

std::string ServerProcess::Stderr() {
  std::lock_guard<std::mutex> lock(mu_);
  return err_;
}

std::optional<std::string> ServerProcess::WaitForStderr(const std::string& needle, milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!cv_.wait_for(lock, timeout, [&] { return err_.find(needle) != std::string::npos; }))
    return std::nullopt;
  return err_;
}

RunResult Run(const std::vector<std::string>& args, const std::vector<std::string>& env,
              milliseconds timeout) {
  ServerProcess p(args, env);
  RunResult r;
  if (!p.started()) return r;
  const auto status = p.Wait(timeout);
  if (!status) {
    p.Signal(SIGKILL);
    (void)p.Wait(milliseconds(5'000));
  }
  r.exit_code = status.value_or(-1);
  r.out = p.Stdout();
  r.err = p.Stderr();
  return r;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "service-e2e-XXXXXX").string();
  if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

RunningServer::RunningServer(const std::string& database_url, const std::vector<std::string>& env,
                             const std::vector<std::string>& extra_args) {
  std::vector<std::string> args = {"--listen", "127.0.0.1:0", "--database", database_url};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  process_ = std::make_unique<ServerProcess>(args, env);
  if (!process_->started()) return;
  // Opening applies migrations; PostgreSQL may take a moment.
  const auto line = process_->ReadLine(milliseconds(20'000));
  if (!line) return;
  line_ = *line;
  const std::string prefix = "listening on http://127.0.0.1:";
  if (line_.rfind(prefix, 0) != 0) return;
  port_ = std::atoi(line_.c_str() + prefix.size());
  server_port_ = port_;
  if (const char* prism = std::getenv("SERVICE_TEST_PRISM"); prism != nullptr && *prism != '\0')
    StartPrism(prism);
}

void RunningServer::StartPrism(const std::string& prism) {
  // A free port for Prism (it cannot report the one it gets for 0).
  int free_port = 0;
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    free_port = ntohs(addr.sin_port);
  if (fd >= 0) ::close(fd);
  port_ = 0;
  if (free_port == 0) return;
  const std::string upstream = "http://127.0.0.1:" + std::to_string(server_port_);
  prism_ = std::make_unique<ServerProcess>(
      prism,
      std::vector<std::string>{"proxy", "--errors", "-h", "127.0.0.1", "-p", std::to_string(free_port),
                               upstream + "/v1/openapi.json", upstream},
      std::vector<std::string>{});
  if (!prism_->started()) return;
  // "... Prism is listening on http://127.0.0.1:PORT" (a few seconds: it
  // compiles the document's schemas first).
  const auto deadline = std::chrono::steady_clock::now() + milliseconds(60'000);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto line = prism_->ReadLine(milliseconds(1'000));
    if (line && line->find("Prism is listening") != std::string::npos) {
      port_ = free_port;
      return;
    }
    if (!line && prism_->Wait(milliseconds(0))) return;  // exited (bad document?)
  }
}

void RunningServer::StopPrism() {
  if (!prism_) return;
  prism_->Signal(SIGTERM);
  if (!prism_->Wait(milliseconds(5'000))) {
    prism_->Signal(SIGKILL);
    (void)prism_->Wait(milliseconds(5'000));
  }
  if (const char* log = std::getenv("SERVICE_TEST_PRISM_LOG"); log != nullptr && *log != '\0') {
    if (FILE* f = std::fopen(log, "a")) {
      const std::string text = "== prism in front of " + line_ + "\n" + prism_->Stdout() + prism_->Stderr();
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
  }
  prism_.reset();
}

RunningServer::~RunningServer() {
  if (!stopped_) (void)Stop();
}

std::optional<int> RunningServer::Stop(milliseconds timeout) {
  stopped_ = true;
  process_->Signal(SIGTERM);
  auto status = process_->Wait(timeout);
  StopPrism();
  return status;
}

TcpProxy::TcpProxy(const std::string& target_host, int target_port)
    : target_host_(target_host), target_port_(target_port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::listen(listen_fd_, 64) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(listen_fd_);
    listen_fd_ = -1;
    return;
  }
  port_ = ntohs(addr.sin_port);
  accept_thread_ = std::thread([this] { AcceptLoop(); });
}

TcpProxy::~TcpProxy() { Cut(); }

void TcpProxy::Cut() {
  if (cut_.exchange(true)) return;
  if (listen_fd_ >= 0) ::shutdown(listen_fd_, SHUT_RDWR);
  if (accept_thread_.joinable()) accept_thread_.join();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  std::vector<std::thread> relays;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : fds_) ::shutdown(fd, SHUT_RDWR);
    relays.swap(relays_);
  }
  for (std::thread& t : relays) t.join();
  std::lock_guard<std::mutex> lock(mu_);
  for (int fd : fds_) ::close(fd);
  fds_.clear();
}

void TcpProxy::AcceptLoop() {
  while (!cut_) {
    const int client = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR) continue;
      return;
    }
    const int upstream = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(target_port_));
    ::inet_pton(AF_INET, target_host_.c_str(), &addr.sin_addr);
    if (upstream < 0 || ::connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      ::close(client);
      if (upstream >= 0) ::close(upstream);
      continue;
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (cut_) {
      ::close(client);
      ::close(upstream);
      return;
    }
    fds_.push_back(client);
    fds_.push_back(upstream);
    relays_.emplace_back([this, client, upstream] { Relay(client, upstream); });
  }
}

void TcpProxy::Relay(int client, int upstream) {
  char buf[16 * 1024];
  pollfd fds[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
  while (!cut_) {
    const int r = ::poll(fds, 2, 100);
    if (r < 0 && errno != EINTR) return;
    for (int i = 0; i < 2 && r > 0; ++i) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = ::recv(fds[i].fd, buf, sizeof(buf), 0);
      if (n <= 0) {
        ::shutdown(fds[1 - i].fd, SHUT_RDWR);
        return;
      }
      for (ssize_t sent = 0; sent < n;) {
        const ssize_t w = ::send(fds[1 - i].fd, buf + sent, static_cast<size_t>(n - sent), MSG_NOSIGNAL);
        if (w <= 0) return;
        sent += w;
      }
    }
  }
}

bool RedirectPostgresUrl(const std::string& url, int port, std::string* redirected, std::string* old_host,
                         int* old_port) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return false;
  size_t begin = scheme + 3;
  const size_t end = url.find_first_of("/?", begin);
  const size_t at = url.rfind('@', end == std::string::npos ? url.size() : end);
  if (at != std::string::npos && at >= begin) begin = at + 1;
  const std::string authority = url.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  const size_t colon = authority.rfind(':');
  if (colon == std::string::npos) return false;
  *old_host = authority.substr(0, colon);
  *old_port = std::atoi(authority.c_str() + colon + 1);
  *redirected = url.substr(0, begin) + "127.0.0.1:" + std::to_string(port) +
                (end == std::string::npos ? "" : url.substr(end));
  return *old_port > 0;
}

std::vector<Backend> Backends(const TempDir& dir) {
  std::vector<Backend> out;
  out.push_back({"sqlite", "sqlite:" + dir.path() + "/data/service.db"});
  const char* pg = std::getenv("SERVICE_TEST_POSTGRES_URL");
  if (pg != nullptr && *pg != '\0') {
    // FreshDatabaseUrl creates a schema of its own on the backend named by
    // SERVICE_TEST_BACKEND.
    const char* previous = std::getenv("SERVICE_TEST_BACKEND");
    const std::string saved = previous ? previous : "";
    ::setenv("SERVICE_TEST_BACKEND", "postgres", 1);
    out.push_back({"postgres", service::testing::FreshDatabaseUrl()});
    if (previous) {
      ::setenv("SERVICE_TEST_BACKEND", saved.c_str(), 1);
    } else {
      ::unsetenv("SERVICE_TEST_BACKEND");
    }
  }
  return out;
}

}  // namespace service::e2e
