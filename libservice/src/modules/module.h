// Module: one area of the product (health, mail, accounts, projects,
// capture, ai, demo, triage, ...) as Service::Open assembles it.
//
// A module owns its area's repositories (built from store/), fills the
// area's dependencies struct (app/<area>/) from them and from the Platform,
// registers its background tasks on Platform::workers and its deletion
// hooks on Platform::deletion in Open, and its routes (api/) in
// RegisterRoutes. Its tables come from its migration files
// (store/migrations/NNNN_<area>_*.sql), which the binary embeds. The
// settings the area reads from Options are its rows of the settings table
// (AddSettings; service::Settings() gathers them).
//
// Adding an area: see the README's "Adding an area".
//
// Thread-safety: Open and RegisterRoutes run once, on the thread that opens
// the service, before it handles requests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/pipeline.h"
#include "modules/platform.h"
#include "service/options.h"
#include "service/status.h"
#include "setting_rows.h"

namespace service::modules {

class Module {
 public:
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  virtual ~Module() = default;

  // The area's name, e.g. "capture" (logs, errors at open).
  virtual std::string_view name() const = 0;
  // Appends the area's rows of the settings table (the SERVICE_* variables
  // whose Options fields the area reads), in documentation order. Called on
  // a module that is never opened (service::Settings() builds the table
  // once); the rows' strings must be static. Default: none.
  virtual void AddSettings(std::vector<SettingInfo>& /*rows*/) const {}
  // Builds the shared repositories the area owns (the Platform's users,
  // projects, usage, ...), before any module opens. Default: none.
  virtual void Provide(Platform& /*platform*/) {}
  // Builds the area's repositories and use-case dependencies and registers
  // its tasks and hooks. `platform` outlives the module. A failure aborts
  // Service::Open.
  virtual Status Open(Platform& platform) = 0;
  // Registers the area's routes (and authenticators). Default: none.
  virtual void RegisterRoutes(api::Pipeline& /*pipeline*/) {}
};

}  // namespace service::modules
