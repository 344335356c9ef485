// The tickets area's SQL repositories: one factory per port of areas/tickets/ports/.
// Only the composition (its module) and store tests create them.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/tickets/ports/ticket_repository.h"

namespace service::store {

std::unique_ptr<ports::TicketRepository> NewSqlTicketRepository();

}  // namespace service::store
