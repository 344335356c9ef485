// The verification area's SQL repository (ports/verification_repository.h).
// Only the composition (its module) and store tests create it.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <memory>

#include "areas/verification/ports/verification_repository.h"

namespace service::store {

std::unique_ptr<ports::VerificationRepository> NewSqlVerificationRepository();

}  // namespace service::store
