// The accounts area's routes: Bearer authentication (sessions), /v1/auth/* and /v1/team/*.
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/accounts/app/accounts.h"

namespace service::api {

// Bearer authentication (sessions) for every route but capture keys'.
void RegisterBearerAuthenticator(Pipeline& p, const app::accounts::AccountsDeps& deps);
// /v1/auth/*. `production`: forgot-password never shows the token.
void RegisterAuthRoutes(Pipeline& p, const app::accounts::AccountsDeps& deps, bool production);
// /v1/team/*.
void RegisterTeamRoutes(Pipeline& p, const app::accounts::AccountsDeps& deps);

}  // namespace service::api
