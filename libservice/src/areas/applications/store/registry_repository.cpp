// SQL behind ports::RegistryRepository and ports::ApplicationDirectory (one
// text for both backends).
#include "areas/applications/ports/registry_repository.h"

#include "areas/applications/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

constexpr size_t kMaxObservedBugIds = 1000;

constexpr std::string_view kAppColumns =
    "SELECT id, org_id, project_id, name, identifier, created_at, request_id FROM applications";
constexpr std::string_view kInstallationColumns =
    "SELECT i.id, i.org_id, i.project_id, i.application_id, i.label, i.created_at, i.request_id, "
    "(SELECT COUNT(*) FROM capture_receipts r WHERE r.installation_id = i.id) "
    "FROM application_installations i";
constexpr std::string_view kBuildColumns =
    "SELECT id, org_id, project_id, application_id, source_revision, artifact_sha256, created_at, request_id "
    "FROM application_builds";

ports::ApplicationRow AppAt(const Rows& r, size_t i) {
  ports::ApplicationRow a;
  a.id = r.Str(i, 0);
  a.org_id = r.Str(i, 1);
  a.project_id = r.Str(i, 2);
  a.name = r.Str(i, 3);
  a.identifier = r.Str(i, 4);
  a.created_at = r.Int(i, 5);
  a.request_id = r.Str(i, 6);
  return a;
}

ports::InstallationRow InstallationAt(const Rows& r, size_t i) {
  ports::InstallationRow a;
  a.id = r.Str(i, 0);
  a.org_id = r.Str(i, 1);
  a.project_id = r.Str(i, 2);
  a.application_id = r.Str(i, 3);
  a.has_label = !r.IsNull(i, 4);
  a.label = r.Str(i, 4);
  a.created_at = r.Int(i, 5);
  a.request_id = r.Str(i, 6);
  a.capture_received = r.Int(i, 7) > 0;
  return a;
}

ports::BuildRow BuildAt(const Rows& r, size_t i) {
  ports::BuildRow b;
  b.id = r.Str(i, 0);
  b.org_id = r.Str(i, 1);
  b.project_id = r.Str(i, 2);
  b.application_id = r.Str(i, 3);
  b.source_revision = r.Str(i, 4);
  b.artifact_sha256 = r.Str(i, 5);
  b.created_at = r.Int(i, 6);
  b.request_id = r.Str(i, 7);
  return b;
}

template <typename Row, typename Fn>
Result<std::optional<Row>> First(Result<Rows> r, Fn at) {
  if (!r.ok()) return r.status();
  if (r->empty()) return std::optional<Row>();
  return std::optional<Row>(at(*r, 0));
}

template <typename Row, typename Fn>
Result<std::vector<Row>> All(Result<Rows> r, Fn at) {
  if (!r.ok()) return r.status();
  std::vector<Row> out;
  out.reserve(r->size());
  for (size_t i = 0; i < r->size(); ++i) out.push_back(at(*r, i));
  return out;
}

// " AND (created_at > ? OR (created_at = ? AND id > ?))" for a page after
// `after` (column prefix `p`), with its parameters appended.
std::string PageClause(const std::optional<ports::PageAfter>& after, std::string_view p,
                       std::vector<Value>& params) {
  if (!after) return {};
  params.emplace_back(after->created_at);
  params.emplace_back(after->created_at);
  params.emplace_back(after->id);
  const std::string c(p);
  return " AND (" + c + "created_at > ? OR (" + c + "created_at = ? AND " + c + "id > ?))";
}

// After an insert that changed nothing: whose unique key was it?
Result<ports::InsertOutcome> Outcome(Connection& c, int64_t changed, std::string_view table,
                                     const std::string& project_id, const std::string& request_id) {
  if (changed > 0) return ports::InsertOutcome::kInserted;
  SV_ASSIGN_OR_RETURN(
      Rows r, c.Query("SELECT 1 FROM " + std::string(table) + " WHERE project_id = ? AND request_id = ?",
                      {project_id, request_id}));
  return r.empty() ? ports::InsertOutcome::kUniqueTaken : ports::InsertOutcome::kRequestIdUsed;
}

class SqlRegistryRepository final : public ports::RegistryRepository {
 public:
  Result<ports::InsertOutcome> InsertApplication(ports::Tx& t, const ports::ApplicationRow& a,
                                                 const std::string& created_by) override {
    Connection& c = Sql(t);
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        c.Exec("INSERT INTO applications (id, org_id, project_id, request_id, name, "
               "identifier, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
               "ON CONFLICT DO NOTHING",
               {a.id, a.org_id, a.project_id, a.request_id, a.name, a.identifier, created_by, a.created_at}));
    return Outcome(c, n, "applications", a.project_id, a.request_id);
  }

  Result<ports::InsertOutcome> InsertInstallation(ports::Tx& t, const ports::InstallationRow& a,
                                                  const std::string& created_by) override {
    Connection& c = Sql(t);
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        c.Exec("INSERT INTO application_installations (id, org_id, project_id, application_id, request_id, "
               "label, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
               {a.id, a.org_id, a.project_id, a.application_id, a.request_id,
                a.has_label ? Value(a.label) : Value(nullptr), created_by, a.created_at}));
    return Outcome(c, n, "application_installations", a.project_id, a.request_id);
  }

  Result<ports::InsertOutcome> InsertBuild(ports::Tx& t, const ports::BuildRow& b,
                                           const std::string& created_by) override {
    Connection& c = Sql(t);
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        c.Exec("INSERT INTO application_builds (id, org_id, project_id, application_id, request_id, "
               "source_revision, artifact_sha256, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
               "ON CONFLICT DO NOTHING",
               {b.id, b.org_id, b.project_id, b.application_id, b.request_id, b.source_revision,
                b.artifact_sha256, created_by, b.created_at}));
    return Outcome(c, n, "application_builds", b.project_id, b.request_id);
  }

  Result<std::optional<ports::ApplicationRow>> ApplicationByRequest(ports::Tx& t, const std::string& org_id,
                                                                    const std::string& project_id,
                                                                    const std::string& request_id) override {
    return First<ports::ApplicationRow>(
        Sql(t).Query(std::string(kAppColumns) + " WHERE project_id = ? AND request_id = ? AND org_id = ?",
                     {project_id, request_id, org_id}),
        AppAt);
  }

  Result<std::optional<ports::InstallationRow>> InstallationByRequest(
      ports::Tx& t, const std::string& org_id, const std::string& project_id,
      const std::string& request_id) override {
    return First<ports::InstallationRow>(
        Sql(t).Query(std::string(kInstallationColumns) +
                         " WHERE i.project_id = ? AND i.request_id = ? AND i.org_id = ?",
                     {project_id, request_id, org_id}),
        InstallationAt);
  }

  Result<std::optional<ports::BuildRow>> BuildByRequest(ports::Tx& t, const std::string& org_id,
                                                        const std::string& project_id,
                                                        const std::string& request_id) override {
    return First<ports::BuildRow>(
        Sql(t).Query(std::string(kBuildColumns) + " WHERE project_id = ? AND request_id = ? AND org_id = ?",
                     {project_id, request_id, org_id}),
        BuildAt);
  }

  Result<std::optional<ports::ApplicationRow>> FindApplication(ports::Tx& t, const std::string& org_id,
                                                               const std::string& project_id,
                                                               const std::string& application_id) override {
    return First<ports::ApplicationRow>(
        Sql(t).Query(std::string(kAppColumns) + " WHERE id = ? AND project_id = ? AND org_id = ?",
                     {application_id, project_id, org_id}),
        AppAt);
  }

  Result<std::optional<ports::InstallationRow>> FindInstallation(
      ports::Tx& t, const std::string& org_id, const std::string& project_id,
      const std::string& application_id, const std::string& installation_id) override {
    return First<ports::InstallationRow>(
        Sql(t).Query(std::string(kInstallationColumns) +
                         " WHERE i.id = ? AND i.application_id = ? AND i.project_id = ? AND i.org_id = ?",
                     {installation_id, application_id, project_id, org_id}),
        InstallationAt);
  }

  Result<std::vector<ports::ApplicationRow>> ListApplications(ports::Tx& t, const std::string& org_id,
                                                              const std::string& project_id,
                                                              const std::optional<ports::PageAfter>& after,
                                                              int64_t limit) override {
    std::vector<Value> params{project_id, org_id};
    std::string sql = std::string(kAppColumns) + " WHERE project_id = ? AND org_id = ?" +
                      PageClause(after, "", params) + " ORDER BY created_at, id LIMIT ?";
    params.emplace_back(limit);
    return All<ports::ApplicationRow>(Sql(t).Query(sql, params), AppAt);
  }

  Result<std::vector<ports::InstallationRow>> ListInstallations(ports::Tx& t, const std::string& org_id,
                                                                const std::string& project_id,
                                                                const std::string& application_id,
                                                                const std::optional<ports::PageAfter>& after,
                                                                int64_t limit) override {
    std::vector<Value> params{application_id, project_id, org_id};
    std::string sql = std::string(kInstallationColumns) +
                      " WHERE i.application_id = ? AND i.project_id = ? AND i.org_id = ?" +
                      PageClause(after, "i.", params) + " ORDER BY i.created_at, i.id LIMIT ?";
    params.emplace_back(limit);
    return All<ports::InstallationRow>(Sql(t).Query(sql, params), InstallationAt);
  }

  Result<std::vector<ports::BuildRow>> ListBuilds(ports::Tx& t, const std::string& org_id,
                                                  const std::string& project_id,
                                                  const std::string& application_id,
                                                  const std::optional<ports::PageAfter>& after,
                                                  int64_t limit) override {
    std::vector<Value> params{application_id, project_id, org_id};
    std::string sql = std::string(kBuildColumns) +
                      " WHERE application_id = ? AND project_id = ? AND org_id = ?" +
                      PageClause(after, "", params) + " ORDER BY created_at, id LIMIT ?";
    params.emplace_back(limit);
    return All<ports::BuildRow>(Sql(t).Query(sql, params), BuildAt);
  }

  Result<bool> DeleteApplication(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                                 const std::string& application_id) override {
    SV_ASSIGN_OR_RETURN(int64_t n, Sql(t).Exec("DELETE FROM applications WHERE id = ? AND project_id = ? AND "
                                               "org_id = ?",
                                               {application_id, project_id, org_id}));
    return n > 0;
  }

  Result<bool> DeleteInstallation(ports::Tx& t, const std::string& org_id, const std::string& project_id,
                                  const std::string& application_id,
                                  const std::string& installation_id) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n, Sql(t).Exec("DELETE FROM application_installations WHERE id = ? AND application_id = ? "
                               "AND project_id = ? AND org_id = ?",
                               {installation_id, application_id, project_id, org_id}));
    return n > 0;
  }
};

// The directory as its own object (its method names overlap the registry's).
class SqlApplicationDirectory final : public ports::ApplicationDirectory {
 public:
  Result<std::optional<ports::DirectoryApplication>> FindApplication(
      ports::Tx& t, const std::string& org_id, const std::string& project_id,
      const std::string& application_id) override {
    SV_ASSIGN_OR_RETURN(std::optional<ports::ApplicationRow> a,
                        registry_.FindApplication(t, org_id, project_id, application_id));
    if (!a) return std::optional<ports::DirectoryApplication>();
    return std::optional<ports::DirectoryApplication>(std::move(*a));
  }

  Result<std::optional<ports::DirectoryInstallation>> FindInstallation(
      ports::Tx& t, const std::string& org_id, const std::string& project_id,
      const std::string& application_id, const std::string& installation_id) override {
    SV_ASSIGN_OR_RETURN(std::optional<ports::InstallationRow> i,
                        registry_.FindInstallation(t, org_id, project_id, application_id, installation_id));
    if (!i) return std::optional<ports::DirectoryInstallation>();
    return std::optional<ports::DirectoryInstallation>(std::move(*i));
  }

  Result<std::optional<ports::DirectoryBuild>> FindBuild(ports::Tx& t, const std::string& org_id,
                                                         const std::string& project_id,
                                                         const std::string& build_id) override {
    return First<ports::DirectoryBuild>(
        Sql(t).Query(std::string(kBuildColumns) + " WHERE id = ? AND project_id = ? AND org_id = ?",
                     {build_id, project_id, org_id}),
        [](const Rows& r, size_t i) -> ports::DirectoryBuild { return BuildAt(r, i); });
  }

  Result<std::optional<ports::DirectoryBuild>> FindBuildBySha256(
      ports::Tx& t, const std::string& org_id, const std::string& project_id,
      const std::string& application_id, const std::string& artifact_sha256) override {
    return First<ports::DirectoryBuild>(
        Sql(t).Query(
            std::string(kBuildColumns) +
                " WHERE application_id = ? AND artifact_sha256 = ? AND project_id = ? AND org_id = ? "
                "ORDER BY created_at, id LIMIT 1",
            {application_id, artifact_sha256, project_id, org_id}),
        [](const Rows& r, size_t i) -> ports::DirectoryBuild { return BuildAt(r, i); });
  }

  Result<std::vector<ports::ObservedTarget>> ObservedTargets(
      ports::Tx& t, const std::string& org_id, const std::vector<std::string>& bug_ids) override {
    std::vector<ports::ObservedTarget> out;
    if (bug_ids.empty()) return out;
    std::vector<Value> params{org_id};
    std::string in;
    for (size_t i = 0; i < bug_ids.size() && i < kMaxObservedBugIds; ++i) {
      in += i == 0 ? "?" : ", ?";
      params.emplace_back(bug_ids[i]);
    }
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query("SELECT DISTINCT ci.application_id, ci.runtime, ci.platform, ci.os_family "
                             "FROM capture_identities ci JOIN occurrences o ON o.id = ci.occurrence_id "
                             "WHERE ci.org_id = ? AND o.bug_id IN (" +
                                 in + ") ORDER BY ci.application_id, ci.runtime, ci.platform, ci.os_family",
                             params));
    out.reserve(r.size());
    for (size_t i = 0; i < r.size(); ++i) {
      out.push_back({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2), r.Str(i, 3)});
    }
    return out;
  }

 private:
  SqlRegistryRepository registry_;
};

}  // namespace

std::unique_ptr<ports::RegistryRepository> NewSqlRegistryRepository() {
  return std::make_unique<SqlRegistryRepository>();
}

std::unique_ptr<ports::ApplicationDirectory> NewSqlApplicationDirectory() {
  return std::make_unique<SqlApplicationDirectory>();
}

}  // namespace service::store
