#include "json_log.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ctime>

namespace service::shell {

std::string JsonString(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += "\\u00";
          out += kHex[u >> 4];
          out += kHex[u & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string NowIso8601() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  std::tm tm{};
  ::gmtime_r(&ts.tv_sec, &tm);
  char buf[80];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ts.tv_nsec / 1'000'000));
  return buf;
}

void JsonLog::Event(std::string_view level, std::string_view msg, std::string_view extra_members) {
  std::string line =
      "{\"ts\":\"" + NowIso8601() + "\",\"level\":" + JsonString(level) + ",\"msg\":" + JsonString(msg);
  line += extra_members;
  line += "}\n";
  WriteLine(std::move(line));
}

void JsonLog::Request(std::string_view request_id, std::string_view method, std::string_view route,
                      int status, double duration_ms) {
  char duration[32];
  std::snprintf(duration, sizeof(duration), "%.3f", duration_ms);
  std::string line;
  line.reserve(200);
  line += "{\"ts\":\"";
  line += NowIso8601();
  line += "\",\"level\":\"info\",\"msg\":\"request\",\"requestId\":";
  line += request_id.empty() ? std::string("null") : JsonString(request_id);
  line += ",\"method\":";
  line += JsonString(method);
  line += ",\"route\":";
  line += route.empty() ? std::string("null") : JsonString(route);
  line += ",\"status\":";
  line += std::to_string(status);
  line += ",\"durationMs\":";
  line += duration;
  line += "}\n";
  WriteLine(std::move(line));
}

void JsonLog::WriteLine(std::string line) {
  std::lock_guard<std::mutex> lock(mu_);
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nowhere to log; never fail a request for it
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace service::shell
