// The openapi area (issue 34 item 4): GET /v1/openapi.json, the OpenAPI 3.1
// document of the route table. No tables, no settings. Assembled last so that
// the route table is complete (the document is built at the first request).
#pragma once

#include "modules/module.h"

namespace service::modules {

class OpenApiModule final : public Module {
 public:
  std::string_view name() const override { return "openapi"; }
  Status Open(Platform& /*platform*/) override { return Status::Ok(); }
  void RegisterRoutes(api::Pipeline& pipeline) override;
};

}  // namespace service::modules
