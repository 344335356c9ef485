// SQL behind ports::ClaimRepository (one text for both backends).
#include "areas/agent_work/ports/claim_repository.h"
#include "areas/agent_work/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr std::string_view kColumns =
    "SELECT id, org_id, project_id, issue_id, generation, fencing_token, token_id, user_id, status, "
    "ttl_seconds, expires_at, ended_at, receipt_id, created_at, updated_at FROM agent_claims";

ports::ClaimRow RowAt(const Rows& r, size_t i) {
  ports::ClaimRow c;
  c.id = r.Str(i, 0);
  c.org_id = r.Str(i, 1);
  c.project_id = r.Str(i, 2);
  c.issue_id = r.Str(i, 3);
  c.generation = r.Int(i, 4);
  c.fencing_token = r.Int(i, 5);
  c.token_id = r.Str(i, 6);
  c.user_id = r.Str(i, 7);
  c.status = r.Str(i, 8);
  c.ttl_seconds = r.Int(i, 9);
  c.expires_at = r.Int(i, 10);
  c.ended_at = r.OptInt(i, 11);
  c.receipt_id = r.OptStr(i, 12);
  c.created_at = r.Int(i, 13);
  c.updated_at = r.Int(i, 14);
  return c;
}

Result<std::optional<ports::ClaimRow>> First(Result<Rows> r) {
  if (!r.ok()) return r.status();
  if (r->empty()) return std::optional<ports::ClaimRow>();
  return std::optional<ports::ClaimRow>(RowAt(*r, 0));
}

class SqlClaimRepository final : public ports::ClaimRepository {
 public:
  Result<ports::IssueCounters> LockIssue(ports::Tx& t, const std::string& org_id,
                                         const std::string& project_id, const std::string& issue_id,
                                         int64_t now_ms) override {
    Connection& tx = Sql(t);
    SV_RETURN_IF_ERROR(
        tx.Exec("INSERT INTO agent_claim_issues (issue_id, org_id, project_id, last_generation, "
                "last_fence, locked_at) VALUES (?, ?, ?, 0, 0, ?) ON CONFLICT (issue_id) DO NOTHING",
                {issue_id, org_id, project_id, now_ms})
            .status());
    SV_ASSIGN_OR_RETURN(Rows r, tx.Query("UPDATE agent_claim_issues SET locked_at = ? WHERE issue_id = ? AND "
                                         "org_id = ? RETURNING last_generation, last_fence",
                                         {now_ms, issue_id, org_id}));
    if (r.empty()) return Conflict("agent_claim_issues: the issue belongs to another organization");
    return ports::IssueCounters{r.Int(0, 0), r.Int(0, 1)};
  }

  Status SetCounters(ports::Tx& t, const std::string& org_id, const std::string& issue_id,
                     const ports::IssueCounters& counters) override {
    return Sql(t)
        .Exec(
            "UPDATE agent_claim_issues SET last_generation = ?, last_fence = ? WHERE issue_id = ? AND org_id "
            "= ?",
            {counters.generation, counters.fencing_token, issue_id, org_id})
        .status();
  }

  Result<std::optional<ports::ClaimRow>> Latest(ports::Tx& t, const std::string& org_id,
                                                const std::string& issue_id) override {
    return First(Sql(t).Query(
        std::string(kColumns) + " WHERE issue_id = ? AND org_id = ? ORDER BY generation DESC LIMIT 1",
        {issue_id, org_id}));
  }

  Result<std::optional<ports::ClaimRow>> Find(ports::Tx& t, const std::string& org_id,
                                              const std::string& claim_id) override {
    return First(Sql(t).Query(std::string(kColumns) + " WHERE id = ? AND org_id = ?", {claim_id, org_id}));
  }

  Status Insert(ports::Tx& t, const ports::ClaimRow& c) override {
    return Sql(t)
        .Exec(
            "INSERT INTO agent_claims (id, org_id, project_id, issue_id, generation, fencing_token, "
            "token_id, "
            "user_id, status, ttl_seconds, expires_at, ended_at, receipt_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            {c.id, c.org_id, c.project_id, c.issue_id, c.generation, c.fencing_token, c.token_id, c.user_id,
             c.status, c.ttl_seconds, c.expires_at, c.ended_at ? Value(*c.ended_at) : Null(),
             OptText(c.receipt_id), c.created_at, c.updated_at})
        .status();
  }

  Result<bool> Update(ports::Tx& t, const ports::ClaimRow& c) override {
    SV_ASSIGN_OR_RETURN(int64_t n, Sql(t).Exec("UPDATE agent_claims SET status = ?, ttl_seconds = ?, "
                                               "expires_at = ?, ended_at = ?, receipt_id = ?, updated_at = ? "
                                               "WHERE id = ? AND org_id = ?",
                                               {c.status, c.ttl_seconds, c.expires_at,
                                                c.ended_at ? Value(*c.ended_at) : Null(),
                                                OptText(c.receipt_id), c.updated_at, c.id, c.org_id}));
    return n > 0;
  }

  Status RecordMerge(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                     const std::string& source_id, const std::string& target_id, int64_t now_ms) override {
    Connection& tx = Sql(t);
    // Issues merged into the source before now resolve to the target too.
    SV_RETURN_IF_ERROR(
        tx.Exec("UPDATE agent_issue_merges SET target_id = ? WHERE target_id = ? AND org_id = ?",
                {target_id, source_id, org_id})
            .status());
    return tx
        .Exec(
            "INSERT INTO agent_issue_merges (issue_id, org_id, project_id, target_id, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (issue_id) DO UPDATE SET target_id = excluded.target_id",
            {source_id, org_id, project_id, target_id, now_ms})
        .status();
  }

  Result<std::optional<std::string>> MergeTarget(ports::Tx& t, const std::string& org_id,
                                                 const std::string& issue_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT target_id FROM agent_issue_merges WHERE issue_id = ? AND "
                                     "org_id = ?",
                                     {issue_id, org_id}));
    if (r.empty()) return std::optional<std::string>();
    return std::optional<std::string>(r.Str(0, 0));
  }

  Result<std::vector<std::string>> MergedInto(ports::Tx& t, const std::string& org_id,
                                              const std::string& target_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT issue_id FROM agent_issue_merges WHERE target_id = ? AND "
                                     "org_id = ? ORDER BY issue_id LIMIT 1000",
                                     {target_id, org_id}));
    std::vector<std::string> out;
    for (size_t i = 0; i < r.size(); ++i) out.push_back(r.Str(i, 0));
    return out;
  }
};

class SqlCommandLogRepository final : public ports::CommandLogRepository {
 public:
  Result<std::optional<ports::CommandRecord>> Find(ports::Tx& t, const std::string& org_id,
                                                   const std::string& command_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT kind, fingerprint, token_id, status, answer, created_at "
                                             "FROM agent_commands WHERE org_id = ? AND command_id = ?",
                                             {org_id, command_id}));
    if (r.empty()) return std::optional<ports::CommandRecord>();
    ports::CommandRecord c;
    c.org_id = org_id;
    c.command_id = command_id;
    c.kind = r.Str(0, 0);
    c.fingerprint = r.Str(0, 1);
    c.token_id = r.Str(0, 2);
    c.status = static_cast<int>(r.Int(0, 3));
    c.answer_json = r.Str(0, 4);
    c.created_at = r.Int(0, 5);
    return std::optional<ports::CommandRecord>(std::move(c));
  }

  Status Insert(ports::Tx& t, const ports::CommandRecord& c) override {
    return Sql(t)
        .Exec(
            "INSERT INTO agent_commands (org_id, command_id, kind, fingerprint, token_id, status, answer, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            {c.org_id, c.command_id, c.kind, c.fingerprint, c.token_id, int64_t{c.status}, c.answer_json,
             c.created_at})
        .status();
  }

  Result<int64_t> Prune(ports::Tx& t, int64_t before_ms, int64_t limit) override {
    return Sql(t).Exec(
        "DELETE FROM agent_commands WHERE (org_id, command_id) IN (SELECT org_id, command_id FROM "
        "agent_commands WHERE created_at < ? ORDER BY created_at LIMIT ?)",
        {before_ms, limit});
  }
};

}  // namespace

std::unique_ptr<ports::ClaimRepository> NewSqlClaimRepository() {
  return std::make_unique<SqlClaimRepository>();
}

std::unique_ptr<ports::CommandLogRepository> NewSqlCommandLogRepository() {
  return std::make_unique<SqlCommandLogRepository>();
}

}  // namespace service::store
