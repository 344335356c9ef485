// SQL behind ports::OccurrenceRepository. An occurrence's events are a JSON
// array in its own row (occurrences.events, the last column, so reads of the
// other columns never touch its overflow pages): one INSERT per report.
#include "areas/capture/ports/occurrence_repository.h"
#include "areas/capture/store/capture_sql.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"
#include "store/sql_arrays.h"

namespace service::store {
namespace {

constexpr std::string_view kInsertSql =
    "INSERT INTO occurrences (id, bug_id, project_id, org_id, reporter_email, reporter_id, ip_hash, "
    "session_id, "
    "end_user_id, user_key, user_kind, release_version, environment, url, user_agent, viewport, browser, os, "
    "platform, event_count, metadata, occurred_at, created_at, events) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

// PostgreSQL: the whole batch in one statement.
constexpr std::string_view kInsertManyPostgres =
    "INSERT INTO occurrences (id, bug_id, project_id, org_id, reporter_email, reporter_id, ip_hash, "
    "session_id, "
    "end_user_id, user_key, user_kind, release_version, environment, url, user_agent, viewport, browser, os, "
    "platform, event_count, metadata, occurred_at, created_at, events) "
    "SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), "
    "CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), "
    "CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), "
    "CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), "
    "CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS text[]))";

const std::string kColumns = OccurrenceColumns("");

ports::Occurrence FromRow(const Rows& r, size_t i) { return OccurrenceFromRow(r, i, 0); }

class SqlOccurrenceRepository final : public ports::OccurrenceRepository {
 public:
  Status Insert(ports::Tx& tx_tx, const std::vector<const ports::Occurrence*>& occurrences) override {
    Connection& tx = Sql(tx_tx);
    if (occurrences.empty()) return Status::Ok();
    if (tx.dialect() == Dialect::kPostgres) {
      PgTextArray id, bug, project, org, reporter_email, reporter_id, ip_hash, session, end_user, user_key,
          user_kind, release, env, url, ua, viewport, browser, os, platform, metadata, events;
      PgBigintArray event_count, occurred, created;
      for (const ports::Occurrence* o : occurrences) {
        id.Add(o->id);
        bug.Add(o->bug_id);
        project.Add(o->project_id);
        org.Add(o->org_id);
        reporter_email.Add(o->reporter_email);
        reporter_id.Add(o->reporter_id);
        ip_hash.Add(o->ip_hash);
        session.Add(o->session_id);
        end_user.Add(o->end_user_id);
        user_key.Add(o->user_key);
        user_kind.Add(o->user_kind);
        release.Add(o->release_version);
        env.Add(o->environment);
        url.Add(o->url);
        ua.Add(o->user_agent);
        viewport.Add(o->viewport);
        browser.Add(o->browser);
        os.Add(o->os);
        platform.Add(o->platform);
        event_count.Add(o->event_count);
        metadata.Add(o->metadata);
        occurred.Add(o->occurred_at);
        created.Add(o->created_at);
        events.Add(o->events_json.empty() ? std::optional<std::string>()
                                          : std::optional<std::string>(o->events_json));
      }
      return tx
          .Exec(kInsertManyPostgres,
                {id.Take(),          bug.Take(),      project.Take(), org.Take(),      reporter_email.Take(),
                 reporter_id.Take(), ip_hash.Take(),  session.Take(), end_user.Take(), user_key.Take(),
                 user_kind.Take(),   release.Take(),  env.Take(),     url.Take(),      ua.Take(),
                 viewport.Take(),    browser.Take(),  os.Take(),      platform.Take(), event_count.Take(),
                 metadata.Take(),    occurred.Take(), created.Take(), events.Take()})
          .status();
    }
    for (const ports::Occurrence* o : occurrences) {
      SV_RETURN_IF_ERROR(
          tx.Exec(kInsertSql, {o->id,
                               o->bug_id,
                               o->project_id,
                               o->org_id,
                               OptText(o->reporter_email),
                               OptText(o->reporter_id),
                               OptText(o->ip_hash),
                               OptText(o->session_id),
                               OptText(o->end_user_id),
                               o->user_key,
                               o->user_kind,
                               OptText(o->release_version),
                               OptText(o->environment),
                               OptText(o->url),
                               OptText(o->user_agent),
                               OptText(o->viewport),
                               OptText(o->browser),
                               OptText(o->os),
                               o->platform,
                               o->event_count,
                               o->metadata,
                               o->occurred_at,
                               o->created_at,
                               o->events_json.empty() ? Value(nullptr) : Value(o->events_json)})
              .status());
    }
    return Status::Ok();
  }

  Result<std::optional<ports::Occurrence>> Find(ports::Tx& c_tx, const std::string& org_id,
                                                const std::string& occurrence_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query(std::string("SELECT ") + kColumns + " FROM occurrences WHERE org_id = ? AND id = ?",
                        {org_id, occurrence_id}));
    if (r.empty()) return std::optional<ports::Occurrence>();
    return std::optional<ports::Occurrence>(FromRow(r, 0));
  }

  Result<std::optional<std::string>> Events(ports::Tx& c_tx, const std::string& org_id,
                                            const std::string& occurrence_id) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT events FROM occurrences WHERE org_id = ? AND id = ?",
                                        {org_id, occurrence_id}));
    if (r.empty()) return std::optional<std::string>();
    return std::optional<std::string>(r.IsNull(0, 0) ? std::string("[]") : r.Str(0, 0));
  }

  Result<std::vector<ports::Occurrence>> ListForBug(ports::Tx& c_tx, const std::string& org_id,
                                                    const std::string& bug_id,
                                                    const std::optional<std::string>& user_key, int64_t limit,
                                                    int64_t offset) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params = {org_id, bug_id};
    std::string sql = std::string("SELECT ") + kColumns + " FROM occurrences WHERE org_id = ? AND bug_id = ?";
    if (user_key) {
      sql += " AND user_key = ?";
      params.emplace_back(*user_key);
    }
    sql += " ORDER BY occurred_at DESC, id DESC LIMIT ? OFFSET ?";
    params.emplace_back(limit);
    params.emplace_back(offset);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    std::vector<ports::Occurrence> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back(FromRow(r, i));
    return out;
  }

  Result<int64_t> CountForBug(ports::Tx& c_tx, const std::string& org_id, const std::string& bug_id,
                              const std::optional<std::string>& user_key) override {
    Connection& c = Sql(c_tx);
    std::vector<Value> params = {org_id, bug_id};
    std::string sql = "SELECT COUNT(*) FROM occurrences WHERE org_id = ? AND bug_id = ?";
    if (user_key) {
      sql += " AND user_key = ?";
      params.emplace_back(*user_key);
    }
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, params));
    return r.Int(0, 0);
  }

  Result<std::vector<ports::OccurrenceRepository::OrganizationPlan>> OrganizationPlans(
      ports::Tx& c_tx, const std::string& after_org_id, int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(c_tx).Query("SELECT id, plan FROM organizations WHERE id > ? ORDER BY id LIMIT ?",
                                        {after_org_id, limit}));
    std::vector<OrganizationPlan> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back({r.Str(i, 0), r.Str(i, 1)});
    return out;
  }

  // Through the bugs first seen before the cutoff (index bugs_org_first_seen)
  // and each one's occurrences by time (index occurrences_bug), so the
  // ingest path pays for no index of its own. Events cascade (foreign key).
  Result<int64_t> DeleteOlderThan(ports::Tx& tx_tx, const std::string& org_id, int64_t before_ms,
                                  int64_t limit) override {
    return Sql(tx_tx).Exec(
        "DELETE FROM occurrences WHERE id IN (SELECT o.id FROM bugs b JOIN occurrences o ON o.bug_id = b.id "
        "AND o.occurred_at < ? WHERE b.org_id = ? AND b.first_seen < ? LIMIT ?)",
        {before_ms, org_id, before_ms, limit});
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::OccurrenceRepository> NewSqlOccurrenceRepository() {
  return std::make_unique<store::SqlOccurrenceRepository>();
}
}  // namespace service::store
