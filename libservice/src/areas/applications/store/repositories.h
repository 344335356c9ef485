// The applications area's SQL repositories: one factory per port of
// areas/applications/ports/. Only the composition (its module) and store
// tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/applications/ports/application_directory.h"
#include "areas/applications/ports/receipt_repository.h"
#include "areas/applications/ports/registry_repository.h"

namespace service::store {

std::unique_ptr<ports::RegistryRepository> NewSqlRegistryRepository();
std::unique_ptr<ports::ReceiptRepository> NewSqlReceiptRepository();
std::unique_ptr<ports::ApplicationDirectory> NewSqlApplicationDirectory();

}  // namespace service::store
