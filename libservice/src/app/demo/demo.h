// Demo seeding (`service-server --demo`): on an empty database, creates a
// demo organization with a verified admin and sends a few hundred realistic
// reports through the real capture pipeline (several platforms, releases and
// environments, duplicates, a watch and a diagnostic signal, and one bug that
// is resolved and then regresses).
//
// Thread-safety: call once, before serving requests.
#pragma once

#include <string>

#include "app/core.h"
#include "service/status.h"

namespace service::app {

struct DemoResult {
  bool created = false;  // false: the database was not empty; nothing done
  std::string email;
  std::string password;  // generated; printed once by the shell
  std::string org_name;
  std::string api_key;
  int reports = 0;
  int bugs = 0;
};

Result<DemoResult> SeedDemo(Core& core);

}  // namespace service::app
