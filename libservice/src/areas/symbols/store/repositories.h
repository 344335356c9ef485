// The symbols area's SQL repositories: one factory per port of
// areas/symbols/ports/. Only the composition (its module) and store tests
// create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/symbols/ports/symbol_repository.h"

namespace service::store {

std::unique_ptr<ports::SymbolRepository> NewSqlSymbolRepository();

}  // namespace service::store
