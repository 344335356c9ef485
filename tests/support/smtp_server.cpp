#include "support/smtp_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "util/crypto.h"

namespace service::testing {
namespace {

constexpr int kReadTimeoutMs = 10'000;

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string StripEol(std::string line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string DecodeBase64(const std::string& text) {
  std::string out;
  if (!util::Base64UrlDecode(text, &out)) return "<invalid base64>";
  return out;
}

// The address inside "<...>" after "FROM:" / "TO:".
std::string AngleAddress(const std::string& arg) {
  const size_t lt = arg.find('<'), gt = arg.find('>');
  if (lt == std::string::npos || gt == std::string::npos || gt < lt) return arg;
  return arg.substr(lt + 1, gt - lt - 1);
}

// One client connection: buffered line reads that give up when the server stops.
class Conn {
 public:
  Conn(int fd, int wake_fd) : fd_(fd), wake_fd_(wake_fd) {}

  // A line including its terminator ('\n'); false on EOF, stop or timeout.
  bool ReadLine(std::string* line) {
    for (;;) {
      const size_t nl = buf_.find('\n');
      if (nl != std::string::npos) {
        *line = buf_.substr(0, nl + 1);
        buf_.erase(0, nl + 1);
        return true;
      }
      pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
      const int r = ::poll(fds, 2, kReadTimeoutMs);
      if (r <= 0 || (fds[1].revents & POLLIN)) return false;
      char chunk[4096];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buf_.append(chunk, static_cast<size_t>(n));
    }
  }

  void Send(const std::string& s) {
    size_t done = 0;
    while (done < s.size()) {
      const ssize_t n = ::send(fd_, s.data() + done, s.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
  }

 private:
  int fd_;
  int wake_fd_;
  std::string buf_;
};

}  // namespace

SmtpServer::SmtpServer() {
  if (::pipe2(wake_, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw std::runtime_error("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 16) != 0)
    throw std::runtime_error("bind/listen failed");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

SmtpServer::~SmtpServer() {
  const char b = 'x';
  if (::write(wake_[1], &b, 1) < 0) {
    // Nothing else to do: the thread then ends at its next timeout.
  }
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
  ::close(wake_[0]);
  ::close(wake_[1]);
}

void SmtpServer::FailNext(Stage stage, std::string reply, int times) {
  std::lock_guard<std::mutex> lock(mu_);
  faults_.push_back({stage, std::move(reply), times});
}

void SmtpServer::RequireCredentials(std::string user, std::string password) {
  std::lock_guard<std::mutex> lock(mu_);
  check_credentials_ = true;
  required_user_ = std::move(user);
  required_password_ = std::move(password);
}

void SmtpServer::SetAuthMechanisms(std::string mechanisms) {
  std::lock_guard<std::mutex> lock(mu_);
  mechanisms_ = std::move(mechanisms);
}

std::vector<ReceivedMail> SmtpServer::messages() const {
  std::lock_guard<std::mutex> lock(mu_);
  return messages_;
}

int SmtpServer::mail_commands() const {
  std::lock_guard<std::mutex> lock(mu_);
  return mail_commands_;
}

int SmtpServer::connections() const {
  std::lock_guard<std::mutex> lock(mu_);
  return connections_;
}

std::string SmtpServer::TakeFault(Stage stage) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = faults_.begin(); it != faults_.end(); ++it) {
    if (it->stage != stage) continue;
    std::string reply = it->reply;
    if (--it->times <= 0) faults_.erase(it);
    return reply;
  }
  return "";
}

void SmtpServer::Serve() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) continue;
    if (fds[1].revents & POLLIN) return;
    if (!(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++connections_;
    }
    Handle(fd);
    ::close(fd);
  }
}

void SmtpServer::Handle(int fd) {
  Conn conn(fd, wake_[0]);
  ReceivedMail session;  // connection-level fields (helo, auth) plus the current transaction
  auto reset = [&session] {
    session.mail_from.clear();
    session.rcpt_to.clear();
    session.raw_data.clear();
    session.data.clear();
  };
  conn.Send("220 localhost ESMTP test server\r\n");
  std::string line;
  while (conn.ReadLine(&line)) {
    const std::string text = StripEol(line);
    const size_t sp = text.find(' ');
    const std::string verb = Upper(text.substr(0, sp));
    const std::string arg = sp == std::string::npos ? "" : text.substr(sp + 1);

    if (verb == "EHLO") {
      session.helo = arg;
      reset();
      std::string mechanisms;
      {
        std::lock_guard<std::mutex> lock(mu_);
        mechanisms = mechanisms_;
      }
      std::string reply = "250-localhost greets " + arg + "\r\n";
      if (!mechanisms.empty()) reply += "250-AUTH " + mechanisms + "\r\n";
      reply += "250-8BITMIME\r\n250 SIZE 10485760\r\n";
      conn.Send(reply);
    } else if (verb == "HELO") {
      session.helo = arg;
      reset();
      conn.Send("250 localhost\r\n");
    } else if (verb == "AUTH") {
      const size_t sp2 = arg.find(' ');
      const std::string mechanism = Upper(arg.substr(0, sp2));
      std::string initial = sp2 == std::string::npos ? "" : arg.substr(sp2 + 1);
      std::string user, password;
      if (mechanism == "PLAIN") {
        if (initial.empty()) {
          conn.Send("334 \r\n");
          if (!conn.ReadLine(&line)) return;
          initial = StripEol(line);
        }
        const std::string decoded = DecodeBase64(initial);  // authzid \0 user \0 password
        const size_t a = decoded.find('\0');
        const size_t b = a == std::string::npos ? a : decoded.find('\0', a + 1);
        if (b == std::string::npos) {
          conn.Send("501 5.5.2 malformed PLAIN response\r\n");
          continue;
        }
        user = decoded.substr(a + 1, b - a - 1);
        password = decoded.substr(b + 1);
      } else if (mechanism == "LOGIN") {
        if (initial.empty()) {
          conn.Send("334 VXNlcm5hbWU6\r\n");
          if (!conn.ReadLine(&line)) return;
          initial = StripEol(line);
        }
        user = DecodeBase64(initial);
        conn.Send("334 UGFzc3dvcmQ6\r\n");
        if (!conn.ReadLine(&line)) return;
        password = DecodeBase64(StripEol(line));
      } else {
        conn.Send("504 5.5.4 mechanism not supported\r\n");
        continue;
      }
      session.auth_mechanism = mechanism;
      session.auth_user = user;
      session.auth_password = password;
      bool accepted = true;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (check_credentials_) accepted = user == required_user_ && password == required_password_;
      }
      conn.Send(accepted ? "235 2.7.0 authenticated\r\n" : "535 5.7.8 authentication failed\r\n");
    } else if (verb == "MAIL") {
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++mail_commands_;
      }
      reset();
      if (std::string fault = TakeFault(Stage::kMailFrom); !fault.empty()) {
        conn.Send(fault + "\r\n");
        continue;
      }
      session.mail_from = AngleAddress(arg);
      conn.Send("250 2.1.0 sender ok\r\n");
    } else if (verb == "RCPT") {
      if (std::string fault = TakeFault(Stage::kRcptTo); !fault.empty()) {
        conn.Send(fault + "\r\n");
        continue;
      }
      session.rcpt_to.push_back(AngleAddress(arg));
      conn.Send("250 2.1.5 recipient ok\r\n");
    } else if (verb == "DATA") {
      if (session.rcpt_to.empty()) {
        conn.Send("503 5.5.1 no recipients\r\n");
        continue;
      }
      conn.Send("354 end data with <CR><LF>.<CR><LF>\r\n");
      bool complete = false;
      while (conn.ReadLine(&line)) {
        if (line == ".\r\n" || line == ".\n") {
          complete = true;
          break;
        }
        session.raw_data += line;
        session.data += line[0] == '.' ? line.substr(1) : line;
      }
      if (!complete) return;
      if (std::string fault = TakeFault(Stage::kData); !fault.empty()) {
        if (fault == kDropConnection) {
          std::lock_guard<std::mutex> lock(mu_);
          messages_.push_back(session);
          return;  // the caller closes the socket: no answer to the message
        }
        conn.Send(fault + "\r\n");
        reset();
        continue;
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        messages_.push_back(session);
      }
      reset();
      conn.Send("250 2.0.0 queued\r\n");
    } else if (verb == "RSET") {
      reset();
      conn.Send("250 2.0.0 reset\r\n");
    } else if (verb == "NOOP") {
      conn.Send("250 2.0.0 ok\r\n");
    } else if (verb == "QUIT") {
      conn.Send("221 2.0.0 bye\r\n");
      return;
    } else {
      conn.Send("502 5.5.2 command not recognised\r\n");
    }
  }
}

}  // namespace service::testing
