// TestService: a Service on a fresh database of the backend under test, driven
// in-process through its API layer (no sockets), with a manual clock.
#pragma once

#include <boost/json.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/pipeline.h"
#include "service/clock.h"
#include "service/service.h"
#include "store/database.h"

namespace service::testing {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct TestResponse {
  int status = 0;
  api::Headers headers;
  std::string body;
  std::string route;
  // The body parsed as JSON (null when it is not JSON).
  boost::json::value json;
  std::string Header(const std::string& name) const { return headers.Get(name); }
};

// Start time of every TestService clock: 2026-01-15T10:00:00Z.
constexpr int64_t kTestEpochMs = 1768471200000;

// The middleware dependencies of `s`'s own pipeline, for tests that build a
// pipeline of their own around test-only routes.
api::PipelineDeps PipelineDepsOf(Service& s);

class TestService {
 public:
  // `tweak` may adjust options before Open; database_url and clock are set
  // already (rate limits are off unless the tweak turns them on).
  explicit TestService(const std::function<void(Options&)>& tweak = {});
  ~TestService();

  TestResponse Request(const std::string& method, const std::string& path_and_query,
                       const std::string& body = "", const HeaderList& headers = {},
                       const std::string& remote_addr = "127.0.0.1");
  TestResponse Get(const std::string& path, const HeaderList& headers = {}) {
    return Request("GET", path, "", headers);
  }
  TestResponse Post(const std::string& path, const boost::json::value& body, const HeaderList& headers = {}) {
    return Request("POST", path, boost::json::serialize(body), headers);
  }
  TestResponse Patch(const std::string& path, const boost::json::value& body,
                     const HeaderList& headers = {}) {
    return Request("PATCH", path, boost::json::serialize(body), headers);
  }
  TestResponse Delete(const std::string& path, const HeaderList& headers = {}) {
    return Request("DELETE", path, "", headers);
  }
  // GET without collecting a streamed body: the caller pulls res.stream
  // (server-sent events that do not end).
  api::Response Open(const std::string& path, const HeaderList& headers = {});

  Service& service() { return *service_; }
  ManualClock& clock() { return *clock_; }
  const std::string& database_url() const { return url_; }

 private:
  std::string url_;
  std::shared_ptr<ManualClock> clock_;
  std::unique_ptr<Service> service_;
};

// One SQL query on the service's database (a read): the first column of the
// first row as text ("" when there is none) or as an integer (0).
std::string QueryText(TestService& t, const std::string& sql, const std::vector<store::Value>& params = {});
int64_t QueryInt(TestService& t, const std::string& sql, const std::vector<store::Value>& params = {});
// Runs a write statement in its own transaction.
void ExecSql(TestService& t, const std::string& sql, const std::vector<store::Value>& params = {});

}  // namespace service::testing
