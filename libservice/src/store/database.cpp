// Rows helpers, placeholder rewriting and OpenDatabase's URL dispatch.
#include "store/database.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace service::store {
namespace {

const Value* Cell(const Rows& rows, size_t row, size_t col) {
  if (row >= rows.data.size() || col >= rows.data[row].size()) return nullptr;
  return &rows.data[row][col];
}

std::optional<int64_t> ParseInteger(std::string_view s) {
  // Trim blanks: PostgreSQL numeric text never has them, but be lenient.
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && ptr == s.data() + s.size() && !s.empty()) return v;
  // "12.0" (numeric) or "1e3": go through double when it is integral.
  std::string tmp(s);
  char* end = nullptr;
  double d = std::strtod(tmp.c_str(), &end);
  if (!tmp.empty() && end == tmp.c_str() + tmp.size() && std::isfinite(d) &&
      d >= static_cast<double>(std::numeric_limits<int64_t>::min()) &&
      d < static_cast<double>(std::numeric_limits<int64_t>::max())) {
    return static_cast<int64_t>(d);
  }
  return std::nullopt;
}

std::string FormatDouble(double d) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, d);
  if (ec != std::errc()) return "0";
  return std::string(buf, ptr);
}

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace

int Rows::Column(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  return -1;
}

bool Rows::IsNull(size_t row, size_t col) const {
  const Value* v = Cell(*this, row, col);
  return v == nullptr || std::holds_alternative<std::nullptr_t>(*v);
}

std::string Rows::Str(size_t row, size_t col) const {
  const Value* v = Cell(*this, row, col);
  if (v == nullptr) return {};
  if (const auto* s = std::get_if<std::string>(v)) return *s;
  if (const auto* i = std::get_if<int64_t>(v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(v)) return FormatDouble(*d);
  return {};
}

std::optional<std::string> Rows::OptStr(size_t row, size_t col) const {
  if (IsNull(row, col)) return std::nullopt;
  return Str(row, col);
}

int64_t Rows::Int(size_t row, size_t col) const {
  const Value* v = Cell(*this, row, col);
  if (v == nullptr) return 0;
  if (const auto* i = std::get_if<int64_t>(v)) return *i;
  if (const auto* d = std::get_if<double>(v)) {
    if (!std::isfinite(*d)) return 0;
    return static_cast<int64_t>(*d);
  }
  if (const auto* s = std::get_if<std::string>(v)) {
    if (*s == "t" || *s == "true") return 1;  // PostgreSQL booleans read as text
    if (*s == "f" || *s == "false") return 0;
    return ParseInteger(*s).value_or(0);
  }
  return 0;
}

std::optional<int64_t> Rows::OptInt(size_t row, size_t col) const {
  if (IsNull(row, col)) return std::nullopt;
  return Int(row, col);
}

double Rows::Dbl(size_t row, size_t col) const {
  const Value* v = Cell(*this, row, col);
  if (v == nullptr) return 0.0;
  if (const auto* d = std::get_if<double>(v)) return *d;
  if (const auto* i = std::get_if<int64_t>(v)) return static_cast<double>(*i);
  if (const auto* s = std::get_if<std::string>(v)) {
    char* end = nullptr;
    double d = std::strtod(s->c_str(), &end);
    return end == s->c_str() ? 0.0 : d;
  }
  return 0.0;
}

// Our SQL never uses PostgreSQL's jsonb `?`, `?|` and `?&` operators (use
// jsonb_exists() and friends instead), so every `?` outside quotes and
// comments is a placeholder.
std::string AbbreviateSql(std::string_view sql) {
  constexpr size_t kMax = 80;
  std::string s(sql.substr(0, kMax));
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (sql.size() > kMax) s += "...";
  return s;
}

std::string ToPostgresPlaceholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int n = 0;
  size_t i = 0;
  const size_t len = sql.size();
  while (i < len) {
    char c = sql[i];
    if (c == '\'') {
      // String literal; '' escapes a quote. E'...' also lets backslash escape.
      bool backslash_escapes =
          i > 0 && (sql[i - 1] == 'E' || sql[i - 1] == 'e') && (i < 2 || !IsIdentChar(sql[i - 2]));
      size_t j = i + 1;
      while (j < len) {
        if (backslash_escapes && sql[j] == '\\' && j + 1 < len) {
          j += 2;
          continue;
        }
        if (sql[j] == '\'') {
          if (j + 1 < len && sql[j + 1] == '\'') {
            j += 2;
            continue;
          }
          break;
        }
        ++j;
      }
      j = j < len ? j + 1 : len;
      out.append(sql.substr(i, j - i));
      i = j;
    } else if (c == '"') {
      size_t j = i + 1;
      while (j < len) {
        if (sql[j] == '"') {
          if (j + 1 < len && sql[j + 1] == '"') {
            j += 2;
            continue;
          }
          break;
        }
        ++j;
      }
      j = j < len ? j + 1 : len;
      out.append(sql.substr(i, j - i));
      i = j;
    } else if (c == '-' && i + 1 < len && sql[i + 1] == '-') {
      size_t j = sql.find('\n', i);
      j = j == std::string_view::npos ? len : j;
      out.append(sql.substr(i, j - i));
      i = j;
    } else if (c == '/' && i + 1 < len && sql[i + 1] == '*') {
      // PostgreSQL block comments nest.
      size_t j = i + 2;
      int depth = 1;
      while (j < len && depth > 0) {
        if (sql[j] == '/' && j + 1 < len && sql[j + 1] == '*') {
          ++depth;
          j += 2;
        } else if (sql[j] == '*' && j + 1 < len && sql[j + 1] == '/') {
          --depth;
          j += 2;
        } else {
          ++j;
        }
      }
      out.append(sql.substr(i, j - i));
      i = j;
    } else if (c == '$' && (i == 0 || !IsIdentChar(sql[i - 1]))) {
      // Dollar quoting: $$...$$ or $tag$...$tag$ (but not $1 parameters).
      size_t j = i + 1;
      while (j < len && IsIdentChar(sql[j]) && !(sql[j] >= '0' && sql[j] <= '9' && j == i + 1)) ++j;
      if (j < len && sql[j] == '$') {
        std::string_view tag = sql.substr(i, j - i + 1);
        size_t close = sql.find(tag, j + 1);
        size_t end = close == std::string_view::npos ? len : close + tag.size();
        out.append(sql.substr(i, end - i));
        i = end;
      } else {
        out.push_back(c);
        ++i;
      }
    } else if (c == '?') {
      out.push_back('$');
      out.append(std::to_string(++n));
      ++i;
    } else {
      out.push_back(c);
      ++i;
    }
  }
  return out;
}

#if !SERVICE_HAS_POSTGRES
// This build left the PostgreSQL driver out (SERVICE_USE_POSTGRES_IF_AVAILABLE
// off, or no libpq at configure time).
Result<std::unique_ptr<Database>> OpenPostgres(const std::string& /*conninfo*/,
                                               const DatabaseOptions& /*options*/) {
  return InvalidArgument(
      "this build has no PostgreSQL support (rebuild with libpq-dev installed and "
      "SERVICE_USE_POSTGRES_IF_AVAILABLE=ON); use a sqlite: URL");
}
#endif

#if SERVICE_HAS_POSTGRES
std::unique_ptr<ports::EventBus> NewPostgresEventBus(const std::string& conninfo, const std::string& origin,
                                                     Logger* log);
#endif

std::unique_ptr<ports::EventBus> NewEventBus(std::string_view url, const std::string& origin, Logger* log) {
#if SERVICE_HAS_POSTGRES
  if (url.substr(0, 13) == "postgresql://" || url.substr(0, 11) == "postgres://") {
    return NewPostgresEventBus(std::string(url), origin, log);
  }
#else
  (void)origin;
  (void)log;
#endif
  (void)url;
  return ports::NewInProcessEventBus();
}

Result<std::unique_ptr<Database>> OpenDatabase(std::string_view url, const DatabaseOptions& options) {
  constexpr std::string_view kSqlite = "sqlite:";
  if (url.substr(0, kSqlite.size()) == kSqlite) {
    std::string_view path = url.substr(kSqlite.size());
    // Accept "sqlite:///abs/path" and "sqlite://rel" as well as "sqlite:PATH".
    if (path.substr(0, 2) == "//") path.remove_prefix(2);
    if (path.empty()) return InvalidArgument("database URL \"sqlite:\" names no file");
    return OpenSqlite(std::string(path), options);
  }
  if (url.substr(0, 13) == "postgresql://" || url.substr(0, 11) == "postgres://") {
    return OpenPostgres(std::string(url), options);
  }
  return InvalidArgument(
      "unsupported database URL: expected sqlite:PATH, sqlite::memory: or postgresql://...");
}

}  // namespace service::store
