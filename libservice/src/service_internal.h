// The inside of a Service, for the library's own tests, benchmarks and
// shells (not installed): the shared ports, the area modules and the API
// pipeline. Embedders use service/service.h only.
#pragma once

#include "api/pipeline.h"
#include "area_list.h"
#include "modules/platform.h"
#include "service/service.h"

namespace service::internal {

modules::Platform& PlatformOf(Service& s);
modules::Modules& ModulesOf(Service& s);
api::Pipeline& PipelineOf(Service& s);

}  // namespace service::internal
