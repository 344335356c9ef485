// The admin area's SQL repositories: its read model over every area's
// tables and its own customer profiles. Only the composition (its module)
// and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/admin/ports/admin_read_model.h"
#include "areas/admin/ports/customer_profile_repository.h"

namespace service::store {

std::unique_ptr<ports::AdminReadModel> NewSqlAdminReadModel();
std::unique_ptr<ports::CustomerProfileRepository> NewSqlCustomerProfileRepository();

}  // namespace service::store
