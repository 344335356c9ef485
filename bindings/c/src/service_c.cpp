// The C ABI (bindings/c/include/service_c.h) over service::Service.
//
// Every entry point catches everything: no C++ exception crosses extern "C".
// Strings handed to the caller for release are malloc'ed and freed by
// service_free, so the caller never mixes allocators.
#include "service_c.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "service/http.h"
#include "service/options.h"
#include "service/service.h"
#include "service/status.h"

struct service_t {
  std::unique_ptr<service::Service> service;
};

struct service_response_t {
  service::api::Response response;
};

namespace {

// Copies `message` into malloc'ed memory for *out_error (when wanted).
void SetError(char** out_error, std::string_view message) {
  if (out_error == nullptr) return;
  char* copy = static_cast<char*>(std::malloc(message.size() + 1));
  if (copy == nullptr) {
    *out_error = nullptr;
    return;
  }
  std::memcpy(copy, message.data(), message.size());
  copy[message.size()] = '\0';
  *out_error = copy;
}

void ClearError(char** out_error) {
  if (out_error != nullptr) *out_error = nullptr;
}

service_state StateFor(const service::Status& status) {
  return status.code() == service::Code::kInvalidArgument ? SERVICE_INVALID_ARGUMENT : SERVICE_ERROR;
}

service_state Fail(char** out_error, service_state state, std::string_view message) {
  SetError(out_error, message);
  return state;
}

// Maps an escaping exception to SERVICE_ERROR with its message.
service_state FailFromException(char** out_error) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Fail(out_error, SERVICE_ERROR, "out of memory");
  } catch (const std::exception& e) {
    return Fail(out_error, SERVICE_ERROR, std::string("internal error: ") + e.what());
  } catch (...) {
    return Fail(out_error, SERVICE_ERROR, "internal error: unknown exception");
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes a path as an HTTP server would ('+' stays '+'); a malformed
// escape is kept literally.
std::string DecodePath(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size()) {
      int hi = HexValue(in[i + 1]);
      int lo = HexValue(in[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(in[i]);
  }
  return out;
}

std::string UpperAscii(std::string_view in) {
  std::string out(in);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace

extern "C" {

const char* service_version(void) {
  try {
    const char* v = service::Version();
    return v != nullptr ? v : "";
  } catch (...) {
    return "";
  }
}

void service_free(void* ptr) { std::free(ptr); }

service_state service_open(const char* database_url, service_t** out, char** out_error) {
  return service_open_with_settings(database_url, nullptr, nullptr, 0, out, out_error);
}

service_state service_open_with_settings(const char* database_url, const char* const* setting_names,
                                         const char* const* setting_values, size_t setting_count,
                                         service_t** out, char** out_error) {
  ClearError(out_error);
  if (out == nullptr) return Fail(out_error, SERVICE_INVALID_ARGUMENT, "out must not be NULL");
  *out = nullptr;
  if (database_url == nullptr) {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "database_url must not be NULL");
  }
  if (setting_count > 0 && (setting_names == nullptr || setting_values == nullptr)) {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "setting_names and setting_values must not be NULL");
  }
  try {
    service::Options options;
    options.database_url = database_url;
    for (size_t i = 0; i < setting_count; ++i) {
      if (setting_names[i] == nullptr || setting_values[i] == nullptr) {
        return Fail(out_error, SERVICE_INVALID_ARGUMENT,
                    "setting " + std::to_string(i) + " has a NULL name or value");
      }
      service::Status applied = service::ApplySetting(options, setting_names[i], setting_values[i]);
      if (!applied.ok()) return Fail(out_error, SERVICE_INVALID_ARGUMENT, applied.message());
    }
    service::Result<std::unique_ptr<service::Service>> opened = service::Service::Open(std::move(options));
    if (!opened.ok()) return Fail(out_error, StateFor(opened.status()), opened.status().message());
    auto handle = std::make_unique<service_t>();
    handle->service = std::move(opened).value();
    *out = handle.release();
    return SERVICE_OK;
  } catch (...) {
    return FailFromException(out_error);
  }
}

service_state service_start_workers(service_t* service, char** out_error) {
  ClearError(out_error);
  if (service == nullptr) return Fail(out_error, SERVICE_INVALID_ARGUMENT, "service must not be NULL");
  try {
    service::Status started = service->service->StartWorkers();
    if (!started.ok()) return Fail(out_error, StateFor(started), started.message());
    return SERVICE_OK;
  } catch (...) {
    return FailFromException(out_error);
  }
}

service_state service_handle(service_t* service, const char* method, const char* path_and_query,
                             const char* const* header_names, const char* const* header_values,
                             size_t header_count, const char* body, size_t body_len, service_response_t** out,
                             char** out_error) {
  ClearError(out_error);
  if (out == nullptr) return Fail(out_error, SERVICE_INVALID_ARGUMENT, "out must not be NULL");
  *out = nullptr;
  if (service == nullptr) return Fail(out_error, SERVICE_INVALID_ARGUMENT, "service must not be NULL");
  if (method == nullptr || method[0] == '\0') {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "method must not be NULL or empty");
  }
  if (path_and_query == nullptr || path_and_query[0] != '/') {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "path_and_query must start with '/'");
  }
  if (header_count > 0 && (header_names == nullptr || header_values == nullptr)) {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "header_names and header_values must not be NULL");
  }
  if (body == nullptr && body_len > 0) {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "body is NULL but body_len is not 0");
  }
  try {
    service::api::Request request;
    request.method = UpperAscii(method);
    std::string_view target(path_and_query);
    size_t question = target.find('?');
    if (question == std::string_view::npos) {
      request.path = DecodePath(target);
    } else {
      request.path = DecodePath(target.substr(0, question));
      request.query = std::string(target.substr(question + 1));
    }
    for (size_t i = 0; i < header_count; ++i) {
      if (header_names[i] == nullptr || header_values[i] == nullptr) {
        return Fail(out_error, SERVICE_INVALID_ARGUMENT,
                    "header " + std::to_string(i) + " has a NULL name or value");
      }
      request.headers.Add(header_names[i], header_values[i]);
    }
    if (body_len > 0) request.body.assign(body, body_len);

    auto response = std::make_unique<service_response_t>();
    response->response = service->service->Handle(request);
    // A stream producer may run for as long as its peer listens; it is not
    // run here (see the header).
    response->response.stream = nullptr;
    *out = response.release();
    return SERVICE_OK;
  } catch (...) {
    return FailFromException(out_error);
  }
}

int service_response_status(const service_response_t* response) {
  return response != nullptr ? response->response.status : 0;
}

const char* service_response_body(const service_response_t* response, size_t* len) {
  if (response == nullptr) {
    if (len != nullptr) *len = 0;
    return nullptr;
  }
  if (len != nullptr) *len = response->response.body.size();
  return response->response.body.c_str();
}

const char* service_response_header(const service_response_t* response, const char* name) {
  if (response == nullptr || name == nullptr) return nullptr;
  for (const auto& [key, value] : response->response.headers.items()) {
    if (EqualsIgnoreCase(key, name)) return value.c_str();
  }
  return nullptr;
}

size_t service_response_header_count(const service_response_t* response) {
  return response != nullptr ? response->response.headers.items().size() : 0;
}

const char* service_response_header_name(const service_response_t* response, size_t index) {
  if (response == nullptr || index >= response->response.headers.items().size()) return nullptr;
  return response->response.headers.items()[index].first.c_str();
}

const char* service_response_header_value(const service_response_t* response, size_t index) {
  if (response == nullptr || index >= response->response.headers.items().size()) return nullptr;
  return response->response.headers.items()[index].second.c_str();
}

void service_response_destroy(service_response_t* response) { delete response; }

void service_close(service_t* service) {
  if (service == nullptr) return;
  try {
    if (service->service) service->service->Shutdown();
  } catch (...) {
    // Shutdown is best effort; the handle is released regardless.
  }
  delete service;
}

}  // extern "C"
