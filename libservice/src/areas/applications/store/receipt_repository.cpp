// SQL behind ports::ReceiptRepository (one text for both backends).
#include "areas/applications/ports/receipt_repository.h"

#include "areas/applications/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

class SqlReceiptRepository final : public ports::ReceiptRepository {
 public:
  Result<bool> ClaimClientCaptureId(ports::Tx& t, const std::string& installation_id,
                                    const std::string& client_capture_id, const std::string& occurrence_id,
                                    int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(t).Exec("INSERT INTO capture_client_ids (installation_id, "
                                    "client_capture_id, occurrence_id, created_at) VALUES (?, ?, ?, ?) "
                                    "ON CONFLICT (installation_id, client_capture_id) DO NOTHING",
                                    {installation_id, client_capture_id, occurrence_id, now_ms}));
    return n > 0;
  }

  Status InsertIdentity(ports::Tx& t, const ports::CaptureIdentityRow& r) override {
    return Sql(t)
        .Exec(
            "INSERT INTO capture_identities (occurrence_id, capture_id, org_id, project_id, application_id, "
            "installation_id, sdk_name, sdk_version, source, framework, runtime, os_family, platform, "
            "accepted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (occurrence_id) DO "
            "NOTHING",
            {r.occurrence_id, r.capture_id, r.org_id, r.project_id, r.application_id, r.installation_id,
             r.sdk_name, r.sdk_version, r.source, r.framework, r.runtime, r.os_family, r.platform,
             r.accepted_at})
        .status();
  }

  Result<bool> InsertReceiptIfAbsent(ports::Tx& t, const ports::ReceiptRow& r) override {
    SV_ASSIGN_OR_RETURN(
        int64_t n,
        Sql(t).Exec(
            "INSERT INTO capture_receipts (installation_id, org_id, project_id, application_id, "
            "capture_id, occurrence_id, bug_id, accepted_at, sdk_name, sdk_version, capture_source, "
            "platform, os_family, framework, runtime) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (installation_id) DO NOTHING",
            {r.installation_id, r.org_id, r.project_id, r.application_id, r.capture_id, r.occurrence_id,
             r.bug_id, r.accepted_at, r.sdk_name, r.sdk_version, r.capture_source, r.platform, r.os_family,
             r.framework, r.runtime}));
    return n > 0;
  }

  Result<std::optional<ports::ReceiptView>> FindReceipt(ports::Tx& t, const std::string& org_id,
                                                        const std::string& project_id,
                                                        const std::string& application_id,
                                                        const std::string& installation_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        Sql(t).Query("SELECT r.installation_id, r.org_id, r.project_id, r.application_id, r.capture_id, "
                     "r.occurrence_id, r.bug_id, r.accepted_at, r.sdk_name, r.sdk_version, "
                     "r.capture_source, r.platform, r.os_family, r.framework, r.runtime, o.bug_id "
                     "FROM capture_receipts r LEFT JOIN occurrences o ON o.id = r.occurrence_id "
                     "WHERE r.installation_id = ? AND r.application_id = ? AND r.project_id = ? AND "
                     "r.org_id = ?",
                     {installation_id, application_id, project_id, org_id}));
    if (r.empty()) return std::optional<ports::ReceiptView>();
    ports::ReceiptView v;
    ports::ReceiptRow& x = v.receipt;
    x.installation_id = r.Str(0, 0);
    x.org_id = r.Str(0, 1);
    x.project_id = r.Str(0, 2);
    x.application_id = r.Str(0, 3);
    x.capture_id = r.Str(0, 4);
    x.occurrence_id = r.Str(0, 5);
    x.bug_id = r.Str(0, 6);
    x.accepted_at = r.Int(0, 7);
    x.sdk_name = r.Str(0, 8);
    x.sdk_version = r.Str(0, 9);
    x.capture_source = r.Str(0, 10);
    x.platform = r.Str(0, 11);
    x.os_family = r.Str(0, 12);
    x.framework = r.Str(0, 13);
    x.runtime = r.Str(0, 14);
    v.live_bug_id = r.OptStr(0, 15);
    return std::optional<ports::ReceiptView>(std::move(v));
  }
};

}  // namespace

std::unique_ptr<ports::ReceiptRepository> NewSqlReceiptRepository() {
  return std::make_unique<SqlReceiptRepository>();
}

}  // namespace service::store
