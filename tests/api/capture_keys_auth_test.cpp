// Capture keys as credentials (Spec 1 "Authentication", capture keys): 401
// for missing, malformed, unknown, revoked and expired keys; revocation takes
// effect; last_used is written in batches; a key opens only the ingest routes.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <chrono>
#include <optional>
#include <thread>

#include "areas/capture/app/runtime.h"
#include "areas/capture/module.h"
#include "service_internal.h"
#include "support/capture_fixture.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

// The project's one key as GET /v1/projects/:id/keys shows it.
json::value OnlyKey(TestService& t, const CaptureSetup& s) {
  TestResponse keys = t.Get("/v1/projects/" + s.project_id + "/keys", s.admin.headers());
  REQUIRE_MESSAGE(keys.status == 200, keys.body);
  REQUIRE(keys.json.at("keys").as_array().size() == 1);
  return keys.json.at("keys").at(0);
}

// The key's last_used in milliseconds (nullopt: never written).
std::optional<int64_t> LastUsed(TestService& t, const CaptureSetup& s) {
  const json::value key = OnlyKey(t, s);
  if (key.at("last_used").is_null()) return std::nullopt;
  return util::ParseIso8601(key.at("last_used").as_string());
}

void CheckInvalidKey(const TestResponse& r) {
  CHECK(r.status == 401);
  CHECK(r.json.at("error") == "Missing or invalid API key");
}

}  // namespace

TEST_CASE("missing, malformed and unknown keys are refused with 401 and store nothing") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string body = json::serialize(Report("R"));
  CheckInvalidKey(t.Request("POST", "/v1/ingest", body));
  CheckInvalidKey(t.Request("POST", "/v1/ingest", body, {{"X-Service-Key", ""}}));
  CheckInvalidKey(t.Request("POST", "/v1/ingest", body, {{"X-Service-Key", "sv_live_short"}}));
  CheckInvalidKey(
      t.Request("POST", "/v1/ingest", body, {{"X-Service-Key", "sk_live_" + std::string(32, 'a')}}));
  CheckInvalidKey(
      t.Request("POST", "/v1/ingest", body, {{"X-Service-Key", "sv_live_" + std::string(31, 'a') + "!"}}));
  CheckInvalidKey(
      t.Request("POST", "/v1/ingest", body, {{"X-Service-Key", "sv_live_" + std::string(32, 'a')}}));
  // A key sent as a bearer token is not a capture key.
  CheckInvalidKey(t.Request("POST", "/v1/ingest", body, {{"Authorization", "Bearer " + s.key}}));
  CheckInvalidKey(t.Request("POST", "/v1/ingest/presence", R"({"sessionId":"s"})"));
  CHECK(OccurrencesVia(t, s.admin) == 0);
}

TEST_CASE("a capture key opens only the ingest routes") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  CHECK(t.Get("/v1/projects", KeyHeader(s.key)).status == 401);
  CHECK(t.Post("/v1/projects", json::object{{"name", "x"}, {"orgId", s.admin.org_id}}, KeyHeader(s.key))
            .status == 401);
  CHECK(t.Get("/v1/projects/" + s.project_id + "/keys", KeyHeader(s.key)).status == 401);
  CHECK(
      t.Post("/v1/bugs/manual", json::object{{"projectId", s.project_id}, {"title", "abc"}}, KeyHeader(s.key))
          .status == 401);
  HeaderList both = KeyHeader(s.key);
  both.emplace_back("Authorization", "Bearer " + s.key);
  both.emplace_back("X-Service-Org", s.admin.org_id);
  CHECK(t.Get("/v1/projects", both).status == 401);
}

TEST_CASE("a key revoked through the API stops working at once") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  REQUIRE(Ingest(t, s.key, Report("Before")).status == 201);
  TestResponse keys = t.Get("/v1/projects/" + s.project_id + "/keys", s.admin.headers());
  REQUIRE(keys.status == 200);
  const std::string key_id(keys.json.at("keys").at(0).at("id").as_string());
  REQUIRE(t.Delete("/v1/projects/" + s.project_id + "/keys/" + key_id, s.admin.headers()).status == 200);
  CheckInvalidKey(Ingest(t, s.key, Report("After")));
  CHECK(OccurrencesVia(t, s.admin) == 1);
}

TEST_CASE("a key revoked elsewhere (another process) stops working within the cache TTL") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  REQUIRE(Ingest(t, s.key, Report("Cached")).status == 201);
  RevokeKeyElsewhere(t, s.admin.org_id, s.project_id, std::string(OnlyKey(t, s).at("id").as_string()));
  // Within the TTL the verified key is still served from memory...
  CHECK(Ingest(t, s.key, Report("Cached")).status == 201);
  // ...and after it the database is asked again.
  t.clock().Advance(app::capture::kKeyCacheTtlMs);
  CheckInvalidKey(Ingest(t, s.key, Report("Cached")));
}

TEST_CASE("an expired key is refused, a key with a future expiry works until then") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse created =
      t.Post("/v1/projects/" + s.project_id + "/keys",
             json::object{{"env", "live"}, {"label", "temp"}, {"expiresAt", "2026-01-15T10:00:10Z"}},
             s.admin.headers());
  REQUIRE_MESSAGE(created.status == 201, created.body);
  CHECK(created.json.at("expiresAt") == "2026-01-15T10:00:10.000Z");
  const std::string key(created.json.at("key").as_string());
  CHECK(Ingest(t, key, Report("Soon expired")).status == 201);
  t.clock().Advance(10'000);
  CheckInvalidKey(Ingest(t, key, Report("Soon expired")));
  // A key may not be created already expired.
  TestResponse past = t.Post("/v1/projects/" + s.project_id + "/keys",
                             json::object{{"expiresAt", "2020-01-01T00:00:00Z"}}, s.admin.headers());
  CHECK(past.status == 400);
}

TEST_CASE("last_used is recorded in memory and written in batches, not per request") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  for (int i = 0; i < 5; ++i) REQUIRE(Ingest(t, s.key, Report("Used")).status == 201);
  // No write per request.
  CHECK_FALSE(LastUsed(t, s));
  REQUIRE(service::internal::ModulesOf(t.service())
              .Get<service::modules::CaptureModule>()
              .runtime()
              .FlushKeyUses()
              .ok());
  CHECK(LastUsed(t, s) == kTestEpochMs);
  TestResponse keys = t.Get("/v1/projects/" + s.project_id + "/keys", s.admin.headers());
  CHECK(keys.json.at("keys").at(0).at("last_used") == "2026-01-15T10:00:00.000Z");

  t.clock().Advance(60'000);
  REQUIRE(Ingest(t, s.key, Report("Used")).status == 201);
  CHECK(LastUsed(t, s) == kTestEpochMs);
  // The worker task flushes too (it runs once more when workers stop).
  REQUIRE(t.service().StartWorkers().ok());
  service::internal::PlatformOf(t.service()).workers.Kick();
  for (int i = 0; i < 200; ++i) {
    if (LastUsed(t, s) == kTestEpochMs + 60'000) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(LastUsed(t, s) == kTestEpochMs + 60'000);
}

}  // namespace service::testing
