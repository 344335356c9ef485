// Shared pieces of the triage-read routes (api/bugs_routes.cpp,
// api/bug_insight_routes.cpp): the JSON of a bug and an occurrence, and the
// query parameters under the one-value rule (QueryParams::One: a repeated or
// array-form scalar is 400 naming it).
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "api/context.h"
#include "app/actor.h"
#include "areas/bugs/app/bugs.h"
#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "service/status.h"

namespace service::api {

boost::json::value OptText(const std::optional<std::string>& s);
boost::json::value OptTimeJson(const std::optional<int64_t>& t);
// A stored JSON text (ai_summary, groupingV3, metadata) or null.
boost::json::value StoredJson(const std::optional<std::string>& text);
// Spec 1 "Bug" and "Occurrence".
boost::json::object BugJson(const ports::BugRecord& b);
boost::json::object OccurrenceJson(const ports::Occurrence& o);

Status BadParam(std::string message);
// A scalar parameter under the one-value rule.
Result<std::optional<std::string>> Param(const Context& ctx, std::string_view name);
// An integer parameter in [min, max]; above max reads as max; absent: def.
Result<int64_t> IntParam(const Context& ctx, std::string_view name, int64_t def, int64_t min, int64_t max);
// true/1 or false/0; absent: def.
Result<bool> BoolParam(const Context& ctx, std::string_view name, bool def);
// An enumerated parameter; `valid` decides.
template <typename Pred>
Result<std::optional<std::string>> EnumParam(const Context& ctx, std::string_view name, Pred valid) {
  SV_ASSIGN_OR_RETURN(std::optional<std::string> raw, Param(ctx, name));
  if (raw && !valid(*raw)) return BadParam("Invalid " + std::string(name));
  return raw;
}

Result<std::optional<std::string>> UuidParam(const Context& ctx, std::string_view name);
// The filters of GET /v1/bugs and the grouped list from the query. For an
// agent token (server contract "Agent tokens") the list is one granted
// project's: projectId must name a granted project (403
// PROJECT_GRANT_REQUIRED); without it, the token's only granted project
// (none: 403 PROJECT_GRANT_REQUIRED; several: 400 projectId is required).
Result<ports::BugFilter> ParseBugFilter(const Context& ctx);

// Agent tokens on the bug reads open to them (AuthMode::kJwtOrgOrAgent):
// the token needs the read_bugs scope (403 SCOPE_REQUIRED). OK for humans.
Status AgentReadGate(const Context& ctx);
// The same for a route of one bug: also the bug's project must be granted
// (another project's bug reads as 404 Bug not found). OK for humans.
// `scopes`: the token needs one of them (Spec 1: a bug's end users also open
// to get_repro_context, suggest_fix and subscribe).
Status AgentBugGate(const app::bugs::BugsDeps& deps, const Context& ctx, const std::string& bug_id,
                    std::initializer_list<std::string_view> scopes = {"read_bugs"});
app::ConsoleActor Actor(const Context& ctx);

}  // namespace service::api
