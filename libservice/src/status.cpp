#include "service/status.h"

namespace service {

const char* CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "OK";
    case Code::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case Code::kUnauthenticated:
      return "UNAUTHENTICATED";
    case Code::kPaymentRequired:
      return "PAYMENT_REQUIRED";
    case Code::kPermissionDenied:
      return "PERMISSION_DENIED";
    case Code::kNotFound:
      return "NOT_FOUND";
    case Code::kConflict:
      return "CONFLICT";
    case Code::kGone:
      return "GONE";
    case Code::kPayloadTooLarge:
      return "PAYLOAD_TOO_LARGE";
    case Code::kResourceExhausted:
      return "RESOURCE_EXHAUSTED";
    case Code::kInternal:
      return "INTERNAL";
    case Code::kBadGateway:
      return "BAD_GATEWAY";
    case Code::kUnavailable:
      return "UNAVAILABLE";
  }
  return "UNKNOWN";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s = CodeName(code_);
  if (!error_code_.empty()) s += " [" + error_code_ + "]";
  return s + ": " + message_;
}

}  // namespace service
