// The accounts area's routes: Bearer authentication (sessions), /v1/auth/* and /v1/team/*.
// Its module registers them.
#pragma once

#include "api/pipeline.h"
#include "areas/accounts/app/accounts.h"

namespace service::api {

// Bearer authentication (sessions) for every route but capture keys'.
void RegisterBearerAuthenticator(Pipeline& p, const app::accounts::AccountsDeps& deps);
// The same bearer authenticator, for a route of AuthMode::kNone that also
// takes another credential and authenticates in its handler (the evidence
// routes: a capture key or a bearer); `mode` is the mode to check as.
Status AuthenticateBearer(const app::accounts::AccountsDeps& deps, Context& ctx, AuthMode mode);
// /v1/auth/*. `production`: forgot-password never shows the token.
void RegisterAuthRoutes(Pipeline& p, const app::accounts::AccountsDeps& deps, bool production);
// /v1/team/*.
void RegisterTeamRoutes(Pipeline& p, const app::accounts::AccountsDeps& deps);

}  // namespace service::api
