#include "api/json.h"

namespace service::api {

int HttpStatusFor(Code code) {
  switch (code) {
    case Code::kOk:
      return 200;
    case Code::kInvalidArgument:
      return 400;
    case Code::kUnauthenticated:
      return 401;
    case Code::kPaymentRequired:
      return 402;
    case Code::kPermissionDenied:
      return 403;
    case Code::kNotFound:
      return 404;
    case Code::kConflict:
      return 409;
    case Code::kGone:
      return 410;
    case Code::kPayloadTooLarge:
      return 413;
    case Code::kResourceExhausted:
      return 429;
    case Code::kInternal:
      return 500;
    case Code::kBadGateway:
      return 502;
    case Code::kUnavailable:
      return 503;
  }
  return 500;
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
  json::object extra;
  if (!status.error_code().empty()) extra["code"] = status.error_code();
  if (!status.payload_json().empty()) {
    boost::system::error_code ec;
    json::value payload = json::parse(status.payload_json(), ec);
    if (!ec && payload.is_object())
      for (const auto& kv : payload.as_object()) extra[kv.key()] = kv.value();
  }
  return ErrorResponse(HttpStatusFor(status.code()), status.message(), extra);
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
