// SQL behind ports::EndUserRepository. `platforms` is a JSON array of
// platform names kept in order of first appearance; the upsert appends a new
// name with portable string functions (LIKE, substr, length, ||) so no
// dialect-specific JSON function is needed.
#include <boost/json.hpp>

#include "ports/end_user_repository.h"

namespace service::store {
namespace {

constexpr std::string_view kTouchSql =
    "INSERT INTO end_users (org_id, user_key, kind, end_user_id, email, first_seen, last_seen, occurrence_count, "
    "platforms, last_release, last_environment, last_occurrence_id) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
    "ON CONFLICT (org_id, user_key) DO UPDATE SET "
    "end_user_id = COALESCE(excluded.end_user_id, end_users.end_user_id), "
    "email = COALESCE(excluded.email, end_users.email), "
    "last_seen = CASE WHEN end_users.last_seen < excluded.last_seen THEN excluded.last_seen "
    "ELSE end_users.last_seen END, "
    "occurrence_count = end_users.occurrence_count + 1, "
    "platforms = CASE WHEN end_users.platforms LIKE ? THEN end_users.platforms "
    "WHEN end_users.platforms = '[]' THEN excluded.platforms "
    "ELSE substr(end_users.platforms, 1, length(end_users.platforms) - 1) || ',' || "
    "substr(excluded.platforms, 2) END, "
    "last_release = COALESCE(excluded.last_release, end_users.last_release), "
    "last_environment = COALESCE(excluded.last_environment, end_users.last_environment), "
    "last_occurrence_id = excluded.last_occurrence_id";

class SqlEndUserRepository final : public ports::EndUserRepository {
 public:
  Status Touch(Connection& tx, const ports::EndUserSighting& s) override {
    // Platform names are the spec's enum values: no LIKE wildcards inside.
    const std::string quoted = boost::json::serialize(boost::json::string(s.platform));
    return tx
        .Exec(kTouchSql, {s.org_id, s.user_key, s.kind, OptText(s.end_user_id), OptText(s.email), s.seen_at,
                          s.seen_at, "[" + quoted + "]", OptText(s.release), OptText(s.environment),
                          s.occurrence_id, "%" + quoted + "%"})
        .status();
  }

  Result<std::optional<ports::EndUser>> Find(Connection& c, const std::string& org_id,
                                             const std::string& user_key) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, c.Query("SELECT org_id, user_key, kind, end_user_id, email, first_seen, last_seen, occurrence_count, "
                        "platforms, last_release, last_environment, last_occurrence_id FROM end_users "
                        "WHERE org_id = ? AND user_key = ?",
                        {org_id, user_key}));
    if (r.empty()) return std::optional<ports::EndUser>();
    ports::EndUser u;
    u.org_id = r.Str(0, 0);
    u.user_key = r.Str(0, 1);
    u.kind = r.Str(0, 2);
    u.end_user_id = r.OptStr(0, 3);
    u.email = r.OptStr(0, 4);
    u.first_seen = r.Int(0, 5);
    u.last_seen = r.Int(0, 6);
    u.occurrence_count = r.Int(0, 7);
    boost::system::error_code ec;
    boost::json::value platforms = boost::json::parse(r.Str(0, 8), ec);
    if (!ec && platforms.is_array()) {
      for (const auto& p : platforms.as_array()) {
        if (p.is_string()) u.platforms.emplace_back(p.as_string());
      }
    }
    u.last_release = r.OptStr(0, 9);
    u.last_environment = r.OptStr(0, 10);
    u.last_occurrence_id = r.OptStr(0, 11);
    return std::optional<ports::EndUser>(std::move(u));
  }
};

}  // namespace
}  // namespace service::store

namespace service::ports {
std::unique_ptr<EndUserRepository> NewSqlEndUserRepository() { return std::make_unique<store::SqlEndUserRepository>(); }
}  // namespace service::ports
