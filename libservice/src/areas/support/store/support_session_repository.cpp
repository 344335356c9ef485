// SQL behind ports::SupportSessionRepository.
#include "areas/support/ports/support_session_repository.h"
#include "areas/support/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kSessionColumns =
    "s.id, s.org_id, s.user_id, s.operator_email, s.mode, s.created_at, s.expires_at, s.ended_at";

ports::SupportSession SessionAt(const Rows& r, size_t i) {
  ports::SupportSession s;
  s.id = r.Str(i, 0);
  s.org_id = r.Str(i, 1);
  s.user_id = r.Str(i, 2);  // NULL (forgotten operator) reads as ""
  s.operator_email = r.Str(i, 3);
  s.mode = r.Str(i, 4);
  s.created_at = r.Int(i, 5);
  s.expires_at = r.Int(i, 6);
  s.ended_at = r.OptInt(i, 7);
  return s;
}

class SqlSupportSessionRepository final : public ports::SupportSessionRepository {
 public:
  Status Insert(ports::Tx& t, const ports::SupportSession& s) override {
    return Sql(t)
        .Exec(
            "INSERT INTO support_sessions (id, org_id, user_id, operator_email, mode, created_at, "
            "expires_at, "
            "ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            {s.id, s.org_id, s.user_id.empty() ? Null() : Value(s.user_id), s.operator_email, s.mode,
             s.created_at, s.expires_at, s.ended_at ? Value(*s.ended_at) : Null()})
        .status();
  }

  Result<std::optional<ports::SupportSession>> Find(ports::Tx& t, const std::string& org_id,
                                                    const std::string& id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + std::string(kSessionColumns) +
                                                 " FROM support_sessions s WHERE s.id = ? AND s.org_id = ?",
                                             {id, org_id}));
    if (r.empty()) return std::optional<ports::SupportSession>();
    return std::optional<ports::SupportSession>(SessionAt(r, 0));
  }

  Result<bool> End(ports::Tx& t, const std::string& id, const std::string& user_id, int64_t at) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("UPDATE support_sessions SET ended_at = ? "
                                             "WHERE id = ? AND user_id = ? AND ended_at IS NULL RETURNING id",
                                             {at, id, user_id}));
    return !r.empty();
  }

  Status RecordRequest(ports::Tx& t, const ports::SupportRequest& q) override {
    return Sql(t)
        .Exec(
            "INSERT INTO support_requests (id, session_id, org_id, method, route, at) VALUES (?, ?, ?, ?, ?, "
            "?)",
            {q.id, q.session_id, q.org_id, q.method, q.route, q.at})
        .status();
  }

  Result<std::vector<ports::SupportSession>> ListForOrg(ports::Tx& t, const std::string& org_id,
                                                        int64_t limit) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query(std::string("SELECT ") + std::string(kSessionColumns) +
                                 ", (SELECT COUNT(*) FROM support_requests q WHERE q.session_id = s.id), "
                                 "(SELECT MAX(q.at) FROM support_requests q WHERE q.session_id = s.id) "
                                 "FROM support_sessions s WHERE s.org_id = ? "
                                 "ORDER BY s.created_at DESC, s.id DESC LIMIT ?",
                             {org_id, limit}));
    std::vector<ports::SupportSession> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      ports::SupportSession s = SessionAt(r, i);
      s.request_count = r.Int(i, 8);
      s.last_request_at = r.OptInt(i, 9);
      out.push_back(std::move(s));
    }
    return out;
  }

  Result<std::vector<ports::SupportRequest>> ListRequests(ports::Tx& t, const std::string& org_id,
                                                          int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT id, session_id, org_id, method, route, at "
                                             "FROM support_requests WHERE org_id = ? "
                                             "ORDER BY at DESC, id DESC LIMIT ?",
                                             {org_id, limit}));
    std::vector<ports::SupportRequest> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back(ports::SupportRequest{r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3), r.Str(i, 4),
                                          r.Int(i, 5)});
    }
    return out;
  }

  Status ForgetOperator(ports::Tx& t, const std::string& user_id) override {
    return Sql(t).Exec("UPDATE support_sessions SET user_id = NULL WHERE user_id = ?", {user_id}).status();
  }
};

}  // namespace

std::unique_ptr<ports::SupportSessionRepository> NewSqlSupportSessionRepository() {
  return std::make_unique<SqlSupportSessionRepository>();
}

}  // namespace service::store
