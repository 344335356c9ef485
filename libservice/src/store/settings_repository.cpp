#include "ports/settings_repository.h"

namespace service::store {
namespace {

class SqlSettingsRepository final : public ports::SettingsRepository {
 public:
  Result<std::optional<std::string>> Get(Database& db, const std::string& key) override {
    std::optional<std::string> value;
    Status s = db.Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(Rows rows, c.Query("SELECT value FROM settings WHERE key = ?", {key}));
      if (!rows.empty()) value = rows.Str(0, 0);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return value;
  }

  Result<std::string> GetOrInsert(Database& db, const std::string& key, const std::string& value,
                                  int64_t now_ms) override {
    std::string stored;
    Status s = db.Write([&](Connection& c) -> Status {
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

namespace service::ports {
std::unique_ptr<SettingsRepository> NewSqlSettingsRepository() {
  return std::make_unique<store::SqlSettingsRepository>();
}
}  // namespace service::ports
