// The unmodified Sentry Node SDK (@sentry/node from the npm registry, pinned
// in tests/e2e/sentry/package-lock.json and installed by the test command)
// reports to a real service-server on each backend; what it sent is read
// back through the console API: the bug, its counts, events, end user,
// release and environment.
#include <doctest/doctest.h>
#include <httplib.h>

#include <array>
#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <string>

#include "e2e_client.h"
#include "server_process.h"

namespace service::e2e {
namespace {

namespace json = boost::json;

std::string SdkDir() { return std::string(SERVICE_SOURCE_DIR) + "/tests/e2e/sentry"; }

json::value Json(const httplib::Result& r) {
  REQUIRE(r);
  boost::system::error_code ec;
  json::value v = json::parse(r->body, ec);
  REQUIRE_MESSAGE(!ec, r->body);
  return v;
}

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

}  // namespace

TEST_CASE("the unmodified @sentry/node SDK reports to service-server, the console API reads it back") {
  REQUIRE_MESSAGE(std::filesystem::exists(SdkDir() + "/node_modules/@sentry/node"),
                  "@sentry/node is not installed: scripts/test.sh runs npm ci in tests/e2e/sentry");
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    RunningServer server(backend.url, {"SERVICE_RATE_LIMITS=off"});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    httplib::Client api("127.0.0.1", server.port());
    const json::value reg =
        Json(api.Post("/v1/auth/register",
                      "{\"email\":\"sdk-" + backend.name +
                          "@example.com\",\"password\":\"sdk-e2e-password\",\"name\":\"Sdk\","
                          "\"orgName\":\"Sdk Inc\"}",
                      "application/json"));
    const std::string key = S(reg, "apiKey");
    const int64_t number = reg.at("project").at("project_number").as_int64();
    REQUIRE(number > 0);
    // The registration's DSN names the configured public URL; the SDK is
    // pointed at this server's port with the same key and project number.
    CHECK(S(reg, "dsn").find(key + "@") != std::string::npos);
    const std::string dsn =
        "http://" + key + "@127.0.0.1:" + std::to_string(server.port()) + "/" + std::to_string(number);

    const auto [code, output] = Shell("cd '" + SdkDir() + "' && timeout 60 node send.js '" + dsn + "'");
    REQUIRE_MESSAGE(code == 0, output);
    CHECK(output.find("sent") != std::string::npos);

    const httplib::Headers auth = {{"Authorization", "Bearer " + S(reg, "accessToken")},
                                   {"X-Service-Org", S(reg.at("org"), "id")}};
    const json::value bugs = Json(api.Get("/v1/bugs?includeDiagnostics=true", auth));
    const json::array& list = bugs.at("bugs").as_array();
    REQUIRE_MESSAGE(list.size() == 2, json::serialize(bugs));
    const json::value* error = nullptr;
    const json::value* message = nullptr;
    for (const json::value& b : list) {
      if (S(b, "title").rfind("TypeError:", 0) == 0) error = &b;
      if (S(b, "title") == "Payment provider slow") message = &b;
    }
    REQUIRE(error != nullptr);
    REQUIRE(message != nullptr);
    CHECK(S(*error, "title").find("amount") != std::string::npos);
    CHECK(S(*error, "severity") == "high");
    CHECK(error->at("report_count").as_int64() == 2);  // the same exception twice: one bug
    CHECK(S(*message, "severity") == "medium");

    const std::string id = S(*error, "id");
    const json::value events = Json(api.Get("/v1/bugs/" + id + "/events", auth));
    bool crumb = false, exception = false;
    for (const json::value& e : events.at("events").as_array()) {
      if (S(e, "event_type") == "breadcrumb" && json::serialize(e).find("signed in") != std::string::npos)
        crumb = true;
      if (S(e, "event_type") == "error" &&
          json::serialize(e.at("data")).find("loadCart") != std::string::npos)
        exception = true;
    }
    CHECK(crumb);
    CHECK(exception);
    const json::value occ = Json(api.Get("/v1/bugs/" + id + "/occurrences", auth));
    const json::value& o = occ.at("occurrences").as_array().at(0);
    CHECK(S(o, "release_version") == "shop@3.1.4");
    CHECK(S(o, "environment") == "e2e");
    CHECK(S(o, "platform") == "server");
    const json::value users = Json(api.Get("/v1/bugs/" + id + "/users", auth));
    REQUIRE(users.at("users").as_array().size() == 1);
    CHECK(S(users.at("users").as_array()[0], "endUserId") == "customer-7");
    CHECK(S(users.at("users").as_array()[0], "email") == "customer7@example.com");
  }
}

}  // namespace service::e2e
