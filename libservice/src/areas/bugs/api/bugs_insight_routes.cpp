// Triage reads beyond the lists (Spec 1 "Bugs: read", JWT+Org, capability
// kViewBugs):
//   GET /v1/bugs/stats                     aggregates, timeline, topBugs, mttr_hours,
//                                          health_score, previous, deliveryFeed
//   GET /v1/bugs/recommended               {bugs[recommended rows], total, limit}
//   GET /v1/bugs/live                      {occurrences, limit, deliveryFeed}
//   GET /v1/bugs/export                    JSON or CSV, streamed; X-Query-Ms,
//                                          X-Row-Count, X-Next-After
//   GET /v1/bugs/:id/similar               {similar}
//   GET /v1/bugs/:id/users                 {users, total, limit, offset}
//   GET /v1/bugs/:id/anomalies             {anomalies, eventCount}
//   GET /v1/bugs/reporters/:email/bugs     {email, bugs, stats}
//   GET /v1/end-users                      {query, users}
//   GET /v1/end-users/:userKey/timeline    {identity, occurrences, total, limit, offset}
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>

#include "api/json.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/bugs/api/routes.h"
#include "areas/bugs/app/insights.h"
#include "areas/capture/domain/vocabulary.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
using app::bugs::BugsDeps;

json::array Strings(const std::vector<std::string>& v) {
  json::array out;
  for (const auto& s : v) out.emplace_back(s);
  return out;
}

json::value OptHours(const std::optional<double>& h) {
  return h ? json::value(std::round(*h * 100) / 100) : json::value(nullptr);
}

const char* SeverityName(int rank) {
  static constexpr const char* kNames[] = {"medium", "low", "medium", "high", "critical"};
  return rank >= 0 && rank <= 4 ? kNames[rank] : "medium";
}

Result<std::string> FeedParam(const Context& ctx) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> feed,
                      EnumParam(ctx, "deliveryFeed", domain::capture::IsDeliveryFeed));
  return feed.value_or("all");
}

// The signal classes a feed shows: signalClass, else issue and watch unless
// includeDiagnostics (empty: every class).
Result<std::vector<std::string>> SignalClassesParam(const Context& ctx) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> signal_class,
                      EnumParam(ctx, "signalClass", [](const std::string& s) {
                        return s == "all" || domain::capture::IsSignalClass(s);
                      }));
  SV_ASSIGN_OR_RETURN(const bool include_diagnostics, BoolParam(ctx, "includeDiagnostics", false));
  if (signal_class) {
    if (*signal_class == "all") return std::vector<std::string>{};
    return std::vector<std::string>{*signal_class};
  }
  if (include_diagnostics) return std::vector<std::string>{};
  return std::vector<std::string>{"issue", "watch"};
}

json::object StatsWindowJson(const ports::StatsWindow& w) {
  return json::object{{"total", w.total},
                      {"open", w.open},
                      {"status_new", w.status_new},
                      {"status_known", w.status_known},
                      {"status_working", w.status_working},
                      {"status_resolved", w.status_resolved},
                      {"status_silenced", w.status_silenced},
                      {"sev_critical", w.sev_critical},
                      {"sev_high", w.sev_high},
                      {"sev_medium", w.sev_medium},
                      {"sev_low", w.sev_low},
                      {"total_reports", w.total_reports},
                      {"avg_resolution_hours", OptHours(w.avg_resolution_hours)}};
}

Response HandleStats(const BugsDeps& deps, Context& ctx) {
  ports::BugScope scope;
  scope.org_id = ctx.principal.org_id;
  auto project = UuidParam(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  scope.project_id = *project;
  auto raw_days = Param(ctx, "days");
  if (!raw_days.ok()) return StatusResponse(raw_days.status());
  auto days = IntParam(ctx, "days", 30, 1, 365);
  if (!days.ok() || (*raw_days && *days != std::stoll(std::string(**raw_days)))) {
    return StatusResponse(BadParam("days must be an integer from 1 to 365"));
  }
  auto feed = FeedParam(ctx);
  if (!feed.ok()) return StatusResponse(feed.status());
  scope.feed = *feed;
  auto stats = app::bugs::GetStats(deps, scope, *days);
  if (!stats.ok()) return StatusResponse(stats.status());
  json::array timeline;
  for (const auto& d : stats->timeline) {
    timeline.push_back(json::object{{"date", util::FormatIso8601(d.day_start_ms).substr(0, 10)},
                                    {"bug_count", d.bug_count},
                                    {"report_count", d.report_count}});
  }
  json::array top;
  for (const auto& b : stats->top_bugs) {
    top.push_back(json::object{{"id", b.id},
                               {"title", b.title},
                               {"severity", b.severity},
                               {"status", b.status},
                               {"url", b.url},
                               {"report_count", b.report_count},
                               {"first_seen", util::FormatIso8601(b.first_seen)},
                               {"last_seen", util::FormatIso8601(b.last_seen)}});
  }
  const ports::StatsWindow& p = stats->previous;
  return JsonResponse(
      200,
      json::object{{"aggregates", StatsWindowJson(stats->current)},
                   {"timeline", std::move(timeline)},
                   {"topBugs", std::move(top)},
                   {"mttr_hours", OptHours(stats->mttr_hours)},
                   {"health_score", stats->health_score},
                   {"previous", json::object{{"total", p.total},
                                             {"open", p.open},
                                             {"status_new", p.status_new},
                                             {"status_resolved", p.status_resolved},
                                             {"sev_critical", p.sev_critical},
                                             {"sev_high", p.sev_high},
                                             {"total_reports", p.total_reports},
                                             {"avg_resolution_hours", OptHours(p.avg_resolution_hours)}}},
                   {"deliveryFeed", scope.feed}});
}

Response HandleRecommended(const BugsDeps& deps, Context& ctx) {
  ports::RecommendedFilter f;
  f.org_id = ctx.principal.org_id;
  auto search = Param(ctx, "search");
  if (!search.ok()) return StatusResponse(search.status());
  auto q = Param(ctx, "q");
  if (!q.ok()) return StatusResponse(q.status());
  if (*search && *q) return StatusResponse(BadParam("search must be provided at most once"));
  std::optional<std::string> text = *search ? *search : *q;
  if (text && !text->empty()) f.search = text;
  auto project = UuidParam(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  f.project_id = *project;
  auto severity = EnumParam(ctx, "severity", domain::capture::IsSeverity);
  if (!severity.ok()) return StatusResponse(severity.status());
  f.severity = *severity;
  auto classes = SignalClassesParam(ctx);
  if (!classes.ok()) return StatusResponse(classes.status());
  f.signal_classes = *classes;
  auto platform = EnumParam(ctx, "platform", domain::capture::IsPlatform);
  if (!platform.ok()) return StatusResponse(platform.status());
  f.platform = *platform;
  auto assignee = Param(ctx, "assignee");
  if (!assignee.ok()) return StatusResponse(assignee.status());
  if (*assignee) {
    const std::string& a = **assignee;
    if (a == "unassigned") {
      f.assignee = ports::BugFilter::Assignee::kUnassigned;
    } else if (a == "me" || util::IsUuid(a)) {
      f.assignee = ports::BugFilter::Assignee::kUser;
      f.assignee_id = a == "me" ? ctx.principal.user_id : a;
    } else {
      return StatusResponse(BadParam("Invalid assignee"));
    }
  }
  auto since = Param(ctx, "since");
  if (!since.ok()) return StatusResponse(since.status());
  if (*since) {
    std::optional<int64_t> at = util::ParseIso8601(**since);
    if (!at) return StatusResponse(BadParam("Invalid since"));
    f.since_ms = *at;
  }
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultPageSize, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto page = app::bugs::Recommend(deps, f, *limit);
  if (!page.ok()) return StatusResponse(page.status());
  json::array rows;
  for (const auto& r : page->rows) {
    const ports::RecommendedGroup& g = r.group;
    json::object row = BugJson(g.representative);
    row["recommended_score"] = r.score;
    row["recommended_severity"] = r.severity;
    row["group_key"] = g.representative.group_key;
    row["instance_count"] = g.instance_count;
    row["report_total"] = g.report_total;
    row["occurrence_count"] = g.occurrence_count > 0 ? g.occurrence_count : g.report_total;
    row["first_seen"] = util::FormatIso8601(g.first_seen);
    row["last_seen"] = util::FormatIso8601(g.last_seen);
    row["assignees"] = Strings(g.assignees);
    row["assignee_name"] = OptText(g.representative.assignee_name);
    row["group_severity"] = SeverityName(g.max_severity_rank);
    row["member_ids"] = Strings(g.member_ids);
    row["signal_classes"] = Strings(g.signal_classes);
    row["signal_families"] = Strings(g.signal_families);
    row["any_regression"] = g.any_regression;
    row["platforms"] = Strings(g.platforms);
    row["browsers"] = Strings(g.browsers);
    row["oses"] = Strings(g.oses);
    row["session_count"] = g.session_count;
    row["user_count"] = g.user_count;
    rows.push_back(std::move(row));
  }
  return JsonResponse(200,
                      json::object{{"bugs", std::move(rows)}, {"total", page->total}, {"limit", *limit}});
}

Response HandleLive(const BugsDeps& deps, Context& ctx) {
  ports::BugScope scope;
  scope.org_id = ctx.principal.org_id;
  auto project = UuidParam(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  scope.project_id = *project;
  auto feed = FeedParam(ctx);
  if (!feed.ok()) return StatusResponse(feed.status());
  scope.feed = *feed;
  auto include = BoolParam(ctx, "includeDiagnostics", false);
  if (!include.ok()) return StatusResponse(include.status());
  const std::vector<std::string> classes =
      *include ? std::vector<std::string>{} : std::vector<std::string>{"issue", "watch"};
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultPageSize, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto rows = app::bugs::LiveFeed(deps, scope, classes, *limit);
  if (!rows.ok()) return StatusResponse(rows.status());
  json::array list;
  for (const auto& r : *rows) {
    json::object o = OccurrenceJson(r.occurrence);
    o["title"] = r.title;
    o["status"] = r.status;
    o["severity"] = r.severity;
    o["signal_class"] = r.signal_class;
    o["signal_family"] = r.signal_family;
    o["signal_reason"] = r.signal_reason;
    o["report_count"] = r.report_count;
    o["project_name"] = r.project_name;
    list.push_back(std::move(o));
  }
  return JsonResponse(
      200, json::object{{"occurrences", std::move(list)}, {"limit", *limit}, {"deliveryFeed", scope.feed}});
}

// A comma-separated list parameter whose items `valid` accepts.
template <typename Pred>
Result<std::vector<std::string>> ListParam(const Context& ctx, std::string_view name, Pred valid) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, Param(ctx, name));
  std::vector<std::string> out;
  if (!raw) return out;
  size_t start = 0;
  while (start <= raw->size()) {
    size_t comma = raw->find(',', start);
    if (comma == std::string::npos) comma = raw->size();
    std::string item = raw->substr(start, comma - start);
    if (!item.empty()) {
      if (!valid(item)) return BadParam("Invalid " + std::string(name));
      out.push_back(std::move(item));
    }
    start = comma + 1;
  }
  return out;
}

// One CSV cell (RFC 4180): quoted when it holds a comma, quote or line
// break; a cell starting with =, +, -, @, tab or carriage return gets a
// leading apostrophe so spreadsheets do not run it as a formula.
void AppendCsvCell(std::string& out, std::string_view v) {
  std::string cell;
  if (!v.empty() &&
      (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@' || v[0] == '\t' || v[0] == '\r')) {
    cell.push_back('\'');
  }
  cell.append(v);
  if (cell.find_first_of(",\"\r\n") == std::string::npos) {
    out.append(cell);
    return;
  }
  out.push_back('"');
  for (char c : cell) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

void AppendCsvRow(std::string& out, const ports::ExportRow& r) {
  AppendCsvCell(out, r.id);
  out.push_back(',');
  AppendCsvCell(out, r.title);
  out.push_back(',');
  AppendCsvCell(out, r.severity);
  out.push_back(',');
  AppendCsvCell(out, r.status);
  out.push_back(',');
  out.append(std::to_string(r.report_count));
  out.push_back(',');
  AppendCsvCell(out, r.url);
  out.push_back(',');
  out.append(util::FormatIso8601(r.first_seen));
  out.push_back(',');
  out.append(util::FormatIso8601(r.last_seen));
  out.push_back(',');
  out.append(util::FormatIso8601(r.created_at));
  out.append("\r\n");
}

std::string ExportJsonRow(const ports::ExportRow& r) {
  return json::serialize(json::object{{"id", r.id},
                                      {"title", r.title},
                                      {"severity", r.severity},
                                      {"status", r.status},
                                      {"report_count", r.report_count},
                                      {"url", r.url},
                                      {"first_seen", util::FormatIso8601(r.first_seen)},
                                      {"last_seen", util::FormatIso8601(r.last_seen)},
                                      {"created_at", util::FormatIso8601(r.created_at)}});
}

// The export body, one page of rows per piece: memory stays flat whatever
// the row count, and no transaction stays open while a slow client drains
// the socket.
class ExportStream : public ResponseStream {
 public:
  ExportStream(const BugsDeps& deps, ports::ExportFilter filter, int64_t rows, bool truncated, bool csv)
      : deps_(deps), filter_(std::move(filter)), rows_(rows), truncated_(truncated), csv_(csv) {}

  State Next(std::string* chunk) override {
    switch (phase_) {
      case Phase::kHead:
        phase_ = Phase::kRows;
        *chunk = csv_ ? "id,title,severity,status,report_count,url,first_seen,last_seen,created_at\r\n"
                      : "{\"bugs\":[";
        return State::kData;
      case Phase::kRows:
        if (sent_ < rows_) {
          auto page = app::bugs::ExportPage(deps_, filter_, cursor_,
                                            std::min(app::bugs::kExportPageRows, rows_ - sent_));
          if (!page.ok()) {
            // A failed page read ends the body early: the JSON stays
            // unterminated (a client's parser fails loudly) and a CSV is
            // short of X-Row-Count.
            phase_ = Phase::kDone;
            return State::kEnd;
          }
          if (!page->empty()) {
            for (const auto& r : *page) {
              if (csv_) {
                AppendCsvRow(*chunk, r);
              } else {
                if (sent_ > 0 || &r != &page->front()) chunk->push_back(',');
                chunk->append(ExportJsonRow(r));
              }
            }
            sent_ += static_cast<int64_t>(page->size());
            cursor_ = {page->back().last_seen, page->back().id};
            return State::kData;
          }
        }
        phase_ = Phase::kDone;
        if (!csv_) {
          *chunk = std::string("],\"count\":") + std::to_string(sent_) +
                   ",\"truncated\":" + (truncated_ ? "true" : "false") +
                   ",\"deliveryFeed\":" + json::serialize(json::value(filter_.scope.feed)) + "}";
          return State::kData;
        }
        return State::kEnd;
      case Phase::kDone:
        break;
    }
    return State::kEnd;
  }

 private:
  enum class Phase { kHead, kRows, kDone };

  const BugsDeps& deps_;
  const ports::ExportFilter filter_;
  const int64_t rows_;
  const bool truncated_;
  const bool csv_;
  Phase phase_ = Phase::kHead;
  ports::ExportCursor cursor_;
  int64_t sent_ = 0;
};

Response HandleExport(const BugsDeps& deps, Context& ctx) {
  const auto started = std::chrono::steady_clock::now();
  auto format = EnumParam(ctx, "format", [](const std::string& s) { return s == "json" || s == "csv"; });
  if (!format.ok()) return StatusResponse(format.status());
  const bool csv = format->value_or("json") == "csv";
  ports::ExportFilter f;
  f.scope.org_id = ctx.principal.org_id;
  auto project = UuidParam(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  f.scope.project_id = *project;
  auto feed = FeedParam(ctx);
  if (!feed.ok()) return StatusResponse(feed.status());
  f.scope.feed = *feed;
  auto statuses =
      ListParam(ctx, "status", [](const std::string& s) { return domain::capture::IsBugStatus(s); });
  if (!statuses.ok()) return StatusResponse(statuses.status());
  f.statuses = *statuses;
  auto severities =
      ListParam(ctx, "severity", [](const std::string& s) { return domain::capture::IsSeverity(s); });
  if (!severities.ok()) return StatusResponse(severities.status());
  f.severities = *severities;
  auto after = Param(ctx, "after");
  if (!after.ok()) return StatusResponse(after.status());
  if (*after) {
    std::optional<int64_t> at = util::ParseIso8601(**after);
    if (!at) return StatusResponse(BadParam("Invalid after"));
    f.after_ms = *at;
  }
  auto limit = IntParam(ctx, "limit", app::bugs::kExportDefaultLimit, 1, app::bugs::kExportMaxLimit);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto plan = app::bugs::PlanExport(deps, f, *limit);
  if (!plan.ok()) return StatusResponse(plan.status());

  Response res;
  res.status = 200;
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
          .count();
  res.headers.Add("Content-Type", csv ? "text/csv; charset=utf-8" : "application/json");
  if (csv) res.headers.Add("Content-Disposition", "attachment; filename=\"bugs.csv\"");
  res.headers.Add("X-Query-Ms", std::to_string(ms));
  res.headers.Add("X-Row-Count", std::to_string(plan->rows));
  if (plan->next_after_ms) res.headers.Add("X-Next-After", util::FormatIso8601(*plan->next_after_ms));
  res.stream = std::make_shared<ExportStream>(deps, std::move(f), plan->rows, plan->truncated, csv);
  return res;
}

Response HandleSimilar(const BugsDeps& deps, Context& ctx) {
  auto similar = app::bugs::FindSimilar(deps, Actor(ctx), ctx.params.Get("id"));
  if (!similar.ok()) return StatusResponse(similar.status());
  json::array list;
  for (const auto& s : *similar) {
    list.push_back(json::object{{"id", s.bug.id},
                                {"title", s.bug.title},
                                {"severity", s.bug.severity},
                                {"status", s.bug.status},
                                {"url", s.bug.url},
                                {"report_count", s.bug.report_count},
                                {"first_seen", util::FormatIso8601(s.bug.first_seen)},
                                {"last_seen", util::FormatIso8601(s.bug.last_seen)},
                                {"fingerprint", s.bug.fingerprint},
                                {"similarity_score", s.score}});
  }
  return JsonResponse(200, json::object{{"similar", std::move(list)}});
}

Response HandleAnomalies(const BugsDeps& deps, Context& ctx) {
  auto report = app::bugs::DetectBugAnomalies(deps, Actor(ctx), ctx.params.Get("id"));
  if (!report.ok()) return StatusResponse(report.status());
  json::array list;
  for (const auto& a : report->anomalies) {
    list.push_back(json::object{{"type", a.type},
                                {"severity", a.severity},
                                {"description", a.description},
                                {"evidence", Strings(a.evidence)},
                                {"timeRange", json::object{{"start", util::FormatIso8601(a.start_ms)},
                                                           {"end", util::FormatIso8601(a.end_ms)}}}});
  }
  return JsonResponse(200, json::object{{"anomalies", std::move(list)}, {"eventCount", report->event_count}});
}

json::object EndUserJson(const ports::EndUser& u) {
  return json::object{{"userKey", u.user_key},
                      {"kind", u.kind},
                      {"endUserId", OptText(u.end_user_id)},
                      {"email", OptText(u.email)},
                      {"firstSeen", util::FormatIso8601(u.first_seen)},
                      {"lastSeen", util::FormatIso8601(u.last_seen)},
                      {"occurrenceCount", u.occurrence_count},
                      {"platforms", Strings(u.platforms)},
                      {"lastRelease", OptText(u.last_release)},
                      {"lastEnvironment", OptText(u.last_environment)},
                      {"lastOccurrenceId", OptText(u.last_occurrence_id)}};
}

Response HandleBugUsers(const BugsDeps& deps, Context& ctx) {
  auto limit = IntParam(ctx, "limit", app::bugs::kDefaultPageSize, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto offset = IntParam(ctx, "offset", 0, 0, INT64_MAX);
  if (!offset.ok()) return StatusResponse(offset.status());
  auto page = app::bugs::ListBugUsers(deps, Actor(ctx), ctx.params.Get("id"), *limit, *offset);
  if (!page.ok()) return StatusResponse(page.status());
  json::array users;
  for (const auto& u : page->users) users.push_back(EndUserJson(u));
  return JsonResponse(
      200, json::object{
               {"users", std::move(users)}, {"total", page->total}, {"limit", *limit}, {"offset", *offset}});
}

Response HandleReporterBugs(const BugsDeps& deps, Context& ctx) {
  auto summary = app::bugs::ReporterBugs(deps, Actor(ctx), ctx.params.Get("email"));
  if (!summary.ok()) return StatusResponse(summary.status());
  json::array bugs;
  std::map<std::string, int64_t> severities;
  for (const auto& b : summary->bugs) {
    severities[b.severity]++;
    bugs.push_back(json::object{{"id", b.id},
                                {"title", b.title},
                                {"severity", b.severity},
                                {"status", b.status},
                                {"url", b.url},
                                {"first_seen", util::FormatIso8601(b.first_seen)},
                                {"last_seen", util::FormatIso8601(b.last_seen)},
                                {"report_count", b.report_count},
                                {"reported_at", util::FormatIso8601(b.reported_at)}});
  }
  json::object sev;
  for (const auto& [name, n] : severities) sev[name] = n;
  return JsonResponse(
      200, json::object{{"email", summary->email},
                        {"bugs", std::move(bugs)},
                        {"stats", json::object{{"total_bugs", summary->bugs.size()},
                                               {"first_report", OptTimeJson(summary->first_report)},
                                               {"last_report", OptTimeJson(summary->last_report)},
                                               {"severities", std::move(sev)}}}});
}

Response HandleEndUsers(const BugsDeps& deps, Context& ctx) {
  auto q = Param(ctx, "q");
  if (!q.ok()) return StatusResponse(q.status());
  auto limit = IntParam(ctx, "limit", app::bugs::kEndUserSearchDefault, 1, app::bugs::kEndUserSearchMax);
  if (!limit.ok()) return StatusResponse(limit.status());
  const std::string query = q->value_or("");
  auto hits = app::bugs::SearchEndUsers(deps, Actor(ctx), query, *limit);
  if (!hits.ok()) return StatusResponse(hits.status());
  json::array users;
  for (const auto& h : *hits) {
    users.push_back(json::object{{"userKey", h.user.user_key},
                                 {"kind", h.user.kind},
                                 {"endUserId", OptText(h.user.end_user_id)},
                                 {"email", OptText(h.user.email)},
                                 {"lastSeen", util::FormatIso8601(h.user.last_seen)},
                                 {"occurrenceCount", h.user.occurrence_count},
                                 {"bugCount", h.bug_count}});
  }
  return JsonResponse(200, json::object{{"query", query}, {"users", std::move(users)}});
}

Response HandleTimeline(const BugsDeps& deps, Context& ctx) {
  auto project = UuidParam(ctx, "projectId");
  if (!project.ok()) return StatusResponse(project.status());
  auto limit = IntParam(ctx, "limit", 100, 1, app::bugs::kMaxPageSize);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto offset = IntParam(ctx, "offset", 0, 0, INT64_MAX);
  if (!offset.ok()) return StatusResponse(offset.status());
  auto t =
      app::bugs::GetEndUserTimeline(deps, Actor(ctx), ctx.params.Get("userKey"), *project, *limit, *offset);
  if (!t.ok()) return StatusResponse(t.status());
  std::vector<std::string> emails = t->activity.emails;
  if (t->identity.email && std::find(emails.begin(), emails.end(), *t->identity.email) == emails.end()) {
    emails.push_back(*t->identity.email);
    std::sort(emails.begin(), emails.end());
  }
  json::array occurrences;
  for (const auto& r : t->rows) {
    const ports::Occurrence& o = r.occurrence;
    occurrences.push_back(json::object{{"id", o.id},
                                       {"bug_id", o.bug_id},
                                       {"project_id", o.project_id},
                                       {"project_name", r.project_name},
                                       {"title", r.title},
                                       {"severity", r.severity},
                                       {"status", r.status},
                                       {"signal_class", r.signal_class},
                                       {"platform", o.platform},
                                       {"release_version", OptText(o.release_version)},
                                       {"environment", OptText(o.environment)},
                                       {"url", OptText(o.url)},
                                       {"session_id", OptText(o.session_id)},
                                       {"browser", OptText(o.browser)},
                                       {"os", OptText(o.os)},
                                       {"occurred_at", util::FormatIso8601(o.occurred_at)}});
  }
  const ports::EndUser& u = t->identity;
  return JsonResponse(200,
                      json::object{{"identity", json::object{{"userKey", u.user_key},
                                                             {"kind", u.kind},
                                                             {"endUserId", OptText(u.end_user_id)},
                                                             {"emails", Strings(emails)},
                                                             {"firstSeen", util::FormatIso8601(u.first_seen)},
                                                             {"lastSeen", util::FormatIso8601(u.last_seen)},
                                                             {"occurrenceCount", u.occurrence_count},
                                                             {"bugCount", t->activity.bug_count},
                                                             {"sessionCount", t->activity.session_count},
                                                             {"platforms", Strings(u.platforms)}}},
                                   {"occurrences", std::move(occurrences)},
                                   {"total", t->total},
                                   {"limit", *limit},
                                   {"offset", *offset}});
}

}  // namespace

void RegisterBugInsightRoutes(Pipeline& p, const app::bugs::BugsDeps& deps) {
  Router& r = p.router();
  const auto add = [&](const char* pattern, Response (*fn)(const BugsDeps&, Context&)) {
    r.Add("GET", pattern, RateClass::kGeneral, AuthMode::kJwtOrg, domain::Capability::kViewBugs,
          Bind(deps, fn));
  };
  add("/v1/bugs/stats", HandleStats);
  add("/v1/bugs/recommended", HandleRecommended);
  add("/v1/bugs/live", HandleLive);
  add("/v1/bugs/export", HandleExport);
  add("/v1/bugs/:id/similar", HandleSimilar);
  // Open to agent tokens with read_bugs, get_repro_context, suggest_fix or
  // subscribe (Spec 1) on a granted project's bug (the end users of a bug:
  // repro context; bug_params.h AgentBugGate).
  r.Add("GET", "/v1/bugs/:id/users", RateClass::kGeneral, AuthMode::kJwtOrgOrAgent,
        domain::Capability::kViewBugs, [&deps](Context& ctx) {
          const Status gate = AgentBugGate(deps, ctx, ctx.params.Get("id"),
                                           {"read_bugs", "get_repro_context", "suggest_fix", "subscribe"});
          if (!gate.ok()) return StatusResponse(gate);
          return HandleBugUsers(deps, ctx);
        });
  add("/v1/bugs/:id/anomalies", HandleAnomalies);
  add("/v1/bugs/reporters/:email/bugs", HandleReporterBugs);
  add("/v1/end-users", HandleEndUsers);
  add("/v1/end-users/:userKey/timeline", HandleTimeline);
}

}  // namespace service::api
