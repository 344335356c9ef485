// The error table: a store failure answers {error: "Internal server error",
// requestId} with no SQL or driver text, and the internal message is logged
// with the same request id.
#include <doctest/doctest.h>

#include <mutex>
#include <string>
#include <vector>

#include "service_internal.h"
#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "support/faulty_database.h"

namespace {

namespace json = boost::json;
using service::testing::Account;
using service::testing::FaultyDatabase;
using service::testing::TestResponse;
using service::testing::TestService;

struct Entry {
  service::LogLevel level;
  std::string message;
  std::vector<std::pair<std::string, std::string>> fields;

  std::string Field(const std::string& key) const {
    for (const auto& [k, v] : fields)
      if (k == key) return v;
    return {};
  }
};

class CapturingLogger final : public service::Logger {
 public:
  void Log(service::LogLevel level, std::string_view message,
           const std::vector<service::LogField>& fields) override {
    Entry e{level, std::string(message), {}};
    for (const auto& f : fields) e.fields.emplace_back(std::string(f.key), f.value);
    std::lock_guard<std::mutex> lock(mu_);
    entries_.push_back(std::move(e));
  }
  std::vector<Entry> entries() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<Entry> entries_;
};

// Wraps the service's database so that its writes fail with driver text.
FaultyDatabase* BreakWrites(TestService& t) {
  auto& p = service::internal::PlatformOf(t.service());
  auto faulty = std::make_unique<FaultyDatabase>(std::move(p.db));
  FaultyDatabase* handle = faulty.get();
  p.db = std::move(faulty);
  p.tx->Rebind(*p.db);
  handle->SetWritesFail(true);
  return handle;
}

// The response is the generic 500 and the log holds the cause under the
// same request id.
void CheckInternalError(const TestResponse& r, const CapturingLogger& log) {
  CHECK(r.status == 500);
  REQUIRE(r.json.is_object());
  const json::object& body = r.json.as_object();
  CHECK(body.size() == 2);
  CHECK(body.at("error") == "Internal server error");
  const std::string request_id = std::string(body.at("requestId").as_string());
  CHECK(request_id == r.Header("X-Request-Id"));
  CHECK(r.body.find("INSERT") == std::string::npos);
  CHECK(r.body.find("sqlite") == std::string::npos);
  CHECK(r.body.find("disk I/O") == std::string::npos);

  bool logged = false;
  for (const Entry& e : log.entries()) {
    if (e.Field("requestId") != request_id) continue;
    logged = true;
    CHECK(e.level == service::LogLevel::kError);
    CHECK(e.Field("status") == "500");
    CHECK(e.Field("error").find("disk I/O error") != std::string::npos);
  }
  CHECK_MESSAGE(logged, "no log entry carries request id ", request_id);
}

std::shared_ptr<CapturingLogger> Capture(service::Options& o) {
  auto log = std::make_shared<CapturingLogger>();
  o.logger = log;
  return log;
}

}  // namespace

TEST_CASE("a store failure on register answers the generic 500 and logs the driver text") {
  std::shared_ptr<CapturingLogger> log;
  auto t = service::testing::NewAccountsService([&](service::Options& o) { log = Capture(o); });
  BreakWrites(*t);
  TestResponse r = t->Post("/v1/auth/register", json::object{{"email", "disk@example.com"},
                                                             {"password", "correct horse battery"},
                                                             {"name", "Disk"},
                                                             {"orgName", "Disk Org"}});
  CheckInternalError(r, *log);
}

TEST_CASE("a store failure on ingest answers the generic 500 and logs the driver text") {
  std::shared_ptr<CapturingLogger> log;
  TestService t([&](service::Options& o) { log = Capture(o); });
  service::testing::CaptureSetup s = service::testing::NewCaptureSetup(t);
  // The key is verified (and cached) before the writes break.
  REQUIRE(service::testing::Ingest(t, s.key, service::testing::Report("Before")).status == 201);
  BreakWrites(t);
  TestResponse r = service::testing::Ingest(t, s.key, service::testing::Report("After"));
  CheckInternalError(r, *log);
}

TEST_CASE("a store failure on a team route answers the generic 500 and logs the driver text") {
  std::shared_ptr<CapturingLogger> log;
  auto t = service::testing::NewAccountsService([&](service::Options& o) { log = Capture(o); });
  const Account admin = service::testing::RegisterAccount(*t, "lead@example.com");
  BreakWrites(*t);
  // Authentication only reads; the invitation's write fails.
  TestResponse r =
      t->Post("/v1/team/invite",
              json::object{{"email", "new@example.com"}, {"role", "member"}, {"orgId", admin.org_id}},
              service::testing::BearerOrg(admin.access_token, admin.org_id));
  CheckInternalError(r, *log);
}

TEST_CASE("a deliberate 503 keeps its public message, an unreachable database's text stays internal") {
  auto t = service::testing::NewAccountsService();
  const Account a = service::testing::RegisterAccount(*t, "pub@example.com");
  // Without a mail provider the spec's message is the answer.
  TestResponse r =
      t->Post("/v1/auth/send-verification", json::object{}, service::testing::Bearer(a.access_token));
  CHECK(r.status == 503);
  CHECK(r.json.at("error") == "Email delivery is not configured");

  FaultyDatabase* db = BreakWrites(*t);
  db->SetWritesFail(false);
  db->SetUnreachable(true);
  TestResponse down = t->Post("/v1/auth/register", json::object{{"email", "later@example.com"},
                                                                {"password", "correct horse battery"},
                                                                {"name", "Later"},
                                                                {"orgName", "Later Org"}});
  CHECK(down.status == 503);
  CHECK(down.json.at("error") == "Internal server error");
  CHECK(down.body.find("unreachable") == std::string::npos);
  CHECK(service::testing::Str(down.json.at("requestId")) == down.Header("X-Request-Id"));
}
