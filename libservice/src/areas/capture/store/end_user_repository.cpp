// SQL behind ports::EndUserRepository. `platforms` is a JSON array of
// platform names in order of first appearance; the upsert appends a new name
// with portable string functions (LIKE, substr, length, ||), so no
// dialect-specific JSON function is needed. A batch is folded to one row per
// end user first (an upsert may touch a row once), then written with one
// statement on PostgreSQL (unnest) or one per end user on SQLite.
#include <boost/json.hpp>
#include <map>

#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/store/capture_sql.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"
#include "store/sql_arrays.h"

namespace service::store {
namespace {

// The ON CONFLICT part shared by both forms. `excluded.platforms` holds one
// name; its quoted form is excluded.platforms without the brackets.
#define SV_END_USER_CONFLICT                                                                              \
  " ON CONFLICT (org_id, user_key) DO UPDATE SET "                                                        \
  "kind = CASE WHEN excluded.kind = 'user' THEN excluded.kind ELSE end_users.kind END, "                  \
  "end_user_id = COALESCE(excluded.end_user_id, end_users.end_user_id), "                                 \
  "email = COALESCE(excluded.email, end_users.email), "                                                   \
  "first_seen = CASE WHEN excluded.first_seen < end_users.first_seen THEN excluded.first_seen "           \
  "ELSE end_users.first_seen END, "                                                                       \
  "last_seen = CASE WHEN end_users.last_seen < excluded.last_seen THEN excluded.last_seen "               \
  "ELSE end_users.last_seen END, "                                                                        \
  "occurrence_count = end_users.occurrence_count + excluded.occurrence_count, "                           \
  "platforms = CASE WHEN end_users.platforms LIKE "                                                       \
  "'%' || substr(excluded.platforms, 2, length(excluded.platforms) - 2) || '%' THEN end_users.platforms " \
  "WHEN end_users.platforms = '[]' THEN excluded.platforms "                                              \
  "ELSE substr(end_users.platforms, 1, length(end_users.platforms) - 1) || ',' || "                       \
  "substr(excluded.platforms, 2) END, "                                                                   \
  "last_release = COALESCE(excluded.last_release, end_users.last_release), "                              \
  "last_environment = COALESCE(excluded.last_environment, end_users.last_environment), "                  \
  "last_occurrence_id = excluded.last_occurrence_id"

constexpr std::string_view kTouchSqlite =
    "INSERT INTO end_users (org_id, user_key, kind, end_user_id, email, first_seen, last_seen, "
    "occurrence_count, "
    "platforms, last_release, last_environment, last_occurrence_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
    "?)" SV_END_USER_CONFLICT;

constexpr std::string_view kTouchPostgres =
    "INSERT INTO end_users (org_id, user_key, kind, end_user_id, email, first_seen, last_seen, "
    "occurrence_count, "
    "platforms, last_release, last_environment, last_occurrence_id) "
    "SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), "
    "CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS text[]), "
    "CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]))" SV_END_USER_CONFLICT;

#undef SV_END_USER_CONFLICT

// Adds one more platform name (a second platform of one end user in a batch).
constexpr std::string_view kAddPlatformSql =
    "UPDATE end_users SET platforms = CASE WHEN platforms LIKE ? THEN platforms WHEN platforms = '[]' THEN ? "
    "ELSE substr(platforms, 1, length(platforms) - 1) || ',' || ? END WHERE org_id = ? AND user_key = ?";

// One end user's sightings of a batch, folded.
struct Folded {
  const ports::EndUserSighting* last = nullptr;
  std::optional<std::string> end_user_id;
  std::optional<std::string> email;
  std::optional<std::string> release;
  std::optional<std::string> environment;
  int64_t first_seen = 0;
  int64_t last_seen = 0;
  int64_t count = 0;
  std::vector<std::string> platforms;  // distinct, in order
};

std::string Quoted(const std::string& platform) {
  return boost::json::serialize(boost::json::string(platform));
}

class SqlEndUserRepository final : public ports::EndUserRepository {
 public:
  Status DeleteOrganization(ports::Tx& tx_tx, const std::string& org_id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("DELETE FROM end_users WHERE org_id = ?", {org_id}).status();
  }

  Status Touch(ports::Tx& tx_tx, const std::vector<ports::EndUserSighting>& sightings) override {
    Connection& tx = Sql(tx_tx);
    if (sightings.empty()) return Status::Ok();
    std::map<std::pair<std::string, std::string>, Folded> users;  // sorted: lock order
    for (const ports::EndUserSighting& s : sightings) {
      Folded& f = users[{s.org_id, s.user_key}];
      if (f.count == 0 || s.seen_at < f.first_seen) f.first_seen = s.seen_at;
      if (f.count == 0 || s.seen_at > f.last_seen) f.last_seen = s.seen_at;
      ++f.count;
      f.last = &s;
      if (s.end_user_id) f.end_user_id = s.end_user_id;
      if (s.email) f.email = s.email;
      if (s.release) f.release = s.release;
      if (s.environment) f.environment = s.environment;
      bool known = false;
      for (const auto& p : f.platforms) known = known || p == s.platform;
      if (!known) f.platforms.push_back(s.platform);
    }

    if (tx.dialect() == Dialect::kPostgres) {
      PgTextArray org, key, kind, id, email, platforms, release, env, occ;
      PgBigintArray first, last, count;
      for (const auto& [k, f] : users) {
        org.Add(k.first);
        key.Add(k.second);
        kind.Add(f.last->kind);
        id.Add(f.end_user_id);
        email.Add(f.email);
        first.Add(f.first_seen);
        last.Add(f.last_seen);
        count.Add(f.count);
        platforms.Add("[" + Quoted(f.platforms.front()) + "]");
        release.Add(f.release);
        env.Add(f.environment);
        occ.Add(f.last->occurrence_id);
      }
      SV_RETURN_IF_ERROR(tx.Exec(kTouchPostgres, {org.Take(), key.Take(), kind.Take(), id.Take(),
                                                  email.Take(), first.Take(), last.Take(), count.Take(),
                                                  platforms.Take(), release.Take(), env.Take(), occ.Take()})
                             .status());
    } else {
      for (const auto& [k, f] : users) {
        SV_RETURN_IF_ERROR(tx.Exec(kTouchSqlite, {k.first, k.second, f.last->kind, OptText(f.end_user_id),
                                                  OptText(f.email), f.first_seen, f.last_seen, f.count,
                                                  "[" + Quoted(f.platforms.front()) + "]", OptText(f.release),
                                                  OptText(f.environment), f.last->occurrence_id})
                               .status());
      }
    }
    // Rare: an end user seen on several platforms within one batch.
    for (const auto& [k, f] : users) {
      for (size_t i = 1; i < f.platforms.size(); ++i) {
        const std::string q = Quoted(f.platforms[i]);
        SV_RETURN_IF_ERROR(
            tx.Exec(kAddPlatformSql, {"%" + q + "%", "[" + q + "]", q + "]", k.first, k.second}).status());
      }
    }
    return Status::Ok();
  }

  Result<std::optional<ports::EndUser>> Find(ports::Tx& c_tx, const std::string& org_id,
                                             const std::string& user_key) override {
    Connection& c = Sql(c_tx);
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string("SELECT ") + kEndUserColumns +
                                            " FROM end_users WHERE org_id = ? AND user_key = ?",
                                        {org_id, user_key}));
    if (r.empty()) return std::optional<ports::EndUser>();
    return std::optional<ports::EndUser>(EndUserFromRow(r, 0));
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::EndUserRepository> NewSqlEndUserRepository() {
  return std::make_unique<store::SqlEndUserRepository>();
}
}  // namespace service::store
