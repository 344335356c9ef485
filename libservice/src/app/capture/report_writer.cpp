#include "app/capture/report_writer.h"

#include <boost/json.hpp>
#include <map>
#include <tuple>

#include "app/core.h"
#include "domain/plans.h"
#include "util/time.h"

namespace service::app::capture {
namespace {

namespace json = boost::json;

Status PlanLimitReached(Core& core, store::Connection& tx, const PreparedReport& r) {
  SV_ASSIGN_OR_RETURN(int64_t current, core.usage->BugsInMonth(tx, r.source->org_id, r.month));
  return Status(
      Code::kPaymentRequired, "Plan limit reached", "",
      domain::PlanLimitPayload(r.bugs_per_month, current, r.source->plan, core.options.EffectivePublicUrl()));
}

ports::BugKeyReports SingleKey(const PreparedReport& r) {
  const ports::BugReportWrite& w = r.bug_write;
  return ports::BugKeyReports{w.project_id,  w.key_env,         w.fingerprint,  1, w.seen_at, w.release,
                              w.environment, w.ai_summary_json, w.occurrence_id};
}

// The reports of a fingerprint that no bug has yet, one by one.
Status WriteNewKey(Core& core, store::Connection& tx, const std::vector<PreparedReport*>& reports) {
  bool exists = false;
  for (PreparedReport* r : reports) {
    if (exists) {
      SV_ASSIGN_OR_RETURN(auto added, core.capture_bugs->AddReports(tx, {SingleKey(*r)}));
      if (!added[0]) return Unavailable("capture: a bug changed concurrently, please retry");
      r->bug = std::move(*added[0]);
      continue;
    }
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugAfterReport> created,
                        core.capture_bugs->Create(tx, r->bug_write));
    if (!created) {
      // PostgreSQL: a concurrent transaction created this fingerprint and
      // committed while the insert waited; the bug exists now.
      SV_ASSIGN_OR_RETURN(auto added, core.capture_bugs->AddReports(tx, {SingleKey(*r)}));
      if (!added[0]) return Unavailable("capture: a bug changed concurrently, please retry");
      r->bug = std::move(*added[0]);
      exists = true;
      continue;
    }
    // A new bug counts against the monthly limit; refused, it is undone and
    // the report stores nothing.
    SV_ASSIGN_OR_RETURN(bool counted,
                        core.usage->TryCountNewBug(tx, r->source->org_id, r->month, r->bugs_per_month));
    if (!counted) {
      SV_RETURN_IF_ERROR(core.capture_bugs->RemoveCreated(tx, created->id));
      Status limit = PlanLimitReached(core, tx, *r);
      if (limit.code() != Code::kPaymentRequired) return limit;  // the counter read failed
      r->outcome = std::move(limit);
      continue;
    }
    r->bug = std::move(*created);
    exists = true;
  }
  return Status::Ok();
}

}  // namespace

Status WriteReports(Core& core, store::Connection& tx, const std::vector<PreparedReport*>& batch) {
  for (PreparedReport* r : batch) {
    r->outcome = Status::Ok();
    r->bug = ports::BugAfterReport();
    r->event = ports::Event();
  }

  // 1. Bugs: fold the batch per bug key, in order of first appearance.
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, size_t> group_of;
  std::vector<std::vector<PreparedReport*>> groups;
  std::vector<ports::BugKeyReports> keys;
  for (PreparedReport* r : batch) {
    const ports::BugReportWrite& w = r->bug_write;
    auto [it, inserted] = group_of.emplace(Key{w.project_id, w.key_env, w.fingerprint}, groups.size());
    if (inserted) {
      groups.emplace_back();
      keys.push_back(SingleKey(*r));
      keys.back().count = 0;
    }
    groups[it->second].push_back(r);
    ports::BugKeyReports& k = keys[it->second];
    ++k.count;
    if (w.seen_at > k.seen_at) k.seen_at = w.seen_at;
    if (!w.release.empty()) k.release = w.release;
    if (!w.environment.empty()) k.environment = w.environment;
    if (!k.ai_summary_json) k.ai_summary_json = w.ai_summary_json;
  }
  SV_ASSIGN_OR_RETURN(std::vector<std::optional<ports::BugAfterReport>> found,
                      core.capture_bugs->AddReports(tx, keys));
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!found[g]) {
      SV_RETURN_IF_ERROR(WriteNewKey(core, tx, groups[g]));
      continue;
    }
    const int64_t n = static_cast<int64_t>(groups[g].size());
    for (int64_t j = 0; j < n; ++j) {
      PreparedReport* r = groups[g][static_cast<size_t>(j)];
      r->bug = *found[g];
      r->bug.regression = found[g]->regression && j == 0;
      r->bug.report_count = found[g]->report_count - (n - 1 - j);
    }
  }

  // 2. Occurrences, end users and bug participants of the accepted reports.
  std::vector<const ports::Occurrence*> occurrences;
  std::vector<ports::EndUserSighting> sightings;
  std::vector<ports::BugParticipants> participants;
  occurrences.reserve(batch.size());
  sightings.reserve(batch.size());
  participants.reserve(batch.size());
  for (PreparedReport* r : batch) {
    if (!r->outcome.ok()) continue;
    r->occurrence.bug_id = r->bug.id;
    occurrences.push_back(&r->occurrence);
    sightings.push_back(r->sighting);
    participants.push_back(ports::BugParticipants{r->bug.id, r->occurrence.user_key, r->occurrence.session_id,
                                                  r->reporter_email_key, r->bug_write.seen_at});
  }
  SV_RETURN_IF_ERROR(core.occurrences->Insert(tx, occurrences));
  SV_RETURN_IF_ERROR(core.end_users->Touch(tx, sightings));
  SV_RETURN_IF_ERROR(core.capture_bugs->AddParticipants(tx, participants));

  // 3. Regressions and the outbox.
  for (PreparedReport* r : batch) {
    if (!r->outcome.ok()) continue;
    if (r->bug.regression) {
      SV_RETURN_IF_ERROR(core.capture_bugs->AddStatusHistory(
          tx, core.ids->NewId(), r->bug.id, r->source->org_id, "resolved", r->bug.status,
          "Reopened: a new report arrived", "", r->bug_write.seen_at));
    }
    if (core.capture_outbox_hook) {
      r->event = OutcomeEvent(*r);
      SV_RETURN_IF_ERROR(core.capture_outbox_hook(tx, r->event));
    }
  }
  return Status::Ok();
}

// The stream payload of a capture outcome (Spec 1 "Events": title, severity,
// url, occurrenceId, sessionId, userId, release, environment, browser, os and
// the signal-classification fields), plus ids and counts.
ports::Event OutcomeEvent(const PreparedReport& r) {
  const ports::BugAfterReport& bug = r.bug;
  const ports::Occurrence& occ = r.occurrence;
  const ports::BugReportWrite& w = r.bug_write;
  const std::string type = bug.created ? "new_bug" : (bug.regression ? "regression" : "duplicate");
  auto opt = [](const std::optional<std::string>& s) -> json::value {
    return s ? json::value(*s) : json::value(nullptr);
  };
  json::object o{{"type", type},
                 {"id", bug.id},
                 {"bugId", bug.id},
                 {"orgId", r.source->org_id},
                 {"projectId", r.source->project_id},
                 {"projectName", r.source->project_name},
                 {"keyEnv", r.source->key_env},
                 {"title", bug.title},
                 {"severity", bug.severity},
                 {"status", bug.status},
                 {"url", occ.url ? *occ.url : bug.url},
                 {"fingerprint", w.fingerprint},
                 {"occurrenceId", occ.id},
                 {"sessionId", opt(occ.session_id)},
                 {"userId", opt(occ.end_user_id)},
                 {"userKey", occ.user_key},
                 {"release", opt(occ.release_version)},
                 {"environment", opt(occ.environment)},
                 {"browser", opt(occ.browser)},
                 {"os", opt(occ.os)},
                 {"platform", occ.platform},
                 {"signal_class", w.signal_class},
                 {"signal_family", w.signal_family},
                 {"signal_reason", w.signal_reason},
                 {"classifier_confidence", w.classifier_confidence},
                 {"report_count", bug.report_count},
                 {"is_regression", bug.is_regression},
                 {"timestamp", util::FormatIso8601(w.seen_at)}};
  return ports::Event{type, r.source->org_id, r.source->project_id, json::serialize(o)};
}

}  // namespace service::app::capture
