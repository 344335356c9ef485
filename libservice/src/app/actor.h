// ConsoleActor: who calls a console use case (a signed-in member acting in
// one organization), as the API layer's authentication established it.
// Plain value.
#pragma once

#include <string>

namespace service::app {

struct ConsoleActor {
  std::string user_id;
  std::string email;
  std::string org_id;  // the organization of the request (X-Service-Org)
  std::string role;    // the membership role in org_id
};

}  // namespace service::app
