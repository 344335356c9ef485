// GET /metrics (SERVICE_METRICS_TOKEN) and Service::MetricsText: off by
// default, the bearer token, and figures that follow what the service did
// (requests by route pattern, reports accepted and refused, the report
// writer, the pool, the outbox, live streams, the process).
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "areas/integrations/app/integrations.h"
#include "areas/integrations/module.h"
#include "service_internal.h"
#include "support/api_harness.h"
#include "support/capture_fixture.h"
#include "support/stub_http_server.h"

namespace service::testing {
namespace {

constexpr const char* kToken = "metrics-token-0123456789";

HeaderList Bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

// The value of the sample `series` (name with its labels, exactly as
// rendered) in `text`; nullopt when absent.
std::optional<double> SampleValue(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 &&
        line[series.size()] == ' ') {
      return std::stod(line.substr(series.size() + 1));
    }
  }
  return std::nullopt;
}

double Value(const std::string& text, const std::string& series) {
  return SampleValue(text, series).value_or(0);
}

std::string Scrape(TestService& t) {
  TestResponse r = t.Get("/metrics", Bearer(kToken));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.body;
}

void WithToken(Options& o) { o.metrics_token = kToken; }

TEST_CASE("metrics: off by default, /metrics is 404 and the embedder still reads the text") {
  TestService t;
  CHECK(t.Get("/metrics").status == 404);
  CHECK(t.Get("/metrics", Bearer(kToken)).status == 404);
  const std::string text = t.service().MetricsText();
  CHECK(text.find("# TYPE process_resident_memory_bytes gauge\n") != std::string::npos);
  CHECK(text.find("# TYPE service_http_requests_total counter\n") != std::string::npos);
}

TEST_CASE("metrics: the token is required, a wrong one is 401, the right one gets the text format") {
  TestService t(WithToken);
  TestResponse none = t.Get("/metrics");
  CHECK(none.status == 401);
  REQUIRE(none.headers.Find("WWW-Authenticate") != nullptr);
  CHECK(t.Get("/metrics", Bearer("metrics-token-0123456788")).status == 401);
  CHECK(t.Get("/metrics", Bearer("short")).status == 401);
  CHECK(t.Get("/metrics", {{"Authorization", kToken}}).status == 401);
  CHECK(t.Get("/metrics", {{"Authorization", "Bearer "}}).status == 401);
  // The scheme is read as on every other route: case-insensitive.
  CHECK(t.Get("/metrics", {{"Authorization", std::string("bearer ") + kToken}}).status == 200);
  TestResponse ok = t.Get("/metrics", Bearer(kToken));
  CHECK(ok.status == 200);
  REQUIRE(ok.headers.Find("Content-Type") != nullptr);
  CHECK(*ok.headers.Find("Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
  CHECK(ok.body.find("# HELP service_http_requests_total ") != std::string::npos);
  CHECK(ok.body.find("# TYPE service_http_request_duration_seconds histogram\n") != std::string::npos);
  CHECK(Value(ok.body, "process_resident_memory_bytes") > 0);
  // The refused scrapes count under their route.
  CHECK(Value(ok.body, "service_http_requests_total{method=\"GET\",route=\"/metrics\",status=\"4xx\"}") == 5);
}

TEST_CASE("metrics: requests count under the route pattern, never the raw path") {
  TestService t(WithToken);
  const std::string before = Scrape(t);
  const std::string health =
      "service_http_requests_total{method=\"GET\",route=\"/v1/health\",status=\"2xx\"}";
  CHECK(t.Get("/v1/health").status == 200);
  CHECK(t.Get("/v1/health").status == 200);
  CHECK(t.Get("/v1/no-such-route/8f2c1d3e").status == 404);
  CaptureSetup s = NewCaptureSetup(t);
  CHECK(t.Get("/v1/bugs/00000000-0000-0000-0000-00000000beef", s.admin.headers()).status == 404);
  const std::string after = Scrape(t);
  CHECK(Value(after, health) == Value(before, health) + 2);
  CHECK(Value(after, "service_http_request_duration_seconds_count{method=\"GET\",route=\"/v1/health\"}") >=
        2);
  CHECK(SampleValue(
            after,
            "service_http_request_duration_seconds_bucket{method=\"GET\",route=\"/v1/health\",le=\"+Inf\"}")
            .has_value());
  CHECK(Value(after, "service_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"4xx\"}") >= 1);
  CHECK(Value(after, "service_http_requests_total{method=\"GET\",route=\"/v1/bugs/:id\",status=\"4xx\"}") ==
        1);
  CHECK(after.find("8f2c1d3e") == std::string::npos);
  CHECK(after.find("beef") == std::string::npos);
  CHECK(after.find("no-such-route") == std::string::npos);
}

TEST_CASE("metrics: reports accepted by outcome and refused by reason, and the writer's batches") {
  TestService t(WithToken);
  CaptureSetup s = NewCaptureSetup(t);
  CHECK(Ingest(t, s.key, Report("TypeError one")).status == 201);
  CHECK(Ingest(t, s.key, Report("TypeError one")).status == 201);
  CHECK(Ingest(t, s.key, Report("TypeError two", "y is undefined")).status == 201);
  CHECK(Ingest(t, s.key, boost::json::object{{"title", 5}}).status == 400);
  CHECK(Ingest(t, "sv_live_wrong", Report("TypeError three")).status == 401);
  const std::string text = Scrape(t);
  CHECK(Value(text, "service_reports_accepted_total{outcome=\"new_bug\"}") == 2);
  CHECK(Value(text, "service_reports_accepted_total{outcome=\"duplicate\"}") == 1);
  CHECK(Value(text, "service_reports_accepted_total{outcome=\"regression\"}") == 0);
  CHECK(Value(text, "service_reports_refused_total{reason=\"invalid\"}") == 1);
  CHECK(Value(text, "service_reports_refused_total{reason=\"unauthenticated\"}") == 1);
  CHECK(Value(text, "service_reports_refused_total{reason=\"plan_limit\"}") == 0);
  CHECK(Value(text, "service_reports_refused_total{reason=\"rate_limited\"}") == 0);
  // Three reports written, each alone (one at a time): three batches of one.
  CHECK(Value(text, "service_ingest_batch_size_count") == 3);
  CHECK(Value(text, "service_ingest_batch_size_sum") == 3);
  CHECK(Value(text, "service_ingest_batch_size_bucket{le=\"1\"}") == 3);
  CHECK(Value(text, "service_ingest_batch_size_bucket{le=\"+Inf\"}") == 3);
  CHECK(SampleValue(text, "service_ingest_queue_depth") == 0.0);
  CHECK(SampleValue(text, "service_ingest_batches_in_progress") == 0.0);
  CHECK(Value(text, "service_http_requests_total{method=\"POST\",route=\"/v1/ingest\",status=\"2xx\"}") == 3);
}

TEST_CASE("metrics: a plan limit refusal counts as plan_limit") {
  TestService t([](Options& o) {
    WithToken(o);
    o.plan_limits["free"]["bugs_per_month"] = 1;
  });
  CaptureSetup s = NewCaptureSetup(t);
  CHECK(Ingest(t, s.key, Report("First bug")).status == 201);
  CHECK(Ingest(t, s.key, Report("Second bug", "other")).status == 402);
  const std::string text = Scrape(t);
  CHECK(Value(text, "service_reports_refused_total{reason=\"plan_limit\"}") == 1);
  CHECK(Value(text, "service_reports_accepted_total{outcome=\"new_bug\"}") == 1);
}

TEST_CASE("metrics: pool, outbox, live streams, process and an embedder's gauge") {
  TestService t(WithToken);
  double connections = 3;
  t.service().AddMetricsGauge("embedder_open_connections", "Connections the embedder holds.",
                              [&] { return connections; });
  const std::string text = Scrape(t);
  CHECK(text.find("# TYPE service_db_connections gauge\n") != std::string::npos);
  CHECK(text.find("service_db_connections_max{backend=\"") != std::string::npos);
  CHECK(SampleValue(text, "service_outbox_jobs{state=\"pending\"}").has_value());
  CHECK(SampleValue(text, "service_outbox_jobs{state=\"failed\"}").has_value());
  CHECK(SampleValue(text, "service_stream_open_streams") == 0.0);
  CHECK(Value(text, "process_cpu_seconds_total") >= 0);
  CHECK(Value(text, "process_open_fds") > 0);
  CHECK(SampleValue(text, "embedder_open_connections") == 3.0);
  connections = 5;
  CHECK(SampleValue(Scrape(t), "embedder_open_connections") == 5.0);
}

TEST_CASE("metrics: an open live stream shows in the gauge") {
  TestService t(WithToken);
  CaptureSetup s = NewCaptureSetup(t);
  api::Response stream = t.Open("/v1/bugs/stream", s.admin.headers());
  REQUIRE(stream.status == 200);
  CHECK(SampleValue(Scrape(t), "service_stream_open_streams") == 1.0);
  if (stream.stream) stream.stream->Close();
}

TEST_CASE("metrics: the delivery backlog and delivery outcomes") {
  StubHttpServer receiver;
  receiver.SetResponse("/ok", CannedResponse{200, "{}"});
  receiver.SetResponse("/down", CannedResponse{503, "down"});
  TestService t([](Options& o) {
    WithToken(o);
    o.allow_private_destinations = true;
  });
  CaptureSetup s = NewCaptureSetup(t, "pro");
  for (const char* path : {"/ok", "/down"}) {
    TestResponse created =
        t.Post("/v1/integrations",
               boost::json::object{{"projectId", s.project_id},
                                   {"type", "webhook"},
                                   {"config", boost::json::object{{"url", receiver.url(path)}}}},
               s.admin.headers());
    REQUIRE_MESSAGE(created.status == 201, created.body);
  }
  REQUIRE(Ingest(t, s.key, Report("Checkout fails")).status == 201);
  std::string text = Scrape(t);
  CHECK(Value(text, "service_deliveries_backlog{state=\"pending\"}") == 2);
  CHECK(Value(text, "service_deliveries_backlog{state=\"overdue\"}") == 0);
  t.clock().Advance(120'000);
  CHECK(Value(Scrape(t), "service_deliveries_backlog{state=\"overdue\"}") == 2);

  const auto& deps = internal::ModulesOf(t.service()).Get<service::modules::IntegrationsModule>().deps();
  auto sent = app::integrations::DrainDeliveries(deps);
  REQUIRE_MESSAGE(sent.ok(), sent.status().ToString());
  CHECK(*sent == 2);
  text = Scrape(t);
  CHECK(Value(text, "service_deliveries_total{outcome=\"success\"}") == 1);
  CHECK(Value(text, "service_deliveries_total{outcome=\"deferred\"}") == 1);
  CHECK(Value(text, "service_deliveries_total{outcome=\"failed\"}") == 0);
  // The one to try again later is still waiting, no longer overdue.
  CHECK(Value(text, "service_deliveries_backlog{state=\"pending\"}") +
            Value(text, "service_deliveries_backlog{state=\"deferred\"}") ==
        1);
  CHECK(Value(text, "service_deliveries_backlog{state=\"overdue\"}") == 0);
}

}  // namespace
}  // namespace service::testing
