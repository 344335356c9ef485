#include "areas/capture/app/report_writer.h"

#include <boost/json.hpp>
#include <map>
#include <tuple>

#include "areas/capture/app/deps.h"
#include "areas/operations/domain/plans.h"
#include "util/json_writer.h"
#include "util/time.h"

namespace service::app::capture {
namespace {

namespace json = boost::json;

Status PlanLimitReached(const CaptureDeps& deps, ports::Tx& tx, const PreparedReport& r) {
  SV_ASSIGN_OR_RETURN(int64_t current, deps.usage->BugsInMonth(tx, r.source->org_id, r.month));
  return Status(
      Code::kPaymentRequired, "Plan limit reached", "",
      domain::operations::PlanLimitPayload(r.bugs_per_month, current, r.source->plan, deps.public_url));
}

ports::BugKeyReports SingleKey(const PreparedReport& r) {
  const ports::BugReportWrite& w = r.bug_write;
  ports::BugKeyReports k{w.project_id,  w.key_env,         w.fingerprint,  1, w.seen_at, w.release,
                         w.environment, w.ai_summary_json, w.occurrence_id};
  k.platforms = w.platforms;
  return k;
}

// The reports of a fingerprint that no bug had at lookup, one by one: the
// first creates the bug, the others are added to it. `created` is set when
// this batch made the bug, which then still has to pass the plan limit.
Status WriteNewKey(const CaptureDeps& deps, ports::Tx& tx, const std::vector<PreparedReport*>& reports,
                   bool* created) {
  *created = false;
  for (PreparedReport* r : reports) {
    if (r != reports.front()) {
      SV_ASSIGN_OR_RETURN(auto added, deps.capture_bugs->AddReports(tx, {SingleKey(*r)}));
      if (!added[0])
        return Status::Public(Code::kUnavailable, "capture: a bug changed concurrently, please retry");
      r->bug = std::move(*added[0]);
      continue;
    }
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugAfterReport> made,
                        deps.capture_bugs->Create(tx, r->bug_write));
    if (made) {
      r->bug = std::move(*made);
      *created = true;
      continue;
    }
    // PostgreSQL: a concurrent transaction created this fingerprint and
    // committed while the insert waited. Updating that bug now could wait
    // for a batch that waits for this one's rows (its lock was not taken
    // with the others at lookup): the batch is run again instead, and its
    // lookup finds the bug.
    return Status::Public(Code::kUnavailable, "capture: a new bug was created concurrently, please retry");
  }
  return Status::Ok();
}

// A bug this batch created counts against the monthly limit; refused, it is
// undone and none of its reports stores anything.
Status CountNewBug(const CaptureDeps& deps, ports::Tx& tx, const std::vector<PreparedReport*>& reports) {
  const PreparedReport& first = *reports.front();
  SV_ASSIGN_OR_RETURN(
      bool counted, deps.usage->TryCountNewBug(tx, first.source->org_id, first.month, first.bugs_per_month));
  if (counted) return Status::Ok();
  SV_RETURN_IF_ERROR(deps.capture_bugs->RemoveCreated(tx, first.bug.id));
  Status limit = PlanLimitReached(deps, tx, first);
  if (limit.code() != Code::kPaymentRequired) return limit;  // the counter read failed
  for (PreparedReport* r : reports) {
    r->outcome = limit;
    r->bug = ports::BugAfterReport();
  }
  return Status::Ok();
}

// The accepted-capture hooks of a report naming a capture identity or
// evidence (accepted_capture.h).
Status RunAcceptedCaptureHooks(const CaptureDeps& deps, ports::Tx& tx, const PreparedReport& r) {
  AcceptedCapture c;
  c.org_id = r.source->org_id;
  c.project_id = r.source->project_id;
  c.bug_id = r.bug.id;
  c.occurrence_id = r.occurrence.id;
  c.key_env = r.source->key_env;
  c.platform = r.occurrence.platform;
  c.level = r.bug_write.severity;
  c.accepted_at_ms = r.bug_write.seen_at;
  c.identity = r.capture_identity;
  c.evidence_ids = r.evidence_ids;
  for (const AcceptedCaptureHook& hook : *deps.accepted_capture_hooks) SV_RETURN_IF_ERROR(hook(tx, c));
  return Status::Ok();
}

ports::BugParticipants ParticipantsOf(const PreparedReport& r) {
  return ports::BugParticipants{r.bug.id, r.occurrence.user_key, r.occurrence.session_id,
                                r.reporter_email_key, r.bug_write.seen_at};
}

}  // namespace

Status WriteReports(const CaptureDeps& deps, ports::Tx& tx, const std::vector<PreparedReport*>& all) {
  // 0. Deliveries seen before store nothing.
  std::vector<PreparedReport*> batch;
  batch.reserve(all.size());
  for (PreparedReport* r : all) {
    r->outcome = Status::Ok();
    r->bug = ports::BugAfterReport();
    r->event = ports::Event();
    if (r->delivery_id) {
      SV_ASSIGN_OR_RETURN(bool first, deps.capture_bugs->ClaimDelivery(
                                          tx, r->source->project_id, *r->delivery_id, r->bug_write.seen_at));
      if (!first) {
        r->outcome = Status(Code::kConflict, "This event was stored before", "DUPLICATE_DELIVERY");
        continue;
      }
    }
    batch.push_back(r);
  }

  // 1. Fold the batch per bug key, in order of first appearance.
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
    k.platforms |= w.platforms;
  }

  // 2. Known bugs: participants first, so that each bug's row is updated
  //    once, with its report counters and its new participants together.
  SV_ASSIGN_OR_RETURN(std::vector<std::optional<std::string>> ids, deps.capture_bugs->FindIds(tx, keys));
  std::vector<ports::BugParticipants> participants;
  participants.reserve(batch.size());
  std::vector<ports::BugKeyReports> known;
  std::vector<size_t> known_group;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!ids[g]) continue;
    for (PreparedReport* r : groups[g]) {
      r->bug.id = *ids[g];
      participants.push_back(ParticipantsOf(*r));
    }
    known.push_back(keys[g]);
    known_group.push_back(g);
  }
  SV_ASSIGN_OR_RETURN(ports::NewParticipantsByBug news,
                      deps.capture_bugs->RecordParticipants(tx, participants));
  for (size_t i = 0; i < known.size(); ++i) {
    auto it = news.find(*ids[known_group[i]]);
    if (it == news.end()) continue;
    known[i].new_users = it->second.users;
    known[i].new_sessions = it->second.sessions;
    known[i].new_reporters = it->second.reporters;
  }
  SV_ASSIGN_OR_RETURN(std::vector<std::optional<ports::BugAfterReport>> found,
                      deps.capture_bugs->AddReports(tx, known));
  for (size_t i = 0; i < known.size(); ++i) {
    // Deleted since FindIds (another process): the whole batch is retried.
    if (!found[i])
      return Status::Public(Code::kUnavailable, "capture: a bug changed concurrently, please retry");
    const std::vector<PreparedReport*>& group = groups[known_group[i]];
    const int64_t n = static_cast<int64_t>(group.size());
    for (int64_t j = 0; j < n; ++j) {
      PreparedReport* r = group[static_cast<size_t>(j)];
      r->bug = *found[i];
      r->bug.regression = found[i]->regression && j == 0;
      r->bug.report_count = found[i]->report_count - (n - 1 - j);
    }
  }

  // 3. New fingerprints, in sorted order: created, then counted against the
  //    plan limit, then their participants. Creating before counting means
  //    a batch waits on another's new bug (PostgreSQL, several processes)
  //    only before it holds a month counter, and keys in sorted order never
  //    wait on each other in a cycle.
  std::map<Key, size_t> new_keys;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!ids[g]) new_keys.emplace(Key{keys[g].project_id, keys[g].key_env, keys[g].fingerprint}, g);
  }
  std::map<std::pair<std::string, Key>, size_t> created;  // (org, key) -> group: counters in order
  for (const auto& [key, g] : new_keys) {
    bool made = false;
    SV_RETURN_IF_ERROR(WriteNewKey(deps, tx, groups[g], &made));
    if (made) created.emplace(std::make_pair(groups[g].front()->source->org_id, key), g);
  }
  for (const auto& [unused, g] : created) SV_RETURN_IF_ERROR(CountNewBug(deps, tx, groups[g]));
  participants.clear();
  for (const auto& [key, g] : new_keys) {
    for (PreparedReport* r : groups[g]) {
      if (r->outcome.ok()) participants.push_back(ParticipantsOf(*r));
    }
  }
  SV_RETURN_IF_ERROR(deps.capture_bugs->AddParticipants(tx, participants));

  // 4. Occurrences and end users of the accepted reports.
  std::vector<const ports::Occurrence*> occurrences;
  std::vector<ports::EndUserSighting> sightings;
  occurrences.reserve(batch.size());
  sightings.reserve(batch.size());
  for (PreparedReport* r : batch) {
    if (!r->outcome.ok()) continue;
    r->occurrence.bug_id = r->bug.id;
    occurrences.push_back(&r->occurrence);
    sightings.push_back(r->sighting);
  }
  SV_RETURN_IF_ERROR(deps.occurrences->Insert(tx, occurrences));
  SV_RETURN_IF_ERROR(deps.end_users->Touch(tx, sightings));

  // 5. Regressions and the outbox.
  for (PreparedReport* r : batch) {
    if (!r->outcome.ok()) continue;
    if (r->bug.regression) {
      SV_RETURN_IF_ERROR(deps.capture_bugs->AddStatusHistory(
          tx, deps.ids->NewId(), r->bug.id, r->source->org_id, "resolved", r->bug.status,
          "Reopened: a new report arrived", "", r->bug_write.seen_at));
    }
    if (deps.events != nullptr && !deps.events->empty()) {
      r->event = OutcomeEvent(*r);
      SV_RETURN_IF_ERROR(deps.events->Publish(tx, r->event, kCaptureEvents));
    }
    if ((r->capture_identity || !r->evidence_ids.empty()) && deps.accepted_capture_hooks != nullptr &&
        !deps.accepted_capture_hooks->empty()) {
      SV_RETURN_IF_ERROR(RunAcceptedCaptureHooks(deps, tx, *r));
    }
  }
  return Status::Ok();
}

// The stream payload of a capture outcome (Spec 1 "Events": title, severity,
// url, occurrenceId, sessionId, userId, release, environment, browser, os and
// the signal-classification fields), plus ids and counts. Written directly
// (no JSON document): it is built for every ingested report.
ports::Event OutcomeEvent(const PreparedReport& r) {
  const ports::BugAfterReport& bug = r.bug;
  const ports::Occurrence& occ = r.occurrence;
  const ports::BugReportWrite& w = r.bug_write;
  const std::string type = bug.created ? "new_bug" : (bug.regression ? "regression" : "duplicate");
  util::JsonWriter j(1024);
  auto opt = [&j](std::string_view key, const std::optional<std::string>& s) {
    j.Key(key);
    if (s) {
      j.String(*s);
    } else {
      j.Null();
    }
  };
  j.BeginObject();
  j.Key("type").String(type);
  j.Key("id").String(bug.id);
  j.Key("bugId").String(bug.id);
  j.Key("orgId").String(r.source->org_id);
  j.Key("projectId").String(r.source->project_id);
  j.Key("projectName").String(r.source->project_name);
  j.Key("keyEnv").String(r.source->key_env);
  j.Key("title").String(bug.title);
  j.Key("severity").String(bug.severity);
  j.Key("status").String(bug.status);
  j.Key("url").String(occ.url ? *occ.url : bug.url);
  j.Key("fingerprint").String(w.fingerprint);
  j.Key("occurrenceId").String(occ.id);
  opt("sessionId", occ.session_id);
  opt("userId", occ.end_user_id);
  opt("userEmail", occ.reporter_email);
  j.Key("userKey").String(occ.user_key);
  opt("release", occ.release_version);
  opt("environment", occ.environment);
  opt("browser", occ.browser);
  opt("os", occ.os);
  j.Key("platform").String(occ.platform);
  j.Key("signal_class").String(w.signal_class);
  j.Key("signal_family").String(w.signal_family);
  j.Key("signal_reason").String(w.signal_reason);
  j.Key("classifier_confidence").String(w.classifier_confidence);
  j.Key("report_count").Int(bug.report_count);
  j.Key("is_regression").Bool(bug.is_regression);
  j.Key("timestamp").String(util::FormatIso8601(w.seen_at));
  j.EndObject();
  return ports::Event{type, r.source->org_id, r.source->project_id, j.Take(), w.signal_class};
}

}  // namespace service::app::capture
