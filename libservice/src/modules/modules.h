// The list of areas Service::Open assembles, in dependency order (a module
// may use the modules before it).
#pragma once

#include <memory>
#include <vector>

#include "modules/accounts.h"
#include "modules/capture.h"
#include "modules/demo.h"
#include "modules/integrations.h"
#include "modules/mail.h"
#include "modules/module.h"
#include "modules/triage.h"

namespace service::modules {

struct Modules {
  std::vector<std::unique_ptr<Module>> all;  // in the order they open
  // The modules the Service (and the library's tests) reach directly.
  MailModule* mail = nullptr;
  AccountsModule* accounts = nullptr;
  CaptureModule* capture = nullptr;
  TriageModule* triage = nullptr;
  IntegrationsModule* integrations = nullptr;
  DemoModule* demo = nullptr;
};

// Builds every area's module. Nothing is opened yet.
Modules AssembleModules();

}  // namespace service::modules
