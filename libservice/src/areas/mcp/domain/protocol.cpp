#include "areas/mcp/domain/protocol.h"

#include <algorithm>

namespace service::domain::mcp {

namespace json = boost::json;

bool IsSupportedProtocolVersion(std::string_view version) {
  return std::find(kProtocolVersions.begin(), kProtocolVersions.end(), version) != kProtocolVersions.end();
}

std::string_view NegotiateProtocolVersion(std::string_view requested) {
  for (std::string_view v : kProtocolVersions) {
    if (v == requested) return v;
  }
  return kLatestProtocolVersion;
}

Message Classify(const json::value& v) {
  Message m;
  const json::object* o = v.if_object();
  if (o == nullptr) {
    m.problem = "A message must be a JSON object";
    return m;
  }
  const json::value* id = o->if_contains("id");
  const bool id_usable = id != nullptr && (id->is_string() || id->is_int64() || id->is_uint64());
  if (id_usable) m.id = *id;
  const json::value* version = o->if_contains("jsonrpc");
  if (version == nullptr || !version->is_string() || version->as_string() != "2.0") {
    m.problem = "jsonrpc must be \"2.0\"";
    return m;
  }
  const json::value* method = o->if_contains("method");
  if (method == nullptr) {
    // A response from the client (to a request this server never sends):
    // accepted and ignored, when it has the shape of one.
    if (id != nullptr && (o->contains("result") || o->contains("error"))) {
      m.kind = Message::Kind::kResponse;
      return m;
    }
    m.problem = "method is required";
    return m;
  }
  if (!method->is_string()) {
    m.problem = "method must be a string";
    return m;
  }
  m.method = std::string(method->as_string());
  if (const json::value* params = o->if_contains("params")) {
    if (!params->is_object() && !params->is_array()) {
      m.problem = "params must be an object or an array";
      return m;
    }
    m.params = params;
  }
  if (id == nullptr) {
    m.kind = Message::Kind::kNotification;
    return m;
  }
  if (!id_usable) {
    // MCP: an id is a string or an integer, never null.
    m.problem = "id must be a string or an integer";
    return m;
  }
  m.kind = Message::Kind::kRequest;
  return m;
}

json::object ResultMessage(const json::value& id, json::value result) {
  return json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json::object ErrorMessage(const json::value& id, int code, std::string_view message) {
  return json::object{
      {"jsonrpc", "2.0"}, {"id", id}, {"error", json::object{{"code", code}, {"message", message}}}};
}

}  // namespace service::domain::mcp
