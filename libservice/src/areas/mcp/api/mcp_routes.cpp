// The MCP endpoint (server-contract "MCP"; issue 29 item 5), the Model
// Context Protocol's Streamable HTTP transport for agent tokens:
//   POST   /v1/mcp   one JSON-RPC 2.0 message, or a batch of at most 32
//   GET    /v1/mcp   405 (this server opens no server-to-client stream)
//   DELETE /v1/mcp   405 (no sessions to end)
// Authentication: Authorization: Bearer sv_pat_... (AuthMode::kAgentToken:
// human JWTs and capture keys are refused before the handler, 401).
//
// Transport choices (the protocol leaves them to the server):
// - Stateless: no Mcp-Session-Id is issued and one sent is ignored; every
//   request is authenticated and authorized on its own, so any server
//   process behind a balancer answers any call.
// - Requests are answered with application/json (the protocol allows it
//   instead of an event stream); a POST carrying only notifications or
//   responses is answered 202 with no body.
// - Accept, when sent, must admit application/json (else 406); a
//   Content-Type other than application/json is 415; an MCP-Protocol-Version
//   header naming a version this server does not speak is 400.
// - A body that is not JSON is 400 with a JSON-RPC parse error (-32700); a
//   single message that is not a valid JSON-RPC message is 400 with -32600;
//   inside a batch each invalid message gets its own -32600 answer (id null
//   when unreadable) and the batch is answered 200.
//
// Methods: initialize (protocol version negotiation: the client's version
// when supported, else the latest supported), ping, tools/list, tools/call;
// notifications (notifications/initialized, ...) are accepted; any other
// method is -32601. tools/call of an unknown tool, or with arguments that
// do not match the tool's input schema, is -32602; a refusal by the tool's
// use case is a tool result with isError (api/mcp_tools.h).
#include <boost/json.hpp>
#include <string>

#include "api/agent_access.h"
#include "api/json.h"
#include "areas/mcp/api/mcp_tools.h"
#include "areas/mcp/api/routes.h"
#include "areas/mcp/domain/protocol.h"
#include "areas/mcp/domain/tools.h"
#include "service/service.h"
#include "util/strings.h"

namespace service::api {
namespace {

namespace json = boost::json;
namespace dm = domain::mcp;

using app::mcp::McpDeps;

constexpr std::string_view kInstructions =
    "Bugs captured from this organization's apps, for the projects this token is granted. "
    "listen_handoffs returns the bugs people handed to agents; get_bug gives a bug with its events, "
    "occurrences and end users to reproduce it; list_bugs and search_bugs find others. Before working on "
    "an issue, claim_issue it (renew_claim before the lease expires), report progress with ack_bug "
    "(action working, then prUrl), and finish with complete_claim or give it up with release_claim. "
    "Refusals come back as tool errors carrying the HTTP API's error code (SCOPE_REQUIRED, "
    "PROJECT_GRANT_REQUIRED, CLAIM_HELD, LEASE_STALE, ...).";

// 202, no body: the POST carried only notifications or responses.
Response Accepted() {
  Response r;
  r.status = 202;
  return r;
}

Response RpcResponse(int status, const json::value& body) { return JsonResponse(status, body); }

Response RpcError(int http, int code, std::string_view message) {
  return RpcResponse(http, dm::ErrorMessage(nullptr, code, message));
}

// The media type of a header value, lower case, without parameters.
std::string MediaType(std::string_view v) {
  const size_t semi = v.find(';');
  return util::ToLower(util::Trim(v.substr(0, semi)));
}

bool AcceptsJson(const std::string& accept) {
  size_t start = 0;
  while (start <= accept.size()) {
    const size_t comma = accept.find(',', start);
    const std::string type = MediaType(std::string_view(accept).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    if (type == "application/json" || type == "application/*" || type == "*/*") return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

app::mcp::AgentCaller CallerOf(const Principal& p) {
  return app::mcp::AgentCaller{p.key_id, p.user_id, p.email, p.org_id, p.role, p.scopes, p.granted_projects};
}

json::value Initialize(const dm::Message& m, std::string* problem) {
  const json::object* params = m.params ? m.params->if_object() : nullptr;
  const json::value* requested = params ? params->if_contains("protocolVersion") : nullptr;
  if (requested == nullptr || !requested->is_string()) {
    *problem = "params.protocolVersion is required";
    return nullptr;
  }
  return json::object{{"protocolVersion", dm::NegotiateProtocolVersion(requested->as_string())},
                      {"capabilities", json::object{{"tools", json::object{{"listChanged", false}}}}},
                      {"serverInfo", json::object{{"name", "service"},
                                                  {"title", "Issue capture and triage"},
                                                  {"version", service::Version()}}},
                      {"instructions", kInstructions}};
}

json::value ListTools() {
  json::array tools;
  for (const dm::ToolSpec& t : dm::Tools()) tools.push_back(dm::ToolJson(t));
  return json::object{{"tools", std::move(tools)}};
}

// The answer to one request.
json::object Answer(const McpDeps& d, const Context& ctx, const dm::Message& m) {
  if (m.method == "initialize") {
    std::string problem;
    json::value result = Initialize(m, &problem);
    if (!problem.empty()) return dm::ErrorMessage(m.id, dm::kInvalidParams, problem);
    return dm::ResultMessage(m.id, std::move(result));
  }
  if (m.method == "ping") return dm::ResultMessage(m.id, json::object{});
  if (m.method == "tools/list") return dm::ResultMessage(m.id, ListTools());
  if (m.method == "tools/call") {
    const json::object* params = m.params ? m.params->if_object() : nullptr;
    const json::value* name = params ? params->if_contains("name") : nullptr;
    if (name == nullptr || !name->is_string()) {
      return dm::ErrorMessage(m.id, dm::kInvalidParams, "params.name (the tool) is required");
    }
    const dm::ToolSpec* tool = dm::FindTool(name->as_string());
    if (tool == nullptr) {
      return dm::ErrorMessage(m.id, dm::kInvalidParams, "Unknown tool: " + std::string(name->as_string()));
    }
    static const json::object kNoArguments;
    const json::value* args = params->if_contains("arguments");
    if (args != nullptr && !args->is_object() && !args->is_null()) {
      return dm::ErrorMessage(m.id, dm::kInvalidParams, "params.arguments must be an object");
    }
    const json::object& arguments = args != nullptr && args->is_object() ? args->as_object() : kNoArguments;
    if (auto problem = dm::CheckArguments(*tool, arguments)) {
      return dm::ErrorMessage(m.id, dm::kInvalidParams,
                              "Invalid arguments for " + std::string(tool->name) + ": " + *problem);
    }
    return dm::ResultMessage(m.id, mcp::CallTool(d, ctx, CallerOf(ctx.principal), *tool, arguments));
  }
  return dm::ErrorMessage(m.id, dm::kMethodNotFound, "Method not found: " + m.method);
}

Response HandleMcp(const McpDeps& d, Context& ctx) {
  if (!IsAgent(ctx.principal)) return ErrorResponse(401, "Agent token required");
  const std::string* accept = ctx.req.headers.Find("Accept");
  if (accept != nullptr && !util::Trim(*accept).empty() && !AcceptsJson(*accept)) {
    return RpcError(406, dm::kInvalidRequest, "Accept must admit application/json");
  }
  const std::string* content_type = ctx.req.headers.Find("Content-Type");
  if (content_type != nullptr && MediaType(*content_type) != "application/json") {
    return RpcError(415, dm::kInvalidRequest, "Content-Type must be application/json");
  }
  const std::string* version = ctx.req.headers.Find("MCP-Protocol-Version");
  if (version != nullptr && !dm::IsSupportedProtocolVersion(util::Trim(*version))) {
    return RpcError(400, dm::kInvalidRequest, "Unsupported MCP-Protocol-Version: " + util::Trim(*version));
  }
  Result<json::value> body = ParseJsonBody(ctx.req.body);
  if (!body.ok()) return RpcError(400, dm::kParseError, "Parse error");

  if (body->is_array()) {
    const json::array& batch = body->as_array();
    if (batch.empty() || batch.size() > dm::kMaxBatch) {
      return RpcError(400, dm::kInvalidRequest,
                      "A batch holds 1 to " + std::to_string(dm::kMaxBatch) + " messages");
    }
    json::array answers;
    for (const json::value& v : batch) {
      const dm::Message m = dm::Classify(v);
      if (m.kind == dm::Message::Kind::kInvalid) {
        answers.push_back(dm::ErrorMessage(m.id, dm::kInvalidRequest, m.problem));
      } else if (m.kind == dm::Message::Kind::kRequest) {
        answers.push_back(Answer(d, ctx, m));
      }
    }
    if (answers.empty()) return Accepted();
    return RpcResponse(200, answers);
  }
  const dm::Message m = dm::Classify(*body);
  switch (m.kind) {
    case dm::Message::Kind::kInvalid:
      return RpcResponse(400, dm::ErrorMessage(m.id, dm::kInvalidRequest, m.problem));
    case dm::Message::Kind::kNotification:
    case dm::Message::Kind::kResponse:
      return Accepted();
    case dm::Message::Kind::kRequest:
      break;
  }
  return RpcResponse(200, Answer(d, ctx, m));
}

Response MethodNotAllowed(Context&) {
  Response r = ErrorResponse(405, "Method not allowed: POST JSON-RPC messages to /v1/mcp");
  r.headers.Set("Allow", "POST");
  return r;
}

}  // namespace

void RegisterMcpRoutes(Pipeline& p, const app::mcp::McpDeps& deps) {
  Router& r = p.router();
  r.Add("POST", "/v1/mcp", RateClass::kGeneral, AuthMode::kAgentToken, Bind(deps, HandleMcp));
  r.Add("GET", "/v1/mcp", RateClass::kGeneral, AuthMode::kNone, MethodNotAllowed);
  r.Add("DELETE", "/v1/mcp", RateClass::kGeneral, AuthMode::kNone, MethodNotAllowed);
}

}  // namespace service::api
