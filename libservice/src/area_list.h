// The list of areas Service::Open assembles, in dependency order (a module
// may use the modules before it).
#pragma once

#include <cstdlib>
#include <memory>
#include <vector>

#include "modules/module.h"

namespace service::modules {

struct Modules {
  std::vector<std::unique_ptr<Module>> all;  // in the order they open

  // The module of type M (the Service and the library's tests reach a few
  // directly). Every area's module is in the list: a missing one is a defect.
  template <typename M>
  M& Get() const {
    for (const auto& m : all) {
      if (auto* found = dynamic_cast<M*>(m.get())) return *found;
    }
    std::abort();
  }
};

// Builds every area's module. Nothing is opened yet.
Modules AssembleModules();

}  // namespace service::modules
