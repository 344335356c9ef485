// POST /v1/ingest/ai-summary and its alias POST /v1/bugs/ai-summary (Spec 1
// "Ingestion"), against a local stub of an OpenAI-compatible provider.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>

#include "support/capture_fixture.h"
#include "support/stub_http_server.h"

namespace service::testing {
namespace {

namespace json = boost::json;

const char* const kKey = "sk-stub-SECRET-4242";
const char* const kPaths[] = {"/v1/ingest/ai-summary", "/v1/bugs/ai-summary"};

std::string Completion(const std::string& content) {
  return json::serialize(json::object{
      {"model", "stub-model-2024"},
      {"choices",
       json::array{json::object{{"index", 0},
                                {"message", json::object{{"role", "assistant"}, {"content", content}}}}}}});
}

CannedResponse Reply(int status, std::string body) {
  CannedResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

CannedResponse GoodReply() {
  return Reply(200, Completion(json::serialize(json::object{
                        {"title", "Checkout crashes on submit"},
                        {"severity", "high"},
                        {"description", "Submitting the form throws a TypeError in the payment step."}})));
}

// A service whose AI provider is `stub`.
std::function<void(Options&)> WithAi(const StubHttpServer& stub, bool allow_private = true) {
  const std::string url = stub.url("/v1");
  return [url, allow_private](Options& o) {
    o.ai.url = url;
    o.ai.key = kKey;
    o.ai.model = "tiny-model";
    o.allow_private_destinations = allow_private;
  };
}

json::array Events(size_t n) {
  json::array events;
  for (size_t i = 0; i < n; ++i) {
    events.push_back(json::object{{"type", "console"}, {"message", "evt-" + std::to_string(i) + "-end"}});
  }
  return events;
}

json::object Body(size_t events = 2) {
  return json::object{{"events", Events(events)},
                      {"title", "Checkout broken"},
                      {"url", "https://shop.example.com/checkout"},
                      {"context", json::object{{"environment", "production"},
                                               {"release", "web@1.2.3"},
                                               {"userAgent", "Mozilla/5.0 Firefox/121.0"},
                                               {"userId", "u-77"}}}};
}

// The user message the stub received in its only (or last) request.
std::string PromptSeen(const StubHttpServer& stub) {
  auto seen = stub.requests();
  REQUIRE(!seen.empty());
  json::value body = json::parse(seen.back().body);
  return std::string(body.at("messages").as_array().at(1).at("content").as_string());
}

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

struct RowCounts {
  int64_t bugs, occurrences, events, end_users, outbox, presence;
  bool operator==(const RowCounts&) const = default;
};

// internal state: "stores nothing" covers every table capture writes, most of which no route counts.
RowCounts Rows(TestService& t) {
  return {QueryInt(t, "SELECT COUNT(*) FROM bugs"),
          QueryInt(t, "SELECT COUNT(*) FROM occurrences"),
          QueryInt(t, "SELECT COUNT(*) FROM occurrence_events"),
          QueryInt(t, "SELECT COUNT(*) FROM end_users"),
          QueryInt(t, "SELECT COUNT(*) FROM outbox"),
          QueryInt(t, "SELECT COUNT(*) FROM presence")};
}

}  // namespace

TEST_CASE("ai-summary answers the provider's title, severity and description with provider and model") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", GoodReply());
  TestService t(WithAi(stub));
  CaptureSetup s = NewCaptureSetup(t);
  for (const char* path : kPaths) {
    CAPTURE(path);
    TestResponse r = t.Post(path, Body(), KeyHeader(s.key));
    REQUIRE(r.status == 200);
    CHECK(r.json.at("title") == "Checkout crashes on submit");
    CHECK(r.json.at("severity") == "high");
    CHECK(r.json.at("description") == "Submitting the form throws a TypeError in the payment step.");
    CHECK(r.json.at("truncated") == false);
    CHECK(r.json.at("provider") == "openai-compatible");
    CHECK(r.json.at("model") == "stub-model-2024");
    CHECK(r.body.find(kKey) == std::string::npos);
  }
  auto seen = stub.requests();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].path == "/v1/chat/completions");
  CHECK(seen[0].Header("Authorization") == std::string("Bearer ") + kKey);
  json::value sent = json::parse(seen[0].body);
  CHECK(sent.at("model") == "tiny-model");
  CHECK(sent.at("response_format").at("type") == "json_object");
  const std::string prompt = PromptSeen(stub);
  CHECK(prompt.find("Checkout broken") != std::string::npos);
  CHECK(prompt.find("evt-0-end") != std::string::npos);
  CHECK(prompt.find("evt-1-end") != std::string::npos);
  CHECK(prompt.find("web@1.2.3") != std::string::npos);
}

TEST_CASE("more than 500 events: truncated is true and the provider sees only the first 500") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", GoodReply());
  TestService t(WithAi(stub));
  CaptureSetup s = NewCaptureSetup(t);

  TestResponse exact = t.Post("/v1/ingest/ai-summary", Body(500), KeyHeader(s.key));
  REQUIRE(exact.status == 200);
  CHECK(exact.json.at("truncated") == false);
  CHECK(Count(PromptSeen(stub), "evt-") == 500);

  TestResponse over = t.Post("/v1/ingest/ai-summary", Body(501), KeyHeader(s.key));
  REQUIRE(over.status == 200);
  CHECK(over.json.at("truncated") == true);
  const std::string prompt = PromptSeen(stub);
  CHECK(Count(prompt, "evt-") == 500);
  CHECK(prompt.find("evt-499-end") != std::string::npos);
  CHECK(prompt.find("evt-500-end") == std::string::npos);

  // Far more is still accepted (only the 10 MB body limit bounds it).
  TestResponse many = t.Post("/v1/ingest/ai-summary", Body(5000), KeyHeader(s.key));
  REQUIRE(many.status == 200);
  CHECK(many.json.at("truncated") == true);
  CHECK(Count(PromptSeen(stub), "evt-") <= 500);
}

TEST_CASE("without an AI provider ai-summary answers 503 AI service not configured") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  for (const char* path : kPaths) {
    CAPTURE(path);
    TestResponse r = t.Post(path, Body(), KeyHeader(s.key));
    CHECK(r.status == 503);
    CHECK(r.json.at("error") == "AI service not configured");
  }
}

TEST_CASE("ai-summary needs a capture key") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", GoodReply());
  TestService t(WithAi(stub));
  NewCaptureSetup(t);
  CHECK(t.Post("/v1/ingest/ai-summary", Body()).status == 401);
  CHECK(t.Post("/v1/ingest/ai-summary", Body(), KeyHeader("sv_live_" + std::string(32, 'Z'))).status == 401);
  CHECK(stub.request_count() == 0);
}

TEST_CASE("ai-summary validates its body: 400 with details and no provider call") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", GoodReply());
  TestService t(WithAi(stub));
  CaptureSetup s = NewCaptureSetup(t);

  struct Case {
    const char* name;
    json::value body;
    const char* field;
  };
  json::object long_title = Body();
  long_title["title"] = std::string(501, 't');
  json::object long_url = Body();
  long_url["url"] = "https://x.example.com/" + std::string(1990, 'u');
  json::object long_env = Body();
  long_env["context"].as_object()["environment"] = std::string(101, 'e');
  json::object long_release = Body();
  long_release["context"].as_object()["release"] = std::string(101, 'r');
  json::object long_ua = Body();
  long_ua["context"].as_object()["userAgent"] = std::string(501, 'a');
  json::object long_user = Body();
  long_user["context"].as_object()["userId"] = std::string(201, 'u');
  json::object bad_context = Body();
  bad_context["context"] = "production";
  json::object numeric_title = Body();
  numeric_title["title"] = 42;
  const Case cases[] = {
      {"no events", json::object{{"title", "x"}}, "events"},
      {"empty events", json::object{{"events", json::array{}}}, "events"},
      {"events not an array", json::object{{"events", "boom"}}, "events"},
      {"an event not an object", json::object{{"events", json::array{json::object{{"type", "log"}}, "text"}}},
       "events[1]"},
      {"title over 500", long_title, "title"},
      {"title not a string", numeric_title, "title"},
      {"url over 2000", long_url, "url"},
      {"environment over 100", long_env, "context.environment"},
      {"release over 100", long_release, "context.release"},
      {"userAgent over 500", long_ua, "context.userAgent"},
      {"userId over 200", long_user, "context.userId"},
      {"context not an object", bad_context, "context"},
      {"body not an object", json::array{1, 2}, "body"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    TestResponse r = t.Post("/v1/ingest/ai-summary", c.body, KeyHeader(s.key));
    CHECK(r.status == 400);
    CHECK(r.json.at("error") == "Validation failed");
    bool named = false;
    for (const auto& d : r.json.at("details").as_array()) named = named || d.at("field") == c.field;
    CHECK(named);
  }
  TestResponse broken = t.Request("POST", "/v1/ingest/ai-summary", "{\"events\": [", KeyHeader(s.key));
  CHECK(broken.status == 400);
  CHECK(broken.json.at("error") == "Invalid JSON in request body");

  // Limits are inclusive.
  json::object at_limits = Body();
  at_limits["title"] = std::string(500, 't');
  at_limits["context"].as_object()["userId"] = std::string(200, 'u');
  at_limits["context"].as_object()["environment"] = std::string(100, 'e');
  CHECK(stub.request_count() == 0);
  CHECK(t.Post("/v1/ingest/ai-summary", at_limits, KeyHeader(s.key)).status == 200);
}

TEST_CASE("a failing provider answers 502 without leaking the key or the provider's words") {
  StubHttpServer stub;
  TestService t(WithAi(stub));
  CaptureSetup s = NewCaptureSetup(t);
  const CannedResponse failures[] = {
      Reply(500, R"({"error":"internal meltdown near sk-stub-SECRET-4242"})"),
      Reply(401, R"({"error":{"message":"Incorrect API key provided: sk-stub-SECRET-4242"}})"),
      Reply(200, Completion("I am sorry, I cannot summarize this.")),
      Reply(200, "<html>gateway</html>"),
  };
  for (const CannedResponse& failure : failures) {
    CAPTURE(failure.body);
    stub.QueueResponse("/v1/chat/completions", failure);
    TestResponse r = t.Post("/v1/ingest/ai-summary", Body(), KeyHeader(s.key));
    CHECK(r.status == 502);
    CHECK(r.json.at("error") == "AI provider request failed");
    CHECK(r.body.find("SECRET") == std::string::npos);
    CHECK(r.body.find("meltdown") == std::string::npos);
    CHECK(r.body.find("127.0.0.1") == std::string::npos);
  }
}

TEST_CASE("an unexpected severity from the provider becomes medium") {
  StubHttpServer stub;
  stub.SetResponse(
      "/v1/chat/completions",
      Reply(200, Completion(R"({"title":"Slow page","severity":"catastrophic","description":"d"})")));
  TestService t(WithAi(stub));
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse r = t.Post("/v1/bugs/ai-summary", Body(), KeyHeader(s.key));
  REQUIRE(r.status == 200);
  CHECK(r.json.at("severity") == "medium");
  CHECK(r.json.at("title") == "Slow page");
}

TEST_CASE("a provider on a private address is refused unless private destinations are allowed") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", GoodReply());
  TestService t(WithAi(stub, /*allow_private=*/false));
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse r = t.Post("/v1/ingest/ai-summary", Body(), KeyHeader(s.key));
  CHECK(r.status == 502);
  CHECK(r.json.at("error") == "AI provider request failed");
  CHECK(stub.request_count() == 0);
}

TEST_CASE("ai-summary persists nothing and publishes no capture event") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", GoodReply());
  TestService t(WithAi(stub));
  CaptureSetup s = NewCaptureSetup(t);
  REQUIRE(Ingest(t, s.key, Report("Existing bug")).status == 201);
  const RowCounts before = Rows(t);
  EventRecorder recorder(t);
  for (const char* path : kPaths) {
    REQUIRE(t.Post(path, Body(600), KeyHeader(s.key)).status == 200);
  }
  stub.QueueResponse("/v1/chat/completions", Reply(500, "{}"));
  CHECK(t.Post("/v1/ingest/ai-summary", Body(), KeyHeader(s.key)).status == 502);
  CHECK(Rows(t) == before);
  CHECK(recorder.events().empty());
}

TEST_CASE("ai-summary scrubs what the provider is sent with the project's scrubbing settings") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", GoodReply());
  TestService t(WithAi(stub));
  CaptureSetup s = NewCaptureSetup(t);
  const std::string card = "4111 1111 1111 1111";
  json::object body = Body(0);
  body["title"] = "Payment failed for card " + card;
  body["url"] = "https://shop.example.com/checkout?password=hunter2-url";
  body["events"] =
      json::array{json::object{{"type", "console"}, {"message", "charging " + card}},
                  json::object{{"type", "network"},
                               {"password", "hunter2-event"},
                               {"headers", json::object{{"Authorization", "Bearer abcdefghijklmnop-secret"}}},
                               {"shoeSize", "44-shoe"}}};

  REQUIRE(t.Post("/v1/ingest/ai-summary", body, KeyHeader(s.key)).status == 200);
  std::string prompt = PromptSeen(stub);
  for (const char* secret :
       {"4111 1111 1111 1111", "hunter2-url", "hunter2-event", "abcdefghijklmnop-secret"}) {
    CAPTURE(secret);
    CHECK(prompt.find(secret) == std::string::npos);
  }
  CHECK(prompt.find("[Filtered]") != std::string::npos);
  CHECK(prompt.find("44-shoe") != std::string::npos);  // not a sensitive key by default
  CHECK(prompt.find("charging") != std::string::npos);

  // The project's own settings apply: an extra key, and messages kept as sent.
  HeaderList h = s.admin.headers();
  h.emplace_back("Content-Type", "application/json");
  REQUIRE(t.Request("PUT", "/v1/projects/" + s.project_id + "/scrubbing",
                    R"({"extraKeys": ["shoe_size"], "scrubMessages": false})", h)
              .status == 200);
  REQUIRE(t.Post("/v1/ingest/ai-summary", body, KeyHeader(s.key)).status == 200);
  prompt = PromptSeen(stub);
  CHECK(prompt.find("44-shoe") == std::string::npos);
  CHECK(prompt.find("Payment failed for card " + card) != std::string::npos);  // the title is a message
  CHECK(prompt.find("hunter2-event") == std::string::npos);
}

}  // namespace service::testing
