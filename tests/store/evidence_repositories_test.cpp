// Contract tests of the evidence repository on both backends, through its
// interface (areas/evidence/ports/artifact_repository.h): insert and find
// scoped by organization, reserved -> ready once and only while unexpired,
// deletion, the occurrence listing's filter, order, limit and offset,
// attachment rules, the occurrence lookup, expiry, the blobs' rows (lock,
// references, the unreferenced list) and the foreign keys (an artifact goes
// with its organization, project or occurrence).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/evidence/ports/artifact_repository.h"
#include "areas/evidence/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kProject2 = "00000000-0000-7000-8000-000000000003";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOtherProject = testing::kStoreOtherProject;

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::ArtifactRepository> repo = NewSqlArtifactRepository();

  Fixture() : StoreFixture({kProject, kProject2}) { AddOtherOrganization(); }

  // A bug with one occurrence in `project` of `org`; returns the occurrence id.
  std::string Occurrence(const std::string& project, const std::string& org = kOrg) {
    const std::string bug = Id(), occ = Id();
    Write([&](Connection& tx) -> Status {
      SV_RETURN_IF_ERROR(tx.Exec("INSERT INTO bugs (id, org_id, project_id, fingerprint, title, first_seen, "
                                 "last_seen, created_at, updated_at) VALUES (?, ?, ?, ?, 't', 1, 1, 1, 1)",
                                 {bug, org, project, bug})
                             .status());
      return tx
          .Exec(
              "INSERT INTO occurrences (id, bug_id, project_id, org_id, user_key, user_kind, platform, "
              "occurred_at, created_at) VALUES (?, ?, ?, ?, 'u', 'anonymous', 'web', 1, 1)",
              {occ, bug, project, org})
          .status();
    });
    return occ;
  }

  ports::ArtifactRow Row(const std::string& state = "ready", int64_t created = 1000,
                         const std::string& project = kProject, const std::string& org = kOrg) {
    ports::ArtifactRow r;
    r.id = Id();
    r.org_id = org;
    r.project_id = project;
    r.kind = "log";
    r.content_type = "text/plain";
    r.byte_count = 5;
    r.sha256 = std::string(64, 'a');
    r.storage_key = "sha256/" + r.sha256;
    r.state = state;
    r.uploader_id = "user:u1";
    r.created_at = r.updated_at = created;
    r.expires_at = 10'000;
    return r;
  }

  void Insert(const ports::ArtifactRow& r) {
    Write([&](Connection& tx) { return repo->Insert(tx, r); });
  }
  std::optional<ports::ArtifactRow> Find(const std::string& org, const std::string& id) {
    std::optional<ports::ArtifactRow> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->Find(c, org, id));
      return Status::Ok();
    });
    return out;
  }
};

TEST_CASE("evidence store: an artifact is found by id in its organization only, every field kept") {
  Fixture f;
  const std::string occ = f.Occurrence(kProject);
  ports::ArtifactRow r = f.Row("reserved");
  r.occurrence_id = occ;
  r.redaction_json = R"({"emails":true})";
  r.kind = "replay";
  r.content_type = "application/json";
  r.byte_count = 10 * 1024 * 1024;
  f.Insert(r);
  std::optional<ports::ArtifactRow> got = f.Find(kOrg, r.id);
  REQUIRE(got.has_value());
  CHECK(got->project_id == kProject);
  CHECK(got->occurrence_id == occ);
  CHECK(got->kind == "replay");
  CHECK(got->content_type == "application/json");
  CHECK(got->byte_count == 10 * 1024 * 1024);
  CHECK(got->sha256 == r.sha256);
  CHECK(got->storage_key == r.storage_key);
  CHECK(got->state == "reserved");
  CHECK(got->generation == 1);
  CHECK(got->redaction_json == r.redaction_json);
  CHECK(got->uploader_id == "user:u1");
  CHECK(got->created_at == 1000);
  CHECK(got->expires_at == 10'000);
  CHECK_FALSE(got->ready_at.has_value());
  CHECK_FALSE(f.Find(kOtherOrg, r.id).has_value());
  // The same id twice: kConflict.
  CHECK(f.db->Write([&](Connection& tx) { return f.repo->Insert(tx, r); }).code() == Code::kConflict);
}

TEST_CASE("evidence store: reserved becomes ready once, only while unexpired and in its organization") {
  Fixture f;
  const ports::ArtifactRow r = f.Row("reserved");
  f.Insert(r);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool foreign, f.repo->MarkReady(tx, kOtherOrg, r.id, 2000, 50'000));
    CHECK_FALSE(foreign);
    SV_ASSIGN_OR_RETURN(bool late, f.repo->MarkReady(tx, kOrg, r.id, 10'000, 50'000));
    CHECK_FALSE(late);  // at its expiry
    SV_ASSIGN_OR_RETURN(bool ok, f.repo->MarkReady(tx, kOrg, r.id, 2000, 50'000));
    CHECK(ok);
    SV_ASSIGN_OR_RETURN(bool again, f.repo->MarkReady(tx, kOrg, r.id, 2001, 50'000));
    CHECK_FALSE(again);
    return Status::Ok();
  });
  std::optional<ports::ArtifactRow> got = f.Find(kOrg, r.id);
  REQUIRE(got.has_value());
  CHECK(got->state == "ready");
  CHECK(got->generation == 2);
  CHECK(got->ready_at == 2000);
  CHECK(got->expires_at == 50'000);

  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool foreign, f.repo->MarkDeleted(tx, kOtherOrg, r.id, 3000));
    CHECK_FALSE(foreign);
    SV_ASSIGN_OR_RETURN(bool deleted, f.repo->MarkDeleted(tx, kOrg, r.id, 3000));
    CHECK(deleted);
    SV_ASSIGN_OR_RETURN(bool twice, f.repo->MarkDeleted(tx, kOrg, r.id, 3001));
    CHECK_FALSE(twice);
    return Status::Ok();
  });
  got = f.Find(kOrg, r.id);
  CHECK(got->state == "deleted");
  CHECK(got->generation == 3);
}

TEST_CASE("evidence store: the occurrence listing holds its ready, unexpired artifacts by creation then id") {
  Fixture f;
  const std::string occ = f.Occurrence(kProject);
  const std::string other_occ = f.Occurrence(kProject);
  // Created out of order, two at the same time (the id breaks the tie).
  for (int64_t created : {3000, 1000, 2000, 2000, 4000}) {
    ports::ArtifactRow r = f.Row("ready", created);
    r.occurrence_id = occ;
    f.Insert(r);
  }
  // Not listed: reserved, deleted, expired (written or by time), another
  // occurrence's, no occurrence.
  for (const char* state : {"reserved", "deleted", "expired"}) {
    ports::ArtifactRow r = f.Row(state, 500);
    r.occurrence_id = occ;
    f.Insert(r);
  }
  ports::ArtifactRow past = f.Row("ready", 600);
  past.occurrence_id = occ;
  past.expires_at = 5000;
  f.Insert(past);
  ports::ArtifactRow elsewhere = f.Row("ready", 700);
  elsewhere.occurrence_id = other_occ;
  f.Insert(elsewhere);
  f.Insert(f.Row("ready", 800));

  ports::ArtifactPage all;
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(all, f.repo->ListForOccurrence(c, kOrg, kProject, occ, 5000, 100, 0));
    return Status::Ok();
  });
  CHECK(all.total == 5);
  REQUIRE(all.rows.size() == 5);
  for (size_t i = 1; i < all.rows.size(); ++i) {
    const auto& a = all.rows[i - 1];
    const auto& b = all.rows[i];
    CHECK((a.created_at < b.created_at || (a.created_at == b.created_at && a.id < b.id)));
  }
  CHECK(all.rows.front().created_at == 1000);
  CHECK(all.rows.back().created_at == 4000);

  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(ports::ArtifactPage page,
                        f.repo->ListForOccurrence(c, kOrg, kProject, occ, 5000, 2, 1));
    CHECK(page.total == 5);
    REQUIRE(page.rows.size() == 2);
    CHECK(page.rows[0].id == all.rows[1].id);
    CHECK(page.rows[1].id == all.rows[2].id);
    SV_ASSIGN_OR_RETURN(ports::ArtifactPage beyond,
                        f.repo->ListForOccurrence(c, kOrg, kProject, occ, 5000, 2, 10));
    CHECK(beyond.total == 5);
    CHECK(beyond.rows.empty());
    // Past their expiry none is listed.
    SV_ASSIGN_OR_RETURN(ports::ArtifactPage later,
                        f.repo->ListForOccurrence(c, kOrg, kProject, occ, 20'000, 100, 0));
    CHECK(later.total == 0);
    // Another organization or project finds nothing.
    SV_ASSIGN_OR_RETURN(ports::ArtifactPage foreign,
                        f.repo->ListForOccurrence(c, kOtherOrg, kProject, occ, 5000, 100, 0));
    CHECK(foreign.total == 0);
    SV_ASSIGN_OR_RETURN(ports::ArtifactPage project2,
                        f.repo->ListForOccurrence(c, kOrg, kProject2, occ, 5000, 100, 0));
    CHECK(project2.total == 0);
    return Status::Ok();
  });
}

TEST_CASE("evidence store: attaching takes ready, unattached artifacts of the project only") {
  Fixture f;
  const std::string occ = f.Occurrence(kProject);
  const std::string earlier = f.Occurrence(kProject);
  const ports::ArtifactRow ready = f.Row("ready");
  const ports::ArtifactRow reserved = f.Row("reserved");
  const ports::ArtifactRow deleted = f.Row("deleted");
  const ports::ArtifactRow other_project = f.Row("ready", 1000, kProject2);
  ports::ArtifactRow attached = f.Row("ready");
  attached.occurrence_id = earlier;
  ports::ArtifactRow expired = f.Row("ready");
  expired.expires_at = 1500;
  for (const auto& r : {ready, reserved, deleted, other_project, attached, expired}) f.Insert(r);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t none, f.repo->Attach(tx, kOrg, kProject, {}, occ, 2000));
    CHECK(none == 0);
    SV_ASSIGN_OR_RETURN(int64_t foreign, f.repo->Attach(tx, kOtherOrg, kProject, {ready.id}, occ, 2000));
    CHECK(foreign == 0);
    SV_ASSIGN_OR_RETURN(int64_t n,
                        f.repo->Attach(tx, kOrg, kProject,
                                       {ready.id, reserved.id, deleted.id, other_project.id, attached.id,
                                        expired.id, "00000000-0000-7000-8000-0000000000ff"},
                                       occ, 2000));
    CHECK(n == 1);
    return Status::Ok();
  });
  CHECK(f.Find(kOrg, ready.id)->occurrence_id == occ);
  CHECK(f.Find(kOrg, ready.id)->generation == 2);
  CHECK_FALSE(f.Find(kOrg, reserved.id)->occurrence_id.has_value());
  CHECK_FALSE(f.Find(kOrg, other_project.id)->occurrence_id.has_value());
  CHECK(f.Find(kOrg, attached.id)->occurrence_id == earlier);
  CHECK_FALSE(f.Find(kOrg, expired.id)->occurrence_id.has_value());
}

TEST_CASE("evidence store: an occurrence's project, in its organization only") {
  Fixture f;
  const std::string occ = f.Occurrence(kProject2);
  const std::string foreign = f.Occurrence(kOtherProject, kOtherOrg);
  f.Read([&](Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<std::string> p, f.repo->OccurrenceProject(c, kOrg, occ));
    CHECK(p == std::string(kProject2));
    SV_ASSIGN_OR_RETURN(p, f.repo->OccurrenceProject(c, kOrg, foreign));
    CHECK_FALSE(p.has_value());
    SV_ASSIGN_OR_RETURN(p, f.repo->OccurrenceProject(c, kOtherOrg, occ));
    CHECK_FALSE(p.has_value());
    SV_ASSIGN_OR_RETURN(p, f.repo->OccurrenceProject(c, kOrg, "00000000-0000-7000-8000-0000000000ff"));
    CHECK_FALSE(p.has_value());
    return Status::Ok();
  });
}

TEST_CASE(
    "evidence store: expiry writes expired on due reserved and ready rows, blobs unreferenced are listed") {
  Fixture f;
  ports::ArtifactRow due_ready = f.Row("ready");
  due_ready.expires_at = 100;
  ports::ArtifactRow due_reserved = f.Row("reserved");
  due_reserved.expires_at = 100;
  due_reserved.sha256 = std::string(64, 'b');
  due_reserved.storage_key = "sha256/" + due_reserved.sha256;
  ports::ArtifactRow live = f.Row("ready");  // shares due_ready's key
  live.expires_at = 10'000;
  ports::ArtifactRow deleted = f.Row("deleted");
  deleted.sha256 = std::string(64, 'c');
  deleted.storage_key = "sha256/" + deleted.sha256;
  for (const auto& r : {due_ready, due_reserved, live, deleted}) f.Insert(r);
  f.Write([&](Connection& tx) -> Status {
    for (const char* k : {"a", "b", "c"})
      SV_RETURN_IF_ERROR(f.repo->LockBlob(tx, "sha256/" + std::string(64, k[0]), 50));
    // Locking again keeps one row per key.
    return f.repo->LockBlob(tx, "sha256/" + std::string(64, 'a'), 60);
  });
  CHECK(f.Int("SELECT COUNT(*) FROM evidence_blobs") == 3);
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t n, f.repo->ExpireDue(tx, 100, 1));
    CHECK(n == 1);  // the limit
    SV_ASSIGN_OR_RETURN(n, f.repo->ExpireDue(tx, 100, 10));
    CHECK(n == 1);
    SV_ASSIGN_OR_RETURN(n, f.repo->ExpireDue(tx, 100, 10));
    CHECK(n == 0);
    return Status::Ok();
  });
  CHECK(f.Find(kOrg, due_ready.id)->state == "expired");
  CHECK(f.Find(kOrg, due_ready.id)->generation == 2);
  CHECK(f.Find(kOrg, due_reserved.id)->state == "expired");
  CHECK(f.Find(kOrg, live.id)->state == "ready");
  f.Write([&](Connection& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::vector<std::string> keys, f.repo->UnreferencedBlobs(tx, 10));
    // 'a' is still named by the live artifact.
    CHECK(keys ==
          std::vector<std::string>{"sha256/" + std::string(64, 'b'), "sha256/" + std::string(64, 'c')});
    SV_ASSIGN_OR_RETURN(bool a, f.repo->BlobReferenced(tx, "sha256/" + std::string(64, 'a')));
    CHECK(a);
    SV_ASSIGN_OR_RETURN(bool b, f.repo->BlobReferenced(tx, "sha256/" + std::string(64, 'b')));
    CHECK_FALSE(b);
    SV_RETURN_IF_ERROR(f.repo->ForgetBlob(tx, "sha256/" + std::string(64, 'b')));
    SV_ASSIGN_OR_RETURN(keys, f.repo->UnreferencedBlobs(tx, 10));
    CHECK(keys == std::vector<std::string>{"sha256/" + std::string(64, 'c')});
    return Status::Ok();
  });
}

TEST_CASE("evidence store: artifacts go with their occurrence, project and organization") {
  Fixture f;
  const std::string occ = f.Occurrence(kProject);
  ports::ArtifactRow on_occ = f.Row("ready");
  on_occ.occurrence_id = occ;
  const ports::ArtifactRow on_project2 = f.Row("ready", 1000, kProject2);
  const ports::ArtifactRow plain = f.Row("ready");
  const ports::ArtifactRow foreign = f.Row("ready", 1000, kOtherProject, kOtherOrg);
  for (const auto& r : {on_occ, on_project2, plain, foreign}) f.Insert(r);
  f.Write([&](Connection& tx) { return tx.Exec("DELETE FROM occurrences WHERE id = ?", {occ}).status(); });
  CHECK_FALSE(f.Find(kOrg, on_occ.id).has_value());
  f.Write([&](Connection& tx) {
    return tx.Exec("DELETE FROM projects WHERE id = ?", {std::string(kProject2)}).status();
  });
  CHECK_FALSE(f.Find(kOrg, on_project2.id).has_value());
  CHECK(f.Find(kOrg, plain.id).has_value());
  f.Write([&](Connection& tx) {
    return tx.Exec("DELETE FROM organizations WHERE id = ?", {std::string(kOtherOrg)}).status();
  });
  CHECK(f.Int("SELECT COUNT(*) FROM evidence_artifacts WHERE org_id = ?", {std::string(kOtherOrg)}) == 0);
}

}  // namespace
}  // namespace service::store
