// What several end-to-end tests do against a running service-server: sign
// up a workspace, send a report, wait for something to happen, and receive
// signed webhooks on loopback (every signature checked with OpenSSL, not the
// product's code).
//
// Thread-safety: SignedReceiver records from its server thread and is read
// from the test thread (internally locked); the rest are plain functions.
#pragma once

#include <httplib.h>

#include <boost/json.hpp>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server_process.h"

namespace service::e2e {

// A new account with its organization, first project and capture key.
struct Workspace {
  std::string key;    // the project's capture key
  std::string token;  // the account's access token
  std::string org;
  std::string project;
  // Bearer and X-Service-Org.
  httplib::Headers auth() const { return {{"Authorization", "Bearer " + token}, {"X-Service-Org", org}}; }
};

// POST /v1/auth/register for `email` (REQUIREs 201).
Workspace Register(int port, const std::string& email);

// POST /v1/ingest with the workspace's key (REQUIREs 201); the bug id.
std::string Ingest(int port, const Workspace& w, const std::string& title,
                   const std::string& severity = "high");

// The body of an answer as JSON: REQUIREs an answer, status `expected` and
// valid JSON.
boost::json::value ExpectJson(const httplib::Result& r, int expected);

// A string member of `v`.
std::string Str(const boost::json::value& v, const char* key);

// The token of the link mailed to `email` ("#token=") in the file mail
// provider's folder `mail_dir`, waiting up to 10 s; "" when none came.
std::string MailedToken(const std::string& mail_dir, const std::string& email);

// A customer on a paid plan, made the way an operator makes one: the
// operator registers and confirms their address, the customer registers,
// the operator sets the plan (PATCH /v1/admin/customers/:id). The server
// runs with SERVICE_SUPERADMIN_EMAILS=<operator_email> and
// SERVICE_MAIL_URL=file:<mail_dir>.
struct Customer {
  boost::json::value registration;  // POST /v1/auth/register's answer
  std::string org, org_slug, project, project_slug;
  std::string key;         // the first project's capture key
  httplib::Headers admin;  // the customer's Bearer and X-Service-Org
};
Customer NewCustomerOnPlan(httplib::Client& api, const std::string& mail_dir,
                           const std::string& operator_email, const std::string& customer_email,
                           const std::string& org_name, const std::string& plan = "pro");

// POST /v1/org/agent-pats: a 30-day agent token with `scopes`, granted
// `project` (REQUIREs 201); the token.
std::string NewAgentToken(httplib::Client& api, const httplib::Headers& admin,
                          const boost::json::array& scopes, const std::string& project,
                          const std::string& name = "e2e agent");

// The PostgreSQL one of `backends`, or nullptr when SERVICE_TEST_POSTGRES_URL
// is unset (the case is then skipped with a message).
const Backend* FindPostgres(const std::vector<Backend>& backends);

// Runs `command` through /bin/sh; its exit code and output (stdout and
// stderr together).
std::pair<int, std::string> Shell(const std::string& command);

// Polls `pred` every 50 ms until it holds or `timeout` passes; its last value.
template <typename Pred>
bool WaitFor(Pred pred, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return pred();
}

// A webhook receiver on 127.0.0.1 that takes POSTs on any path, checks each
// X-Service-Signature-256 (t=,v1=: HMAC-SHA256 of "<t>.<body>", 300 s) with
// the secret set for that path, and records what arrived.
class SignedReceiver {
 public:
  struct Got {
    std::string path;
    std::string delivery_id;
    std::string event;
    std::string user_agent;
    std::string bug_id;  // the body's bugId, "" without one
    boost::json::value body;
    bool signature_ok = false;
  };

  SignedReceiver();
  ~SignedReceiver();
  SignedReceiver(const SignedReceiver&) = delete;
  SignedReceiver& operator=(const SignedReceiver&) = delete;

  std::string url(const std::string& path = "/hook") const;
  void set_secret(const std::string& secret) { set_secret("/hook", secret); }
  void set_secret(const std::string& path, const std::string& secret);
  // Each later request waits `ms` before it is answered (a slow receiver).
  void set_hang_ms(int ms);

  // Requests as they arrived (before any hang) and as they were answered.
  std::vector<Got> arrived();
  std::vector<Got> completed();
  // Answered requests of one event type, in order.
  std::vector<Got> Of(const std::string& event);
  // Distinct bugs whose new_bug delivery was answered.
  std::set<std::string> BugsDelivered();

 private:
  bool Verify(const std::string& header, const std::string& body, const std::string& secret) const;

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::map<std::string, std::string> secrets_;
  int hang_ms_ = 0;
  std::vector<Got> arrived_;
  std::vector<Got> completed_;
};

}  // namespace service::e2e
