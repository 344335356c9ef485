// SQL behind ports::DuplicateCandidateRepository, written once for both
// backends: peers from bugs(project_id, grouping_v3_key) and
// bugs(org_id, project_id, last_seen DESC, id).
#include <set>
#include <string>
#include <vector>

#include "areas/capture/ports/duplicate_candidate_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr const char* kPeerColumns =
    "SELECT b.id, b.group_key, COALESCE(b.grouping_v3_key, ''), COALESCE(b.embedding, '') FROM bugs b ";
constexpr const char* kPeerWhere =
    "b.project_id = ? AND b.group_key <> ? AND b.merged_into IS NULL AND b.status NOT IN ('resolved', "
    "'silenced')";  // domain::capture::IsOpenStatus

class SqlDuplicateCandidateRepository final : public ports::DuplicateCandidateRepository {
 public:
  Result<std::vector<ports::DuplicatePeerRecord>> Peers(ports::Tx& c_tx, const std::string& project_id,
                                                        const std::string& group_key,
                                                        const std::string& identity_hash,
                                                        int64_t recent) override {
    Connection& c = Sql(c_tx);
    std::vector<ports::DuplicatePeerRecord> out;
    std::set<std::string> seen;
    const auto collect = [&](const Rows& r) {
      for (size_t i = 0; i < r.size(); ++i) {
        if (!seen.insert(r.Str(i, 0)).second) continue;
        out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3)});
      }
    };
    if (!identity_hash.empty()) {
      SV_ASSIGN_OR_RETURN(Rows r,
                          c.Query(std::string(kPeerColumns) + "WHERE " + kPeerWhere +
                                      " AND b.grouping_v3_key = ? ORDER BY b.last_seen DESC, b.id LIMIT ?",
                                  {project_id, group_key, identity_hash, recent}));
      collect(r);
    }
    SV_ASSIGN_OR_RETURN(Rows r, c.Query(std::string(kPeerColumns) + "WHERE " + kPeerWhere +
                                            " ORDER BY b.last_seen DESC, b.id LIMIT ?",
                                        {project_id, group_key, recent}));
    collect(r);
    return out;
  }

  Status Insert(ports::Tx& tx_tx, const std::string& org_id, const std::string& bug_id,
                const std::vector<ports::DuplicateCandidateWrite>& rows, int64_t created_at) override {
    Connection& tx = Sql(tx_tx);
    for (const ports::DuplicateCandidateWrite& w : rows) {
      SV_RETURN_IF_ERROR(
          tx.Exec("INSERT INTO duplicate_candidates (id, org_id, bug_id, other_bug_id, score, reason, "
                  "confidence, "
                  "algorithm_version, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?) "
                  "ON CONFLICT (bug_id, other_bug_id) DO NOTHING",
                  {w.id, org_id, bug_id, w.other_bug_id, w.score, w.reason, w.confidence, w.algorithm_version,
                   created_at})
              .status());
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<ports::DuplicateCandidateRepository> NewSqlDuplicateCandidateRepository() {
  return std::make_unique<SqlDuplicateCandidateRepository>();
}

}  // namespace service::store
