#include "ports/settings_repository.h"
#include "store/database.h"
#include "store/repositories.h"

namespace service::store {
namespace {

class SqlSettingsRepository final : public ports::SettingsRepository {
 public:
  Result<std::optional<std::string>> Get(ports::Transactions& db, const std::string& key) override {
    std::optional<std::string> value;
    Status s = db.Read([&](ports::Tx& c_tx) -> Status {
      Connection& c = Sql(c_tx);
      SV_ASSIGN_OR_RETURN(Rows rows, c.Query("SELECT value FROM settings WHERE key = ?", {key}));
      if (!rows.empty()) value = rows.Str(0, 0);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return value;
  }

  Result<std::string> GetOrInsert(ports::Transactions& db, const std::string& key, const std::string& value,
                                  int64_t now_ms) override {
    std::string stored;
    Status s = db.Write([&](ports::Tx& c_tx) -> Status {
      Connection& c = Sql(c_tx);
      SV_RETURN_IF_ERROR(
          c.Exec(
               "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
               {key, value, now_ms})
              .status());
      SV_ASSIGN_OR_RETURN(Rows rows, c.Query("SELECT value FROM settings WHERE key = ?", {key}));
      stored = rows.Str(0, 0);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return stored;
  }
};

}  // namespace
}  // namespace service::store

namespace service::store {
std::unique_ptr<ports::SettingsRepository> NewSqlSettingsRepository() {
  return std::make_unique<store::SqlSettingsRepository>();
}
}  // namespace service::store
