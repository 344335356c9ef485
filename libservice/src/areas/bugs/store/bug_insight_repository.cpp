// SQL behind ports::BugInsightRepository, written once for both backends.
// Stats read the index bugs(org_id, first_seen); the live feed and the
// timelines read occurrences(org_id, occurred_at DESC, id) and
// occurrences(org_id, user_key, occurred_at DESC); export walks
// bugs(org_id, last_seen DESC, project_id, id) by keyset.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "areas/bugs/ports/bug_insight_repository.h"
#include "areas/bugs/store/bug_sql.h"
#include "areas/bugs/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr int64_t kDayMs = 86'400'000;

// " WHERE b.org_id = ? AND b.merged_into IS NULL" plus project and feed.
std::string ScopeWhere(const ports::BugScope& s, std::vector<Value>& params) {
  std::string w = " WHERE b.org_id = ? AND b.merged_into IS NULL";
  params.emplace_back(s.org_id);
  if (s.project_id) {
    w += " AND b.project_id = ?";
    params.emplace_back(*s.project_id);
  }
  w += FeedClause(s.feed);
  return w;
}

// " WHERE ..." over a day table `d` (bug_days, bug_resolutions: migration
// 0010) for the days [first_day, end_day) of `s`.
std::string DayWhere(const ports::BugScope& s, int64_t first_day, int64_t end_day,
                     std::vector<Value>& params) {
  std::string w = " WHERE d.org_id = ? AND d.day >= ? AND d.day < ?";
  params.emplace_back(s.org_id);
  params.emplace_back(first_day);
  params.emplace_back(end_day);
  if (s.project_id) {
    w += " AND d.project_id = ?";
    params.emplace_back(*s.project_id);
  }
  if (s.feed == "urgent_critical") w += " AND d.urgent = 1";
  if (s.feed == "ui_ux") w += " AND d.ui_ux = 1";
  return w;
}

constexpr const char* kOpen = "b.status NOT IN ('resolved', 'silenced')";  // domain::capture::IsOpenStatus

using GroupKey = std::pair<std::string, std::string>;

class SqlBugInsightRepository final : public ports::BugInsightRepository {
 public:
  Result<std::vector<ports::BugDayTally>> BugDays(ports::Tx& c_tx, const ports::BugScope& scope,
                                                  int64_t first_day, int64_t end_day) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    // SQLite hands over the rows as stored (a GROUP BY costs it more than
    // the rows); PostgreSQL folds projects and shards first (its rows
    // cross the wire as text).
    // The organization-wide view reads the rollup without projects.
    const std::string table = scope.project_id ? "bug_days" : "bug_days_org";
    std::string sql;
    if (c.dialect() == Dialect::kPostgres) {
      sql =
          "SELECT d.day, d.status, d.severity, d.is_regression, SUM(d.n), SUM(d.reports), SUM(d.resolved_n), "
          "SUM(d.resolved_ms) FROM " +
          table + " d" + DayWhere(scope, first_day, end_day, params) +
          " GROUP BY d.day, d.status, d.severity, d.is_regression";
    } else {
      sql =
          "SELECT d.day, d.status, d.severity, d.is_regression, d.n, d.reports, d.resolved_n, d.resolved_ms "
          "FROM " +
          table + " d" + DayWhere(scope, first_day, end_day, params);
    }
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::BugDayTally> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Int(i, 0), r.Str(i, 1), r.Str(i, 2), r.Int(i, 3) != 0, r.Int(i, 4), r.Int(i, 5),
                     r.Int(i, 6), r.Int(i, 7)});
    }
    return out;
  }

  Result<std::vector<std::pair<int64_t, int64_t>>> OccurrenceDays(ports::Tx& c_tx,
                                                                  const ports::BugScope& scope,
                                                                  int64_t first_day,
                                                                  int64_t end_day) override {
    Connection& c = Sql(c_tx);
    Rows r;
    if (scope.feed == "all") {
      // Kept per project and day; a delivery feed is a property of each
      // occurrence's bug now, so a feed counts them below.
      std::vector<Value> params = {scope.org_id, first_day, end_day};
      std::string sql =
          "SELECT o.day, SUM(o.n) FROM occurrence_days o WHERE o.org_id = ? AND o.day >= ? AND o.day < ?";
      if (scope.project_id) {
        sql += " AND o.project_id = ?";
        params.emplace_back(*scope.project_id);
      }
      SV_ASSIGN_OR_RETURN(r, c.Query(sql + " GROUP BY o.day ORDER BY o.day", params));
    } else {
      std::vector<Value> params;
      const std::string sql =
          "SELECT o.occurred_at / " + std::to_string(kDayMs) +
          " AS d, COUNT(*) FROM occurrences o JOIN bugs b ON b.id = o.bug_id" + ScopeWhere(scope, params) +
          " AND o.org_id = b.org_id AND o.occurred_at >= ? AND o.occurred_at < ? GROUP BY d "
          "ORDER BY d";
      params.emplace_back(first_day * kDayMs);
      params.emplace_back(end_day * kDayMs);
      SV_ASSIGN_OR_RETURN(r, c.Query(sql, params));
    }
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t i = 0; i < r.size(); ++i) {
      if (r.Int(i, 1) != 0) out.emplace_back(r.Int(i, 0), r.Int(i, 1));
    }
    return out;
  }

  Result<std::vector<ports::TopBug>> TopOpen(ports::Tx& c_tx, const ports::BugScope& scope, int64_t from_ms,
                                             int64_t to_ms, int64_t limit) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    const std::string sql =
        "SELECT b.id, b.title, b.severity, b.status, b.url, b.report_count, b.first_seen, b.last_seen "
        "FROM bugs b" +
        ScopeWhere(scope, params) + " AND " + kOpen +
        // `+` keeps SQLite off the last_seen indexes: it walks the partial
        // index bugs_open_reports in this order and stops after `limit`.
        " AND +b.last_seen >= ? AND +b.last_seen < ? ORDER BY b.report_count DESC, b.last_seen DESC, b.id "
        "LIMIT ?";
    params.emplace_back(from_ms);
    params.emplace_back(to_ms);
    params.emplace_back(limit);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::TopBug> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Str(i, 4), r.Int(i, 5),
                     r.Int(i, 6), r.Int(i, 7)});
    }
    return out;
  }

  Result<std::optional<double>> MeanTimeToResolve(ports::Tx& c_tx, const ports::BugScope& scope,
                                                  int64_t first_day, int64_t end_day) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT SUM(d.n), SUM(d.ms) FROM bug_resolutions d" +
                                            DayWhere(scope, first_day, end_day, params),
                                        params));
    if (r.empty() || r.IsNull(0, 0) || r.Int(0, 0) <= 0) return std::optional<double>();
    return std::optional<double>(static_cast<double>(r.Int(0, 1)) / static_cast<double>(r.Int(0, 0)) /
                                 3'600'000.0);
  }

  Result<std::vector<ports::RecommendedGroup>> RecommendedGroups(ports::Tx& c_tx,
                                                                 const ports::RecommendedFilter& f) override {
    Connection& c = Sql(c_tx);
    // Groups with any member matching the member-level filters.
    ports::BugFilter member;
    member.org_id = f.org_id;
    member.project_id = f.project_id;
    member.search = f.search;
    member.signal_classes = f.signal_classes;
    member.platform = f.platform;
    if (f.assignee == ports::BugFilter::Assignee::kUser) {
      member.assignee = f.assignee;
      member.assignee_id = f.assignee_id;
    }
    std::vector<Value> sel_params;
    const std::string sel = std::string("SELECT DISTINCT b.project_id AS pid, b.group_key AS gk") +
                            " FROM bugs b" + Where(member, sel_params);
    std::vector<Value> params = sel_params;
    params.emplace_back(f.org_id);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("WITH sel AS (" + sel + ") SELECT " + kBugColumns + kBugFrom +
                                            " JOIN sel ON sel.pid = b.project_id AND sel.gk = b.group_key "
                                            "WHERE b.org_id = ? AND b.merged_into IS NULL",
                                        params));
    std::map<GroupKey, ports::RecommendedGroup> groups;
    std::map<GroupKey, std::set<std::string>> assignees, classes, families;
    for (size_t i = 0; i < r.size(); ++i) {
      ports::BugRecord b = BugFromRow(r, i);
      const GroupKey key{b.project_id, b.group_key};
      ports::RecommendedGroup& g = groups[key];
      g.instance_count++;
      g.report_total += b.report_count;
      g.occurrence_count += b.occurrence_count;
      g.first_seen = g.instance_count == 1 ? b.first_seen : std::min(g.first_seen, b.first_seen);
      g.last_seen = std::max(g.last_seen, b.last_seen);
      g.max_severity_rank = std::max(g.max_severity_rank, SeverityRankSql(b.severity));
      g.any_regression = g.any_regression || b.is_regression;
      g.any_open = g.any_open || (b.status != "resolved" && b.status != "silenced");
      g.member_ids.push_back(b.id);
      if (b.assigned_to) assignees[key].insert(*b.assigned_to);
      classes[key].insert(b.signal_class);
      if (!b.signal_family.empty()) families[key].insert(b.signal_family);
      const ports::BugRecord& rep = g.representative;
      if (g.instance_count == 1 || b.last_seen > rep.last_seen ||
          (b.last_seen == rep.last_seen && b.id > rep.id)) {
        g.representative = std::move(b);
      }
    }
    for (auto& [key, g] : groups) {
      std::sort(g.member_ids.begin(), g.member_ids.end());
      g.assignees.assign(assignees[key].begin(), assignees[key].end());
      g.signal_classes.assign(classes[key].begin(), classes[key].end());
      g.signal_families.assign(families[key].begin(), families[key].end());
    }
    // Group-level filters: `unassigned` means no member has an active
    // assignee; severity is the group's maximum; since is its last sighting.
    for (auto it = groups.begin(); it != groups.end();) {
      const ports::RecommendedGroup& g = it->second;
      bool keep = true;
      if (f.assignee == ports::BugFilter::Assignee::kUnassigned && !g.assignees.empty()) keep = false;
      if (f.severity && g.max_severity_rank != SeverityRankSql(*f.severity)) keep = false;
      if (f.since_ms && g.last_seen < *f.since_ms) keep = false;
      it = keep ? std::next(it) : groups.erase(it);
    }
    if (groups.empty()) return std::vector<ports::RecommendedGroup>();
    SV_RETURN_IF_ERROR(HydrateOccurrences(c, sel, sel_params, groups));
    std::vector<ports::RecommendedGroup> out;
    out.reserve(groups.size());
    for (auto& [key, g] : groups) out.push_back(std::move(g));
    return out;
  }

  // CROSS JOIN keeps occurrences the outer loop on SQLite (its planner
  // never reorders one), so the newest-first walk of occurrences(org_id,
  // occurred_at DESC, id) stops after `limit` matches; PostgreSQL treats it
  // as the inner join it is.
  Result<std::vector<ports::LiveRow>> Live(ports::Tx& c_tx, const ports::BugScope& scope,
                                           const std::vector<std::string>& signal_classes,
                                           int64_t limit) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    std::string sql = "SELECT " + OccurrenceColumns("o.") +
                      ", b.title, b.status, b.severity, b.signal_class, b.signal_family, b.signal_reason, "
                      "b.report_count, p.name FROM occurrences o CROSS JOIN bugs b JOIN projects p ON p.id = "
                      "b.project_id WHERE b.id = o.bug_id AND o.org_id = ? AND b.merged_into IS NULL";
    params.emplace_back(scope.org_id);
    if (scope.project_id) {
      sql += " AND o.project_id = ?";
      params.emplace_back(*scope.project_id);
    }
    sql += FeedClause(scope.feed);
    if (!signal_classes.empty()) {
      sql += " AND b.signal_class IN (" + Placeholders(signal_classes.size()) + ")";
      for (const auto& s : signal_classes) params.emplace_back(s);
    }
    sql += " ORDER BY o.occurred_at DESC, o.id DESC LIMIT ?";
    params.emplace_back(limit);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::LiveRow> out;
    out.reserve(r.size());
    constexpr size_t k = 23;  // occurrence columns
    for (size_t i = 0; i < r.size(); ++i) {
      ports::LiveRow row;
      row.occurrence = OccurrenceFromRow(r, i, 0);
      row.title = r.Str(i, k);
      row.status = r.Str(i, k + 1);
      row.severity = r.Str(i, k + 2);
      row.signal_class = r.Str(i, k + 3);
      row.signal_family = r.Str(i, k + 4);
      row.signal_reason = r.Str(i, k + 5);
      row.report_count = r.Int(i, k + 6);
      row.project_name = r.Str(i, k + 7);
      out.push_back(std::move(row));
    }
    return out;
  }

  Result<int64_t> ExportCount(ports::Tx& c_tx, const ports::ExportFilter& f, int64_t cap) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    std::string sql = "SELECT COUNT(*) FROM (SELECT 1 FROM bugs b" + ExportWhere(f, params) + " LIMIT ?) s";
    params.emplace_back(cap);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    return r.Int(0, 0);
  }

  Result<std::optional<ports::ExportCursor>> ExportPosition(ports::Tx& c_tx, const ports::ExportFilter& f,
                                                            int64_t index) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    std::string sql = "SELECT b.last_seen, b.id FROM bugs b" + ExportWhere(f, params) +
                      " ORDER BY b.last_seen, b.id LIMIT 1 OFFSET ?";
    params.emplace_back(index);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    if (r.empty()) return std::optional<ports::ExportCursor>();
    return std::optional<ports::ExportCursor>(ports::ExportCursor{r.Int(0, 0), r.Str(0, 1)});
  }

  Result<std::vector<ports::ExportRow>> ExportPage(ports::Tx& c_tx, const ports::ExportFilter& f,
                                                   const ports::ExportCursor& cursor,
                                                   int64_t limit) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    std::string sql =
        "SELECT b.id, b.title, b.severity, b.status, b.report_count, b.url, b.first_seen, b.last_seen, "
        "b.created_at FROM bugs b" +
        ExportWhere(f, params);
    if (cursor.last_seen >= 0) {
      // A row-value comparison: both backends turn it into one index range.
      sql += " AND (b.last_seen, b.id) > (?, ?)";
      params.emplace_back(cursor.last_seen);
      params.emplace_back(cursor.id);
    }
    sql += " ORDER BY b.last_seen, b.id LIMIT ?";
    params.emplace_back(limit);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::ExportRow> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Int(i, 4), r.Str(i, 5),
                     r.Int(i, 6), r.Int(i, 7), r.Int(i, 8)});
    }
    return out;
  }

  Result<std::vector<ports::SimilarCandidate>> SimilarCandidates(ports::Tx& c_tx, const std::string& org_id,
                                                                 const std::string& bug_id,
                                                                 const std::string& fingerprint,
                                                                 const std::vector<std::string>& words,
                                                                 int64_t limit) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params = {org_id, bug_id, fingerprint.substr(0, 4) + "%"};
    std::string sql =
        "SELECT b.id, b.title, b.severity, b.status, b.url, b.report_count, b.first_seen, b.last_seen, "
        "b.fingerprint FROM bugs b WHERE b.org_id = ? AND b.id <> ? AND b.merged_into IS NULL AND "
        "(b.fingerprint LIKE ?";
    for (const auto& w : words) {
      sql += " OR lower(b.title) LIKE ? ESCAPE '\\'";
      params.emplace_back(LikeContains(w));
    }
    sql += ") ORDER BY b.last_seen DESC, b.id LIMIT ?";
    params.emplace_back(limit);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::SimilarCandidate> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Str(i, 4), r.Int(i, 5),
                     r.Int(i, 6), r.Int(i, 7), r.Str(i, 8)});
    }
    return out;
  }

  Result<std::vector<ports::ReporterBug>> ReporterBugs(ports::Tx& c_tx, const std::string& org_id,
                                                       const std::string& email) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query("SELECT b.id, b.title, b.severity, b.status, b.url, b.first_seen, b.last_seen, "
                "bp.report_count, bp.last_seen, bp.first_seen FROM bug_participants bp JOIN bugs b ON b.id = "
                "bp.bug_id "
                "WHERE bp.kind = 'reporter' AND bp.key = ? AND b.org_id = ? AND b.merged_into IS NULL "
                "ORDER BY bp.last_seen DESC, b.id",
                {email, org_id}));
    std::vector<ports::ReporterBug> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Str(i, 4), r.Int(i, 5),
                     r.Int(i, 6), r.Int(i, 7), r.Int(i, 8), r.Int(i, 9)});
    }
    return out;
  }

  Result<std::vector<ports::EndUser>> SearchEndUsers(ports::Tx& c_tx, const std::string& org_id,
                                                     const std::string& prefix, int64_t limit) override {
    Connection& c = Sql(c_tx);
    std::string like;
    for (char ch : prefix) {
      if (ch == '%' || ch == '_' || ch == '\\') like.push_back('\\');
      like.push_back(ch);
    }
    like.push_back('%');
    std::string lower_like;
    for (char ch : like)
      lower_like.push_back((ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query(std::string("SELECT ") + kEndUserColumns +
                    " FROM end_users WHERE org_id = ? AND (user_key LIKE ? ESCAPE '\\' OR end_user_id "
                    "LIKE ? ESCAPE '\\' OR lower(email) LIKE ? ESCAPE '\\') "
                    "ORDER BY last_seen DESC, user_key LIMIT ?",
                {org_id, like, like, lower_like, limit}));
    std::vector<ports::EndUser> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(EndUserFromRow(r, i));
    return out;
  }

  Result<ports::EndUserActivity> EndUserActivityOf(ports::Tx& c_tx, const std::string& org_id,
                                                   const std::string& user_key) override {
    Connection& c = Sql(c_tx);
    ports::EndUserActivity a;
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(DISTINCT bug_id), COUNT(DISTINCT session_id) FROM "
                                        "occurrences WHERE org_id = ? AND user_key = ?",
                                        {org_id, user_key}));
    if (!r.empty()) {
      a.bug_count = r.Int(0, 0);
      a.session_count = r.Int(0, 1);
    }
    SV_ASSIGN_OR_RETURN(Rows e,
                        c.Query("SELECT DISTINCT lower(reporter_email) FROM occurrences WHERE org_id = ? "
                                "AND user_key = ? AND reporter_email IS NOT NULL ORDER BY 1",
                                {org_id, user_key}));
    for (size_t i = 0; i < e.size(); ++i) a.emails.push_back(e.Str(i, 0));
    return a;
  }

  Result<std::vector<ports::TimelineRow>> UserTimeline(ports::Tx& c_tx, const std::string& org_id,
                                                       const std::string& user_key,
                                                       const std::optional<std::string>& project_id,
                                                       int64_t limit, int64_t offset) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params = {org_id, user_key};
    std::string sql = "SELECT " + OccurrenceColumns("o.") +
                      ", b.title, b.severity, b.status, b.signal_class, p.name FROM occurrences o "
                      "JOIN bugs b ON b.id = o.bug_id JOIN projects p ON p.id = o.project_id "
                      "WHERE o.org_id = ? AND o.user_key = ?";
    if (project_id) {
      sql += " AND o.project_id = ?";
      params.emplace_back(*project_id);
    }
    sql += " ORDER BY o.occurred_at DESC, o.id LIMIT ? OFFSET ?";
    params.emplace_back(limit);
    params.emplace_back(offset);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::TimelineRow> out;
    constexpr size_t k = 23;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({OccurrenceFromRow(r, i, 0), r.Str(i, k), r.Str(i, k + 1), r.Str(i, k + 2),
                     r.Str(i, k + 3), r.Str(i, k + 4)});
    }
    return out;
  }

  Result<int64_t> CountUserTimeline(ports::Tx& c_tx, const std::string& org_id, const std::string& user_key,
                                    const std::optional<std::string>& project_id) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params = {org_id, user_key};
    std::string sql = "SELECT COUNT(*) FROM occurrences o WHERE o.org_id = ? AND o.user_key = ?";
    if (project_id) {
      sql += " AND o.project_id = ?";
      params.emplace_back(*project_id);
    }
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    return r.Int(0, 0);
  }

  Result<std::vector<ports::EndUser>> BugUsers(ports::Tx& c_tx, const std::string& org_id,
                                               const std::string& bug_id, int64_t limit,
                                               int64_t offset) override {
    Connection& c = Sql(c_tx);
    std::string cols;
    for (std::string_view col :
         {"org_id", "user_key", "kind", "end_user_id", "email", "first_seen", "last_seen", "occurrence_count",
          "platforms", "last_release", "last_environment", "last_occurrence_id"}) {
      if (!cols.empty()) cols += ", ";
      cols.append("u.").append(col);
    }
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query("SELECT " + cols +
                            " FROM bug_participants bp JOIN bugs b ON b.id = bp.bug_id AND b.org_id = ? "
                            "JOIN end_users u ON u.org_id = b.org_id AND u.user_key = bp.key "
                            "WHERE bp.bug_id = ? AND bp.kind = 'user' ORDER BY bp.last_seen DESC, bp.key "
                            "LIMIT ? OFFSET ?",
                        {org_id, bug_id, limit, offset}));
    std::vector<ports::EndUser> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(EndUserFromRow(r, i));
    return out;
  }

  Result<int64_t> CountBugUsers(ports::Tx& c_tx, const std::string& bug_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query("SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? AND kind = 'user'", {bug_id}));
    return r.Int(0, 0);
  }

 private:
  static int SeverityRankSql(const std::string& s) {
    if (s == "critical") return 4;
    if (s == "high") return 3;
    if (s == "medium") return 2;
    if (s == "low") return 1;
    return 0;
  }

  static std::string ExportWhere(const ports::ExportFilter& f, std::vector<Value>& params) {
    std::string w = ScopeWhere(f.scope, params);
    if (!f.statuses.empty()) {
      w += " AND b.status IN (" + Placeholders(f.statuses.size()) + ")";
      for (const auto& s : f.statuses) params.emplace_back(s);
    }
    if (!f.severities.empty()) {
      w += " AND b.severity IN (" + Placeholders(f.severities.size()) + ")";
      for (const auto& s : f.severities) params.emplace_back(s);
    }
    if (f.after_ms >= 0) {
      w += " AND b.last_seen > ?";
      params.emplace_back(f.after_ms);
    }
    return w;
  }

  // Platforms, browsers and operating systems from the members'
  // occurrences; distinct sessions and users from their participants.
  // `sel` selects the groups (pid, gk) with `params`.
  static Status HydrateOccurrences(Connection& c, const std::string& sel, const std::vector<Value>& params,
                                   std::map<GroupKey, ports::RecommendedGroup>& groups) {
    const std::string with = "WITH sel AS (" + sel + ") ";
    const std::string join = " JOIN sel ON sel.pid = b.project_id AND sel.gk = b.group_key ";
    std::map<GroupKey, std::set<std::string>> platforms, browsers, oses;
    {
      SV_ASSIGN_OR_RETURN(Rows r,
                          c.Query(with +
                                      "SELECT DISTINCT b.project_id, b.group_key, o.platform, o.browser, "
                                      "o.os FROM occurrences o JOIN bugs b ON b.id = o.bug_id" +
                                      join + "WHERE b.merged_into IS NULL",
                                  params));
      for (size_t i = 0; i < r.size(); ++i) {
        const GroupKey key{r.Str(i, 0), r.Str(i, 1)};
        if (groups.count(key) == 0) continue;
        if (!r.IsNull(i, 2)) platforms[key].insert(r.Str(i, 2));
        if (!r.IsNull(i, 3)) browsers[key].insert(r.Str(i, 3));
        if (!r.IsNull(i, 4)) oses[key].insert(r.Str(i, 4));
      }
    }
    {
      SV_ASSIGN_OR_RETURN(Rows r,
                          c.Query(with +
                                      "SELECT b.project_id, b.group_key, bp.kind, COUNT(DISTINCT bp.key) "
                                      "FROM bug_participants bp JOIN bugs b ON b.id = bp.bug_id" +
                                      join +
                                      "WHERE b.merged_into IS NULL AND bp.kind IN ('session', 'user') "
                                      "GROUP BY b.project_id, b.group_key, bp.kind",
                                  params));
      for (size_t i = 0; i < r.size(); ++i) {
        auto it = groups.find(GroupKey{r.Str(i, 0), r.Str(i, 1)});
        if (it == groups.end()) continue;
        (r.Str(i, 2) == "session" ? it->second.session_count : it->second.user_count) = r.Int(i, 3);
      }
    }
    for (auto& [key, g] : groups) {
      g.platforms.assign(platforms[key].begin(), platforms[key].end());
      g.browsers.assign(browsers[key].begin(), browsers[key].end());
      g.oses.assign(oses[key].begin(), oses[key].end());
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<ports::BugInsightRepository> NewSqlBugInsightRepository() {
  return std::make_unique<SqlBugInsightRepository>();
}

}  // namespace service::store
