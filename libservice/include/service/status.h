// Status and Result<T>: how every fallible library call reports failure.
//
// Expected outcomes (not found, validation, conflicts) are Status values, never
// exceptions. Exceptions are reserved for bugs and are caught at the HTTP and
// C boundaries. One table (api/errors) maps codes to HTTP statuses.
//
// Thread-safety: plain values; safe to copy between threads.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace service {

enum class Code {
  kOk = 0,
  kInvalidArgument,    // 400: the caller sent something malformed
  kUnauthenticated,    // 401
  kPaymentRequired,    // 402: a plan limit was reached
  kPermissionDenied,   // 403
  kNotFound,           // 404
  kConflict,           // 409: already exists, lost a race, stale revision
  kGone,               // 410
  kPayloadTooLarge,    // 413
  kResourceExhausted,  // 429: rate limited
  kInternal,           // 500: a bug or an unexpected backend failure
  kBadGateway,         // 502: an outbound peer failed
  kUnavailable,        // 503: a dependency is down or not configured
};

const char* CodeName(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  // `error_code` is a named code such as "INVITE_PENDING", sent as the
  // error body's `code`; `payload_json` is a JSON object whose members are
  // merged into the error body (e.g. {"maskedEmail": "..."}).
  Status(Code code, std::string message, std::string error_code, std::string payload_json = {})
      : code_(code),
        message_(std::move(message)),
        error_code_(std::move(error_code)),
        payload_json_(std::move(payload_json)) {}

  static Status Ok() { return Status(); }

  // A server-side failure (500, 502, 503) whose message is written for
  // clients, such as "AI service not configured". Every other server-side
  // message is internal (driver text, SQL, a peer's reply): the HTTP layer
  // logs it with the request id and answers {error: "Internal server
  // error", requestId} instead. Client errors (4xx) are always public.
  static Status Public(Code code, std::string message, std::string error_code = {},
                       std::string payload_json = {}) {
    Status s(code, std::move(message), std::move(error_code), std::move(payload_json));
    s.public_ = true;
    return s;
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  const std::string& error_code() const { return error_code_; }
  const std::string& payload_json() const { return payload_json_; }
  // True when message(), error_code() and payload_json() may be shown to a
  // client (see Public).
  bool is_public() const {
    return public_ || (code_ != Code::kInternal && code_ != Code::kBadGateway && code_ != Code::kUnavailable);
  }
  std::string ToString() const;

  // Explicitly discards a status whose failure is acceptable at this call.
  void IgnoreError() const {}

 private:
  Code code_ = Code::kOk;
  std::string message_;
  std::string error_code_;
  std::string payload_json_;
  bool public_ = false;
};

inline Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
inline Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
inline Status Conflict(std::string m) { return {Code::kConflict, std::move(m)}; }
inline Status Internal(std::string m) { return {Code::kInternal, std::move(m)}; }
inline Status Unavailable(std::string m) { return {Code::kUnavailable, std::move(m)}; }
inline Status Unauthenticated(std::string m) { return {Code::kUnauthenticated, std::move(m)}; }
inline Status PermissionDenied(std::string m) { return {Code::kPermissionDenied, std::move(m)}; }

// A value or the Status explaining its absence.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok() && "Result built from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  // REQUIRES: ok()
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace service

#define SV_CONCAT_INNER(a, b) a##b
#define SV_CONCAT(a, b) SV_CONCAT_INNER(a, b)

// Returns the status from the enclosing function when `expr` failed.
#define SV_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::service::Status sv_status_ = (expr);   \
    if (!sv_status_.ok()) return sv_status_; \
  } while (0)

// `lhs = value of expr`, or returns its status from the enclosing function.
#define SV_ASSIGN_OR_RETURN(lhs, expr) SV_ASSIGN_OR_RETURN_IMPL(SV_CONCAT(sv_result_, __LINE__), lhs, expr)
#define SV_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()
