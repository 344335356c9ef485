// The OpenAPI 3.1 document of GET /v1/openapi.json, built from the live route
// table and the catalogue (openapi_catalogue.cpp) so that it cannot drift
// silently: the route table gives the paths, methods, path parameters and
// security (from each route's AuthMode and capability); the catalogue gives,
// keyed by "METHOD pattern", the summary, tag, query parameters, request body
// and response schemas (JSON Schema 2020-12), and the component schemas.
// A registered route without a catalogue entry, an entry without a route and
// a reference to a schema the catalogue lacks are reported (the API test
// asserts all three lists are empty).
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "api/router.h"

namespace service::api::openapi {

struct Document {
  boost::json::object document;
  // "METHOD pattern" of routes the catalogue does not describe.
  std::vector<std::string> undocumented;
  // Catalogue entries no registered route matches (entries marked
  // "optional", registered only under a setting, are not listed).
  std::vector<std::string> unregistered;
  // Schema names referenced by an entry but absent from the catalogue.
  std::vector<std::string> missing_schemas;
};

// The catalogue's JSON text.
const std::string& CatalogueText();

// "/v1/bugs/:id" -> "/v1/bugs/{id}".
std::string TemplatedPath(std::string_view pattern);

Document BuildDocument(const std::vector<const Route*>& routes, std::string_view catalogue_text,
                       std::string_view version);

}  // namespace service::api::openapi
