// SmtpServer: a small real SMTP listener for tests. Binds 127.0.0.1 on a free
// port and speaks enough ESMTP for libcurl: greeting, EHLO/HELO, AUTH PLAIN
// and LOGIN (credentials recorded, optionally checked), MAIL FROM, RCPT TO,
// DATA with dot-unstuffing, RSET, NOOP, QUIT. It never offers STARTTLS.
// Replies can be forced to 4xx/5xx to simulate transient and permanent
// failures.
//
// Thread-safety: all public methods are safe from any thread. One background
// thread accepts and serves connections one at a time.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace service::testing {

struct ReceivedMail {
  std::string helo;            // the EHLO/HELO argument
  std::string auth_mechanism;  // "PLAIN", "LOGIN" or "" (no AUTH)
  std::string auth_user;
  std::string auth_password;
  std::string mail_from;             // inside the angle brackets
  std::vector<std::string> rcpt_to;  // inside the angle brackets
  std::string raw_data;              // DATA bytes as sent, dot-stuffed, without the final ".\r\n"
  std::string data;                  // the message after dot-unstuffing (CRLF line endings)
};

class SmtpServer {
 public:
  enum class Stage { kMailFrom, kRcptTo, kData /* the reply after the final dot */ };
  static constexpr const char* kDropConnection = "DROP";

  SmtpServer();
  ~SmtpServer();  // stops the thread and closes every socket
  SmtpServer(const SmtpServer&) = delete;
  SmtpServer& operator=(const SmtpServer&) = delete;

  int port() const { return port_; }
  // "127.0.0.1:PORT"
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  // The next `times` commands at `stage` get `reply` (e.g. "451 4.3.0 try
  // later", "550 5.1.1 no such user") instead of success. At kData the reply
  // kDropConnection closes the connection after the final dot without any
  // answer; the message counts as received (messages() lists it): the
  // client cannot know whether it was accepted.
  void FailNext(Stage stage, std::string reply, int times = 1);
  // Only these credentials authenticate (235); others get 535. Default: any.
  void RequireCredentials(std::string user, std::string password);
  // Mechanisms offered in EHLO. Default: "PLAIN LOGIN".
  void SetAuthMechanisms(std::string mechanisms);

  // Messages accepted so far (the 250 after DATA is sent after storing).
  std::vector<ReceivedMail> messages() const;
  // Counts of MAIL FROM commands and of connections accepted.
  int mail_commands() const;
  int connections() const;

 private:
  struct Fault {
    Stage stage;
    std::string reply;
    int times;
  };
  void Serve();
  void Handle(int fd);
  std::string TakeFault(Stage stage);

  int listen_fd_ = -1;
  int port_ = 0;
  int wake_[2] = {-1, -1};  // a pipe: writing wakes poll() for Stop
  std::thread thread_;

  mutable std::mutex mu_;
  std::vector<ReceivedMail> messages_;
  std::vector<Fault> faults_;
  std::string required_user_, required_password_;
  bool check_credentials_ = false;
  std::string mechanisms_ = "PLAIN LOGIN";
  int mail_commands_ = 0;
  int connections_ = 0;
};

}  // namespace service::testing
