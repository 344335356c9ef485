// The bridge between cpp-httplib and the library: every request becomes an
// api::Request for Service::Handle and its api::Response is written back.
// No routes and no rules live here, only type conversion, the body size cap
// the transport must enforce before reading, and the request log.
//
// Body limit: the route's (Service::BodyPolicyFor; kMaxBodyBytes unless a
// route says otherwise). A declared Content-Length above it is answered 413
// (by the API, with body_too_large set) before the body is read, also for
// `Expect: 100-continue`; the connection then closes after draining what the
// peer still sends. Chunked bodies are read up to the same limit. A spooled
// route's body is written to a temporary file as it arrives (SpoolFile) and
// handed over as Request::body_source.
//
// Thread-safety: the mounted handlers run on the server's worker threads;
// `service` and `log` must outlive the server.
#pragma once

#include <cstddef>

#include "http_transport.h"
#include "service/logger.h"
#include "service/service.h"

namespace service::shell {

// The API's request body limit; the shell refuses to read more.
using api::kMaxBodyBytes;

// Request lines go to `log` with the request id, method, route pattern,
// status and duration: never headers, tokens, bodies or query strings.
void MountService(HttpServer& server, Service& service, Logger& log);

}  // namespace service::shell
