// The contract of ports::SourcemapRepository (areas/sourcemaps/ports/
// sourcemap_repository.h) on the backend under test: slugs and ids
// resolved inside the organization, chunks recorded once per organization,
// bundles unique per project, checksum, release and dist (kConflict), the
// lookups by debug id and by release, dist and URL path newest first, the
// console's lists, and another organization's rows reading as absent.
#include <doctest/doctest.h>

#include "areas/sourcemaps/store/repositories.h"
#include "support/store_fixture.h"

namespace service::testing {
namespace {

constexpr const char* kWeb = "00000000-0000-7000-8000-000000000002";
constexpr const char* kApi = "00000000-0000-7000-8000-000000000003";

ports::SourcemapBundleRow BundleRow(const std::string& id, const std::string& org, const std::string& project,
                                    const std::string& checksum, const std::string& release, int64_t at) {
  ports::SourcemapBundleRow b;
  b.id = id;
  b.org_id = org;
  b.project_id = project;
  b.checksum = checksum;
  b.bundle_id = "4bc72816-1e5e-5d37-a400-7e1452609eee";
  b.release = release;
  b.byte_count = 100;
  b.sha256 = std::string(64, 'a');
  b.storage_key = "blobs/aa/" + checksum;
  b.file_count = 2;
  b.uploaded_by = "token";
  b.created_at = at;
  return b;
}

std::vector<ports::SourcemapFileRow> Files(const std::string& debug_id) {
  ports::SourcemapFileRow a;
  a.position = 0;
  a.path = "files/_/_/app.js";
  a.url = "~/static/app.js";
  a.url_path = "/static/app.js";
  a.file_type = "minified_source";
  a.debug_id = debug_id;
  a.sourcemap = "app.js.map";
  a.method = 8;
  a.data_offset = 38;
  a.compressed_size = 10;
  a.byte_count = 20;
  a.crc32 = 0xdeadbeef;
  ports::SourcemapFileRow m = a;
  m.position = 1;
  m.path = "files/_/_/app.js.map";
  m.url = "~/static/app.js.map";
  m.url_path = "/static/app.js.map";
  m.file_type = "source_map";
  m.sourcemap = "";
  return {a, m};
}

}  // namespace

TEST_CASE("sourcemap repository: targets, chunks, bundles, lookups and lists") {
  StoreFixture f({kWeb, kApi});
  f.AddOtherOrganization();
  auto repo = store::NewSqlSourcemapRepository();
  const std::string debug_id = "f527d323-851d-5953-8233-2a2946795fad";
  const std::string sum1(40, '1'), sum2(40, '2');

  f.Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto t, repo->ResolveTarget(c, kStoreOrg, {kWeb, kApi, kStoreOtherProject, "nope"}));
    CHECK(t.org_slug == "org");
    REQUIRE(t.projects.size() == 2);  // another organization's project and an unknown ref are absent
    CHECK(t.projects[0] == std::pair<std::string, std::string>(kWeb, kWeb));
    CHECK(t.projects[1] == std::pair<std::string, std::string>(kApi, kApi));
    return Status::Ok();
  });

  // Chunks: once per organization; another organization's read as absent.
  f.Write([&](store::Connection& c) -> Status {
    SV_RETURN_IF_ERROR(repo->InsertChunk(c, kStoreOrg, {sum1, 10, "k1"}, 1));
    SV_RETURN_IF_ERROR(repo->InsertChunk(c, kStoreOrg, {sum1, 99, "other"}, 2));  // left as it is
    SV_RETURN_IF_ERROR(repo->InsertChunk(c, kStoreOtherOrg, {sum2, 20, "k2"}, 3));
    return Status::Ok();
  });
  f.Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, repo->FindChunks(c, kStoreOrg, {sum1, sum2}));
    REQUIRE(found.size() == 1);
    CHECK(found[0].sha1 == sum1);
    CHECK(found[0].byte_count == 10);
    CHECK(found[0].storage_key == "k1");
    SV_ASSIGN_OR_RETURN(auto none, repo->FindChunks(c, kStoreOrg, {}));
    CHECK(none.empty());
    return Status::Ok();
  });

  // Bundles: unique per project, checksum, release and dist.
  f.Write([&](store::Connection& c) -> Status {
    SV_RETURN_IF_ERROR(
        repo->InsertBundle(c, BundleRow(f.Id(), kStoreOrg, kWeb, sum1, "1.0", 10), Files(debug_id)));
    SV_RETURN_IF_ERROR(
        repo->InsertBundle(c, BundleRow(f.Id(), kStoreOrg, kWeb, sum1, "1.1", 20), Files(debug_id)));
    SV_RETURN_IF_ERROR(repo->InsertBundle(c, BundleRow(f.Id(), kStoreOrg, kApi, sum2, "", 30), Files("")));
    return Status::Ok();
  });
  Status dup = f.db->Write([&](store::Connection& c) -> Status {
    return repo->InsertBundle(c, BundleRow(f.Id(), kStoreOrg, kWeb, sum1, "1.0", 40), Files(debug_id));
  });
  CHECK(dup.code() == Code::kConflict);

  f.Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(bool has, repo->HasBundle(c, kStoreOrg, kWeb, sum1, "1.0", ""));
    CHECK(has);
    SV_ASSIGN_OR_RETURN(has, repo->HasBundle(c, kStoreOrg, kWeb, sum1, "1.0", "web"));
    CHECK_FALSE(has);
    SV_ASSIGN_OR_RETURN(has, repo->HasBundle(c, kStoreOtherOrg, kWeb, sum1, "1.0", ""));
    CHECK_FALSE(has);
    SV_ASSIGN_OR_RETURN(auto by_sum, repo->FindByChecksum(c, kStoreOrg, sum1));
    REQUIRE(by_sum);
    CHECK(by_sum->release == "1.0");  // the oldest
    SV_ASSIGN_OR_RETURN(auto other, repo->FindByChecksum(c, kStoreOtherOrg, sum1));
    CHECK_FALSE(other);

    SV_ASSIGN_OR_RETURN(auto list, repo->ListBundles(c, kStoreOrg, kWeb, 10, 0));
    REQUIRE(list.size() == 2);
    CHECK(list[0].release == "1.1");  // newest first
    CHECK(list[0].storage_key == "blobs/aa/" + sum1);
    SV_ASSIGN_OR_RETURN(int64_t n, repo->CountBundles(c, kStoreOrg, kWeb));
    CHECK(n == 2);
    SV_ASSIGN_OR_RETURN(auto page, repo->ListBundles(c, kStoreOrg, kWeb, 1, 1));
    REQUIRE(page.size() == 1);
    CHECK(page[0].release == "1.0");
    SV_ASSIGN_OR_RETURN(auto one, repo->FindBundle(c, kStoreOrg, kWeb, list[1].id));
    REQUIRE(one);
    SV_ASSIGN_OR_RETURN(auto wrong_project, repo->FindBundle(c, kStoreOrg, kApi, list[1].id));
    CHECK_FALSE(wrong_project);
    SV_ASSIGN_OR_RETURN(auto wrong_org, repo->FindBundle(c, kStoreOtherOrg, kWeb, list[1].id));
    CHECK_FALSE(wrong_org);
    SV_ASSIGN_OR_RETURN(auto files, repo->ListFiles(c, list[1].id));
    REQUIRE(files.size() == 2);
    CHECK(files[0].url == "~/static/app.js");
    CHECK(files[0].release == "1.0");
    CHECK(files[0].crc32 == 0xdeadbeef);
    CHECK(files[0].data_offset == 38);
    CHECK(files[1].file_type == "source_map");

    // The resolver's lookups, newest bundle first.
    SV_ASSIGN_OR_RETURN(auto by_id, repo->FindByDebugId(c, kStoreOrg, kWeb, debug_id));
    REQUIRE(by_id.size() == 4);
    CHECK(by_id[0].release == "1.1");
    CHECK(by_id[0].file_type == "minified_source");
    CHECK(by_id[0].storage_key == "blobs/aa/" + sum1);
    SV_ASSIGN_OR_RETURN(auto by_other_org, repo->FindByDebugId(c, kStoreOtherOrg, kWeb, debug_id));
    CHECK(by_other_org.empty());
    SV_ASSIGN_OR_RETURN(auto by_url, repo->FindByUrl(c, kStoreOrg, kWeb, "1.0", "", "/static/app.js.map"));
    REQUIRE(by_url.size() == 1);
    CHECK(by_url[0].file_type == "source_map");
    SV_ASSIGN_OR_RETURN(auto no_dist,
                        repo->FindByUrl(c, kStoreOrg, kWeb, "1.0", "web", "/static/app.js.map"));
    CHECK(no_dist.empty());

    // The console's lists.
    SV_ASSIGN_OR_RETURN(auto ids, repo->ListDebugIds(c, kStoreOrg, kWeb, 10, 0));
    REQUIRE(ids.size() == 1);
    CHECK(ids[0].debug_id == debug_id);
    CHECK(ids[0].file_types == std::vector<std::string>{"minified_source", "source_map"});
    CHECK(ids[0].created_at == 20);
    SV_ASSIGN_OR_RETURN(auto api_ids, repo->ListDebugIds(c, kStoreOrg, kApi, 10, 0));
    CHECK(api_ids.empty());  // files without a debug id
    SV_ASSIGN_OR_RETURN(auto releases, repo->ListReleases(c, kStoreOrg, kWeb, 10, 0));
    REQUIRE(releases.size() == 2);
    CHECK(releases[0].release == "1.1");
    CHECK(releases[0].bundle_count == 1);
    CHECK(releases[0].file_count == 2);
    SV_ASSIGN_OR_RETURN(auto api_releases, repo->ListReleases(c, kStoreOrg, kApi, 10, 0));
    CHECK(api_releases.empty());  // no release named
    return Status::Ok();
  });
}

}  // namespace service::testing

namespace service::testing {

TEST_CASE("sourcemap repository: old chunks of every organization, their deletion and storage keys in use") {
  StoreFixture f({kWeb});
  f.AddOtherOrganization();
  auto repo = store::NewSqlSourcemapRepository();
  const std::string a(40, 'a'), b(40, 'b'), c3(40, 'c');
  f.Write([&](store::Connection& c) -> Status {
    SV_RETURN_IF_ERROR(repo->InsertChunk(c, kStoreOrg, {a, 10, "blobs/aa/shared"}, 100));
    SV_RETURN_IF_ERROR(repo->InsertChunk(c, kStoreOtherOrg, {a, 10, "blobs/aa/shared"}, 300));
    SV_RETURN_IF_ERROR(repo->InsertChunk(c, kStoreOrg, {b, 20, "blobs/bb/only"}, 200));
    SV_RETURN_IF_ERROR(repo->InsertChunk(c, kStoreOrg, {c3, 30, "blobs/cc/bundle"}, 50));
    ports::SourcemapBundleRow bundle;
    bundle.id = f.Id();
    bundle.org_id = kStoreOrg;
    bundle.project_id = kWeb;
    bundle.checksum = c3;
    bundle.sha256 = std::string(64, 'c');
    bundle.storage_key = "blobs/cc/bundle";  // a one-chunk bundle: the chunk's own bytes
    return repo->InsertBundle(c, bundle, {});
  });
  f.Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(auto old, repo->OldChunks(c, 300, 10));  // before 300: oldest first, any organization
    REQUIRE(old.size() == 3);
    CHECK(old[0].second.sha1 == c3);
    CHECK(old[1].first == kStoreOrg);
    CHECK(old[1].second.sha1 == a);
    CHECK(old[1].second.storage_key == "blobs/aa/shared");
    CHECK(old[2].second.sha1 == b);
    CHECK(old[2].second.byte_count == 20);
    SV_ASSIGN_OR_RETURN(auto limited, repo->OldChunks(c, 1000, 2));
    CHECK(limited.size() == 2);
    return Status::Ok();
  });
  f.Write([&](store::Connection& c) -> Status {
    SV_RETURN_IF_ERROR(repo->DeleteChunk(c, kStoreOrg, a));
    SV_RETURN_IF_ERROR(repo->DeleteChunk(c, kStoreOrg, b));
    SV_RETURN_IF_ERROR(repo->DeleteChunk(c, kStoreOrg, c3));
    return repo->DeleteChunk(c, kStoreOrg, std::string(40, 'f'));  // absent: nothing happens
  });
  f.Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(bool shared, repo->StorageKeyInUse(c, "blobs/aa/shared"));  // the other org's row
    CHECK(shared);
    SV_ASSIGN_OR_RETURN(bool only, repo->StorageKeyInUse(c, "blobs/bb/only"));
    CHECK_FALSE(only);
    SV_ASSIGN_OR_RETURN(bool bundle, repo->StorageKeyInUse(c, "blobs/cc/bundle"));  // the bundle's
    CHECK(bundle);
    SV_ASSIGN_OR_RETURN(auto left, repo->FindChunks(c, kStoreOrg, {a, b, c3}));
    CHECK(left.empty());
    SV_ASSIGN_OR_RETURN(auto others, repo->FindChunks(c, kStoreOtherOrg, {a}));
    CHECK(others.size() == 1);
    return Status::Ok();
  });
}

}  // namespace service::testing
