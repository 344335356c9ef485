// GET /v1/openapi.json (issue 34 item 4) through the router on both
// backends: the document is OpenAPI 3.1 JSON, lists exactly the routes of
// the live route table (a route added without a catalogue entry fails
// here), every $ref resolves, security follows each route's authentication
// mode, and the exact schemas hold the fields real answers carry.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "areas/openapi/api/openapi_document.h"
#include "service_internal.h"
#include "support/accounts.h"

namespace service::testing {
namespace {

namespace json = boost::json;
namespace openapi = service::api::openapi;

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += "\n  " + s;
  return out;
}

// Every "$ref" under `v`.
void CollectRefs(const json::value& v, std::vector<std::string>& out) {
  if (v.is_object()) {
    for (const auto& kv : v.as_object()) {
      if (kv.key() == "$ref" && kv.value().is_string()) out.emplace_back(kv.value().as_string());
      CollectRefs(kv.value(), out);
    }
  } else if (v.is_array()) {
    for (const json::value& x : v.as_array()) CollectRefs(x, out);
  }
}

// The value a local "#/a/b" reference points at, or null.
const json::value* Resolve(const json::value& doc, const std::string& ref) {
  if (ref.rfind("#/", 0) != 0) return nullptr;
  const json::value* at = &doc;
  size_t i = 2;
  while (i <= ref.size()) {
    size_t j = ref.find('/', i);
    if (j == std::string::npos) j = ref.size();
    if (!at->is_object()) return nullptr;
    at = at->as_object().if_contains(ref.substr(i, j - i));
    if (!at) return nullptr;
    i = j + 1;
  }
  return at;
}

const json::object& Schema(const json::value& doc, const char* name) {
  return doc.at("components").at("schemas").at(name).as_object();
}

// The required fields of `schema` that `object` lacks.
std::vector<std::string> MissingRequired(const json::object& schema, const json::value& object) {
  std::vector<std::string> missing;
  for (const json::value& f : schema.at("required").as_array())
    if (!object.as_object().contains(f.as_string())) missing.emplace_back(f.as_string());
  return missing;
}

TEST_CASE("openapi document lists every route of the route table and nothing else") {
  TestService t;
  const auto routes = service::internal::PipelineOf(t.service()).router().Routes();
  const openapi::Document d = openapi::BuildDocument(routes, openapi::CatalogueText(), "test");
  CHECK_MESSAGE(d.undocumented.empty(), "routes without a catalogue entry:" << Join(d.undocumented));
  CHECK_MESSAGE(d.unregistered.empty(), "catalogue entries without a route:" << Join(d.unregistered));
  CHECK_MESSAGE(d.missing_schemas.empty(), "schemas referenced but not defined:" << Join(d.missing_schemas));

  TestResponse r = t.Get("/v1/openapi.json");
  REQUIRE(r.status == 200);
  CHECK(r.Header("Content-Type").find("application/json") == 0);
  CHECK(r.Header("Cache-Control").find("public") == 0);
  REQUIRE(r.json.is_object());
  CHECK(r.json.at("openapi") == "3.1.0");

  // Both directions: each (method, templated path) of the route table is an
  // operation, and each operation is a route.
  std::set<std::string> expected;
  for (const api::Route* route : routes) {
    std::string method;
    for (char c : route->method) method.push_back(static_cast<char>(c - 'A' + 'a'));
    expected.insert(method + " " + openapi::TemplatedPath(route->pattern));
  }
  std::set<std::string> documented;
  for (const auto& path : r.json.at("paths").as_object())
    for (const auto& op : path.value().as_object())
      documented.insert(std::string(op.key()) + " " + std::string(path.key()));
  // Sentry protocol routes are listed under their trailing-slash spelling too
  // (the router ignores it; Sentry clients use it).
  std::set<std::string> aliases;
  for (const std::string& op : documented)
    if (op.back() == '/' && expected.count(op.substr(0, op.size() - 1))) aliases.insert(op);
  for (const std::string& alias : aliases) documented.erase(alias);
  CHECK(aliases.count("post /api/{projectNumber}/envelope/") == 1);
  CHECK(documented == expected);
  CHECK(expected.count("get /v1/bugs/{id}") == 1);
  CHECK(expected.count("get /v1/openapi.json") == 1);

  std::vector<std::string> refs;
  CollectRefs(r.json, refs);
  CHECK(refs.size() > 100);
  for (const std::string& ref : refs) CHECK_MESSAGE(Resolve(r.json, ref) != nullptr, ref);
}

TEST_CASE("openapi security follows each route's authentication mode") {
  TestService t;
  const json::value doc = t.Get("/v1/openapi.json").json;
  const json::value& paths = doc.at("paths");
  // Organization routes: bearer JWT together with X-Service-Org.
  CHECK(json::serialize(paths.at("/v1/projects").at("get").at("security")) ==
        R"([{"bearerJwt":[],"organization":[]}])");
  CHECK(paths.at("/v1/projects").at("get").at("x-service-capability") == "view_projects");
  CHECK(json::serialize(paths.at("/v1/ingest").at("post").at("security")) == R"([{"captureKey":[]}])");
  CHECK(json::serialize(paths.at("/v1/agent-work/claims").at("post").at("security")) ==
        R"([{"agentToken":[]}])");
  CHECK(json::serialize(paths.at("/v1/bugs/{id}").at("get").at("security")) ==
        R"([{"bearerJwt":[],"organization":[]},{"agentToken":[]}])");
  CHECK(paths.at("/v1/health").at("get").at("security").as_array().empty());
  CHECK(json::serialize(paths.at("/v1/admin/overview").at("get").at("security")) == R"([{"superadmin":[]}])");
  const json::value& schemes = doc.at("components").at("securitySchemes");
  CHECK(schemes.at("organization").at("name") == "X-Service-Org");
  CHECK(schemes.at("captureKey").at("name") == "X-Service-Key");
  // Path parameters come from the pattern, required.
  const json::array& params =
      paths.at("/v1/projects/{id}/keys/{keyId}").at("delete").at("parameters").as_array();
  REQUIRE(params.size() == 2);
  CHECK(params[0].at("name") == "id");
  CHECK(params[1].at("name") == "keyId");
  CHECK(params[1].at("required") == true);
  // Every failure answers the error envelope, `error` required.
  CHECK(paths.at("/v1/projects").at("get").at("responses").at("401").at("$ref") ==
        "#/components/responses/Error");
  CHECK(json::serialize(Schema(doc, "Error").at("required")) == R"(["error"])");
}

TEST_CASE("openapi exact schemas carry the fields of real answers") {
  auto t = NewAccountsService();
  const Account a = RegisterAccount(*t, "owner@example.com");
  const json::value doc = t->Get("/v1/openapi.json").json;
  const HeaderList h = BearerOrg(a.access_token, a.org_id);

  TestResponse projects = t->Get("/v1/projects", h);
  REQUIRE(projects.status == 200);
  REQUIRE(!projects.json.at("projects").as_array().empty());
  for (const json::value& p : projects.json.at("projects").as_array()) {
    CHECK_MESSAGE(MissingRequired(Schema(doc, "Project"), p).empty(), json::serialize(p));
    for (const auto& kv : p.as_object())
      CHECK_MESSAGE(Schema(doc, "Project").at("properties").as_object().contains(kv.key()), kv.key());
  }
  TestResponse keys = t->Get("/v1/projects/" + a.project_id + "/keys", h);
  REQUIRE(keys.status == 200);
  for (const json::value& k : keys.json.at("keys").as_array())
    CHECK_MESSAGE(MissingRequired(Schema(doc, "CaptureKey"), k).empty(), json::serialize(k));
  TestResponse team = t->Get("/v1/team", h);
  REQUIRE(team.status == 200);
  CHECK(MissingRequired(Schema(doc, "MemberList"), team.json).empty());
  for (const json::value& m : team.json.at("members").as_array())
    CHECK_MESSAGE(MissingRequired(Schema(doc, "Member"), m).empty(), json::serialize(m));
  TestResponse health = t->Get("/v1/health");
  CHECK(MissingRequired(Schema(doc, "Health"), health.json).empty());
  TestResponse denied = t->Get("/v1/projects");
  CHECK(denied.status == 401);
  CHECK(MissingRequired(Schema(doc, "Error"), denied.json).empty());
}

}  // namespace
}  // namespace service::testing
