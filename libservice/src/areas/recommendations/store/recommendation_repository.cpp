// SQL behind ports::RecommendationRepository (one text for both backends).
#include <boost/json.hpp>

#include "areas/recommendations/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

namespace json = boost::json;

constexpr std::string_view kColumns =
    "SELECT project_id, bug_id, org_id, emitted_at, emissions, deliveries FROM recommended_emissions";

ports::Emission EmissionAt(const Rows& r, size_t i) {
  return ports::Emission{r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Int(i, 3), r.Int(i, 4), r.Int(i, 5)};
}

// The integrations table keeps its event list as a JSON array of names.
bool Names(const std::string& events_json, const std::string& event) {
  boost::system::error_code ec;
  const json::value v = json::parse(events_json, ec);
  if (ec || !v.is_array()) return false;
  for (const json::value& e : v.get_array())
    if (e.is_string() && e.get_string() == event) return true;
  return false;
}

class SqlRecommendationRepository final : public ports::RecommendationRepository {
 public:
  Result<std::vector<ports::SubscribedProject>> SubscribedProjects(ports::Tx& t,
                                                                   const std::string& event) override {
    // LIKE narrows the scan's rows ('_' matches itself too); the JSON
    // decides.
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT org_id, project_id, events FROM integrations "
                                             "WHERE is_active = 1 AND events LIKE ? ORDER BY project_id",
                                             {"%\"" + event + "\"%"}));
    std::vector<ports::SubscribedProject> out;
    for (size_t i = 0; i < r.size(); ++i) {
      if (!Names(r.Str(i, 2), event)) continue;
      if (!out.empty() && out.back().project_id == r.Str(i, 1)) continue;
      out.push_back({r.Str(i, 0), r.Str(i, 1)});
    }
    return out;
  }

  Result<std::optional<ports::Emission>> Find(ports::Tx& t, const std::string& project_id,
                                              const std::string& bug_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string(kColumns) + " WHERE project_id = ? AND bug_id = ?",
                                             {project_id, bug_id}));
    if (r.size() == 0) return std::optional<ports::Emission>();
    return std::optional<ports::Emission>(EmissionAt(r, 0));
  }

  Result<bool> ClaimFirst(ports::Tx& t, const ports::Emission& e) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec("INSERT INTO recommended_emissions (project_id, bug_id, org_id, emitted_at, emissions, "
                    "deliveries) VALUES (?, ?, ?, ?, 1, 0) ON CONFLICT (project_id, bug_id) DO NOTHING",
                    {e.project_id, e.bug_id, e.org_id, e.emitted_at}));
    return n == 1;
  }

  Result<bool> ClaimAgain(ports::Tx& t, const std::string& project_id, const std::string& bug_id,
                          int64_t previous_emitted_at, int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n, Sql(t).Exec("UPDATE recommended_emissions SET emitted_at = ?, emissions = emissions + 1, "
                               "deliveries = 0 WHERE project_id = ? AND bug_id = ? AND emitted_at = ?",
                               {now_ms, project_id, bug_id, previous_emitted_at}));
    return n == 1;
  }

  Status SetDeliveries(ports::Tx& t, const std::string& project_id, const std::string& bug_id,
                       int64_t deliveries) override {
    return Sql(t)
        .Exec("UPDATE recommended_emissions SET deliveries = ? WHERE project_id = ? AND bug_id = ?",
              {deliveries, project_id, bug_id})
        .status();
  }

  Result<std::vector<ports::Emission>> List(ports::Tx& t, const std::string& project_id,
                                            int64_t limit) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query(std::string(kColumns) + " WHERE project_id = ? ORDER BY emitted_at DESC, bug_id "
                                                     "LIMIT ?",
                             {project_id, limit}));
    std::vector<ports::Emission> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(EmissionAt(r, i));
    return out;
  }
};

}  // namespace

std::unique_ptr<ports::RecommendationRepository> NewSqlRecommendationRepository() {
  return std::make_unique<SqlRecommendationRepository>();
}

}  // namespace service::store
