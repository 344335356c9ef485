// Support sessions (Spec 2 "Superadmin", server contract "Support
// sessions"): a superadmin opens one on an organization and, for its
// lifetime, acts there with an admin's rights when a request names it
// (X-Service-Support-Session). The rules a request under a session must
// pass, without I/O.
//
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "service/status.h"

namespace service::domain::support {

// Spec 2 "Limits": a support session lasts 8 hours.
inline constexpr int64_t kSessionLifetimeMs = int64_t{8} * 60 * 60 * 1000;
// The only mode: the operator acts as one of the organization's admins.
inline constexpr const char* kModeAdmin = "admin";

// What the check needs of a stored session.
struct SessionFacts {
  std::string org_id;
  std::string user_id;  // the superadmin who opened it ("" once their account is gone)
  int64_t expires_at = 0;
  std::optional<int64_t> ended_at;
};

// May `user_id` act in `org_id` at `now` under the session `found` (nullopt:
// no session of that id)? OK, or kPermissionDenied:
//   no such session, another caller's, another organization's
//                                   "Support session not found for this organization"
//   ended early                     "Support session ended"    (code SUPPORT_SESSION_ENDED)
//   now at or past expires_at       "Support session expired"  (code SUPPORT_SESSION_EXPIRED)
Status CheckSession(const std::optional<SessionFacts>& found, const std::string& user_id,
                    const std::string& org_id, int64_t now);

}  // namespace service::domain::support
