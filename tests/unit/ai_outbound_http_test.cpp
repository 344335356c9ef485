// The libcurl outbound HTTP client and the OpenAI-compatible provider,
// against a real local HTTP server.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <chrono>
#include <string>

#include "areas/ai/ports/ai_provider.h"
#include "ports/outbound_http.h"
#include "support/stub_http_server.h"

namespace json = boost::json;
using service::Code;
using service::ports::HttpRequest;
using service::ports::NewCurlOutboundHttp;
using service::ports::OutboundHttpOptions;
using service::testing::CannedResponse;
using service::testing::RecordedRequest;
using service::testing::StubHttpServer;

namespace {

std::unique_ptr<service::ports::OutboundHttp> Client(bool allow_private, size_t cap = 1024 * 1024) {
  OutboundHttpOptions o;
  o.allow_private_destinations = allow_private;
  o.max_response_bytes = cap;
  o.default_timeout_ms = 5'000;
  return NewCurlOutboundHttp(o);
}

CannedResponse Json(int status, std::string body) {
  CannedResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

std::string Completion(const std::string& content, const std::string& model = "stub-model-1") {
  return json::serialize(json::object{
      {"id", "chatcmpl-1"},
      {"object", "chat.completion"},
      {"model", model},
      {"choices",
       json::array{json::object{{"index", 0},
                                {"message", json::object{{"role", "assistant"}, {"content", content}}},
                                {"finish_reason", "stop"}}}}});
}

}  // namespace

TEST_CASE("POST and GET reach the server with headers and body, status, headers and body come back") {
  StubHttpServer stub;
  CannedResponse canned = Json(201, R"({"ok":true})");
  canned.headers = {{"X-Reply", "yes"}};
  stub.SetResponse("/hook", canned);
  auto http = Client(true);
  auto r = http->Post(stub.url("/hook?a=1"), R"({"n":1})",
                      {{"Content-Type", "application/json"}, {"X-Sig", "abc"}});
  REQUIRE(r.ok());
  CHECK(r->status == 201);
  CHECK(r->body == R"({"ok":true})");
  CHECK(r->Header("x-reply") == "yes");
  CHECK(r->Header("X-Reply") == "yes");
  CHECK(r->Header("content-type").find("application/json") == 0);
  auto seen = stub.requests();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].method == "POST");
  CHECK(seen[0].path == "/hook");
  CHECK(seen[0].query == "a=1");
  CHECK(seen[0].body == R"({"n":1})");
  CHECK(seen[0].Header("X-Sig") == "abc");
  CHECK(seen[0].Header("Expect").empty());

  auto g = http->Get(stub.url("/hook"));
  REQUIRE(g.ok());
  CHECK(g->status == 201);
  CHECK(stub.requests().back().method == "GET");
}

TEST_CASE("a kept-alive connection carries the next request, and nothing of one request reaches the next") {
  StubHttpServer stub;
  stub.SetResponse("/hook", Json(200, "{}"));
  auto http = Client(true);
  auto first = http->Post(stub.url("/hook"), R"({"n":1})",
                          {{"Authorization", "Bearer first-secret"}, {"X-Sig", "abc"}});
  REQUIRE(first.ok());
  auto second = http->Get(stub.url("/hook"));
  REQUIRE(second.ok());
  auto third = http->Post(stub.url("/hook"), R"({"n":3})", {});
  REQUIRE(third.ok());
  const auto seen = stub.requests();
  REQUIRE(seen.size() == 3);
  // One TCP connection (the same client port) for the three requests.
  CHECK_FALSE(seen[0].Header("REMOTE_PORT").empty());
  CHECK(seen[1].Header("REMOTE_PORT") == seen[0].Header("REMOTE_PORT"));
  CHECK(seen[2].Header("REMOTE_PORT") == seen[0].Header("REMOTE_PORT"));
  // The second and third carry none of the first's headers or body.
  CHECK(seen[1].method == "GET");
  CHECK(seen[1].body.empty());
  for (size_t i = 1; i < seen.size(); ++i) {
    CHECK(seen[i].Header("Authorization").empty());
    CHECK(seen[i].Header("X-Sig").empty());
  }
  CHECK(seen[2].body == R"({"n":3})");
}

TEST_CASE("error statuses are answers, not transport failures, and redirects are not followed") {
  StubHttpServer stub;
  stub.SetResponse("/err", Json(503, R"({"error":"down"})"));
  CannedResponse redirect = Json(302, "");
  redirect.headers = {{"Location", stub.url("/elsewhere")}};
  stub.SetResponse("/moved", redirect);
  stub.SetResponse("/elsewhere", Json(200, "{}"));
  auto http = Client(true);
  auto e = http->Post(stub.url("/err"), "{}", {});
  REQUIRE(e.ok());
  CHECK(e->status == 503);
  auto m = http->Post(stub.url("/moved"), "{}", {});
  REQUIRE(m.ok());
  CHECK(m->status == 302);
  CHECK(m->Header("location") == stub.url("/elsewhere"));
  CHECK(stub.request_count() == 2);  // /elsewhere never asked
}

TEST_CASE("a response over the size cap is a bad gateway") {
  StubHttpServer stub;
  stub.SetResponse("/big", Json(200, std::string(4096, 'x')));
  stub.SetResponse("/small", Json(200, std::string(1000, 'x')));
  auto http = Client(true, /*cap=*/2048);
  auto big = http->Get(stub.url("/big"));
  REQUIRE_FALSE(big.ok());
  CHECK(big.status().code() == Code::kBadGateway);
  CHECK(big.status().message().find("exceeds") != std::string::npos);
  auto small = http->Get(stub.url("/small"));
  REQUIRE(small.ok());
  CHECK(small->body.size() == 1000);
}

TEST_CASE("timeouts and refused connections are unavailable") {
  StubHttpServer stub;
  CannedResponse slow = Json(200, "{}");
  slow.delay_ms = 1500;
  stub.SetResponse("/slow", slow);
  auto http = Client(true);
  HttpRequest req;
  req.method = "GET";
  req.url = stub.url("/slow");
  req.timeout_ms = 300;
  const auto start = std::chrono::steady_clock::now();
  auto r = http->Send(req);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == Code::kUnavailable);
  CHECK(r.status().message().find("timed out") != std::string::npos);
  CHECK(elapsed < std::chrono::milliseconds(1400));

  int closed_port = 0;
  {
    StubHttpServer gone;
    closed_port = gone.port();
  }
  auto refused = http->Get("http://127.0.0.1:" + std::to_string(closed_port) + "/");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Code::kUnavailable);
}

TEST_CASE("private destinations are refused before any connection unless allowed") {
  StubHttpServer stub;
  stub.SetResponse("/x", Json(200, "{}"));
  auto strict = Client(false);
  const std::string port = std::to_string(stub.port());
  for (const std::string& url :
       {stub.url("/x"), "http://localhost:" + port + "/x", "http://[::1]:" + port + "/x",
        "http://2130706433:" + port + "/x", "http://0.0.0.0:" + port + "/x",
        "http://[::ffff:127.0.0.1]:" + port + "/x", std::string("http://169.254.169.254/latest")}) {
    CAPTURE(url);
    auto r = strict->Get(url);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kPermissionDenied);
    CHECK(r.status().error_code() == service::ports::kDestinationRefused);
  }
  CHECK(stub.request_count() == 0);

  // Allowed: the name is resolved here and pinned, and the request arrives.
  auto open = Client(true);
  auto by_name = open->Get("http://localhost:" + port + "/x");
  REQUIRE(by_name.ok());
  CHECK(by_name->status == 200);
  CHECK(stub.request_count() == 1);
}

TEST_CASE("only http and https URLs with a host are accepted, and headers cannot be injected") {
  auto http = Client(true);
  for (const char* url : {"ftp://example.com/x", "file:///etc/passwd", "gopher://127.0.0.1/", "example.com/x",
                          "http://", "not a url", "dict://127.0.0.1:11211/"}) {
    CAPTURE(url);
    auto r = http->Get(url);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kInvalidArgument);
  }
  StubHttpServer stub;
  auto injected = http->Post(stub.url("/x"), "{}", {{"X-A", "1\r\nX-Evil: 1"}});
  REQUIRE_FALSE(injected.ok());
  CHECK(injected.status().code() == Code::kInvalidArgument);
  HttpRequest put;
  put.method = "PUT";
  put.url = stub.url("/x");
  CHECK(http->Send(put).status().code() == Code::kInvalidArgument);
  CHECK(stub.request_count() == 0);
}

TEST_CASE("the provider posts model, messages, temperature and JSON mode with the bearer key") {
  StubHttpServer stub;
  stub.SetResponse("/v1/chat/completions", Json(200, Completion("{\"title\":\"T\"}")));
  auto http = Client(true);
  service::ports::AiProviderSettings settings{stub.url("/v1"), "sk-test-secret-key", "tiny-model"};
  auto ai = service::ports::NewOpenAiCompatibleProvider(settings, *http);
  CHECK(ai->name() == "openai-compatible");
  CHECK(ai->model() == "tiny-model");
  service::ports::ChatRequest req;
  req.messages = {{"system", "be brief"}, {"user", "hello"}};
  req.json_object = true;
  req.temperature = 0.5;
  auto reply = ai->Complete(req);
  REQUIRE(reply.ok());
  CHECK(reply->content == "{\"title\":\"T\"}");
  CHECK(reply->model == "stub-model-1");
  auto seen = stub.requests();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].path == "/v1/chat/completions");
  CHECK(seen[0].Header("Authorization") == "Bearer sk-test-secret-key");
  CHECK(seen[0].Header("Content-Type").find("application/json") == 0);
  json::value body = json::parse(seen[0].body);
  CHECK(body.at("model") == "tiny-model");
  CHECK(body.at("temperature").as_double() == doctest::Approx(0.5));
  CHECK(body.at("response_format").at("type") == "json_object");
  const auto& messages = body.at("messages").as_array();
  REQUIRE(messages.size() == 2);
  CHECK(messages[0].at("role") == "system");
  CHECK(messages[0].at("content") == "be brief");
  CHECK(messages[1].at("role") == "user");
  CHECK(messages[1].at("content") == "hello");
}

TEST_CASE("the full chat-completions URL works too, and no key means no Authorization header") {
  StubHttpServer stub;
  stub.SetResponse("/custom/chat/completions", Json(200, Completion("hi")));
  auto http = Client(true);
  auto ai =
      service::ports::NewOpenAiCompatibleProvider({stub.url("/custom/chat/completions"), "", ""}, *http);
  CHECK(ai->model() == service::ports::kDefaultAiModel);
  service::ports::ChatRequest req;
  req.messages = {{"user", "x"}};
  auto reply = ai->Complete(req);
  REQUIRE(reply.ok());
  auto seen = stub.requests();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].Header("Authorization").empty());
  CHECK_FALSE(json::parse(seen[0].body).as_object().contains("response_format"));
}

TEST_CASE("a provider without JSON mode is asked again without it, and not asked with it again") {
  StubHttpServer stub;
  int calls = 0;
  stub.SetHandler("/v1/chat/completions", [&calls](const RecordedRequest& r) {
    ++calls;
    if (r.body.find("response_format") != std::string::npos) {
      return Json(400, R"({"error":{"message":"Unrecognized request argument supplied: response_format"}})");
    }
    return Json(200, Completion("{}"));
  });
  auto http = Client(true);
  auto ai = service::ports::NewOpenAiCompatibleProvider({stub.url("/v1"), "k", "m"}, *http);
  service::ports::ChatRequest req;
  req.messages = {{"user", "x"}};
  req.json_object = true;
  REQUIRE(ai->Complete(req).ok());
  CHECK(stub.request_count() == 2);
  REQUIRE(ai->Complete(req).ok());
  CHECK(stub.request_count() == 3);
}

TEST_CASE("provider failures are classified and never repeat the key or the reply body") {
  StubHttpServer stub;
  const std::string key = "sk-live-SECRET-0123456789";
  auto http = Client(true);
  auto ai = service::ports::NewOpenAiCompatibleProvider({stub.url("/v1"), key, "m"}, *http);
  service::ports::ChatRequest req;
  req.messages = {{"user", "x"}};

  struct Case {
    int status;
    std::string body;
    Code expected;
  };
  const Case cases[] = {
      {401, R"({"error":{"message":"Incorrect API key provided: sk-live-SECRET-0123456789"}})",
       Code::kBadGateway},
      {500, R"({"error":"boom sk-live-SECRET-0123456789"})", Code::kBadGateway},
      {429, R"({"error":"slow down"})", Code::kUnavailable},
      {200, "not json " + key, Code::kBadGateway},
      {200, R"({"choices":[]})", Code::kBadGateway},
      {200, R"({"choices":[{"message":{"content":null}}]})", Code::kBadGateway},
  };
  for (const Case& c : cases) {
    CAPTURE(c.status);
    CAPTURE(c.body);
    stub.QueueResponse("/v1/chat/completions", Json(c.status, c.body));
    auto r = ai->Complete(req);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == c.expected);
    CHECK(r.status().ToString().find("SECRET") == std::string::npos);
  }
}
