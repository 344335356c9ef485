// The Model Context Protocol's framing (server-contract "MCP"): JSON-RPC 2.0
// messages as the Streamable HTTP transport carries them, the protocol
// versions this server speaks and their negotiation, and the JSON-RPC error
// codes.
//
// A POST body is one message or, as JSON-RPC allows and MCP 2025-03-26
// required, a batch (an array of at most kMaxBatch messages). Each message is
// classified on its own: a request (method and an id that is a string or a
// number) is answered; a notification (method, no id) and a response (the
// client answering, no method) are accepted without an answer.
//
// Pure functions and plain values; safe from any thread.
#pragma once

#include <array>
#include <boost/json.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace service::domain::mcp {

// Newest first: what initialize answers when a client asks for a version
// this server does not speak is the first.
inline constexpr std::array<std::string_view, 4> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                      "2025-03-26", "2024-11-05"};
inline constexpr std::string_view kLatestProtocolVersion = kProtocolVersions[0];

bool IsSupportedProtocolVersion(std::string_view version);
// The version initialize answers: the client's when supported, else the
// latest this server speaks (the client then decides whether it can go on).
std::string_view NegotiateProtocolVersion(std::string_view requested);

// JSON-RPC 2.0 error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

// Messages in one batch at most (a larger batch is an invalid request).
inline constexpr size_t kMaxBatch = 32;

struct Message {
  enum class Kind { kRequest, kNotification, kResponse, kInvalid };
  Kind kind = Kind::kInvalid;
  // Requests: the id as sent (a string or a number). Invalid messages: the
  // id when one could be read, else null (answered with id null).
  boost::json::value id;
  std::string method;
  // The params member (an object or an array), or null when absent.
  const boost::json::value* params = nullptr;
  // Invalid messages: why, for the error's message.
  std::string problem;
};

// Classifies one JSON-RPC message. REQUIRES: `v` outlives the result (params
// points into it).
Message Classify(const boost::json::value& v);

// {"jsonrpc":"2.0","id":id,"result":result}
boost::json::object ResultMessage(const boost::json::value& id, boost::json::value result);
// {"jsonrpc":"2.0","id":id,"error":{"code":code,"message":message}}
boost::json::object ErrorMessage(const boost::json::value& id, int code, std::string_view message);

}  // namespace service::domain::mcp
