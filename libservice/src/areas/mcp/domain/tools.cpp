#include "areas/mcp/domain/tools.h"

#include <algorithm>
#include <cmath>

#include "util/strings.h"

namespace service::domain::mcp {

namespace json = boost::json;
using Type = ArgSpec::Type;

namespace {

ArgSpec Uuid(std::string_view name, bool required, std::string_view description) {
  ArgSpec a;
  a.name = name;
  a.type = Type::kUuid;
  a.required = required;
  a.description = description;
  return a;
}

ArgSpec Integer(std::string_view name, int64_t min, int64_t max, std::optional<int64_t> def,
                std::string_view description) {
  ArgSpec a;
  a.name = name;
  a.type = Type::kInteger;
  a.min = min;
  a.max = max;
  a.default_value = def;
  a.description = description;
  return a;
}

ArgSpec Text(std::string_view name, bool required, size_t min_length, size_t max_length,
             std::string_view description) {
  ArgSpec a;
  a.name = name;
  a.type = Type::kString;
  a.required = required;
  a.min_length = min_length;
  a.max_length = max_length;
  a.description = description;
  return a;
}

ArgSpec Decimal(std::string_view name, std::string_view description) {
  ArgSpec a;
  a.name = name;
  a.type = Type::kDecimal;
  a.required = true;
  a.description = description;
  return a;
}

ArgSpec Enum(std::string_view name, bool required, std::vector<std::string_view> values,
             std::string_view description) {
  ArgSpec a;
  a.name = name;
  a.type = Type::kEnum;
  a.required = required;
  a.values = std::move(values);
  a.description = description;
  return a;
}

ArgSpec Boolean(std::string_view name, std::string_view description) {
  ArgSpec a;
  a.name = name;
  a.type = Type::kBoolean;
  a.description = description;
  return a;
}

const std::vector<std::string_view> kStatuses = {"new", "known", "working", "resolved", "silenced"};
const std::vector<std::string_view> kSeverities = {"critical", "high", "medium", "low"};

// The fields every claim command carries, then the lease's.
std::vector<ArgSpec> CommandArgs(bool lease) {
  std::vector<ArgSpec> args = {
      Uuid("commandId", true,
           "A new UUID per command. After an uncertain answer resend the identical arguments with the "
           "same commandId: the first answer comes back; other arguments under it are COMMAND_CONFLICT."),
      Uuid("projectId", true, "The project of the issue (the token needs a grant for it)."),
      Uuid("issueId", true, "The issue (bug) id."),
  };
  if (lease) {
    args.push_back(Uuid("claimId", true, "The claim's id, as claim_issue returned it."));
    args.push_back(Decimal("generation", "The claim's generation, as claim_issue returned it."));
    args.push_back(Decimal("fencingToken", "The claim's fencing token, as claim_issue returned it."));
  }
  return args;
}

std::vector<ToolSpec> MakeTools() {
  std::vector<ToolSpec> t;
  t.push_back(
      ToolSpec{"list_bugs",
               "List bugs",
               "Bugs of a project the token may read, newest activity first, as GET /v1/bugs lists them "
               "(needs the read_bugs scope and a grant for the project). Without projectId: the token's only "
               "granted project.",
               {Uuid("projectId", false, "The project (a granted one)."),
                Enum("status", false, kStatuses, "Only bugs in this status."),
                Boolean("unresolved", "Only open bugs (new, known, working)."),
                Enum("severity", false, kSeverities, "Only bugs of this severity."),
                Text("search", false, 0, 200, "Case-insensitive text in the title or description."),
                Integer("limit", 1, 200, 50, "Bugs per page."),
                Integer("offset", 0, 1'000'000'000, 0, "Bugs to skip.")},
               true,
               true});
  t.push_back(ToolSpec{
      "search_bugs",
      "Search bugs",
      "Finds bug groups by meaning and by words in titles, descriptions and stack signatures, as GET "
      "/v1/bugs/search (needs read_bugs and a grant for the project). Without projectId: the token's "
      "only granted project.",
      {Text("q", true, 2, 200, "What to look for (2 to 200 characters)."),
       Uuid("projectId", false, "The project (a granted one)."),
       Enum("status", false, kStatuses, "Only groups with bugs in this status."),
       Enum("severity", false, kSeverities, "Only groups with bugs of this severity."),
       Integer("limit", 1, 100, 20, "Groups to return.")},
      true,
      true});
  t.push_back(ToolSpec{
      "get_bug",
      "Get a bug with its repro context",
      "One bug with what reproducing it needs: the bug (GET /v1/bugs/:id), its most recent events "
      "(GET /v1/bugs/:id/events: errors, breadcrumbs, network calls), its recent occurrences (release, "
      "environment, browser, URL) and the end users it reached (needs read_bugs and a grant for the "
      "bug's project). On plans without agent access an events read with eventLimit above 1 costs 2 "
      "prepaid credits (402 credits_exhausted when none are left); eventLimit 1 is free.",
      {Uuid("bugId", true, "The bug (issue) id."),
       Integer("eventLimit", 1, 1000, 20, "Most recent events to include."),
       Integer("occurrenceLimit", 1, 200, 10, "Most recent occurrences to include."),
       Integer("userLimit", 1, 200, 20, "End users to include.")},
      true,
      true});
  std::vector<ArgSpec> claim = CommandArgs(false);
  claim.push_back(Integer("ttlSeconds", 60, 900, 300, "Lease length in seconds."));
  t.push_back(ToolSpec{"claim_issue", "Claim an issue",
                       "Takes a fenced lease on an issue so no other agent works on it (POST "
                       "/v1/agent-work/claims; needs claim_issue and a grant). Returns {claim{claimId, "
                       "generation, fencingToken, projectId, issueId, status, expiresAt}}; CLAIM_HELD "
                       "when another live claim holds the issue. Renew before expiresAt.",
                       std::move(claim), false, true});
  std::vector<ArgSpec> renew = CommandArgs(true);
  renew.push_back(Integer("ttlSeconds", 60, 900, 300, "New lease length in seconds from now."));
  t.push_back(ToolSpec{"renew_claim", "Renew a claim",
                       "Extends a live lease (POST /v1/agent-work/claims/renew; needs claim_issue). An "
                       "expired, released, completed or superseded lease is LEASE_STALE.",
                       std::move(renew), false, true});
  t.push_back(ToolSpec{"release_claim", "Release a claim",
                       "Gives the issue up for others (POST /v1/agent-work/claims/release; needs "
                       "claim_issue).",
                       CommandArgs(true), false, true});
  std::vector<ArgSpec> complete = CommandArgs(true);
  complete.push_back(
      Text("receiptId", true, 1, 200, "The id of the work's receipt (e.g. a pull request or commit)."));
  t.push_back(ToolSpec{"complete_claim", "Complete a claim",
                       "Closes the work under a live lease (POST /v1/agent-work/claims/complete; needs "
                       "claim_issue). It does not mark the issue verified or resolved.",
                       std::move(complete), false, true});
  t.push_back(ToolSpec{
      "listen_handoffs",
      "Listen for handoffs",
      "Bugs people handed to agents in a project (GET /v1/projects/:id/agent-notifications; needs the "
      "subscribe scope and a grant). Without after: the queued handoffs of the last 24 hours; with "
      "after (the cursor of the previous call): the ones created since. Returned handoffs count as "
      "delivered.",
      {Uuid("projectId", true, "The project (a granted one)."),
       Text("after", false, 1, 200, "The cursor a previous call returned.")},
      false,
      false});
  t.push_back(
      ToolSpec{"ack_bug",
               "Report progress on a bug",
               "Tells the people on the bug that an agent is working on it, and optionally the pull request "
               "(POST /v1/bugs/:id/ack). prUrl: an absolute https URL without credentials, at most 2048 "
               "characters (else PR_URL_INVALID).",
               {Uuid("bugId", true, "The bug (issue) id."),
                Enum("action", true, {"working"}, "What the agent reports."),
                Text("prUrl", false, 0, 0, "The pull request's URL."),
                Text("note", false, 0, 500, "A short note for the people on the bug.")},
               false,
               true});
  t.push_back(ToolSpec{
      "list_evidence",
      "List an occurrence's evidence",
      "Evidence files (logs, replays) attached to an occurrence (GET /v1/evidence/projects/:projectId/"
      "occurrences/:occurrenceId/artifacts; needs get_repro_context and a grant). Answers "
      "storage_unavailable while evidence storage is not configured.",
      {Uuid("projectId", true, "The project (a granted one)."), Uuid("occurrenceId", true, "The occurrence."),
       Integer("limit", 1, 100, 20, "Artifacts per page."),
       Integer("offset", 0, 10'000, 0, "Artifacts to skip.")},
      true,
      true});
  return t;
}

json::object ArgSchema(const ArgSpec& a) {
  json::object s;
  switch (a.type) {
    case Type::kString:
      s["type"] = "string";
      if (a.min_length > 0) s["minLength"] = a.min_length;
      if (a.max_length > 0) s["maxLength"] = a.max_length;
      break;
    case Type::kUuid:
      s["type"] = "string";
      s["format"] = "uuid";
      break;
    case Type::kDecimal:
      s["type"] = "string";
      s["pattern"] = "^[1-9][0-9]*$";
      break;
    case Type::kInteger:
      s["type"] = "integer";
      s["minimum"] = a.min;
      s["maximum"] = a.max;
      if (a.default_value) s["default"] = *a.default_value;
      break;
    case Type::kBoolean:
      s["type"] = "boolean";
      break;
    case Type::kEnum: {
      s["type"] = "string";
      json::array values;
      for (std::string_view v : a.values) values.emplace_back(v);
      s["enum"] = std::move(values);
      break;
    }
  }
  s["description"] = a.description;
  return s;
}

bool IsPositiveDecimal(std::string_view s) {
  if (s.empty() || s.size() > 18 || s[0] < '1' || s[0] > '9') return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// nullopt when `v` conforms to `a`.
std::optional<std::string> CheckArg(const ArgSpec& a, const json::value& v) {
  const std::string name(a.name);
  switch (a.type) {
    case Type::kString: {
      if (!v.is_string()) return name + " must be a string";
      const size_t n = util::Utf8Length(v.as_string());
      if (n < a.min_length) return name + " must be at least " + std::to_string(a.min_length) + " characters";
      if (a.max_length > 0 && n > a.max_length)
        return name + " must be at most " + std::to_string(a.max_length) + " characters";
      return std::nullopt;
    }
    case Type::kUuid:
      if (!v.is_string() || !util::IsUuid(v.as_string())) return name + " must be a UUID";
      return std::nullopt;
    case Type::kDecimal:
      if (!v.is_string() || !IsPositiveDecimal(v.as_string()))
        return name + " must be a positive decimal string";
      return std::nullopt;
    case Type::kInteger: {
      int64_t n = 0;
      if (v.is_int64()) {
        n = v.as_int64();
      } else if (v.is_uint64() && v.as_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
        n = static_cast<int64_t>(v.as_uint64());
      } else if (v.is_double() && std::abs(v.as_double()) < 9e15 &&
                 v.as_double() == std::floor(v.as_double())) {
        // JSON has one number type: 20.0 is the integer 20 (checked in
        // range before the conversion).
        n = static_cast<int64_t>(v.as_double());
      } else {
        return name + " must be an integer";
      }
      if (n < a.min || n > a.max) {
        return name + " must be between " + std::to_string(a.min) + " and " + std::to_string(a.max);
      }
      return std::nullopt;
    }
    case Type::kBoolean:
      if (!v.is_bool()) return name + " must be true or false";
      return std::nullopt;
    case Type::kEnum: {
      if (v.is_string()) {
        const std::string_view s = v.as_string();
        if (std::find(a.values.begin(), a.values.end(), s) != a.values.end()) return std::nullopt;
      }
      std::string list;
      for (std::string_view e : a.values) list += (list.empty() ? "" : ", ") + std::string(e);
      return name + " must be one of: " + list;
    }
  }
  return std::nullopt;
}

}  // namespace

const std::vector<ToolSpec>& Tools() {
  static const std::vector<ToolSpec> kTools = MakeTools();
  return kTools;
}

const ToolSpec* FindTool(std::string_view name) {
  for (const ToolSpec& t : Tools()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

json::object InputSchema(const ToolSpec& tool) {
  json::object properties;
  json::array required;
  for (const ArgSpec& a : tool.args) {
    properties[a.name] = ArgSchema(a);
    if (a.required) required.emplace_back(a.name);
  }
  json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema["required"] = std::move(required);
  schema["additionalProperties"] = false;
  return schema;
}

json::object ToolJson(const ToolSpec& tool) {
  return json::object{{"name", tool.name},
                      {"title", tool.title},
                      {"description", tool.description},
                      {"inputSchema", InputSchema(tool)},
                      {"annotations", json::object{{"title", tool.title},
                                                   {"readOnlyHint", tool.read_only},
                                                   {"destructiveHint", false},
                                                   {"idempotentHint", tool.idempotent},
                                                   {"openWorldHint", false}}}};
}

std::optional<std::string> CheckArguments(const ToolSpec& tool, const json::object& arguments) {
  for (const auto& member : arguments) {
    const auto it = std::find_if(tool.args.begin(), tool.args.end(),
                                 [&](const ArgSpec& a) { return a.name == member.key(); });
    if (it == tool.args.end()) return "Unknown argument: " + std::string(member.key());
    if (auto problem = CheckArg(*it, member.value())) return problem;
  }
  for (const ArgSpec& a : tool.args) {
    if (a.required && !arguments.contains(a.name)) return std::string(a.name) + " is required";
  }
  return std::nullopt;
}

}  // namespace service::domain::mcp
