// Projects and capture keys through the console routes (Spec 1 "Projects and
// capture keys"; issue 4 items 1-2).
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "areas/projects/domain/capture_key.h"
#include "areas/projects/ports/project_repository.h"
#include "service_internal.h"
#include "support/capture_fixture.h"
#include "support/triage_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

}  // namespace

TEST_CASE("projects: create answers {id, name, slug}, the list carries bug_count and new_bug_count") {
  TestService t;
  Member admin = NewOrgWithMember(t);
  TestResponse created =
      t.Post("/v1/projects", json::object{{"name", "My Web App!"}, {"orgId", admin.org_id}}, admin.headers());
  REQUIRE_MESSAGE(created.status == 201, created.body);
  CHECK(Str(created.json, "name") == "My Web App!");
  CHECK(Str(created.json, "slug") == "my-web-app");
  const std::string project = Str(created.json, "id");

  // The slug stays unique within the organization.
  t.clock().Advance(1);
  TestResponse twin =
      t.Post("/v1/projects", json::object{{"name", "my web app"}, {"orgId", admin.org_id}}, admin.headers());
  REQUIRE(twin.status == 201);
  CHECK(Str(twin.json, "slug") == "my-web-app-2");
  // Another organization may use the same slug.
  Member other = NewOrgWithMember(t);
  TestResponse elsewhere =
      t.Post("/v1/projects", json::object{{"name", "My Web App"}, {"orgId", other.org_id}}, other.headers());
  CHECK(Str(elsewhere.json, "slug") == "my-web-app");

  const std::string key = CreateKeyVia(t, admin, project);
  REQUIRE(Ingest(t, key, Report("A", "a")).status == 201);
  TestResponse b = Ingest(t, key, Report("B", "b"));
  REQUIRE(Ingest(t, key, Report("C", "c")).status == 201);
  service::testing::SetBugStatus(t, admin.org_id, Str(b.json, "id"), "known");

  TestResponse list = t.Get("/v1/projects", admin.headers());
  REQUIRE(list.status == 200);
  const json::array& projects = list.json.at("projects").as_array();
  REQUIRE(projects.size() == 2);
  CHECK(Str(projects[0], "id") == project);
  CHECK(Str(projects[0], "org_id") == admin.org_id);
  CHECK(projects[0].at("slug") == "my-web-app");
  CHECK(projects[0].at("platform") == "web");
  CHECK(projects[0].at("created_at").is_string());
  CHECK(projects[0].at("bug_count") == 3);
  CHECK(projects[0].at("new_bug_count") == 2);
  CHECK(projects[1].at("bug_count") == 0);
  // Only the caller's organization is listed.
  CHECK(t.Get("/v1/projects", other.headers()).json.at("projects").as_array().size() == 1);
}

TEST_CASE("projects: validation, organization mismatch, roles and the plan's project limit") {
  TestService t([](Options& o) { o.plan_limits["free"]["projects"] = 2; });
  Member admin = NewOrgWithMember(t);
  auto create = [&](const json::object& body, const Member& m) {
    return t.Post("/v1/projects", body, m.headers());
  };
  TestResponse missing = create({{"orgId", admin.org_id}}, admin);
  CHECK(missing.status == 400);
  CHECK(missing.json.at("error") == "name and orgId required");
  CHECK(create({{"name", "x"}}, admin).status == 400);
  CHECK(create({{"name", ""}, {"orgId", admin.org_id}}, admin).status == 400);
  CHECK(create({{"name", "x"}, {"orgId", admin.org_id}, {"platform", "palm"}}, admin).status == 400);

  Member other = NewOrgWithMember(t);
  TestResponse mismatch = create({{"name", "x"}, {"orgId", other.org_id}}, admin);
  CHECK(mismatch.status == 403);
  CHECK(mismatch.json.at("error") == "Organization mismatch");

  Member manager = AddMemberWithRole(t, admin.org_id, "manager");
  Member member = AddMemberWithRole(t, admin.org_id, "member");
  Member viewer = AddMemberWithRole(t, admin.org_id, "viewer");
  CHECK(create({{"name", "viewer's"}, {"orgId", admin.org_id}}, viewer).status == 403);
  CHECK(create({{"name", "manager's"}, {"orgId", admin.org_id}}, manager).status == 201);
  CHECK(create({{"name", "member's"}, {"orgId", admin.org_id}, {"platform", "ios"}}, member).status == 201);
  TestResponse limited = create({{"name", "third"}, {"orgId", admin.org_id}}, admin);
  CHECK(limited.status == 402);
  CHECK(limited.json.at("limit") == 2);
  CHECK(limited.json.at("current") == 2);
  CHECK(limited.json.at("plan") == "free");
  CHECK(limited.json.at("upgradeUrl").is_string());
  CHECK(t.Get("/v1/projects", admin.headers()).json.at("projects").as_array().size() == 2);
  // The viewer may list.
  CHECK(t.Get("/v1/projects", viewer.headers()).status == 200);
  CHECK(t.Get("/v1/projects").status == 401);
}

TEST_CASE("capture keys: shown once, stored as a hash, listed masked, several per project, revoked softly") {
  TestService t;
  Member admin = NewOrgWithMember(t);
  const std::string project = CreateProjectVia(t, admin, "Keys");
  TestResponse created =
      t.Post("/v1/projects/" + project + "/keys",
             json::object{{"env", "live"}, {"label", "website"}, {"expiresAt", nullptr}}, admin.headers());
  REQUIRE_MESSAGE(created.status == 201, created.body);
  const std::string key = Str(created.json, "key");
  REQUIRE(key.size() == 8 + 32);
  CHECK(key.rfind("sv_live_", 0) == 0);
  CHECK(domain::projects::ParseCaptureKey(key).has_value());
  CHECK(Str(created.json, "prefix") == key.substr(8, 8));
  CHECK(Str(created.json, "label") == "website");
  CHECK(created.json.at("expiresAt").is_null());
  // Only the hash is stored: the key repository finds the row by the hash, not by the key.
  modules::Platform& core = internal::PlatformOf(t.service());
  auto find_by_hash = [&](const std::string& hash) {
    std::optional<ports::CaptureKey> found;
    REQUIRE(core.tx
                ->Read([&](ports::Tx& c) -> Status {
                  SV_ASSIGN_OR_RETURN(
                      found, core.Shared<service::ports::CaptureKeyRepository>()->FindByHash(c, hash));
                  return Status::Ok();
                })
                .ok());
    return found;
  };
  CHECK(find_by_hash(domain::projects::HashCaptureKey(key)).has_value());
  CHECK_FALSE(find_by_hash(key).has_value());
  // internal state: no column holds the plain key (prefix and label have no lookup of their own).
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM capture_keys WHERE key_hash = ? OR prefix = ? OR label = ?",
                 {key, key, key}) == 0);

  const std::string second = CreateKeyVia(t, admin, project, "test");
  CHECK(second.rfind("sv_test_", 0) == 0);
  CHECK(second != key);
  TestResponse list = t.Get("/v1/projects/" + project + "/keys", admin.headers());
  REQUIRE(list.status == 200);
  const json::array& keys = list.json.at("keys").as_array();
  REQUIRE(keys.size() == 2);
  for (const auto& k : keys) {
    CHECK_FALSE(k.as_object().contains("key"));
    CHECK_FALSE(k.as_object().contains("key_hash"));
    CHECK(k.at("prefix").as_string().size() == 8);
    CHECK(k.as_object().contains("label"));
    CHECK(k.as_object().contains("last_used"));
    CHECK(json::serialize(k).find(key) == std::string::npos);
  }
  // Both keys work.
  CHECK(Ingest(t, key, Report("k1")).status == 201);
  CHECK(Ingest(t, second, Report("k2")).status == 201);

  const std::string key_id = Str(created.json, "id");
  TestResponse revoked = t.Delete("/v1/projects/" + project + "/keys/" + key_id, admin.headers());
  CHECK(revoked.status == 200);
  CHECK(revoked.json.at("success") == true);
  // Soft delete: the row stays with revoked_at (the key repository still finds it); the listing hides it.
  std::optional<ports::CaptureKey> kept;
  REQUIRE(core.tx
              ->Read([&](ports::Tx& c) -> Status {
                SV_ASSIGN_OR_RETURN(kept, core.Shared<service::ports::CaptureKeyRepository>()->Find(
                                              c, admin.org_id, project, key_id));
                return Status::Ok();
              })
              .ok());
  REQUIRE(kept.has_value());
  CHECK(kept->revoked_at.has_value());
  CHECK(t.Get("/v1/projects/" + project + "/keys", admin.headers()).json.at("keys").as_array().size() == 1);
  CHECK(t.Delete("/v1/projects/" + project + "/keys/" + key_id, admin.headers()).status == 404);
  CHECK(Ingest(t, key, Report("k1")).status == 401);
  CHECK(Ingest(t, second, Report("k2")).status == 201);
}

TEST_CASE("capture keys: validation, roles and organization scoping") {
  TestService t;
  Member admin = NewOrgWithMember(t);
  const std::string project = CreateProjectVia(t, admin, "Scoped");
  const std::string path = "/v1/projects/" + project + "/keys";
  CHECK(t.Post(path, json::object{{"env", "prod"}}, admin.headers()).status == 400);
  CHECK(t.Post(path, json::object{{"label", std::string(101, 'l')}}, admin.headers()).status == 400);
  CHECK(t.Post(path, json::object{{"expiresAt", "tomorrow"}}, admin.headers()).status == 400);
  // Defaults: a live key without a label.
  TestResponse plain = t.Post(path, json::object{}, admin.headers());
  REQUIRE(plain.status == 201);
  CHECK(plain.json.at("env") == "live");

  Member viewer = AddMemberWithRole(t, admin.org_id, "viewer");
  Member member = AddMemberWithRole(t, admin.org_id, "member");
  CHECK(t.Post(path, json::object{}, viewer.headers()).status == 403);
  CHECK(t.Get(path, viewer.headers()).status == 200);
  CHECK(t.Post(path, json::object{}, member.headers()).status == 201);
  const std::string key_id = Str(plain.json, "id");
  CHECK(t.Delete(path + "/" + key_id, viewer.headers()).status == 403);

  Member stranger = NewOrgWithMember(t);
  CHECK(t.Get(path, stranger.headers()).status == 404);
  CHECK(t.Post(path, json::object{}, stranger.headers()).status == 404);
  CHECK(t.Delete(path + "/" + key_id, stranger.headers()).status == 404);
  CHECK(t.Get("/v1/projects/00000000-0000-0000-0000-000000000000/keys", admin.headers()).status == 404);
  // A key id of another project is not found under this one.
  const std::string other_project = CreateProjectVia(t, admin, "Other");
  CHECK(t.Delete("/v1/projects/" + other_project + "/keys/" + key_id, admin.headers()).status == 404);
  CHECK(t.Delete(path + "/" + key_id, admin.headers()).status == 200);
}

}  // namespace service::testing
