// One libpq connection with the service's defaults (connect timeout,
// encoding, TCP keepalives); the URL may override them. Shared by the
// database pool and the event bus's NOTIFY/LISTEN connections.
#pragma once

#include <libpq-fe.h>

#include <string>

namespace service::store {

// A connected PGconn (notices ignored), or nullptr with `error` set (libpq's
// message, without its trailing newline).
PGconn* ConnectLibpq(const std::string& conninfo, const char* application_name, std::string* error);

}  // namespace service::store
