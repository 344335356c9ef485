// SQL behind ports::AdminReadModel: the superadmin's read-only view over
// every area's tables (the admin area sits above all of them). Every
// statement is fixed text; filters append fixed fragments with `?`
// parameters; db/tables looks the requested name up in kTables and runs
// that entry's statements, so no request text ever reaches SQL.
#include <algorithm>

#include "areas/admin/domain/admin.h"
#include "areas/admin/ports/admin_read_model.h"
#include "areas/admin/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

using ports::AdminRecord;
using ports::AdminValue;

enum class Kind { kText, kInt, kBool, kTime };
struct Col {
  const char* name;
  Kind kind;
};

AdminValue Cell(const Rows& r, size_t i, size_t j, Kind kind) {
  if (r.IsNull(i, j)) return nullptr;
  switch (kind) {
    case Kind::kText:
      return r.Str(i, j);
    case Kind::kInt:
      return r.Int(i, j);
    case Kind::kBool:
      return r.Int(i, j) != 0;
    case Kind::kTime:
      return ports::AdminTime{r.Int(i, j)};
  }
  return nullptr;
}

std::vector<AdminRecord> Records(const Rows& r, const std::vector<Col>& cols) {
  std::vector<AdminRecord> out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    AdminRecord rec;
    rec.fields.reserve(cols.size());
    for (size_t j = 0; j < cols.size(); ++j)
      rec.fields.emplace_back(cols[j].name, Cell(r, i, j, cols[j].kind));
    out.push_back(std::move(rec));
  }
  return out;
}

// A LIKE pattern matching `s` anywhere, lower-cased, with its wildcards
// escaped (ESCAPE '\').
std::string LikeContains(const std::string& s) {
  std::string out = "%";
  for (char ch : s) {
    if (ch == '%' || ch == '_' || ch == '\\') out.push_back('\\');
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  }
  out.push_back('%');
  return out;
}

// A statement with its WHERE fragments and their parameters.
struct Filtered {
  std::vector<std::string> where;
  std::vector<Value> params;
  std::string Where() const {
    std::string out;
    for (size_t i = 0; i < where.size(); ++i) out += (i == 0 ? " WHERE " : " AND ") + where[i];
    return out;
  }
};

Result<ports::AdminPage> RunPage(Connection& c, const std::string& select_from, const std::string& count_from,
                                 const Filtered& f, const std::string& order, const std::vector<Value>& head,
                                 const ports::PageRequest& page, const std::vector<Col>& cols) {
  ports::AdminPage out;
  SV_ASSIGN_OR_RETURN(Rows n, c.Query("SELECT COUNT(*) FROM " + count_from + f.Where(), f.params));
  out.total = n.Int(0, 0);
  std::vector<Value> params = head;
  params.insert(params.end(), f.params.begin(), f.params.end());
  params.emplace_back(page.limit);
  params.emplace_back(page.offset);
  SV_ASSIGN_OR_RETURN(Rows r,
                      c.Query(select_from + f.Where() + " ORDER BY " + order + " LIMIT ? OFFSET ?", params));
  out.rows = Records(r, cols);
  return out;
}

constexpr const char* kActiveKey = "k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?)";

// ---- db/tables: the allowlist, each name bound to fixed statements ----

struct TableSql {
  const char* name;     // the spec's name
  const char* columns;  // what is shown, in order ("" : no table of ours)
  const char* from;     // FROM ... [WHERE ...] of our table
  const char* order;
  const char* empty_columns;  // for a name with no table: its documented columns
};

const TableSql kTables[] = {
    {"organizations", "id, name, slug, plan, prepaid_credits, created_at, updated_at", "organizations",
     "created_at, id", ""},
    {"users",
     "id, email, name, avatar_url, password_hash, email_verified, status, last_org_id, last_login_at, "
     "previous_login_at, created_at, updated_at",
     "users", "created_at, id", ""},
    {"team_memberships", "org_id, user_id, role, invited_by, created_at, updated_at", "memberships",
     "created_at, org_id, user_id", ""},
    {"projects", "id, org_id, name, slug, platform, created_at", "projects", "created_at, id", ""},
    {"api_keys",
     "id, org_id, project_id, env, prefix, key_hash, label, expires_at, last_used, revoked_at, created_by, "
     "created_at",
     "capture_keys", "created_at, id", ""},
    {"bug_reports",
     "id, org_id, project_id, key_env, fingerprint, signature_hash, title, severity, status, platform, "
     "report_count, "
     "occurrence_count, merged_into, first_seen, last_seen, created_at, updated_at, resolved_at",
     "bugs", "created_at, id", ""},
    {"bug_reporters",
     "bug_id, key AS email, report_count, first_seen AS first_reported_at, last_seen AS last_reported_at",
     "bug_participants WHERE kind = 'reporter'", "first_seen, bug_id, key", ""},
    {"bug_events",
     "id, bug_id, org_id, project_id, session_id, release_version, environment, url, platform, event_count, "
     "occurred_at",
     "occurrences", "occurred_at, id", ""},
    {"bug_attachments", "", "", "",
     "id, bug_id, org_id, project_id, file_name, content_type, byte_count, created_at"},
    {"bug_comments", "id, bug_id, org_id, user_id, content, created_at", "comments", "created_at, id", ""},
    {"bug_status_history", "id, bug_id, org_id, old_status, new_status, note, changed_by, changed_at",
     "status_history", "changed_at, id", ""},
    {"notification_preferences",
     "user_id, org_id, email_level, chat_enabled, in_app_enabled, digest_freq, updated_at",
     "notification_preferences", "updated_at, user_id, org_id", ""},
    {"notifications", "id, user_id, org_id, type, title, body, bug_id, actor_id, read, created_at",
     "notifications", "created_at, id", ""},
    {"bug_watchers", "bug_id, user_id, org_id, created_at", "watchers", "created_at, bug_id, user_id", ""},
    {"refresh_tokens",
     "id, user_id, org_id, token_hash, revision, expires_at, created_at, used_at, revoked_at",
     "refresh_tokens", "created_at, id", ""},
    {"integrations",
     "id, org_id, project_id, type, name, config_view, events, is_active, delivery_feed, min_severity, "
     "secret_mask, "
     "bearer_last4, created_at, updated_at",
     "integrations", "created_at, id", ""},
    {"password_reset_tokens", "id, user_id, token_hash, expires_at, consumed_at, created_at",
     "email_tokens WHERE kind = 'password_reset'", "created_at, id", ""},
    {"ai_usage", "id, org_id, feature, provider, model, input_tokens, output_tokens, succeeded, created_at",
     "ai_usage", "created_at, id", ""},
    {"integration_deliveries",
     "id, org_id, project_id, integration_id, bug_id, event_id, event_type, schedule, status, attempts, "
     "response_code, error_message, created_at, completed_at",
     "integration_deliveries", "created_at, id", ""},
    {"waitlist_entries",
     "id, email, name, org_name, use_case, status, approval_token_hash, approval_expires_at, target_org_id, "
     "admin_note, created_at, updated_at",
     "waitlist", "created_at, id", ""},
};

const TableSql* FindTable(std::string_view name) {
  for (const TableSql& t : kTables)
    if (name == t.name) return &t;
  return nullptr;
}

std::vector<std::string> SplitColumns(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view part = list.substr(start, end - start);
    // "expr AS name": the name.
    if (const size_t as = part.find(" AS "); as != std::string_view::npos) part = part.substr(as + 4);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (!part.empty()) out.emplace_back(part);
    start = end + 1;
  }
  return out;
}

AdminValue RawCell(const Value& v) {
  if (std::holds_alternative<std::nullptr_t>(v)) return nullptr;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<int64_t>(*d);
  return std::get<std::string>(v);
}

// Rows of an organization per table (delete-org's answer and its check).
struct FootprintSql {
  const char* name;
  const char* sql;  // one `?`: the organization id
};
const FootprintSql kFootprint[] = {
    {"organizations", "SELECT COUNT(*) FROM organizations WHERE id = ?"},
    {"team_memberships", "SELECT COUNT(*) FROM memberships WHERE org_id = ?"},
    {"projects", "SELECT COUNT(*) FROM projects WHERE org_id = ?"},
    {"api_keys", "SELECT COUNT(*) FROM capture_keys WHERE org_id = ?"},
    {"bug_reports", "SELECT COUNT(*) FROM bugs WHERE org_id = ?"},
    {"bug_reporters",
     "SELECT COUNT(*) FROM bug_participants r JOIN bugs b ON b.id = r.bug_id WHERE r.kind = 'reporter' AND "
     "b.org_id = "
     "?"},
    {"bug_events", "SELECT COUNT(*) FROM occurrences WHERE org_id = ?"},
    {"bug_comments", "SELECT COUNT(*) FROM comments WHERE org_id = ?"},
    {"bug_status_history", "SELECT COUNT(*) FROM status_history WHERE org_id = ?"},
    {"notification_preferences", "SELECT COUNT(*) FROM notification_preferences WHERE org_id = ?"},
    {"notifications", "SELECT COUNT(*) FROM notifications WHERE org_id = ?"},
    {"bug_watchers", "SELECT COUNT(*) FROM watchers WHERE org_id = ?"},
    {"integrations", "SELECT COUNT(*) FROM integrations WHERE org_id = ?"},
    {"ai_usage", "SELECT COUNT(*) FROM ai_usage WHERE org_id = ?"},
    {"integration_deliveries", "SELECT COUNT(*) FROM integration_deliveries WHERE org_id = ?"},
    {"waitlist_entries", "SELECT COUNT(*) FROM waitlist WHERE target_org_id = ?"},
    {"customer_profiles", "SELECT COUNT(*) FROM customer_profiles WHERE org_id = ?"},
    {"end_users", "SELECT COUNT(*) FROM end_users WHERE org_id = ?"},
    {"usage_counters", "SELECT COUNT(*) FROM usage_counters WHERE org_id = ?"},
};

class SqlAdminReadModel final : public ports::AdminReadModel {
 public:
  Result<AdminRecord> Counts(ports::Tx& tx) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(tx).Query("SELECT (SELECT COUNT(*) FROM users), (SELECT COUNT(*) FROM organizations), "
                              "(SELECT COUNT(*) FROM projects), (SELECT COUNT(*) FROM bugs), "
                              "(SELECT COUNT(*) FROM occurrences), (SELECT COUNT(*) FROM capture_keys), "
                              "(SELECT COUNT(*) FROM waitlist WHERE status = 'pending')"));
    return Records(r, {{"users", Kind::kInt},
                       {"organizations", Kind::kInt},
                       {"projects", Kind::kInt},
                       {"bugs", Kind::kInt},
                       {"events", Kind::kInt},
                       {"api_keys", Kind::kInt},
                       {"waitlist_pending", Kind::kInt}})
        .at(0);
  }

  Result<ports::DailyCounts> Daily(ports::Tx& tx, ports::GrowthSeries series, int64_t since_day) override {
    const char* sql = "";
    switch (series) {
      case ports::GrowthSeries::kUsers:
        sql =
            "SELECT created_at / 86400000, COUNT(*) FROM users WHERE created_at >= ? GROUP BY created_at / "
            "86400000";
        break;
      case ports::GrowthSeries::kOrganizations:
        sql =
            "SELECT created_at / 86400000, COUNT(*) FROM organizations WHERE created_at >= ? GROUP BY "
            "created_at / "
            "86400000";
        break;
      case ports::GrowthSeries::kBugs:
        sql =
            "SELECT created_at / 86400000, COUNT(*) FROM bugs WHERE created_at >= ? GROUP BY created_at / "
            "86400000";
        break;
    }
    SV_ASSIGN_OR_RETURN(Rows r, Sql(tx).Query(sql, {since_day * domain::admin::kDayMs}));
    ports::DailyCounts out;
    for (size_t i = 0; i < r.size(); ++i) out[r.Int(i, 0)] += r.Int(i, 1);
    return out;
  }

  Result<ports::AdminPage> Organizations(ports::Tx& tx, const std::optional<std::string>& search,
                                         const ports::PageRequest& page) override {
    Filtered f;
    if (search) {
      f.where.push_back("(lower(o.name) LIKE ? ESCAPE '\\' OR lower(o.slug) LIKE ? ESCAPE '\\')");
      f.params = {LikeContains(*search), LikeContains(*search)};
    }
    return RunPage(Sql(tx),
                   "SELECT o.id, o.name, o.slug, o.plan, o.created_at, "
                   "(SELECT COUNT(*) FROM memberships m WHERE m.org_id = o.id), "
                   "(SELECT COUNT(*) FROM projects p WHERE p.org_id = o.id) FROM organizations o",
                   "organizations o", f, "o.created_at DESC, o.id", {}, page,
                   {{"id", Kind::kText},
                    {"name", Kind::kText},
                    {"slug", Kind::kText},
                    {"plan", Kind::kText},
                    {"created_at", Kind::kTime},
                    {"member_count", Kind::kInt},
                    {"project_count", Kind::kInt}});
  }

  static std::string CustomerSelect() {
    return "SELECT o.id, o.name, o.slug, o.plan, o.created_at, "
           "COALESCE(cp.lifecycle_stage, 'trial'), COALESCE(cp.billing_status, 'unassigned'), "
           "COALESCE(cp.admin_notes, ''), "
           "COALESCE(cp.contact_name, (SELECT u.name FROM memberships m JOIN users u ON u.id = m.user_id "
           "WHERE "
           "m.org_id = o.id AND m.role = 'admin' ORDER BY m.created_at, u.id LIMIT 1), w.name), "
           "COALESCE(cp.contact_email, (SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id "
           "WHERE "
           "m.org_id = o.id AND m.role = 'admin' ORDER BY m.created_at, u.id LIMIT 1), w.email), "
           "COALESCE(cp.use_case, w.use_case), w.id, w.status, w.created_at, "
           "(SELECT COUNT(*) FROM memberships m WHERE m.org_id = o.id), "
           "(SELECT COUNT(*) FROM projects p WHERE p.org_id = o.id), "
           "(SELECT COUNT(*) FROM capture_keys k WHERE k.org_id = o.id AND " +
           std::string(kActiveKey) +
           "), "
           "(SELECT COUNT(*) FROM bugs b WHERE b.org_id = o.id AND b.merged_into IS NULL), "
           "(SELECT COUNT(*) FROM bugs b WHERE b.org_id = o.id AND b.merged_into IS NULL AND b.status NOT IN "
           "('resolved', 'silenced')), "
           "(SELECT MAX(b.last_seen) FROM bugs b WHERE b.org_id = o.id), "
           "(SELECT MAX(u.last_login_at) FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id "
           "= o.id) "
           "FROM organizations o LEFT JOIN customer_profiles cp ON cp.org_id = o.id "
           "LEFT JOIN waitlist w ON w.target_org_id = o.id";
  }
  static const std::vector<Col>& CustomerCols() {
    static const std::vector<Col> kCols = {{"id", Kind::kText},
                                           {"name", Kind::kText},
                                           {"slug", Kind::kText},
                                           {"plan", Kind::kText},
                                           {"created_at", Kind::kTime},
                                           {"lifecycle_stage", Kind::kText},
                                           {"billing_status", Kind::kText},
                                           {"admin_notes", Kind::kText},
                                           {"contact_name", Kind::kText},
                                           {"contact_email", Kind::kText},
                                           {"use_case", Kind::kText},
                                           {"waitlist_id", Kind::kText},
                                           {"waitlist_status", Kind::kText},
                                           {"waitlist_created_at", Kind::kTime},
                                           {"counts.members", Kind::kInt},
                                           {"counts.projects", Kind::kInt},
                                           {"counts.active_keys", Kind::kInt},
                                           {"counts.bugs", Kind::kInt},
                                           {"counts.open_bugs", Kind::kInt},
                                           {"last_bug_seen", Kind::kTime},
                                           {"last_member_login", Kind::kTime}};
    return kCols;
  }

  Result<ports::AdminPage> Customers(ports::Tx& tx, const ports::CustomerFilter& filter,
                                     const ports::PageRequest& page) override {
    Filtered f;
    if (filter.search) {
      f.where.push_back(
          "(lower(o.name) LIKE ? ESCAPE '\\' OR lower(o.slug) LIKE ? ESCAPE '\\' OR "
          "lower(COALESCE(cp.contact_email, "
          "'')) LIKE ? ESCAPE '\\')");
      const std::string p = LikeContains(*filter.search);
      f.params.insert(f.params.end(), {p, p, p});
    }
    if (filter.stage) {
      f.where.push_back("COALESCE(cp.lifecycle_stage, 'trial') = ?");
      f.params.emplace_back(*filter.stage);
    }
    if (filter.plan) {
      f.where.push_back("o.plan = ?");
      f.params.emplace_back(*filter.plan);
    }
    if (filter.billing_status) {
      f.where.push_back("COALESCE(cp.billing_status, 'unassigned') = ?");
      f.params.emplace_back(*filter.billing_status);
    }
    return RunPage(Sql(tx), CustomerSelect(),
                   "organizations o LEFT JOIN customer_profiles cp ON cp.org_id = o.id", f,
                   "o.created_at DESC, o.id", {page.now_ms}, page, CustomerCols());
  }

  Result<std::optional<AdminRecord>> Customer(ports::Tx& tx, const std::string& org_id,
                                              int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(tx).Query(CustomerSelect() + " WHERE o.id = ?", {now_ms, org_id}));
    if (r.empty()) return std::optional<AdminRecord>();
    return std::optional<AdminRecord>(Records(r, CustomerCols()).at(0));
  }

  Result<std::vector<AdminRecord>> Team(ports::Tx& tx, const std::string& org_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(tx).Query("SELECT u.id, u.email, u.name, u.email_verified, u.last_login_at, m.role, "
                              "m.created_at FROM memberships m JOIN users u ON u.id = m.user_id "
                              "WHERE m.org_id = ? ORDER BY m.created_at, u.id",
                              {org_id}));
    return Records(r, {{"id", Kind::kText},
                       {"email", Kind::kText},
                       {"name", Kind::kText},
                       {"email_verified", Kind::kBool},
                       {"last_login", Kind::kTime},
                       {"role", Kind::kText},
                       {"joined_at", Kind::kTime}});
  }

  Result<std::vector<AdminRecord>> CustomerProjects(ports::Tx& tx, const std::string& org_id,
                                                    int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(tx).Query("SELECT p.id, p.name, p.slug, p.platform, p.created_at, "
                      "(SELECT COUNT(*) FROM bugs b WHERE b.project_id = p.id AND b.merged_into IS NULL), "
                      "(SELECT COUNT(*) FROM capture_keys k WHERE k.project_id = p.id AND " +
                          std::string(kActiveKey) +
                          "), (SELECT MAX(k.last_used) FROM capture_keys k WHERE k.project_id = p.id) "
                          "FROM projects p WHERE p.org_id = ? ORDER BY p.created_at, p.id",
                      {now_ms, org_id}));
    return Records(r, {{"id", Kind::kText},
                       {"name", Kind::kText},
                       {"slug", Kind::kText},
                       {"platform", Kind::kText},
                       {"created_at", Kind::kTime},
                       {"bug_count", Kind::kInt},
                       {"active_keys", Kind::kInt},
                       {"last_key_used", Kind::kTime}});
  }

  Result<ports::AdminPage> Users(ports::Tx& tx, const std::optional<std::string>& search,
                                 const ports::PageRequest& page) override {
    Filtered f;
    if (search) {
      f.where.push_back("(lower(u.email) LIKE ? ESCAPE '\\' OR lower(u.name) LIKE ? ESCAPE '\\')");
      f.params = {LikeContains(*search), LikeContains(*search)};
    }
    return RunPage(
        Sql(tx),
        "SELECT u.id, u.email, u.name, u.status, u.email_verified, u.last_login_at, u.created_at FROM "
        "users u",
        "users u", f, "u.created_at DESC, u.id", {}, page,
        {{"id", Kind::kText},
         {"email", Kind::kText},
         {"name", Kind::kText},
         {"status", Kind::kText},
         {"email_verified", Kind::kBool},
         {"last_login", Kind::kTime},
         {"created_at", Kind::kTime}});
  }

  Result<std::vector<AdminRecord>> OrgsOfUsers(ports::Tx& tx,
                                               const std::vector<std::string>& user_ids) override {
    if (user_ids.empty()) return std::vector<AdminRecord>();
    // One placeholder per id: the text depends on the count only.
    std::string sql =
        "SELECT m.user_id, m.org_id, m.role, o.name FROM memberships m JOIN organizations o ON o.id = "
        "m.org_id "
        "WHERE m.user_id IN (";
    std::vector<Value> params;
    for (size_t i = 0; i < user_ids.size(); ++i) {
      sql += i == 0 ? "?" : ", ?";
      params.emplace_back(user_ids[i]);
    }
    sql += ") ORDER BY m.created_at, m.org_id";
    SV_ASSIGN_OR_RETURN(Rows r, Sql(tx).Query(sql, params));
    return Records(
        r,
        {{"user_id", Kind::kText}, {"orgId", Kind::kText}, {"role", Kind::kText}, {"orgName", Kind::kText}});
  }

  Result<ports::AdminPage> Waitlist(ports::Tx& tx, const std::optional<std::string>& search,
                                    const std::optional<std::string>& status,
                                    const ports::PageRequest& page) override {
    Filtered f;
    if (search) {
      f.where.push_back(
          "(lower(w.email) LIKE ? ESCAPE '\\' OR lower(w.name) LIKE ? ESCAPE '\\' OR lower(w.org_name) LIKE "
          "? ESCAPE "
          "'\\')");
      const std::string p = LikeContains(*search);
      f.params.insert(f.params.end(), {p, p, p});
    }
    if (status) {
      f.where.push_back("w.status = ?");
      f.params.emplace_back(*status);
    }
    return RunPage(
        Sql(tx),
        "SELECT w.id, w.email, w.name, w.org_name, w.use_case, w.status, w.target_org_id, w.admin_note, "
        "w.approval_expires_at, w.created_at, w.updated_at FROM waitlist w",
        "waitlist w", f, "w.created_at DESC, w.id", {}, page,
        {{"id", Kind::kText},
         {"email", Kind::kText},
         {"name", Kind::kText},
         {"org_name", Kind::kText},
         {"use_case", Kind::kText},
         {"status", Kind::kText},
         {"target_org_id", Kind::kText},
         {"admin_note", Kind::kText},
         {"approval_expires_at", Kind::kTime},
         {"created_at", Kind::kTime},
         {"updated_at", Kind::kTime}});
  }

  Result<ports::AdminPage> Projects(ports::Tx& tx, const ports::PageRequest& page) override {
    return RunPage(Sql(tx),
                   "SELECT p.id, p.org_id, o.name, p.name, p.slug, p.platform, p.created_at, "
                   "(SELECT COUNT(*) FROM bugs b WHERE b.project_id = p.id AND b.merged_into IS NULL), "
                   "(SELECT COUNT(*) FROM capture_keys k WHERE k.project_id = p.id AND " +
                       std::string(kActiveKey) + ") FROM projects p JOIN organizations o ON o.id = p.org_id",
                   "projects p", Filtered{}, "p.created_at DESC, p.id", {page.now_ms}, page,
                   {{"id", Kind::kText},
                    {"org_id", Kind::kText},
                    {"org_name", Kind::kText},
                    {"name", Kind::kText},
                    {"slug", Kind::kText},
                    {"platform", Kind::kText},
                    {"created_at", Kind::kTime},
                    {"bug_count", Kind::kInt},
                    {"active_keys", Kind::kInt}});
  }

  Result<ports::AdminPage> Keys(ports::Tx& tx, const ports::PageRequest& page) override {
    const int64_t now_ms = page.now_ms;
    SV_ASSIGN_OR_RETURN(
        ports::AdminPage out,
        RunPage(
            Sql(tx),
            "SELECT k.id, k.org_id, o.name, k.project_id, p.name, k.env, k.prefix, k.label, k.created_at, "
            "k.last_used, k.expires_at, k.revoked_at, CASE WHEN " +
                std::string(kActiveKey) +
                " THEN 1 ELSE 0 END FROM capture_keys k JOIN projects p ON p.id = k.project_id "
                "JOIN organizations o ON o.id = k.org_id",
            "capture_keys k", Filtered{}, "k.created_at DESC, k.id", {now_ms}, page,
            {{"id", Kind::kText},
             {"org_id", Kind::kText},
             {"org_name", Kind::kText},
             {"project_id", Kind::kText},
             {"project_name", Kind::kText},
             {"env", Kind::kText},
             {"prefix", Kind::kText},
             {"label", Kind::kText},
             {"created_at", Kind::kTime},
             {"last_used", Kind::kTime},
             {"expires_at", Kind::kTime},
             {"revoked_at", Kind::kTime},
             {"active", Kind::kBool}}));
    return out;
  }

  Result<AdminRecord> KeyStats(ports::Tx& tx, int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(tx).Query("SELECT COUNT(*), COALESCE(SUM(CASE WHEN " + std::string(kActiveKey) +
                          " THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN k.last_used >= ? THEN 1 ELSE 0 "
                          "END), 0), COALESCE(SUM(CASE WHEN k.last_used IS NULL THEN 1 ELSE 0 END), 0) "
                          "FROM capture_keys k",
                      {now_ms, now_ms - domain::admin::kDayMs}));
    return Records(r, {{"total_keys", Kind::kInt},
                       {"active_keys", Kind::kInt},
                       {"used_last_24h", Kind::kInt},
                       {"never_used", Kind::kInt}})
        .at(0);
  }

  Result<std::vector<AdminRecord>> Activity(ports::Tx& tx, int64_t limit) override {
    Connection& c = Sql(tx);
    std::vector<AdminRecord> out;
    auto add = [&](std::string type, std::string id, std::string summary, std::string detail, int64_t ts) {
      AdminRecord rec;
      rec.fields = {{"type", std::move(type)},
                    {"id", std::move(id)},
                    {"summary", std::move(summary)},
                    {"detail", std::move(detail)},
                    {"ts", ports::AdminTime{ts}}};
      out.push_back(std::move(rec));
    };
    SV_ASSIGN_OR_RETURN(Rows bugs,
                        c.Query("SELECT b.id, b.title, p.name, o.name, b.created_at FROM bugs b JOIN "
                                "projects p ON p.id = b.project_id JOIN organizations o ON o.id = b.org_id "
                                "ORDER BY b.created_at DESC, b.id LIMIT ?",
                                {limit}));
    for (size_t i = 0; i < bugs.size(); ++i)
      add("bug_filed", bugs.Str(i, 0), bugs.Str(i, 1), bugs.Str(i, 3) + " / " + bugs.Str(i, 2),
          bugs.Int(i, 4));
    SV_ASSIGN_OR_RETURN(Rows changes,
                        c.Query("SELECT h.id, b.title, h.old_status, h.new_status, h.changed_at FROM "
                                "status_history h JOIN bugs b ON b.id = h.bug_id "
                                "ORDER BY h.changed_at DESC, h.id LIMIT ?",
                                {limit}));
    for (size_t i = 0; i < changes.size(); ++i) {
      const std::string from = changes.IsNull(i, 2) ? std::string("none") : changes.Str(i, 2);
      add("status_change", changes.Str(i, 0), changes.Str(i, 1), from + " -> " + changes.Str(i, 3),
          changes.Int(i, 4));
    }
    SV_ASSIGN_OR_RETURN(Rows users, c.Query("SELECT id, email, name, created_at FROM users "
                                            "ORDER BY created_at DESC, id LIMIT ?",
                                            {limit}));
    for (size_t i = 0; i < users.size(); ++i)
      add("user_signup", users.Str(i, 0), users.Str(i, 1), users.Str(i, 2), users.Int(i, 3));
    return out;
  }

  Result<std::vector<std::pair<std::string, int64_t>>> TableCounts(ports::Tx& tx) override {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const TableSql& t : kTables) {
      if (std::string_view(t.columns).empty()) {
        out.emplace_back(t.name, 0);
        continue;
      }
      SV_ASSIGN_OR_RETURN(Rows r, Sql(tx).Query(std::string("SELECT COUNT(*) FROM ") + t.from));
      out.emplace_back(t.name, r.Int(0, 0));
    }
    return out;
  }

  Result<std::optional<ports::AdminTable>> Table(ports::Tx& tx, const std::string& name,
                                                 const ports::PageRequest& page) override {
    const TableSql* t = FindTable(name);
    if (!t) return std::optional<ports::AdminTable>();
    ports::AdminTable out;
    if (std::string_view(t->columns).empty()) {
      out.columns = SplitColumns(t->empty_columns);
      return std::optional<ports::AdminTable>(std::move(out));
    }
    out.columns = SplitColumns(t->columns);
    Connection& c = Sql(tx);
    SV_ASSIGN_OR_RETURN(Rows n, c.Query(std::string("SELECT COUNT(*) FROM ") + t->from));
    out.total = n.Int(0, 0);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + t->columns + " FROM " + t->from +
                                            " ORDER BY " + t->order + " LIMIT ? OFFSET ?",
                                        {page.limit, page.offset}));
    for (const auto& row : r.data) {
      std::vector<AdminValue> cells;
      cells.reserve(out.columns.size());
      for (size_t j = 0; j < out.columns.size() && j < row.size(); ++j) {
        if (domain::admin::IsRedactedColumn(out.columns[j]) &&
            !std::holds_alternative<std::nullptr_t>(row[j])) {
          cells.emplace_back(std::string(domain::admin::kRedacted));
        } else {
          cells.push_back(RawCell(row[j]));
        }
      }
      out.rows.push_back(std::move(cells));
    }
    return std::optional<ports::AdminTable>(std::move(out));
  }

  Result<ports::AiUsageRollup> AiUsage(ports::Tx& tx, int64_t since_ms) override {
    Connection& c = Sql(tx);
    ports::AiUsageRollup out;
    SV_ASSIGN_OR_RETURN(Rows s, c.Query("SELECT COUNT(*), COALESCE(SUM(input_tokens), 0), "
                                        "COALESCE(SUM(output_tokens), 0) FROM ai_usage WHERE created_at >= ?",
                                        {since_ms}));
    out.total_calls = s.Int(0, 0);
    out.total_input_tokens = s.Int(0, 1);
    out.total_output_tokens = s.Int(0, 2);
    SV_ASSIGN_OR_RETURN(Rows d, c.Query("SELECT created_at / 86400000, COUNT(*), COALESCE(SUM(input_tokens + "
                                        "output_tokens), 0) FROM ai_usage WHERE created_at >= ? "
                                        "GROUP BY created_at / 86400000",
                                        {since_ms}));
    for (size_t i = 0; i < d.size(); ++i) {
      ports::AiUsageDay& day = out.daily[d.Int(i, 0)];
      day.calls += d.Int(i, 1);
      day.tokens += d.Int(i, 2);
    }
    SV_ASSIGN_OR_RETURN(
        Rows f, c.Query("SELECT feature, provider, model, COUNT(*), COALESCE(SUM(input_tokens + "
                        "output_tokens), 0) FROM ai_usage WHERE created_at >= ? "
                        "GROUP BY feature, provider, model ORDER BY COUNT(*) DESC, feature, provider, "
                        "model",
                        {since_ms}));
    out.by_feature = Records(f, {{"feature", Kind::kText},
                                 {"provider", Kind::kText},
                                 {"model", Kind::kText},
                                 {"calls", Kind::kInt},
                                 {"tokens", Kind::kInt}});
    return out;
  }

  Result<std::vector<std::pair<std::string, int64_t>>> OrganizationFootprint(
      ports::Tx& tx, const std::string& org_id) override {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const FootprintSql& f : kFootprint) {
      SV_ASSIGN_OR_RETURN(Rows r, Sql(tx).Query(f.sql, {org_id}));
      out.emplace_back(f.name, r.Int(0, 0));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<ports::AdminReadModel> NewSqlAdminReadModel() {
  return std::make_unique<SqlAdminReadModel>();
}

}  // namespace service::store
