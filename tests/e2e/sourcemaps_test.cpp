// The unmodified sentry-cli (@sentry/cli from the npm registry, pinned with
// esbuild in tests/e2e/sourcemaps/package-lock.json and installed by
// scripts/install-deps.sh --test) against the real service-server on each
// backend: esbuild builds a small minified bundle with its source map,
// `sentry-cli sourcemaps inject` writes debug ids into both, and
// `sentry-cli sourcemaps upload --wait` sends them through Sentry's
// chunk-upload and artifact bundle routes with an agent token. The stored
// bundle, its files and their debug id are read back through the console's
// routes; a second upload stores nothing new; a token without
// publish_symbols and a capture key are refused with what the CLI prints.
#include <doctest/doctest.h>
#include <httplib.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "e2e_client.h"
#include "server_process.h"
#include "support/accounts.h"
#include "util/time.h"

namespace service::e2e {
namespace {

namespace json = boost::json;

std::string ToolsDir() { return std::string(SERVICE_SOURCE_DIR) + "/tests/e2e/sourcemaps"; }

json::value Json(const httplib::Result& r, int expected) {
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == expected, r->status, " ", r->body);
  boost::system::error_code ec;
  json::value v = json::parse(r->body, ec);
  REQUIRE_MESSAGE(!ec, r->body);
  return v;
}

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

json::value Register(httplib::Client& api, const std::string& email, const std::string& org) {
  return Json(api.Post("/v1/auth/register",
                       json::serialize(json::object{{"email", email},
                                                    {"password", "sourcemaps-e2e-password"},
                                                    {"name", "Sourcemaps E2e"},
                                                    {"orgName", org}}),
                       "application/json"),
              201);
}

std::string MailedToken(const std::string& dir, const std::string& email) {
  for (int i = 0; i < 100; ++i) {
    if (std::filesystem::exists(dir)) {
      for (const std::string& text : testing::ReadMailDir(dir)) {
        if (text.find(email) == std::string::npos) continue;
        const std::string token = testing::TokenAfter(text, "#token=");
        if (!token.empty()) return token;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

std::string NewToken(httplib::Client& api, const httplib::Headers& admin, const json::array& scopes,
                     const std::string& project) {
  const int64_t in_30_days = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() +
                             30LL * 86'400'000;
  const json::value r = Json(
      api.Post(
          "/v1/org/agent-pats", admin,
          json::serialize(json::object{{"name", "sentry-cli"},
                                       {"scopes", scopes},
                                       {"expiresAt", util::FormatIso8601(in_30_days)},
                                       {"projectGrants", json::array{json::object{{"projectId", project}}}}}),
          "application/json"),
      201);
  return S(r, "token");
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char* kSource = R"(function greet(name) {
  if (!name) throw new Error('no name');
  return 'hello ' + name;
}
export function main(x) { return greet(x); }
)";

}  // namespace

TEST_CASE("the unmodified sentry-cli injects debug ids and uploads source maps to service-server") {
  REQUIRE_MESSAGE(
      std::filesystem::exists(ToolsDir() + "/node_modules/.bin/sentry-cli"),
      "@sentry/cli is not installed: scripts/install-deps.sh --test runs npm ci in tests/e2e/sourcemaps");
  const std::string cli = ToolsDir() + "/node_modules/.bin/sentry-cli";
  const std::string esbuild = ToolsDir() + "/node_modules/.bin/esbuild";
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    const std::string mail = dir.path() + "/mail-" + backend.name;
    const std::string op = "operator-" + backend.name + "@ops.example";
    RunningServer server(backend.url,
                         {"SERVICE_RATE_LIMITS=off", "SERVICE_MAIL_URL=file:" + mail,
                          "SERVICE_REQUIRE_EMAIL_VERIFICATION=0", "SERVICE_SUPERADMIN_EMAILS=" + op,
                          "SERVICE_EVIDENCE_DIR=" + dir.path() + "/evidence-" + backend.name});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    httplib::Client api("127.0.0.1", server.port());

    // An operator moves the customer to pro (agent tokens).
    const json::value operator_reg = Register(api, op, "Operators");
    const std::string verify = MailedToken(mail, op);
    REQUIRE_FALSE(verify.empty());
    Json(api.Post("/v1/auth/verify-email", json::serialize(json::object{{"token", verify}}),
                  "application/json"),
         200);
    const json::value reg = Register(api, "web-" + backend.name + "@shop.example", "Shop " + backend.name);
    const std::string org = S(reg.at("org"), "id");
    const std::string org_slug = S(reg.at("org"), "slug");
    const std::string project = S(reg.at("project"), "id");
    const std::string project_slug = S(reg.at("project"), "slug");
    Json(api.Patch("/v1/admin/customers/" + org,
                   {{"Authorization", "Bearer " + S(operator_reg, "accessToken")}}, R"({"plan":"pro"})",
                   "application/json"),
         200);
    const httplib::Headers admin = {{"Authorization", "Bearer " + S(reg, "accessToken")},
                                    {"X-Service-Org", org}};
    const std::string token = NewToken(api, admin, json::array{"publish_symbols"}, project);
    const std::string no_scope = NewToken(api, admin, json::array{"create_bug"}, project);

    // A real build: esbuild minifies with a source map, sentry-cli injects debug ids.
    const std::string work = dir.path() + "/build-" + backend.name;
    std::filesystem::create_directories(work + "/dist");
    std::ofstream(work + "/src.js") << kSource;
    auto [built, build_out] =
        Shell("cd '" + work + "' && '" + esbuild +
              "' src.js --bundle --minify --sourcemap --format=cjs --outfile=dist/app.js 2>&1");
    REQUIRE_MESSAGE(built == 0, build_out);
    auto [injected, inject_out] = Shell("cd '" + work + "' && '" + cli + "' sourcemaps inject dist 2>&1");
    REQUIRE_MESSAGE(injected == 0, inject_out);
    const std::string minified = ReadText(work + "/dist/app.js");
    const size_t at = minified.find("//# debugId=");
    REQUIRE_MESSAGE(at != std::string::npos, minified);
    const std::string debug_id = minified.substr(at + 12, 36);

    const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
    const auto upload = [&](const std::string& credential) {
      // HOME is the work folder: no ~/.sentryclirc of the machine's user.
      return Shell("cd '" + work + "' && HOME='" + work + "' SENTRY_LOAD_DOTENV=0 timeout 120 '" + cli +
                   "' --url " + url + " --auth-token '" + credential + "' sourcemaps upload --org " +
                   org_slug + " --project " + project_slug + " --release 1.0.0 --dist web --wait dist 2>&1");
    };

    // Refusals first: nothing stored.
    auto [refused_code, refused] = upload(no_scope);
    CHECK(refused_code != 0);
    CHECK_MESSAGE(
        refused.find("This token lacks the scope publish_symbols (http status: 403)") != std::string::npos,
        refused);
    auto [key_code, key_out] = upload(S(reg, "apiKey"));
    CHECK(key_code != 0);
    CHECK_MESSAGE(key_out.find("(http status: 401)") != std::string::npos, key_out);

    auto [code, output] = upload(token);
    MESSAGE(backend.name, ": ", output);
    REQUIRE_MESSAGE(code == 0, output);
    CHECK(output.find("Upload type: artifact bundle") != std::string::npos);

    json::value list = Json(api.Get("/v1/sourcemaps/projects/" + project + "/bundles", admin), 200);
    REQUIRE(list.at("total").as_int64() == 1);
    const json::value& bundle = list.at("bundles").as_array().at(0);
    CHECK(S(bundle, "release") == "1.0.0");
    CHECK(S(bundle, "dist") == "web");
    CHECK(bundle.at("fileCount").as_int64() == 2);
    const json::value one =
        Json(api.Get("/v1/sourcemaps/projects/" + project + "/bundles/" + S(bundle, "id"), admin), 200);
    const json::array& files = one.at("bundle").at("files").as_array();
    REQUIRE(files.size() == 2);
    CHECK(S(files[0], "url") == "~/app.js");
    CHECK(S(files[0], "type") == "minified_source");
    CHECK(S(files[0], "debugId") == debug_id);
    CHECK(S(files[0], "sourcemap") == "app.js.map");
    CHECK(S(files[1], "url") == "~/app.js.map");
    CHECK(S(files[1], "type") == "source_map");
    CHECK(S(files[1], "debugId") == debug_id);
    const json::value ids = Json(api.Get("/v1/sourcemaps/projects/" + project + "/debug-ids", admin), 200);
    REQUIRE(ids.at("debugIds").as_array().size() == 1);
    CHECK(S(ids.at("debugIds").as_array()[0], "debugId") == debug_id);
    const json::value releases =
        Json(api.Get("/v1/sourcemaps/projects/" + project + "/releases", admin), 200);
    REQUIRE(releases.at("releases").as_array().size() == 1);
    CHECK(S(releases.at("releases").as_array()[0], "release") == "1.0.0");

    // The same upload again: the server has it; still one bundle.
    auto [again_code, again] = upload(token);
    CHECK_MESSAGE(again_code == 0, again);
    list = Json(api.Get("/v1/sourcemaps/projects/" + project + "/bundles", admin), 200);
    CHECK(list.at("total").as_int64() == 1);
  }
}

}  // namespace service::e2e
