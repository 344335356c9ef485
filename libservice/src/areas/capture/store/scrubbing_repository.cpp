// SQL behind ports::ScrubbingRepository (one text for both backends).
#include "areas/capture/ports/scrubbing_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kColumns =
    "SELECT project_id, org_id, extra_keys, scrub_messages, store_ip, updated_at, updated_by FROM "
    "scrubbing_settings";

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    if (nl > at) out.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

std::string JoinLines(const std::vector<std::string>& keys) {
  std::string out;
  for (const std::string& k : keys) {
    if (!out.empty()) out.push_back('\n');
    out += k;
  }
  return out;
}

Result<std::optional<ports::ScrubbingSettingsRow>> One(const Rows& r) {
  if (r.empty()) return std::optional<ports::ScrubbingSettingsRow>();
  ports::ScrubbingSettingsRow row;
  row.project_id = r.Str(0, 0);
  row.org_id = r.Str(0, 1);
  row.extra_keys = SplitLines(r.Str(0, 2));
  row.scrub_messages = r.Bool(0, 3);
  row.store_ip = r.Bool(0, 4);
  row.updated_at = r.Int(0, 5);
  row.updated_by = r.Str(0, 6);
  return std::optional<ports::ScrubbingSettingsRow>(std::move(row));
}

class SqlScrubbingRepository final : public ports::ScrubbingRepository {
 public:
  Result<std::optional<ports::ScrubbingSettingsRow>> Get(ports::Tx& t, const std::string& org_id,
                                                         const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string(kColumns) + " WHERE project_id = ? AND org_id = ?",
                                             {project_id, org_id}));
    return One(r);
  }

  Result<std::optional<ports::ScrubbingSettingsRow>> GetForProject(ports::Tx& t,
                                                                   const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string(kColumns) + " WHERE project_id = ?", {project_id}));
    return One(r);
  }

  Status Put(ports::Tx& t, const ports::ScrubbingSettingsRow& s) override {
    return Sql(t)
        .Exec(
            "INSERT INTO scrubbing_settings (project_id, org_id, extra_keys, scrub_messages, store_ip, "
            "updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id) DO UPDATE SET "
            "extra_keys = excluded.extra_keys, scrub_messages = excluded.scrub_messages, store_ip = "
            "excluded.store_ip, updated_at = excluded.updated_at, updated_by = excluded.updated_by",
            {s.project_id, s.org_id, JoinLines(s.extra_keys), Bool(s.scrub_messages), Bool(s.store_ip),
             s.updated_at, s.updated_by})
        .status();
  }

  Status AddCount(ports::Tx& t, const std::string& project_id, const std::string& rule, int64_t count,
                  int64_t now_ms) override {
    return Sql(t)
        .Exec(
            "INSERT INTO scrubbing_counts (project_id, org_id, rule, scrubbed, last_at) "
            "SELECT id, org_id, ?, ?, ? FROM projects WHERE id = ? "
            "ON CONFLICT (project_id, rule) DO UPDATE SET scrubbed = scrubbing_counts.scrubbed + "
            "excluded.scrubbed, "
            "last_at = excluded.last_at",
            {rule, count, now_ms, project_id})
        .status();
  }

  Result<std::vector<ports::ScrubCountRow>> Counts(ports::Tx& t, const std::string& org_id,
                                                   const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT rule, scrubbed, last_at FROM scrubbing_counts WHERE "
                                             "project_id = ? AND org_id = ? ORDER BY rule",
                                             {project_id, org_id}));
    std::vector<ports::ScrubCountRow> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back({r.Str(i, 0), r.Int(i, 1), r.Int(i, 2)});
    return out;
  }
};

}  // namespace

std::unique_ptr<ports::ScrubbingRepository> NewSqlScrubbingRepository() {
  return std::make_unique<SqlScrubbingRepository>();
}

}  // namespace service::store
