// The DSN a Sentry SDK is configured with (issue 13):
//   <scheme>://<capture key>@<host[:port]>[<path>]/<project_number>
// built from the service's public URL (SERVICE_PUBLIC_URL). An SDK derives
// its endpoints from it: <scheme>://<host[:port]><path>/api/<number>/envelope/.
// Pure; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace service::domain::projects {

// `public_url` is "scheme://host[:port][/path]" (a trailing slash is
// dropped); without "://" it is taken as a host and "http" is assumed.
std::string BuildDsn(std::string_view public_url, std::string_view key, int64_t project_number);

}  // namespace service::domain::projects
