#include "support/accounts.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "areas/accounts/module.h"
#include "service_internal.h"

namespace service::testing {

namespace json = boost::json;

void UseCheapPasswords(TestService& t) {
  service::internal::ModulesOf(t.service()).Get<service::modules::AccountsModule>().password_params().log2_n =
      4;
}

std::unique_ptr<TestService> NewAccountsService(const std::function<void(Options&)>& tweak) {
  auto t = std::make_unique<TestService>(tweak);
  UseCheapPasswords(*t);
  return t;
}

Account RegisterAccount(TestService& t, const std::string& email, const std::string& org_name,
                        const std::string& password) {
  auto r = t.Post(
      "/v1/auth/register",
      json::object{{"email", email}, {"password", password}, {"name", "Test User"}, {"orgName", org_name}});
  REQUIRE_MESSAGE(r.status == 201, r.body);
  Account a;
  a.user_id = std::string(r.json.at("user").at("id").as_string());
  a.org_id = std::string(r.json.at("org").at("id").as_string());
  a.project_id = std::string(r.json.at("project").at("id").as_string());
  a.email = std::string(r.json.at("user").at("email").as_string());
  a.password = password;
  a.access_token = std::string(r.json.at("accessToken").as_string());
  a.refresh_token = std::string(r.json.at("refreshToken").as_string());
  a.api_key = std::string(r.json.at("apiKey").as_string());
  return a;
}

std::string Str(const json::value& v) {
  return v.is_string() ? std::string(v.as_string()) : json::serialize(v);
}

HeaderList Bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

HeaderList BearerOrg(const std::string& token, const std::string& org_id) {
  return {{"Authorization", "Bearer " + token}, {"X-Service-Org", org_id}};
}

Account AddMember(TestService& t, const Account& admin, const std::string& email, const std::string& role) {
  auto inv =
      t.Post("/v1/team/invite", json::object{{"email", email}, {"role", role}, {"orgId", admin.org_id}},
             BearerOrg(admin.access_token, admin.org_id));
  REQUIRE_MESSAGE(inv.status == 201, inv.body);
  const std::string token = TokenAfter(LastQueuedMailText(t, email), "#token=");
  REQUIRE(!token.empty());
  auto acc = t.Post("/v1/auth/invitations/accept",
                    json::object{{"token", token}, {"email", email}, {"newPassword", kTestPassword}});
  REQUIRE_MESSAGE(acc.status == 200, acc.body);
  auto login = t.Post("/v1/auth/login", json::object{{"email", email}, {"password", kTestPassword}});
  REQUIRE_MESSAGE(login.status == 200, login.body);
  Account a;
  a.user_id = std::string(inv.json.at("userId").as_string());
  a.org_id = admin.org_id;
  a.email = email;
  a.password = kTestPassword;
  a.access_token = std::string(login.json.at("accessToken").as_string());
  a.refresh_token = std::string(login.json.at("refreshToken").as_string());
  return a;
}

std::vector<std::string> ReadMailDir(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".eml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> out;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back(ss.str());
  }
  return out;
}

std::string TokenAfter(const std::string& text, const std::string& marker) {
  const size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  const size_t start = at + marker.size();
  size_t end = start;
  while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (end - start != 64) return "";
  return text.substr(start, 64);
}

std::string LastQueuedMailText(TestService& t, const std::string& to) {
  // internal state: a queued mail's text (its link tokens) is only in the outbox; no route or port reads
  // it back without claiming it for delivery.
  auto& core = service::internal::PlatformOf(t.service());
  std::string text;
  Status s = core.db->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(store::Rows r,
                        c.Query("SELECT payload FROM outbox WHERE kind = 'mail' ORDER BY created_at, id"));
    for (size_t i = 0; i < r.size(); ++i) {
      json::value p = json::parse(r.Str(i, 0));
      if (p.at("to").as_string() == to) text = std::string(p.at("text").as_string());
    }
    return Status::Ok();
  });
  REQUIRE_MESSAGE(s.ok(), s.ToString());
  return text;
}

namespace {
// Removes the folders FreshTempDir made when the test process exits.
struct TempDirs {
  std::mutex mu;
  std::vector<std::filesystem::path> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
  }
};
TempDirs& Made() {
  static TempDirs made;
  return made;
}
}  // namespace

std::string FreshTempDir(const std::string& prefix) {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::lock_guard<std::mutex> lock(Made().mu);
    Made().dirs.push_back(dir);
  }
  return dir.string();
}

std::function<void(Options&)> WithFileMail(const std::string& dir) {
  return [dir](Options& o) {
    o.mail_url = "file:" + dir;
    o.public_url = "https://bugs.example.com";
    o.require_email_verification = false;
  };
}

}  // namespace service::testing
