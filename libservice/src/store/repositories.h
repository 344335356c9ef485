// The platform's SQL repositories (settings and the outbox, which every area
// may use). Each area declares its own in areas/<area>/store/repositories.h.
//
// Thread-safety: the repositories are stateless; safe from any thread.
#pragma once

#include <memory>

#include "ports/outbox_repository.h"
#include "ports/settings_repository.h"

namespace service::store {

std::unique_ptr<ports::OutboxRepository> NewSqlOutboxRepository();
std::unique_ptr<ports::SettingsRepository> NewSqlSettingsRepository();

}  // namespace service::store
