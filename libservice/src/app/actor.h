// ConsoleActor: who calls a console use case (a signed-in member acting in
// one organization), as the API layer's authentication established it.
// Plain value.
#pragma once

#include <optional>
#include <string>

#include "domain/roles.h"
#include "service/status.h"

namespace service::app {

struct ConsoleActor {
  std::string user_id;
  std::string email;
  std::string org_id;  // the organization of the request (X-Service-Org)
  std::string role;    // the membership role in org_id
};

// OK when the actor's role may do `capability`, else 403 "Insufficient permissions".
inline Status RequireCapability(const ConsoleActor& actor, domain::Capability capability) {
  const std::optional<domain::Role> role = domain::ParseRole(actor.role);
  if (!role || !domain::Can(*role, capability)) return PermissionDenied("Insufficient permissions");
  return Status::Ok();
}

}  // namespace service::app
