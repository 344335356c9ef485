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

int HttpStatusFor(Code code);

Response JsonResponse(int status, const json::value& body);
// The same for a body that is already JSON text.
Response JsonTextResponse(int status, std::string body);
// {error: message} plus `extra`'s members.
Response ErrorResponse(int status, std::string_view message, const json::object& extra = {});
// Maps a failed Status: HTTP status from its code, `error` from its message,
// `code` from its error_code, plus its payload members.
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
