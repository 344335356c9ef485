// Logger: where the library reports what it cannot return to a caller:
// failures of background tasks (mail delivery, batched bookkeeping, expiry
// sweeps), the internal cause of every 5xx answer (with its request id), and
// start-up notes. Like leveldb's Options::info_log, an embedder injects its
// own through Options::logger; the default writes one JSON object per line
// to standard error: {"ts":"<ISO 8601>","level":"error","msg":"...",<fields>}.
//
// Entries never carry secrets (passwords, tokens, keys, mail credentials)
// nor request bodies; callers pass only what is safe to keep in a log.
//
// Thread-safety: Log may be called from any thread at once; an
// implementation must not call back into the Service.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace service {

enum class LogLevel { kInfo, kWarning, kError };

// "info", "warning" or "error".
const char* LogLevelName(LogLevel level);

// One piece of context: {"requestId", "..."}, {"task", "mail"}; a string
// unless made with Number or Null (written as a JSON number or null).
struct LogField {
  enum class Kind { kString, kNumber, kNull };

  LogField(std::string_view k, std::string v) : key(k), value(std::move(v)) {}
  LogField(std::string_view k, const char* v) : key(k), value(v) {}
  LogField(std::string_view k, std::string_view v) : key(k), value(v) {}
  static LogField Number(std::string_view k, double v);
  static LogField Number(std::string_view k, int64_t v);
  static LogField Null(std::string_view k);

  std::string_view key;
  std::string value;  // for kNumber, the number's text
  Kind kind = Kind::kString;
};

class Logger {
 public:
  Logger() = default;
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;
  virtual ~Logger() = default;

  // `message` is a short fixed phrase ("worker task failed"); `fields` the
  // context. Must not throw.
  virtual void Log(LogLevel level, std::string_view message, const std::vector<LogField>& fields = {}) = 0;
};

// The default: JSON lines on file descriptor `fd` (2: standard error), each
// line written whole with one write(2).
std::shared_ptr<Logger> NewJsonLinesLogger(int fd = 2);
// Discards everything (tests that provoke failures on purpose).
std::shared_ptr<Logger> NewNullLogger();

}  // namespace service
