#include "api/json.h"

namespace service::api {

namespace {

// The one table from Status codes to HTTP statuses. A server-side status
// (5xx) shows its message only when it was made public (Status::Public);
// otherwise the client sees kInternalServerError and the message is logged.
struct ErrorRule {
  Code code;
  int http_status;
};
constexpr ErrorRule kErrorTable[] = {
    {Code::kOk, 200},
    {Code::kInvalidArgument, 400},
    {Code::kUnauthenticated, 401},
    {Code::kPaymentRequired, 402},
    {Code::kPermissionDenied, 403},
    {Code::kNotFound, 404},
    {Code::kConflict, 409},
    {Code::kGone, 410},
    {Code::kPayloadTooLarge, 413},
    {Code::kResourceExhausted, 429},
    {Code::kInternal, 500},
    {Code::kBadGateway, 502},
    {Code::kUnavailable, 503},
};

// The internal text of the last non-public server error answered on this
// thread, for the pipeline to log with the request id.
thread_local std::string t_internal_error;

}  // namespace

int HttpStatusFor(Code code) {
  for (const ErrorRule& rule : kErrorTable) {
    if (rule.code == code) return rule.http_status;
  }
  return 500;
}

std::string TakeInternalError() {
  std::string out = std::move(t_internal_error);
  t_internal_error.clear();
  return out;
}

Response JsonResponse(int status, const json::value& body) {
  return JsonTextResponse(status, json::serialize(body));
}

Response JsonTextResponse(int status, std::string body) {
  Response r;
  r.status = status;
  r.headers.Set("Content-Type", "application/json; charset=utf-8");
  r.body = std::move(body);
  return r;
}

Response ErrorResponse(int status, std::string_view message, const json::object& extra) {
  json::object body;
  body["error"] = message;
  for (const auto& kv : extra) body[kv.key()] = kv.value();
  return JsonResponse(status, body);
}

Response StatusResponse(const Status& status) {
  const int http = HttpStatusFor(status.code());
  if (!status.is_public()) {
    t_internal_error = status.ToString();
    return ErrorResponse(http, kInternalServerError);
  }
  json::object extra;
  if (!status.error_code().empty()) extra["code"] = status.error_code();
  if (!status.payload_json().empty()) {
    boost::system::error_code ec;
    json::value payload = json::parse(status.payload_json(), ec);
    if (!ec && payload.is_object())
      for (const auto& kv : payload.as_object()) extra[kv.key()] = kv.value();
  }
  return ErrorResponse(http, status.message(), extra);
}

Response ValidationFailed(const json::array& details) {
  return ErrorResponse(400, "Validation failed", json::object{{"details", details}});
}

Result<json::value> ParseJsonBody(std::string_view body) {
  size_t i = 0;
  while (i < body.size() && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t')) ++i;
  if (i == body.size()) return json::value(json::object());
  json::parse_options opts;
  opts.max_depth = 64;
  boost::system::error_code ec;
  json::value v = json::parse(body, ec, json::storage_ptr(), opts);
  if (ec) return InvalidArgument("Invalid JSON in request body");
  return v;
}

const json::value* Field(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  return it == o.end() ? nullptr : &it->value();
}

std::optional<std::string> StringField(const json::object& o, std::string_view key) {
  const json::value* v = Field(o, key);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

}  // namespace service::api
