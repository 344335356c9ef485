#include "support/store_fixture.h"

#include <doctest/doctest.h>

#include <cstdio>

#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/migrations.h"
#include "support/test_db.h"

namespace service::testing {

StoreFixture::StoreFixture(const std::vector<std::string>& project_ids) {
  auto opened = store::OpenDatabase(FreshDatabaseUrl());
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  db = std::move(opened).value();
  REQUIRE(store::ApplyMigrations(*db).ok());
  Write([&](store::Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(
        tx.Exec("INSERT INTO organizations (id, name, slug, plan, created_at, updated_at) VALUES "
                "(?, 'Org', 'org', 'pro', 1, 1)",
                {kStoreOrg})
            .status());
    for (const std::string& p : project_ids) {
      SV_RETURN_IF_ERROR(
          tx.Exec("INSERT INTO projects (id, org_id, name, slug, created_at) VALUES (?, ?, ?, ?, 1)",
                  {p, kStoreOrg, p, p})
              .status());
    }
    return Status::Ok();
  });
}

StoreFixture::~StoreFixture() { db->Close(); }

void StoreFixture::Write(const std::function<Status(store::Connection&)>& fn) {
  Status st = db->Write(fn);
  REQUIRE_MESSAGE(st.ok(), st.ToString());
}

void StoreFixture::Read(const std::function<Status(store::Connection&)>& fn) {
  Status st = db->Read(fn);
  REQUIRE_MESSAGE(st.ok(), st.ToString());
}

void StoreFixture::AddOtherOrganization() {
  Write([&](store::Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(
        tx.Exec("INSERT INTO organizations (id, name, slug, plan, created_at, updated_at) VALUES "
                "(?, 'Other', 'other', 'free', 5, 5)",
                {kStoreOtherOrg})
            .status());
    return tx
        .Exec("INSERT INTO projects (id, org_id, name, slug, created_at) VALUES (?, ?, 'O', 'o', 1)",
              {kStoreOtherProject, kStoreOtherOrg})
        .status();
  });
}

int64_t StoreFixture::Int(const std::string& sql, const std::vector<store::Value>& params) {
  int64_t v = -1;
  REQUIRE(db->Read([&](store::Connection& c) -> Status {
              SV_ASSIGN_OR_RETURN(store::Rows r, c.Query(sql, params));
              v = r.empty() ? -1 : r.Int(0, 0);
              return Status::Ok();
            }).ok());
  return v;
}

std::string StoreFixture::Text(const std::string& sql, const std::vector<store::Value>& params) {
  std::string v;
  REQUIRE(db->Read([&](store::Connection& c) -> Status {
              SV_ASSIGN_OR_RETURN(store::Rows r, c.Query(sql, params));
              v = r.empty() ? "" : r.Str(0, 0);
              return Status::Ok();
            }).ok());
  return v;
}

std::string StoreFixture::Id() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-7000-8000-%012d", ++next_);
  return buf;
}

std::string StoreFixture::AddBug(const StoreBug& bug) {
  ports::BugReportWrite w;
  w.org_id = bug.org;
  w.project_id = bug.project;
  w.key_env = bug.env;
  w.fingerprint = "fp-" + Id();
  w.new_bug_id = Id();
  w.occurrence_id = Id();
  w.signature_hash = bug.group_key;
  w.grouping_v3_key = bug.identity;
  w.title = bug.title;
  w.severity = bug.severity;
  w.platform = "web";
  w.signal_class = bug.signal_class;
  w.signal_family = bug.signal_family;
  w.seen_at = bug.at;
  Write([&](store::Connection& tx) { return store::NewSqlCaptureBugRepository()->Create(tx, w).status(); });
  return w.new_bug_id;
}

}  // namespace service::testing
