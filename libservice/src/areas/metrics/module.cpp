#include "areas/metrics/module.h"

#include "areas/metrics/api/routes.h"
#include "util/strings.h"

namespace service::modules {

namespace {

// Secrets are never echoed in messages.
Status ApplyMetricsToken(Options& options, std::string_view value) {
  const std::string trimmed = util::Trim(value);
  if (HasSpaceOrControl(trimmed)) return InvalidArgument("SERVICE_METRICS_TOKEN must not contain spaces");
  if (!trimmed.empty() && trimmed.size() < 16) {
    return InvalidArgument("SERVICE_METRICS_TOKEN must be at least 16 characters");
  }
  options.metrics_token = trimmed;
  return Status::Ok();
}

util::metrics::Family OneGauge(std::string name, std::string help, util::metrics::Labels labels, double v) {
  util::metrics::Family f{std::move(name), std::move(help), util::metrics::Type::kGauge, {}};
  f.samples.push_back({std::move(labels), v});
  return f;
}

}  // namespace

void MetricsModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back({"SERVICE_METRICS_TOKEN", "", "",
                  "GET /metrics (Prometheus text format) answers callers presenting Authorization: Bearer "
                  "<token> (at least 16 characters; never logged)",
                  "unset: /metrics answers 404 on the service's address", ApplyMetricsToken});
}

Status MetricsModule::Open(Platform& p) {
  registry_ = &p.metrics;
  token_ = p.options.metrics_token;
  p.metrics.AddCollector(util::metrics::CollectProcess);

  store::Database* db = p.db.get();
  const std::string backend(p.db->backend_name());
  p.metrics.AddCollector([db, backend](std::vector<util::metrics::Family>& out) {
    const store::Database::PoolStats s = db->pool_stats();
    util::metrics::Family f{"service_db_connections",
                            "Pooled database connections by state (SQLite: the readers; the one writer "
                            "connection is not counted).",
                            util::metrics::Type::kGauge,
                            {}};
    f.samples.push_back({{{"backend", backend}, {"state", "in_use"}}, static_cast<double>(s.in_use)});
    f.samples.push_back({{{"backend", backend}, {"state", "idle"}}, static_cast<double>(s.idle)});
    out.push_back(std::move(f));
    out.push_back(OneGauge("service_db_connections_max", "Size of the database connection pool.",
                           {{"backend", backend}}, static_cast<double>(s.max)));
  });

  // The outbox (mail and other background jobs): one count query per scrape.
  ports::OutboxRepository* outbox = p.outbox.get();
  ports::Transactions* tx = p.tx.get();
  Clock* clock = p.clock.get();
  p.metrics.AddCollector([outbox, tx, clock](std::vector<util::metrics::Family>& out) {
    Result<ports::OutboxCounts> c = outbox->Counts(*tx, clock->NowMillis());
    if (!c.ok()) return;  // the database is down: no figures rather than wrong ones
    util::metrics::Family f{"service_outbox_jobs",
                            "Outbox jobs (mail, background work) by state: pending, overdue (pending and due "
                            "for more than a minute), failed (for good).",
                            util::metrics::Type::kGauge,
                            {}};
    f.samples.push_back({{{"state", "pending"}}, static_cast<double>(c->pending)});
    f.samples.push_back({{{"state", "overdue"}}, static_cast<double>(c->overdue)});
    f.samples.push_back({{{"state", "failed"}}, static_cast<double>(c->failed)});
    out.push_back(std::move(f));
  });
  return Status::Ok();
}

void MetricsModule::RegisterRoutes(api::Pipeline& pipeline) {
  if (token_.empty()) return;  // off: GET /metrics is 404
  api::RegisterMetricsRoutes(pipeline, *registry_, token_);
}

}  // namespace service::modules
