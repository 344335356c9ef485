// What an agent token may do on this call (Spec 2 "Authentication" 2): its
// scopes and its project grants, as the authenticator read them into the
// Principal. Route handlers of agent routes ask these before their use case;
// a human principal has no scopes and no grants.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "api/context.h"

namespace service::api {

inline bool IsAgent(const Principal& p) { return p.kind == Principal::Kind::kAgent; }

// True when the agent token carries `scope` (exact name, e.g. "claim_issue").
inline bool HasScope(const Principal& p, std::string_view scope) {
  return std::find(p.scopes.begin(), p.scopes.end(), scope) != p.scopes.end();
}

// True when the agent token has an unexpired grant for `project_id`.
inline bool HasGrant(const Principal& p, std::string_view project_id) {
  return std::find(p.granted_projects.begin(), p.granted_projects.end(), project_id) !=
         p.granted_projects.end();
}

}  // namespace service::api
