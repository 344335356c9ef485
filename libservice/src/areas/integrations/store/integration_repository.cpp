// SQL behind ports::IntegrationRepository (both backends).
#include "areas/integrations/ports/integration_repository.h"

#include <algorithm>
#include <boost/json.hpp>

#include "areas/bugs/store/bug_sql.h"
#include "areas/integrations/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

namespace json = boost::json;

constexpr const char* kIntegrationColumns =
    "id, org_id, project_id, type, name, config_sealed, config_view, events, is_active, delivery_feed, "
    "min_severity, secret_sealed, secret_mask, previous_secret_sealed, previous_secret_until, bearer_sealed, "
    "bearer_last4, created_at, updated_at";

std::string EventsText(const std::vector<std::string>& events) {
  json::array a;
  for (const std::string& e : events) a.push_back(json::value(e));
  return json::serialize(a);
}

std::vector<std::string> ParseEvents(const std::string& text) {
  std::vector<std::string> out;
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_array()) return out;
  for (const json::value& e : v.get_array())
    if (e.is_string()) out.emplace_back(e.get_string());
  return out;
}

std::vector<ports::IntegrationRow> Integrations(const Rows& r) {
  std::vector<ports::IntegrationRow> out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    ports::IntegrationRow x;
    x.id = r.Str(i, 0);
    x.org_id = r.Str(i, 1);
    x.project_id = r.Str(i, 2);
    x.type = r.Str(i, 3);
    x.name = r.OptStr(i, 4);
    x.config_sealed = r.Str(i, 5);
    x.config_view = r.Str(i, 6);
    x.events = ParseEvents(r.Str(i, 7));
    x.is_active = r.Bool(i, 8);
    x.delivery_feed = r.Str(i, 9);
    x.min_severity = r.OptStr(i, 10);
    x.secret_sealed = r.Str(i, 11);
    x.secret_mask = r.Str(i, 12);
    x.previous_secret_sealed = r.Str(i, 13);
    x.previous_secret_until = r.Int(i, 14);
    x.bearer_sealed = r.Str(i, 15);
    x.bearer_last4 = r.Str(i, 16);
    x.created_at = r.Int(i, 17);
    x.updated_at = r.Int(i, 18);
    out.push_back(std::move(x));
  }
  return out;
}

// The columns of a DeliveryRow, the payload from its event.
constexpr const char* kDeliveryColumns =
    "id, org_id, project_id, integration_id, bug_id, event_id, event_type, schedule, status, attempts, "
    "manual_sends, response_code, error_message, "
    "(SELECT e.payload FROM delivery_events e WHERE e.event_id = integration_deliveries.event_id), "
    "dedupe_key, "
    "created_at, completed_at, deferred_until, next_attempt_at, lease_until";
// The same for RETURNING (no subquery there; the payloads are read after).
constexpr const char* kDeliveryReturning =
    "id, org_id, project_id, integration_id, bug_id, event_id, event_type, schedule, status, attempts, "
    "manual_sends, response_code, error_message, '', dedupe_key, created_at, completed_at, deferred_until, "
    "next_attempt_at, lease_until";
constexpr const char* kDeliveryInsertColumns =
    "id, org_id, project_id, integration_id, bug_id, event_id, event_type, schedule, status, attempts, "
    "manual_sends, response_code, error_message, dedupe_key, created_at, completed_at, deferred_until, "
    "next_attempt_at, lease_until";

std::vector<ports::DeliveryRow> Deliveries(const Rows& r) {
  std::vector<ports::DeliveryRow> out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    ports::DeliveryRow d;
    d.id = r.Str(i, 0);
    d.org_id = r.Str(i, 1);
    d.project_id = r.Str(i, 2);
    d.integration_id = r.Str(i, 3);
    d.bug_id = r.OptStr(i, 4);
    d.event_id = r.Str(i, 5);
    d.event_type = r.Str(i, 6);
    d.schedule = r.Str(i, 7);
    d.status = r.Str(i, 8);
    d.attempts = r.Int(i, 9);
    d.manual_sends = r.Int(i, 10);
    d.response_code = r.OptInt(i, 11);
    d.error_message = r.OptStr(i, 12);
    d.payload = r.Str(i, 13);
    d.dedupe_key = r.OptStr(i, 14);
    d.created_at = r.Int(i, 15);
    d.completed_at = r.OptInt(i, 16);
    d.deferred_until = r.OptInt(i, 17);
    d.next_attempt_at = r.Int(i, 18);
    d.lease_until = r.Int(i, 19);
    out.push_back(std::move(d));
  }
  return out;
}

// SELECT `columns` of the due rows (pending or deferred, next attempt due,
// no live lease), oldest due first, integrations in `skip` left out;
// appends its parameters to `params`.
std::string DueSelect(const std::string& columns, int64_t now_ms, int limit,
                      const std::vector<std::string>& skip, std::vector<Value>& params) {
  params.emplace_back(now_ms);
  params.emplace_back(now_ms);
  std::string sql = "SELECT " + columns +
                    " FROM integration_deliveries WHERE status IN ('pending', 'deferred') AND "
                    "next_attempt_at <= ? AND lease_until <= ?";
  if (!skip.empty()) {
    sql += " AND integration_id NOT IN (" + Placeholders(skip.size()) + ")";
    for (const std::string& id : skip) params.emplace_back(id);
  }
  params.emplace_back(int64_t{limit});
  return sql + " ORDER BY next_attempt_at, id LIMIT ?";
}

// Fills each row's payload from delivery_events, each event read once.
Status AttachPayloads(Connection& c, std::vector<ports::DeliveryRow>& rows) {
  if (rows.empty()) return Status::Ok();
  std::vector<Value> events;
  for (const ports::DeliveryRow& d : rows) {
    if (std::find(events.begin(), events.end(), Value(d.event_id)) == events.end())
      events.emplace_back(d.event_id);
  }
  SV_ASSIGN_OR_RETURN(Rows payloads,
                      c.Query("SELECT event_id, payload FROM delivery_events WHERE event_id IN (" +
                                  Placeholders(events.size()) + ")",
                              events));
  for (ports::DeliveryRow& d : rows) {
    for (size_t i = 0; i < payloads.size(); ++i) {
      if (payloads.Str(i, 0) == d.event_id) d.payload = payloads.Str(i, 1);
    }
  }
  return Status::Ok();
}

void SortDue(std::vector<ports::DeliveryRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const ports::DeliveryRow& a, const ports::DeliveryRow& b) {
    return a.next_attempt_at != b.next_attempt_at ? a.next_attempt_at < b.next_attempt_at : a.id < b.id;
  });
}

Value OptInt(const std::optional<int64_t>& v) { return v ? Value(*v) : Value(nullptr); }

class SqlIntegrationRepository final : public ports::IntegrationRepository {
 public:
  Status Insert(ports::Tx& t, const ports::IntegrationRow& x) override {
    return Sql(t)
        .Exec(std::string("INSERT INTO integrations (") + kIntegrationColumns + ") VALUES (" +
                  Placeholders(19) + ")",
              {x.id, x.org_id, x.project_id, x.type, OptText(x.name), x.config_sealed, x.config_view,
               EventsText(x.events), int64_t{x.is_active}, x.delivery_feed, OptText(x.min_severity),
               x.secret_sealed, x.secret_mask, x.previous_secret_sealed, x.previous_secret_until,
               x.bearer_sealed, x.bearer_last4, x.created_at, x.updated_at})
        .status();
  }

  Status Update(ports::Tx& t, const ports::IntegrationRow& x) override {
    return Sql(t)
        .Exec(
            "UPDATE integrations SET name = ?, config_sealed = ?, config_view = ?, events = ?, is_active = "
            "?, "
            "delivery_feed = ?, min_severity = ?, secret_sealed = ?, secret_mask = ?, previous_secret_sealed "
            "= ?, "
            "previous_secret_until = ?, bearer_sealed = ?, bearer_last4 = ?, updated_at = ? "
            "WHERE id = ? AND org_id = ?",
            {OptText(x.name), x.config_sealed, x.config_view, EventsText(x.events), int64_t{x.is_active},
             x.delivery_feed, OptText(x.min_severity), x.secret_sealed, x.secret_mask,
             x.previous_secret_sealed, x.previous_secret_until, x.bearer_sealed, x.bearer_last4, x.updated_at,
             x.id, x.org_id})
        .status();
  }

  Result<bool> Delete(ports::Tx& t, const std::string& org_id, const std::string& id) override {
    Connection& c = Sql(t);
    SV_RETURN_IF_ERROR(
        c.Exec("DELETE FROM delivery_dead_letters WHERE integration_id = ? AND org_id = ?", {id, org_id})
            .status());
    SV_RETURN_IF_ERROR(
        c.Exec("DELETE FROM integration_deliveries WHERE integration_id = ? AND org_id = ?", {id, org_id})
            .status());
    SV_RETURN_IF_ERROR(c.Exec("DELETE FROM code_host_issues WHERE integration_id IN "
                              "(SELECT id FROM integrations WHERE id = ? AND org_id = ?)",
                              {id, org_id})
                           .status());
    SV_ASSIGN_OR_RETURN(int64_t n,
                        c.Exec("DELETE FROM integrations WHERE id = ? AND org_id = ?", {id, org_id}));
    // Events no other destination's delivery refers to.
    SV_RETURN_IF_ERROR(c.Exec("DELETE FROM delivery_events WHERE org_id = ? AND NOT EXISTS (SELECT 1 FROM "
                              "integration_deliveries d WHERE d.event_id = delivery_events.event_id)",
                              {org_id})
                           .status());
    return n > 0;
  }

  Result<std::optional<ports::IntegrationRow>> Get(ports::Tx& t, const std::string& org_id,
                                                   const std::string& id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + kIntegrationColumns +
                                                 " FROM integrations WHERE id = ? AND org_id = ?",
                                             {id, org_id}));
    auto rows = Integrations(r);
    if (rows.empty()) return std::optional<ports::IntegrationRow>();
    return std::optional<ports::IntegrationRow>(std::move(rows[0]));
  }

  Result<std::vector<ports::IntegrationRow>> GetMany(ports::Tx& t,
                                                     const std::vector<std::string>& ids) override {
    if (ids.empty()) return std::vector<ports::IntegrationRow>();
    std::vector<Value> params(ids.begin(), ids.end());
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string("SELECT ") + kIntegrationColumns +
                                         " FROM integrations WHERE id IN (" + Placeholders(ids.size()) + ")",
                                     params));
    return Integrations(r);
  }

  Result<std::vector<ports::IntegrationRow>> ListForProject(ports::Tx& t, const std::string& org_id,
                                                            const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + kIntegrationColumns +
                                                 " FROM integrations WHERE org_id = ? AND project_id = ? "
                                                 "ORDER BY created_at, id",
                                             {org_id, project_id}));
    return Integrations(r);
  }

  Result<std::vector<ports::IntegrationRow>> ActiveFor(ports::Tx& t, const std::string& project_id,
                                                       const std::string& event) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + kIntegrationColumns +
                                                 " FROM integrations WHERE project_id = ? AND is_active = 1 "
                                                 "ORDER BY created_at, id",
                                             {project_id}));
    std::vector<ports::IntegrationRow> all = Integrations(r);
    std::erase_if(all, [&](const ports::IntegrationRow& x) {
      return std::find(x.events.begin(), x.events.end(), event) == x.events.end();
    });
    return all;
  }

  Status InsertEvent(ports::Tx& t, const std::string& event_id, const std::string& org_id,
                     const std::string& payload, int64_t now_ms) override {
    return Sql(t)
        .Exec(
            "INSERT INTO delivery_events (event_id, org_id, payload, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (event_id) DO NOTHING",
            {event_id, org_id, payload, now_ms})
        .status();
  }

  Result<bool> InsertDelivery(ports::Tx& t, const ports::DeliveryRow& d) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec(std::string("INSERT INTO integration_deliveries (") + kDeliveryInsertColumns +
                        ") VALUES (" + Placeholders(19) + ") ON CONFLICT (dedupe_key) DO NOTHING",
                    {d.id, d.org_id, d.project_id, d.integration_id, OptText(d.bug_id), d.event_id,
                     d.event_type, d.schedule, d.status, d.attempts, d.manual_sends, OptInt(d.response_code),
                     OptText(d.error_message), OptText(d.dedupe_key), d.created_at, OptInt(d.completed_at),
                     OptInt(d.deferred_until), d.next_attempt_at, d.lease_until}));
    return n > 0;
  }

  Result<std::vector<ports::DeliveryRow>> Claim(ports::Transactions& db, int64_t now_ms, int64_t lease_ms,
                                                int limit, const std::vector<std::string>& skip) override {
    std::vector<ports::DeliveryRow> out;
    Status s = db.Write([&](ports::Tx& t) -> Status {
      Connection& c = Sql(t);
      // PostgreSQL: several processes claim concurrently without blocking.
      const std::string lock = c.dialect() == Dialect::kPostgres ? " FOR UPDATE SKIP LOCKED" : "";
      std::vector<Value> params = {now_ms + lease_ms};
      const std::string due = DueSelect("id", now_ms, limit, skip, params);
      SV_ASSIGN_OR_RETURN(Rows rows, c.Query("UPDATE integration_deliveries SET attempts = attempts + 1, "
                                             "lease_until = ? WHERE id IN (" +
                                                 due + lock + ") RETURNING " + kDeliveryReturning,
                                             params));
      out = Deliveries(rows);
      return AttachPayloads(c, out);
    });
    if (!s.ok()) return s;
    SortDue(out);
    return out;
  }

  Result<std::vector<ports::DeliveryRow>> Due(ports::Tx& t, int64_t now_ms, int limit,
                                              const std::vector<std::string>& skip) override {
    std::vector<Value> params;
    const std::string due = DueSelect(kDeliveryReturning, now_ms, limit, skip, params);
    Connection& c = Sql(t);
    SV_ASSIGN_OR_RETURN(Rows rows, c.Query(due, params));
    std::vector<ports::DeliveryRow> out = Deliveries(rows);
    SV_RETURN_IF_ERROR(AttachPayloads(c, out));
    SortDue(out);
    return out;
  }

  Status Complete(ports::Transactions& db, const std::vector<ports::DeliveryOutcome>& outcomes,
                  int64_t now_ms) override {
    if (outcomes.empty()) return Status::Ok();
    return db.Write([&](ports::Tx& t) -> Status {
      Connection& c = Sql(t);
      for (const ports::DeliveryOutcome& o : outcomes) {
        const bool open = o.status == "deferred" || o.status == "pending";
        SV_RETURN_IF_ERROR(
            c.Exec("UPDATE integration_deliveries SET status = ?, response_code = ?, error_message = ?, "
                   "next_attempt_at = ?, deferred_until = ?, completed_at = ?, lease_until = 0, "
                   "attempts = attempts + ? WHERE id = ?",
                   {o.status, OptInt(o.response_code), OptText(o.error_message),
                    open ? o.next_attempt_at : now_ms, open ? Value(o.next_attempt_at) : Value(nullptr),
                    open ? Value(nullptr) : Value(now_ms), int64_t{o.count_send ? 1 : 0}, o.id})
                .status());
        if (o.status == "failed" && o.dead_letter) {
          SV_RETURN_IF_ERROR(
              c.Exec(
                   "INSERT INTO delivery_dead_letters (id, delivery_id, org_id, integration_id, event_type, "
                   "payload, attempts, response_code, error_message, created_at) SELECT id || ':' || "
                   "CAST(attempts AS TEXT), id, org_id, integration_id, event_type, (SELECT e.payload FROM "
                   "delivery_events e WHERE e.event_id = integration_deliveries.event_id), attempts, "
                   "response_code, error_message, ? FROM integration_deliveries WHERE id = ? "
                   "ON CONFLICT (id) DO NOTHING",
                   {now_ms, o.id})
                  .status());
        }
      }
      return Status::Ok();
    });
  }

  Status Release(ports::Transactions& db, const std::vector<std::string>& ids) override {
    if (ids.empty()) return Status::Ok();
    return db.Write([&](ports::Tx& t) -> Status {
      std::vector<Value> params;
      for (const std::string& id : ids) params.emplace_back(id);
      return Sql(t)
          .Exec("UPDATE integration_deliveries SET lease_until = 0, attempts = attempts - 1 WHERE id IN (" +
                    Placeholders(ids.size()) + ") AND status IN ('pending', 'deferred')",
                params)
          .status();
    });
  }

  Result<std::optional<ports::DeliveryRow>> GetDelivery(ports::Tx& t, const std::string& integration_id,
                                                        const std::string& delivery_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query(std::string("SELECT ") + kDeliveryColumns +
                                         " FROM integration_deliveries WHERE id = ? AND integration_id = ?",
                                     {delivery_id, integration_id}));
    auto rows = Deliveries(r);
    if (rows.empty()) return std::optional<ports::DeliveryRow>();
    return std::optional<ports::DeliveryRow>(std::move(rows[0]));
  }

  Result<std::vector<ports::DeliveryRow>> ListDeliveries(ports::Tx& t, const std::string& integration_id,
                                                         const std::string& status, int64_t limit,
                                                         int64_t offset) override {
    std::vector<Value> params = {integration_id};
    std::string where = "integration_id = ?";
    if (!status.empty()) {
      where += " AND status = ?";
      params.emplace_back(status);
    }
    params.emplace_back(limit);
    params.emplace_back(offset);
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + kDeliveryColumns +
                                                 " FROM integration_deliveries WHERE " + where +
                                                 " ORDER BY created_at, id LIMIT ? OFFSET ?",
                                             params));
    return Deliveries(r);
  }

  Result<int64_t> CountDeliveries(ports::Tx& t, const std::string& integration_id,
                                  const std::string& status) override {
    std::vector<Value> params = {integration_id};
    std::string sql = "SELECT COUNT(*) FROM integration_deliveries WHERE integration_id = ?";
    if (!status.empty()) {
      sql += " AND status = ?";
      params.emplace_back(status);
    }
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(sql, params));
    return r.Int(0, 0);
  }

  Result<std::vector<ports::DeliveryRow>> GetDeliveries(ports::Tx& t, const std::string& org_id,
                                                        const std::vector<std::string>& ids) override {
    if (ids.empty()) return std::vector<ports::DeliveryRow>();
    std::vector<Value> params = {org_id};
    for (const std::string& id : ids) params.emplace_back(id);
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query(std::string("SELECT ") + kDeliveryReturning +
                                                 " FROM integration_deliveries WHERE org_id = ? AND id IN (" +
                                                 Placeholders(ids.size()) + ")",
                                             params));
    return Deliveries(r);
  }

  Result<std::optional<ports::DeliveryRow>> FirstLiveDelivery(ports::Tx& t, const std::string& integration_id,
                                                              const std::string& bug_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query(std::string("SELECT ") + kDeliveryReturning +
                                 " FROM integration_deliveries WHERE integration_id = ? AND bug_id = ? AND "
                                 "status NOT IN ('failed', 'canceled') ORDER BY created_at, id LIMIT 1",
                             {integration_id, bug_id}));
    auto rows = Deliveries(r);
    if (rows.empty()) return std::optional<ports::DeliveryRow>();
    return std::optional<ports::DeliveryRow>(std::move(rows[0]));
  }

  Result<bool> TakeForManualRetry(ports::Tx& t, const std::string& delivery_id, int64_t now_ms,
                                  int64_t lease_ms) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec("UPDATE integration_deliveries SET status = 'pending', manual_sends = manual_sends + 1, "
                    "attempts = attempts + 1, next_attempt_at = ?, lease_until = ?, completed_at = NULL "
                    "WHERE id = ? AND status = 'failed'",
                    {now_ms, now_ms + lease_ms, delivery_id}));
    return n > 0;
  }

  Status CancelPending(ports::Tx& t, const std::string& integration_id, const std::string& reason,
                       int64_t now_ms) override {
    return Sql(t)
        .Exec(
            "UPDATE integration_deliveries SET status = 'canceled', error_message = ?, completed_at = ?, "
            "deferred_until = NULL WHERE integration_id = ? AND status IN ('pending', 'deferred')",
            {reason, now_ms, integration_id})
        .status();
  }

  Result<ports::DeliveryCounts> CountsForOrg(ports::Tx& t, const std::string& org_id,
                                             int64_t since) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query("SELECT COUNT(*) FILTER (WHERE status IN ('pending', 'deferred')), "
                     "COUNT(*) FILTER (WHERE status = 'failed'), COUNT(*) FILTER (WHERE status = 'success'), "
                     "COUNT(*) FILTER (WHERE status = 'canceled') FROM integration_deliveries "
                     "WHERE org_id = ? AND created_at >= ?",
                     {org_id, since}));
    return ports::DeliveryCounts{r.Int(0, 0), r.Int(0, 1), r.Int(0, 2), r.Int(0, 3)};
  }

  Result<int64_t> DeleteFinishedDeliveries(ports::Tx& t, int64_t before_ms, int64_t limit) override {
    return Sql(t).Exec(
        "DELETE FROM integration_deliveries WHERE id IN (SELECT id FROM integration_deliveries WHERE "
        "completed_at < ? AND status IN ('success', 'failed', 'canceled') ORDER BY completed_at LIMIT ?)",
        {before_ms, limit});
  }

  Result<int64_t> DeleteDeadLetters(ports::Tx& t, int64_t before_ms, int64_t limit) override {
    return Sql(t).Exec(
        "DELETE FROM delivery_dead_letters WHERE id IN (SELECT id FROM delivery_dead_letters WHERE "
        "created_at < ? ORDER BY created_at LIMIT ?)",
        {before_ms, limit});
  }

  Result<int64_t> DeleteUnusedEvents(ports::Tx& t, int64_t before_ms, int64_t limit) override {
    return Sql(t).Exec(
        "DELETE FROM delivery_events WHERE event_id IN (SELECT e.event_id FROM delivery_events e WHERE "
        "e.created_at < ? AND NOT EXISTS (SELECT 1 FROM integration_deliveries d WHERE d.event_id = "
        "e.event_id) ORDER BY e.created_at LIMIT ?)",
        {before_ms, limit});
  }

  Result<int64_t> DeadLetterCount(ports::Tx& t, const std::string& integration_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT COUNT(*) FROM delivery_dead_letters WHERE integration_id = ?",
                                     {integration_id}));
    return r.Int(0, 0);
  }

  Result<Backlog> CountBacklog(ports::Tx& t, int64_t now_ms) override {
    // The WHERE matches the partial index integration_deliveries_due.
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT COUNT(*) FILTER (WHERE status = 'pending'), "
                                     "COUNT(*) FILTER (WHERE status = 'deferred'), "
                                     "COUNT(*) FILTER (WHERE status = 'pending' AND next_attempt_at < ?) "
                                     "FROM integration_deliveries WHERE status IN ('pending', 'deferred')",
                                     {now_ms - 60'000}));
    return Backlog{r.Int(0, 0), r.Int(0, 1), r.Int(0, 2)};
  }

  Result<std::optional<ports::CodeHostIssue>> GetIssue(ports::Tx& t, const std::string& integration_id,
                                                       const std::string& bug_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT url, number FROM code_host_issues WHERE integration_id = ? "
                                     "AND bug_id = ?",
                                     {integration_id, bug_id}));
    if (r.size() == 0) return std::optional<ports::CodeHostIssue>();
    return std::optional<ports::CodeHostIssue>(
        ports::CodeHostIssue{integration_id, bug_id, r.Str(0, 0), r.Int(0, 1)});
  }

  Status PutIssue(ports::Tx& t, const ports::CodeHostIssue& i, int64_t now_ms) override {
    return Sql(t)
        .Exec(
            "INSERT INTO code_host_issues (integration_id, bug_id, url, number, created_at) VALUES (?, ?, ?, "
            "?, ?) "
            "ON CONFLICT (integration_id, bug_id) DO NOTHING",
            {i.integration_id, i.bug_id, i.url, i.number, now_ms})
        .status();
  }

  Result<std::optional<ports::StoredAlertPolicy>> GetPolicy(ports::Tx& t,
                                                            const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(Rows r,
                        Sql(t).Query("SELECT org_id, body, updated_at, updated_by FROM alert_policies "
                                     "WHERE project_id = ?",
                                     {project_id}));
    if (r.size() == 0) return std::optional<ports::StoredAlertPolicy>();
    return std::optional<ports::StoredAlertPolicy>(
        ports::StoredAlertPolicy{project_id, r.Str(0, 0), r.Str(0, 1), r.Int(0, 2), r.Str(0, 3)});
  }

  Status PutPolicy(ports::Tx& t, const ports::StoredAlertPolicy& p) override {
    return Sql(t)
        .Exec(
            "INSERT INTO alert_policies (project_id, org_id, body, updated_at, updated_by) VALUES (?, ?, ?, "
            "?, ?) "
            "ON CONFLICT (project_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at, "
            "updated_by = excluded.updated_by",
            {p.project_id, p.org_id, p.body, p.updated_at, p.updated_by})
        .status();
  }

  Status DeleteOrganizationRows(ports::Tx& t, const std::string& org_id) override {
    Connection& c = Sql(t);
    for (const char* sql :
         {"DELETE FROM delivery_dead_letters WHERE org_id = ?",
          "DELETE FROM integration_deliveries WHERE org_id = ?",
          "DELETE FROM delivery_events WHERE org_id = ?",
          "DELETE FROM code_host_issues WHERE integration_id IN (SELECT id FROM integrations WHERE org_id = "
          "?)",
          "DELETE FROM alert_policies WHERE org_id = ?", "DELETE FROM integrations WHERE org_id = ?"}) {
      SV_RETURN_IF_ERROR(c.Exec(sql, {org_id}).status());
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<ports::IntegrationRepository> NewSqlIntegrationRepository() {
  return std::make_unique<SqlIntegrationRepository>();
}

}  // namespace service::store
