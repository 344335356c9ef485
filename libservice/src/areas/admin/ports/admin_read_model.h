// AdminReadModel: the superadmin's reads across every area's tables (Spec 2
// "Superadmin"). The admin area sits above all others and only reads here:
// one read-only SQL read model over other areas' tables; every write goes
// through the owning area's use case or port.
//
// Rows come back as records whose field names are the response's (snake
// case, as the spec's table shows; a name "a.b" is field b of object a) and
// whose values say how they render (times as ISO 8601). Every statement is a
// fixed text with `?` parameters; a table name from a request is only looked
// up in the allowlist, never put into SQL.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct AdminTime {
  int64_t unix_ms = 0;
};
// null, integer, boolean, text, time.
using AdminValue = std::variant<std::nullptr_t, int64_t, bool, std::string, AdminTime>;

struct AdminRecord {
  std::vector<std::pair<std::string, AdminValue>> fields;
  // The value of `name`, or null when absent.
  const AdminValue* Get(std::string_view name) const {
    for (const auto& f : fields)
      if (f.first == name) return &f.second;
    return nullptr;
  }
  // Replaces the value of `name`, or appends the field.
  void Set(std::string name, AdminValue value) {
    for (auto& f : fields) {
      if (f.first == name) {
        f.second = std::move(value);
        return;
      }
    }
    fields.emplace_back(std::move(name), std::move(value));
  }
};

struct AdminPage {
  std::vector<AdminRecord> rows;
  int64_t total = 0;
};

struct PageRequest {
  int64_t limit = 50;
  int64_t offset = 0;
  int64_t now_ms = 0;  // keys count as active when unrevoked and unexpired at this time
};

struct CustomerFilter {
  std::optional<std::string> search;  // name, slug or contact email contains (case-insensitive)
  std::optional<std::string> stage;
  std::optional<std::string> plan;
  std::optional<std::string> billing_status;
};

// Rows created per UTC day number (unix_ms / 86400000) from `since_day`.
using DailyCounts = std::map<int64_t, int64_t>;

enum class GrowthSeries { kUsers, kOrganizations, kBugs };

struct AiUsageDay {
  int64_t calls = 0;
  int64_t tokens = 0;
};
struct AiUsageRollup {
  int64_t total_calls = 0;
  int64_t total_input_tokens = 0;
  int64_t total_output_tokens = 0;
  std::map<int64_t, AiUsageDay> daily;  // by day number
  std::vector<AdminRecord> by_feature;  // feature, provider, model, calls, tokens
};

// One allowlisted table as db/tables/:table shows it.
struct AdminTable {
  std::vector<std::string> columns;
  std::vector<std::vector<AdminValue>> rows;  // raw values, secrets already redacted
  int64_t total = 0;
};

class AdminReadModel {
 public:
  AdminReadModel() = default;
  AdminReadModel(const AdminReadModel&) = delete;
  AdminReadModel& operator=(const AdminReadModel&) = delete;
  virtual ~AdminReadModel() = default;

  // users, organizations, projects, bugs, events (occurrences), api_keys
  // (capture keys), waitlist_pending.
  virtual Result<AdminRecord> Counts(Tx& c) = 0;
  virtual Result<DailyCounts> Daily(Tx& c, GrowthSeries series, int64_t since_day) = 0;

  // Organizations, newest first: id, name, slug, plan, created_at,
  // member_count, project_count.
  virtual Result<AdminPage> Organizations(Tx& c, const std::optional<std::string>& search,
                                          const PageRequest& page) = 0;
  // Customers, newest first (fields: see the README's admin section).
  virtual Result<AdminPage> Customers(Tx& c, const CustomerFilter& filter, const PageRequest& page) = 0;
  virtual Result<std::optional<AdminRecord>> Customer(Tx& c, const std::string& org_id, int64_t now_ms) = 0;
  // The organization's members (id, email, name, email_verified, last_login,
  // role, joined_at), oldest first, and projects (id, name, slug, platform,
  // created_at, bug_count, active_keys, last_key_used), oldest first.
  virtual Result<std::vector<AdminRecord>> Team(Tx& c, const std::string& org_id) = 0;
  virtual Result<std::vector<AdminRecord>> CustomerProjects(Tx& c, const std::string& org_id,
                                                            int64_t now_ms) = 0;

  // Accounts, newest first (id, email, name, status, email_verified,
  // last_login, created_at), and the organizations of some of them
  // (user_id, orgId, role, orgName).
  virtual Result<AdminPage> Users(Tx& c, const std::optional<std::string>& search,
                                  const PageRequest& page) = 0;
  virtual Result<std::vector<AdminRecord>> OrgsOfUsers(Tx& c, const std::vector<std::string>& user_ids) = 0;

  // Waitlist entries, newest first (never the token hash).
  virtual Result<AdminPage> Waitlist(Tx& c, const std::optional<std::string>& search,
                                     const std::optional<std::string>& status, const PageRequest& page) = 0;
  // Every project (with org_name, bug_count, active_keys), newest first.
  virtual Result<AdminPage> Projects(Tx& c, const PageRequest& page) = 0;
  // Every capture key (never its hash), newest first.
  virtual Result<AdminPage> Keys(Tx& c, const PageRequest& page) = 0;
  // total_keys, active_keys, used_last_24h, never_used.
  virtual Result<AdminRecord> KeyStats(Tx& c, int64_t now_ms) = 0;

  // The newest events of each kind (type, id, summary, detail, ts), at most
  // `limit` of each: bug_filed, status_change, user_signup.
  virtual Result<std::vector<AdminRecord>> Activity(Tx& c, int64_t limit) = 0;

  // Every allowlisted table with its row count, in the allowlist's order.
  virtual Result<std::vector<std::pair<std::string, int64_t>>> TableCounts(Tx& c) = 0;
  // One allowlisted table's page (nullopt: not allowlisted).
  virtual Result<std::optional<AdminTable>> Table(Tx& c, const std::string& name,
                                                  const PageRequest& page) = 0;

  virtual Result<AiUsageRollup> AiUsage(Tx& c, int64_t since_ms) = 0;

  // How many rows each allowlisted table holds for the organization (the
  // tables keyed by organization, its projects, bugs or members' accounts
  // alone are not counted: users and refresh tokens belong to accounts).
  virtual Result<std::vector<std::pair<std::string, int64_t>>> OrganizationFootprint(
      Tx& c, const std::string& org_id) = 0;
};

}  // namespace service::ports
