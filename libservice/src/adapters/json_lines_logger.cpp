// The default Logger: one JSON object per line on a file descriptor.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "service/logger.h"
#include "util/json_writer.h"
#include "util/mutex.h"
#include "util/time.h"

#include <chrono>

namespace service {
namespace {

class JsonLinesLogger final : public Logger {
 public:
  explicit JsonLinesLogger(int fd) : fd_(fd) {}

  void Log(LogLevel level, std::string_view message, const std::vector<LogField>& fields) override {
    try {
      util::JsonWriter w;
      w.BeginObject();
      w.Key("ts").String(util::FormatIso8601(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 std::chrono::system_clock::now().time_since_epoch())
                                                 .count()));
      w.Key("level").String(LogLevelName(level));
      w.Key("msg").String(message);
      for (const LogField& f : fields) {
        w.Key(f.key);
        switch (f.kind) {
          case LogField::Kind::kString:
            w.String(f.value);
            break;
          case LogField::Kind::kNumber:
            w.Raw(f.value);
            break;
          case LogField::Kind::kNull:
            w.Null();
            break;
        }
      }
      w.EndObject();
      std::string line = w.Take();
      line += '\n';
      util::MutexLock lock(&mu_);
      size_t off = 0;
      while (off < line.size()) {
        const ssize_t n = ::write(fd_, line.data() + off, line.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        off += static_cast<size_t>(n);
      }
    } catch (...) {
      // A logger must never throw into its caller; a lost log line is the
      // only outcome left when even formatting fails (out of memory).
    }
  }

 private:
  const int fd_;
  util::Mutex mu_;  // one line at a time on fd_
};

class NullLogger final : public Logger {
 public:
  void Log(LogLevel, std::string_view, const std::vector<LogField>&) override {}
};

}  // namespace

LogField LogField::Number(std::string_view k, double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", std::isfinite(v) ? v : 0.0);
  LogField f(k, std::string(text));
  f.kind = Kind::kNumber;
  return f;
}

LogField LogField::Number(std::string_view k, int64_t v) {
  LogField f(k, std::to_string(v));
  f.kind = Kind::kNumber;
  return f;
}

LogField LogField::Null(std::string_view k) {
  LogField f(k, std::string());
  f.kind = Kind::kNull;
  return f;
}

const char* LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "error";
}

std::shared_ptr<Logger> NewJsonLinesLogger(int fd) { return std::make_shared<JsonLinesLogger>(fd); }
std::shared_ptr<Logger> NewNullLogger() { return std::make_shared<NullLogger>(); }

}  // namespace service
