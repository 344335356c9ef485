// GET /v1/openapi.json: built once, at the first request, from the complete
// route table (openapi_document.h), then served as the same bytes.
#include <memory>
#include <mutex>

#include "api/context.h"
#include "api/json.h"
#include "areas/openapi/api/openapi_document.h"
#include "areas/openapi/api/routes.h"

namespace service::api {

void RegisterOpenApiRoutes(Pipeline& p, std::string version) {
  struct Cache {
    std::once_flag once;
    std::string body;
  };
  auto cache = std::make_shared<Cache>();
  Router* router = &p.router();
  router->Add("GET", "/v1/openapi.json", RateClass::kGeneral, AuthMode::kNone,
              [cache, router, version](Context&) {
                std::call_once(cache->once, [&] {
                  const openapi::Document d =
                      openapi::BuildDocument(router->Routes(), openapi::CatalogueText(), version);
                  cache->body = json::serialize(d.document);
                });
                Response r = JsonTextResponse(200, cache->body);
                r.headers.Set("Cache-Control", "public, max-age=3600");
                return r;
              });
}

}  // namespace service::api
