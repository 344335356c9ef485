// The evidence area's routes (/v1/evidence/*). Its module registers them.
#pragma once

#include <string>

#include "api/pipeline.h"
#include "areas/accounts/app/accounts.h"
#include "areas/capture/app/runtime.h"
#include "areas/evidence/app/evidence.h"

namespace service::api {

// What the routes need besides the use cases: the two authenticators they
// run themselves (the routes take a capture key or a bearer, so they are
// registered without an AuthMode and authenticate in the handler).
struct EvidenceRouteDeps {
  const app::evidence::EvidenceDeps* evidence = nullptr;
  const app::accounts::AccountsDeps* accounts = nullptr;  // bearer: sessions and agent tokens
  app::capture::Runtime* capture = nullptr;               // capture keys
  // The folder upload bodies are spooled to (the evidence folder's tmp/,
  // on the blob store's filesystem); "" when storage is not configured.
  std::string spool_dir;
};

void RegisterEvidenceRoutes(Pipeline& p, const EvidenceRouteDeps& deps);

}  // namespace service::api
