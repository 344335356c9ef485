#include "areas/support/domain/support_session.h"

namespace service::domain::support {

Status CheckSession(const std::optional<SessionFacts>& found, const std::string& user_id,
                    const std::string& org_id, int64_t now) {
  // One answer for unknown, foreign and other-organization sessions: an id
  // guessed or copied tells nothing about whose it is.
  if (!found || found->user_id.empty() || found->user_id != user_id || found->org_id != org_id) {
    return PermissionDenied("Support session not found for this organization");
  }
  if (found->ended_at)
    return Status(Code::kPermissionDenied, "Support session ended", "SUPPORT_SESSION_ENDED");
  if (now >= found->expires_at) {
    return Status(Code::kPermissionDenied, "Support session expired", "SUPPORT_SESSION_EXPIRED");
  }
  return Status::Ok();
}

}  // namespace service::domain::support
