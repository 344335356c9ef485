// The MCP server's tools (server-contract "MCP"): their names, descriptions
// and arguments, one table from which both the input JSON Schema that
// tools/list shows and the check of a tools/call's arguments are made, so
// the two never disagree.
//
// Arguments use the HTTP routes' field names (projectId, issueId, bugId,
// commandId, claimId, generation, fencingToken, ...). The check is strict:
// an unknown member, a wrong type, a missing required member, a malformed
// UUID or an integer out of range is malformed arguments (the server
// answers JSON-RPC -32602 with the returned message).
//
// Pure functions over a static table; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::mcp {

struct ArgSpec {
  enum class Type {
    kString,   // any string, at most max_length characters (0: no bound) and at least min_length
    kUuid,     // a UUID (any case)
    kDecimal,  // a positive decimal integer written as a string ("1", "42")
    kInteger,  // a JSON integer in [min, max]
    kBoolean,
    kEnum,  // one of `values`
  };
  std::string_view name;
  Type type = Type::kString;
  bool required = false;
  std::string_view description;
  int64_t min = 0;
  int64_t max = 0;
  std::optional<int64_t> default_value;  // kInteger: shown in the schema
  size_t min_length = 0;
  size_t max_length = 0;
  std::vector<std::string_view> values;  // kEnum
};

struct ToolSpec {
  std::string_view name;
  std::string_view title;
  std::string_view description;
  std::vector<ArgSpec> args;
  bool read_only = true;   // annotations.readOnlyHint
  bool idempotent = true;  // annotations.idempotentHint (a replayed commandId counts)
};

// Every tool, in the order tools/list shows them.
const std::vector<ToolSpec>& Tools();
// The tool called `name`, or null.
const ToolSpec* FindTool(std::string_view name);

// The tool's inputSchema: {type: object, properties, required,
// additionalProperties: false}.
boost::json::object InputSchema(const ToolSpec& tool);
// The tool's entry of tools/list: {name, title, description, inputSchema,
// annotations}.
boost::json::object ToolJson(const ToolSpec& tool);

// Checks `arguments` against the tool's table: nullopt when they conform,
// else a message naming the first offending member.
std::optional<std::string> CheckArguments(const ToolSpec& tool, const boost::json::object& arguments);

}  // namespace service::domain::mcp
