// SQL pieces of the capture area's rows that other areas' repositories read
// too: the columns of an occurrence and of an end user, and their decoding.
// Written once for both backends.
#pragma once

#include <string>

#include "areas/capture/ports/end_user_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "store/database.h"

namespace service::store {

// The columns of ports::Occurrence with `alias` ("o." or "") before each.
std::string OccurrenceColumns(const char* alias);
// Reads an occurrence whose columns start at `first`.
ports::Occurrence OccurrenceFromRow(const Rows& r, size_t i, size_t first);

// The columns of ports::EndUser over end_users (unaliased).
extern const char* const kEndUserColumns;
ports::EndUser EndUserFromRow(const Rows& r, size_t i);

}  // namespace service::store
