// Contract tests of the applications area's repositories on both backends,
// through their interfaces (areas/applications/ports/): inserts with the
// request-id and unique-field outcomes, finds and pages scoped by
// organization, project and application, page order and the page-after
// position, deletes with their cascades; the receipt repository's client
// capture ids and receipts (the first wins, also with writers racing on two
// database handles as two processes would), the receipt read with what is
// left of its occurrence; the directory (finds, builds by digest, observed
// targets of bugs) and the foreign keys (project and organization deletion
// take every row; a deleted occurrence takes its identity, never the
// receipt).
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "areas/applications/ports/application_directory.h"
#include "areas/applications/ports/receipt_repository.h"
#include "areas/applications/ports/registry_repository.h"
#include "areas/applications/store/repositories.h"
#include "store/database.h"
#include "store/migrations.h"
#include "support/store_fixture.h"
#include "support/test_db.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kProject2 = "00000000-0000-7000-8000-000000000003";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::RegistryRepository> registry = NewSqlRegistryRepository();
  std::unique_ptr<ports::ReceiptRepository> receipts = NewSqlReceiptRepository();
  std::unique_ptr<ports::ApplicationDirectory> directory = NewSqlApplicationDirectory();

  Fixture() : StoreFixture({kProject, kProject2}) { AddOtherOrganization(); }

  ports::ApplicationRow App(const std::string& identifier, int64_t at = 1000,
                            const std::string& project = kProject, const std::string& org = kOrg) {
    ports::ApplicationRow a;
    a.id = Id();
    a.org_id = org;
    a.project_id = project;
    a.request_id = Id();
    a.name = "App " + identifier;
    a.identifier = identifier;
    a.created_at = at;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(ports::InsertOutcome o, registry->InsertApplication(tx, a, "u1"));
      return o == ports::InsertOutcome::kInserted ? Status::Ok() : Internal("not inserted");
    });
    return a;
  }

  ports::InstallationRow Installation(const ports::ApplicationRow& app, int64_t at = 1000,
                                      std::optional<std::string> label = std::nullopt) {
    ports::InstallationRow i;
    i.id = Id();
    i.org_id = app.org_id;
    i.project_id = app.project_id;
    i.application_id = app.id;
    i.request_id = Id();
    i.has_label = label.has_value();
    i.label = label.value_or("");
    i.created_at = at;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(ports::InsertOutcome o, registry->InsertInstallation(tx, i, "u1"));
      return o == ports::InsertOutcome::kInserted ? Status::Ok() : Internal("not inserted");
    });
    return i;
  }

  ports::BuildRow Build(const ports::ApplicationRow& app, char digit, int64_t at = 1000) {
    ports::BuildRow b;
    b.id = Id();
    b.org_id = app.org_id;
    b.project_id = app.project_id;
    b.application_id = app.id;
    b.request_id = Id();
    b.source_revision = "rev";
    b.source_revision.push_back(digit);
    b.artifact_sha256 = std::string(64, digit);
    b.created_at = at;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(ports::InsertOutcome o, registry->InsertBuild(tx, b, "u1"));
      return o == ports::InsertOutcome::kInserted ? Status::Ok() : Internal("not inserted");
    });
    return b;
  }

  // A bug with one occurrence; returns {bug, occurrence}.
  std::pair<std::string, std::string> Occurrence(const std::string& project = kProject,
                                                 const std::string& org = kOrg,
                                                 const std::string& bug_id = "") {
    const std::string bug = bug_id.empty() ? Id() : bug_id, occ = Id();
    Write([&](Connection& tx) -> Status {
      if (bug_id.empty()) {
        SV_RETURN_IF_ERROR(
            tx.Exec("INSERT INTO bugs (id, org_id, project_id, fingerprint, title, first_seen, "
                    "last_seen, created_at, updated_at) VALUES (?, ?, ?, ?, 't', 1, 1, 1, 1)",
                    {bug, org, project, bug})
                .status());
      }
      return tx
          .Exec(
              "INSERT INTO occurrences (id, bug_id, project_id, org_id, user_key, user_kind, platform, "
              "occurred_at, created_at) VALUES (?, ?, ?, ?, 'u', 'anonymous', 'web', 1, 1)",
              {occ, bug, project, org})
          .status();
    });
    return {bug, occ};
  }

  ports::CaptureIdentityRow Identity(const ports::InstallationRow& inst, const std::string& occ,
                                     const std::string& runtime, const std::string& platform = "ios",
                                     const std::string& os = "ios") {
    ports::CaptureIdentityRow r;
    r.occurrence_id = occ;
    r.capture_id = Id();
    r.org_id = inst.org_id;
    r.project_id = inst.project_id;
    r.application_id = inst.application_id;
    r.installation_id = inst.id;
    r.sdk_name = "service-swift";
    r.sdk_version = "1.0";
    r.source = "handled_error";
    r.framework = "native";
    r.runtime = runtime;
    r.os_family = os;
    r.platform = platform;
    r.accepted_at = 5000;
    Write([&](Connection& tx) { return receipts->InsertIdentity(tx, r); });
    return r;
  }

  ports::ReceiptRow Receipt(const ports::InstallationRow& inst, const std::string& bug,
                            const std::string& occ, const std::string& capture_id) {
    ports::ReceiptRow r;
    r.installation_id = inst.id;
    r.org_id = inst.org_id;
    r.project_id = inst.project_id;
    r.application_id = inst.application_id;
    r.capture_id = capture_id;
    r.occurrence_id = occ;
    r.bug_id = bug;
    r.accepted_at = 7000;
    r.sdk_name = "service-browser";
    r.sdk_version = "2.3.1";
    r.capture_source = "automatic";
    r.platform = "web";
    return r;
  }
};

TEST_CASE("applications store: inserts name the key they ran into, finds are scoped") {
  Fixture f;
  const ports::ApplicationRow a = f.App("com.example.shop");
  f.Write([&](Connection& tx) -> Status {
    ports::ApplicationRow again = a;
    again.id = f.Id();
    SV_ASSIGN_OR_RETURN(ports::InsertOutcome same_request, f.registry->InsertApplication(tx, again, "u1"));
    CHECK(same_request == ports::InsertOutcome::kRequestIdUsed);
    again.request_id = f.Id();
    SV_ASSIGN_OR_RETURN(ports::InsertOutcome same_identifier, f.registry->InsertApplication(tx, again, "u1"));
    CHECK(same_identifier == ports::InsertOutcome::kUniqueTaken);
    again.project_id = kProject2;  // another project may register the identifier
    SV_ASSIGN_OR_RETURN(ports::InsertOutcome other_project, f.registry->InsertApplication(tx, again, "u1"));
    CHECK(other_project == ports::InsertOutcome::kInserted);
    return Status::Ok();
  });
  const ports::InstallationRow i = f.Installation(a, 1000, "Lab");
  const ports::BuildRow b = f.Build(a, 'a');
  f.Write([&](Connection& tx) -> Status {
    ports::BuildRow again = b;
    again.id = f.Id();
    again.request_id = f.Id();
    SV_ASSIGN_OR_RETURN(ports::InsertOutcome same_digest, f.registry->InsertBuild(tx, again, "u1"));
    CHECK(same_digest == ports::InsertOutcome::kUniqueTaken);
    ports::InstallationRow inst = i;
    inst.id = f.Id();
    SV_ASSIGN_OR_RETURN(ports::InsertOutcome same_request, f.registry->InsertInstallation(tx, inst, "u1"));
    CHECK(same_request == ports::InsertOutcome::kRequestIdUsed);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto by_request, f.registry->ApplicationByRequest(c, kOrg, kProject, a.request_id));
    REQUIRE(by_request);
    CHECK(by_request->id == a.id);
    CHECK(by_request->name == a.name);
    CHECK(by_request->identifier == "com.example.shop");
    SV_ASSIGN_OR_RETURN(auto foreign, f.registry->ApplicationByRequest(c, kOtherOrg, kProject, a.request_id));
    CHECK_FALSE(foreign);
    SV_ASSIGN_OR_RETURN(auto wrong_project, f.registry->FindApplication(c, kOrg, kProject2, a.id));
    CHECK_FALSE(wrong_project);
    SV_ASSIGN_OR_RETURN(auto inst, f.registry->FindInstallation(c, kOrg, kProject, a.id, i.id));
    REQUIRE(inst);
    CHECK(inst->has_label);
    CHECK(inst->label == "Lab");
    CHECK_FALSE(inst->capture_received);
    SV_ASSIGN_OR_RETURN(auto wrong_app, f.registry->FindInstallation(c, kOrg, kProject, f.Id(), i.id));
    CHECK_FALSE(wrong_app);
    SV_ASSIGN_OR_RETURN(auto other_org, f.registry->FindInstallation(c, kOtherOrg, kProject, a.id, i.id));
    CHECK_FALSE(other_org);
    SV_ASSIGN_OR_RETURN(auto build, f.registry->BuildByRequest(c, kOrg, kProject, b.request_id));
    REQUIRE(build);
    CHECK(build->artifact_sha256 == std::string(64, 'a'));
    CHECK(build->source_revision == "reva");
    return Status::Ok();
  });
}

TEST_CASE("applications store: pages in creation order then id, after a position, scoped") {
  Fixture f;
  std::vector<ports::ApplicationRow> apps;
  for (int i = 0; i < 5; ++i) apps.push_back(f.App("app" + std::to_string(i), i < 3 ? 1000 : 2000));
  f.App("foreign", 1000, kOtherProject, kOtherOrg);
  f.App("project2", 1000, kProject2);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto all, f.registry->ListApplications(c, kOrg, kProject, std::nullopt, 50));
    REQUIRE(all.size() == 5);
    for (size_t i = 0; i < all.size(); ++i) CHECK(all[i].id == apps[i].id);  // ids grow with creation
    SV_ASSIGN_OR_RETURN(auto first, f.registry->ListApplications(c, kOrg, kProject, std::nullopt, 2));
    REQUIRE(first.size() == 2);
    SV_ASSIGN_OR_RETURN(auto rest,
                        f.registry->ListApplications(c, kOrg, kProject,
                                                     ports::PageAfter{first[1].created_at, first[1].id}, 50));
    REQUIRE(rest.size() == 3);
    CHECK(rest[0].id == apps[2].id);
    SV_ASSIGN_OR_RETURN(auto none, f.registry->ListApplications(c, kOtherOrg, kProject, std::nullopt, 50));
    CHECK(none.empty());
    return Status::Ok();
  });
  const ports::InstallationRow i1 = f.Installation(apps[0], 10);
  const ports::InstallationRow i2 = f.Installation(apps[0], 20);
  f.Installation(apps[1], 5);
  f.Build(apps[0], 'b', 10);
  f.Build(apps[1], 'c', 10);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto insts,
                        f.registry->ListInstallations(c, kOrg, kProject, apps[0].id, std::nullopt, 50));
    REQUIRE(insts.size() == 2);
    CHECK(insts[0].id == i1.id);
    CHECK(insts[1].id == i2.id);
    CHECK_FALSE(insts[0].has_label);
    SV_ASSIGN_OR_RETURN(auto after, f.registry->ListInstallations(c, kOrg, kProject, apps[0].id,
                                                                  ports::PageAfter{10, i1.id}, 50));
    REQUIRE(after.size() == 1);
    CHECK(after[0].id == i2.id);
    SV_ASSIGN_OR_RETURN(auto builds, f.registry->ListBuilds(c, kOrg, kProject, apps[0].id, std::nullopt, 50));
    REQUIRE(builds.size() == 1);
    CHECK(builds[0].artifact_sha256 == std::string(64, 'b'));
    SV_ASSIGN_OR_RETURN(auto foreign,
                        f.registry->ListBuilds(c, kOtherOrg, kProject, apps[0].id, std::nullopt, 50));
    CHECK(foreign.empty());
    return Status::Ok();
  });
}

TEST_CASE(
    "applications store: client capture ids and receipts: the first wins, the read sees the occurrence") {
  Fixture f;
  const ports::ApplicationRow a = f.App("web");
  const ports::InstallationRow i = f.Installation(a);
  const auto bug_occ_pair = f.Occurrence();
  const std::string bug = bug_occ_pair.first, occ = bug_occ_pair.second;
  const auto bug2_occ2_pair = f.Occurrence();
  const std::string bug2 = bug2_occ2_pair.first, occ2 = bug2_occ2_pair.second;
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool first, f.receipts->ClaimClientCaptureId(tx, i.id, "cap-1", occ, 1));
    CHECK(first);
    SV_ASSIGN_OR_RETURN(bool again, f.receipts->ClaimClientCaptureId(tx, i.id, "cap-1", occ2, 2));
    CHECK_FALSE(again);
    SV_ASSIGN_OR_RETURN(bool other, f.receipts->ClaimClientCaptureId(tx, i.id, "cap-2", occ2, 2));
    CHECK(other);
    SV_ASSIGN_OR_RETURN(bool created, f.receipts->InsertReceiptIfAbsent(tx, f.Receipt(i, bug, occ, "cap-1")));
    CHECK(created);
    SV_ASSIGN_OR_RETURN(bool second,
                        f.receipts->InsertReceiptIfAbsent(tx, f.Receipt(i, bug2, occ2, "cap-2")));
    CHECK_FALSE(second);
    return Status::Ok();
  });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto r, f.receipts->FindReceipt(c, kOrg, kProject, a.id, i.id));
    REQUIRE(r);
    CHECK(r->receipt.capture_id == "cap-1");
    CHECK(r->receipt.occurrence_id == occ);
    CHECK(r->receipt.accepted_at == 7000);
    CHECK(r->receipt.sdk_version == "2.3.1");
    CHECK(r->live_bug_id == std::optional<std::string>(bug));
    SV_ASSIGN_OR_RETURN(auto foreign, f.receipts->FindReceipt(c, kOtherOrg, kProject, a.id, i.id));
    CHECK_FALSE(foreign);
    SV_ASSIGN_OR_RETURN(auto wrong_app, f.receipts->FindReceipt(c, kOrg, kProject, f.Id(), i.id));
    CHECK_FALSE(wrong_app);
    SV_ASSIGN_OR_RETURN(auto inst, f.registry->FindInstallation(c, kOrg, kProject, a.id, i.id));
    CHECK(inst->capture_received);
    return Status::Ok();
  });
  // The bug (and its occurrence) deleted: the receipt stays, without a live bug.
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM bugs WHERE id = ?", {bug}).status(); });
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto r, f.receipts->FindReceipt(c, kOrg, kProject, a.id, i.id));
    REQUIRE(r);
    CHECK(r->receipt.occurrence_id == occ);
    CHECK(r->receipt.bug_id == bug);
    CHECK_FALSE(r->live_bug_id);
    return Status::Ok();
  });
}

TEST_CASE("applications store: the directory: finds, builds by digest, observed targets of bugs") {
  Fixture f;
  const ports::ApplicationRow ios = f.App("com.example.ios");
  const ports::ApplicationRow web = f.App("https://shop.example");
  const ports::InstallationRow ii = f.Installation(ios);
  const ports::InstallationRow wi = f.Installation(web);
  const ports::BuildRow b = f.Build(ios, 'd');
  const auto bug_occ1_pair = f.Occurrence();
  const std::string bug = bug_occ1_pair.first, occ1 = bug_occ1_pair.second;
  const auto same_bug_occ2_pair = f.Occurrence(kProject, kOrg, bug);
  const std::string same_bug = same_bug_occ2_pair.first, occ2 = same_bug_occ2_pair.second;
  const auto merged_occ3_pair = f.Occurrence();
  const std::string merged = merged_occ3_pair.first, occ3 = merged_occ3_pair.second;
  const auto unrelated_occ4_pair = f.Occurrence();
  const std::string unrelated = unrelated_occ4_pair.first, occ4 = unrelated_occ4_pair.second;
  f.Identity(ii, occ1, "swift");
  f.Identity(ii, occ2, "swift");  // the same target twice: one row
  f.Identity(wi, occ3, "", "web", "");
  f.Identity(ii, occ4, "objc");
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto app, f.directory->FindApplication(c, kOrg, kProject, ios.id));
    REQUIRE(app);
    CHECK(app->identifier == "com.example.ios");
    SV_ASSIGN_OR_RETURN(auto no_app, f.directory->FindApplication(c, kOtherOrg, kProject, ios.id));
    CHECK_FALSE(no_app);
    SV_ASSIGN_OR_RETURN(auto inst, f.directory->FindInstallation(c, kOrg, kProject, ios.id, ii.id));
    REQUIRE(inst);
    CHECK(inst->application_id == ios.id);
    SV_ASSIGN_OR_RETURN(auto cross, f.directory->FindInstallation(c, kOrg, kProject, web.id, ii.id));
    CHECK_FALSE(cross);
    SV_ASSIGN_OR_RETURN(auto build, f.directory->FindBuild(c, kOrg, kProject, b.id));
    REQUIRE(build);
    CHECK(build->artifact_sha256 == std::string(64, 'd'));
    SV_ASSIGN_OR_RETURN(auto no_build, f.directory->FindBuild(c, kOrg, kProject2, b.id));
    CHECK_FALSE(no_build);
    SV_ASSIGN_OR_RETURN(auto by_sha,
                        f.directory->FindBuildBySha256(c, kOrg, kProject, ios.id, std::string(64, 'd')));
    REQUIRE(by_sha);
    CHECK(by_sha->id == b.id);
    SV_ASSIGN_OR_RETURN(auto no_sha,
                        f.directory->FindBuildBySha256(c, kOrg, kProject, web.id, std::string(64, 'd')));
    CHECK_FALSE(no_sha);

    SV_ASSIGN_OR_RETURN(auto targets, f.directory->ObservedTargets(c, kOrg, {bug, merged}));
    REQUIRE(targets.size() == 2);
    const bool ios_first = ios.id < web.id;
    const ports::ObservedTarget& t_ios = ios_first ? targets[0] : targets[1];
    const ports::ObservedTarget& t_web = ios_first ? targets[1] : targets[0];
    CHECK(t_ios.application_id == ios.id);
    CHECK(t_ios.runtime == "swift");
    CHECK(t_ios.platform == "ios");
    CHECK(t_ios.os_family == "ios");
    CHECK(t_web.application_id == web.id);
    CHECK(t_web.runtime.empty());
    CHECK(t_web.platform == "web");
    SV_ASSIGN_OR_RETURN(auto foreign, f.directory->ObservedTargets(c, kOtherOrg, {bug, merged}));
    CHECK(foreign.empty());
    SV_ASSIGN_OR_RETURN(auto none, f.directory->ObservedTargets(c, kOrg, {}));
    CHECK(none.empty());
    return Status::Ok();
  });
}

TEST_CASE("applications store: deletes and cascades") {
  Fixture f;
  const ports::ApplicationRow a = f.App("web");
  const ports::InstallationRow i = f.Installation(a);
  const ports::InstallationRow keep = f.Installation(a);
  f.Build(a, 'e');
  const auto bug_occ_pair = f.Occurrence();
  const std::string bug = bug_occ_pair.first, occ = bug_occ_pair.second;
  f.Identity(i, occ, "");
  f.Write([&](Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(f.receipts->ClaimClientCaptureId(tx, i.id, "c", occ, 1).status());
    return f.receipts->InsertReceiptIfAbsent(tx, f.Receipt(i, bug, occ, "c")).status();
  });
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool foreign, f.registry->DeleteInstallation(tx, kOtherOrg, kProject, a.id, i.id));
    CHECK_FALSE(foreign);
    SV_ASSIGN_OR_RETURN(bool deleted, f.registry->DeleteInstallation(tx, kOrg, kProject, a.id, i.id));
    CHECK(deleted);
    return Status::Ok();
  });
  for (const char* table : {"capture_receipts", "capture_client_ids", "capture_identities"}) {
    CAPTURE(table);
    CHECK(f.Int(std::string("SELECT COUNT(*) FROM ") + table) == 0);
  }
  CHECK(f.Int("SELECT COUNT(*) FROM application_installations") == 1);
  // A deleted occurrence takes its identity row.
  f.Identity(keep, occ, "");
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM occurrences WHERE id = ?", {occ}).status(); });
  CHECK(f.Int("SELECT COUNT(*) FROM capture_identities") == 0);
  // Deleting the application takes its installations and builds.
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool deleted, f.registry->DeleteApplication(tx, kOrg, kProject, a.id));
    CHECK(deleted);
    return Status::Ok();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM application_installations") == 0);
  CHECK(f.Int("SELECT COUNT(*) FROM application_builds") == 0);
  // A deleted project, then organization, takes every row.
  const ports::ApplicationRow b = f.App("web2");
  const ports::InstallationRow bi = f.Installation(b);
  const auto bug2_occ2_pair = f.Occurrence();
  const std::string bug2 = bug2_occ2_pair.first, occ2 = bug2_occ2_pair.second;
  f.Identity(bi, occ2, "");
  f.Write([&](Connection& tx) {
    return f.receipts->InsertReceiptIfAbsent(tx, f.Receipt(bi, bug2, occ2, "x")).status();
  });
  f.App("p2", 1, kProject2);
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM projects WHERE id = ?", {kProject}).status(); });
  for (const char* table : {"capture_receipts", "capture_identities", "application_installations"}) {
    CAPTURE(table);
    CHECK(f.Int(std::string("SELECT COUNT(*) FROM ") + table) == 0);
  }
  CHECK(f.Int("SELECT COUNT(*) FROM applications") == 1);
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM organizations WHERE id = ?", {kOrg}).status(); });
  CHECK(f.Int("SELECT COUNT(*) FROM applications") == 0);
}

TEST_CASE(
    "applications store: writers racing for one installation's receipt on two database handles: one wins") {
  const std::string url = testing::FreshDatabaseUrl();
  auto first = OpenDatabase(url);
  REQUIRE_MESSAGE(first.ok(), first.status().ToString());
  std::unique_ptr<Database> db1 = std::move(first).value();
  REQUIRE(ApplyMigrations(*db1).ok());
  std::unique_ptr<Database> db2;
  if (db1->dialect() == Dialect::kPostgres) {
    auto second = OpenDatabase(url);
    REQUIRE_MESSAGE(second.ok(), second.status().ToString());
    db2 = std::move(second).value();
  }
  const std::string app = "00000000-0000-7000-8000-0000000000a1";
  const std::string inst = "00000000-0000-7000-8000-0000000000a2";
  REQUIRE(
      db1->Write([&](Connection& tx) -> Status {
           SV_RETURN_IF_ERROR(tx.Exec("INSERT INTO organizations (id, name, slug, plan, created_at, "
                                      "updated_at) VALUES (?, 'Org', 'org', 'pro', 1, 1)",
                                      {kOrg})
                                  .status());
           SV_RETURN_IF_ERROR(
               tx.Exec("INSERT INTO projects (id, org_id, name, slug, created_at) VALUES (?, ?, 'P', 'p', 1)",
                       {kProject, kOrg})
                   .status());
           SV_RETURN_IF_ERROR(tx.Exec("INSERT INTO applications (id, org_id, project_id, request_id, name, "
                                      "identifier, created_at) VALUES (?, ?, ?, 'r', 'A', 'a', 1)",
                                      {app, kOrg, kProject})
                                  .status());
           return tx
               .Exec(
                   "INSERT INTO application_installations (id, org_id, project_id, application_id, "
                   "request_id, created_at) VALUES (?, ?, ?, ?, 'r', 1)",
                   {inst, kOrg, kProject, app})
               .status();
         })
          .ok());
  std::unique_ptr<ports::ReceiptRepository> repo = NewSqlReceiptRepository();
  constexpr int kThreads = 8;
  std::atomic<int> created{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Database& db = (t % 2 == 1 && db2) ? *db2 : *db1;
      const Status s = db.WriteAlone([&](Connection& tx) -> Status {
        ports::ReceiptRow r;
        r.installation_id = inst;
        r.org_id = kOrg;
        r.project_id = kProject;
        r.application_id = app;
        r.capture_id = "capture-" + std::to_string(t);
        r.occurrence_id = "occ-" + std::to_string(t);
        r.bug_id = "bug";
        r.accepted_at = t;
        SV_ASSIGN_OR_RETURN(bool mine, repo->InsertReceiptIfAbsent(tx, r));
        if (mine) ++created;
        return Status::Ok();
      });
      if (!s.ok()) ++failures;
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures.load() == 0);
  CHECK(created.load() == 1);
  int64_t rows = -1;
  REQUIRE(db1->Read([&](Connection& c) -> Status {
               SV_ASSIGN_OR_RETURN(Rows r, c.Query("SELECT COUNT(*) FROM capture_receipts"));
               rows = r.Int(0, 0);
               return Status::Ok();
             })
              .ok());
  CHECK(rows == 1);
  if (db2) db2->Close();
  db1->Close();
}

}  // namespace
}  // namespace service::store
