// The C ABI (bindings/c/include/service_c.h) over service::Service.
//
// Every entry point catches everything: no C++ exception crosses extern "C".
// Strings handed to the caller for release are malloc'ed and freed by
// service_free, so the caller never mixes allocators.
//
// Streams: a streamed api::Response's ResponseStream may refer to the
// service's insides (an export reads through the area's repositories, a live
// stream is subscribed to its event bus), so it must not outlive the
// service. Every service_stream_t is listed in its service's StreamRegistry
// from the moment service_handle makes it; service_close releases the C++
// stream of every one still listed before the service goes, and the handle
// itself stays valid (it shares the registry, not the service) until the
// caller destroys it.
#include "service_c.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "service/http.h"
#include "service/options.h"
#include "service/service.h"
#include "service/status.h"

namespace {

// The open streams of one service (see the top of the file).
struct StreamRegistry {
  std::mutex mu;
  std::unordered_set<service_stream_t*> open;  // guarded by mu
};

// What a stream's waker (ResponseStream::Start) shares with
// service_stream_next and the caller's waker. The ResponseStream may call
// the waker after the stream is gone, so this is shared.
struct WakeSignal {
  std::mutex mu;
  std::condition_variable cv;
  bool woken = false;                       // guarded by mu
  service_stream_waker callback = nullptr;  // guarded by mu
  void* context = nullptr;                  // guarded by mu
};

}  // namespace

struct service_t {
  std::unique_ptr<service::Service> service;
  std::shared_ptr<StreamRegistry> streams = std::make_shared<StreamRegistry>();
};

struct service_stream_t {
  enum class Phase {
    kOpen,     // `stream` set
    kEnded,    // the body ended, or the caller destroys the handle
    kFailed,   // making a piece threw
    kOrphaned  // service_close ended it
  };
  std::shared_ptr<StreamRegistry> registry;
  std::shared_ptr<service::api::ResponseStream> stream;  // null unless kOpen
  std::shared_ptr<WakeSignal> signal = std::make_shared<WakeSignal>();
  std::string piece;  // the last piece handed out
  Phase phase = Phase::kOpen;
};

struct service_response_t {
  service::api::Response response;  // `stream` moved out into `stream` below
  bool streamed = false;
  service_stream_t* stream = nullptr;  // owned until taken
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

// Ends a stream's C++ side: no more waker calls to the caller, the
// ResponseStream closed (when it had not ended) and released. `phase` is
// kept when the stream had already ended or failed.
void ReleaseStream(service_stream_t* s, service_stream_t::Phase phase) {
  {
    std::lock_guard<std::mutex> lock(s->signal->mu);
    s->signal->callback = nullptr;
    s->signal->context = nullptr;
  }
  if (s->phase != service_stream_t::Phase::kOpen) return;
  s->phase = phase;
  std::shared_ptr<service::api::ResponseStream> stream = std::move(s->stream);
  if (!stream) return;
  try {
    stream->Close();
  } catch (...) {
    // Closing is best effort; the stream is released regardless.
  }
  stream.reset();
}

// Wraps a streamed response's ResponseStream into a listed handle and
// starts it. The handle is listed before Start, so an exception leaves
// nothing the service's close would miss.
service_stream_t* NewStream(service_t* service, std::shared_ptr<service::api::ResponseStream> stream) {
  auto handle = std::make_unique<service_stream_t>();
  handle->registry = service->streams;
  handle->stream = std::move(stream);
  {
    std::lock_guard<std::mutex> lock(handle->registry->mu);
    handle->registry->open.insert(handle.get());
  }
  try {
    std::shared_ptr<WakeSignal> signal = handle->signal;
    handle->stream->Start([signal] {
      std::lock_guard<std::mutex> lock(signal->mu);
      signal->woken = true;
      // Under the lock: once set_waker or destroy has taken it, the
      // caller's waker is not running and is not called again.
      if (signal->callback != nullptr) signal->callback(signal->context);
      signal->cv.notify_all();
    });
  } catch (...) {
    service_stream_destroy(handle.release());
    throw;
  }
  return handle.release();
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
    if (response->response.stream) {
      // The body is pulled by the caller (service_stream_next), not here: a
      // live stream runs for as long as its reader listens.
      response->streamed = true;
      response->stream = NewStream(service, std::move(response->response.stream));
      response->response.stream = nullptr;
    }
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

void service_response_destroy(service_response_t* response) {
  if (response == nullptr) return;
  service_stream_destroy(response->stream);
  delete response;
}

int service_response_is_streamed(const service_response_t* response) {
  return response != nullptr && response->streamed ? 1 : 0;
}

service_state service_response_take_stream(service_response_t* response, service_stream_t** out,
                                           char** out_error) {
  ClearError(out_error);
  if (out == nullptr) return Fail(out_error, SERVICE_INVALID_ARGUMENT, "out must not be NULL");
  *out = nullptr;
  if (response == nullptr) return Fail(out_error, SERVICE_INVALID_ARGUMENT, "response must not be NULL");
  if (!response->streamed) {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "the response is not streamed");
  }
  if (response->stream == nullptr) {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "the response's stream was taken already");
  }
  *out = response->stream;
  response->stream = nullptr;
  return SERVICE_OK;
}

service_state service_stream_next(service_stream_t* stream, int timeout_ms, service_stream_state* out_state,
                                  const char** out_data, size_t* out_len, char** out_error) {
  ClearError(out_error);
  if (out_data != nullptr) *out_data = "";
  if (out_len != nullptr) *out_len = 0;
  if (out_state != nullptr) *out_state = SERVICE_STREAM_END;
  if (stream == nullptr) return Fail(out_error, SERVICE_INVALID_ARGUMENT, "stream must not be NULL");
  if (out_state == nullptr || out_data == nullptr || out_len == nullptr) {
    return Fail(out_error, SERVICE_INVALID_ARGUMENT, "out_state, out_data and out_len must not be NULL");
  }
  using Phase = service_stream_t::Phase;
  switch (stream->phase) {
    case Phase::kOpen:
      break;
    case Phase::kEnded:
      return SERVICE_OK;  // END again
    case Phase::kFailed:
      return Fail(out_error, SERVICE_ERROR, "the stream failed earlier and is closed");
    case Phase::kOrphaned:
      return Fail(out_error, SERVICE_ERROR, "the service was closed; the stream has ended");
  }
  try {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline =
        Clock::now() + std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : 0);
    WakeSignal& signal = *stream->signal;
    for (;;) {
      {
        // Cleared before asking, so a wake that comes while Next runs is
        // not lost.
        std::lock_guard<std::mutex> lock(signal.mu);
        signal.woken = false;
      }
      stream->piece.clear();
      switch (stream->stream->Next(&stream->piece)) {
        case service::api::ResponseStream::State::kData:
          if (stream->piece.empty()) continue;  // nothing written: ask again
          *out_state = SERVICE_STREAM_DATA;
          *out_data = stream->piece.c_str();
          *out_len = stream->piece.size();
          return SERVICE_OK;
        case service::api::ResponseStream::State::kEnd: {
          // Complete: nothing to close, only to release.
          {
            std::lock_guard<std::mutex> lock(signal.mu);
            signal.callback = nullptr;
            signal.context = nullptr;
          }
          stream->phase = Phase::kEnded;
          stream->stream.reset();
          *out_state = SERVICE_STREAM_END;
          return SERVICE_OK;
        }
        case service::api::ResponseStream::State::kPending: {
          std::unique_lock<std::mutex> lock(signal.mu);
          const auto woken = [&signal] { return signal.woken; };
          if (timeout_ms < 0) {
            signal.cv.wait(lock, woken);
          } else if (timeout_ms == 0 || !signal.cv.wait_until(lock, deadline, woken)) {
            *out_state = SERVICE_STREAM_WAIT;
            return SERVICE_OK;
          }
          break;
        }
      }
    }
  } catch (...) {
    stream->piece.clear();
    ReleaseStream(stream, Phase::kFailed);
    return FailFromException(out_error);
  }
}

void service_stream_set_waker(service_stream_t* stream, service_stream_waker wake, void* context) {
  if (stream == nullptr) return;
  std::lock_guard<std::mutex> lock(stream->signal->mu);
  if (stream->phase != service_stream_t::Phase::kOpen) wake = nullptr;
  stream->signal->callback = wake;
  stream->signal->context = wake != nullptr ? context : nullptr;
  // Something came since the last service_stream_next began: tell the new
  // waker now rather than never.
  if (wake != nullptr && stream->signal->woken) wake(context);
}

void service_stream_destroy(service_stream_t* stream) {
  if (stream == nullptr) return;
  try {
    bool listed = false;
    {
      std::lock_guard<std::mutex> lock(stream->registry->mu);
      listed = stream->registry->open.erase(stream) > 0;
    }
    // Not listed: service_close has released it already.
    if (listed) ReleaseStream(stream, service_stream_t::Phase::kEnded);
  } catch (...) {
    // Best effort; the handle is released regardless.
  }
  delete stream;
}

void service_close(service_t* service) {
  if (service == nullptr) return;
  try {
    // The streams first: they may refer to the service's insides.
    std::lock_guard<std::mutex> lock(service->streams->mu);
    for (service_stream_t* stream : service->streams->open) {
      ReleaseStream(stream, service_stream_t::Phase::kOrphaned);
    }
    service->streams->open.clear();
  } catch (...) {
    // Best effort, as below.
  }
  try {
    if (service->service) service->service->Shutdown();
  } catch (...) {
    // Shutdown is best effort; the handle is released regardless.
  }
  delete service;
}

}  // extern "C"
