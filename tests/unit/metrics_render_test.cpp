// The Prometheus text exposition (util/metrics.h): what a scraper parses.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "util/metrics.h"

namespace m = service::util::metrics;

TEST_CASE("metrics render: HELP and TYPE lines precede a counter's samples") {
  m::Family f{"service_reports_accepted_total", "Reports stored.", m::Type::kCounter, {}};
  f.samples.push_back({{{"outcome", "new_bug"}}, 3});
  f.samples.push_back({{{"outcome", "duplicate"}}, 0});
  CHECK(m::Render({f}) ==
        "# HELP service_reports_accepted_total Reports stored.\n"
        "# TYPE service_reports_accepted_total counter\n"
        "service_reports_accepted_total{outcome=\"new_bug\"} 3\n"
        "service_reports_accepted_total{outcome=\"duplicate\"} 0\n");
}

TEST_CASE("metrics render: a sample without labels has no braces") {
  m::Family f{"process_open_fds", "Open fds.", m::Type::kGauge, {{{}, 12}}};
  CHECK(m::Render({f}) ==
        "# HELP process_open_fds Open fds.\n# TYPE process_open_fds gauge\nprocess_open_fds 12\n");
}

TEST_CASE(
    "metrics render: label values escape backslash, quote and newline, help escapes backslash and "
    "newline") {
  m::Family f{"x_total", "a \\ b\nc \"q\"", m::Type::kCounter, {}};
  f.samples.push_back({{{"route", "a\\b\"c\nd"}, {"method", "GET"}}, 1});
  CHECK(m::Render({f}) ==
        "# HELP x_total a \\\\ b\\nc \"q\"\n"
        "# TYPE x_total counter\n"
        "x_total{route=\"a\\\\b\\\"c\\nd\",method=\"GET\"} 1\n");
}

TEST_CASE("metrics render: a histogram has cumulative buckets ending in +Inf, _sum and _count") {
  m::Histogram h({0.1, 0.5, 1});
  h.Observe(0.05);
  h.Observe(0.1);  // a bound is inclusive
  h.Observe(0.3);
  h.Observe(7);
  m::Family f{"service_http_request_duration_seconds", "Latency.", m::Type::kHistogram, {}};
  f.samples.push_back(h.Snapshot({{"route", "/v1/health"}}));
  CHECK(m::Render({f}) ==
        "# HELP service_http_request_duration_seconds Latency.\n"
        "# TYPE service_http_request_duration_seconds histogram\n"
        "service_http_request_duration_seconds_bucket{route=\"/v1/health\",le=\"0.1\"} 2\n"
        "service_http_request_duration_seconds_bucket{route=\"/v1/health\",le=\"0.5\"} 3\n"
        "service_http_request_duration_seconds_bucket{route=\"/v1/health\",le=\"1\"} 3\n"
        "service_http_request_duration_seconds_bucket{route=\"/v1/health\",le=\"+Inf\"} 4\n"
        "service_http_request_duration_seconds_sum{route=\"/v1/health\"} 7.45\n"
        "service_http_request_duration_seconds_count{route=\"/v1/health\"} 4\n");
}

TEST_CASE("metrics render: a histogram without labels puts le alone in braces") {
  m::Histogram h({1, 2});
  h.Observe(2);
  m::Family f{"b", "B.", m::Type::kHistogram, {h.Snapshot({})}};
  const std::string text = m::Render({f});
  CHECK(text.find(
            "b_bucket{le=\"1\"} 0\nb_bucket{le=\"2\"} 1\nb_bucket{le=\"+Inf\"} 1\nb_sum 2\nb_count 1\n") !=
        std::string::npos);
}

TEST_CASE("metrics render: numbers") {
  CHECK(m::FormatValue(0) == "0");
  CHECK(m::FormatValue(42) == "42");
  CHECK(m::FormatValue(-3) == "-3");
  CHECK(m::FormatValue(0.25) == "0.25");
  CHECK(m::FormatValue(0.0025) == "0.0025");
  CHECK(m::FormatValue(1e20) == "1e+20");
  CHECK(m::FormatValue(std::numeric_limits<double>::infinity()) == "+Inf");
  CHECK(m::FormatValue(-std::numeric_limits<double>::infinity()) == "-Inf");
  CHECK(m::FormatValue(std::nan("")) == "NaN");
}

TEST_CASE(
    "metrics registry: one metric per name and labels, families in registration order, collectors "
    "merged by name") {
  m::Registry r;
  m::Counter* a = r.GetCounter("c_total", "C.", {{"k", "a"}});
  m::Counter* b = r.GetCounter("c_total", "C.", {{"k", "b"}});
  CHECK(a != b);
  CHECK(r.GetCounter("c_total", "C.", {{"k", "a"}}) == a);
  a->Inc();
  a->Inc(2);
  r.GetGauge("g", "G.")->Set(-4);
  r.AddCollector([](std::vector<m::Family>& out) {
    out.push_back({"c_total", "ignored", m::Type::kCounter, {{{{"k", "c"}}, 9}}});
    out.push_back({"late", "Late.", m::Type::kGauge, {{{}, 1}}});
  });
  CHECK(r.RenderText() ==
        "# HELP c_total C.\n# TYPE c_total counter\n"
        "c_total{k=\"a\"} 3\nc_total{k=\"b\"} 0\nc_total{k=\"c\"} 9\n"
        "# HELP g G.\n# TYPE g gauge\ng -4\n"
        "# HELP late Late.\n# TYPE late gauge\nlate 1\n");
}

TEST_CASE("metrics registry: counters and histograms add up across threads") {
  m::Registry r;
  m::Counter* c = r.GetCounter("n_total", "N.");
  m::Histogram* h = r.GetHistogram("h_seconds", "H.", m::LatencyBuckets());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10'000; ++i) {
        c->Inc();
        h->Observe(0.002);
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(c->Value() == 40'000);
  const m::Sample s = h->Snapshot({});
  CHECK(s.count == 40'000);
  CHECK(s.cumulative[1] == 40'000);  // le 0.0025
  CHECK(s.cumulative[0] == 0);       // le 0.001
  CHECK(std::fabs(s.sum - 80.0) < 1e-6);
}

TEST_CASE("metrics process: RSS, CPU, start time and open fds come from /proc/self") {
  std::vector<m::Family> out;
  m::CollectProcess(out);
  auto value = [&](const std::string& name) {
    for (const auto& f : out)
      if (f.name == name) return f.samples.at(0).value;
    return -1.0;
  };
  CHECK(value("process_resident_memory_bytes") > 1'000'000);
  CHECK(value("process_cpu_seconds_total") >= 0);
  CHECK(value("process_start_time_seconds") > 1.6e9);
  CHECK(value("process_open_fds") >= 3);
  CHECK(value("process_max_fds") > 0);
}
