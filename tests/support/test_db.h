// Fresh databases for tests on the backend named by SERVICE_TEST_BACKEND
// ("sqlite", the default, or "postgres"). PostgreSQL comes from
// SERVICE_TEST_POSTGRES_URL (set by scripts/test.sh, which starts a throwaway
// cluster); each call gets its own schema so tests never see each other.
#pragma once

#include <string>

namespace service::testing {

// "sqlite" or "postgres".
std::string TestBackend();
// A database URL nobody else uses, empty and unmigrated.
std::string FreshDatabaseUrl();

}  // namespace service::testing
