#include "e2e_client.h"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "support/accounts.h"
#include "support/hmac.h"
#include "util/time.h"

namespace service::e2e {

namespace json = boost::json;

Workspace Register(int port, const std::string& email) {
  httplib::Client c("127.0.0.1", port);
  auto reg = c.Post(
      "/v1/auth/register",
      json::serialize(json::object{
          {"email", email}, {"password", "e2e-password-0123"}, {"name", "Ada"}, {"orgName", "E2E Inc"}}),
      "application/json");
  REQUIRE(reg);
  REQUIRE_MESSAGE(reg->status == 201, reg->body);
  const json::value v = json::parse(reg->body);
  return {std::string(v.at("apiKey").as_string()), std::string(v.at("accessToken").as_string()),
          std::string(v.at("org").at("id").as_string()), std::string(v.at("project").at("id").as_string())};
}

std::string Ingest(int port, const Workspace& w, const std::string& title, const std::string& severity) {
  httplib::Client c("127.0.0.1", port);
  auto r = c.Post("/v1/ingest", httplib::Headers{{"X-Service-Key", w.key}},
                  json::serialize(json::object{
                      {"title", title}, {"severity", severity}, {"url", "https://shop.example/x"}}),
                  "application/json");
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 201, r->body);
  return std::string(json::parse(r->body).at("id").as_string());
}

json::value ExpectJson(const httplib::Result& r, int expected) {
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == expected, r->status, " ", r->body);
  boost::system::error_code ec;
  json::value v = json::parse(r->body, ec);
  REQUIRE_MESSAGE(!ec, r->body);
  return v;
}

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::string MailedToken(const std::string& mail_dir, const std::string& email) {
  for (int i = 0; i < 100; ++i) {
    if (std::filesystem::exists(mail_dir)) {  // the provider makes it with the first mail
      for (const std::string& text : testing::ReadMailDir(mail_dir)) {
        if (text.find(email) == std::string::npos) continue;
        const std::string token = testing::TokenAfter(text, "#token=");
        if (!token.empty()) return token;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

namespace {

json::value RegisterAccount(httplib::Client& api, const std::string& email, const std::string& org_name) {
  return ExpectJson(api.Post("/v1/auth/register",
                             json::serialize(json::object{{"email", email},
                                                          {"password", "e2e-customer-password"},
                                                          {"name", "E2e Customer"},
                                                          {"orgName", org_name}}),
                             "application/json"),
                    201);
}

}  // namespace

Customer NewCustomerOnPlan(httplib::Client& api, const std::string& mail_dir,
                           const std::string& operator_email, const std::string& customer_email,
                           const std::string& org_name, const std::string& plan) {
  const json::value operator_reg = RegisterAccount(api, operator_email, "Operators");
  const std::string verify = MailedToken(mail_dir, operator_email);
  REQUIRE_FALSE(verify.empty());
  ExpectJson(
      api.Post("/v1/auth/verify-email", json::serialize(json::object{{"token", verify}}), "application/json"),
      200);
  Customer c;
  c.registration = RegisterAccount(api, customer_email, org_name);
  const json::value& reg = c.registration;
  c.org = Str(reg.at("org"), "id");
  c.org_slug = Str(reg.at("org"), "slug");
  c.project = Str(reg.at("project"), "id");
  c.project_slug = Str(reg.at("project"), "slug");
  c.key = Str(reg, "apiKey");
  c.admin = {{"Authorization", "Bearer " + Str(reg, "accessToken")}, {"X-Service-Org", c.org}};
  ExpectJson(api.Patch("/v1/admin/customers/" + c.org,
                       {{"Authorization", "Bearer " + Str(operator_reg, "accessToken")}},
                       json::serialize(json::object{{"plan", plan}}), "application/json"),
             200);
  return c;
}

std::string NewAgentToken(httplib::Client& api, const httplib::Headers& admin, const json::array& scopes,
                          const std::string& project, const std::string& name) {
  const int64_t in_30_days = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() +
                             30LL * 86'400'000;
  const json::value r = ExpectJson(
      api.Post(
          "/v1/org/agent-pats", admin,
          json::serialize(json::object{{"name", name},
                                       {"scopes", scopes},
                                       {"expiresAt", util::FormatIso8601(in_30_days)},
                                       {"projectGrants", json::array{json::object{{"projectId", project}}}}}),
          "application/json"),
      201);
  return Str(r, "token");
}

const Backend* FindPostgres(const std::vector<Backend>& backends) {
  for (const Backend& b : backends) {
    if (b.name == "postgres") return &b;
  }
  MESSAGE("SERVICE_TEST_POSTGRES_URL is not set: skipped");
  return nullptr;
}

std::pair<int, std::string> Shell(const std::string& command) {
  std::string out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return {-1, "popen failed"};
  std::array<char, 4096> buf{};
  while (size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

SignedReceiver::SignedReceiver() {
  server_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
    Got g;
    g.path = req.path;
    g.delivery_id = req.get_header_value("X-Service-Delivery-Id");
    g.event = req.get_header_value("X-Service-Event");
    g.user_agent = req.get_header_value("User-Agent");
    boost::system::error_code ec;
    g.body = json::parse(req.body, ec);
    if (ec) g.body = nullptr;
    if (const json::object* o = g.body.if_object()) {
      if (const json::value* bug = o->if_contains("bugId"); bug != nullptr && bug->is_string())
        g.bug_id = std::string(bug->as_string());
    }
    int hang_ms = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      const auto secret = secrets_.find(req.path);
      g.signature_ok = secret != secrets_.end() &&
                       Verify(req.get_header_value("X-Service-Signature-256"), req.body, secret->second);
      arrived_.push_back(g);
      hang_ms = hang_ms_;
    }
    if (hang_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(hang_ms));
    std::lock_guard<std::mutex> lock(mu_);
    completed_.push_back(std::move(g));
    res.set_content("{}", "application/json");
  });
  port_ = server_.bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
}

SignedReceiver::~SignedReceiver() {
  server_.stop();
  thread_.join();
}

std::string SignedReceiver::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void SignedReceiver::set_secret(const std::string& path, const std::string& secret) {
  std::lock_guard<std::mutex> lock(mu_);
  secrets_[path] = secret;
}

void SignedReceiver::set_hang_ms(int ms) {
  std::lock_guard<std::mutex> lock(mu_);
  hang_ms_ = ms;
}

std::vector<SignedReceiver::Got> SignedReceiver::arrived() {
  std::lock_guard<std::mutex> lock(mu_);
  return arrived_;
}

std::vector<SignedReceiver::Got> SignedReceiver::completed() {
  std::lock_guard<std::mutex> lock(mu_);
  return completed_;
}

std::vector<SignedReceiver::Got> SignedReceiver::Of(const std::string& event) {
  std::vector<Got> out;
  for (const Got& g : completed())
    if (g.event == event) out.push_back(g);
  return out;
}

std::set<std::string> SignedReceiver::BugsDelivered() {
  std::set<std::string> out;
  for (const Got& g : completed())
    if (g.event == "new_bug") out.insert(g.bug_id);
  return out;
}

bool SignedReceiver::Verify(const std::string& header, const std::string& body,
                            const std::string& secret) const {
  const size_t comma = header.find(",v1=");
  if (header.rfind("t=", 0) != 0 || comma == std::string::npos) return false;
  const std::string t = header.substr(2, comma - 2);
  const std::string v1 = header.substr(comma + 4, 64);
  const std::string expect = service::testing::OpensslHmacSha256Hex(secret, t + "." + body);
  const long long age = std::llabs(std::stoll(t) - static_cast<long long>(std::time(nullptr)));
  return v1 == expect && age <= 300;
}

}  // namespace service::e2e
