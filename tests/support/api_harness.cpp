#include "support/api_harness.h"

#include <doctest/doctest.h>

#include "service_internal.h"
#include "support/openapi_check.h"
#include "support/test_db.h"

namespace service::testing {

api::PipelineDeps PipelineDepsOf(Service& s) {
  modules::Platform& p = internal::PlatformOf(s);
  api::PipelineDeps deps;
  deps.clock = p.clock.get();
  deps.ids = p.ids.get();
  deps.log = p.log.get();
  deps.cors = p.options.cors;
  deps.trust_proxy = p.options.trust_proxy;
  deps.rate_limits = p.options.rate_limits;
  return deps;
}

TestService::TestService(const std::function<void(Options&)>& tweak)
    : url_(FreshDatabaseUrl()), clock_(std::make_shared<ManualClock>(kTestEpochMs)) {
  Options options;
  options.database_url = url_;
  options.clock = clock_;
  options.rate_limits.enabled = false;
  options.db_pool_size = 2;
  if (tweak) tweak(options);
  auto svc = Service::Open(std::move(options));
  REQUIRE_MESSAGE(svc.ok(), svc.status().ToString());
  service_ = std::move(svc).value();
}

TestService::~TestService() {
  if (service_) service_->Shutdown();
}

api::Response TestService::Open(const std::string& path, const HeaderList& headers) {
  api::Request req;
  req.method = "GET";
  const size_t q = path.find('?');
  req.path = path.substr(0, q);
  if (q != std::string::npos) req.query = path.substr(q + 1);
  req.remote_addr = "127.0.0.1";
  for (const auto& [k, v] : headers) req.headers.Add(k, v);
  return service_->Handle(req);
}

TestResponse TestService::Request(const std::string& method, const std::string& path_and_query,
                                  const std::string& body, const HeaderList& headers,
                                  const std::string& remote_addr) {
  api::Request req;
  req.method = method;
  const size_t q = path_and_query.find('?');
  req.path = path_and_query.substr(0, q);
  if (q != std::string::npos) req.query = path_and_query.substr(q + 1);
  req.body = body;
  req.remote_addr = remote_addr;
  if (!body.empty()) req.headers.Add("Content-Type", "application/json");
  for (const auto& [k, v] : headers) req.headers.Add(k, v);
  api::Response res = service_->Handle(req);
  TestResponse out;
  out.status = res.status;
  out.headers = res.headers;
  out.body = res.body;
  if (res.stream) {
    // A streamed response (export, server-sent events that end): collect it.
    api::DrainStream(*res.stream, [&out](std::string_view chunk) {
      out.body.append(chunk);
      return true;
    });
  }
  out.route = res.route;
  boost::system::error_code ec;
  out.json = boost::json::parse(out.body, ec);
  if (ec) out.json = nullptr;
  CheckAnswerIfEnabled(*service_, method, out);  // SERVICE_TEST_OPENAPI (support/openapi_check.h)
  CheckRequestIfEnabled(*service_, req, out);
  return out;
}

std::string QueryText(TestService& t, const std::string& sql, const std::vector<store::Value>& params) {
  std::string out;
  Status st = service::internal::PlatformOf(t.service()).db->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(store::Rows r, c.Query(sql, params));
    if (!r.empty()) out = r.Str(0, 0);
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return out;
}

int64_t QueryInt(TestService& t, const std::string& sql, const std::vector<store::Value>& params) {
  int64_t out = 0;
  Status st = service::internal::PlatformOf(t.service()).db->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(store::Rows r, c.Query(sql, params));
    if (!r.empty()) out = r.Int(0, 0);
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return out;
}

void ExecSql(TestService& t, const std::string& sql, const std::vector<store::Value>& params) {
  Status st = service::internal::PlatformOf(t.service()).db->Write([&](store::Connection& tx) -> Status {
    return tx.Exec(sql, params).status();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
}

}  // namespace service::testing
