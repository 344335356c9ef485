// JSON responses and the error envelope (Spec 1 "Errors").
//
// One table maps Status codes to HTTP statuses; every error body is JSON with
// at least `error`.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>

#include "service/http.h"
#include "service/status.h"

namespace service::api {

namespace json = boost::json;

// The body of every 5xx answer whose cause is internal.
inline constexpr std::string_view kInternalServerError = "Internal server error";

int HttpStatusFor(Code code);
// The internal message behind the last 5xx StatusResponse built on this
// thread (then cleared), or "". The pipeline logs it with the request id.
std::string TakeInternalError();

Response JsonResponse(int status, const json::value& body);
// The same for a body that is already JSON text.
Response JsonTextResponse(int status, std::string body);
// {error: message} plus `extra`'s members.
Response ErrorResponse(int status, std::string_view message, const json::object& extra = {});
// Maps a failed Status: HTTP status from its code, `error` from its message,
// `code` from its error_code, plus its payload members. A server-side status
// that is not public (Status::is_public) answers {error: "Internal server
// error"} and leaves its text for TakeInternalError.
Response StatusResponse(const Status& status);
// 400 {error: "Validation failed", details: [...]}.
Response ValidationFailed(const json::array& details);

// Strict parse of a request body. Malformed: Status kInvalidArgument
// "Invalid JSON in request body". Depth is capped (64) so nesting attacks fail
// cleanly. An empty body parses as an empty object.
Result<json::value> ParseJsonBody(std::string_view body);

// Convenience readers over a JSON object.
const json::value* Field(const json::object& o, std::string_view key);
std::optional<std::string> StringField(const json::object& o, std::string_view key);

}  // namespace service::api

// In a route handler: `lhs = value of expr`, or return the error response
// for its status (StatusResponse). The one prologue of every handler:
//   SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
#define SV_ASSIGN_OR_RESPOND(lhs, expr) \
  SV_ASSIGN_OR_RESPOND_IMPL(SV_CONCAT(sv_response_, __LINE__), lhs, expr)
#define SV_ASSIGN_OR_RESPOND_IMPL(tmp, lhs, expr)                     \
  auto tmp = (expr);                                                  \
  if (!tmp.ok()) return ::service::api::StatusResponse(tmp.status()); \
  lhs = std::move(tmp).value()
