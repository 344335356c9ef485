// Scrubbing end to end (issue 31 item 3): the unmodified @sentry/node SDK
// (tests/e2e/sentry, send_secret.js) sends an exception carrying a password
// in extra, a context, a tag, breadcrumbs, the user, the message and the
// request to a real service-server; the report is stored, and the password
// is nowhere in the database: every column of every row of every table is
// searched as text after the server stopped, and on SQLite the database and
// WAL files are also read byte for byte. A harmless marker sent
// in the same event is found the same way (the search reads what is stored).
#include <doctest/doctest.h>
#include <httplib.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "e2e_client.h"
#include "server_process.h"
#include "store/database.h"

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

// The bytes of the SQLite database and its WAL (when present).
std::string SqliteBytes(const std::string& db_path) {
  std::string out;
  for (const std::string& p : {db_path, db_path + "-wal", db_path + "-journal"}) {
    if (!std::filesystem::exists(p)) continue;
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    out += ss.str();
  }
  return out;
}

// Rows of every table holding `needle` in any column, read through SQL: a
// byte search of the files alone can miss a string SQLite split across two
// overflow pages. On PostgreSQL every row of the URL's schema is cast to
// text whole; on SQLite each column of each table is.
int64_t RowsContaining(const std::string& url, bool sqlite, const std::string& needle) {
  auto db = store::OpenDatabase(url);
  REQUIRE_MESSAGE(db.ok(), db.status().ToString());
  int64_t n = 0;
  const Status st = (*db)->Read([&](store::Connection& c) -> Status {
    SV_ASSIGN_OR_RETURN(
        store::Rows tables,
        c.Query(sqlite ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                         "ORDER BY name"
                       : "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                         "current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
                {}));
    CHECK(tables.size() > 10);
    for (size_t i = 0; i < tables.size(); ++i) {
      const std::string table = tables.Str(i, 0);
      std::string where;
      std::vector<store::Value> args;
      if (sqlite) {
        SV_ASSIGN_OR_RETURN(store::Rows cols, c.Query("SELECT name FROM pragma_table_info(?)", {table}));
        for (size_t k = 0; k < cols.size(); ++k) {
          where +=
              std::string(where.empty() ? "" : " OR ") + "CAST(\"" + cols.Str(k, 0) + "\" AS TEXT) LIKE ?";
          args.emplace_back("%" + needle + "%");
        }
      } else {
        where = "CAST(t AS TEXT) LIKE ?";
        args.emplace_back("%" + needle + "%");
      }
      if (where.empty()) continue;
      SV_ASSIGN_OR_RETURN(store::Rows r,
                          c.Query("SELECT COUNT(*) FROM \"" + table + "\" t WHERE " + where, args));
      n += r.Int(0, 0);
    }
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return n;
}

}  // namespace

TEST_CASE("a password sent by the unmodified @sentry/node SDK never reaches the database") {
  REQUIRE_MESSAGE(std::filesystem::exists(SdkDir() + "/node_modules/@sentry/node"),
                  "@sentry/node is not installed: scripts/test.sh runs npm ci in tests/e2e/sentry");
  TempDir dir;
  for (const Backend& backend : Backends(dir)) {
    CAPTURE(backend.name);
    const std::string secret = "pw-" + backend.name + "-Hq7Zr2Vx9Kt";
    const std::string marker = "marker-" + backend.name + "-Wm4Yp8";
    RunningServer server(backend.url, {"SERVICE_RATE_LIMITS=off"});
    REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
    httplib::Client api("127.0.0.1", server.port());
    const json::value reg =
        Json(api.Post("/v1/auth/register",
                      "{\"email\":\"scrub-" + backend.name +
                          "@example.com\",\"password\":\"scrub-e2e-password\",\"name\":\"Scrub\","
                          "\"orgName\":\"Scrub Inc\"}",
                      "application/json"));
    const std::string key = S(reg, "apiKey");
    const int64_t number = reg.at("project").at("project_number").as_int64();
    const std::string project_id = S(reg.at("project"), "id");
    const std::string dsn =
        "http://" + key + "@127.0.0.1:" + std::to_string(server.port()) + "/" + std::to_string(number);

    const auto [code, output] = Shell("cd '" + SdkDir() + "' && timeout 60 node send_secret.js '" + dsn +
                                      "' '" + secret + "' '" + marker + "'");
    REQUIRE_MESSAGE(code == 0, output);

    const httplib::Headers auth = {{"Authorization", "Bearer " + S(reg, "accessToken")},
                                   {"X-Service-Org", S(reg.at("org"), "id")}};
    const json::value bugs = Json(api.Get("/v1/bugs?signalClass=all", auth));
    const json::array& list = bugs.at("bugs").as_array();
    REQUIRE_MESSAGE(list.size() == 1, json::serialize(bugs));
    CHECK(S(list[0], "title") == "Error: login failed for password=[Filtered]");
    const json::value occ = Json(api.Get("/v1/bugs/" + S(list[0], "id") + "/occurrences", auth));
    const json::value& sentry = occ.at("occurrences").as_array().at(0).at("metadata").at("sentry");
    CHECK(S(sentry.at("extra"), "password") == "[Filtered]");
    CHECK(S(sentry.at("extra"), "visible") == marker);
    const json::value scrub = Json(api.Get("/v1/projects/" + project_id + "/scrubbing", auth));
    CHECK(scrub.at("total").as_int64() >= 5);
    CHECK(json::serialize(bugs).find(secret) == std::string::npos);
    CHECK(json::serialize(occ).find(secret) == std::string::npos);

    // Stopped: every write is in the files (and the counters flushed).
    REQUIRE(server.Stop().has_value());
    const bool sqlite = backend.name == "sqlite";
    CHECK(RowsContaining(backend.url, sqlite, marker) >= 1);
    CHECK(RowsContaining(backend.url, sqlite, "[Filtered]") >= 1);
    CHECK(RowsContaining(backend.url, sqlite, secret) == 0);
    CHECK(RowsContaining(backend.url, sqlite, "203.0.113.77") == 0);
    if (sqlite) {
      // Nor in free pages or the WAL: the files' bytes (a string split over
      // two pages would escape this search, hence the row search above).
      const std::string bytes = SqliteBytes(dir.path() + "/data/service.db");
      REQUIRE(bytes.size() > 4096);
      CHECK(bytes.find(secret) == std::string::npos);
      CHECK(bytes.find("203.0.113.77") == std::string::npos);
    }
  }
}

}  // namespace service::e2e
