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
// Then a small real app (tests/e2e/sourcemaps/app) run by Node with the
// unmodified @sentry/node (tests/e2e/sentry): its error is stored with the
// original file, line, function and context lines, and a second build of
// the same code, minified with other names, lands in the same bug.
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

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `sentry-cli sourcemaps inject dist` in `work` (HOME there: no
// ~/.sentryclirc of the machine's user); the debug id written into
// dist/app.js.
std::string InjectDebugIds(const std::string& cli, const std::string& work) {
  auto [injected, inject_out] =
      Shell("cd '" + work + "' && HOME='" + work + "' '" + cli + "' sourcemaps inject dist 2>&1");
  REQUIRE_MESSAGE(injected == 0, inject_out);
  const std::string minified = ReadText(work + "/dist/app.js");
  const size_t at = minified.find("//# debugId=");
  REQUIRE_MESSAGE(at != std::string::npos, minified);
  return minified.substr(at + 12, 36);
}

// `sentry-cli sourcemaps upload --wait dist` from `work` to the server at
// `url` as `customer` with `credential` (`extra`: more upload options);
// sentry-cli's exit code and output.
std::pair<int, std::string> UploadMaps(const std::string& cli, const std::string& work,
                                       const std::string& url, const Customer& customer,
                                       const std::string& credential, const std::string& extra = "") {
  return Shell("cd '" + work + "' && HOME='" + work + "' SENTRY_LOAD_DOTENV=0 timeout 120 '" + cli +
               "' --url " + url + " --auth-token '" + credential + "' sourcemaps upload --org " +
               customer.org_slug + " --project " + customer.project_slug + extra + " --wait dist 2>&1");
}

const char* kSource = R"(function greet(name) {
  if (!name) throw new Error('no name');
  return 'hello ' + name;
}
export function main(x) { return greet(x); }
)";

// The innermost in-app frame of a stored error event (Sentry's order:
// outermost first), or nullptr.
const json::object* InnermostInApp(const json::value& data) {
  const json::value* frames = data.as_object().if_contains("frames");
  if (frames == nullptr || !frames->is_array()) return nullptr;
  const json::array& list = frames->get_array();
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    const json::object* f = it->if_object();
    if (f == nullptr) continue;
    const json::value* in_app = f->if_contains("in_app");
    if (in_app != nullptr && in_app->is_bool() && in_app->get_bool()) return f;
  }
  return nullptr;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

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
    const Customer customer =
        NewCustomerOnPlan(api, mail, op, "web-" + backend.name + "@shop.example", "Shop " + backend.name);
    const std::string& project = customer.project;
    const httplib::Headers& admin = customer.admin;
    const std::string token =
        NewAgentToken(api, admin, json::array{"publish_symbols"}, project, "sentry-cli");
    const std::string no_scope = NewAgentToken(api, admin, json::array{"create_bug"}, project, "sentry-cli");

    // A real build: esbuild minifies with a source map, sentry-cli injects debug ids.
    const std::string work = dir.path() + "/build-" + backend.name;
    std::filesystem::create_directories(work + "/dist");
    std::ofstream(work + "/src.js") << kSource;
    auto [built, build_out] =
        Shell("cd '" + work + "' && '" + esbuild +
              "' src.js --bundle --minify --sourcemap --format=cjs --outfile=dist/app.js 2>&1");
    REQUIRE_MESSAGE(built == 0, build_out);
    const std::string debug_id = InjectDebugIds(cli, work);

    const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
    const auto upload = [&](const std::string& credential) {
      return UploadMaps(cli, work, url, customer, credential, " --release 1.0.0 --dist web");
    };

    // Refusals first: nothing stored.
    auto [refused_code, refused] = upload(no_scope);
    CHECK(refused_code != 0);
    CHECK_MESSAGE(
        refused.find("This token lacks the scope publish_symbols (http status: 403)") != std::string::npos,
        refused);
    auto [key_code, key_out] = upload(customer.key);
    CHECK(key_code != 0);
    CHECK_MESSAGE(key_out.find("(http status: 401)") != std::string::npos, key_out);

    auto [code, output] = upload(token);
    MESSAGE(backend.name, ": ", output);
    REQUIRE_MESSAGE(code == 0, output);
    CHECK(output.find("Upload type: artifact bundle") != std::string::npos);

    json::value list = ExpectJson(api.Get("/v1/sourcemaps/projects/" + project + "/bundles", admin), 200);
    REQUIRE(list.at("total").as_int64() == 1);
    const json::value& bundle = list.at("bundles").as_array().at(0);
    CHECK(Str(bundle, "release") == "1.0.0");
    CHECK(Str(bundle, "dist") == "web");
    CHECK(bundle.at("fileCount").as_int64() == 2);
    const json::value one = ExpectJson(
        api.Get("/v1/sourcemaps/projects/" + project + "/bundles/" + Str(bundle, "id"), admin), 200);
    const json::array& files = one.at("bundle").at("files").as_array();
    REQUIRE(files.size() == 2);
    CHECK(Str(files[0], "url") == "~/app.js");
    CHECK(Str(files[0], "type") == "minified_source");
    CHECK(Str(files[0], "debugId") == debug_id);
    CHECK(Str(files[0], "sourcemap") == "app.js.map");
    CHECK(Str(files[1], "url") == "~/app.js.map");
    CHECK(Str(files[1], "type") == "source_map");
    CHECK(Str(files[1], "debugId") == debug_id);
    const json::value ids =
        ExpectJson(api.Get("/v1/sourcemaps/projects/" + project + "/debug-ids", admin), 200);
    REQUIRE(ids.at("debugIds").as_array().size() == 1);
    CHECK(Str(ids.at("debugIds").as_array()[0], "debugId") == debug_id);
    const json::value releases =
        ExpectJson(api.Get("/v1/sourcemaps/projects/" + project + "/releases", admin), 200);
    REQUIRE(releases.at("releases").as_array().size() == 1);
    CHECK(Str(releases.at("releases").as_array()[0], "release") == "1.0.0");

    // The same upload again: the server has it; still one bundle.
    auto [again_code, again] = upload(token);
    CHECK_MESSAGE(again_code == 0, again);
    list = ExpectJson(api.Get("/v1/sourcemaps/projects/" + project + "/bundles", admin), 200);
    CHECK(list.at("total").as_int64() == 1);
  }
}

// A small real app (tests/e2e/sourcemaps/app: src/main.js and src/cart.js)
// bundled and minified by esbuild with its source map, debug ids injected
// and the maps uploaded by sentry-cli, run by Node with the unmodified
// @sentry/node: the stored error event carries the original file, line,
// function and context line of the frame that threw. A second build of the
// same code with other minified names (another module beside it) lands in
// the same bug.
TEST_CASE(
    "an esbuild bundle's error sent by @sentry/node is stored with its original frames, two builds one bug") {
  REQUIRE_MESSAGE(
      std::filesystem::exists(ToolsDir() + "/node_modules/.bin/sentry-cli"),
      "@sentry/cli is not installed: scripts/install-deps.sh --test runs npm ci in tests/e2e/sourcemaps");
  const std::string sdk_modules = std::string(SERVICE_SOURCE_DIR) + "/tests/e2e/sentry/node_modules";
  REQUIRE_MESSAGE(std::filesystem::exists(sdk_modules + "/@sentry/node"),
                  "@sentry/node is not installed: scripts/test.sh runs npm ci in tests/e2e/sentry");
  const std::string cli = ToolsDir() + "/node_modules/.bin/sentry-cli";
  const std::string esbuild = ToolsDir() + "/node_modules/.bin/esbuild";
  const std::string app = ToolsDir() + "/app";
  // The line of cart.js that throws, and the column of the call there.
  const std::string cart = ReadText(app + "/src/cart.js");
  int64_t throw_line = 0, throw_column = 0;
  {
    std::istringstream lines(cart);
    std::string line;
    for (int64_t n = 1; std::getline(lines, line); ++n) {
      const size_t at = line.find("discountFor(item, price)");
      if (at == std::string::npos) continue;
      throw_line = n;
      throw_column = static_cast<int64_t>(at) + 1;
    }
  }
  REQUIRE(throw_line > 0);

  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    const std::string mail = dir.path() + "/mail-app-" + backend.name;
    const std::string op = "operator-app-" + backend.name + "@ops.example";
    RunningServer server(backend.url,
                         {"SERVICE_RATE_LIMITS=off", "SERVICE_MAIL_URL=file:" + mail,
                          "SERVICE_REQUIRE_EMAIL_VERIFICATION=0", "SERVICE_SUPERADMIN_EMAILS=" + op,
                          "SERVICE_EVIDENCE_DIR=" + dir.path() + "/evidence-app-" + backend.name});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    httplib::Client api("127.0.0.1", server.port());

    const Customer customer =
        NewCustomerOnPlan(api, mail, op, "app-" + backend.name + "@shop.example", "Cart " + backend.name);
    const std::string& project = customer.project;
    const httplib::Headers& admin = customer.admin;
    const std::string token =
        NewAgentToken(api, admin, json::array{"publish_symbols"}, project, "sentry-cli");
    const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
    const std::string dsn =
        "http://" + customer.key + "@127.0.0.1:" + std::to_string(server.port()) + "/" +
        std::to_string(customer.registration.at("project").at("project_number").as_int64());

    // Builds the app in its own folder (`inject`: a module esbuild adds to
    // the bundle), injects debug ids, uploads, runs it: the bundle's debug id.
    const auto build_upload_run = [&](const std::string& name, const std::string& inject) {
      const std::string work = dir.path() + "/" + name + "-" + backend.name;
      std::filesystem::create_directories(work);
      std::filesystem::copy(app, work, std::filesystem::copy_options::recursive);
      auto [built, build_out] =
          Shell("cd '" + work + "' && '" + esbuild +
                "' src/main.js --bundle --minify --sourcemap --platform=node --format=cjs "
                "--external:@sentry/node --outfile=dist/app.js" +
                (inject.empty() ? std::string() : " --inject:" + inject) + " 2>&1");
      REQUIRE_MESSAGE(built == 0, build_out);
      const std::string debug_id = InjectDebugIds(cli, work);
      auto [uploaded, upload_out] = UploadMaps(cli, work, url, customer, token);
      REQUIRE_MESSAGE(uploaded == 0, upload_out);
      // The unmodified SDK, outside the bundle, found through NODE_PATH.
      auto [ran, run_out] = Shell("cd '" + work + "' && NODE_PATH='" + sdk_modules +
                                  "' timeout 60 node dist/app.js '" + dsn + "' 2>&1");
      REQUIRE_MESSAGE(ran == 0, run_out);
      CHECK(run_out.find("sent") != std::string::npos);
      return debug_id;
    };

    // The error events of the project's one bug once `count` arrived.
    std::string bug_id;
    const auto error_events = [&](size_t count) {
      json::array events;
      const bool arrived = WaitFor(
          [&] {
            const auto r = api.Get("/v1/bugs?signalClass=all", admin);
            if (!r || r->status != 200) return false;
            const json::value bugs = json::parse(r->body);
            const json::array& list = bugs.at("bugs").as_array();
            if (list.empty()) return false;
            bug_id = Str(list[0], "id");
            const auto e = api.Get("/v1/bugs/" + bug_id + "/events?type=error", admin);
            if (!e || e->status != 200) return false;
            events = json::parse(e->body).at("events").as_array();
            return events.size() >= count;
          },
          std::chrono::seconds(15));
      REQUIRE_MESSAGE(arrived, "no ", count, " error events");
      return events;
    };

    const std::string first_id = build_upload_run("first", "");
    const json::array first_events = error_events(1);
    REQUIRE(first_events.size() == 1);
    const json::value& data = first_events[0].at("data");
    INFO(json::serialize(data));
    CHECK(Str(data, "name") == "TypeError");
    CHECK(EndsWith(Str(data, "message"), " is not a function"));
    const json::object* frame = InnermostInApp(data);
    REQUIRE(frame != nullptr);
    // The frame reads as the original, resolved through the debug id.
    REQUIRE(frame->contains("sourcemap"));
    CHECK_MESSAGE(Str(frame->at("sourcemap"), "resolved_with") == "debug_id",
                  json::serialize(frame->at("sourcemap")));
    CHECK_MESSAGE(EndsWith(std::string(frame->at("filename").as_string()), "src/cart.js"),
                  json::serialize(*frame));
    CHECK(EndsWith(std::string(frame->at("abs_path").as_string()), "src/cart.js"));
    CHECK(frame->at("lineno").as_int64() == throw_line);
    CHECK(frame->at("colno").as_int64() == throw_column);
    CHECK(std::string(frame->at("function").as_string()) == "computeTotal");
    CHECK(std::string(frame->at("context_line").as_string())
              .find("total += price - discountFor(item, price);") != std::string::npos);
    REQUIRE(frame->contains("pre_context"));
    CHECK(json::serialize(frame->at("pre_context")).find("item.price * item.quantity") != std::string::npos);
    // What the SDK sent stays beside it: the minified place.
    REQUIRE(frame->contains("minified"));
    const json::value& minified = frame->at("minified");
    CHECK(Str(minified, "filename").find("dist/app.js") != std::string::npos);
    CHECK(minified.at("lineno").as_int64() >= 1);
    CHECK(minified.at("colno").as_int64() > 1);
    CHECK(Str(minified, "function") != "computeTotal");
    // Node's own frames have no map.
    const json::value& outermost = data.at("frames").as_array().at(0);
    CHECK(Str(outermost, "filename").rfind("node:", 0) == 0);
    CHECK(Str(outermost.at("sourcemap"), "reason") == "map_not_found");
    // The stack text is the original's, the text as sent beside it.
    CHECK_MESSAGE(Str(data, "stack").find("at computeTotal (") != std::string::npos, Str(data, "stack"));
    CHECK(Str(data, "stack")
              .find("src/cart.js:" + std::to_string(throw_line) + ":" + std::to_string(throw_column) + ")") !=
          std::string::npos);
    CHECK(Str(data, "stack").find("src/main.js:") != std::string::npos);
    CHECK(Str(data, "minified_stack").find("dist/app.js:") != std::string::npos);
    const std::string first_bug = bug_id;

    // The same code built again with another module beside it: other
    // minified names, a new debug id, the same bug.
    const std::string second_id = build_upload_run("second", "canary/build-info.js");
    CHECK(second_id != first_id);
    const json::array both = error_events(2);
    REQUIRE(both.size() == 2);
    CHECK(bug_id == first_bug);
    const json::value all = ExpectJson(api.Get("/v1/bugs?signalClass=all", admin), 200);
    CHECK_MESSAGE(all.at("bugs").as_array().size() == 1, json::serialize(all));
    const json::value one = ExpectJson(api.Get("/v1/bugs/" + first_bug, admin), 200);
    CHECK(one.at("report_count").as_int64() == 2);
    const json::value occurrences = ExpectJson(api.Get("/v1/bugs/" + first_bug + "/occurrences", admin), 200);
    CHECK(occurrences.at("total").as_int64() == 2);
    const std::string title0 = Str(both[0].at("data"), "name") + ": " + Str(both[0].at("data"), "message");
    const std::string title1 = Str(both[1].at("data"), "name") + ": " + Str(both[1].at("data"), "message");
    CHECK_MESSAGE(title0 != title1, title0);  // "TypeError: r is not a function" / "... o ..."
    for (const json::value& e : both) {
      const json::object* f = InnermostInApp(e.at("data"));
      REQUIRE(f != nullptr);
      CHECK(std::string(f->at("function").as_string()) == "computeTotal");
      CHECK(f->at("lineno").as_int64() == throw_line);
      CHECK(EndsWith(std::string(f->at("filename").as_string()), "src/cart.js"));
    }
    const json::value list =
        ExpectJson(api.Get("/v1/sourcemaps/projects/" + project + "/bundles", admin), 200);
    CHECK(list.at("total").as_int64() == 2);
  }
}

}  // namespace service::e2e
