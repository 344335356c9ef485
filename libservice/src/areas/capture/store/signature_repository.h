// The factory of ports::SignatureRepository (bug signatures, recomputed by
// the superadmin's backfill). Only the composition and store tests create it.
#pragma once

#include <memory>

#include "areas/capture/ports/signature_repository.h"

namespace service::store {

std::unique_ptr<ports::SignatureRepository> NewSqlSignatureRepository();

}  // namespace service::store
