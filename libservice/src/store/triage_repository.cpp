#include "ports/triage_repository.h"

#include "store/database.h"
#include "store/repositories.h"

namespace service::store {
namespace {

Status RunAll(Connection& tx, std::initializer_list<const char*> statements,
              const std::vector<Value>& params) {
  for (const char* sql : statements) SV_RETURN_IF_ERROR(tx.Exec(sql, params).status());
  return Status::Ok();
}

class SqlTriageRepository final : public ports::TriageRepository {
 public:
  Status DeleteOrganizationRows(ports::Tx& t, const std::string& org_id) override {
    return RunAll(Sql(t),
                  {"DELETE FROM notifications WHERE org_id = ?",
                   "DELETE FROM notification_preferences WHERE org_id = ?"},
                  {org_id});
  }

  Status DeleteMemberRows(ports::Tx& t, const std::string& org_id, const std::string& user_id) override {
    return RunAll(Sql(t),
                  {"DELETE FROM notification_preferences WHERE org_id = ? AND user_id = ?",
                   "UPDATE bugs SET assigned_to = NULL WHERE org_id = ? AND assigned_to = ?",
                   "DELETE FROM watchers WHERE org_id = ? AND user_id = ?"},
                  {org_id, user_id});
  }

  Status DeleteAccountRows(ports::Tx& t, const std::string& user_id) override {
    return RunAll(
        Sql(t),
        {"DELETE FROM comments WHERE user_id = ?", "DELETE FROM notifications WHERE user_id = ?",
         "UPDATE notifications SET actor_id = NULL WHERE actor_id = ?",
         "DELETE FROM notification_preferences WHERE user_id = ?", "DELETE FROM watchers WHERE user_id = ?",
         "UPDATE bugs SET assigned_to = NULL WHERE assigned_to = ?",
         "UPDATE status_history SET changed_by = NULL WHERE changed_by = ?"},
        {user_id});
  }
};

}  // namespace

std::unique_ptr<ports::TriageRepository> NewSqlTriageRepository() {
  return std::make_unique<SqlTriageRepository>();
}

}  // namespace service::store
