#include "areas/bugs/store/bug_sql.h"

#include <boost/json.hpp>

namespace service::store {

const char* const kBugColumns =
    "b.id, b.org_id, b.project_id, p.name, b.fingerprint, b.title, b.description, b.url, b.severity, "
    "b.status, "
    "COALESCE(b.platform, ''), b.report_count, b.occurrence_count, b.reporter_count, b.affected_user_count, "
    "b.affected_session_count, b.latest_release, b.latest_environment, b.is_regression, b.signal_class, "
    "b.signal_family, b.signal_reason, b.classifier_confidence, b.ai_summary, "
    "(SELECT am.user_id FROM memberships am JOIN users au ON au.id = am.user_id "
    "WHERE am.org_id = b.org_id AND am.user_id = b.assigned_to AND au.status = 'active'), "
    "(SELECT COALESCE(NULLIF(au.name, ''), au.email) FROM memberships am JOIN users au ON au.id = am.user_id "
    "WHERE am.org_id = b.org_id AND am.user_id = b.assigned_to AND au.status = 'active'), "
    "b.agent_ack, b.agent_ack_by, b.agent_pr_url, b.signature, COALESCE(b.group_key, b.id), b.grouping_v3, "
    "b.ui_ux, b.first_seen, b.last_seen, b.created_at, b.updated_at, b.resolved_at";

// The bug and its project. The assignee is read by correlated subqueries,
// not LEFT JOINs: with joins, SQLite's planner gives up the
// bugs(org_id, last_seen DESC, ...) index walk and sorts every bug.
const char* const kBugFrom = " FROM bugs b JOIN projects p ON p.id = b.project_id";

const char* const kActiveAssignee =
    "EXISTS (SELECT 1 FROM memberships am JOIN users au ON au.id = am.user_id "
    "WHERE am.org_id = b.org_id AND am.user_id = b.assigned_to AND au.status = 'active')";

ports::BugRecord BugFromRow(const Rows& r, size_t i) {
  ports::BugRecord b;
  size_t k = 0;
  b.id = r.Str(i, k++);
  b.org_id = r.Str(i, k++);
  b.project_id = r.Str(i, k++);
  b.project_name = r.Str(i, k++);
  b.fingerprint = r.Str(i, k++);
  b.title = r.Str(i, k++);
  b.description = r.Str(i, k++);
  b.url = r.Str(i, k++);
  b.severity = r.Str(i, k++);
  b.status = r.Str(i, k++);
  b.platform = r.Str(i, k++);
  b.report_count = r.Int(i, k++);
  b.occurrence_count = r.Int(i, k++);
  b.reporter_count = r.Int(i, k++);
  b.affected_user_count = r.Int(i, k++);
  b.affected_session_count = r.Int(i, k++);
  b.latest_release = r.Str(i, k++);
  b.latest_environment = r.Str(i, k++);
  b.is_regression = r.Bool(i, k++);
  b.signal_class = r.Str(i, k++);
  b.signal_family = r.Str(i, k++);
  b.signal_reason = r.Str(i, k++);
  b.classifier_confidence = r.Str(i, k++);
  b.ai_summary_json = r.OptStr(i, k++);
  b.assigned_to = r.OptStr(i, k++);
  b.assignee_name = r.OptStr(i, k++);
  b.agent_ack = r.OptStr(i, k++);
  b.agent_ack_by = r.OptStr(i, k++);
  b.agent_pr_url = r.OptStr(i, k++);
  b.signature = r.OptStr(i, k++);
  b.group_key = r.Str(i, k++);
  b.grouping_v3_json = r.OptStr(i, k++);
  b.ui_ux = r.Bool(i, k++);
  b.first_seen = r.Int(i, k++);
  b.last_seen = r.Int(i, k++);
  b.created_at = r.Int(i, k++);
  b.updated_at = r.Int(i, k++);
  b.resolved_at = r.OptInt(i, k++);
  return b;
}

// `s` for LIKE with '\' as the escape character.
std::string LikeContains(const std::string& s) {
  std::string out = "%";
  for (char c : s) {
    if (c == '%' || c == '_' || c == '\\') out.push_back('\\');
    out.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c);
  }
  out.push_back('%');
  return out;
}

// " WHERE ..." for `f` over kBugFrom, appending its parameters.
std::string Where(const ports::BugFilter& f, std::vector<Value>& params) {
  std::string w = " WHERE b.org_id = ? AND b.merged_into IS NULL";
  params.emplace_back(f.org_id);
  if (f.project_id) {
    w += " AND b.project_id = ?";
    params.emplace_back(*f.project_id);
  }
  if (f.status) {
    w += " AND b.status = ?";
    params.emplace_back(*f.status);
  }
  if (f.unresolved) w += " AND b.status NOT IN ('resolved', 'silenced')";  // domain::capture::IsOpenStatus
  if (f.severity) {
    w += " AND b.severity = ?";
    params.emplace_back(*f.severity);
  }
  if (!f.signal_classes.empty()) {
    w += " AND b.signal_class IN (";
    for (size_t i = 0; i < f.signal_classes.size(); ++i) {
      w += i ? ", ?" : "?";
      params.emplace_back(f.signal_classes[i]);
    }
    w += ")";
  }
  if (f.search) {
    w += " AND (lower(b.title) LIKE ? ESCAPE '\\' OR lower(b.description) LIKE ? ESCAPE '\\')";
    params.emplace_back(LikeContains(*f.search));
    params.emplace_back(LikeContains(*f.search));
  }
  if (f.platform) {
    w += " AND b.id IN (SELECT o.bug_id FROM occurrences o WHERE o.org_id = ? AND o.platform = ?)";
    params.emplace_back(f.org_id);
    params.emplace_back(*f.platform);
  }
  switch (f.assignee) {
    case ports::BugFilter::Assignee::kAny:
      break;
    case ports::BugFilter::Assignee::kUser:
      w += " AND b.assigned_to = ? AND ";
      w += kActiveAssignee;
      params.emplace_back(f.assignee_id);
      break;
    case ports::BugFilter::Assignee::kUnassigned:
      w += " AND (b.assigned_to IS NULL OR NOT ";
      w += kActiveAssignee;
      w += ")";
      break;
  }
  w += FeedClause(f.feed);
  if (!f.bug_ids.empty()) {
    w += " AND b.id IN (" + Placeholders(f.bug_ids.size()) + ")";
    for (const std::string& id : f.bug_ids) params.emplace_back(id);
  }
  return w;
}

bool TallyWhere(const ports::BugFilter& f, std::string* where, std::vector<Value>* params) {
  if (f.search || f.platform || !f.bug_ids.empty()) return false;
  std::string& w = *where;
  w = " WHERE t.org_id = ?";
  params->emplace_back(f.org_id);
  if (f.project_id) {
    w += " AND t.project_id = ?";
    params->emplace_back(*f.project_id);
  }
  if (f.status) {
    w += " AND t.status = ?";
    params->emplace_back(*f.status);
  }
  if (f.unresolved) w += " AND t.status NOT IN ('resolved', 'silenced')";  // domain::capture::IsOpenStatus
  if (f.severity) {
    w += " AND t.severity = ?";
    params->emplace_back(*f.severity);
  }
  if (!f.signal_classes.empty()) {
    w += " AND t.signal_class IN (" + Placeholders(f.signal_classes.size()) + ")";
    for (const std::string& c : f.signal_classes) params->emplace_back(c);
  }
  // The active-member rule over the stored assignee ('' = none).
  const std::string active =
      "EXISTS (SELECT 1 FROM memberships am JOIN users au ON au.id = am.user_id "
      "WHERE am.org_id = t.org_id AND am.user_id = t.assigned_to AND au.status = 'active')";
  switch (f.assignee) {
    case ports::BugFilter::Assignee::kAny:
      break;
    case ports::BugFilter::Assignee::kUser:
      w += " AND t.assigned_to = ? AND " + active;
      params->emplace_back(f.assignee_id);
      break;
    case ports::BugFilter::Assignee::kUnassigned:
      w += " AND (t.assigned_to = '' OR NOT " + active + ")";
      break;
  }
  if (f.feed == "urgent_critical") w += " AND t.urgent = 1";
  if (f.feed == "ui_ux") w += " AND t.ui_ux = 1";
  return true;
}

std::string FeedClause(const std::string& feed) {
  if (feed == "urgent_critical") {
    // domain::capture::IsUrgentCritical, evaluated where the rows are.
    return " AND b.signal_class = 'issue' AND (b.severity = 'critical' OR (b.severity = 'high' AND "
           "(b.is_regression = 1 OR b.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', "
           "'http_5xx'))))";
  }
  if (feed == "ui_ux") return " AND b.ui_ux = 1";
  return "";
}

// "?, ?, ..." for n parameters.
std::string Placeholders(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += '?';
  }
  return out;
}

}  // namespace service::store
