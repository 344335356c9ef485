#include "areas/capture/module.h"

#include "areas/capture/api/routes.h"
#include "areas/capture/app/scrubbing.h"
#include "areas/capture/store/repositories.h"

namespace service::modules {

namespace {

// The report writer's group committer (store/group_committer.h) for /metrics.
void CollectWriterMetrics(const ports::BatchCommitter::Stats& s, std::vector<util::metrics::Family>& out) {
  using util::metrics::Family;
  using util::metrics::Type;
  using Bc = ports::BatchCommitter;
  out.push_back({"service_ingest_queue_depth",
                 "Reports waiting for the report writer's next transaction.",
                 Type::kGauge,
                 {{{}, static_cast<double>(s.queued)}}});
  out.push_back({"service_ingest_batches_in_progress",
                 "Report transactions being written now.",
                 Type::kGauge,
                 {{{}, static_cast<double>(s.writing)}}});
  out.push_back({"service_ingest_batch_fallbacks_total",
                 "Report transactions rolled back and written again report by report.",
                 Type::kCounter,
                 {{{}, static_cast<double>(s.fallbacks)}}});
  util::metrics::Sample sizes;
  uint64_t total = 0;
  for (size_t i = 0; i < Bc::kBatchSizeBuckets; ++i) {
    total += s.batch_sizes[i];
    if (i + 1 < Bc::kBatchSizeBuckets) {
      sizes.bounds.push_back(static_cast<double>(Bc::kBatchSizeBounds[i]));
      sizes.cumulative.push_back(total);
    }
  }
  sizes.count = total;
  sizes.sum = static_cast<double>(s.items);
  out.push_back({"service_ingest_batch_size",
                 "Reports per report-writer transaction (group commit).",
                 Type::kHistogram,
                 {std::move(sizes)}});
}

}  // namespace

Status CaptureModule::Open(Platform& p) {
  bugs_ = store::NewSqlCaptureBugRepository();
  occurrences_ = store::NewSqlOccurrenceRepository();
  end_users_ = store::NewSqlEndUserRepository();
  presence_ = store::NewSqlPresenceRepository();
  duplicates_ = store::NewSqlDuplicateCandidateRepository();
  scrubbing_settings_ = store::NewSqlScrubbingRepository();

  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.bus = p.bus.get();
  deps_.events = &p.events;
  deps_.accepted_capture_hooks = &accepted_capture_hooks_;
  deps_.log = p.log.get();
  deps_.settings = p.settings.get();
  deps_.projects = p.Shared<ports::ProjectRepository>();
  deps_.capture_keys = p.Shared<ports::CaptureKeyRepository>();
  deps_.capture_bugs = bugs_.get();
  deps_.occurrences = occurrences_.get();
  deps_.end_users = end_users_.get();
  deps_.presence = presence_.get();
  deps_.duplicates = duplicates_.get();
  deps_.usage = p.Shared<ports::UsageRepository>();
  deps_.scrubbing_settings = scrubbing_settings_.get();
  deps_.public_url = p.options.EffectivePublicUrl();
  deps_.plan_limits = p.options.plan_limits;
  deps_.retention = p.options.retention;
  deps_.batch_writers = p.db->dialect() == store::Dialect::kSqlite ? app::capture::kSqliteBatchWriters
                                                                   : app::capture::kPostgresBatchWriters;

  constexpr const char* kAccepted = "service_reports_accepted_total";
  constexpr const char* kAcceptedHelp = "Reports stored, by outcome (new_bug, duplicate, regression).";
  deps_.counters.new_bug = p.metrics.GetCounter(kAccepted, kAcceptedHelp, {{"outcome", "new_bug"}});
  deps_.counters.duplicate = p.metrics.GetCounter(kAccepted, kAcceptedHelp, {{"outcome", "duplicate"}});
  deps_.counters.regression = p.metrics.GetCounter(kAccepted, kAcceptedHelp, {{"outcome", "regression"}});
  constexpr const char* kRefused = "service_reports_refused_total";
  constexpr const char* kRefusedHelp =
      "Reports refused, by reason (invalid, unauthenticated, too_large and rate_limited count every ingest "
      "route: reports, Sentry envelopes, presence pings, AI summaries).";
  deps_.counters.plan_limit = p.metrics.GetCounter(kRefused, kRefusedHelp, {{"reason", "plan_limit"}});
  deps_.counters.error = p.metrics.GetCounter(kRefused, kRefusedHelp, {{"reason", "error"}});

  SV_ASSIGN_OR_RETURN(std::string secret, app::capture::LoadIpHashSecret(deps_));
  runtime_ = std::make_unique<app::capture::Runtime>(deps_, std::move(secret));
  deps_.capture = runtime_.get();
  app::capture::RegisterTasks(deps_, p.workers);
  scrubbing_ = std::make_unique<app::capture::ScrubbingCache>(deps_);
  deps_.scrubbing = scrubbing_.get();
  app::capture::RegisterScrubbingTasks(deps_, p.workers);
  app::capture::Runtime* runtime = runtime_.get();
  projects_.OnKeysChanged([runtime] { runtime->ForgetKeys(); });
  p.metrics.AddCollector([runtime](std::vector<util::metrics::Family>& out) {
    CollectWriterMetrics(runtime->committer().stats(), out);
  });

  // Rows keyed by org_id without a foreign key to organizations.
  ports::PresenceRepository* presence = presence_.get();
  ports::EndUserRepository* end_users = end_users_.get();
  p.deletion.OnOrganizationDeleted([presence, end_users](ports::Tx& tx, const std::string& org_id) {
    SV_RETURN_IF_ERROR(presence->DeleteOrganization(tx, org_id));
    return end_users->DeleteOrganization(tx, org_id);
  });
  return Status::Ok();
}

void CaptureModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterCaptureRoutes(pipeline, deps_);
  api::RegisterScrubbingRoutes(pipeline, deps_);
}

}  // namespace service::modules
