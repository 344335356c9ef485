// JsonLog: the shell's log, one JSON object per line on a file descriptor
// (standard error). Request lines carry only the request id, method, route
// pattern, status and duration: never headers, tokens, bodies or query
// strings.
//
// Thread-safety: every method may be called from any thread; each line is
// written whole with one write(2) under a mutex, so lines never interleave.
#pragma once

#include <mutex>
#include <string>
#include <string_view>

namespace service::shell {

// `s` as a JSON string literal, quotes included.
std::string JsonString(std::string_view s);
// Current UTC time as ISO 8601 with milliseconds, e.g. "2024-05-01T12:00:00.123Z".
std::string NowIso8601();

class JsonLog {
 public:
  explicit JsonLog(int fd = 2) : fd_(fd) {}
  JsonLog(const JsonLog&) = delete;
  JsonLog& operator=(const JsonLog&) = delete;

  // {"ts":..,"level":..,"msg":..<extra>}. `extra_members` is either empty
  // or starts with ',' and holds already-encoded JSON members.
  void Event(std::string_view level, std::string_view msg, std::string_view extra_members = {});
  // One line per answered request. An empty request id or route is logged
  // as null (the transport answered before the API saw the request).
  void Request(std::string_view request_id, std::string_view method, std::string_view route, int status,
               double duration_ms);

 private:
  void WriteLine(std::string line);

  int fd_;
  std::mutex mu_;
};

}  // namespace service::shell
