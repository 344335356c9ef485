// SQL behind ports::PresenceRepository.
#include "areas/capture/ports/presence_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kUpsertSql =
    "INSERT INTO presence (project_id, session_id, org_id, user_id, reporter_id, url, path, title, referrer, "
    "event_type, visibility_state, interaction, metadata, last_seen) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (project_id, session_id) DO UPDATE SET org_id = excluded.org_id, "
    "user_id = COALESCE(excluded.user_id, presence.user_id), "
    "reporter_id = COALESCE(excluded.reporter_id, presence.reporter_id), "
    "url = excluded.url, path = excluded.path, title = excluded.title, referrer = excluded.referrer, "
    "event_type = excluded.event_type, visibility_state = excluded.visibility_state, "
    "interaction = excluded.interaction, metadata = excluded.metadata, "
    "last_seen = CASE WHEN presence.last_seen < excluded.last_seen THEN excluded.last_seen "
    "ELSE presence.last_seen END";

class SqlPresenceRepository final : public ports::PresenceRepository {
 public:
  Status DeleteOrganization(ports::Tx& tx_tx, const std::string& org_id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("DELETE FROM presence WHERE org_id = ?", {org_id}).status();
  }

  Status Upsert(ports::Tx& tx_tx, const ports::PresencePing& p) override {
    Connection& tx = Sql(tx_tx);
    return tx
        .Exec(kUpsertSql,
              {p.project_id, p.session_id, p.org_id, OptText(p.user_id), OptText(p.reporter_id),
               OptText(p.url), OptText(p.path), OptText(p.title), OptText(p.referrer), OptText(p.event_type),
               OptText(p.visibility_state), OptText(p.interaction_json), OptText(p.metadata_json), p.at})
        .status();
  }

  Result<ports::PresenceSnapshot> Snapshot(ports::Tx& c_tx, const std::string& org_id, int64_t since_ms,
                                           int64_t top_pages) override {
    Connection& c = Sql(c_tx);
    ports::PresenceSnapshot s;
    SV_ASSIGN_OR_RETURN(Rows totals,
                        c.Query("SELECT COUNT(*), COUNT(DISTINCT CASE WHEN user_id IS NOT NULL AND user_id "
                                "<> '' THEN 'u:' || user_id "
                                "WHEN reporter_id IS NOT NULL AND reporter_id <> '' THEN 'r:' || reporter_id "
                                "ELSE 's:' || project_id || ':' || session_id END) "
                                "FROM presence WHERE org_id = ? AND last_seen >= ?",
                                {org_id, since_ms}));
    s.active_sessions = totals.Int(0, 0);
    s.active_users = totals.Int(0, 1);
    SV_ASSIGN_OR_RETURN(Rows pages,
                        c.Query("SELECT path, COUNT(*) AS n FROM presence WHERE org_id = ? AND "
                                "last_seen >= ? AND path IS NOT NULL AND path <> '' GROUP BY path "
                                "ORDER BY n DESC, path ASC LIMIT ?",
                                {org_id, since_ms, top_pages}));
    for (size_t i = 0; i < pages.size(); ++i) s.pages.push_back({pages.Str(i, 0), pages.Int(i, 1)});
    return s;
  }

  Result<int64_t> DeleteOlderThan(ports::Tx& tx_tx, int64_t before_ms, int64_t limit) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec(
        "DELETE FROM presence WHERE (project_id, session_id) IN (SELECT project_id, session_id FROM presence "
        "WHERE last_seen < ? ORDER BY last_seen LIMIT ?)",
        {before_ms, limit});
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::PresenceRepository> NewSqlPresenceRepository() {
  return std::make_unique<store::SqlPresenceRepository>();
}
}  // namespace service::store
