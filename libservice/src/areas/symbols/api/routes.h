// The symbols area's routes (/v1/agent-work/symbols/*). Its module registers
// them.
#pragma once

#include <string>

#include "api/pipeline.h"
#include "areas/symbols/app/symbols.h"

namespace service::api {

struct SymbolsRouteDeps {
  const app::symbols::SymbolsDeps* symbols = nullptr;
  // Where publish bodies are spooled (the evidence folder's tmp/, on the
  // blob store's filesystem); "": the system's temporary folder.
  std::string spool_dir;
};

void RegisterSymbolsRoutes(Pipeline& p, const SymbolsRouteDeps& deps);

}  // namespace service::api
