// The MCP server's pure parts (areas/mcp/domain): protocol version
// negotiation, JSON-RPC message classification, and the tool table's
// schemas and argument checks, table-driven.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/mcp/domain/protocol.h"
#include "areas/mcp/domain/tools.h"

namespace mcp = service::domain::mcp;
namespace json = boost::json;

TEST_CASE("mcp protocol: the client's version when supported, else the latest") {
  struct Case {
    const char* requested;
    const char* answered;
  };
  const Case cases[] = {{"2025-11-25", "2025-11-25"},
                        {"2025-06-18", "2025-06-18"},
                        {"2025-03-26", "2025-03-26"},
                        {"2024-11-05", "2024-11-05"},
                        {"2024-10-07", "2025-11-25"},
                        {"2099-01-01", "2025-11-25"},
                        {"", "2025-11-25"}};
  for (const Case& c : cases) {
    CAPTURE(c.requested);
    CHECK(mcp::NegotiateProtocolVersion(c.requested) == c.answered);
    CHECK(mcp::IsSupportedProtocolVersion(c.requested) == (std::string(c.requested) == c.answered));
  }
}

TEST_CASE("mcp protocol: JSON-RPC messages are requests, notifications, responses or invalid") {
  using Kind = mcp::Message::Kind;
  struct Case {
    const char* text;
    Kind kind;
  };
  const Case cases[] = {
      {R"({"jsonrpc":"2.0","id":1,"method":"ping"})", Kind::kRequest},
      {R"({"jsonrpc":"2.0","id":"x","method":"tools/list","params":{}})", Kind::kRequest},
      {R"({"jsonrpc":"2.0","method":"notifications/initialized"})", Kind::kNotification},
      {R"({"jsonrpc":"2.0","id":3,"result":{}})", Kind::kResponse},
      {R"({"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m"}})", Kind::kResponse},
      {R"({"jsonrpc":"2.0","id":null,"method":"ping"})", Kind::kInvalid},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", Kind::kInvalid},
      {R"({"jsonrpc":"2.0","id":true,"method":"ping"})", Kind::kInvalid},
      {R"({"jsonrpc":"1.0","id":1,"method":"ping"})", Kind::kInvalid},
      {R"({"id":1,"method":"ping"})", Kind::kInvalid},
      {R"({"jsonrpc":"2.0","id":1,"method":7})", Kind::kInvalid},
      {R"({"jsonrpc":"2.0","id":1})", Kind::kInvalid},
      {R"({"jsonrpc":"2.0","id":1,"method":"ping","params":3})", Kind::kInvalid},
      {R"([1])", Kind::kInvalid},
      {R"("ping")", Kind::kInvalid},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const json::value v = json::parse(c.text);
    const mcp::Message m = mcp::Classify(v);
    CHECK(static_cast<int>(m.kind) == static_cast<int>(c.kind));
    if (m.kind == Kind::kInvalid) CHECK_FALSE(m.problem.empty());
  }
  const json::value v = json::parse(R"({"jsonrpc":"1.0","id":"keep","method":"ping"})");
  CHECK(mcp::Classify(v).id == "keep");  // an invalid message is answered under its id when readable
  const json::object e = mcp::ErrorMessage(nullptr, mcp::kParseError, "Parse error");
  CHECK(json::serialize(e) ==
        R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})");
}

TEST_CASE("mcp tools: every tool has a strict object schema whose required members exist") {
  CHECK(mcp::Tools().size() == 10);
  for (const mcp::ToolSpec& t : mcp::Tools()) {
    CAPTURE(t.name);
    CHECK(mcp::FindTool(t.name) == &t);
    const json::object schema = mcp::InputSchema(t);
    CHECK(schema.at("type") == "object");
    CHECK(schema.at("additionalProperties") == false);
    if (const json::value* required = schema.if_contains("required")) {
      for (const json::value& r : required->as_array())
        CHECK(schema.at("properties").as_object().contains(r.as_string()));
    }
    const json::object entry = mcp::ToolJson(t);
    CHECK(std::string_view(entry.at("name").as_string()) == t.name);
    CHECK(entry.at("annotations").at("readOnlyHint").is_bool());
  }
  CHECK(mcp::FindTool("nope") == nullptr);
}

TEST_CASE("mcp tools: arguments are checked against the table") {
  const mcp::ToolSpec& renew = *mcp::FindTool("renew_claim");
  const std::string id = "0190aaaa-0000-7000-8000-000000000001";
  const json::object good{{"commandId", id}, {"projectId", id},   {"issueId", id},
                          {"claimId", id},   {"generation", "3"}, {"fencingToken", "12"}};
  CHECK_FALSE(mcp::CheckArguments(renew, good).has_value());
  struct Case {
    const char* member;
    json::value value;
  };
  const std::vector<Case> bad = {
      {"commandId", "nope"}, {"generation", "0"},    {"generation", "01"}, {"generation", 3},
      {"fencingToken", ""},  {"ttlSeconds", 59},     {"ttlSeconds", 901},  {"ttlSeconds", "300"},
      {"extra", 1},          {"fencingToken", "-1"}, {"ttlSeconds", 1.5},  {"ttlSeconds", 1e300},
  };
  for (const Case& c : bad) {
    CAPTURE(c.member);
    CAPTURE(json::serialize(c.value));
    json::object args = good;
    args[c.member] = c.value;
    CHECK(mcp::CheckArguments(renew, args).has_value());
  }
  json::object ok_ttl = good;
  ok_ttl["ttlSeconds"] = 60;
  CHECK_FALSE(mcp::CheckArguments(renew, ok_ttl).has_value());
  ok_ttl["ttlSeconds"] = 900.0;  // JSON has one number type
  CHECK_FALSE(mcp::CheckArguments(renew, ok_ttl).has_value());
  json::object missing = good;
  missing.erase("claimId");
  const auto problem = mcp::CheckArguments(renew, missing);
  REQUIRE(problem.has_value());
  CHECK(problem->find("claimId") != std::string::npos);

  const mcp::ToolSpec& search = *mcp::FindTool("search_bugs");
  CHECK(mcp::CheckArguments(search, json::object{{"q", "x"}}).has_value());  // at least 2 characters
  CHECK_FALSE(mcp::CheckArguments(search, json::object{{"q", "éé"}}).has_value());
  CHECK(mcp::CheckArguments(search, json::object{{"q", std::string(201, 'a')}}).has_value());
  const mcp::ToolSpec& ack = *mcp::FindTool("ack_bug");
  CHECK_FALSE(mcp::CheckArguments(ack, json::object{{"bugId", id}, {"action", "working"}}).has_value());
  CHECK(mcp::CheckArguments(ack, json::object{{"bugId", id}, {"action", "done"}}).has_value());
  CHECK(mcp::CheckArguments(*mcp::FindTool("list_bugs"), json::object{{"unresolved", "yes"}}).has_value());
}
