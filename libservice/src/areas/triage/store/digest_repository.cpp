// SQL behind ports::DigestRepository (both backends).
#include "areas/triage/ports/digest_repository.h"

#include "areas/triage/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr const char* kColumns =
    "b.id, b.org_id, b.user_id, b.kind, b.state, b.generation, b.attempts, b.subject, "
    "b.body, b.last_error, b.next_attempt_at, b.lease_until, b.resolution, b.resolution_generation, "
    "b.resolution_at, b.created_at, b.sent_at, b.updated_at";
constexpr size_t kColumnCount = 18;

constexpr const char* kFinalStates = "('succeeded', 'permanent_failure', 'cancelled', 'outcome_unknown')";

ports::DigestBatch BatchAt(const Rows& r, size_t i) {
  ports::DigestBatch b;
  b.id = r.Str(i, 0);
  b.org_id = r.Str(i, 1);
  b.user_id = r.Str(i, 2);
  b.kind = r.Str(i, 3);
  b.state = r.Str(i, 4);
  b.generation = r.Int(i, 5);
  b.attempts = r.Int(i, 6);
  b.subject = r.Str(i, 7);
  b.body = r.Str(i, 8);
  b.last_error = r.Str(i, 9);
  b.next_attempt_at = r.Int(i, 10);
  b.lease_until = r.OptInt(i, 11);
  b.resolution = r.OptStr(i, 12);
  b.resolution_generation = r.OptInt(i, 13);
  b.resolution_at = r.OptInt(i, 14);
  b.created_at = r.Int(i, 15);
  b.sent_at = r.OptInt(i, 16);
  b.updated_at = r.Int(i, 17);
  return b;
}

std::vector<ports::DigestBatch> Batches(const Rows& r) {
  std::vector<ports::DigestBatch> out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) out.push_back(BatchAt(r, i));
  return out;
}

Value OptInt(std::optional<int64_t> v) { return v ? Value(*v) : Value(nullptr); }

ports::DigestDecision DecisionAt(const Rows& r, size_t i) {
  ports::DigestDecision d;
  d.id = r.Str(i, 0);
  d.batch_id = r.Str(i, 1);
  d.user_id = r.Str(i, 2);
  d.request_id = r.Str(i, 3);
  d.project_id = r.Str(i, 4);
  d.action = r.Str(i, 5);
  d.accept_duplicate_risk = r.Bool(i, 6);
  d.expected_generation = r.Int(i, 7);
  d.next_generation = r.Int(i, 8);
  d.created_at = r.Int(i, 9);
  return d;
}

class SqlDigestRepository final : public ports::DigestRepository {
 public:
  Status Insert(ports::Tx& t, const ports::DigestBatch& b, const std::vector<std::string>& events) override {
    Connection& c = Sql(t);
    SV_RETURN_IF_ERROR(
        c.Exec("INSERT INTO digest_batches (id, org_id, user_id, kind, state, generation, attempts, "
               "subject, body, last_error, next_attempt_at, created_at, updated_at) "
               "VALUES (?, ?, ?, ?, 'queued', 0, 0, ?, ?, '', ?, ?, ?)",
               {b.id, b.org_id, b.user_id, b.kind, b.subject, b.body, b.next_attempt_at, b.created_at,
                b.created_at})
            .status());
    for (const std::string& n : events) {
      SV_RETURN_IF_ERROR(
          c.Exec("INSERT INTO digest_batch_events (batch_id, notification_id, project_id) "
                 "SELECT ?, n.id, bg.project_id FROM notifications n LEFT JOIN bugs bg ON bg.id = n.bug_id "
                 "WHERE n.id = ?",
                 {b.id, n})
              .status());
    }
    return Status::Ok();
  }

  Result<std::optional<ports::DigestBatch>> Find(ports::Tx& t, const std::string& id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query(std::string("SELECT ") + kColumns + " FROM digest_batches b WHERE b.id = ?", {id}));
    if (r.size() == 0) return std::optional<ports::DigestBatch>();
    return std::optional<ports::DigestBatch>(BatchAt(r, 0));
  }

  Result<std::vector<ports::DigestBatch>> Due(ports::Tx& t, int64_t now, int64_t limit) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + kColumns +
                                                 " FROM digest_batches b WHERE b.state IN ('queued', "
                                                 "'retryable') AND b.next_attempt_at <= ? "
                                                 "ORDER BY b.next_attempt_at, b.id LIMIT ?",
                                             {now, limit}));
    return Batches(r);
  }

  Result<bool> Claim(ports::Tx& t, const std::string& id, int64_t generation, int64_t attempts,
                     int64_t lease_until, int64_t now) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(t).Exec("UPDATE digest_batches SET state = 'sending', attempts = attempts + 1, "
                                    "lease_until = ?, updated_at = ? WHERE id = ? AND generation = ? AND "
                                    "attempts = ? AND state IN ('queued', 'retryable')",
                                    {lease_until, now, id, generation, attempts}));
    return n == 1;
  }

  Result<bool> Finish(ports::Tx& t, const std::string& id, int64_t generation, int64_t attempts,
                      const std::string& state, const std::string& error, int64_t next_attempt_at,
                      std::optional<int64_t> sent_at, int64_t now) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec("UPDATE digest_batches SET state = ?, last_error = ?, next_attempt_at = ?, "
                    "sent_at = COALESCE(?, sent_at), lease_until = NULL, updated_at = ? WHERE id = ? AND "
                    "generation = ? AND attempts = ? AND (state = 'sending' OR (state = 'outcome_unknown' "
                    "AND lease_until IS NOT NULL))",
                    {state, error, next_attempt_at, OptInt(sent_at), now, id, generation, attempts}));
    return n == 1;
  }

  Result<bool> Hold(ports::Tx& t, const std::string& id, int64_t generation, int64_t attempts,
                    int64_t next_attempt_at, int64_t now) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(t).Exec("UPDATE digest_batches SET state = 'queued', attempts = attempts "
                                    "- 1, next_attempt_at = ?, lease_until = NULL, updated_at = ? "
                                    "WHERE id = ? AND generation = ? AND attempts = ? AND state = "
                                    "'sending'",
                                    {next_attempt_at, now, id, generation, attempts}));
    return n == 1;
  }

  Result<std::vector<ports::DigestEventRef>> Events(ports::Tx& t, const std::string& batch_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT e.notification_id, COALESCE(n.type, ''), n.bug_id "
                                             "FROM digest_batch_events e LEFT JOIN notifications n ON "
                                             "n.id = e.notification_id WHERE e.batch_id = ? "
                                             "ORDER BY e.notification_id",
                                             {batch_id}));
    std::vector<ports::DigestEventRef> out;
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) out.push_back({r.Str(i, 0), r.Str(i, 1), r.OptStr(i, 2)});
    return out;
  }

  Result<int64_t> ExpireLeases(ports::Tx& t, int64_t now) override {
    // lease_until stays set: Finish can still record an answer that arrives late.
    return Sql(t).Exec(
        "UPDATE digest_batches SET state = 'outcome_unknown', last_error = 'the sending process stopped "
        "before the provider answered', updated_at = ? WHERE state = 'sending' AND lease_until < ?",
        {now, now});
  }

  Result<std::vector<ports::DigestBatch>> History(ports::Tx& t, const std::string& org_id,
                                                  const std::string& user_id, const std::string& project_id,
                                                  std::optional<std::pair<int64_t, std::string>> after,
                                                  int64_t limit) override {
    std::string sql = std::string("SELECT ") + kColumns +
                      ", (SELECT COUNT(DISTINCT e2.project_id) FROM digest_batch_events e2 WHERE e2.batch_id "
                      "= b.id), (SELECT COUNT(*) FROM digest_batch_events e3 WHERE e3.batch_id = b.id AND "
                      "e3.project_id = ?) FROM digest_batches b WHERE b.org_id = ? AND b.user_id = ? AND "
                      "b.kind = 'digest' AND EXISTS (SELECT 1 FROM digest_batch_events e WHERE e.batch_id = "
                      "b.id AND e.project_id = ?)";
    std::vector<Value> params{project_id, org_id, user_id, project_id};
    if (after) {
      sql += " AND (b.created_at > ? OR (b.created_at = ? AND b.id > ?))";
      params.insert(params.end(), {after->first, after->first, after->second});
    }
    sql += " ORDER BY b.created_at, b.id LIMIT ?";
    params.push_back(limit);
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(sql, params));
    std::vector<ports::DigestBatch> out;
    for (size_t i = 0; i < r.size(); ++i) {
      ports::DigestBatch b = BatchAt(r, i);
      b.project_count = r.Int(i, kColumnCount);
      b.project_events = r.Int(i, kColumnCount + 1);
      out.push_back(std::move(b));
    }
    return out;
  }

  Result<bool> HoldsProject(ports::Tx& t, const std::string& batch_id,
                            const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT 1 FROM digest_batch_events WHERE batch_id = ? AND "
                                             "project_id = ? LIMIT 1",
                                             {batch_id, project_id}));
    return r.size() > 0;
  }

  Result<int64_t> PendingEvents(ports::Tx& t, const std::string& org_id, const std::string& user_id,
                                const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT COUNT(*) FROM notifications n JOIN bugs bg ON bg.id = "
                                             "n.bug_id WHERE n.org_id = ? AND n.user_id = ? AND "
                                             "n.email_pending = 1 AND bg.project_id = ?",
                                             {org_id, user_id, project_id}));
    return r.Int(0, 0);
  }

  Result<std::optional<ports::DigestDecision>> FindDecision(ports::Tx& t, const std::string& user_id,
                                                            const std::string& request_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT id, batch_id, user_id, request_id, project_id, action, "
                                             "accept_duplicate_risk, expected_generation, next_generation, "
                                             "created_at FROM digest_decisions WHERE user_id = ? AND "
                                             "request_id = ?",
                                             {user_id, request_id}));
    if (r.size() == 0) return std::optional<ports::DigestDecision>();
    return std::optional<ports::DigestDecision>(DecisionAt(r, 0));
  }

  Status InsertDecision(ports::Tx& t, const ports::DigestDecision& d) override {
    return Sql(t)
        .Exec(
            "INSERT INTO digest_decisions (id, batch_id, user_id, request_id, project_id, action, "
            "accept_duplicate_risk, expected_generation, next_generation, created_at) VALUES (?, ?, ?, ?, "
            "?, ?, ?, ?, ?, ?)",
            {d.id, d.batch_id, d.user_id, d.request_id, d.project_id, d.action, Bool(d.accept_duplicate_risk),
             d.expected_generation, d.next_generation, d.created_at})
        .status();
  }

  Result<bool> MarkReceived(ports::Tx& t, const std::string& id, int64_t generation, int64_t now) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec("UPDATE digest_batches SET resolution = 'received', resolution_generation = ?, "
                    "resolution_at = ?, updated_at = ? WHERE id = ? AND generation = ? AND state "
                    "<> 'sending' AND (resolution IS NULL OR resolution <> 'received')",
                    {generation, now, now, id, generation}));
    return n == 1;
  }

  Result<bool> Requeue(ports::Tx& t, const std::string& id, int64_t generation, int64_t now) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec(
            "UPDATE digest_batches SET generation = generation + 1, state = 'queued', next_attempt_at = ?, "
            "lease_until = NULL, last_error = '', resolution "
            "= 'retry', resolution_generation = ?, resolution_at = ?, updated_at = ? WHERE id = ? AND "
            "generation = ? AND state NOT IN ('sending', 'queued', 'retryable')",
            {now, generation, now, now, id, generation}));
    return n == 1;
  }

  Result<int64_t> SweepFinished(ports::Tx& t, int64_t before, int64_t limit) override {
    Connection& c = Sql(t);
    SV_ASSIGN_OR_RETURN(Rows r,
                        c.Query(std::string("SELECT id FROM digest_batches WHERE state IN ") + kFinalStates +
                                    " AND updated_at < ? ORDER BY updated_at, id LIMIT ?",
                                {before, limit}));
    for (size_t i = 0; i < r.size(); ++i) SV_RETURN_IF_ERROR(DeleteBatch(c, r.Str(i, 0)));
    return static_cast<int64_t>(r.size());
  }

  Status DeleteOrganizationRows(ports::Tx& t, const std::string& org_id) override {
    return DeleteWhere(Sql(t), "org_id = ?", org_id);
  }

  Status DeleteAccountRows(ports::Tx& t, const std::string& user_id) override {
    return DeleteWhere(Sql(t), "user_id = ?", user_id);
  }

 private:
  static Status DeleteBatch(Connection& c, const std::string& id) {
    SV_RETURN_IF_ERROR(c.Exec("DELETE FROM digest_decisions WHERE batch_id = ?", {id}).status());
    SV_RETURN_IF_ERROR(c.Exec("DELETE FROM digest_batch_events WHERE batch_id = ?", {id}).status());
    return c.Exec("DELETE FROM digest_batches WHERE id = ?", {id}).status();
  }

  static Status DeleteWhere(Connection& c, const std::string& where, const std::string& value) {
    const std::string ids = "SELECT id FROM digest_batches WHERE " + where;
    SV_RETURN_IF_ERROR(
        c.Exec("DELETE FROM digest_decisions WHERE batch_id IN (" + ids + ")", {value}).status());
    SV_RETURN_IF_ERROR(
        c.Exec("DELETE FROM digest_batch_events WHERE batch_id IN (" + ids + ")", {value}).status());
    return c.Exec("DELETE FROM digest_batches WHERE " + where, {value}).status();
  }
};

}  // namespace

std::unique_ptr<ports::DigestRepository> NewSqlDigestRepository() {
  return std::make_unique<SqlDigestRepository>();
}

}  // namespace service::store
