// SQL behind ports::BugReadRepository, written once for both backends.
// Lists read the index bugs(org_id, last_seen DESC, project_id, id); the
// active-member rule is two LEFT JOINs (memberships, users) whose absence
// reads a stored assignee as null.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/bugs/store/bug_sql.h"
#include "areas/bugs/store/repositories.h"
#include "areas/capture/domain/vocabulary.h"
#include "store/database.h"

namespace service::store {
namespace {

// The ORDER BY of the grouped list over `g`: the window query's columns
// (gk, title), or bug_groups' (group_key, rep_title) when `maintained`.
std::string GroupOrder(ports::GroupSort sort, bool descending, bool maintained = false) {
  std::string key;
  bool seen_tie = false;  // first_seen and last_seen break on project, group key only
  switch (sort) {
    case ports::GroupSort::kLastSeen:
      key = "g.ls";
      seen_tie = true;
      break;
    case ports::GroupSort::kFirstSeen:
      key = "g.fs";
      seen_tie = true;
      break;
    case ports::GroupSort::kCount:
      key = "g.reports";
      break;
    case ports::GroupSort::kSeverity:
      key = "g.sev";
      break;
    case ports::GroupSort::kTitle:
      key = maintained ? "g.rep_title" : "lower(g.title)";
      break;
    case ports::GroupSort::kSignal:
      // Regressions first, then issue, watch, diagnostic (descending).
      key = "(g.reg * 10 + 2 - g.sig)";
      break;
    case ports::GroupSort::kAssignee:
      // Unassigned groups last in both directions.
      key = "CASE WHEN g.aname IS NULL THEN 1 ELSE 0 END, g.aname";
      break;
  }
  std::string order;
  order.reserve(96);
  order.append(key).append(descending ? " DESC" : " ASC");
  if (!seen_tie) order.append(", g.ls DESC");
  order.append(maintained ? ", g.project_id, g.group_key" : ", g.project_id, g.gk");
  return order;
}

// Whether `f` selects few bugs, so the grouped list starts from them.
bool Selective(const ports::BugFilter& f) {
  return !f.bug_ids.empty() || f.search || f.platform || f.assignee == ports::BugFilter::Assignee::kUser;
}

// The bug_groups bits of signal classes (migration 0010).
int64_t ClassBits(const std::vector<std::string>& classes) {
  int64_t bits = 0;
  for (const std::string& c : classes) bits |= c == "issue" ? 1 : c == "watch" ? 2 : 4;
  return bits;
}

using GroupKey = std::pair<std::string, std::string>;  // (project_id, group_key)

class SqlBugReadRepository final : public ports::BugReadRepository {
 public:
  Result<ports::BugPage> List(ports::Tx& c_tx, const ports::BugFilter& filter, int64_t limit,
                              int64_t offset) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params;
    const std::string where = Where(filter, params);
    ports::BugPage page;
    std::string tally_where;
    std::vector<Value> tally_params;
    if (TallyWhere(filter, &tally_where, &tally_params)) {
      SV_ASSIGN_OR_RETURN(
          Rows r, c.Query("SELECT COALESCE(SUM(t.n), 0) FROM bug_tallies t" + tally_where, tally_params));
      page.total = r.Int(0, 0);
    } else {
      SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT COUNT(*)") + " FROM bugs b" + where, params));
      page.total = r.Int(0, 0);
    }
    if (page.total == 0 || offset >= page.total) return page;
    params.emplace_back(limit);
    params.emplace_back(offset);
    // The page's ids first, its columns after: the skipped rows of a deep
    // page (offset 1000) are read from the index walk only, not projected
    // with the assignee's subqueries and the wide text columns (11 -> 3 ms
    // for offset 1000 on PostgreSQL).
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query(std::string("SELECT ") + kBugColumns + kBugFrom + " JOIN (SELECT b.id FROM bugs b" + where +
                    " ORDER BY b.last_seen DESC, b.project_id, b.id LIMIT ? OFFSET ?) k "
                    "ON k.id = b.id ORDER BY b.last_seen DESC, b.project_id, b.id",
                params));
    page.bugs.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) page.bugs.push_back(BugFromRow(r, i));
    return page;
  }

  Result<std::optional<ports::BugRecord>> Find(ports::Tx& c_tx, const std::string& org_id,
                                               const std::string& bug_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + kBugColumns + kBugFrom +
                                            " WHERE b.id = ? AND b.org_id = ? AND b.merged_into IS NULL",
                                        {bug_id, org_id}));
    if (r.empty()) return std::optional<ports::BugRecord>();
    return std::optional<ports::BugRecord>(BugFromRow(r, 0));
  }

  Result<std::vector<ports::ReporterRecord>> Reporters(ports::Tx& c_tx, const std::string& bug_id,
                                                       int64_t limit) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query("SELECT key, report_count, first_seen, last_seen FROM bug_participants "
                                "WHERE bug_id = ? AND kind = 'reporter' "
                                "ORDER BY report_count DESC, key LIMIT ?",
                                {bug_id, limit}));
    std::vector<ports::ReporterRecord> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Int(i, 1), r.Int(i, 2), r.Int(i, 3)});
    }
    return out;
  }

  Result<std::vector<ports::OccurrenceEvents>> Events(ports::Tx& c_tx, const std::string& bug_id,
                                                      const std::optional<std::string>& occurrence_id,
                                                      int64_t max_occurrences) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params = {bug_id};
    std::string sql = "SELECT id, occurred_at, COALESCE(events, '[]') FROM occurrences WHERE bug_id = ?";
    if (occurrence_id) {
      sql += " AND id = ?";
      params.emplace_back(*occurrence_id);
    }
    sql += " ORDER BY occurred_at DESC, id DESC LIMIT ?";
    params.emplace_back(max_occurrences);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::OccurrenceEvents> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back({r.Str(i, 0), r.Int(i, 1), r.Str(i, 2)});
    return out;
  }

  Result<std::vector<ports::HistoryRecord>> History(ports::Tx& c_tx, const std::string& bug_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query("SELECT h.id, h.old_status, h.new_status, h.note, h.changed_at, u.name, "
                                "u.email FROM status_history h LEFT JOIN users u ON u.id = h.changed_by "
                                "WHERE h.bug_id = ? ORDER BY h.changed_at DESC, h.id DESC",
                                {bug_id}));
    std::vector<ports::HistoryRecord> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.OptStr(i, 1), r.Str(i, 2), r.OptStr(i, 3), r.Int(i, 4), r.OptStr(i, 5),
                     r.OptStr(i, 6)});
    }
    return out;
  }

  Result<std::vector<ports::CommentRecord>> Comments(ports::Tx& c_tx, const std::string& bug_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT c.id, c.bug_id, c.user_id, u.name, u.email, c.content, "
                                        "c.created_at FROM comments c LEFT JOIN users u ON u.id = c.user_id "
                                        "WHERE c.bug_id = ? ORDER BY c.created_at, c.id",
                                        {bug_id}));
    std::vector<ports::CommentRecord> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back(
          {r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.OptStr(i, 3), r.OptStr(i, 4), r.Str(i, 5), r.Int(i, 6)});
    }
    return out;
  }

  Result<bool> IsWatching(ports::Tx& c_tx, const std::string& bug_id, const std::string& user_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query("SELECT 1 FROM watchers WHERE bug_id = ? AND user_id = ?", {bug_id, user_id}));
    return !r.empty();
  }

  Result<ports::GroupPage> Groups(ports::Tx& c_tx, const ports::BugFilter& filter, ports::GroupSort sort,
                                  bool descending, int64_t limit, int64_t offset) override {
    Connection& c = Sql(c_tx);
    // The assignee sort reads member assignees under the active-member
    // rule, which no maintained row can keep: it aggregates the members.
    if (sort != ports::GroupSort::kAssignee)
      return MaintainedGroups(c, filter, sort, descending, limit, offset);
    std::vector<Value> params;
    const std::string sel = std::string("SELECT DISTINCT b.project_id AS pid, b.group_key AS gk") +
                            " FROM bugs b" + Where(filter, params);
    ports::GroupPage page;
    {
      SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM (" + sel + ") s", params));
      page.total = r.Int(0, 0);
    }
    if (page.total == 0 || offset >= page.total) return page;
    params.emplace_back(filter.org_id);
    params.emplace_back(limit);
    params.emplace_back(offset);
    // One pass: window functions give each member its group's aggregates and
    // its rank; the representative rows (rn = 1) are sorted and paged. (A
    // join of the aggregated groups back to their members made PostgreSQL
    // nest-loop two unindexed CTEs: minutes at 100,000 bugs.)
    const std::string sql =
        "WITH sel AS (" + sel +
        "), m AS (SELECT b.id, b.project_id, b.group_key AS gk, b.title, b.description, b.signature, "
        "b.signal_reason, b.grouping_v3, b.status, b.report_count, b.first_seen, b.last_seen, "
        "b.is_regression, "
        "CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 "
        "ELSE 0 END AS sv, "
        "CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END AS sg, "
        "(SELECT lower(COALESCE(NULLIF(au.name, ''), au.email)) FROM memberships am JOIN users au ON au.id = "
        "am.user_id WHERE am.org_id = b.org_id AND am.user_id = b.assigned_to AND au.status = 'active') AS "
        "an, "
        "ROW_NUMBER() OVER (PARTITION BY b.project_id, b.group_key ORDER BY b.last_seen DESC, b.id DESC) AS "
        "rn "
        "FROM bugs b JOIN sel ON sel.pid = b.project_id AND sel.gk = b.group_key "
        "WHERE b.org_id = ? AND b.merged_into IS NULL), "
        "g AS (SELECT id, project_id, gk, title, description, signature, signal_reason, grouping_v3, status, "
        "rn, "
        "COUNT(*) OVER w AS n, SUM(report_count) OVER w AS reports, MIN(first_seen) OVER w AS fs, "
        "MAX(last_seen) OVER w AS ls, MAX(sv) OVER w AS sev, MAX(is_regression) OVER w AS reg, "
        "MIN(sg) OVER w AS sig, MIN(an) OVER w AS aname "
        "FROM m WINDOW w AS (PARTITION BY project_id, gk)) "
        "SELECT g.project_id, p.name, g.gk, g.id, g.title, g.description, g.signature, g.signal_reason, "
        "g.grouping_v3, g.status, g.n, g.reports, g.sev, g.reg, g.fs, g.ls "
        "FROM g JOIN projects p ON p.id = g.project_id WHERE g.rn = 1 ORDER BY " +
        GroupOrder(sort, descending) + " LIMIT ? OFFSET ?";
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    SV_RETURN_IF_ERROR(DecodeGroups(c, filter.org_id, r, page));
    return page;
  }

  Result<std::vector<std::string>> GroupProjects(ports::Tx& c_tx, const std::string& org_id,
                                                 const std::string& group_key) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query("SELECT DISTINCT project_id FROM bugs WHERE org_id = ? AND group_key = ? "
                                "AND merged_into IS NULL ORDER BY project_id",
                                {org_id, group_key}));
    std::vector<std::string> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(r.Str(i, 0));
    return out;
  }

  Result<ports::BugPage> GroupInstances(ports::Tx& c_tx, const std::string& org_id,
                                        const std::string& project_id, const std::string& group_key,
                                        int64_t limit, int64_t offset) override {
    Connection& c = Sql(c_tx);
    const std::string where =
        " WHERE b.org_id = ? AND b.project_id = ? AND b.group_key = ? AND b.merged_into IS NULL";
    ports::BugPage page;
    {
      SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT COUNT(*)") + " FROM bugs b" + where,
                                          {org_id, project_id, group_key}));
      page.total = r.Int(0, 0);
    }
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + kBugColumns + kBugFrom + where +
                                            " ORDER BY b.last_seen DESC, b.id LIMIT ? OFFSET ?",
                                        {org_id, project_id, group_key, limit, offset}));
    for (size_t i = 0; i < r.size(); ++i) page.bugs.push_back(BugFromRow(r, i));
    return page;
  }

  Result<std::vector<ports::DuplicateCandidateRecord>> DuplicateCandidates(ports::Tx& c_tx,
                                                                           const std::string& bug_id,
                                                                           int64_t limit) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query("SELECT d.id, o.id, o.title, d.score, d.reason, d.confidence, d.algorithm_version, d.state, "
                "d.created_at FROM duplicate_candidates d "
                "JOIN bugs o ON o.id = CASE WHEN d.bug_id = ? THEN d.other_bug_id ELSE d.bug_id END "
                "WHERE (d.bug_id = ? OR d.other_bug_id = ?) AND o.merged_into IS NULL "
                "ORDER BY d.score DESC, d.created_at DESC, d.id LIMIT ?",
                {bug_id, bug_id, bug_id, limit}));
    std::vector<ports::DuplicateCandidateRecord> out;
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Int(i, 3), r.Str(i, 4), r.Str(i, 5),
                     r.Str(i, 6), r.Str(i, 7), r.Int(i, 8)});
    }
    return out;
  }

 private:
  // The grouped list over bug_groups (migration 0010), walked in the sort's
  // index order: a filter of project and signal classes reads the group
  // rows alone; any other filter asks, per group, whether a member matches.
  static Result<ports::GroupPage> MaintainedGroups(Connection& c, const ports::BugFilter& filter,
                                                   ports::GroupSort sort, bool descending, int64_t limit,
                                                   int64_t offset) {
    // FROM and WHERE over bug_groups `g`, with their parameters in text order.
    std::string from = " FROM bug_groups g";
    std::vector<Value> params;
    std::string where;
    const bool rows_alone = !filter.status && !filter.unresolved && !filter.severity && !filter.search &&
                            !filter.platform && filter.assignee == ports::BugFilter::Assignee::kAny &&
                            filter.feed == "all" && filter.bug_ids.empty();
    if (!rows_alone && Selective(filter)) {
      // Few members match (search candidates, text, platform, a named
      // assignee): start from their groups, then sort those.
      from = " FROM (SELECT DISTINCT b.project_id AS pid, b.group_key AS gk FROM bugs b" +
             Where(filter, params) + ") s CROSS JOIN bug_groups g";
      where = " AND g.project_id = s.pid AND g.group_key = s.gk";
    }
    where = " WHERE g.org_id = ?" + where;
    params.emplace_back(filter.org_id);
    if (filter.project_id) {
      where += " AND g.project_id = ?";
      params.emplace_back(*filter.project_id);
    }
    if (rows_alone) {
      if (!filter.signal_classes.empty()) {
        where += " AND (g.classes & ?) <> 0";
        params.emplace_back(ClassBits(filter.signal_classes));
      }
    } else if (!Selective(filter)) {
      // Most groups have a matching member: walk the groups in the sort's
      // index order and ask each.
      where += " AND EXISTS (SELECT 1 FROM bugs b" + Where(filter, params) +
               " AND b.group_key = g.group_key AND b.project_id = g.project_id)";
    }
    ports::GroupPage page;
    if (rows_alone) {
      // Counted from bug_group_tallies (groups per project and classes).
      std::vector<Value> tally_params = {filter.org_id};
      std::string tally = "SELECT COALESCE(SUM(t.n), 0) FROM bug_group_tallies t WHERE t.org_id = ?";
      if (filter.project_id) {
        tally += " AND t.project_id = ?";
        tally_params.emplace_back(*filter.project_id);
      }
      if (!filter.signal_classes.empty()) {
        tally += " AND (t.classes & ?) <> 0";
        tally_params.emplace_back(ClassBits(filter.signal_classes));
      }
      SV_ASSIGN_OR_RETURN(Rows r, c.Query(tally, tally_params));
      page.total = r.Int(0, 0);
    } else {
      SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*)" + from + where, params));
      page.total = r.Int(0, 0);
    }
    if (page.total == 0 || offset >= page.total) return page;
    params.emplace_back(limit);
    params.emplace_back(offset);
    SV_ASSIGN_OR_RETURN(
        Rows r,
        c.Query("SELECT g.project_id, p.name, g.group_key, r.id, r.title, r.description, r.signature, "
                "r.signal_reason, r.grouping_v3, r.status, g.n, g.reports, g.sev, g.reg, g.fs, g.ls" +
                    from + " JOIN projects p ON p.id = g.project_id JOIN bugs r ON r.id = g.rep_id" + where +
                    " ORDER BY " + GroupOrder(sort, descending, true) + " LIMIT ? OFFSET ?",
                params));
    SV_RETURN_IF_ERROR(DecodeGroups(c, filter.org_id, r, page));
    return page;
  }

  // Decodes the grouped list's rows (both queries' column order) and
  // hydrates them.
  static Status DecodeGroups(Connection& c, const std::string& org_id, const Rows& r,
                             ports::GroupPage& page) {
    std::map<GroupKey, size_t> index;
    for (size_t i = 0; i < r.size(); ++i) {
      ports::GroupRecord g;
      g.project_id = r.Str(i, 0);
      g.project_name = r.Str(i, 1);
      g.group_key = r.Str(i, 2);
      g.sample_bug_id = r.Str(i, 3);
      g.sample_title = r.Str(i, 4);
      g.sample_description = r.Str(i, 5);
      g.signature = r.OptStr(i, 6);
      g.signal_reason = r.Str(i, 7);
      g.grouping_v3_json = r.OptStr(i, 8);
      g.status = r.Str(i, 9);
      g.instance_count = r.Int(i, 10);
      g.report_count = r.Int(i, 11);
      g.max_severity_rank = static_cast<int>(r.Int(i, 12));
      g.any_regression = r.Int(i, 13) != 0;
      g.first_seen = r.Int(i, 14);
      g.last_seen = r.Int(i, 15);
      index.emplace(GroupKey{g.project_id, g.group_key}, page.groups.size());
      page.groups.push_back(std::move(g));
    }
    return Hydrate(c, org_id, index, page.groups);
  }

  // Fills the member-derived fields of the page's groups: members, assignees,
  // signal classes, platforms (the members' bit sets), distinct sessions and
  // users, occurrence rows and open duplicate proposals reaching another
  // group.
  static Status Hydrate(Connection& c, const std::string& org_id, const std::map<GroupKey, size_t>& index,
                        std::vector<ports::GroupRecord>& groups) {
    if (groups.empty()) return Status::Ok();
    std::set<std::string> keys;
    for (const auto& g : groups) keys.insert(g.group_key);
    std::vector<Value> params = {org_id};
    for (const auto& k : keys) params.emplace_back(k);
    const std::string in = " AND b.group_key IN (" + Placeholders(keys.size()) + ")";
    auto find = [&](const std::string& project, const std::string& key) -> ports::GroupRecord* {
      auto it = index.find(GroupKey{project, key});
      return it == index.end() ? nullptr : &groups[it->second];
    };
    std::map<GroupKey, std::set<std::string>> assignees, classes;
    std::map<GroupKey, int64_t> platforms;  // bit sets (bugs.platforms)
    // A group of one bug takes its distinct sessions and users from the
    // bug's own counters (kept by capture and merge over the same
    // participant rows), a larger group from bug_group_reach.
    std::set<std::string> shared_keys;
    {
      SV_ASSIGN_OR_RETURN(
          Rows r, c.Query("SELECT b.project_id, b.group_key, b.id, b.signal_class, b.occurrence_count, "
                          "CASE WHEN " +
                              std::string(kActiveAssignee) +
                              " THEN b.assigned_to END, b.affected_session_count, b.affected_user_count, "
                              "b.platforms FROM bugs b WHERE b.org_id = ? AND b.merged_into IS NULL" +
                              in,
                          params));
      for (size_t i = 0; i < r.size(); ++i) {
        ports::GroupRecord* g = find(r.Str(i, 0), r.Str(i, 1));
        if (g == nullptr) continue;
        g->member_ids.push_back(r.Str(i, 2));
        classes[{g->project_id, g->group_key}].insert(r.Str(i, 3));
        g->occurrence_count += r.Int(i, 4);
        if (!r.IsNull(i, 5)) assignees[{g->project_id, g->group_key}].insert(r.Str(i, 5));
        g->session_count = r.Int(i, 6);
        g->user_count = r.Int(i, 7);
        platforms[{g->project_id, g->group_key}] |= r.Int(i, 8);
        if (g->member_ids.size() > 1) shared_keys.insert(g->group_key);
      }
    }
    if (!shared_keys.empty()) {
      // Larger groups: their distinct sessions and users as kept on write
      // (bug_group_reach, migration 0016).
      std::vector<Value> shared = {org_id};
      for (const auto& k : shared_keys) shared.emplace_back(k);
      SV_ASSIGN_OR_RETURN(Rows r,
                          c.Query("SELECT project_id, group_key, sessions, users FROM bug_group_reach "
                                  "WHERE org_id = ? AND group_key IN (" +
                                      Placeholders(shared_keys.size()) + ")",
                                  shared));
      for (auto& g : groups) {
        if (g.member_ids.size() > 1) g.session_count = g.user_count = 0;
      }
      for (size_t i = 0; i < r.size(); ++i) {
        ports::GroupRecord* g = find(r.Str(i, 0), r.Str(i, 1));
        if (g == nullptr || g->member_ids.size() < 2) continue;
        g->session_count = r.Int(i, 2);
        g->user_count = r.Int(i, 3);
      }
    }
    {
      // Proposals are stored once per pair: look from both sides.
      SV_ASSIGN_OR_RETURN(
          Rows r,
          c.Query("SELECT b.project_id, b.group_key, COUNT(*) FROM duplicate_candidates d "
                  "JOIN bugs b ON b.id = d.bug_id OR b.id = d.other_bug_id "
                  "JOIN bugs o ON o.id = CASE WHEN b.id = d.bug_id THEN d.other_bug_id ELSE d.bug_id END "
                  "WHERE d.state = 'open' AND b.org_id = ? AND b.merged_into IS NULL AND "
                  "o.merged_into IS NULL AND (o.project_id <> b.project_id OR o.group_key <> b.group_key)" +
                      in + " GROUP BY b.project_id, b.group_key",
                  params));
      for (size_t i = 0; i < r.size(); ++i) {
        if (ports::GroupRecord* g = find(r.Str(i, 0), r.Str(i, 1)))
          g->duplicate_candidate_count = r.Int(i, 2);
      }
    }
    for (auto& g : groups) {
      const GroupKey k{g.project_id, g.group_key};
      std::sort(g.member_ids.begin(), g.member_ids.end());
      g.assignees.assign(assignees[k].begin(), assignees[k].end());
      g.signal_classes.assign(classes[k].begin(), classes[k].end());
      g.platforms = domain::capture::PlatformsOf(platforms[k]);
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<ports::BugReadRepository> NewSqlBugReadRepository() {
  return std::make_unique<SqlBugReadRepository>();
}

}  // namespace service::store
