// Every route of the product, one registration call per area.
#include "api/pipeline.h"

namespace service::api {

void RegisterHealthRoutes(Pipeline& p);
void RegisterBearerAuthenticator(Pipeline& p);
void RegisterAuthRoutes(Pipeline& p);
void RegisterTeamRoutes(Pipeline& p);
void RegisterCaptureRoutes(Pipeline& p);
void RegisterProjectRoutes(Pipeline& p);
void RegisterAiRoutes(Pipeline& p);

void RegisterAllRoutes(Pipeline& p, app::Core& /*core*/) {
  RegisterHealthRoutes(p);
  RegisterBearerAuthenticator(p);
  RegisterAuthRoutes(p);
  RegisterTeamRoutes(p);
  RegisterCaptureRoutes(p);
  RegisterProjectRoutes(p);
  RegisterAiRoutes(p);
}

}  // namespace service::api
