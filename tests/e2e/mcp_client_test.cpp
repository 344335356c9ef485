// The official MCP TypeScript SDK client (@modelcontextprotocol/sdk from the
// npm registry, pinned in tests/e2e/mcp/package-lock.json and installed by
// scripts/install-deps.sh --test) against the real service-server on each
// backend: initialize, list tools, call each tool, one refusal per missing
// scope (tests/e2e/mcp/client.mjs). The setup goes through the HTTP API as
// an operator would: an account whose organization an operator
// (SERVICE_SUPERADMIN_EMAILS, address confirmed through the mailed link)
// moves to pro, a captured bug, two agent tokens and a handoff.
#include <doctest/doctest.h>
#include <httplib.h>
#include <sys/wait.h>

#include <array>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "e2e_client.h"
#include "server_process.h"
#include "support/accounts.h"
#include "util/time.h"

namespace service::e2e {
namespace {

namespace json = boost::json;

std::string ClientDir() { return std::string(SERVICE_SOURCE_DIR) + "/tests/e2e/mcp"; }

}  // namespace

TEST_CASE("the official MCP SDK client initializes, lists and calls every tool against service-server") {
  REQUIRE_MESSAGE(std::filesystem::exists(ClientDir() + "/node_modules/@modelcontextprotocol/sdk"),
                  "@modelcontextprotocol/sdk is not installed: scripts/install-deps.sh --test runs npm ci in "
                  "tests/e2e/mcp");
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    const std::string mail = dir.path() + "/mail-" + backend.name;
    const std::string op = "operator-" + backend.name + "@ops.example";
    RunningServer server(backend.url,
                         {"SERVICE_RATE_LIMITS=off", "SERVICE_MAIL_URL=file:" + mail,
                          "SERVICE_REQUIRE_EMAIL_VERIFICATION=0", "SERVICE_SUPERADMIN_EMAILS=" + op});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    httplib::Client api("127.0.0.1", server.port());

    // The operator confirms the address, then moves the customer to pro.
    const Customer customer =
        NewCustomerOnPlan(api, mail, op, "dev-" + backend.name + "@shop.example", "Shop");
    const json::value& reg = customer.registration;
    const std::string& org = customer.org;
    const std::string& project = customer.project;
    const httplib::Headers& admin = customer.admin;

    // A captured bug with an end user, and one in another project.
    const auto ingest = [&](const std::string& key, const std::string& title) {
      return Str(
          ExpectJson(
              api.Post("/v1/ingest", {{"X-Service-Key", key}},
                       json::serialize(json::object{
                           {"title", title},
                           {"url", "https://shop.example/checkout"},
                           {"userId", "customer-7"},
                           {"events", json::array{json::object{
                                          {"type", "error"},
                                          {"timestamp", 1768471100000},
                                          {"data", json::object{{"name", "TypeError"},
                                                                {"message", "total is undefined"}}}}}}}),
                       "application/json"),
              201),
          "id");
    };
    const std::string bug = ingest(Str(reg, "apiKey"), "Checkout total is undefined");
    const json::value other = ExpectJson(
        api.Post("/v1/projects", admin, json::serialize(json::object{{"name", "Other"}, {"orgId", org}}),
                 "application/json"),
        201);
    const json::value other_key = ExpectJson(api.Post("/v1/projects/" + Str(other, "id") + "/keys", admin,
                                                      R"({"env":"live","label":"e2e"})", "application/json"),
                                             201);
    const std::string other_bug = ingest(Str(other_key, "key"), "Another project's crash");

    const json::array all = {"read_bugs",         "claim_issue", "request_evidence",  "submit_verification",
                             "read_verification", "create_bug",  "get_repro_context", "publish_symbols",
                             "suggest_fix",       "subscribe"};
    const std::string token = NewAgentToken(api, admin, all, project);
    const std::string limited = NewAgentToken(api, admin, json::array{"create_bug"}, project);
    // A person hands the bug to the project's agents: the subscribed token's MCP row.
    const httplib::Result handed =
        api.Post("/v1/bugs/" + bug + "/notify-agent", admin, "{}", "application/json");
    REQUIRE(handed);
    CHECK_MESSAGE((handed->status == 201 || handed->status == 200), handed->body);

    const std::string setup = dir.path() + "/mcp-setup-" + backend.name + ".json";
    std::ofstream(setup) << json::serialize(
        json::object{{"url", "http://127.0.0.1:" + std::to_string(server.port()) + "/v1/mcp"},
                     {"token", token},
                     {"limitedToken", limited},
                     {"projectId", project},
                     {"bugId", bug},
                     {"otherBugId", other_bug},
                     {"handoff", handed->status == 201 || handed->status == 200}});
    const auto [code, output] =
        Shell("cd '" + ClientDir() + "' && timeout 120 node client.mjs '" + setup + "'");
    MESSAGE(backend.name, ": ", output);
    CHECK_MESSAGE(code == 0, output);
    CHECK(output.find("mcp client: ok") != std::string::npos);
  }
}

}  // namespace service::e2e
